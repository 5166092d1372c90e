"""State-space search: the :class:`SearchProblem` protocol and the classic algorithms.

Every algorithm returns a :class:`~cspsolve.results.Result` whose solution is the *plan* (the
list of actions from the initial state to a goal), with ``stats.cost`` its cost (the sum of
the step costs: an int when they are, as the default step cost 1 is, so that a count of moves
is an int) and ``stats.depth`` its length; ``stats.expanded`` counts the states whose
successors were generated, ``stats.generated`` the successors produced,
``stats.max_frontier`` the largest frontier (for the best-first searches: heap entries, stale
ones awaiting lazy deletion included). Time and node limits, cancellation and progress come from
:class:`~cspsolve.limits.Limits`, checked every :data:`CHECK_EVERY` expansions.

Graph search (a state is expanded at most once per best cost found, through a table of
reached states) is the default; ``graph=False`` gives tree search, which keeps only the
current path's states out of the frontier (depth-first) or nothing at all (breadth-first and
best-first), and is recorded as ``proof["search"] == "tree"``.

The optimal searches take a :data:`Tally`, filled with what their proof of optimality rests on
(used by explanations): the expansions per depth (:func:`bfs`, per depth limit for
:func:`iddfs`), per f-value (:func:`astar`) or per f-limit (:func:`idastar`).

The status is ``optimal`` only when the algorithm guarantees it: breadth-first search and
iterative deepening when every step met cost the same, A* and IDA* with ``weight == 1`` and an
admissible heuristic. Source for all of them: Russell & Norvig, *Artificial Intelligence: A
Modern Approach*, 4th ed., ch. 3 (§3.4 uninformed search, §3.5 informed search).
"""

from __future__ import annotations

import heapq
import math
from collections import deque
from collections.abc import Callable, Hashable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from cspsolve.errors import OptionError
from cspsolve.limits import Budget, Limits
from cspsolve.memory import uncollected
from cspsolve.results import Result, Stats, Status

__all__ = [
    "CHECK_EVERY",
    "Heuristic",
    "SearchProblem",
    "Tally",
    "astar",
    "bfs",
    "dfs",
    "greedy",
    "idastar",
    "iddfs",
    "successors",
    "unit_cost",
]

S = TypeVar("S", bound=Hashable)
A = TypeVar("A")

CHECK_EVERY = 64
"""Expansions between two checks of the limits (a node limit is still exact)."""

Heuristic = Callable[[Any], float]
"""Estimated cost from a state to the nearest goal; its ``__name__`` names it in results."""

Tally = dict[float, int]
"""Expansions per depth, f-value or f-limit (see the module text), in the order first met."""


class SearchProblem(Protocol[S, A]):
    """A state space: an initial state, actions, a transition model, a goal test.

    States must be hashable. Optional members, used when present:

    - ``cost(s, a, s2) -> float``: the step cost (1 when absent);
    - ``successors(s)``: yields ``(action, next_state, step_cost)``, used instead of
      ``actions``/``result``/``cost`` for speed;
    - ``unit_cost: bool``: every step costs the same, so the fewest steps is the cheapest plan
      and breadth-first search and iterative deepening are optimal. When absent it is true
      exactly when the problem defines neither ``cost`` nor ``successors``.
    """

    @property
    def initial(self) -> S:
        """The start state."""
        ...

    def actions(self, state: S) -> Iterable[A]:
        """The actions applicable in ``state``."""
        ...

    def result(self, state: S, action: A) -> S:
        """The state reached by doing ``action`` in ``state``."""
        ...

    def is_goal(self, state: S) -> bool:
        """Whether ``state`` is a goal."""
        ...


def successors(problem: SearchProblem[S, A]) -> Callable[[S], Iterable[tuple[A, S, float]]]:
    """The successor function of ``problem``: state → iterable of (action, next state, cost).

    Uses ``problem.successors`` when defined, else ``actions``, ``result`` and ``cost`` (1
    per step when the problem has no ``cost``).
    """
    direct = getattr(problem, "successors", None)
    if direct is not None:
        return direct  # type: ignore[no-any-return]
    actions, result = problem.actions, problem.result
    cost = getattr(problem, "cost", None)

    def expand(state: S) -> Iterator[tuple[A, S, float]]:
        for action in actions(state):
            nxt = result(state, action)
            yield action, nxt, 1 if cost is None else cost(state, action, nxt)

    return expand


# --- book-keeping shared by the algorithms ----------------------------------------------------


class _Meter:
    """Counts expansions and asks the budget every :data:`CHECK_EVERY` of them."""

    __slots__ = ("budget", "next_check", "stats", "stopped")

    def __init__(self, limits: Limits | None) -> None:
        self.stats = Stats()
        self.budget: Budget = (limits or Limits()).start(self.stats)
        self.stopped: Status | None = None
        self.next_check = 0

    def expand(self) -> bool:
        """Count one expansion; False when a limit says to stop first."""
        stats = self.stats
        if stats.expanded >= self.next_check:
            self.stopped = self.budget.exhausted()
            if self.stopped is not None:
                return False
            step = stats.expanded + CHECK_EVERY
            cap = self.budget.limits.max_nodes
            self.next_check = step if cap is None else min(step, cap)
        stats.expanded += 1
        return True


def unit_cost(problem: SearchProblem[Any, Any]) -> bool:
    """Whether every step of ``problem`` costs the same (see :class:`SearchProblem`)."""
    default = not hasattr(problem, "cost") and not hasattr(problem, "successors")
    return bool(getattr(problem, "unit_cost", default))


def _heuristic_name(heuristic: Heuristic | None) -> str | None:
    if heuristic is None:
        return None
    return str(getattr(heuristic, "__name__", type(heuristic).__name__))


def _finish(
    meter: _Meter,
    method: str,
    plan: list[A] | None,
    cost: float,
    optimal: bool,
    *,
    heuristic: Heuristic | None = None,
    graph: bool = True,
    exhausted: Status = Status.UNSOLVABLE,
) -> Result[list[A]]:
    """The result of a run: ``plan`` found (optimal or not), else why there is none."""
    stats = meter.budget.finish()
    proof: dict[str, Any] = {"search": "graph" if graph else "tree"}
    if plan is not None:
        stats.cost, stats.depth = cost, len(plan)
        status = Status.OPTIMAL if optimal else Status.SOLVED
    else:
        status = meter.stopped or exhausted
    return Result(status, plan, stats, method, _heuristic_name(heuristic), proof)


def _plan(parents: dict[Any, tuple[Any, Any]], state: Any) -> list[Any]:
    """Follow parent links back from ``state`` to the initial state (which has none)."""
    plan = []
    while state in parents:
        state, action = parents[state]
        plan.append(action)
    plan.reverse()
    return plan


@dataclass(frozen=True, slots=True)
class _Node:
    """A tree-search node: its state and the path that reached it (as a linked list)."""

    state: Any
    parent: _Node | None
    action: Any
    cost: float

    def plan(self) -> list[Any]:
        plan, node = [], self
        while node.parent is not None:
            plan.append(node.action)
            node = node.parent
        plan.reverse()
        return plan


# --- uninformed search ------------------------------------------------------------------------


@uncollected
def bfs(
    problem: SearchProblem[S, A],
    *,
    limits: Limits | None = None,
    graph: bool = True,
    tally: Tally | None = None,
) -> Result[list[A]]:
    """Breadth-first search (Russell & Norvig 4th ed., §3.4.1, with the early goal test).

    Parameters
    ----------
    problem : SearchProblem
        The state space.
    limits : Limits, optional
        Time and node limits, cancellation, progress.
    graph : bool
        Graph search (default): a state is generated once. ``False``: tree search.
    tally : Tally, optional
        Filled with the expansions per cost from the start (per depth when the steps cost
        the same).

    Returns
    -------
    Result of list of actions
        ``optimal`` when every step costs the same (the fewest steps; else ``solved``),
        ``unsolvable`` when every reachable state was expanded without reaching a goal
        (graph search), ``limit`` or ``cancelled``. Ties: FIFO, successors in the order the
        problem gives them.
    """
    meter, expand = _Meter(limits), successors(problem)
    optimal = unit_cost(problem)
    start = problem.initial
    if problem.is_goal(start):
        return _finish(meter, "bfs", [], 0, True, graph=graph)
    stats = meter.stats
    if graph:
        parents: dict[S, tuple[S, A]] = {}
        reached = {start}
        frontier: deque[Any] = deque([(start, 0)])
    else:
        frontier = deque([_Node(start, None, None, 0)])
    while frontier:
        stats.max_frontier = max(stats.max_frontier, len(frontier))
        if not meter.expand():
            break
        item = frontier.popleft()
        state, g = (item.state, item.cost) if not graph else item
        if tally is not None:
            tally[g] = tally.get(g, 0) + 1
        for action, nxt, step in expand(state):
            stats.generated += 1
            if graph:
                if nxt in reached:
                    continue
                reached.add(nxt)
                parents[nxt] = (state, action)
                if problem.is_goal(nxt):
                    return _finish(meter, "bfs", _plan(parents, nxt), g + step, optimal)
                frontier.append((nxt, g + step))
            else:
                node = _Node(nxt, item, action, g + step)
                if problem.is_goal(nxt):
                    plan = node.plan()
                    return _finish(meter, "bfs", plan, node.cost, optimal, graph=False)
                frontier.append(node)
    return _finish(meter, "bfs", None, 0, False, graph=graph)


def _seen(best_depth: dict[S, int], state: S, depth: int, depth_limit: int | None) -> bool:
    """Whether graph DFS skips ``state`` met at ``depth``: met before at all without a depth
    limit, met before at most as deep under one."""
    if depth_limit is None:
        return state in best_depth
    return best_depth.get(state, depth + 1) <= depth


@uncollected
def dfs(
    problem: SearchProblem[S, A],
    *,
    limits: Limits | None = None,
    depth_limit: int | None = None,
    graph: bool = True,
) -> Result[list[A]]:
    """Depth-first search by backtracking, optionally depth-limited (R&N 4th ed., §3.4.3-4).

    Parameters
    ----------
    problem : SearchProblem
        The state space.
    limits : Limits, optional
        Time and node limits, cancellation, progress.
    depth_limit : int, optional
        No path longer than this many steps is followed.
    graph : bool
        Graph search (default): a state is expanded once; under a depth limit, again when it is
        reached by a shorter path (needed for completeness there). ``False``: backtracking tree
        search that only keeps the states of the current path out (no cycles).

    Returns
    -------
    Result of list of actions
        ``solved`` with the first plan found (not optimal); ``unsolvable`` when the whole
        space was searched; ``limit`` also when the depth limit cut some path off.
        ``stats.extra["cutoff"]`` is 1 when it did. Successors are tried in the order the
        problem gives them.
    """
    meter, expand = _Meter(limits), successors(problem)
    stats = meter.stats
    start = problem.initial
    cutoff = False
    best_depth: dict[S, int] = {start: 0}
    on_path = {start}
    path: list[A] = []
    costs: list[float] = [0]
    stack: list[tuple[S, Iterator[tuple[A, S, float]]]] = []
    if problem.is_goal(start):
        return _finish(meter, "dfs", [], 0, False, graph=graph)
    if depth_limit is not None and depth_limit <= 0:
        stats.extra["cutoff"] = 1
        return _finish(meter, "dfs", None, 0, False, graph=graph, exhausted=Status.LIMIT)
    if meter.expand():
        stack.append((start, iter(expand(start))))
    while stack and meter.stopped is None:
        state, children = stack[-1]
        child = next(children, None)
        if child is None:
            stack.pop()
            on_path.discard(state)
            if path:
                path.pop()
                costs.pop()
            continue
        action, nxt, step = child
        stats.generated += 1
        depth = len(path) + 1
        if nxt in on_path or (graph and _seen(best_depth, nxt, depth, depth_limit)):
            continue
        if graph:
            best_depth[nxt] = depth
        if problem.is_goal(nxt):
            return _finish(meter, "dfs", [*path, action], costs[-1] + step, False, graph=graph)
        if depth_limit is not None and depth >= depth_limit:
            cutoff = True
            continue
        if not meter.expand():
            break
        path.append(action)
        costs.append(costs[-1] + step)
        on_path.add(nxt)
        stack.append((nxt, iter(expand(nxt))))
        stats.max_frontier = max(stats.max_frontier, len(stack))
    stats.extra["cutoff"] = int(cutoff)
    exhausted = Status.LIMIT if cutoff else Status.UNSOLVABLE
    return _finish(meter, "dfs", None, 0, False, graph=graph, exhausted=exhausted)


@uncollected
def iddfs(
    problem: SearchProblem[S, A],
    *,
    limits: Limits | None = None,
    max_depth: int | None = None,
    tally: Tally | None = None,
) -> Result[list[A]]:
    """Iterative deepening depth-first search (Korf 1985; R&N 4th ed., §3.4.4).

    Depth-limited backtracking (tree search, no cycles on the path) with limits 1, 2, ...
    until a plan is found, the space is exhausted without a cutoff, or ``max_depth`` is passed.
    ``tally``, when given, is filled with the expansions per depth limit.

    Returns
    -------
    Result of list of actions
        ``optimal`` when every step costs the same (else ``solved``), ``unsolvable``,
        or ``limit`` (also when ``max_depth`` was reached). Stats add up over the iterations;
        ``stats.extra["iterations"]`` counts them.
    """
    meter = _Meter(limits)
    start = problem.initial
    if problem.is_goal(start):
        return _finish(meter, "iddfs", [], 0, True, graph=False)
    total = meter.stats
    depth = 0
    while max_depth is None or depth < max_depth:
        depth += 1
        left = _left(meter)
        if left is None:
            break
        run = dfs(problem, limits=left, depth_limit=depth, graph=False)
        _add(total, run.stats)
        if tally is not None:
            tally[depth] = run.stats.expanded
        total.extra["iterations"] = depth
        if run.status is Status.SOLVED and run.solution is not None:
            optimal = unit_cost(problem)
            return _finish(meter, "iddfs", run.solution, run.stats.cost, optimal, graph=False)
        if run.status is not Status.LIMIT or not run.stats.extra.get("cutoff"):
            meter.stopped = run.status if run.status is not Status.UNSOLVABLE else None
            break
    else:
        meter.stopped = Status.LIMIT
    return _finish(meter, "iddfs", None, 0, False, graph=False)


def _left(meter: _Meter) -> Limits | None:
    """What is left of the run's limits for one inner run; ``None`` when nothing is."""
    meter.stopped = meter.budget.exhausted()
    if meter.stopped is not None:
        return None
    limits = meter.budget.limits
    nodes = meter.budget.nodes_left()
    return Limits(meter.budget.remaining(), nodes, limits.cancel, limits.progress)


def _add(total: Stats, run: Stats) -> None:
    total.expanded += run.expanded
    total.generated += run.generated
    total.max_frontier = max(total.max_frontier, run.max_frontier)


# --- informed search --------------------------------------------------------------------------


@uncollected
def greedy(
    problem: SearchProblem[S, A],
    heuristic: Heuristic,
    *,
    limits: Limits | None = None,
    graph: bool = True,
) -> Result[list[A]]:
    """Greedy best-first search: expand the state of least ``heuristic`` (R&N 4th ed., §3.5.1).

    Ties go to the state generated first; in graph search a state is queued once, when first
    reached. Returns ``solved`` (never ``optimal``).
    """
    return _best_first(problem, heuristic, limits, 0.0, 1.0, graph, "greedy", False)


@uncollected
def astar(
    problem: SearchProblem[S, A],
    heuristic: Heuristic,
    *,
    limits: Limits | None = None,
    weight: float = 1.0,
    graph: bool = True,
    admissible: bool = True,
    tally: Tally | None = None,
) -> Result[list[A]]:
    """A* search (Hart, Nilsson & Raphael 1968; R&N 4th ed., §3.5.2), weighted when ``weight > 1``.

    Expands the frontier state of least ``f = g + weight * h``; ties go to the larger ``g``
    (deeper, nearer a goal), then to the state generated first. Graph search keeps the best
    ``g`` per state and re-opens a state reached again more cheaply, so an admissible but
    inconsistent heuristic still gives optimal plans (``stats.extra["reopened"]`` counts the
    states reached again more cheaply; 0 with a consistent heuristic). Stale
    heap entries are skipped when popped (lazy deletion).

    Parameters
    ----------
    problem : SearchProblem
        The state space (step costs >= 0).
    heuristic : callable
        State → estimated cost to a goal.
    limits : Limits, optional
        Time and node limits, cancellation, progress.
    weight : float
        ``w >= 1``; weighted A* (Pohl 1970) finds plans costing at most ``w`` times the optimum
        when the heuristic is admissible (``proof["suboptimality_bound"]``).
    graph : bool
        Graph search (default) or tree search.
    admissible : bool
        Whether the caller vouches that ``heuristic`` never overestimates: with ``weight == 1``
        the result is then ``optimal``, otherwise ``solved``.
    tally : Tally, optional
        Filled with the expansions per f-value (``g + weight * h`` of the state expanded).

    Returns
    -------
    Result of list of actions

    Raises
    ------
    OptionError
        If ``weight < 1``.
    """
    if weight < 1:
        raise OptionError(f"weight must be >= 1, got {weight}")
    method = "astar" if weight == 1 else "weighted-astar"
    result = _best_first(
        problem, heuristic, limits, 1.0, weight, graph, method, admissible and weight == 1, tally
    )
    if weight != 1 and admissible:
        result.proof["suboptimality_bound"] = weight
    return result


def _best_first(
    problem: SearchProblem[S, A],
    heuristic: Heuristic,
    limits: Limits | None,
    g_weight: float,
    h_weight: float,
    graph: bool,
    method: str,
    optimal: bool,
    tally: Tally | None = None,
) -> Result[list[A]]:
    """Best-first search on ``f = g_weight * g + h_weight * h`` (goal test at expansion).

    A state whose heuristic is infinite is a dead end (an admissible heuristic is infinite
    only where no plan exists) and never enters the frontier: an unsolvable problem whose
    states all are dead ends is refuted without expanding them in every order.
    """
    meter, expand = _Meter(limits), successors(problem)
    stats = meter.stats
    start = problem.initial
    push, pop = heapq.heappush, heapq.heappop
    counter = 0
    best_g: dict[S, float] = {start: 0}
    parents: dict[S, tuple[S, A]] = {}
    # entries: (f, -g, counter, g, state or node)
    h_start = heuristic(start)
    frontier: list[tuple[float, float, int, float, Any]] = []
    if h_start != math.inf:
        node = start if graph else _Node(start, None, None, 0)
        frontier.append((h_weight * h_start, 0, 0, 0, node))
    reopened = 0
    reopen = g_weight > 0
    while frontier:
        if len(frontier) > stats.max_frontier:
            stats.max_frontier = len(frontier)
        f, _, _, g, item = pop(frontier)
        state = item if graph else item.state
        if graph and g > best_g[state]:
            continue
        if problem.is_goal(state):
            plan = _plan(parents, state) if graph else item.plan()
            stats.extra["reopened"] = reopened
            return _finish(meter, method, plan, g, optimal, heuristic=heuristic, graph=graph)
        if not meter.expand():
            break
        if tally is not None:
            tally[f] = tally.get(f, 0) + 1
        for action, nxt, step in expand(state):
            stats.generated += 1
            g2 = g + step
            if graph:
                known = best_g.get(nxt)
                if known is not None:
                    if not reopen or g2 >= known:
                        continue
                    reopened += 1
                best_g[nxt] = g2
                parents[nxt] = (state, action)
                entry: Any = nxt
            else:
                entry = _Node(nxt, item, action, g2)
            h = heuristic(nxt)
            if h == math.inf:
                continue  # a dead end: no plan leads on from it
            counter += 1
            push(frontier, (g_weight * g2 + h_weight * h, -g2, counter, g2, entry))
    stats.extra["reopened"] = reopened
    return _finish(meter, method, None, 0, False, heuristic=heuristic, graph=graph)


@uncollected
def idastar(
    problem: SearchProblem[S, A],
    heuristic: Heuristic,
    *,
    limits: Limits | None = None,
    admissible: bool = True,
    tally: Tally | None = None,
) -> Result[list[A]]:
    """Iterative-deepening A* (Korf 1985, "Depth-first iterative-deepening: an optimal
    admissible tree search", *Artificial Intelligence* 27(1):97-109).

    Depth-first searches bounded by ``f = g + h``, the bound raised each time to the least
    ``f`` that exceeded it. Memory is linear in the plan length; states on the current path are
    not revisited (no cycles); successors are tried in the order the problem gives them.
    ``tally``, when given, is filled with the expansions per f-limit.

    Returns
    -------
    Result of list of actions
        ``optimal`` when ``admissible`` (the caller vouches ``h`` never overestimates), else
        ``solved``; ``unsolvable`` when no state exceeds the bound and none is a goal.
        ``stats.extra["iterations"]`` counts the bounds tried; stats add up over them.
    """
    meter, expand = _Meter(limits), successors(problem)
    stats = meter.stats
    start = problem.initial
    bound = heuristic(start)
    iterations = 0
    while True:
        iterations += 1
        stats.extra["iterations"] = iterations
        before = stats.expanded
        found, next_bound = _bounded_dfs(problem, expand, heuristic, start, bound, meter)
        if tally is not None:
            tally[bound] = stats.expanded - before
        if found is not None:
            plan, cost = found
            return _finish(
                meter, "idastar", plan, cost, admissible, heuristic=heuristic, graph=False
            )
        if meter.stopped is not None or next_bound == math.inf:
            return _finish(meter, "idastar", None, 0, False, heuristic=heuristic, graph=False)
        bound = next_bound


def _bounded_dfs(
    problem: SearchProblem[S, A],
    expand: Callable[[S], Iterable[tuple[A, S, float]]],
    heuristic: Heuristic,
    start: S,
    bound: float,
    meter: _Meter,
) -> tuple[tuple[list[A], float] | None, float]:
    """One IDA* iteration: a plan within ``bound`` (and its cost), else the next bound."""
    stats = meter.stats
    next_bound = math.inf
    if problem.is_goal(start):
        return ([], 0), bound
    if not meter.expand():
        return None, next_bound
    path: list[A] = []
    on_path = {start}
    g_stack: list[float] = [0]
    stack: list[tuple[S, Iterator[tuple[A, S, float]]]] = [(start, iter(expand(start)))]
    while stack:
        state, children = stack[-1]
        child = next(children, None)
        if child is None:
            stack.pop()
            on_path.discard(state)
            g_stack.pop()
            if path:
                path.pop()
            continue
        action, nxt, step = child
        stats.generated += 1
        if nxt in on_path:
            continue
        g = g_stack[-1] + step
        f = g + heuristic(nxt)
        if f > bound:
            if f < next_bound:
                next_bound = f
            continue
        if problem.is_goal(nxt):
            return ([*path, action], g), bound
        if not meter.expand():
            return None, next_bound
        path.append(action)
        g_stack.append(g)
        on_path.add(nxt)
        stack.append((nxt, iter(expand(nxt))))
        if len(stack) > stats.max_frontier:
            stats.max_frontier = len(stack)
    return None, next_bound
