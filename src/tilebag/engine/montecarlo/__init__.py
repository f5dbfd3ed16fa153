"""Simulation: plays chosen by playing the game on from many deals.

- :mod:`.sim`: :class:`~tilebag.engine.montecarlo.sim.SimPlayer`, the
  candidates, the deals, the rollouts (in the compiled core, and here as the
  reference), dropping the candidates clearly worse, and the worker processes;
- :mod:`.inference`: the leaves that explain the opponent's last play, which
  the deals give the opponent.

A finished game judged by simulation is :mod:`tilebag.engine.analysis.sim_review`;
the win-probability table a rollout is valued by is
:mod:`tilebag.engine.equity.winpct`.
"""
