"""Lights Out (sigma-plus, sigma; grids, tori, holes, graphs): GF(2) algebra, search, CP-SAT.

The command line reaches this package through :mod:`.kind` (the ``lightsout`` kind of
:mod:`cspsolve.registry`); this module is the library's face.
"""

from __future__ import annotations

from typing import Any

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

_ALGEBRA = {
    name: name for name in ("Solution", "minimum", "nullity", "quiet_patterns", "solutions")
} | {"solve_algebra": "solve"}
"""Names served from :mod:`.algebra` on first use, so that importing the package (as every
command does, to sniff files) does not import numpy."""


def __getattr__(name: str) -> Any:
    if name in _ALGEBRA:
        from . import algebra

        return getattr(algebra, _ALGEBRA[name])
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
