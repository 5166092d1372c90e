"""cspsolve: logic puzzles solved by state-space search and by constraint models.

The engine (this package) knows no puzzle by name; puzzle models live in
:mod:`cspsolve.models` and are found through :mod:`cspsolve.registry`. The calls of
:mod:`cspsolve.api` are here: :func:`read` and :func:`parse` a puzzle, then :func:`solve`,
:func:`verify`, :func:`analyze`, :func:`explain` or :func:`compare` it, or make puzzles to
order with :func:`generate`. So are the kinds'
puzzle classes, by the names their kinds offer them under (:attr:`cspsolve.kind.Kind.classes`:
``from cspsolve import Nonogram, LightsOut, RushHour, NPuzzle``): they are looked up in the
registry on first use, so that ``import cspsolve`` imports no kind, and ``__all__`` and
``dir(cspsolve)`` list them beside the engine's names.

Examples
--------
>>> import cspsolve
>>> from cspsolve.instances import ROOT
>>> puzzle = cspsolve.read(ROOT / "rushhour" / "card-32.txt")[0]
>>> cspsolve.solve(puzzle, method="astar", heuristic="blocking", metric="moves").stats.cost
49
"""

import importlib.util
import sys
from pathlib import Path
from typing import Any

from cspsolve.api import analyze as analyze
from cspsolve.api import compare as compare
from cspsolve.api import explain as explain
from cspsolve.api import generate as generate
from cspsolve.api import parse as parse
from cspsolve.api import read as read
from cspsolve.api import solve as solve
from cspsolve.api import solve_many as solve_many
from cspsolve.api import verify as verify
from cspsolve.limits import Limits as Limits
from cspsolve.results import Result as Result
from cspsolve.results import Stats as Stats
from cspsolve.results import Status as Status

_ENGINE = (
    "Limits",
    "Result",
    "Stats",
    "Status",
    "analyze",
    "compare",
    "explain",
    "generate",
    "parse",
    "read",
    "solve",
    "solve_many",
    "verify",
)
"""The engine's public names; ``__all__`` adds the kinds' puzzle classes."""
__version__ = "0.1.0"
"""The package's version, written only here: pyproject.toml reads it (``dynamic``)."""


def _puzzle_classes() -> dict[str, type]:
    """Every kind's puzzle classes by the names they are offered under (imports the kinds).

    Raises
    ------
    TypeError
        When a kind offers a class under a name the engine or another kind already uses.
    """
    from cspsolve.registry import kinds

    found: dict[str, type] = {}
    for kind in kinds().values():
        for name, cls in kind.classes.items():
            if name in found or name in _ENGINE:
                raise TypeError(f"kind {kind.name}: the name {name!r} is already taken")
            found[name] = cls
    return found


def __getattr__(name: str) -> Any:
    """``__all__`` (the engine's names and the kinds' puzzle classes) and a kind's puzzle class
    by name, looked up in the registry. Only a capitalised name is looked up: any other
    (``from cspsolve import tasks`` asks for one before importing the module) imports no kind.

    Raises
    ------
    AttributeError
        When no kind offers a class of that name.
    """
    if name == "__all__":
        return sorted([*_ENGINE, *_puzzle_classes()])
    found = _puzzle_classes().get(name) if name[:1].isupper() else None
    if found is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return found


def __dir__() -> list[str]:
    """The public names (``dir(cspsolve)``), not the helpers this module imports."""
    return sorted([*__getattr__("__all__"), "__version__"])


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
