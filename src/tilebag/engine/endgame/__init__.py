"""The exact solvers for the end of the game.

- :mod:`.solver`: the endgame, the bag empty and both racks known (negamax
  with alpha-beta, iterative deepening and a transposition table; in the
  compiled core, and here as the reference);
- :mod:`.preendgame`: one tile in the bag, each tile it may hold settled by
  the endgame solver.
"""
