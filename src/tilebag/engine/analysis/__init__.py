"""A game's turns judged: each play beside the best ones.

- :mod:`.review`: each turn ranked by static equity (the equity lost, missed
  bingos, phonies) and each player's totals, for one live move or a record;
- :mod:`.sim_review`: each turn's chance of winning lost, by simulation;
- :mod:`.batch`: many records analysed at once on a batch backend.
"""
