"""Nonograms (paint-by-number): clues, formats, the GAC model, CP-SAT cross-check.

The command line reaches this package through :mod:`.kind` (the ``nonogram`` kind of
:mod:`cspsolve.registry`); this module is the library's face.
"""

from __future__ import annotations

from .board import Grid, Nonogram, check, clue_of
from .io.formats import Entry, read, select, sniff, write, write_nin, write_non
from .solver import DEFAULT_METHOD, METHODS, solve, verify

__all__ = [
    "DEFAULT_METHOD",
    "METHODS",
    "Entry",
    "Grid",
    "Nonogram",
    "check",
    "clue_of",
    "read",
    "select",
    "sniff",
    "solve",
    "verify",
    "write",
    "write_nin",
    "write_non",
]
