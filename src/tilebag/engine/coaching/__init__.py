"""Coaching: what a player is told about words, racks and moves.

- :mod:`.coach`: what a coach says at the table, in the terminal game and on
  the server alike (a hint, word lists, hooks, bingos, rack advice, the
  review of a move), as lines of text;
- :mod:`.word_lists`: word lists walked out of a lexicon's word graph
  (short words, anagrams, bingos, hooks);
- :mod:`.rack_advice`: what a rack or a leave is worth and what to keep.
"""
