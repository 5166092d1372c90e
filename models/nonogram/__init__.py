"""Nonograms (paint-by-number), black-and-white and colour: clues, formats, the GAC model,
CP-SAT cross-check.

The engine reaches this package through :data:`.kind.KIND` (its methods, options and files);
this module is the library's face.
"""

from __future__ import annotations

from .board import Grid, Nonogram, check, clue_of
from .colour_board import Colour, ColourNonogram
from .io.formats import Entry, read, select, sniff, write, write_nin, write_non
from .kind import KIND, solve, verify

__all__ = [
    "KIND",
    "Colour",
    "ColourNonogram",
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
