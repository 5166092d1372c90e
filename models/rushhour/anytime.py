"""A plan at once, then shorter plans and a rising lower bound until they meet: ``anytime``.

Two lanes of search share one board. The *plan lane* runs beam search (:func:`.packed.search`
with a width, as :mod:`.beam`) from :data:`FIRST_WIDTH` states a layer, four times wider each
run up to :data:`.beam.MOST_WIDTH`: the first plan comes from a narrow beam, later ones from
wider beams are kept when shorter (each one shortened by :func:`.beam.shortcut`). The *bound
lane* runs the iterations of BFIDA* (:mod:`.deepening`), by default with the ``union``
estimate, which proves higher bounds than ``blockers`` on 12x12 boards of 44 pieces (16
against 14 on ``scrambled12x12_44_s2`` in 60 s on two cores). Each iteration that ends without
a goal proves every plan at least its least pruned depth plus estimate; one that reaches a
goal has found an optimal plan; one that leaves nothing out proves the board unsolvable. Its
bounds stop one short of the best plan's length, so the iteration that ends there proves that
plan optimal.

The run ends ``optimal`` when the plan's length meets the proven bound (or the bound lane finds
a goal), ``unsolvable`` when the bound lane searched every reachable position, and otherwise at
a limit: ``solved`` with the best plan and ``proof["lower_bound"]`` beside it, or ``limit`` (or
``cancelled``) with the bound alone. Cancellation gives ``cancelled`` even with a plan in hand.

With ``limits.workers == 1`` (and no scheduler) the lanes take turns in this process, the one
that has expanded fewer states going next (the bound lane first: its first iterations take
milliseconds), so that a run is the same on a busy machine as on a quiet one. With more, each
lane's runs are tasks of :func:`cspsolve.parallel.executor`, the two lanes on two processes at
once. A task cannot see the caller's cancellation event, so each carries the time and nodes
left and a *stop file*: when the run ends (the lanes met, a limit, cancellation) the caller
creates the file and a thread of each running task, looking for it every :data:`STOP_POLL`
seconds, cancels the task's search. On a Dask cluster whose workers do not share this
machine's files, a task stops at its own deadline instead.
"""

from __future__ import annotations

import concurrent.futures as cf
import os
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from cspsolve.limits import Budget, Limits
from cspsolve.parallel import executor
from cspsolve.results import Result, Stats, Status

from .beam import MOST_WIDTH, shortcut
from .board import EXHAUSTED, Board, Move, merged
from .deepening import MEMORY, _optimal_plan, _stopped, _stride, check_options, runner
from .packed import INFINITE, LEVELS, Packing, search

__all__ = ["FIRST_WIDTH", "STOP_POLL", "run", "solve"]

FIRST_WIDTH = 1 << 12
"""States kept a layer by the first beam. On the 12x12 board of 44 pieces
``scrambled12x12_44_s2`` a beam of 4,096 found a plan of 21 moves in 6 s, one of 16,384 a
plan of 20 in 19 s, while beams of 64 to 1,024 wandered for 40 s (thousands of layers)."""
STOP_POLL = 0.01
"""Seconds between two looks of a task for the stop file."""
_WAIT = 0.02
"""Seconds the caller waits for a task between two looks at its own limits."""

PLAN, BOUND = "plan", "bound"
"""The lanes."""


@dataclass(frozen=True)
class Step:
    """What one run of a lane found.

    Attributes
    ----------
    lane : str
        :data:`PLAN` or :data:`BOUND`.
    value : int
        The beam's width, or the iteration's bound.
    moves : list of Move or None
        The plan found (edges of the search: slides, or one-cell steps), or None.
    proven : int or None
        Bound lane, iteration ended without a goal: the least depth plus estimate it left out
        (:data:`.packed.INFINITE` when it left none out), a lower bound on every plan.
    whole : bool
        Plan lane: the beam kept every state it reached (no layer was narrowed), so a wider
        one would search the same.
    stopped : Status or None
        Why the run stopped early (``LIMIT`` for time, nodes or memory; ``CANCELLED``).
    full : bool
        The memory budget stopped it.
    expanded, generated, states : int
        Its expansions, generated states, and states kept.
    """

    lane: str
    value: int
    moves: list[Move] | None
    proven: int | None
    whole: bool
    stopped: Status | None
    full: bool
    expanded: int
    generated: int
    states: int


def run_step(
    packing: Packing, lane: str, value: int, *, level: int, steps: bool, budget: Budget, most: int
) -> Step:
    """One run of ``lane`` on ``packing``: a beam of width ``value`` or a BFIDA* iteration of
    bound ``value`` (estimate ``level``), within ``budget`` and ``most`` states."""
    stats = budget.stats
    expanded, generated = stats.expanded, stats.generated
    beam = lane == PLAN
    layers = search(
        packing,
        packing.start(),
        budget=budget,
        level=LEVELS["blockers"] if beam else level,
        bound=INFINITE if beam else value,
        steps=steps,
        max_states=most,
        width=value if beam else None,
    )
    moves = layers.plan(layers.goal) if layers.goal >= 0 else None
    if beam and moves is not None:
        moves = shortcut(packing.board, moves, steps=steps)
    proven = layers.least_pruned if layers.exhausted and not beam else None
    return Step(
        lane,
        value,
        moves,
        proven,
        beam and layers.size <= value,
        layers.stopped,
        layers.full,
        stats.expanded - expanded,
        stats.generated - generated,
        layers.size,
    )


def step_task(
    board: Board,
    lane: str,
    value: int,
    level: int,
    steps: bool,
    most: int,
    seconds: float | None,
    nodes: int | None,
    stop: str,
) -> Step:
    """:func:`run_step` as a task of a process pool: within ``seconds`` and ``nodes``, and
    cancelled as soon as the file ``stop`` exists."""
    cancel = threading.Event()
    limits = Limits(time_limit=seconds, max_nodes=nodes, cancel=cancel)
    with _watching(stop, cancel):
        budget = limits.start(Stats())
        return run_step(
            Packing.of(board), lane, value, level=level, steps=steps, budget=budget, most=most
        )


@contextmanager
def _watching(stop: str, cancel: threading.Event) -> Iterator[None]:
    """While open, set ``cancel`` once the file ``stop`` exists (looked for every
    :data:`STOP_POLL` seconds by a thread)."""
    done = threading.Event()

    def watch() -> None:
        while not done.wait(STOP_POLL):
            if os.path.exists(stop):
                cancel.set()
                return

    watcher = threading.Thread(target=watch, name="cspsolve-stop", daemon=True)
    watcher.start()
    try:
        yield
    finally:
        done.set()
        watcher.join()


@dataclass
class Lanes:
    """The state of both lanes: the best plan, the proven bound, and what each runs next.

    Attributes
    ----------
    metric : str
        ``"moves"`` or ``"steps"`` (for the messages).
    best : list of Move or None
        The shortest plan found (search edges).
    proven : int
        The greatest lower bound proven on every plan.
    optimal : bool
        ``best`` is proven optimal.
    unsolvable : bool
        The bound lane searched every reachable position without a goal.
    width, bound : int
        The next beam's width; the bound of the bound lane's last iteration.
    done : set of str
        The lanes that have nothing left to run.
    spent : dict of str to int
        States each lane has expanded.
    full : bool
        A lane was stopped by the memory budget.
    history : list of tuple of int, int, float
        (bound, expansions, seconds) of every finished iteration (for :func:`.deepening._stride`).
    extra : dict
        ``stats.extra`` of the result: ``iterations``, ``bound``, ``beam_width``, ``states``,
        ``first_plan_seconds``.
    """

    metric: str
    best: list[Move] | None = None
    proven: int = 0
    optimal: bool = False
    unsolvable: bool = False
    width: int = FIRST_WIDTH
    bound: int = 0
    done: set[str] = field(default_factory=set)
    spent: dict[str, int] = field(default_factory=lambda: {PLAN: 0, BOUND: 0})
    full: bool = False
    history: list[tuple[int, int, float]] = field(default_factory=list)
    extra: dict[str, float] = field(default_factory=dict)

    @property
    def ended(self) -> bool:
        """The run has its answer (optimal or unsolvable), or both lanes are done."""
        return self.optimal or self.unsolvable or self.done >= {PLAN, BOUND}

    def next_value(self, lane: str, remaining: float | None) -> int:
        """The width of the next beam, or the bound of the next iteration (with ``remaining``
        seconds left): past the proven bound by :func:`.deepening._stride`, and below the best
        plan's length."""
        if lane == PLAN:
            return self.width
        bound = self.proven + _stride(self.history, self.proven, remaining)
        return bound if self.best is None else min(bound, len(self.best) - 1)

    def fold(self, step: Step, seconds: float, elapsed: float) -> None:
        """Take in ``step``, which ran ``seconds``, ``elapsed`` seconds into the run."""
        self.spent[step.lane] += step.expanded
        self.extra["states"] = max(self.extra.get("states", 0), step.states)
        self.full = self.full or step.full
        if step.moves is not None and (self.best is None or len(step.moves) < len(self.best)):
            self.best = step.moves
            self.extra.setdefault("first_plan_seconds", round(elapsed, 3))
        if step.lane == PLAN:
            self._fold_beam(step)
        else:
            self._fold_iteration(step, seconds)
        if self.best is not None and len(self.best) <= self.proven:
            self.optimal = True

    def _fold_beam(self, step: Step) -> None:
        self.extra["beam_width"] = step.value
        if step.stopped is not None or step.whole or 4 * step.value > MOST_WIDTH:
            self.done.add(PLAN)
        else:
            self.width = 4 * step.value

    def _fold_iteration(self, step: Step, seconds: float) -> None:
        if step.stopped is not None:
            self.done.add(BOUND)
            return
        self.extra["iterations"] = self.extra.get("iterations", 0) + 1
        self.extra["bound"] = step.value
        if step.moves is not None:
            self.optimal = True  # BFIDA*: the first goal within any bound is optimal
            self.proven = len(step.moves)
            self.best = step.moves
            return
        assert step.proven is not None
        if step.proven >= INFINITE:
            self.unsolvable = True
            return
        self.proven = max(self.proven, step.proven)
        self.history.append((step.value, step.expanded, seconds))

    def result(self, stats: Stats, stopped: Status | None) -> Result[list[Move]]:
        """The run's result (module text), ``stopped`` by a limit or cancellation if not
        ended."""
        stats.extra.update(self.extra)
        if self.unsolvable:
            return Result(Status.UNSOLVABLE, None, stats, message=EXHAUSTED)
        if self.best is not None and self.optimal:
            return _optimal_plan(self.best, stats)
        why = "the memory budget ran out" if self.full else "a limit stopped the search"
        if self.best is not None and stopped is not Status.CANCELLED:
            return self._beam_plan(self.best, stats, why)
        why = "the run was cancelled" if stopped is Status.CANCELLED else why
        return _stopped(stopped or Status.LIMIT, self.proven, stats, why, self.metric)

    def _beam_plan(self, moves: list[Move], stats: Stats, why: str) -> Result[list[Move]]:
        """The best plan the beam found, not proven optimal, with the bound proven beside it."""
        stats.cost = stats.depth = len(moves)  # edges: moves, or one-cell steps
        found = f"a plan of {len(moves)} {self.metric} by beam search; {why}"
        message = f"{found}; every plan has at least {self.proven} {self.metric}"
        result = Result(Status.SOLVED, merged(moves), stats, message=message)
        result.proof["lower_bound"] = self.proven
        return result


def solve(
    board: Board,
    *,
    metric: str = "moves",
    heuristic: str = "union",
    limits: Limits | None = None,
    memory: int = MEMORY,
    width: int = FIRST_WIDTH,
) -> Result[list[Move]]:
    """Plans and a lower bound by the two lanes of the module text, until they meet or a limit.

    Parameters
    ----------
    board : Board
        The start position.
    metric : str
        ``"moves"`` (a slide of any distance costs 1) or ``"steps"`` (one cell costs 1).
    heuristic : str
        The bound lane's estimate: ``"blockers"``, ``"union"``, ``"blocking"`` or ``"zero"``.
    limits : Limits, optional
        Time and node limits (nodes count the expansions of both lanes), cancellation, and
        ``workers``/``scheduler``: with two or more (or a scheduler) the lanes run at once in
        two processes.
    memory : int
        Bytes the states of each lane's search may take.
    width : int
        The first beam's width.

    Returns
    -------
    Result
        ``OPTIMAL`` (with ``proof["lower_bound"]`` its cost), ``UNSOLVABLE``, ``SOLVED`` with
        the best plan and the proven ``proof["lower_bound"]``, or ``LIMIT``/``CANCELLED`` with
        the bound alone. ``stats.extra`` holds ``iterations`` and ``bound`` (the bound lane's
        finished iterations and its last bound), ``beam_width`` (the last beam), ``states``
        (the most one run kept) and ``first_plan_seconds``.

    Raises
    ------
    OptionError
        For an unknown heuristic or metric.
    """
    check_options("anytime", heuristic, metric)
    limits = limits or Limits()
    stats = Stats()
    budget = limits.start(stats)
    lanes = Lanes(metric, width=width)
    most = max(1, memory // Packing.of(board).state_bytes())
    how = _How(board, LEVELS[heuristic], metric == "steps", most)
    lanes_run = _at_once if limits.parallel else _in_turn
    stopped = lanes_run(how, lanes, budget)
    return lanes.result(budget.finish(), stopped)


run = runner(solve)
"""The ``anytime`` method's runner."""


@dataclass(frozen=True)
class _How:
    """What every run of a lane shares: the board, the bound lane's estimate, the metric, the
    states a run may keep."""

    board: Board
    level: int
    steps: bool
    most: int


def _in_turn(how: _How, lanes: Lanes, budget: Budget) -> Status | None:
    """Run the lanes in this process, the one that has expanded fewer states first, until they
    end or ``budget`` runs out; return what stopped them (None when they ended)."""
    packing = Packing.of(how.board)
    while not lanes.ended:
        stopped = budget.exhausted()
        if stopped is not None:
            return stopped
        lane = min((BOUND, PLAN), key=lambda name: (name in lanes.done, lanes.spent[name]))
        value = lanes.next_value(lane, budget.remaining())
        began = time.perf_counter()
        step = run_step(
            packing, lane, value, level=how.level, steps=how.steps, budget=budget, most=how.most
        )
        lanes.fold(step, time.perf_counter() - began, time.perf_counter() - budget.started)
        if step.stopped is not None and not step.full:
            return budget.exhausted() or step.stopped
    return None


def _at_once(how: _How, lanes: Lanes, budget: Budget) -> Status | None:
    """Run each lane as tasks of :func:`cspsolve.parallel.executor` (two processes, or the
    scheduler's workers), one task a lane at a time, until they end or ``budget`` runs out;
    return what stopped them (None when they ended)."""
    with tempfile.TemporaryDirectory(prefix="cspsolve-anytime-") as folder:
        stop = os.path.join(folder, "stop")
        with executor(workers=2, scheduler=budget.limits.scheduler) as pool:
            tasks = _Tasks(pool, how, lanes, budget, stop)
            stopped = budget.exhausted()
            if stopped is None:
                tasks.submit(PLAN)
                tasks.submit(BOUND)
            while tasks.running and stopped is None and not lanes.ended:
                tasks.collect()
                stopped = budget.exhausted()
                if stopped is None and not tasks.running and not lanes.ended:
                    stopped = Status.LIMIT  # each lane stopped at its own limit
            Path(stop).touch()  # the signal to every running task
            for task in tasks.running:
                task.cancel()
    return None if lanes.ended else stopped


class _Tasks:
    """The running tasks of :func:`_at_once`: each lane's next run submitted when its last one
    ends, with the time left and a share of the nodes left."""

    def __init__(
        self, pool: cf.Executor, how: _How, lanes: Lanes, budget: Budget, stop: str
    ) -> None:
        self.pool, self.how, self.lanes, self.budget, self.stop = pool, how, lanes, budget, stop
        self.running: dict[cf.Future[Step], tuple[float, int]] = {}
        """Each task's start time and the nodes it may expand."""

    def submit(self, lane: str) -> None:
        """Submit ``lane``'s next run: within the time left and, under a node limit, the
        nodes no finished or running task has taken (half of them while the other lane has no
        task yet), so that the tasks together keep within the limit."""
        nodes = self.budget.nodes_left(sum(n for _, n in self.running.values()))
        if nodes is not None and not self.running:
            nodes //= 2
        how, remaining = self.how, self.budget.remaining()
        value = self.lanes.next_value(lane, remaining)
        arguments = (how.board, lane, value, how.level, how.steps, how.most, remaining)
        task = self.pool.submit(step_task, *arguments, nodes, self.stop)
        self.running[task] = (time.perf_counter(), nodes or 0)

    def collect(self) -> None:
        """Wait up to :data:`_WAIT` seconds for tasks to end; take in each one that did, and
        submit its lane's next run unless the lanes are done."""
        stats = self.budget.stats
        finished, _ = cf.wait(self.running, timeout=_WAIT, return_when=cf.FIRST_COMPLETED)
        for task in finished:
            began, _ = self.running.pop(task)
            step = task.result()
            stats.expanded += step.expanded
            stats.generated += step.generated
            now = time.perf_counter()
            self.lanes.fold(step, now - began, now - self.budget.started)
            if step.lane not in self.lanes.done and not self.lanes.ended:
                self.submit(step.lane)
