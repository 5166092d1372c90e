"""Solvers loaded when first run: a kind's table names a method's runner without importing it.

Importing a kind (as every command does, to sniff files) must not load its solvers: numba and
its compiled kernels, numpy, OR-Tools. A method row therefore names its runner by module and
function through :func:`lazy`, and the module is imported at the runner's first call.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

__all__ = ["lazy"]


def lazy(module: str, name: str = "run") -> Callable[..., Any]:
    """The function ``name`` of ``module``, imported at its first call.

    Examples
    --------
    >>> dumps = lazy("json", "dumps")
    >>> dumps([1, 2])
    '[1, 2]'
    """

    def call(*args: Any, **keywords: Any) -> Any:
        return getattr(importlib.import_module(module), name)(*args, **keywords)

    call.__name__ = call.__qualname__ = name
    return call
