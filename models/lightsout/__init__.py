"""Lights Out (sigma-plus, sigma; grids, tori, holes, graphs): GF(2) algebra, search, CP-SAT.

The command line reaches this package through :mod:`.kind` (the ``lightsout`` kind of
:mod:`cspsolve.registry`); this module is the library's face.
"""

from __future__ import annotations

from .algebra import Solution, minimum, nullity, quiet_patterns, solutions
from .algebra import solve as solve_algebra
from .board import VARIANTS, LightsOut, Presses, apply, check
from .formats import Entry, from_graph, from_networkx, read, write

__all__ = [
    "VARIANTS",
    "Entry",
    "LightsOut",
    "Presses",
    "Solution",
    "apply",
    "check",
    "from_graph",
    "from_networkx",
    "minimum",
    "nullity",
    "quiet_patterns",
    "read",
    "solutions",
    "solve_algebra",
    "write",
]
