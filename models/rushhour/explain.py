"""Rush Hour explained: the plan move by move with g, h and f, the blocking chain at the start,
and the proof that no plan is shorter (or that none exists).

Rules and data (``Step.data``, JSON-ready; coordinates 0-based there, 1-based in ``text``):

``move``
    One slide of the plan. ``move`` (the kind's notation, e.g. ``"C-1"``), ``piece``,
    ``delta`` (cells: positive right or down, negative left or up), ``g`` (cost so far, in the
    metric: moves, or cells under ``steps``), ``h`` (the heuristic's estimate after the move,
    ``None`` where it is infinite), ``f = g + h``, ``remaining`` (what the plan still spends
    after the move). ``Step.state`` is the :class:`~.board.Board` after the move.

The h column is the heuristic the method searched with; an uninformed method (``bfs``,
``engine-bfs``, ``dfs``, ``cpsat``) is shown with ``blockers``. ``h <= remaining`` holds at
every step (an admissible heuristic never exceeds the cost still to go); the summary's
``overestimates`` lists the steps where it does not (empty).

The proof uses what the run counted. ``bfs`` runs the compiled breadth-first search of
:func:`.packed.search` over the whole cluster, layer by layer (nodes expanded per depth);
``bfida`` runs breadth-first iterative-deepening A* on the same search, its bound raised each
time to the least ``depth + estimate`` left out (Korf's rule: nodes expanded per f-limit); the
engine's ``astar``, ``idastar`` and ``engine-bfs`` count per f-value, f-limit and depth
(:data:`cspsolve.search.Tally`). ``greedy`` and ``dfs`` prove no optimum; ``cpsat`` proves its
optimum by refuting every shorter horizon.

The blocking chain (in the proof, before the optimality sentences) is read off the start: the
pieces between the red car and the exit (each must move: the ``blocking`` count), and, for
each of them, what it sweeps into when it leaves the row upwards or downwards (a wall or the
board's edge rules a direction out; the pieces there must move first: the second level of
``blockers``).

Summary: ``lower_bound``, ``cost`` (in the metric), ``moves`` (slides in the plan), ``grade``
(:func:`.grading.grade` of the number of slides, consecutive one-cell steps of a piece one
way counted as one slide, against the most moves a board of its size needs: the words of
``analyze``), ``expanded``, ``generated``, ``per`` and
``counts`` (the tally), ``overestimates``, ``method``, ``heuristic``, ``metric``, ``h_start``,
``blockers`` (names), ``positions`` (states kept by the last search, on an unsolvable board).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any

from cspsolve import plans
from cspsolve.explanation import Explanation, Step
from cspsolve.kind import Kind
from cspsolve.limits import Limits
from cspsolve.results import Result, Stats, Status

from . import grading
from .board import EXHAUSTED, Board, Move, Piece, merged, replay, walled_in
from .pictures import picture, text
from .search import RushHourProblem
from .search import heuristic as make_heuristic

__all__ = ["explain"]
SHOWN_HEURISTIC = "blockers"
"""The h column of an uninformed method."""


def explain(
    board: Board,
    *,
    kind: Kind,
    method: str | None,
    heuristic: str | None,
    options: Any,
    limits: Limits | None,
) -> Explanation:
    """The explanation of ``board``'s plan (module text) by ``method`` of ``kind`` (``None``:
    the kind's default) with ``heuristic``, under ``options.metric``, within ``limits``.

    Raises
    ------
    OptionError
        When the method or heuristic does not fit the board (as for ``solve``).
    """
    from cspsolve.tasks import Request, choose

    chosen, h_name = choose(kind, board, request=Request(method, heuristic))
    metric = options.cost
    walled = walled_in(board)
    if walled is not None:
        searched = plans.Searched(
            Result(Status.UNSOLVABLE, None, Stats(), message=walled), "the wall check", claim=walled
        )
    else:
        searched = _search(kind, board, chosen.name, h_name, options, limits)
    searched.result.method, searched.result.heuristic = chosen.name, h_name
    shown = h_name or SHOWN_HEURISTIC
    estimate = _estimate(board, metric, shown)
    plan = searched.result.solution if searched.result.status.has_solution else None
    positions = replay(board, plan or [])
    costs = [float(abs(m.delta)) if metric == "steps" else 1.0 for m in plan or []]
    rows = plans.plan_table(positions, costs, estimate) if plan is not None else []
    h0 = estimate(board)
    steps = [
        _step(move, position, row)
        for move, position, row in zip(plan or [], positions[1:], rows[1:], strict=True)
    ]
    chain = _chain(board, plan or [])
    unit = metric
    words = [*chain.words, *searched.words(unit)]
    bad = plans.overestimates(rows)
    if bad:
        words.append(f"h exceeds the cost still to go at rows {bad}: the heuristic overestimates.")
    summary = plans.summary(
        searched,
        rows,
        grading.grade(board, None if plan is None else len(merged(plan))),
        moves=None if plan is None else len(plan),
        method=chosen.name,
        heuristic=shown,
        metric=metric,
        h_start=plans.number(h0),
        blockers=chain.blockers,
    )
    if "positions" in searched.result.stats.extra:
        summary["positions"] = int(searched.result.stats.extra["positions"])
    return Explanation(
        "rushhour",
        searched.result,
        steps,
        words,
        summary,
        start=board,
        scene=picture,
        draw=lambda position: "\n".join(text(position)),
    )


def _estimate(board: Board, metric: str, name: str) -> Any:
    """The heuristic ``name`` on positions (boards) of ``board``."""
    h = make_heuristic(name, RushHourProblem(board, metric))

    def estimate(position: Board) -> float:
        return h(tuple(p.offset for p in position.pieces))

    return estimate


def _direction(piece: Piece, delta: int) -> str:
    if piece.horizontal:
        return "right" if delta > 0 else "left"
    return "down" if delta > 0 else "up"


def _step(move: Move, position: Board, row: plans.PlanRow) -> Step:
    piece = position.piece(move.piece)
    data = {"move": str(move), "piece": move.piece, "delta": move.delta, **row.data()}
    words = (
        f"{move}: {move.piece} {_direction(piece, move.delta)} {abs(move.delta)}; "
        f"g {plans.spelled(row.g)}, h {plans.spelled(row.h)}, f {plans.spelled(row.f)}, "
        f"{plans.spelled(row.remaining)} to go"
    )
    return Step("move", words, data, position)


# --- the search that ran ------------------------------------------------------------------------


def _search(
    kind: Kind,
    board: Board,
    method: str,
    heuristic: str | None,
    options: Any,
    limits: Limits | None,
) -> plans.Searched:
    """Run ``method`` counting what its proof rests on (module text)."""
    metric = options.cost
    if method == "bfs":
        return _deepening(board, metric, "zero", limits, breadth_first=True)
    if method == "bfida":
        assert heuristic is not None
        return _deepening(board, metric, heuristic, limits, breadth_first=False)
    if method in ENGINE:
        return _engine(board, method, heuristic, metric, limits)
    result = kind.method(method).run(board, heuristic=heuristic, options=options, limits=limits)
    claim = ""
    if method in CLAIMS and result.status is Status.OPTIMAL:
        cost = plans.spelled(result.stats.cost)
        claim = CLAIMS[method].format(cost=cost, metric=metric)
    return plans.Searched(result, NAMES.get(method, method), claim=claim)


NAMES = {
    "bfs": "breadth-first search",
    "bfida": "BFIDA*",
    "astar": "A*",
    "idastar": "IDA*",
    "engine-bfs": "breadth-first search",
    "greedy": "greedy best-first search",
    "dfs": "depth-first search",
    "cpsat": "CP-SAT",
    "anytime": "beam search beside BFIDA*",
}
"""Each method's algorithm, for people."""
CLAIMS = {
    "cpsat": (
        "CP-SAT found the time-expanded model infeasible at every horizon below {cost} "
        "{metric}, and a plan at {cost}: no plan is shorter."
    ),
    "anytime": (
        "BFIDA*'s iterations proved every plan at least {cost} {metric} long, and a plan of "
        "{cost} was found: no plan is shorter."
    ),
}
"""How the optimum of a method that counts nothing per bound was proven."""
ENGINE = {"astar": "f-value", "idastar": "f-limit", "engine-bfs": "depth"}
"""The engine's methods that count per f-value, f-limit or depth."""


def _engine(
    board: Board, method: str, heuristic: str | None, metric: str, limits: Limits | None
) -> plans.Searched:
    """The engine's ``astar``, ``idastar`` or ``engine-bfs``, with its tally."""
    from cspsolve import search as engine

    from .search import Transpositions

    problem = RushHourProblem(board, metric)
    tally: dict[float, int] = {}
    if method == "engine-bfs":
        result = engine.bfs(problem, limits=limits, tally=tally)
    else:
        assert heuristic is not None
        h = make_heuristic(heuristic, problem)
        if method == "astar":
            result = engine.astar(problem, h, limits=limits, tally=tally)
        else:
            result = engine.idastar(Transpositions(problem, h), h, limits=limits, tally=tally)
    claim = ""
    if result.status is Status.UNSOLVABLE:
        claim = (
            f"No plan: {NAMES[method]} searched every position reachable from the start "
            f"({result.stats.expanded:,} expanded) and none has the red car at the exit."
        )
    optimal = not (method == "engine-bfs" and metric == "steps")
    return plans.Searched(result, NAMES[method], ENGINE[method] if optimal else None, tally, claim)


def _deepening(
    board: Board, metric: str, heuristic: str, limits: Limits | None, *, breadth_first: bool
) -> plans.Searched:
    """Breadth-first search (``breadth_first``: one pass, no bound, counted per depth) or
    BFIDA* with ``heuristic`` (counted per f-limit) on :func:`.packed.search`."""
    from .deepening import MEMORY
    from .packed import INFINITE, LEVELS, Packing, estimates, search

    steps = metric == "steps"
    packing = Packing.of(board)
    stats = Stats()
    budget = (limits or Limits()).start(stats)
    start = packing.start()
    most = max(1, MEMORY // packing.state_bytes())
    bound = INFINITE if breadth_first else int(estimates(packing, start, heuristic, steps=steps)[0])
    tally: dict[float, int] = {}
    algorithm = NAMES["bfs" if breadth_first else "bfida"]
    proof = "depth" if breadth_first else "f-limit"
    while True:
        before = stats.expanded
        layers = search(
            packing,
            start,
            budget=budget,
            level=LEVELS[heuristic],
            bound=bound,
            steps=steps,
            max_states=most,
        )
        if breadth_first:
            tally.update(_per_depth(layers.starts, stats.expanded))
        else:
            tally[bound] = stats.expanded - before
        if layers.goal >= 0:
            moves = layers.plan(layers.goal)
            stats.cost = stats.depth = len(moves)  # edges: moves, or one-cell steps
            result = Result(Status.OPTIMAL, merged(moves), budget.finish())
            return plans.Searched(result, algorithm, proof, tally)
        if not layers.exhausted:
            assert layers.stopped is not None
            result = Result(layers.stopped, None, budget.finish())
            if not breadth_first:
                result.proof["lower_bound"] = bound
            return plans.Searched(result, algorithm, proof, tally)
        if layers.least_pruned >= INFINITE:
            stats.extra["positions"] = layers.size
            return plans.Searched(
                Result(Status.UNSOLVABLE, None, budget.finish(), message=EXHAUSTED),
                algorithm,
                proof,
                tally,
                _unsolvable_words(layers.size, breadth_first),
            )
        bound = layers.least_pruned


def _per_depth(starts: list[int], expanded: int) -> dict[float, int]:
    """Expansions per depth of a breadth-first search whose layer ``d`` holds the states
    ``starts[d]`` to ``starts[d + 1] - 1``, expanded in that order, ``expanded`` in all."""
    out: dict[float, int] = {}
    for depth, (first, end) in enumerate(itertools.pairwise(starts)):
        done = min(max(expanded - first, 0), end - first)
        if done:
            out[depth] = done
    return out


def _unsolvable_words(kept: int, breadth_first: bool) -> str:
    if breadth_first:
        return (
            f"No plan: breadth-first search reached all {kept:,} positions reachable from the "
            "start, and none has the red car at the exit."
        )
    return (
        f"No plan: BFIDA* kept all {kept:,} reachable positions from which the exit may still "
        "be reached, and none has the red car at the exit; every position it left out has an "
        "infinite estimate (a piece in the red car's row that can never leave it)."
    )


# --- the blocking chain ------------------------------------------------------------------------


@dataclass(frozen=True)
class _Chain:
    blockers: list[str]
    words: list[str]


def _cell(row: int, col: int) -> str:
    return f"({row + 1}, {col + 1})"


def _ways_out(board: Board, blocker: Piece, grid: list[list[str]]) -> list[str]:
    """For a vertical blocker of the red car's row, what keeps it in the row each way: a
    sentence per direction."""
    row, n = board.exit_row, board.size
    out = []
    for way, new_top in (("up", row - blocker.length), ("down", row + 1)):
        if new_top < 0 or new_top + blocker.length > n:
            out.append(f"it cannot leave the row {way} (the board's edge)")
            continue
        rows = (
            range(new_top, blocker.row)
            if way == "up"
            else range(blocker.row + blocker.length, new_top + blocker.length)
        )
        walls = [r for r in rows if grid[r][blocker.col] == "x"]
        if walls:
            where = _cell(walls[0], blocker.col)
            out.append(f"it cannot leave the row {way} (a wall at {where})")
            continue
        found: dict[str, int] = {}
        for r in rows:
            name = grid[r][blocker.col]
            if name:
                found.setdefault(name, r)
        if not found:
            out.append(f"it can leave the row {way} with nothing in the way")
        else:
            pieces = " and ".join(f"{p} at {_cell(r, blocker.col)}" for p, r in found.items())
            out.append(f"to leave the row {way}, {pieces} must move first")
    return out


def _chain(board: Board, plan: list[Move]) -> _Chain:
    """The pieces between the red car and the exit, and what holds each in the row."""
    red = board.piece(board.red)
    row = board.exit_row
    grid = board.grid()
    names = dict.fromkeys(
        grid[row][c] for c in range(red.col + red.length, board.size) if grid[row][c]
    )
    blockers = [n for n in names if n != "x"]
    pieces = [board.piece(n) for n in blockers]
    if not blockers or "x" in names or any(p.horizontal for p in pieces):
        return _Chain(blockers, [])  # none, or the red car is walled in for good
    cells = " and ".join(f"{p.name} at {_cell(row, p.col)}" for p in pieces)
    words = [f"The red car {red.name} is blocked by {cells}; each must move at least once."]
    for piece in pieces:
        ways = _ways_out(board, piece, grid)
        words.append(f"{piece.name}: " + "; ".join(ways) + ".")
        if all("with nothing" not in w for w in ways):
            left = _leaves_row(plan, piece, row)
            words.append(
                f"So {piece.name} leaves the row only after another piece moves out of its way"
                + (f"; in this plan {left}." if left else ".")
            )
    return _Chain(blockers, words)


def _leaves_row(plan: list[Move], piece: Piece, row: int) -> str:
    """E.g. ``D leaves the row at move 47 (D+2)``: the first move of the plan after which the
    vertical ``piece`` no longer covers ``row`` (its own moves alone place it); empty when it
    never leaves."""
    top = piece.row
    for k, move in enumerate(plan, 1):
        if move.piece == piece.name:
            top += move.delta
            if not top <= row < top + piece.length:
                return f"{piece.name} leaves the row at move {k} ({move})"
    return ""
