"""A stub puzzle kind for tests of the engine's plumbing (batch, command line)."""

from __future__ import annotations

import types
from collections.abc import Callable
from pathlib import Path
from typing import Any

from cspsolve.errors import OptionError
from cspsolve.kind import Kind, Method
from cspsolve.render import Scene
from cspsolve.results import Result


def _no_scenes(puzzle: str, solution: str) -> list[Scene]:
    raise OptionError("a stub puzzle has no grid")


def stub_kind(name: str, solve: Callable[[str], Result[Any]]) -> Kind:
    """A kind reading ``*.<name>`` files (one puzzle each: the file's text), whose one method
    ``only`` calls ``solve(puzzle)``; solutions are strings, drawn as they are."""

    def read(path: str | Path) -> list[Any]:
        return [types.SimpleNamespace(id=None, puzzle=Path(path).read_text(), line=1)]

    def run(puzzle: str, /, **_: Any) -> Result[Any]:
        return solve(puzzle)

    only = Method(
        name="only",
        run=run,
        summary="the stub",
        backend="search",
        optimal=None,
        complete=True,
        default=True,
    )
    return Kind(
        name=name,
        title=name.title(),
        extensions=frozenset(),
        methods=(only,),
        reference="only",
        sniff=lambda file, text: name if file.endswith(f".{name}") else None,
        read=read,
        select=lambda entries, key, source: entries[0],
        write=lambda puzzle, path: None,
        check=lambda puzzle, solution: [],
        encode=lambda solution: solution,
        describe=lambda puzzle: f"{len(puzzle)} characters",
        draw=lambda puzzle, solution: str(solution),
        scenes=_no_scenes,
        analyze=lambda puzzle, **_: {},
        analysis="nothing",
    )
