"""The exact solvers for the end of the game.

- :mod:`.solver`: the endgame, the bag empty and both racks known (negamax
  with alpha-beta, iterative deepening and a transposition table; in the
  compiled core, and here as the reference);
- :mod:`.preendgame`: one or two tiles in the bag, each draw settled by the
  endgame solver (with two, a placement of one tile by the opponent's best
  few replies).
"""
