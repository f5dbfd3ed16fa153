"""Build configuration for the compiled core (everything else is in pyproject.toml).

The extension is optional: where no C compiler is available the build goes
on without it and tilebag uses its pure-Python move generator. Its sources
are in src/tilebag/engine/native/, one unit per concept (see core.h).
"""

import sys
from pathlib import Path

from setuptools import Extension, setup

# Equities must match the reference to the last bit, so no fused multiply-add.
FLAGS = [] if sys.platform == "win32" else ["-O2", "-ffp-contract=off", "-pthread"]
# The endgame search's helpers run on POSIX threads (elsewhere it searches on one).
LINK = [] if sys.platform == "win32" else ["-pthread"]

NATIVE = Path("src/tilebag/engine/native")
SOURCES = sorted(str(path) for path in NATIVE.glob("*.c"))
if not SOURCES:  # an optional extension without sources would be skipped without a word
    sys.exit(f"setup.py: no C sources in {NATIVE}: run it from the project's folder")

setup(
    ext_modules=[
        Extension(
            "tilebag.engine._native",
            SOURCES,
            depends=sorted(str(path) for path in NATIVE.glob("*.h")),
            extra_compile_args=FLAGS,
            extra_link_args=LINK,
            optional=True,
        )
    ]
)
