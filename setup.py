"""Build configuration for the compiled core (everything else is in pyproject.toml).

The extension is optional: where no C compiler is available the build goes
on without it and tilebag uses its pure-Python move generator.
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "tilebag._native",
            ["src/tilebag/_native.c"],
            extra_compile_args=["-O2"],
            optional=True,
        )
    ]
)
