"""Additive disjoint pattern databases for sliding-tile puzzles.

The tiles are split into disjoint *patterns* (a partition of the goal's non-blank cells). For
each pattern, the database holds, for every placement of its tiles, the fewest moves **of those
tiles** that bring them home, the other tiles ignored: a pattern tile moves onto an adjacent
cell of the region of non-pattern cells where the blank is, and the blank roams its region for
free. An entry is the least such distance over the blank's possible regions (so the table needs
no blank coordinate). Every real move moves one tile, so the sum over the patterns is
admissible. It is not consistent (the minimum over regions can drop by 2 in one move), which
A* (with re-opening) and IDA* tolerate. On a square board whose goal keeps the blank on the
main diagonal, the board reflected about that diagonal is as far from the goal as the board
itself, so the heuristic is the larger of the two sums (the "reflected lookup").

Sources: R. E. Korf and A. Felner, "Disjoint pattern database heuristics", Artificial
Intelligence 134 (2002) 9-22 (counting only the pattern tiles' moves, additivity); A. Felner,
R. E. Korf and S. Hanan, "Additive pattern database heuristics", JAIR 22 (2004) 279-318
(5-5-5 and 6-6-3 partitions of the 15-puzzle, the blank in the abstraction, reflected lookups).

Each database is built by breadth-first search backwards from the goal placement (over pairs of
a placement and the blank's region, every move costing 1; the databases of a partition that are
missing are built at the same time, a thread each up to the number of cores), ranked as an
ordered placement (``cells! / (cells-k)!`` entries, 1 byte each: 5.8 million for 6 tiles of the
15-puzzle, 127.5 million for 6 tiles of the 24-puzzle), and cached as ``.npy`` with a JSON
sidecar (format version, size, SHA-256) under ``$CSPSOLVE_CACHE``, else
``$XDG_CACHE_HOME/cspsolve``, else ``~/.cache/cspsolve``. A missing or corrupt file is rebuilt;
a rich progress bar shows the build on a terminal. The last few databases read stay in memory
while their files are unchanged (:func:`load_all`).

Getting the databases is work done under the caller's limits: a ``stop`` check (a
:meth:`cspsolve.limits.Budget.exhausted`) is asked between chunks of the breadth-first search
(sized by :class:`cspsolve.pacing.Pace` to some 20 ms each), between slices of 4 MiB while a
file is read, hashed or written, and while the databases are joined into one table; it raises
:class:`BuildStoppedError` when the time limit has passed or the run is cancelled. A node limit
counts search nodes, not placements, so it stops a build only when it is 0. Only complete,
checked databases are cached: a file is written under a temporary name and renamed, and a build
or a write cut short leaves the cache as it was. Before building
databases missing from the cache that take a second or more, one line on stderr says how many
entries must be built, a rough time (at :data:`BUILD_RATE`) and where they will be cached.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import math
import os
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_EXCEPTION, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass
from pathlib import Path
from typing import IO

import numpy as np

from cspsolve.errors import OptionError
from cspsolve.pacing import TARGET, Pace
from cspsolve.results import Status

from .board import Puzzle, neighbours
from .partitions import PARTITIONS, Partition

__all__ = [
    "BUILD_RATE",
    "PARTITIONS",
    "VERSION",
    "BuildStoppedError",
    "PatternDatabases",
    "adjacency",
    "build",
    "cache_at",
    "cache_dir",
    "load",
    "load_all",
    "partition",
]

VERSION = 2
"""Format version of cached databases; bump it when the layout or the abstraction changes."""

BUILD_RATE = 1_500_000
"""Placements one build makes per second, roughly (1.5-1.6 million measured for a 6-tile
pattern of the 15-puzzle and a 5-tile one of the 24-puzzle on a busy 2-core machine, load 3-4;
1.0 million per second of CPU for a 6-tile one of the 24-puzzle, whose tables no longer fit in
the caches); builds run at the same time, so free cores finish sooner. Only used for the
notice before a build, which builds of fewer entries (under a second) do without."""

_CACHED_FROM = 100_000
"""Databases of at least this many entries are cached; smaller ones are built every time."""

Stop = Callable[[], Status | None]
"""A build's limit check: the status to stop with (``limit``, ``cancelled``), or None."""


BUILDING = (
    "stopped while building the pattern databases (they are cached once built: run once with "
    "a larger limit)"
)
"""The message of a build stopped by its ``stop`` check."""

READING = "stopped while reading the pattern databases from the cache"
"""The message of reading (or joining) cached databases stopped by the ``stop`` check."""


class BuildStoppedError(Exception):
    """Getting the databases (building, reading or joining them) stopped by the ``stop`` check
    before it was complete.

    Attributes
    ----------
    status : Status
        What ``stop`` answered (``LIMIT`` or ``CANCELLED``).
    """

    def __init__(self, status: Status, message: str = BUILDING) -> None:
        super().__init__(message)
        self.status = status


def _check(stop: Stop | None, message: str = BUILDING) -> None:
    """Raise :class:`BuildStoppedError` (with ``message``) when ``stop`` says so."""
    status = None if stop is None else stop()
    if status is not None:
        raise BuildStoppedError(status, message)


_SLICE = 1 << 22
"""Bytes read, hashed, written or copied between two ``stop`` checks (4 MiB: a few ms)."""

_REPORT_EVERY = 0.25
"""Seconds between two progress reports of a build."""


def _report(
    progress: Callable[[int, int], None] | None,
    last: float,
    done: Callable[[], int],
    size: int,
) -> float:
    """Call ``progress(done(), size)`` when :data:`_REPORT_EVERY` has passed since ``last``;
    return the time of the last report."""
    now = time.perf_counter()
    if progress is None or now - last < _REPORT_EVERY:
        return last
    progress(done(), size)
    return now


_MAX_ENTRIES = 8_000_000
"""Largest database built for the generic partition of boards other than the 15-puzzle."""


def cache_dir() -> Path:
    """Where databases are cached: ``$CSPSOLVE_CACHE``, else ``$XDG_CACHE_HOME/cspsolve``,
    else ``~/.cache/cspsolve``."""
    if os.environ.get("CSPSOLVE_CACHE"):
        return Path(os.environ["CSPSOLVE_CACHE"])
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "cspsolve"


@contextlib.contextmanager
def cache_at(folder: str | Path) -> Iterator[None]:
    """:func:`cache_dir` is ``folder`` inside the block (``$CSPSOLVE_CACHE`` set, then put back)."""
    before = os.environ.get("CSPSOLVE_CACHE")
    os.environ["CSPSOLVE_CACHE"] = str(folder)
    try:
        yield
    finally:
        if before is None:
            del os.environ["CSPSOLVE_CACHE"]
        else:
            os.environ["CSPSOLVE_CACHE"] = before


def _entries(cells: int, k: int) -> int:
    return math.perm(cells, k)


def partition(puzzle: Puzzle, name: str | None = None) -> Partition:
    """The patterns used for ``puzzle``'s goal.

    A named partition of :data:`PARTITIONS` fits the square board it was made for (4x4 or
    5x5) when the blank's goal is in a corner. Without a name, the 15-puzzle with its blank's
    goal in a corner gets ``6-6-3``; any other board gets the goal's non-blank cells, in
    row-major order, cut into patterns of the largest size ``k`` with at most 8 million
    placements (4 on the 8-puzzle, 5 on the 24-puzzle).

    Raises
    ------
    OptionError
        For an unknown name, or a named partition on a board it does not fit.
    """
    blank = puzzle.goal.index(0)
    cells = puzzle.cells
    if name is not None and name not in PARTITIONS:
        raise OptionError(f"unknown partition {name!r}; choose from {', '.join(PARTITIONS)}")
    side = math.isqrt(cells) if puzzle.rows == puzzle.cols else 0
    corner = side > 1 and blank in (0, side - 1, cells - side, cells - 1)
    chosen = PARTITIONS[name or "6-6-3"]
    made_for = math.isqrt(sum(map(len, chosen)) + 1)
    if corner and side == made_for and (name is not None or cells == 16):
        flip_r, flip_c = blank // side == side - 1, blank % side == side - 1

        def mirror(cell: int) -> int:
            r, c = divmod(cell, side)
            return (side - 1 - r if flip_r else r) * side + (side - 1 - c if flip_c else c)

        return tuple(tuple(mirror(c) for c in pattern) for pattern in chosen)
    if name is not None:
        raise OptionError(
            f"the {name} partition is for {made_for}x{made_for} boards with the blank's goal "
            "in a corner"
        )
    k = max(k for k in range(1, cells) if k == 1 or _entries(cells, k) <= _MAX_ENTRIES)
    rest = [c for c in range(cells) if c != blank]
    return tuple(tuple(rest[i : i + k]) for i in range(0, len(rest), k))


def adjacency(rows: int, cols: int) -> np.ndarray:
    """``adjacent[cell]``: the cells next to it (order U, L, R, D), padded with -1."""
    table = np.full((rows * cols, 4), -1, np.int64)
    for cell, moves in enumerate(neighbours(rows, cols)):
        for m, (_, target) in enumerate(moves):
            table[cell, m] = target
    return table


def build(
    rows: int,
    cols: int,
    *,
    pattern: Sequence[int],
    blank: int | None = None,
    progress: Callable[[int, int], None] | None = None,
    stop: Stop | None = None,
) -> np.ndarray:
    """Build one pattern database by breadth-first search back from the goal placement.

    With ``blank`` (the blank's goal cell) the search also tracks the region of non-pattern
    cells the blank can reach: a pattern tile moves only onto a cell of that region, as on the
    real board, and the blank moves inside its region for free (Felner, Korf & Hanan 2004,
    §4); an entry is the least distance over the blank's regions. Without ``blank`` pattern
    tiles move onto any free adjacent cell (Korf & Felner 2002); with one tile per pattern that
    is the Manhattan distance.

    Parameters
    ----------
    rows, cols : int
        Board size.
    pattern : sequence of int
        Goal cells of the pattern's tiles; entry ``rank(positions)`` of the result is the
        distance of the placement where the tile of ``pattern[i]`` stands on ``positions[i]``.
    blank : int, optional
        The blank's goal cell; boards of more than 64 cells ignore it.
    progress : callable, optional
        Called as ``progress(placements done, placements in all)`` now and then.
    stop : callable, optional
        Asked between chunks of the search (of some 20 ms each, see :class:`cspsolve.pacing.Pace`);
        see :data:`Stop`.

    Returns
    -------
    numpy.ndarray
        ``uint8`` of ``cells! / (cells - k)!`` entries (254 caps larger distances).

    Raises
    ------
    BuildStoppedError
        When ``stop`` answered a status before the database was complete.
    OptionError
        When the pattern has too many tiles to pack a placement in 64 bits (beyond any
        database that fits in memory).
    """
    from ._kernels import (
        LABELLED_UP_TO,
        UNSEEN,
        bfs_blank_chunk,
        cell_bits,
        rank,
        region,
        region_labels,
    )

    cells, k = rows * cols, len(pattern)
    if blank is None or cells > 64:
        return _build_ignoring_blank(rows, cols, pattern, progress, stop)
    bits = cell_bits(cells)
    if (k + 1) * bits + 8 > 63:
        raise OptionError(f"a pattern of {k} tiles is too large for a {rows}x{cols} database")
    size = _entries(cells, k)
    dist = np.full(size, UNSEEN, np.uint8)
    seen = np.zeros(size, _region_bits(cells))
    start = rank(np.array(pattern, np.int64), k, cells)
    occupied = sum(1 << c for c in pattern)
    full = (1 << cells) - 1
    left = sum(1 << c for c in range(cells) if c % cols)
    right = sum(1 << c for c in range(cells) if c % cols != cols - 1)
    roam = int(region(blank, np.uint64(full & ~occupied), cols, np.uint64(left), np.uint64(right)))
    rep = (roam & -roam).bit_length() - 1
    dist[start] = 0
    seen[start] = 1 << rep
    adjacent = adjacency(rows, cols)
    labels = region_labels(rows, cols) if cells <= LABELLED_UP_TO else np.zeros((0, 0), np.uint8)
    capacity = size
    pace, reported = Pace(first=1 << 12, largest=1 << 22), time.perf_counter()
    _check(stop)
    while True:
        queue = np.empty(capacity, np.int64)
        packed = sum(cell << (bits * i) for i, cell in enumerate(pattern))
        queue[0] = ((packed << bits) | rep) << 8
        head, tail = 0, 1
        while head < tail and tail - head <= capacity:
            steps = pace.chunk()
            head, tail = bfs_blank_chunk(
                dist, seen, queue, head, tail, k, rows, cols, adjacent, labels, steps
            )
            pace.measured(steps)
            reported = _report(
                progress, reported, lambda: int(np.count_nonzero(dist != UNSEEN)), size
            )
            _check(stop)
        if head >= tail:
            return dist
        capacity *= 2  # the ring buffer overflowed: start again with a larger one
        dist[:] = UNSEEN
        seen[:] = 0
        dist[start] = 0
        seen[start] = 1 << rep


def _region_bits(cells: int) -> type[np.unsignedinteger]:
    """The narrowest unsigned type with a bit per cell (the blank regions seen of a placement):
    the smaller the array, the fewer cache misses in the breadth-first search."""
    for kind in (np.uint16, np.uint32):
        if cells <= np.iinfo(kind).bits:
            return kind
    return np.uint64


def _build_ignoring_blank(
    rows: int,
    cols: int,
    pattern: Sequence[int],
    progress: Callable[[int, int], None] | None,
    stop: Stop | None,
) -> np.ndarray:
    """The database of the abstraction without the blank (every pattern move allowed)."""
    from ._kernels import UNSEEN, bfs_chunk, rank

    cells, k = rows * cols, len(pattern)
    size = _entries(cells, k)
    dist = np.full(size, UNSEEN, np.uint8)
    queue = np.empty(size, np.int64 if size >= 2**31 else np.int32)
    start = rank(np.array(pattern, np.int64), k, cells)
    dist[start] = 0
    queue[0] = start
    head, tail = 0, 1
    adjacent = adjacency(rows, cols)
    pace, reported = Pace(first=1 << 12, largest=1 << 22), time.perf_counter()
    _check(stop)
    while head < tail:
        steps = pace.chunk()
        head, tail = bfs_chunk(dist, queue, head, tail, k, cells, adjacent, steps)
        pace.measured(steps)
        reported = _report(progress, reported, functools.partial(int, head), size)
        _check(stop)
    return dist


def _paths(rows: int, cols: int, pattern: Sequence[int], blank: int | None) -> tuple[Path, Path]:
    tiles = ".".join(map(str, pattern))
    stem = f"npuzzle-pdb-v{VERSION}-{rows}x{cols}-{tiles}-blank{'-' if blank is None else blank}"
    folder = cache_dir()
    return folder / f"{stem}.npy", folder / f"{stem}.json"


def _read_cached(data: Path, meta: Path, size: int, stop: Stop | None = None) -> np.ndarray | None:
    """The cached database if its sidecar, header, size and checksum all agree, else None;
    read and hashed a slice at a time, asking ``stop`` after each.

    Raises
    ------
    BuildStoppedError
        When ``stop`` answered a status before the file was read.
    """
    try:
        info = json.loads(meta.read_text(encoding="utf-8"))
        with data.open("rb") as f:
            if np.lib.format.read_magic(f) != (1, 0):
                return None
            shape, _, dtype = np.lib.format.read_array_header_1_0(f)
            if not isinstance(info, dict) or info.get("version") != VERSION:
                return None
            if dtype != np.uint8 or shape != (size,):
                return None
            table = np.empty(size, np.uint8)
            view = table.data
            digest = hashlib.sha256()
            for start in range(0, size, _SLICE):
                part = view[start : start + _SLICE]
                if f.readinto(part) != len(part):
                    return None
                digest.update(part)
                _check(stop, READING)
    except (OSError, ValueError):
        return None
    return table if info.get("sha256") == digest.hexdigest() else None


def _write_cached(
    data: Path, meta: Path, table: np.ndarray, pattern: Sequence[int], stop: Stop | None
) -> None:
    """Write the database and its sidecar, each to a temporary file then renamed, a slice at a
    time, asking ``stop`` after each; a read-only cache is silently skipped.

    Raises
    ------
    BuildStoppedError
        When ``stop`` answered a status before the files were written (the temporary file is
        removed and the cache left as it was).
    """
    digest = hashlib.sha256()
    view = table.data
    try:
        data.parent.mkdir(parents=True, exist_ok=True)
        with _replacing(data) as f:
            np.lib.format.write_array_header_1_0(f, np.lib.format.header_data_from_array_1_0(table))
            for start in range(0, table.size, _SLICE):
                part = view[start : start + _SLICE]
                f.write(part)
                digest.update(part)
                _check(stop)
        info = {
            "version": VERSION,
            "pattern": list(pattern),
            "size": int(table.size),
            "sha256": digest.hexdigest(),
        }
        with _replacing(meta) as f:
            f.write(json.dumps(info).encode("utf-8"))
    except OSError:
        return


@contextlib.contextmanager
def _replacing(path: Path) -> Iterator[IO[bytes]]:
    """A temporary file beside ``path`` that replaces it when the block ends normally; on an
    exception it is removed and ``path`` is left as it was."""
    with tempfile.NamedTemporaryFile(dir=path.parent, suffix=path.suffix, delete=False) as f:
        try:
            yield f
        except BaseException:
            f.close()
            os.unlink(f.name)
            raise
    os.replace(f.name, path)


def load(
    rows: int,
    cols: int,
    *,
    pattern: Sequence[int],
    blank: int | None = None,
    stop: Stop | None = None,
) -> np.ndarray:
    """One pattern database from the cache, built (and cached) when missing or corrupt:
    :func:`load_all` of one pattern.

    Raises
    ------
    BuildStoppedError
        When ``stop`` stopped the build or the reading (nothing is cached then).
    """
    return load_all(rows, cols, patterns=(pattern,), blank=blank, stop=stop)[0]


def load_all(
    rows: int,
    cols: int,
    *,
    patterns: Sequence[Sequence[int]],
    blank: int | None = None,
    stop: Stop | None = None,
) -> list[np.ndarray]:
    """The databases of ``patterns`` from the cache, the missing or corrupt ones built (and
    cached) at the same time, one thread each up to the number of cores (the kernels release
    the GIL).

    Small databases (under 100,000 entries) are built every time, not cached. The last few
    databases read or built are kept in memory (read-only) while their files are unchanged,
    so that solving many puzzles in one process reads each file once. A progress bar per
    build shows on stderr while building when stderr is a terminal.

    Raises
    ------
    BuildStoppedError
        When ``stop`` stopped a build (the databases it stopped are not cached; those
        complete are) or the reading of a cached one.
    """
    sizes = [_entries(rows * cols, len(p)) for p in patterns]
    tables = [
        _recall(*_paths(rows, cols, p, blank), size, stop=stop) if size >= _CACHED_FROM else None
        for p, size in zip(patterns, sizes, strict=True)
    ]
    missing = [i for i, table in enumerate(tables) if table is None]
    if missing:
        built = _build_all(rows, cols, [patterns[i] for i in missing], blank, stop)
        for i, table in zip(missing, built, strict=True):
            tables[i] = table
            if table.size >= _CACHED_FROM:
                _recall(*_paths(rows, cols, patterns[i], blank), table.size, table)
    return [t for t in tables if t is not None]


def _build_all(
    rows: int,
    cols: int,
    patterns: Sequence[Sequence[int]],
    blank: int | None,
    stop: Stop | None,
) -> list[np.ndarray]:
    """Build the databases of ``patterns`` at the same time, a thread each up to the cores;
    each is cached (when large enough) as soon as it is complete, even if another stops.

    The calling thread waits, asking ``stop`` every :data:`cspsolve.pacing.TARGET` seconds, so
    that it answers in time even while a build cannot check (loading its compiled kernels at first).
    When it returns or raises, builds still running stop at their next check, in the
    background, and cache nothing.

    Raises
    ------
    BuildStoppedError
        When ``stop`` answered a status before every database was built.
    """
    left = threading.Event()

    def checked() -> Status | None:
        return Status.CANCELLED if left.is_set() else (None if stop is None else stop())

    def build_and_cache(
        pattern: Sequence[int], progress: Callable[[int, int], None] | None
    ) -> np.ndarray:
        table = build(rows, cols, pattern=pattern, blank=blank, progress=progress, stop=checked)
        if table.size >= _CACHED_FROM:
            _write_cached(*_paths(rows, cols, pattern, blank), table, pattern, checked)
        return table

    pool = ThreadPoolExecutor(min(len(patterns), os.cpu_count() or 1))
    try:
        with _bars() as track:
            builds = [pool.submit(build_and_cache, p, track(rows, cols, p)) for p in patterns]
            pending: set[Future[np.ndarray]] = set(builds)
            while pending:
                done, pending = wait(pending, timeout=TARGET, return_when=FIRST_EXCEPTION)
                if any(future.exception() is not None for future in done):
                    break
                _check(stop)
            return [future.result() for future in builds]
    finally:
        left.set()
        pool.shutdown(wait=False, cancel_futures=True)


_RECENT: dict[tuple[Path, int, int], np.ndarray] = {}
"""Databases read or built lately, by file and modification times (data, sidecar)."""

_KEEP = 6
"""How many databases :data:`_RECENT` keeps (the 15-puzzle's 6-6-3: 11.5 MB)."""


def _recall(
    data: Path,
    meta: Path,
    size: int,
    built: np.ndarray | None = None,
    *,
    stop: Stop | None = None,
) -> np.ndarray | None:
    """The database cached in ``data``/``meta``: kept in memory while the files are unchanged,
    else read and checked under ``stop`` (None when missing or corrupt); ``built`` is one just
    written."""
    try:
        key = (data, data.stat().st_mtime_ns, meta.stat().st_mtime_ns)
    except OSError:
        return built
    table = _RECENT.get(key) if built is None else built
    if table is None:
        table = _read_cached(data, meta, size, stop)
        if table is None:
            return None
    table.flags.writeable = False
    _RECENT.pop(key, None)
    _RECENT[key] = table
    while len(_RECENT) > _KEEP:
        del _RECENT[next(iter(_RECENT))]
    return table


_JOINED: list[tuple[tuple[np.ndarray, ...], np.ndarray]] = []
"""The last concatenation made by :func:`_joined`, with the databases it joined."""


def _joined(tables: Sequence[np.ndarray], stop: Stop | None) -> np.ndarray:
    """The databases concatenated (read-only), copied a slice at a time under ``stop``; the
    same databases as last time (the same objects, as :func:`load_all` hands out while their
    files are unchanged) reuse the last concatenation instead of copying them again (0.3 s and
    510 MB for the 24-puzzle's 6-6-6-6).

    Raises
    ------
    BuildStoppedError
        When ``stop`` answered a status before the copy was complete.
    """
    last = _JOINED[0][0] if _JOINED else ()
    if len(last) == len(tables) and all(a is b for a, b in zip(last, tables, strict=True)):
        return _JOINED[0][1]
    table = np.empty(sum(t.size for t in tables), np.uint8)
    at = 0
    for part in tables:
        for start in range(0, part.size, _SLICE):
            piece = part[start : start + _SLICE]
            table[at : at + piece.size] = piece
            at += piece.size
            _check(stop, READING)
    table.flags.writeable = False
    _JOINED[:] = [(tuple(tables), table)]
    return table


Track = Callable[[int, int, Sequence[int]], Callable[[int, int], None] | None]
"""Gives the progress callback of one build (rows, columns, pattern), or None."""


@contextlib.contextmanager
def _bars() -> Iterator[Track]:
    """Progress bars on stderr, one per build, while stderr is a terminal."""
    if not sys.stderr.isatty():
        yield lambda rows, cols, pattern: None
        return
    from rich.console import Console
    from rich.progress import Progress

    with Progress(console=Console(stderr=True), transient=True) as bar:

        def track(rows: int, cols: int, pattern: Sequence[int]) -> Callable[[int, int], None]:
            label = f"pattern database {rows}x{cols} tiles of cells {', '.join(map(str, pattern))}"
            task = bar.add_task(label, total=_entries(rows * cols, len(pattern)))
            return lambda done, _: bar.update(task, completed=done)

        yield track


def _to_build(rows: int, cols: int, chosen: Partition, blank: int | None) -> int:
    """Entries of the cached-size databases of ``chosen`` whose files are not in the cache."""
    missing = 0
    for pattern in chosen:
        size = _entries(rows * cols, len(pattern))
        if size >= _CACHED_FROM and not all(
            p.is_file() for p in _paths(rows, cols, pattern, blank)
        ):
            missing += size
    return missing


def _announce(entries: int) -> None:
    """Say on stderr, before a build, what it builds, about how long it takes, and where to."""
    seconds = round(entries / BUILD_RATE)
    print(
        f"cspsolve: building pattern databases first: {entries:,} entries, about {seconds} s "
        f"(a time limit counts it); they are cached in {cache_dir()}",
        file=sys.stderr,
        flush=True,
    )


@dataclass(frozen=True)
class PatternDatabases:
    """The databases of a partition, laid out for the numba kernels.

    Attributes
    ----------
    members : numpy.ndarray
        ``members[p, i]``: the tile of pattern ``p`` whose goal cell is ``partition[p][i]``.
    sizes, offsets : numpy.ndarray
        Tiles per pattern; where pattern ``p``'s entries start in ``table``.
    table : numpy.ndarray
        All databases concatenated (``uint8``).
    pattern_of : numpy.ndarray
        ``pattern_of[tile]``: its pattern (0 for the blank, which is in none).
    rcell, rtile : numpy.ndarray
        Reflection about the main diagonal: of a cell, and of a tile (the tile whose goal is
        the reflected goal cell).
    reflect : bool
        Whether the reflected lookup applies (square board, the blank's goal on the diagonal).
    """

    cells: int
    partition: Partition
    members: np.ndarray
    sizes: np.ndarray
    offsets: np.ndarray
    table: np.ndarray
    pattern_of: np.ndarray
    rcell: np.ndarray
    rtile: np.ndarray
    reflect: bool

    @classmethod
    def for_puzzle(
        cls,
        puzzle: Puzzle,
        *,
        chosen: Partition | None = None,
        manhattan: bool = False,
        stop: Stop | None = None,
    ) -> PatternDatabases:
        """The databases for ``puzzle``'s goal: ``chosen`` patterns, by default
        :func:`partition`; ``manhattan=True`` takes one pattern per tile (the sum is then the
        Manhattan distance, with no reflection).

        Databases missing from the cache are announced on stderr when they take a second or
        more (see the module text), then built under ``stop``; cached ones are read, and all
        joined, under ``stop`` too.

        Raises
        ------
        BuildStoppedError
            When ``stop`` stopped a build, the reading of a cached database or the joining.
        """
        blank = puzzle.goal.index(0)
        if manhattan:
            chosen = tuple((c,) for c in range(puzzle.cells) if c != blank)
        elif chosen is None:
            chosen = partition(puzzle)
        goal, cells = puzzle.goal, puzzle.cells
        abstract_blank = None if manhattan else blank
        missing = _to_build(puzzle.rows, puzzle.cols, chosen, abstract_blank)
        if missing >= BUILD_RATE:
            _announce(missing)
        widest = max(len(p) for p in chosen)
        members = np.zeros((len(chosen), widest), np.int64)
        pattern_of = np.zeros(cells, np.int64)
        for p, pattern in enumerate(chosen):
            for i, cell in enumerate(pattern):
                members[p, i] = goal[cell]
                pattern_of[goal[cell]] = p
        tables = load_all(
            puzzle.rows, puzzle.cols, patterns=chosen, blank=abstract_blank, stop=stop
        )
        sizes = np.array([len(p) for p in chosen], np.int64)
        offsets = np.concatenate([[0], np.cumsum([t.size for t in tables])[:-1]]).astype(np.int64)
        square = puzzle.rows == puzzle.cols
        r, c = divmod(np.arange(cells), puzzle.cols)
        rcell = (c * puzzle.cols + r if square else np.arange(cells)).astype(np.int64)
        home = np.argsort(np.array(goal))
        rtile = np.array(goal, np.int64)[rcell[home]]
        reflect = not manhattan and square and rcell[blank] == blank
        return cls(
            cells,
            chosen,
            members,
            sizes,
            offsets,
            _joined(tables, stop),
            pattern_of,
            rcell,
            rtile,
            bool(reflect),
        )

    def where(self, tiles: Sequence[int] | bytes) -> tuple[np.ndarray, np.ndarray]:
        """``where[tile]`` (the cell of each tile) of a board and of its reflection."""
        board = np.frombuffer(tiles, np.uint8) if isinstance(tiles, bytes) else np.asarray(tiles)
        where = np.empty(self.cells, np.int64)
        where[board] = np.arange(self.cells)
        rwhere = np.empty(self.cells, np.int64)
        rwhere[self.rtile] = self.rcell[where]
        return where, rwhere

    def value(self, tiles: Sequence[int] | bytes) -> int:
        """The heuristic value of a board: the sum over the patterns (max with the reflection).

        Pure Python (no numba import): the engine's searches call it once per generated state.
        """
        where = [0] * self.cells
        for cell, tile in enumerate(tiles):
            where[tile] = cell
        h = self._sum(where)
        if self.reflect:
            rwhere = [0] * self.cells
            for tile, cell in enumerate(where):
                rwhere[self._rtile[tile]] = self._rcell[cell]
            h = max(h, self._sum(rwhere))
        return h

    def _sum(self, where: list[int]) -> int:
        total = 0
        cells = self.cells
        for offset, members in zip(self._offsets, self._members, strict=True):
            index = 0
            placed: list[int] = []
            for i, tile in enumerate(members):
                p = where[tile]
                index = index * (cells - i) + p - sum(1 for q in placed if q < p)
                placed.append(p)
            total += int(self.table[offset + index])
        return total

    @functools.cached_property
    def _members(self) -> list[list[int]]:
        return [list(map(int, self.members[p, :k])) for p, k in enumerate(self.sizes)]

    @functools.cached_property
    def _offsets(self) -> list[int]:
        return list(map(int, self.offsets))

    @functools.cached_property
    def _rcell(self) -> list[int]:
        return list(map(int, self.rcell))

    @functools.cached_property
    def _rtile(self) -> list[int]:
        return list(map(int, self.rtile))
