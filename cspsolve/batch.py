"""Many puzzles through any :class:`concurrent.futures.Executor`, results kept in SQLite.

A batch is planned in the parent process (:func:`plan`: every puzzle of every file becomes a
:class:`Job`), run by workers (:func:`run_job`, a module-level function so that process pools
and Dask can ship it), and written by the parent only (:class:`Store`), one committed row per
finished job. The table's unique key ``(file, puzzle, method, options)`` gives every job its
own row (``puzzle`` is unique within a file: :func:`puzzle_names`) and makes a batch
restartable: :func:`run` skips the jobs already stored, so a killed run resumes with nothing
lost and nothing done twice (a job cut short by the kill leaves no row and runs again).

The kinds are reached only through :mod:`cspsolve.registry`; this module names none.
"""

from __future__ import annotations

import concurrent.futures as cf
import contextlib
import json
import os
import signal
import sqlite3
import threading
import time
import zlib
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import FrameType
from typing import Any

from cspsolve import registry, tasks
from cspsolve.errors import InputError, UnknownKindError
from cspsolve.inputs import BrokenEntry
from cspsolve.kind import PuzzleEntry
from cspsolve.limits import Limits
from cspsolve.tasks import Request

__all__ = [
    "Job",
    "Outcome",
    "Plan",
    "Store",
    "files_under",
    "hard_timeout",
    "plan",
    "puzzle_names",
    "run",
    "run_job",
    "shard_of",
]

ERROR = "error"
"""The ``status`` of a row whose job could not run (a bad file or puzzle of a file, options
that do not fit)."""

SCHEMA = """
CREATE TABLE IF NOT EXISTS results (
    file TEXT NOT NULL,
    puzzle TEXT NOT NULL,
    kind TEXT,
    method TEXT NOT NULL,
    options TEXT NOT NULL,
    status TEXT NOT NULL,
    solved_by TEXT,
    heuristic TEXT,
    cost REAL,
    seconds REAL,
    stats TEXT,
    proof TEXT,
    solution TEXT,
    message TEXT,
    error TEXT,
    finished TEXT NOT NULL DEFAULT (datetime('now')),
    PRIMARY KEY (file, puzzle, method, options)
)
"""
"""The ``results`` table. ``method`` is the method asked for (``"default"`` when the kind chose);
``solved_by`` the one that ran. ``options`` is the JSON of every other setting of the run, so a
batch with other options adds rows instead of skipping. ``stats``, ``proof`` and ``solution``
are JSON (docs/design.md §12); ``cost`` is set only when a solution was found."""

_COLUMNS = (
    "file",
    "puzzle",
    "kind",
    "method",
    "options",
    "status",
    "solved_by",
    "heuristic",
    "cost",
    "seconds",
    "stats",
    "proof",
    "solution",
    "message",
    "error",
)


@dataclass(frozen=True)
class Job:
    """One puzzle to solve with one set of options.

    Attributes
    ----------
    file : str
        The puzzle file, as found under the batch's paths.
    puzzle : str
        The puzzle's name inside a multi-puzzle file, ``""`` for a single-puzzle file (see
        :func:`puzzle_names`).
    kind : str or None
        The puzzle kind (see :func:`cspsolve.registry.kinds`); ``None`` for a file that could
        not be read far enough to tell.
    request : Request
        Method, heuristic and the kind's options.
    time_limit : float or None
        Seconds allowed to the solver (its :class:`~cspsolve.limits.Limits`).
    max_nodes : int or None
        Expanded nodes allowed to the solver.
    problem : Any
        The puzzle object, or ``None`` for a file or a puzzle of it that could not be read
        (then ``error`` says why and the job only records that).
    error : str
        Why the file, or this puzzle of it, could not be read (one line, naming the file),
        ``""`` otherwise.
    """

    file: str
    puzzle: str
    kind: str | None
    request: Request
    time_limit: float | None = None
    max_nodes: int | None = None
    problem: Any = None
    error: str = ""

    @property
    def method(self) -> str:
        """The method asked for, ``"default"`` when the kind chooses."""
        return self.request.method or "default"

    @property
    def settings(self) -> str:
        """Every setting of the run beyond the method, as canonical JSON (part of the key)."""
        fields = {"heuristic": self.request.heuristic, **self.request.options}
        fields |= {"time_limit": self.time_limit, "max_nodes": self.max_nodes}
        return json.dumps(fields, sort_keys=True)

    @property
    def where(self) -> str:
        """The file, and ``#puzzle`` in a multi-puzzle file (how error rows name the job)."""
        return f"{self.file}#{self.puzzle}" if self.puzzle else self.file

    @property
    def key(self) -> tuple[str, str, str, str]:
        """The unique key of the job's row: file, puzzle, method, options."""
        return (self.file, self.puzzle, self.method, self.settings)


@dataclass(frozen=True)
class Outcome:
    """What a worker returns for one :class:`Job`: the values of its row."""

    row: dict[str, Any]

    @property
    def status(self) -> str:
        """The row's status (a :class:`~cspsolve.results.Status` value or ``"error"``)."""
        return str(self.row["status"])


def files_under(
    paths: Iterable[str | Path], on_error: Callable[[str], None] | None = None
) -> Iterator[Path]:
    """Every file named by ``paths``, folders walked recursively in sorted order.

    Hidden files and folders (names starting with ``.``) inside a walked folder are left out.
    A path that does not exist is yielded as is (:func:`plan` records it). A folder that cannot
    be listed is passed to ``on_error`` as one line (``"FOLDER: permission denied"``).
    """

    def unreadable(e: OSError) -> None:
        if on_error is not None:
            on_error(f"{e.filename}: {e.strerror or 'cannot list the folder'}")

    for path in map(Path, paths):
        if not path.is_dir():
            yield path
            continue
        for root, dirs, files in os.walk(path, onerror=unreadable):
            dirs[:] = sorted(d for d in dirs if not d.startswith("."))
            for name in sorted(files):
                if not name.startswith("."):
                    yield Path(root) / name


def shard_of(file: str, puzzle: str, count: int) -> int:
    """The shard (0 to ``count - 1``) a puzzle belongs to: a stable hash, so every run and
    every machine agrees, and all the methods of one puzzle fall in the same shard."""
    return zlib.crc32(f"{file}\0{puzzle}".encode()) % count


@dataclass
class Plan:
    """The jobs of a batch, and the files left out.

    Attributes
    ----------
    jobs : list of Job
        In file order, then puzzle order, then options order.
    skipped : list of str
        One line per file or folder left out: no kind recognises the file (or not the kind
        asked for), the file was already reached by another path, or the folder cannot be
        listed.
    """

    jobs: list[Job]
    skipped: list[str]


def puzzle_names(entries: Sequence[PuzzleEntry]) -> list[str]:
    """The ``puzzle`` column of each entry of a file, unique within the file.

    ``""`` for a lone puzzle without id; else its id (its 1-based position when it has none),
    with ``@POSITION`` appended to a name that several entries share.

    Examples
    --------
    >>> from types import SimpleNamespace as Entry
    >>> puzzle_names([Entry(id=7), Entry(id=8), Entry(id=7), Entry(id=None)])
    ['7@1', '8', '7@3', '4']
    """
    if len(entries) == 1 and entries[0].id is None:
        return [""]
    names = [str(e.id) if e.id is not None else str(i) for i, e in enumerate(entries, 1)]
    shared = {name for name, count in Counter(names).items() if count > 1}
    marked = [f"{n}@{i}" if n in shared else n for i, n in enumerate(names, 1)]
    if len(set(marked)) < len(marked):  # an id such as "7@3" of its own: mark every name
        return [f"{n}@{i}" for i, n in enumerate(names, 1)]
    return marked


def plan(
    paths: Iterable[str | Path],
    requests: Sequence[Request],
    *,
    kind: str | None = None,
    time_limit: float | None = None,
    max_nodes: int | None = None,
    shard: tuple[int, int] = (0, 1),
) -> Plan:
    """Read every puzzle under ``paths`` and make one :class:`Job` per puzzle and options.

    Parameters
    ----------
    paths : iterable of str or Path
        Files and folders (walked by :func:`files_under`).
    requests : sequence of Request
        Each puzzle is solved once per request.
    kind : str, optional
        Keep only files of this kind; others are skipped.
    time_limit, max_nodes : optional
        The solver's limits for each job.
    shard : tuple of (int, int)
        ``(k, n)``: keep only the puzzles of shard ``k`` of ``n`` (0-based; see :func:`shard_of`).

    Returns
    -------
    Plan
        A file no kind recognises is skipped with a note, as is a file reached a second time
        (by another path or link) and a folder that cannot be listed; a file that cannot be
        read (missing, a pipe or device, too large, malformed) gives one job per request whose
        ``error`` says why (stored as an error row, not raised), and so does each puzzle of a
        file of many that cannot be read (a :class:`~cspsolve.inputs.BrokenEntry`), beside
        the jobs of the file's other puzzles.
    """
    k, n = shard
    jobs: list[Job] = []
    skipped: list[str] = []

    seen: dict[str, str] = {}

    def failed(file: str, found: str | None, e: InputError) -> None:
        error = str(e) if e.source == file else f"{file}: {e}"
        if shard_of(file, "", n) == k:
            jobs.extend(
                Job(file, "", found, r, time_limit, max_nodes, error=error) for r in requests
            )

    for path in files_under(paths, skipped.append):
        file = str(path)
        real = os.path.realpath(path)
        if real in seen:
            again = "given twice" if seen[real] == file else f"the same file as {seen[real]}"
            skipped.append(f"{file}: {again}, planned once")
            continue
        seen[real] = file
        try:
            found = registry.detect(path)
        except UnknownKindError as e:
            skipped.append(f"{file}: {e.message.split(';')[0]}")
            continue
        except InputError as e:
            failed(file, registry.owner(path), e)
            continue
        if kind is not None and found != kind:
            skipped.append(f"{file}: a {found} file, not {kind}")
            continue
        try:
            _, entries = registry.load(file, found)
        except InputError as e:
            failed(file, found, e)
            continue
        for name, entry in zip(puzzle_names(entries), entries, strict=True):
            if shard_of(file, name, n) == k:
                jobs += [_job(file, name, found, entry, r, time_limit, max_nodes) for r in requests]
    return Plan(jobs, skipped)


def _job(
    file: str,
    name: str,
    kind: str,
    entry: PuzzleEntry,
    request: Request,
    time_limit: float | None,
    max_nodes: int | None,
) -> Job:
    """The job of one puzzle of a file; only an error to record when the entry is broken."""
    if isinstance(entry, BrokenEntry):
        return Job(file, name, kind, request, time_limit, max_nodes, error=str(entry.error))
    return Job(file, name, kind, request, time_limit, max_nodes, entry.puzzle)


class HardTimeoutError(Exception):
    """Raised in a worker whose job outlived its hard timeout."""


GRACE = 10.0
"""Seconds a solver may overrun twice its own time limit before the hard timeout stops it."""


def hard_timeout(time_limit: float | None) -> float | None:
    """Seconds after which a job is stopped from outside when its solver overruns its own
    limit: twice the limit plus :data:`GRACE` (``None`` without a time limit)."""
    return None if time_limit is None else 2 * time_limit + GRACE


@contextlib.contextmanager
def _alarm(seconds: float | None) -> Iterator[None]:
    """Raise :class:`HardTimeoutError` after ``seconds`` (POSIX ``SIGALRM``; only in a process's
    main thread, as in a process pool's workers; elsewhere, e.g. Dask's worker threads, the
    solver's own limit is the only one)."""
    if seconds is None or not (
        hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()
    ):
        yield
        return

    def expire(signum: int, frame: FrameType | None) -> None:
        raise HardTimeoutError(f"hard timeout: stopped after {seconds:g} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _one_line(e: BaseException) -> str:
    text = str(e).strip().splitlines()
    return text[0] if text else type(e).__name__


def run_job(job: Job) -> Outcome:
    """Solve one job and return its row; never raises for a bad puzzle or options.

    Runs in a worker. The solver gets the job's limits; :func:`hard_timeout` stops it from
    outside if it overruns them. A ``ValueError`` of the kind (options that do not fit the
    puzzle) or any other exception becomes a row with status ``"error"`` and a one-line
    ``error`` that starts with the job's file (and ``#puzzle``, see :attr:`Job.where`).
    """
    row: dict[str, Any] = dict.fromkeys(_COLUMNS) | {
        "file": job.file,
        "puzzle": job.puzzle,
        "kind": job.kind,
        "method": job.method,
        "options": job.settings,
    }
    if job.error or job.kind is None:
        error = job.error or f"{job.where}: unknown kind"
        return Outcome(row | {"status": ERROR, "error": error})
    started = time.perf_counter()
    try:
        kind = registry.get(job.kind)
        limits = Limits(time_limit=job.time_limit, max_nodes=job.max_nodes)
        with _alarm(hard_timeout(job.time_limit)):
            result = tasks.solve(kind, job.problem, request=job.request, limits=limits)
        record = result.to_json(kind.encode)
    except HardTimeoutError as e:
        row |= {"status": "limit", "error": f"{job.where}: {e}"}
    except Exception as e:
        message = _one_line(e)
        if not isinstance(e, ValueError):
            message = f"{type(e).__name__}: {message}"
        row |= {"status": ERROR, "error": f"{job.where}: {message}"}
    else:
        row |= {
            "status": record["status"],
            "solved_by": record["method"],
            "heuristic": record["heuristic"],
            "cost": result.stats.cost if result.status.has_solution else None,
            "seconds": result.stats.seconds,
            "stats": json.dumps(record["stats"]),
            "proof": json.dumps(record["proof"]),
            "solution": json.dumps(record["solution"]),
            "message": record.get("message"),
        }
    if row["seconds"] is None:
        row["seconds"] = time.perf_counter() - started
    return Outcome(row)


class Store:
    """The SQLite file of a batch: the ``results`` table, written by one process.

    Parameters
    ----------
    path : str or Path
        The database file (created with its table when missing).

    Several processes (shards of a job array) may share one file on a local disk: each commit
    waits up to a minute for the others' locks. On a network file system give each shard its
    own file.
    """

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.db = sqlite3.connect(self.path, timeout=60)
        self.db.execute(SCHEMA)
        self.db.commit()

    def done(self) -> set[tuple[str, str, str, str]]:
        """The keys of the jobs already stored."""
        rows = self.db.execute("SELECT file, puzzle, method, options FROM results")
        return {(f, p, m, o) for f, p, m, o in rows}

    def todo(self, jobs: Iterable[Job]) -> list[Job]:
        """The jobs whose row is not stored yet, in their order."""
        done = self.done()
        return [job for job in jobs if job.key not in done]

    def add(self, outcome: Outcome) -> bool:
        """Store one row and commit it; ``False`` when its key was already there."""
        values = [outcome.row.get(c) for c in _COLUMNS]
        marks = ", ".join("?" * len(_COLUMNS))
        cursor = self.db.execute(
            f"INSERT OR IGNORE INTO results ({', '.join(_COLUMNS)}) VALUES ({marks})", values
        )
        self.db.commit()
        return cursor.rowcount == 1

    def totals(self) -> list[tuple[str, str, int, float]]:
        """Rows per (kind, status) with their total seconds, sorted."""
        query = (
            "SELECT coalesce(kind, '?'), status, count(*), coalesce(sum(seconds), 0) "
            "FROM results GROUP BY 1, 2 ORDER BY 1, 2"
        )
        return [(k, s, n, t) for k, s, n, t in self.db.execute(query)]

    def close(self) -> None:
        """Close the database."""
        self.db.close()


def run(
    jobs: Sequence[Job],
    executor: cf.Executor,
    store: Store,
    *,
    window: int = 64,
    on_outcome: Callable[[Outcome], None] | None = None,
) -> tuple[int, int]:
    """Run the jobs not yet in ``store`` on ``executor``, storing each outcome as it arrives.

    Parameters
    ----------
    jobs : sequence of Job
        What :func:`plan` made.
    executor : concurrent.futures.Executor
        A process pool, Dask's ``Client.get_executor()``, or any other executor whose workers
        can import :mod:`cspsolve`.
    store : Store
        Where rows go; its existing keys are skipped.
    window : int
        Most jobs submitted at once (keeps memory flat for millions of jobs).
    on_outcome : callable, optional
        Called in this process after each row is committed (e.g. to advance a progress bar).

    Returns
    -------
    tuple of (int, int)
        Jobs run now and jobs skipped because their row was already there.

    Raises
    ------
    concurrent.futures.process.BrokenProcessPool
        When a worker process dies (rows committed before stay; re-running resumes).
    """
    todo = store.todo(jobs)
    pending: set[cf.Future[Outcome]] = set()
    queue = iter(todo)
    ran = 0
    while True:
        for job in queue:
            pending.add(executor.submit(run_job, job))
            if len(pending) >= window:
                break
        if not pending:
            return ran, len(jobs) - len(todo)
        finished, pending = cf.wait(pending, return_when=cf.FIRST_COMPLETED)
        for future in finished:
            outcome = future.result()
            store.add(outcome)
            ran += 1
            if on_outcome is not None:
                on_outcome(outcome)
