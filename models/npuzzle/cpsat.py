"""A time-expanded CP-SAT model of the sliding-tile puzzle: a plan of at most T moves.

Planning as satisfiability with a fixed horizon (Kautz & Selman, "Planning as Satisfiability",
ECAI 1992). For a horizon T the model has one Boolean ``x[t][c][i]`` per time ``t = 0..T``,
cell ``c`` and tile ``i`` (the blank is tile 0): tile ``i`` stands on cell ``c`` after ``t``
moves. Every cell holds exactly one tile at every time. Step ``t`` is exactly one of: a move of
the blank from a cell ``c`` to a neighbour ``d`` (``move[t][c, d]``, channelled to the blank's
cells at ``t - 1`` and ``t``), or an idle step, allowed only once the goal is reached (the
board at ``t - 1`` is the goal, and every later step is idle too). A move slides the tile of
``d`` onto ``c``; every other cell keeps its tile (frame axioms, stated in both directions of
time). The board at 0 is the start and at T the goal, so the model is feasible exactly when
some plan has at most T moves: an infeasible horizon T proves every plan longer than T.

Pruning (each rule keeps every plan of at most T moves that has no move undone):

- a move never undoes the move before it (an optimal plan never does);
- T of the wrong parity is lowered by one: every move takes the blank to a cell of the other
  colour of the checkerboard, so every plan's length has the parity of the blank's taxicab
  distance from its start cell to its goal cell;
- tile ``i`` can stand on cell ``c`` at time ``t`` only if it can get there from its start
  cell in ``t`` moves and from there to its goal cell in ``T - t`` (taxicab distances), and
  only if the detour through ``c`` (the taxicab distances start-``c``-goal less start-goal)
  is at most the slack ``T - M``, where ``M`` is the start's Manhattan distance: each move
  changes the sum of the tiles' distances to their goals by exactly one, so at most
  ``(T - M) / 2`` moves take a tile away from its goal, and a detour of ``2k`` takes ``k``;
- the blank stands at time ``t`` only on cells of the colour its moves give it (or on its goal
  cell, idle), within ``t`` of its start and ``T - t`` of its goal;
- at every time ``t`` the board's Manhattan distance (Doran & Michie 1966), plus two for every
  row and column where two tiles whose goal cells lie in it stand in the reverse order (a
  linear conflict: Hansson, Mayer & Yung, Information Sciences 63 (1992) 207-227), is at
  most ``T - t``: one linear constraint a step, over the tiles' Booleans and a Boolean per line
  forced true by each conflicting pair. The same bound towards the start (at most ``t``)
  made CP-SAT slower and is left out; so is an exactly-one per tile (each tile stands on one
  cell by the start and the moves), which made it slower on 8- and 15-puzzles alike.

A horizon whose model would exceed :data:`MAX_LITERALS` Booleans is not built (status
``unknown``): the count is known before the model is.

Solver: OR-Tools CP-SAT (Perron, Didier & Gay, "The CP-SAT-LP solver", CP 2023),
https://developers.google.com/optimization/cp/cp_solver, through
:func:`cspsolve.csp.cpsat.solve_model`.
"""

from __future__ import annotations

import itertools
import sys
import time
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

import numpy as np

from cspsolve.limits import Budget, Limits
from cspsolve.results import Result, Stats, Status
from cspsolve.satplan import Deepened, Horizon, deepen

from .board import Plan, Puzzle, neighbours, solvability
from .search import estimated

if TYPE_CHECKING:
    import networkx as nx

__all__ = [
    "GRAPH_VARIABLES",
    "MAX_LITERALS",
    "confirm",
    "constraint_graph",
    "first_horizon",
    "literals",
    "parity",
    "plan_within",
    "run",
    "solve",
]

MAX_LITERALS = 1_000_000
"""Most tile-on-cell Booleans of a model that is built: a model of 2 million took 71 s and
3 GB to build (a 9 x 8 board at horizon 398), before CP-SAT's own memory."""


class _Geometry:
    """The board's taxicab distances and the tiles' start and goal cells."""

    def __init__(self, puzzle: Puzzle) -> None:
        n, cols = puzzle.cells, puzzle.cols
        rows, columns = np.divmod(np.arange(n), cols)
        self.distance = np.abs(rows[:, None] - rows[None, :]) + np.abs(
            columns[:, None] - columns[None, :]
        )
        self.start = np.empty(n, dtype=np.int64)
        self.goal = np.empty(n, dtype=np.int64)
        self.start[list(puzzle.start)] = np.arange(n)
        self.goal[list(puzzle.goal)] = np.arange(n)
        # to_start[i, c], to_goal[i, c]: taxicab distance of cell c to tile i's start, goal
        self.to_start = self.distance[self.start]
        self.to_goal = self.distance[self.goal]
        self.manhattan = int(self.distance[self.start[1:], self.goal[1:]].sum())


def parity(puzzle: Puzzle) -> int:
    """The parity every plan's length has: that of the blank's taxicab distance from its
    start cell to its goal cell (each move changes the colour of the blank's cell)."""
    (r0, c0), (r1, c1) = (divmod(b.index(0), puzzle.cols) for b in (puzzle.start, puzzle.goal))
    return (abs(r0 - r1) + abs(c0 - c1)) % 2


def _tile_windows(geometry: _Geometry, horizon: int) -> tuple[np.ndarray, np.ndarray]:
    """For every tile and cell (blank excluded: row 0 unused), the first and last time the tile
    may stand there (first > last: never)."""
    slack = horizon - geometry.manhattan
    direct = geometry.distance[geometry.start, geometry.goal][:, None]
    detour = geometry.to_start + geometry.to_goal - direct
    first = geometry.to_start.copy()
    last = horizon - geometry.to_goal
    last[detour > slack] = -1
    return first, last


def literals(puzzle: Puzzle, horizon: int) -> int:
    """The tile-on-cell Booleans of the model at ``horizon`` (after the parity rule), counted
    without building it; 0 when the horizon is below the Manhattan distance."""
    horizon -= (horizon - parity(puzzle)) % 2
    geometry = _Geometry(puzzle)
    if horizon < geometry.manhattan:
        return 0
    return _counted(_tile_windows(geometry, horizon), horizon)


def _counted(windows: tuple[np.ndarray, np.ndarray], horizon: int) -> int:
    """The Booleans of a model whose tiles have these windows (:func:`_tile_windows`)."""
    first, last = windows
    tiles = int(np.maximum(last[1:] - first[1:] + 1, 0).sum())
    return tiles + len(first) * (horizon + 1)  # a generous count of the blank's


class _Model:
    """The CP-SAT model of one horizon (module text), built a time step at a time."""

    def __init__(
        self,
        puzzle: Puzzle,
        horizon: int,
        geometry: _Geometry,
        windows: tuple[np.ndarray, np.ndarray],
    ) -> None:
        from ortools.sat.python import cp_model

        self.model = cp_model.CpModel()
        self.puzzle, self.horizon, self.geometry = puzzle, horizon, geometry
        self.first, self.last = windows
        self.adjacent = neighbours(puzzle.rows, puzzle.cols)
        # x[t][c]: tile -> literal, for the tiles that may stand on cell c at time t
        self.x: list[list[dict[int, Any]]] = []
        # move[t]: (from cell, to cell) -> literal; idle[t]: literal or None
        self.move: list[dict[tuple[int, int], Any]] = [{}]
        self.idle: list[Any] = [None]

    def _blank_may(self, cell: int, t: int) -> bool:
        g = self.geometry
        near = g.to_start[0, cell] <= t and g.to_goal[0, cell] <= self.horizon - t
        coloured = (g.to_start[0, cell] - t) % 2 == 0
        return bool(near and (coloured or cell == g.goal[0]))

    def _board(self, t: int) -> None:
        """The literals of time ``t``, one tile a cell, and the distance still to go."""
        model, n = self.model, self.puzzle.cells
        layer: list[dict[int, Any]] = []
        for c in range(n):
            here = {
                i: model.new_bool_var(f"x{t}_{c}_{i}")
                for i in range(1, n)
                if self.first[i, c] <= t <= self.last[i, c]
            }
            if self._blank_may(c, t):
                here[0] = model.new_bool_var(f"b{t}_{c}")
            model.add_exactly_one(here.values())
            layer.append(here)
        g = self.geometry
        distance = sum(int(g.to_goal[i, c]) * v for c in range(n) for i, v in layer[c].items() if i)
        model.add(distance + 2 * sum(self._conflicts(layer)) <= self.horizon - t)
        self.x.append(layer)

    def _conflicts(self, layer: list[dict[int, Any]]) -> list[Any]:
        """A literal per row and column, forced true when two tiles whose goal cells lie in
        that line stand in it in the reverse order (a linear conflict: one of them must leave
        the line and come back, two moves beyond their Manhattan distances)."""
        model, cols, n, home = self.model, self.puzzle.cols, self.puzzle.cells, self.geometry.goal
        lines = [[r * cols + c for c in range(cols)] for r in range(self.puzzle.rows)] + [
            list(range(c, n, cols)) for c in range(cols)
        ]
        out = []
        for cells in lines:
            place = {cell: k for k, cell in enumerate(cells)}
            tiles = sorted((place[int(home[i])], i) for i in range(1, n) if int(home[i]) in place)
            clauses = [
                (layer[d][i], layer[c][j])
                for (_, i), (_, j) in itertools.combinations(tiles, 2)
                for c, d in itertools.combinations(cells, 2)
                if j in layer[c] and i in layer[d]
            ]
            if clauses:
                conflict = model.new_bool_var("")
                for a, b in clauses:
                    model.add_bool_or([~a, ~b, conflict])
                out.append(conflict)
        return out

    def _step(self, t: int) -> None:
        """Step ``t``: one move of the blank or an idle step, and what it does to the tiles."""
        model = self.model
        before, after = self.x[t - 1], self.x[t]
        moves = {
            (c, d): model.new_bool_var(f"m{t}_{c}_{d}")
            for c in range(self.puzzle.cells)
            if 0 in before[c]
            for _, d in self.adjacent[c]
            if 0 in after[d]
        }
        goal = self.puzzle.goal
        idle = None
        if all(goal[c] in before[c] for c in range(len(before))):
            idle = model.new_bool_var(f"idle{t}")
            for c, tile in enumerate(goal):
                model.add_implication(idle, before[c][tile])
        self.move.append(moves)
        self.idle.append(idle)
        choices = [*moves.values(), *([idle] if idle is not None else [])]
        model.add_exactly_one(choices)
        self._channel(t, moves, idle)
        self._slide(before, after, moves)
        if self.idle[t - 1] is not None:
            model.add_bool_or([~self.idle[t - 1], *([idle] if idle is not None else [])])
        for (c, d), m in self.move[t - 1].items():
            back = moves.get((d, c))
            if back is not None:
                model.add_bool_or([~m, ~back])

    def _channel(self, t: int, moves: dict[tuple[int, int], Any], idle: Any) -> None:
        """The blank's cell at ``t - 1`` is where the move starts, at ``t`` where it ends."""
        model, blank_goal = self.model, int(self.geometry.goal[0])
        for layer, end in ((self.x[t - 1], 0), (self.x[t], 1)):
            for c, here in enumerate(layer):
                through = [m for edge, m in moves.items() if edge[end] == c]
                if idle is not None and c == blank_goal:
                    through.append(idle)
                if 0 in here:
                    model.add(sum(through) == here[0])
                else:
                    for m in through:
                        model.add(m == 0)

    def _slide(
        self,
        before: list[dict[int, Any]],
        after: list[dict[int, Any]],
        moves: dict[tuple[int, int], Any],
    ) -> None:
        """Frame axioms and the slide, each in both directions of time."""
        model = self.model
        for was, now in zip(before, after, strict=True):
            blank_now, blank_was = now.get(0), was.get(0)
            for i, v in was.items():
                if i == 0:
                    continue
                stays = [~v, *([blank_now] if blank_now is not None else [])]
                model.add_bool_or([*stays, now[i]] if i in now else stays)
            for i, v in now.items():
                if i == 0:
                    continue
                came = [~v, *([blank_was] if blank_was is not None else [])]
                model.add_bool_or([*came, was[i]] if i in was else came)
        for (c, d), m in moves.items():
            for i, v in before[d].items():
                if i:
                    model.add_bool_or([~m, ~v, after[c][i]] if i in after[c] else [~m, ~v])
            for i, v in after[c].items():
                if i:
                    model.add_bool_or([~m, ~v, before[d][i]] if i in before[d] else [~m, ~v])

    def build(self) -> Iterator[None]:
        """Add the model a time step at a time (yielding after each, for the limits)."""
        self._board(0)
        for t in range(1, self.horizon + 1):
            self._board(t)
            self._step(t)
            yield

    def plan(self, solver: Any) -> Plan:
        """The moves of the blank in a solution (idle steps dropped)."""
        names = {(c, d): name for c, out in enumerate(self.adjacent) for name, d in out}
        return [
            names[edge]
            for step in self.move[1:]
            for edge, m in step.items()
            if solver.boolean_value(m)
        ]


def plan_within(puzzle: Puzzle, horizon: int, *, budget: Budget | None = None) -> Horizon[Plan]:
    """Decide whether a plan of at most ``horizon`` moves exists.

    Parameters
    ----------
    puzzle : Puzzle
        A board the parity rule finds solvable (:func:`.board.solvability`); on another board
        every horizon is infeasible.
    horizon : int
        The most moves a plan may take.
    budget : Budget, optional
        The run's account: building the model stops when it runs out (it is asked once per
        time step), and CP-SAT gets what is left (:func:`cspsolve.csp.cpsat.solve_model`).
        Its ``stats.extra["literals"]`` is set to the size of the model.

    Returns
    -------
    Horizon of list of str
        ``feasible`` with a plan of at most ``horizon`` moves, ``infeasible`` (a proof that
        every plan is longer), or ``unknown`` (a limit, or a model of more than
        :data:`MAX_LITERALS` Booleans, which is not built).
    """
    from cspsolve.csp.cpsat import solve_model

    began = time.perf_counter()
    budget = budget or Limits().start(Stats())
    horizon -= (horizon - parity(puzzle)) % 2
    geometry = _Geometry(puzzle)
    if horizon < geometry.manhattan:
        return Horizon("infeasible", None, time.perf_counter() - began)
    windows = _tile_windows(geometry, horizon)
    size = budget.stats.extra["literals"] = _counted(windows, horizon)
    if size > MAX_LITERALS:
        return Horizon("unknown", None, time.perf_counter() - began)
    built = _Model(puzzle, horizon, geometry, windows)
    if budget.step_through(built.build()) is not None:
        return Horizon("unknown", None, time.perf_counter() - began)
    solver, outcome = solve_model(built.model, budget)
    seconds = time.perf_counter() - began
    if outcome is None:
        return Horizon("infeasible", None, seconds)
    if solver is None or outcome is not Status.SOLVED:
        return Horizon("unknown", None, seconds)
    return Horizon("feasible", built.plan(solver), seconds)


def first_horizon(puzzle: Puzzle, estimate: float = 0.0) -> int:
    """The least plan length that the start's Manhattan distance, an admissible ``estimate``
    of the start and the parity rule leave possible: the larger of the two, rounded up to the
    parity of every plan (:func:`parity`)."""
    least = max(int(estimate), _Geometry(puzzle).manhattan)
    return least + (least - parity(puzzle)) % 2


def solve(
    puzzle: Puzzle,
    *,
    estimate: float = 0.0,
    limits: Limits | None = None,
    stop: int | None = None,
) -> Result[Plan]:
    """An optimal plan by deepening the horizon of the model, two moves at a time.

    The horizons are :func:`first_horizon` (the Manhattan distance or ``estimate``, rounded
    up to the plans' parity), then every second one; the first feasible one is the optimum.

    Parameters
    ----------
    puzzle : Puzzle
        The board; one the parity rule finds unsolvable is answered so at once.
    estimate : float
        An admissible estimate of the start (a lower bound on every plan), e.g. the
        pattern databases' value; by default the model starts at the Manhattan distance.
    limits : Limits, optional
        Time and cancellation bound the whole run, building the models included; the node
        limit stops it between two horizons (CP-SAT expands no nodes).
    stop : int, optional
        The last horizon to try (default: no last one; a solvable board has a plan).

    Returns
    -------
    Result of list of str
        ``optimal`` with a plan; ``unsolvable`` (parity); ``limit`` or ``cancelled`` when a
        limit, a model too large (:data:`MAX_LITERALS`) or ``stop`` came first. ``proof``
        holds ``lower_bound`` (every plan has at least that many moves: the first horizon, or
        the one after the last infeasible), ``infeasible`` (the horizons proven infeasible)
        and ``first_horizon``; ``stats.probes`` counts the horizons decided,
        ``stats.extra`` holds ``cpsat_seconds``, ``literals`` (of the last model),
        ``conflicts`` and ``branches``.
    """
    stats = Stats()
    budget = (limits or Limits()).start(stats)
    ok, why = solvability(puzzle)
    if not ok:
        return Result(Status.UNSOLVABLE, None, budget.finish(), "cpsat", message=why)
    first = first_horizon(puzzle, estimate)
    horizons = range(first, sys.maxsize if stop is None else stop + 1, 2)
    deepened = deepen(lambda h: plan_within(puzzle, h, budget=budget), horizons, budget)
    proof: dict[str, Any] = {
        "lower_bound": deepened.bound,
        "infeasible": deepened.infeasible,
        "first_horizon": first,
    }
    budget.finish()
    found = deepened.found
    if found is not None:
        assert found.plan is not None
        stats.cost = stats.depth = len(found.plan)
        if stats.cost == deepened.bound:
            return Result(Status.OPTIMAL, found.plan, stats, "cpsat", proof=proof)
        del proof["lower_bound"]
        message = f"a plan shorter than the first horizon {first}: the estimate was not admissible"
        return Result(Status.SOLVED, found.plan, stats, "cpsat", proof=proof, message=message)
    return Result(
        budget.exhausted() or Status.LIMIT,
        None,
        stats,
        "cpsat",
        proof=proof,
        message=_stopped(deepened, stop, int(stats.extra.get("literals", 0))),
    )


def _stopped(deepened: Deepened[Plan], stop: int | None, size: int) -> str:
    """What the deepening proved, and why it ended without a plan: the model's size, the last
    horizon ``stop`` asked for, or a limit."""
    infeasible = deepened.infeasible
    if size > MAX_LITERALS:
        why = f"the next model would have {size:,} Booleans, more than {MAX_LITERALS:,}"
    elif stop is not None and deepened.bound > stop:
        why = f"{stop} was the last horizon asked for"
    else:
        why = "a limit came first"
    proved = (
        f"horizons up to {infeasible[-1]} proven infeasible" if infeasible else "the first horizon"
    )
    return f"every plan has at least {deepened.bound} moves ({proved}); stopped: {why}"


GRAPH_VARIABLES = 20_000
"""Most variables of a constraint graph that is drawn."""


def constraint_graph(puzzle: Puzzle) -> nx.Graph:
    """The constraint graph of the model at its first horizon ``T`` (:func:`first_horizon`).

    The model's Booleans, read as finite-domain variables: the cell of tile ``i`` after ``t``
    moves (node ``("tile", i, t)``) and the blank's (``("blank", t)``), for ``t = 1 .. T - 1``
    (at 0 and ``T`` the board is given). An edge joins two variables of one time (no two
    stand on one cell) and the four variables of a tile's step (its cells at ``t - 1`` and
    ``t`` and the blank's: the tile moves only from the blank's new cell to its old one).
    Each node has the attribute ``time``.

    Raises
    ------
    OptionError
        When the graph would have more than :data:`GRAPH_VARIABLES` variables.
    """
    import networkx as nx

    from cspsolve.errors import OptionError

    horizon = first_horizon(puzzle)
    size = puzzle.cells * max(horizon - 1, 0)
    if size > GRAPH_VARIABLES:
        raise OptionError(
            f"the model's constraint graph at horizon {horizon} has {size:,} variables; "
            f"it is drawn up to {GRAPH_VARIABLES:,}"
        )

    def variable(tile: int, t: int) -> tuple[str, int] | tuple[str, int, int]:
        return ("blank", t) if tile == 0 else ("tile", tile, t)

    graph = nx.Graph()
    times = range(1, horizon)
    for t in times:
        layer = [variable(i, t) for i in range(puzzle.cells)]
        graph.add_nodes_from(layer, time=t)
        graph.add_edges_from(itertools.combinations(layer, 2))
    for t in times[1:]:
        for i in range(1, puzzle.cells):
            step = (variable(i, t - 1), variable(i, t), variable(0, t - 1), variable(0, t))
            graph.add_edges_from(itertools.combinations(step, 2))
    return graph


def run(
    puzzle: Puzzle, /, *, heuristic: str | None, options: Any, limits: Limits | None
) -> Result[Plan]:
    """The ``cpsat`` method: :func:`solve`, deepening from the value of the start of the
    heuristic asked for, built within the limits (:func:`.search.estimated`) from the options'
    ``partition``; the options give no weight."""
    assert heuristic is not None
    options.weight_for("cpsat")

    def deepened(h: Callable[[bytes], float], rest: Limits) -> Result[Plan]:
        return solve(puzzle, estimate=h(bytes(puzzle.start)), limits=rest)

    return estimated(puzzle, heuristic, options.partition, limits, deepened)


def confirm(
    puzzle: Puzzle, answer: Result[Plan], /, *, options: Any, limits: Limits | None
) -> Result[Plan]:
    """CP-SAT's check of another method's answer, deepening from the Manhattan distance: up
    to an optimum ``c`` the answer claims (every horizon below infeasible, a plan at ``c``),
    else afresh until a plan; an unsolvable board by the parity rule."""
    claimed = answer.status is Status.OPTIMAL
    return solve(puzzle, limits=limits, stop=int(answer.stats.cost) if claimed else None)
