"""What people use: the ``tilebag`` command (:mod:`.cli`, its options in
:mod:`.cli_options`, its subcommands in the ``cmd_*`` modules), and the game
in a terminal: who sits at the table (:mod:`.seats`), the session that
applies typed lines to the table (:mod:`.session`), what it says
(:mod:`.narration`), plain lines (:mod:`.play`) or
full screen (:mod:`.tui`, :mod:`.tui_setup`), drawn from one seat's view
(:mod:`tilebag.view`).
"""
