"""The example ``queens`` kind as the page needs it: read from text (a ``parse`` beside its
``read``), plus a method ``stubborn`` that ignores every limit (to test that the server kills
a worker that overruns). Registered through ``CSPSOLVE_KINDS`` by the tests of this folder."""

from __future__ import annotations

import dataclasses
import tempfile
import time
from pathlib import Path
from typing import Any

from queens import kind as queens

from cspsolve.kind import Method
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

KIND = dataclasses.replace(
    queens.KIND,
    read=read,
    sniff=lambda name, text: (
        "queens" if text.strip() and set(text.split()[0]) <= {".", "Q"} else None
    ),
    methods=(*queens.KIND.methods, STUBBORN),
)
