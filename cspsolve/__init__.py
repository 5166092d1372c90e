"""cspsolve: logic puzzles solved by state-space search and by constraint models.

The engine (this package) knows no puzzle by name; puzzle models live in
:mod:`cspsolve.models` and are found through :mod:`cspsolve.registry`.
"""

from cspsolve.limits import Limits
from cspsolve.results import Result, Stats, Status

__all__ = ["Limits", "Result", "Stats", "Status"]
__version__ = "0.1.0"
