"""A notice on stderr while numba compiles a kind's kernels, so that a first run is not silent.

numba compiles a kernel on its first call, and keeps the machine code in its on-disk cache
(``cache=True``): the first run of a process with a cold cache may spend 20-25 s compiling,
later ones load the code in a fraction of a second. A module that defines kernels calls
:func:`announce_compiling` once, when it is imported (numba is imported by then)::

    from cspsolve.compiling import announce_compiling

    announce_compiling()

From then on, the first time numba compiles a kernel of a kind in this process, one line on
stderr says so, where the code will be cached, and that it happens once. Nothing is said when
every kernel comes from the cache: numba triggers its ``numba:compile`` event only on a cache
miss, and that event is what is listened to, and counted (:func:`compiled`). stdout
(``--format json``) is never written.

Some methods answer small puzzles in plain Python to spare a process the kernels' load time;
while :func:`eager` holds, they take the compiled path at once (:func:`is_eager`), so that a
warm-up (:mod:`cspsolve.warming`) reaches every kernel.

It also makes a stale cache a miss (:func:`tolerate_stale_indexes`): numba pickles the types
of a kernel's signatures into the cache's index and unpickles them before it compares the
source's stamp, so an index naming a type that has since moved (a ``NamedTuple`` of a module
that was split, left by an older install or checkout) raises instead of recompiling
(https://github.com/numba/numba/issues/6018).
"""

from __future__ import annotations

import collections
import contextlib
import functools
import pickle
import sys
import threading
from collections.abc import Iterator
from typing import Any

__all__ = [
    "announce_compiling",
    "compiled",
    "eager",
    "is_eager",
    "notice",
    "owner",
    "tolerate_stale_indexes",
]

_lock = threading.Lock()
_announced: set[str] = set()
"""The owners (see :func:`owner`) whose compiling was announced in this process."""
_listening = False
_compiled: collections.Counter[str] = collections.Counter()
"""Kernels compiled in this process (numba's cache misses), by owner."""
_eager = False


def owner(module: str) -> str:
    """Who a kernel belongs to: the kind of a module under ``cspsolve.models``, else the module.

    Examples
    --------
    >>> owner("cspsolve.models.mykind.lines")
    'mykind'
    >>> owner("my_kernels")
    'my_kernels'
    """
    parts = module.split(".")
    return parts[2] if parts[:2] == ["cspsolve", "models"] and len(parts) > 2 else module


def notice(who: str, cache: str | None) -> str:
    """The line said before the first compile of ``who``'s kernels.

    Parameters
    ----------
    who : str
        The kind (or module) whose kernels are compiled.
    cache : str or None
        numba's cache folder of the kernel, ``None`` when the kernel is not cached.
    """
    then = (
        f"once: later runs load them from numba's cache ({cache})"
        if cache
        else "in every process: they are not cached"
    )
    return f"cspsolve: compiling the {who} kernels (numba, up to half a minute), {then}"


def _on_compile(dispatcher: Any) -> None:
    """Say :func:`notice` if ``dispatcher``'s owner was not announced yet."""
    module = getattr(getattr(dispatcher, "py_func", None), "__module__", None) or "numba"
    who = owner(module)
    if who.partition(".")[0] == "numba":  # numba's own helpers: not a kind's kernels
        return
    with _lock:
        _compiled[who] += 1
        if who in _announced:
            return
        _announced.add(who)
    cache = getattr(getattr(dispatcher, "_cache", None), "cache_path", None)
    print(notice(who, cache), file=sys.stderr, flush=True)


def compiled(who: str | None = None) -> int:
    """How many kernels numba compiled in this process, rather than load from its cache: those
    of ``who`` (see :func:`owner`), or of every owner. Counted from the first call of
    :func:`announce_compiling`."""
    with _lock:
        return _compiled[who] if who is not None else sum(_compiled.values())


@contextlib.contextmanager
def eager() -> Iterator[None]:
    """While it holds, methods skip their plain-Python shortcuts for small puzzles and take
    their compiled path (:func:`is_eager`). Not thread-safe: for a process's main thread."""
    global _eager
    before, _eager = _eager, True
    try:
        yield
    finally:
        _eager = before


def is_eager() -> bool:
    """Whether :func:`eager` holds: a method should take its compiled path, however small the
    puzzle."""
    return _eager


def announce_compiling() -> None:
    """Listen to numba's compiles in this process, announcing the first of each kind.

    Idempotent: every module that defines kernels may call it at import. Imports numba, and
    makes a stale cache index a cache miss (:func:`tolerate_stale_indexes`).
    """
    global _listening
    with _lock:
        if _listening:
            return
        _listening = True
    from numba.core import event

    tolerate_stale_indexes()

    class Announcer(event.Listener):
        def on_start(self, started: event.Event) -> None:
            _on_compile((started.data or {}).get("dispatcher"))

        def on_end(self, ended: event.Event) -> None:
            pass

    event.register("numba:compile", Announcer())  # type: ignore[no-untyped-call]


STALE = (AttributeError, ImportError, EOFError, pickle.UnpicklingError)
"""What unpickling an index whose types moved (or a truncated one) raises."""


def tolerate_stale_indexes() -> None:
    """Make numba read an index it cannot unpickle as an empty one: a cache miss, so the
    kernel is compiled and the index written anew (numba itself recompiles only when the
    index unpickles; https://github.com/numba/numba/issues/6018). Idempotent."""
    from numba.core.caching import IndexDataCacheFile

    load: Any = IndexDataCacheFile._load_index
    if getattr(load, "tolerant", False):
        return

    @functools.wraps(load)
    def tolerant(self: Any) -> Any:
        try:
            return load(self)
        except STALE:
            return {}

    tolerant.tolerant = True  # type: ignore[attr-defined]
    setattr(IndexDataCacheFile, "_load_index", tolerant)  # noqa: B010 (numba's own class)
