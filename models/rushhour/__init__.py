"""Rush Hour: boards, formats, compiled cluster BFS, A*/IDA* heuristics, analysis, CP-SAT bounds.

The command line reaches this package through :mod:`.kind` (the ``rushhour`` kind of
:mod:`cspsolve.registry`); this module is the library's face.
"""

from __future__ import annotations

from typing import Any

from .board import Board, Move, Piece, check, replay
from .formats import Entry, board_string, parse, read, select, sniff, write
from .grading import grade
from .search import HEURISTICS, METRICS, RushHourProblem, heuristic

__all__ = [
    "HEURISTICS",
    "METRICS",
    "Board",
    "Entry",
    "Move",
    "Piece",
    "RushHourProblem",
    "analyze",
    "board_string",
    "check",
    "grade",
    "heuristic",
    "parse",
    "read",
    "replay",
    "select",
    "sniff",
    "state_graph",
    "write",
]

_ANALYSIS = frozenset({"analyze", "state_graph"})
"""Names served from :mod:`.analysis` on first use, so that importing the package (as every
command does, to sniff files) does not import numpy."""


def __getattr__(name: str) -> Any:
    if name in _ANALYSIS:
        from . import analysis

        return getattr(analysis, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
