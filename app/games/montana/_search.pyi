# The compiled Montana round search (_search.c): what app.games.montana.solver uses of it.
from collections.abc import Callable
from typing import Literal

class Search:
    nodes: int
    advanced: bool
    root_key: int
    seen_bytes: int
    def __init__(self, cells: bytes, twos: tuple[bytes, ...], headed: bool) -> None: ...
    def run(
        self,
        max_seconds: float,
        max_nodes: int,
        max_bytes: int,
        full: Callable[[], bool] | None = None,
    ) -> Literal["going", "done", "budget", "room", "memory"]: ...
    def advance(self) -> None: ...
    def restart(self, cells: bytes) -> None: ...
    def result(
        self,
    ) -> tuple[Literal["solved", "unsolvable"] | None, list[tuple[int, int]], int]: ...

def key_of(board: bytes) -> int: ...
