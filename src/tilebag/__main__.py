"""``python -m tilebag``: the same as the ``tilebag`` command."""

import sys

from tilebag.ui.cli import main

sys.exit(main())
