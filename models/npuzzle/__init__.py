"""Sliding-tile puzzles (the 8-, 15-, 24-puzzle and any m x n board): formats, solvability,
search heuristics, additive pattern databases and a specialised IDA*.

The command line reaches this package through :mod:`.kind`; this module is the library's face.
"""

from __future__ import annotations

from .board import MOVES, Puzzle, check, default_goal, korf_goal, solvability
from .formats import Entry, read, select, sniff, write
from .grading import grade

__all__ = [
    "MOVES",
    "Entry",
    "Puzzle",
    "check",
    "default_goal",
    "grade",
    "korf_goal",
    "read",
    "select",
    "sniff",
    "solvability",
    "write",
]
