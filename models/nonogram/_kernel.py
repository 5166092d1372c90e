"""The decorator of the fast solver's compiled kernels."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

import numba

__all__ = ["kernel"]

_F = TypeVar("_F", bound=Callable[..., Any])


def kernel(inline: bool = False) -> Callable[[_F], _F]:
    """``numba.njit`` for the hot loops: cached, without the GIL, without reference counting.

    Without numba's runtime (``_nrt=False``) a kernel passes arrays to another without the
    atomic reference-count updates that otherwise cost more than the line solving itself
    (measured: probing 2.6 times faster). Such a kernel cannot allocate: every array it uses is
    passed in. ``inline=True`` inlines the function into its callers at numba's level.
    """
    options: dict[str, Any] = {"cache": True, "nogil": True, "_nrt": False}
    if inline:
        options["inline"] = "always"
    return cast(Callable[[_F], _F], numba.njit(**options))
