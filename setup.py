"""The compiled part of the engine: Montana's round search (app/games/montana/_search.c).

Optional: where no C compiler is found the install goes on without it and Montana searches
in pure Python (``app.games.montana.solver`` picks the engine, in one place).
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "app.games.montana._search",
            ["app/games/montana/_search.c"],
            extra_compile_args=["-O2", "-Wall", "-Wextra", "-Wno-unused-parameter"],
            optional=True,
        )
    ]
)
