"""Build configuration for the compiled core (everything else is in pyproject.toml).

The extension is optional: where no C compiler is available the build goes
on without it and tilebag uses its pure-Python move generator.
"""

import sys

from setuptools import Extension, setup

# Equities must match the reference to the last bit, so no fused multiply-add.
FLAGS = [] if sys.platform == "win32" else ["-O2", "-ffp-contract=off"]

setup(
    ext_modules=[
        Extension(
            "tilebag.engine._native",
            ["src/tilebag/engine/_native.c"],
            depends=["src/tilebag/engine/_native_endgame.h", "src/tilebag/engine/_native_rollout.h"],
            extra_compile_args=FLAGS,
            optional=True,
        )
    ]
)
