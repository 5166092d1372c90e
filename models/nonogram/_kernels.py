"""How the nonogram kernels are compiled, and the numba internals they use, in one place.

:func:`kernel` is ``numba.njit`` for the hot loops. Three of numba's internals make them faster,
and this module alone touches them:

* the private option ``_nrt=False`` compiles a kernel without numba's runtime, so that passing
  arrays from kernel to kernel needs no atomic reference-count updates (such a kernel cannot
  allocate: every array it uses is passed in);
* :func:`copy` copies a grid as one ``memcpy`` (``numba.core.cgutils``, an intrinsic): numba's
  element loop over ``(plane, line, word)`` does not vectorise, a line being one word;
* :func:`lowest_bit` is LLVM's count of trailing zeros (``numba.cpython.unsafe``).

They are tested on the numba versions ``pyproject.toml`` allows. Where they are missing, or when
the environment variable ``CSPSOLVE_NUMBA_INTERNALS`` is ``0``, every kernel is plain
``numba.njit`` with the runtime, :func:`copy` an element loop and :func:`lowest_bit` a
population count: the same answers, found more slowly. That fallback is compiled afresh in each
process (``cache=False``): numba's cache keys a kernel by its bytecode alone and would hand one
mode's machine code to the other.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any, TypeVar, cast

import numba
import numpy as np

from cspsolve.compiling import announce_compiling

announce_compiling()

__all__ = ["INTERNALS", "copy", "kernel", "kernel_options", "lowest_bit", "popcount"]

_F = TypeVar("_F", bound=Callable[..., Any])

try:
    from numba.core import cgutils
    from numba.cpython.unsafe.numbers import trailing_zeros
    from numba.extending import intrinsic
except ImportError:  # pragma: no cover - a numba without these internals
    INTERNALS = False
else:
    INTERNALS = os.environ.get("CSPSOLVE_NUMBA_INTERNALS", "1") != "0"
"""Whether the kernels use numba's internals (see the module docstring)."""


def kernel_options() -> dict[str, Any]:
    """The options of ``numba.njit`` for a kernel: without the GIL, cached, without the
    runtime (see :func:`kernel`); also the ``jit_options`` of a kernel's
    ``numba.extending.overload``."""
    options: dict[str, Any] = {"nogil": True, "cache": INTERNALS}
    if INTERNALS:
        options["_nrt"] = False
    return options


def kernel(inline: bool = False) -> Callable[[_F], _F]:
    """``numba.njit`` for the hot loops: without the GIL, cached, without the runtime.

    Without numba's runtime (``_nrt=False``, when :data:`INTERNALS`) a kernel passes arrays to
    another without reference counting, and cannot allocate. ``inline=True`` inlines the
    function into its callers at numba's level.
    """
    options = kernel_options()
    if inline:
        options["inline"] = "always"
    return cast(Callable[[_F], _F], numba.njit(**options))


@kernel()
def popcount(x: Any) -> int:
    """Set bits of a 64-bit word (Knuth, *TAOCP* vol. 4A, §7.1.3, "sideways addition")."""
    x = x - ((x >> np.uint64(1)) & np.uint64(0x5555555555555555))
    x = (x & np.uint64(0x3333333333333333)) + ((x >> np.uint64(2)) & np.uint64(0x3333333333333333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return int((x * np.uint64(0x0101010101010101)) >> np.uint64(56))


def _memcpy(typingctx: Any, target: Any, source: Any) -> Any:
    """``target[:] = source`` for two C-contiguous arrays of one type, as one ``memcpy``; other
    layouts are refused when the kernel is compiled."""
    if target != source or target.layout != "C":
        return None

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        into, out_of = (
            context.make_array(kind)(context, builder, value)
            for kind, value in zip(signature.args, args, strict=True)
        )
        raw_memcpy = cast(Callable[..., None], cgutils.raw_memcpy)
        raw_memcpy(builder, into.data, out_of.data, out_of.nitems, out_of.itemsize)
        return context.get_dummy_value()

    return numba.types.void(target, source), codegen


@kernel(inline=True)
def _copy_loop(target: Any, source: Any) -> None:
    """``target[:] = source`` for two C-contiguous arrays of one shape, element by element."""
    into, out_of = target.reshape(target.size), source.reshape(source.size)
    for i in range(out_of.size):
        into[i] = out_of[i]


@kernel(inline=True)
def _lowest_bit_by_count(word: Any) -> int:
    """The index of the lowest set bit of ``word``: the bits below it, counted."""
    return popcount((word & (~word + np.uint64(1))) - np.uint64(1))


copy: Callable[[Any, Any], None] = cast(Any, intrinsic(_memcpy) if INTERNALS else _copy_loop)
"""``target[:] = source`` for two grids of one shape (uint64, C-contiguous)."""

lowest_bit: Callable[[Any], int] = cast(Any, trailing_zeros if INTERNALS else _lowest_bit_by_count)
"""The index of a word's lowest set bit (the word must not be 0)."""
