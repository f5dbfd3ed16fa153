"""Research and measurement: tools that pit, train and time the engine.

The library never imports this package (``tests/core/test_architecture.py``
checks that nothing outside ``tilebag.lab`` and ``tilebag.ui`` does); the
``tilebag`` commands that run these tools do.

- :mod:`.selfplay`: bots playing whole games (``tilebag selfplay``);
- :mod:`.match`: two bots over paired games (``tilebag match``);
- :mod:`.leave_training`: a leave table trained by self-play
  (``tilebag leaves train``);
- :mod:`.wintable`: the win-probability table fitted to self-play
  (``tilebag wintable``);
- :mod:`.bench`: the engine's benchmarks (``tilebag bench movegen``,
  ``selfplay``, ``sim``, ``endgame``, ``opening``);
- :mod:`.serve_bench`: many games at once against a real server
  (``tilebag bench serve``);
- :mod:`.perft`: every core of the move generator against a brute-force
  enumerator on random positions (``tilebag bench perft``).
"""
