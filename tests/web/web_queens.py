"""The example ``queens`` kind as the page needs it: read from text (a ``parse`` beside its
``read``), plus a method ``stubborn`` that ignores every limit (to test that the server kills
a worker that overruns) and a player (a queen put or taken by pressing a cell, to test that a
kind outside the tree offers a tool). Registered through ``CSPSOLVE_KINDS`` by the tests of
this folder."""

from __future__ import annotations

import dataclasses
import tempfile
import time
from pathlib import Path
from typing import Any

from queens import kind as queens

from cspsolve.errors import OptionError
from cspsolve.kind import Method, Player
from cspsolve.limits import Limits
from cspsolve.results import Result, Status

STUBBORN_SECONDS = 60.0
"""How long ``stubborn`` sleeps, whatever its limits."""


def parse(text: str, source: str, *, fmt: str | None = None) -> list[queens.Entry]:
    """The example kind's reader, on text (through a private file it reads); a text starting
    with ``bug`` raises a TypeError, as a reader with a bug would."""
    if text.startswith("bug"):
        raise TypeError("a bug in the reader")
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "board.queens"
        path.write_text(text, encoding="utf-8")
        try:
            return queens.read(path)
        except queens.InputError as e:
            raise queens.InputError(source, e.line, e.message) from None


def read(path: str | Path) -> list[queens.Entry]:
    return parse(Path(path).read_text(encoding="utf-8"), str(path))


def _stubborn(puzzle: queens.Queens, /, **_: Any) -> Result[Any]:
    time.sleep(STUBBORN_SECONDS)
    return Result(Status.LIMIT)


STUBBORN = Method(
    name="stubborn",
    run=_stubborn,
    summary="sleeps past every limit",
    backend="search",
    optimal=None,
    complete=False,
)

Placed = tuple[int | None, ...]
"""The column of the queen in each row (``None``: no queen)."""


def placed(puzzle: queens.Queens, raw: Any) -> Placed:
    """The queens after the ``[row, column]`` presses: a press puts a queen in its row at its
    column, or takes it away if it is there."""
    columns = list(puzzle.given)
    for press in raw or []:
        if not (isinstance(press, list) and len(press) == 2 and 0 <= min(press) <= max(press)
                < puzzle.n):  # fmt: skip
            raise OptionError(f"a press is a [row, column] pair on the {puzzle.n}x{puzzle.n} board")
        r, c = press
        columns[r] = None if columns[r] == c else c
    return tuple(columns)


def drawn(puzzle: queens.Queens, columns: Placed) -> dict[str, Any]:
    """The board: a row of ``Q`` and ``.`` per row."""
    return {"rows": ["".join("Q" if c == q else "." for c in range(puzzle.n)) for q in columns]}


def hint(puzzle: queens.Queens, limits: Limits) -> dict[str, Any]:
    """The first row without a queen and the column of a solution's queen there."""
    dfs = queens.KIND.method("dfs")
    result = dfs.run(puzzle, heuristic=None, options=queens.KIND.options(), limits=limits)
    free = [r for r, g in enumerate(puzzle.given) if g is None]
    solution = result.solution if result.status.has_solution else None
    press = None if solution is None or not free else [free[0], solution[free[0]]]
    return {"press": press, "status": result.status.value}


PLAYER = Player(
    title="Play queens",
    note="Put a queen in each row; no two may attack each other.",
    moves=placed,
    board=drawn,
    after=lambda puzzle, columns: queens.Queens(columns),
    hint=hint,
)

KIND = dataclasses.replace(
    queens.KIND,
    read=read,
    sniff=lambda name, text: (
        "queens" if text.strip() and set(text.split()[0]) <= {".", "Q"} else None
    ),
    methods=(*queens.KIND.methods, STUBBORN),
    tools={"play": PLAYER},
)
