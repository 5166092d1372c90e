"""cspsolve: logic puzzles solved by state-space search and by constraint models.

The engine (this package) knows no puzzle by name; puzzle models live in
:mod:`cspsolve.models` and are found through :mod:`cspsolve.registry`. The calls of
:mod:`cspsolve.api` are here: :func:`read` and :func:`parse` a puzzle, then :func:`solve`,
:func:`verify`, :func:`analyze`, :func:`explain` or :func:`compare` it.

Examples
--------
>>> import cspsolve
>>> from cspsolve.instances import ROOT
>>> puzzle = cspsolve.read(ROOT / "rushhour" / "card-32.txt")[0]
>>> cspsolve.solve(puzzle, method="astar", heuristic="blocking", metric="moves").stats.cost
49.0
"""

import importlib.util
import sys
from pathlib import Path

from cspsolve.api import analyze, compare, explain, parse, read, solve, solve_many, verify
from cspsolve.limits import Limits
from cspsolve.results import Result, Stats, Status

__all__ = [
    "Limits",
    "Result",
    "Stats",
    "Status",
    "analyze",
    "compare",
    "explain",
    "parse",
    "read",
    "solve",
    "solve_many",
    "verify",
]
__version__ = "0.1.0"


def __dir__() -> list[str]:
    """The public names (``dir(cspsolve)``), not the helpers this module imports."""
    return sorted([*__all__, "__version__"])


def _mount_checkout_folders() -> None:
    """Import ``cspsolve.models`` and ``cspsolve.instances`` from a source checkout.

    An install maps the top-level folders ``models/`` and ``instances/`` into the package
    (pyproject's ``package-dir``). When Python starts in the repository's root, ``import
    cspsolve`` finds this folder instead of the install, and those two names would be missing:
    they are loaded from the checkout's folders under their installed names. Nothing else of
    the checkout becomes part of the package.
    """
    here = Path(__file__).resolve().parent
    for name in ("models", "instances"):
        folder = here.parent / name
        qualified = f"{__name__}.{name}"
        if (here / name).is_dir() or qualified in sys.modules or not folder.is_dir():
            continue
        if importlib.util.find_spec(qualified) is not None:
            continue
        spec = importlib.util.spec_from_file_location(
            qualified, folder / "__init__.py", submodule_search_locations=[str(folder)]
        )
        if spec is None or spec.loader is None:
            continue
        module = importlib.util.module_from_spec(spec)
        sys.modules[qualified] = module
        spec.loader.exec_module(module)


_mount_checkout_folders()
