"""Sliding tiles explained: the plan move by move with g, h and f, what the heuristic says of
the start, and the proof that no plan is shorter (or, by parity, that none exists).

Rules and data (``Step.data``, JSON-ready; cells 0-based there, rows and columns 1-based in
``text``):

``move``
    One move of the blank. ``move`` (``U``, ``D``, ``L``, ``R``: the direction the blank
    moves, the kind's notation), ``tile`` (the tile that slides into the blank's cell),
    ``blank`` (the blank's cell after the move, row-major index), ``g`` (moves so far), ``h``
    (the heuristic's estimate after the move), ``f = g + h``, ``remaining`` (moves the plan
    still makes). ``Step.state`` is the board after the move (a tuple of tiles, 0 the blank).

The h column is the heuristic the method searched with; an uninformed method (``bfs``,
``iddfs``, ``dfs``) is shown with ``linear-conflict``. ``h <= remaining`` holds at every step
(an admissible heuristic never exceeds the moves still to make); the summary's
``overestimates`` lists the steps where it does not (empty).

The proof uses what the run counted (:data:`cspsolve.search.Tally`): nodes expanded per f-value
(``astar``), per f-limit (``idastar``, and the compiled ``tile-idastar``: its ``tally``),
per depth (``bfs``, ``iddfs``).
``cpsat`` proves its optimum by the horizons of the time-expanded model it found infeasible
(:mod:`.cpsat`), listed in the words and in the summary's ``infeasible``.
``weighted-astar``, weighted ``tile-idastar``, ``greedy`` and ``dfs`` prove no optimum. An
unsolvable board is proven so by the parity rule (:func:`.board.solvability`), without a
search.

Summary: ``lower_bound``, ``cost``, ``grade`` (:func:`.grading.grade` of the plan's length
against the most moves a board of its size needs: the words of ``analyze``), ``expanded``,
``generated``, ``per`` and ``counts`` (the tally), ``overestimates``, ``method``,
``heuristic``, ``h_start``, ``manhattan`` and ``linear_conflict`` (of the start);
``infeasible`` for ``cpsat``.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from cspsolve import plans
from cspsolve.explanation import Explanation, Step
from cspsolve.kind import Kind
from cspsolve.limits import Limits
from cspsolve.results import Result, Stats, Status

from . import grading
from .board import MOVES, Puzzle, Tiles, apply, solvability
from .pictures import picture, text
from .search import SlidingTileProblem
from .search import heuristic as make_heuristic

__all__ = ["explain"]
SHOWN_HEURISTIC = "linear-conflict"
"""The h column of an uninformed method."""
NAMES = {
    "astar": "A*",
    "idastar": "IDA*",
    "tile-idastar": "the compiled IDA*",
    "weighted-astar": "weighted A*",
    "greedy": "greedy best-first search",
    "bfs": "breadth-first search",
    "iddfs": "iterative deepening",
    "dfs": "depth-first search",
    "cpsat": "CP-SAT",
}
"""Each method's algorithm, for people."""
COUNTED: dict[str, plans.Proof] = {
    "astar": "f-value",
    "idastar": "f-limit",
    "bfs": "depth",
    "iddfs": "depth",
}
"""The engine's methods that count what their proof rests on."""
_SLIDES = {"U": "down", "D": "up", "L": "right", "R": "left"}
"""The way the tile slides when the blank moves."""


def explain(
    puzzle: Puzzle,
    *,
    kind: Kind,
    method: str | None,
    heuristic: str | None,
    options: Any,
    limits: Limits | None,
) -> Explanation:
    """The explanation of ``puzzle``'s plan (module text) by ``method`` of ``kind`` (``None``:
    the kind's default) with ``heuristic``, within ``limits``.

    Raises
    ------
    OptionError
        When the method, heuristic or options do not fit the board (as for ``solve``).
    """
    from cspsolve.tasks import Request, choose

    chosen, h_name = choose(kind, puzzle, request=Request(method, heuristic))
    ok, why = solvability(puzzle)
    if ok:
        searched = _search(kind, puzzle, chosen.name, h_name, options, limits)
    else:
        result: Result[list[str]] = Result(Status.UNSOLVABLE, None, Stats(), message=why)
        result.method, result.heuristic = chosen.name, h_name
        searched = plans.Searched(
            result, "the parity rule", claim=f"No plan: {why.removeprefix('unsolvable: ')}."
        )
    shown = h_name or SHOWN_HEURISTIC
    result = searched.result
    plan: list[str] = list(result.solution or []) if result.status.has_solution else []
    boards = [puzzle.start]
    for move in plan:
        boards.append(apply(puzzle, boards[-1], move=move))
    estimate = _estimate(puzzle, shown, options, searched) if ok else None
    rows = []
    if estimate is not None and result.status.has_solution:
        rows = plans.plan_table(boards, [1.0] * len(plan), estimate)
    steps = [
        _step(puzzle, move, before, after, row)
        for move, before, after, row in zip(plan, boards[:-1], boards[1:], rows[1:], strict=True)
    ]
    start = bytes(puzzle.start)
    manhattan = int(make_heuristic("manhattan", puzzle)(start))
    conflict = int(make_heuristic("linear-conflict", puzzle)(start))
    h0 = None if estimate is None else estimate(puzzle.start)
    words = [*_heuristic_words(shown, h0, manhattan, conflict), *searched.words("moves")]
    bad = plans.overestimates(rows)
    if bad:
        words.append(f"h exceeds the moves still to make at rows {bad}: it overestimates.")
    summary = plans.summary(
        searched,
        rows,
        grading.grade(puzzle, len(plan) if result.status.has_solution else None),
        method=result.method,
        heuristic=shown,
        h_start=None if h0 is None else plans.number(h0),
        manhattan=manhattan,
        linear_conflict=conflict,
        **({"infeasible": result.proof["infeasible"]} if "infeasible" in result.proof else {}),
    )
    return Explanation(
        "npuzzle",
        result,
        steps,
        words,
        summary,
        start=puzzle.start,
        scene=functools.partial(picture, puzzle),
        draw=lambda tiles: "\n".join(text(puzzle, tiles)),
    )


def _heuristic_words(name: str, h0: float | None, manhattan: int, conflict: int) -> list[str]:
    """What the heuristic says of the start: its value, a lower bound on every plan (nothing
    when it was not computed: an unsolvable board, or a limit while it was built)."""
    if h0 is None:
        return []
    parts = f"the Manhattan distance is {manhattan}"
    if conflict > manhattan:
        parts += f", and linear conflicts add {conflict - manhattan} (tiles in their goal row or"
        parts += " column but in the wrong order must step aside)"
    return [
        f"At the start {parts}; {name} gives h = {plans.spelled(h0)}, so every plan has at "
        f"least {plans.amount(h0, 'moves')}."
    ]


def _estimate(
    puzzle: Puzzle, name: str, options: Any, searched: plans.Searched
) -> Callable[[Tiles], float] | None:
    """The heuristic ``name`` on tile tuples: the run's own, else built afresh (the pattern
    databases come from the cache the run filled); ``None`` when a limit stopped the run
    before it had one of pattern databases (building them again would pass the limit)."""
    h = searched.heuristic
    if h is None:
        if name == "pdb" and not searched.result.status.has_solution:
            return None
        h = make_heuristic(name, puzzle, partition=getattr(options, "partition", None))

    def estimate(tiles: Tiles) -> float:
        assert h is not None
        return float(h(bytes(tiles)))

    return estimate


def _step(puzzle: Puzzle, move: str, before: Tiles, after: Tiles, row: plans.PlanRow) -> Step:
    blank = after.index(0)
    tile = before[blank]
    r, c = divmod(blank, puzzle.cols)
    dr, dc = MOVES[move]
    data = {"move": move, "tile": tile, "blank": blank, **row.data()}
    words = (
        f"{move}: tile {tile} slides {_SLIDES[move]} from ({r + 1}, {c + 1}) to "
        f"({r - dr + 1}, {c - dc + 1}); g {plans.spelled(row.g)}, h {plans.spelled(row.h)}, "
        f"f {plans.spelled(row.f)}, {plans.spelled(row.remaining)} to go"
    )
    return Step("move", words, data, after)


def _search(
    kind: Kind,
    puzzle: Puzzle,
    method: str,
    heuristic: str | None,
    options: Any,
    limits: Limits | None,
) -> plans.Searched:
    """Run ``method`` counting what its proof rests on (module text)."""
    weighted = getattr(options, "w", None) not in (None, 1)
    if method == "tile-idastar" and not weighted:
        return _compiled(puzzle, heuristic, options, limits)
    if method not in COUNTED:
        result = kind.method(method).run(
            puzzle, heuristic=heuristic, options=options, limits=limits
        )
        result.method, result.heuristic = method, heuristic
        claim = _horizons(result, heuristic) if method == "cpsat" else ""
        return plans.Searched(result, NAMES[method], claim=claim)
    return _counted(puzzle, method, heuristic, options, limits)


def _horizons(result: Result[list[str]], heuristic: str | None) -> str:
    """What CP-SAT's deepening proved, horizon by horizon (empty when it decided none)."""
    proof = result.proof
    if "first_horizon" not in proof:
        return ""
    first, infeasible = proof["first_horizon"], proof["infeasible"]
    value = (
        "Manhattan distance"
        if heuristic == "manhattan"
        else f"{heuristic} value or its Manhattan distance, whichever is larger"
    )
    words = [
        f"CP-SAT started at horizon {first}: the start's {value}, rounded up to the parity "
        "every plan shares, so no plan is shorter."
    ]
    if infeasible:
        listed = ", ".join(map(str, infeasible))
        words.append(
            f"It proved the time-expanded model infeasible at horizon{'s' * (len(infeasible) > 1)} "
            f"{listed}: no plan has at most {infeasible[-1]} moves, and by parity none has "
            f"{infeasible[-1] + 1}."
        )
    if result.status is Status.OPTIMAL:
        words.append(f"At horizon {proof['lower_bound']} it found a plan: no plan is shorter.")
    return " ".join(words)


def _counted(
    puzzle: Puzzle, method: str, heuristic: str | None, options: Any, limits: Limits | None
) -> plans.Searched:
    """The engine's ``method`` (one of :data:`COUNTED`) with its tally; the heuristic's pattern
    databases are got within ``limits``."""
    from cspsolve import search as engine

    from .pdb import BuildStoppedError

    problem = SlidingTileProblem(puzzle)
    tally: dict[float, int] = {}
    budget = (limits or Limits()).start(Stats())
    h = None
    if heuristic is not None:
        partition = getattr(options, "partition", None)
        try:
            h = make_heuristic(heuristic, puzzle, stop=budget.exhausted, partition=partition)
        except BuildStoppedError as stopped:
            result: Result[list[str]] = Result(
                stopped.status, None, budget.finish(), message=str(stopped)
            )
            result.method, result.heuristic = method, heuristic
            return plans.Searched(result, NAMES[method])
    built = budget.finish().seconds
    rest = budget.rest()
    if method == "bfs":
        result = engine.bfs(problem, limits=rest, tally=tally)
    elif method == "iddfs":
        result = engine.iddfs(problem, limits=rest, tally=tally)
    elif method == "astar":
        assert h is not None
        result = engine.astar(problem, h, limits=rest, tally=tally)
    else:
        assert h is not None
        result = engine.idastar(problem, h, limits=rest, tally=tally)
    result.stats.seconds += built
    result.method, result.heuristic = method, heuristic
    return plans.Searched(result, NAMES[method], COUNTED[method], tally, heuristic=h)


def _compiled(
    puzzle: Puzzle, heuristic: str | None, options: Any, limits: Limits | None
) -> plans.Searched:
    """The compiled IDA* (``tile-idastar``, unweighted), counting the nodes per f-limit."""
    from .tile_idastar import solve

    assert heuristic is not None
    tally: dict[float, int] = {}
    partition = getattr(options, "partition", None)
    result = solve(puzzle, heuristic, limits=limits, partition=partition, tally=tally)
    result.method, result.heuristic = "tile-idastar", heuristic
    return plans.Searched(result, NAMES["tile-idastar"], "f-limit", tally)
