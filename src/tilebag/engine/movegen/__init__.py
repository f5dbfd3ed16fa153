"""Move generation: every legal play of a rack, and the variations' plays.

- :mod:`.generator`: :class:`~tilebag.engine.movegen.generator.MoveGenerator`,
  Gordon's GADDAG algorithm over a KWG word graph, with its two cores: the
  pure-Python reference written there, and the compiled core
  (``tilebag.engine._native``, C sources in ``engine/native/``) it drives
  through the same methods; also :class:`~tilebag.engine.movegen.generator.Play`,
  the order plays are listed in, and which core is in use;
- :mod:`.variations`: the house-rule variations' candidate actions (anagram
  plays, recycles, blank swaps), valued like the generator's plays.
"""
