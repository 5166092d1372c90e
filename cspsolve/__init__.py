"""cspsolve: logic puzzles solved by state-space search and by constraint models.

The engine (this package) knows no puzzle by name; puzzle models live in
:mod:`cspsolve.models` and are found through :mod:`cspsolve.registry`.
"""

from pathlib import Path

from cspsolve.limits import Limits
from cspsolve.results import Result, Stats, Status

__all__ = ["Limits", "Result", "Stats", "Status"]
__version__ = "0.1.0"

_checkout = Path(__file__).resolve().parent.parent
if not Path(__file__).with_name("models").is_dir() and (_checkout / "models").is_dir():
    # Imported from a source checkout (e.g. Python started in the repository's root): find
    # ``cspsolve.models`` and ``cspsolve.instances`` in the top-level folders that an install
    # maps there (pyproject's package-dir).
    __path__.append(str(_checkout))
