"""The library in one line a call: read a puzzle, then solve, verify, analyze, explain or
compare it; or make puzzles to order (:func:`generate`).

A puzzle is the kind's own object (the class the kind declares in ``Kind.classes``), read
from a file, parsed from a string or built from Python data; the
functions find its kind from its class (:func:`cspsolve.registry.kind_of`). Methods,
heuristics and the kind's options are keyword arguments, checked against the kind's
declaration: a name it lacks raises :class:`~cspsolve.errors.OptionError` naming the choices.
Each call is the :mod:`cspsolve.tasks` call the command line makes, with a
:class:`~cspsolve.tasks.Request` of those keywords and :class:`~cspsolve.limits.Limits` of
``time_limit``, ``max_nodes``, ``cancel`` and ``progress``.

Examples
--------
>>> import cspsolve
>>> from cspsolve.instances import ROOT
>>> puzzle = cspsolve.read(ROOT / "rushhour" / "card-32.txt")[0]
>>> result = cspsolve.solve(puzzle, method="astar", heuristic="blocking", metric="moves")
>>> result.status, result.stats.cost
(<Status.OPTIMAL: 'optimal'>, 49)
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable, Collection, Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import cspsolve.registry as registry
import cspsolve.tasks as tasks
from cspsolve.errors import OptionError, UnknownKindError
from cspsolve.explanation import Explanation
from cspsolve.kind import Kind, PuzzleEntry
from cspsolve.limits import build, processes
from cspsolve.results import Result, Stats

if TYPE_CHECKING:
    from cspsolve.generating import Generated

__all__ = [
    "analyze",
    "compare",
    "explain",
    "generate",
    "parse",
    "parser",
    "read",
    "solve",
    "solve_many",
    "verify",
]

SOURCE = "<string>"
"""The name a parsed string goes by in error messages."""


def read(path: str | Path, kind: str | None = None) -> list[Any]:
    """The puzzles of a file, or the one ``FILE#KEY`` names.

    Parameters
    ----------
    path : str or Path
        A puzzle file, optionally followed by ``#KEY`` to pick one puzzle of a multi-puzzle file.
    kind : str, optional
        The puzzle kind; by default the one owning the file's extension, else the first that
        recognises its content.

    Returns
    -------
    list
        The kind's puzzle objects, in file order.

    Raises
    ------
    InputError
        On any problem with the file (:class:`~cspsolve.errors.UnknownKindError` when no kind
        recognises it), a puzzle of it that cannot be read included: the first such puzzle's
        error (``FILE#KEY`` still reads each of the others).
    OptionError
        For an unknown ``kind``.

    Examples
    --------
    >>> import cspsolve
    >>> from cspsolve.instances import ROOT
    >>> [board] = cspsolve.read(ROOT / "npuzzle" / "easy8.txt")
    >>> type(board).__name__
    'Puzzle'
    """
    return [entry.puzzle for entry in registry.load(str(path), kind)[1]]


def parse(text: str, kind: str | None = None, format: str | None = None) -> list[Any]:
    """The puzzles of a string holding a puzzle file's content.

    Parameters
    ----------
    text : str
        The content, in any format :func:`read` takes.
    kind : str, optional
        The puzzle kind; by default the first whose ``sniff`` recognises the text.
    format : str, optional
        One of the kind's formats; by default the kind's reader tells it from the text.

    Returns
    -------
    list
        The kind's puzzle objects, in text order.

    Raises
    ------
    InputError
        When the text, or a puzzle of it, does not read (its source named ``<string>``);
        :class:`~cspsolve.errors.UnknownKindError` when no kind recognises it.
    OptionError
        For an unknown ``kind``, or a kind that reads files only.

    Examples
    --------
    >>> import cspsolve
    >>> [board] = cspsolve.parse("1 2 3\\n4 0 6\\n7 5 8\\n")
    >>> cspsolve.solve(board).stats.cost
    2
    >>> cspsolve.parse("$1\\n1\\n1\\n", format="tournament")[0].rows
    ((1,),)
    """
    text = text.removeprefix("\ufeff")
    name = kind if kind is not None else registry.sniffed(SOURCE, text[: 1 << 16])
    if name is None:
        raise UnknownKindError(
            SOURCE, None, f"cannot tell the puzzle kind; name it ({', '.join(registry.kinds())})"
        )
    parse_text = parser(registry.get(name))
    entries = registry.reading(
        name, SOURCE, lambda: parse_text(text, SOURCE, fmt=format), by_content=kind is None
    )
    return [entry.puzzle for entry in entries]


def parser(kind: Kind) -> Callable[..., Sequence[PuzzleEntry]]:
    """The kind's ``parse(text, source, *, fmt)``: the function beside its ``read``.

    Raises
    ------
    OptionError
        When the module of the kind's ``read`` has no ``parse``.
    """
    found = getattr(sys.modules[kind.read.__module__], "parse", None)
    if not callable(found):
        raise OptionError(f"{kind.name} reads files only; write the text to a file and read it")
    return found  # type: ignore[no-any-return]


def _call(
    puzzle: Any,
    kind: str | None,
    method: str | None,
    heuristic: str | None,
    options: dict[str, Any],
) -> tuple[Kind, tasks.Request]:
    """The puzzle's kind (named, else found by its class) and the request of the keywords."""
    found = registry.get(kind) if kind is not None else registry.kind_of(puzzle)
    request = tasks.Request(method, heuristic, options)
    tasks.check_names(found, request)
    tasks.options_of(found, request, also=KEYWORDS)
    return found, request


KEYWORDS = (
    "method",
    "heuristic",
    "kind",
    "time_limit",
    "max_nodes",
    "cancel",
    "progress",
    "workers",
    "scheduler",
)
"""The calls' own keywords, named beside a kind's options when a keyword is unknown."""


def solve(
    puzzle: Any,
    *,
    method: str | None = None,
    heuristic: str | None = None,
    kind: str | None = None,
    time_limit: float | None = None,
    max_nodes: int | None = None,
    cancel: threading.Event | None = None,
    progress: Callable[[Stats], None] | None = None,
    workers: int | str = 1,
    scheduler: str | None = None,
    **options: Any,
) -> Result[Any]:
    """Solve a puzzle by a method of its kind (by default the kind's choice for it).

    Parameters
    ----------
    puzzle : object
        A puzzle of any kind (from :func:`read`, :func:`parse` or built by its class).
    method, heuristic : str, optional
        A method of the kind and one of its heuristics (``cspsolve methods`` lists them).
    kind : str, optional
        The puzzle's kind; by default found from its class.
    time_limit : float, optional
        Seconds the run may take (status ``limit`` past them).
    max_nodes : int, optional
        Nodes it may expand.
    cancel : threading.Event, optional
        Stops the run (status ``cancelled``) when set from another thread.
    progress : callable, optional
        Receives the run's live :class:`~cspsolve.results.Stats` now and then.
    workers : int or "auto"
        Processes the method may split its search over (``"auto"``: every core); a method
        that cannot split runs on one whatever this says
        (:attr:`~cspsolve.limits.Limits.workers`).
    scheduler : str, optional
        Address of a Dask scheduler (``tcp://host:8786``) whose workers take the pieces of a
        split search instead of local processes; ``workers`` left at 1 then means every
        thread of the cluster (:func:`cspsolve.parallel.cluster_size`).
    **options
        The kind's own options by field name (e.g. ``metric="moves"``, ``unique=True``).

    Returns
    -------
    Result
        Its ``method`` and ``heuristic`` name what ran.

    Raises
    ------
    OptionError
        For a method, heuristic or option the kind lacks (naming its choices), or one that
        does not fit the puzzle.

    Examples
    --------
    >>> import cspsolve
    >>> from cspsolve.models.nonogram.board import Nonogram
    >>> result = cspsolve.solve(Nonogram(rows=[(1,), (1,)], columns=[(2,)]), unique=True)
    >>> result.solution, result.proof["unique"]
    (('#', '#'), True)
    >>> cspsolve.solve(Nonogram(rows=[(1,)], columns=[(1,)]), method="magic")
    Traceback (most recent call last):
    ...
    cspsolve.errors.OptionError: unknown method 'magic' for nonogram (did you mean 'mac'?); ...
    """
    found, request = _call(puzzle, kind, method, heuristic, options)
    limits = build(time_limit, max_nodes, cancel, progress, workers, scheduler)
    return tasks.solve(found, puzzle, request=request, limits=limits)


def solve_many(
    puzzles: Iterable[Any],
    *,
    method: str | None = None,
    heuristic: str | None = None,
    kind: str | None = None,
    time_limit: float | None = None,
    max_nodes: int | None = None,
    workers: int | str | None = None,
    scheduler: str | None = None,
    **options: Any,
) -> list[Result[Any]]:
    """Solve many puzzles at once, one per process, as ``cspsolve solve --workers N``.

    Each puzzle is solved on one core as :func:`solve` would solve it; the processes are a
    local pool or the workers of a Dask cluster. With one worker and no scheduler, or a single
    puzzle, the puzzles are solved here, one after another (a single puzzle with the workers
    for its method, as :func:`solve`). The driver is the command line's:
    :func:`cspsolve.fanout.outcomes`.

    Parameters
    ----------
    puzzles : iterable
        Puzzles of any kinds (each must pickle, as the kinds' puzzle objects do).
    method, heuristic, kind, time_limit, max_nodes, **options
        As :func:`solve`, for every puzzle (the limits each puzzle's own).
    workers : int or "auto", optional
        Processes of the local pool; by default (or ``"auto"``) the cores
        (:func:`cspsolve.parallel.cores`).
    scheduler : str, optional
        Address of a Dask scheduler (``tcp://host:8786``) whose workers solve the puzzles.

    Returns
    -------
    list of Result
        In the order of ``puzzles``.

    Raises
    ------
    OptionError
        For a method, heuristic or option a puzzle's kind lacks, or one that does not fit a
        puzzle (naming its position); when the scheduler cannot be reached.

    Examples
    --------
    >>> import cspsolve
    >>> from cspsolve.instances import ROOT
    >>> boards = cspsolve.read(ROOT / "nonogram" / "tournament-sample.txt")
    >>> [r.status.value for r in cspsolve.solve_many(boards, workers=2)]
    ['solved', 'solved', 'solved']
    """
    calls = [(puzzle, *_call(puzzle, kind, method, heuristic, options)) for puzzle in puzzles]
    default: int | str = "auto" if scheduler is None else 1  # every core, or the cluster's
    count = processes(default if workers is None else workers, scheduler)
    import cspsolve.fanout as fanout  # not at import: it loads concurrent.futures

    asked = ((fanout.Posed(found, puzzle), [request]) for puzzle, found, request in calls)
    done = fanout.outcomes(
        asked,
        tasks.solve,
        time_limit=time_limit,
        max_nodes=max_nodes,
        workers=count,
        scheduler=scheduler,
    )
    results: list[Result[Any]] = []
    for number, (_, outcomes) in enumerate(done, 1):
        [outcome] = outcomes
        if isinstance(outcome, fanout.Refused):
            raise OptionError(f"puzzle {number}: {outcome.message}")
        results.append(outcome)
    return results


def verify(
    puzzle: Any,
    *,
    method: str | None = None,
    heuristic: str | None = None,
    kind: str | None = None,
    time_limit: float | None = None,
    max_nodes: int | None = None,
    cancel: threading.Event | None = None,
    progress: Callable[[Stats], None] | None = None,
    workers: int | str = 1,
    scheduler: str | None = None,
    **options: Any,
) -> tasks.Verification:
    """Solve by a method and by the kind's reference method, check both answers, compare.

    The parameters are those of :func:`solve`; the two runs together keep within the limits.

    Returns
    -------
    Verification
        Both results, whether they agree (``None`` when a limit left it open) and the problems.

    Raises
    ------
    OptionError
        As :func:`solve`, and when the method is the reference itself.

    Examples
    --------
    >>> import cspsolve
    >>> from cspsolve.instances import ROOT
    >>> [board] = cspsolve.read(ROOT / "lightsout" / "classic-5x5.lo")
    >>> cspsolve.verify(board).agree
    True
    """
    found, request = _call(puzzle, kind, method, heuristic, options)
    limits = build(time_limit, max_nodes, cancel, progress, workers, scheduler)
    return tasks.verify(found, puzzle, request=request, limits=limits)


def analyze(
    puzzle: Any,
    *,
    method: str | None = None,
    heuristic: str | None = None,
    kind: str | None = None,
    time_limit: float | None = None,
    max_nodes: int | None = None,
    cancel: threading.Event | None = None,
    progress: Callable[[Stats], None] | None = None,
    workers: int | str = 1,
    scheduler: str | None = None,
    **options: Any,
) -> dict[str, Any]:
    """Difficulty and structure of a puzzle (the keys ``cspsolve methods`` lists per kind).

    The parameters are those of :func:`solve` (the method and heuristic of the solving runs
    the analysis makes, where it makes any).

    Returns
    -------
    dict
        JSON-ready data; a ``"status"`` of ``"limit"`` when a limit cut it short.

    Raises
    ------
    OptionError
        As :func:`solve`.

    Examples
    --------
    >>> import cspsolve
    >>> from cspsolve.instances import ROOT
    >>> [board] = cspsolve.read(ROOT / "npuzzle" / "easy8.txt")
    >>> cspsolve.analyze(board)["solvable"]
    True
    """
    found, request = _call(puzzle, kind, method, heuristic, options)
    limits = build(time_limit, max_nodes, cancel, progress, workers, scheduler)
    return tasks.analyze(found, puzzle, request=request, limits=limits)


def explain(
    puzzle: Any,
    *,
    method: str | None = None,
    heuristic: str | None = None,
    kind: str | None = None,
    time_limit: float | None = None,
    max_nodes: int | None = None,
    cancel: threading.Event | None = None,
    progress: Callable[[Stats], None] | None = None,
    workers: int | str = 1,
    scheduler: str | None = None,
    **options: Any,
) -> Explanation:
    """Why the answer to a puzzle holds, step by step (as ``cspsolve explain``).

    The parameters are those of :func:`solve`. In Jupyter the explanation shows itself with a
    step slider and buttons; ``print`` gives numbered steps, :meth:`~Explanation.jsonl` one
    JSON object a step, :meth:`~Explanation.write` a web page or a GIF.

    Returns
    -------
    Explanation
        Its ``steps`` (each a :class:`~cspsolve.explanation.Step`), the ``proof`` in words,
        the ``summary`` facts (the difficulty ``grade``, ...) and the ``result`` explained.

    Raises
    ------
    OptionError
        As :func:`solve`.

    Examples
    --------
    >>> import cspsolve
    >>> from cspsolve.instances import ROOT
    >>> [board] = cspsolve.read(ROOT / "npuzzle" / "easy8.txt")
    >>> why = cspsolve.explain(board)
    >>> why.result.stats.cost, len(why.steps)
    (2, 2)
    """
    found, request = _call(puzzle, kind, method, heuristic, options)
    limits = build(time_limit, max_nodes, cancel, progress, workers, scheduler)
    return tasks.explain(found, puzzle, request=request, limits=limits)


def compare(
    puzzle: Any,
    *,
    methods: Collection[str] | None = None,
    heuristics: Collection[str] | None = None,
    kind: str | None = None,
    time_limit: float | None = 10.0,
    max_nodes: int | None = None,
    cancel: threading.Event | None = None,
    workers: int | str = 1,
    scheduler: str | None = None,
    **options: Any,
) -> list[Result[Any]]:
    """Run every method and heuristic of the puzzle's kind on it, as ``cspsolve compare``.

    Parameters
    ----------
    puzzle : object
        A puzzle of any kind.
    methods, heuristics : collection of str, optional
        Only these methods and heuristics (an uninformed method passes any heuristic filter).
    kind : str, optional
        The puzzle's kind; by default found from its class.
    time_limit : float or None
        Seconds each run may take (10 by default; ``None`` for no limit).
    max_nodes : int, optional
        Nodes each run may expand.
    cancel : threading.Event, optional
        Stops the run under way, and each one after it, when set.
    workers, scheduler : optional
        As :func:`solve`, for each run.
    **options
        The kind's own options, for every run.

    Returns
    -------
    list of Result
        One per (method, heuristic) pair, in the kind's table order.

    Raises
    ------
    OptionError
        For a method, heuristic or option the kind lacks.

    Examples
    --------
    >>> import cspsolve
    >>> from cspsolve.instances import ROOT
    >>> [board] = cspsolve.read(ROOT / "npuzzle" / "easy8.txt")
    >>> runs = cspsolve.compare(board, methods=["astar", "bfs"], heuristics=["manhattan"])
    >>> [(r.method, r.heuristic, r.stats.cost) for r in runs]
    [('astar', 'manhattan', 2), ('bfs', None, 2)]
    """
    found, request = _call(puzzle, kind, None, None, options)
    pairs = tasks.comparisons(found, puzzle, methods=methods, heuristics=heuristics)
    limits = build(time_limit, max_nodes, cancel, None, workers, scheduler)
    return [
        tasks.solve(
            found, puzzle, request=tasks.Request(method, heuristic, request.options), limits=limits
        )
        for method, heuristic in pairs
    ]


def generate(
    kind: str,
    *,
    count: int = 1,
    seed: int = 0,
    time_limit: float | None = None,
    workers: int | str = 1,
    scheduler: str | None = None,
    **options: Any,
) -> list[Generated]:
    """Puzzles of a kind made to order, each with what was proven about it, as ``cspsolve
    generate`` (:mod:`cspsolve.generating`).

    Parameters
    ----------
    kind : str
        The kind's name (one whose declaration has a generator).
    count : int
        How many puzzles.
    seed : int
        The run's seed: the same seed and options give the same puzzles, on any number of
        workers.
    time_limit : float, optional
        Seconds for the whole run: the puzzles made before it ran out are returned.
    workers, scheduler : optional
        Processes (``"auto"``: the cores), or a Dask scheduler's address, to make them on.
    **options
        The generator's options (``cspsolve generate KIND --help`` lists them).

    Returns
    -------
    list of Generated
        In order; fewer than ``count`` when the time limit stopped the run.

    Raises
    ------
    OptionError
        For an unknown kind or option, or options no puzzle can meet.

    Examples
    --------
    >>> import cspsolve
    >>> [made] = cspsolve.generate("npuzzle", seed=1, size="3", moves=6)
    >>> made.certificate["optimum"], cspsolve.solve(made.puzzle).stats.cost
    (6, 6)
    """
    from cspsolve.generating import generator_of, made, options_of

    if isinstance(count, bool) or not isinstance(count, int) or count < 0:
        raise OptionError(f"count must be a whole number >= 0, got {count!r}")
    found = registry.get(kind)
    chosen = options_of(generator_of(found), options)
    limits = build(time_limit, None, None, None, workers, scheduler)
    return list(
        made(
            found,
            chosen,
            seed=seed,
            indices=range(count),
            workers=limits.workers,
            scheduler=scheduler,
            time_limit=time_limit,
        )
    )
