"""Game records and positions in the players' formats: GCG (:mod:`.gcg`,
written by :mod:`.gcg_write`, its pragmas in :mod:`.gcg_pragmas`), CGP
(:mod:`.cgp`), and the replay that checks a record against the rules
(:mod:`.replay`, its findings in :mod:`.replay_report`).
"""
