"""One nonogram's search split over processes (``limits.workers > 1`` or a Dask scheduler).

:func:`solve_split` first gives the one-core search (the :class:`.portfolio.Portfolio` of
:func:`.portfolio.search`) a short start of :data:`WARMUP_SECONDS`, which settles nearly every
puzzle (a tournament puzzle in milliseconds) before any process is started; the solutions it
found are kept. That portfolio goes on in the parent, in slices of :data:`THINK` seconds
between two looks at the tasks, for as long as the run lasts: the split never answers much
later than one core would, and its restarts are kept for puzzles of several solutions, where
one depth-first search can stray. A local run's pool has one process fewer than
``limits.workers``, the parent being the other; a Dask cluster's workers all take tasks.

Past the start, the parent probes the root to its fixpoint and descends depth-first
(:class:`.portfolio._Dive`) until its stack holds :data:`SPREAD` open nodes a process that
takes tasks: the siblings of the first branching decisions, each a partial grid at the
propagation fixpoint with what its probing knows (:class:`.probing.Probes`). Those open nodes
partition the rest of the tree, and are the work.

Each task (:func:`explore`, run through :func:`cspsolve.parallel.executor`) takes a share of the
open nodes and searches them depth-first, for a time slice and a node allowance of its own; it
returns the solutions it found and the nodes it left open (its stack, the interrupted node put
back as it was), which go back to the work. A slice starts at :data:`SLICE` seconds and doubles
each time a task comes back without finishing a node (one node of an 80 x 95 puzzle can take
seconds to probe). The parent hands out work while a worker is free and combines the answers:

* the wanted number of distinct solutions found (2 to decide uniqueness, anywhere in the tree,
  the portfolio's included): settled, the remaining tasks cancelled;
* no open node left and no task running, or a search of the portfolio exhausted its tree: the
  solutions found are all (one: unique; none: unsolvable);
* the time or node limit, or cancellation: ``LIMIT`` / ``CANCELLED``.

So the status and the uniqueness verdict are those of the one-core search; with several
solutions the first one shown may differ. The node limit counts the nodes of every process:
each task's allowance, and each slice of the portfolio, is a share of what is left.
"""

from __future__ import annotations

import concurrent.futures as cf
import functools
import sys
from typing import Any, NamedTuple

from cspsolve.limits import Budget, Limits
from cspsolve.parallel import executor
from cspsolve.results import Result, Stats, Status

from ..board import Grid, Nonogram
from .portfolio import LIKELIER, Portfolio, _Dive, _seed, load_kernels
from .probing import Probes
from .propagation import (
    _CLOCK,
    Network,
    _propagate_all,
    add_counters,
    interrupted,
    raise_stop,
    take_counters,
)

__all__ = [
    "SLICE",
    "SPARE",
    "SPREAD",
    "THINK",
    "WARMUP_SECONDS",
    "Piece",
    "explore",
    "solve_split",
]

WARMUP_SECONDS = 1.0
"""Seconds the one-core search runs before the search is split (it goes on beside the tasks)."""
SPREAD = 4
"""Open nodes a worker the parent's descent makes before the first tasks go out."""
SLICE = 0.5
"""Seconds of a task at first (see the module docstring)."""
THINK = 0.1
"""Seconds of a slice of the parent's portfolio at first; doubled after a slice that finished
no node."""
SPARE = 0.5
"""Seconds a task ends before the run's deadline, for its answer to come back and the pool to
close within the time limit."""
_POLL = 0.02
"""Seconds between two looks of the parent at its cancellation event while tasks run."""

Node = tuple[Any, Probes, int, int]
"""An open node: its grid, its probes, its depth and the cell decided to make it."""


class Piece(NamedTuple):
    """What a task (:func:`explore`) brings back.

    Attributes
    ----------
    solutions : list of Grid
        The solutions it found.
    open : list of Node
        The nodes it left unexplored (empty when its share is exhausted or settled).
    stats : Stats
        Its counters: ``expanded`` counts every node it began (an interrupted one included).
    finished : int
        The nodes it finished.
    """

    solutions: list[Grid]
    open: list[Node]
    stats: Stats
    finished: int


def explore(
    puzzle: Nonogram, nodes: list[Node], max_solutions: int, seconds: float, allowance: int | None
) -> Piece:
    """Search the open ``nodes`` depth-first (the last first) for ``seconds`` and at most
    ``allowance`` nodes (no limit: ``None``); a task of :func:`solve_split`.

    Stops at ``max_solutions`` solutions. Returns what it found and the nodes it left open
    (those are kept even when it stopped at ``max_solutions``: the parent may know some of its
    solutions already).
    """
    load_kernels(puzzle)
    stats = Stats()
    budget = Limits(time_limit=seconds, max_nodes=allowance).start(stats)
    net = Network.build(puzzle)
    # The probes' clocks come from the network that made them: go on from the latest.
    net.counters[_CLOCK] = max(_clock(probes) for _, probes, _, _ in nodes)
    dive = _Dive(net, net.unknown(), LIKELIER, 0.0)
    dive.stack = list(nodes)
    dive.resumable = True
    dive.last_conflict = True
    found: list[Grid] = []
    with budget.alarm(functools.partial(raise_stop, net.counters)):
        dive.advance(sys.maxsize, budget, found, max_solutions)
    add_counters(net, stats)
    finished = stats.expanded - dive.put_back
    return Piece(found, dive.stack, budget.finish(), finished)


def _clock(probes: Probes) -> int:
    """The latest time of the clock that stamped ``probes``."""
    return max(int(probes.changed_at.max()), int(probes.probed_at.max()))


class _Thinker:
    """The one-core portfolio search, run by the parent in slices (see the module docstring).

    Parameters
    ----------
    puzzle : Nonogram
        The clues (the portfolio has a network of its own).
    seed : int
        Seeds its randomized searches.
    """

    def __init__(self, puzzle: Nonogram, seed: int) -> None:
        self.net = Network.build(puzzle)
        self.seed = seed
        self.portfolio: Portfolio | None = None
        """Made once the root is propagated."""
        self.exhausted = False
        """Whether a search of the portfolio exhausted the tree (or the root is inconsistent):
        every solution has then been found."""
        self.seconds = THINK
        """The length of the next slice."""

    def think(
        self, budget: Budget, found: list[Grid], max_solutions: int, *,
        seconds: float | None = None, promised: int = 0,
    ) -> bool:  # fmt: skip
        """Search for ``seconds`` at most (by default the slice's length, :attr:`seconds`),
        within ``budget`` and the nodes it has left beyond those ``promised`` to tasks;
        solutions not in ``found`` are appended to it. Returns whether the puzzle is settled."""
        limits = budget.part(promised, self.seconds if seconds is None else seconds)
        part = limits.start(Stats())
        settled, stopped = False, None
        with part.alarm(functools.partial(raise_stop, self.net.counters)):
            if self.portfolio is None:
                root = self.net.unknown()
                if not _propagate_all(self.net, root):
                    self.exhausted = interrupted(self.net.counters, part) is None
                    settled = self.exhausted
                else:
                    _seed(self.seed % 2**32)
                    self.portfolio = Portfolio(self.net, root, resumable=True)
            if self.portfolio is not None and not settled:
                settled, stopped = self.portfolio.advance(part, found, max_solutions)
                self.exhausted = settled and len(found) < max_solutions
        take_counters(self.net, part.stats)
        _add(budget.stats, part.finish())
        extra = budget.stats.extra
        extra["portfolio_nodes"] = extra.get("portfolio_nodes", 0) + part.stats.expanded
        if stopped and part.stats.expanded <= 1:  # not one node finished
            self.seconds *= 2
        return settled


def _add(total: Stats, part: Stats) -> None:
    """Add the counters of a part of the run to its total."""
    total.expanded += part.expanded
    total.generated += part.generated
    total.backtracks += part.backtracks
    total.propagations += part.propagations
    total.probes += part.probes
    total.depth = max(total.depth, part.depth)
    total.max_frontier = max(total.max_frontier, part.max_frontier)
    hits = total.extra.get("line_cache_hits", 0) + part.extra.get("line_cache_hits", 0)
    total.extra["line_cache_hits"] = hits


def _descend(
    net: Network, budget: Budget, found: list[Grid], max_solutions: int, spread: int
) -> tuple[list[Node], Status | None]:
    """Probe the root to its fixpoint and descend depth-first until ``spread`` nodes are open
    (or the tree is settled); returns the open nodes and the budget's stop status."""
    stats = Stats()
    part = budget.part().start(stats)
    dive = _Dive(net, net.unknown(), LIKELIER, 0.0)
    root = dive.stack[0][0]
    open_nodes: list[Node] = []
    stopped: Status | None = None
    with part.alarm(functools.partial(raise_stop, net.counters)):
        if _propagate_all(net, root):
            while dive.stack and len(dive.stack) < spread:
                settled, stopped = dive.advance(1, part, found, max_solutions)
                if settled or stopped:
                    break
            open_nodes = dive.stack if not stopped and len(found) < max_solutions else []
        stopped = stopped or interrupted(net.counters, part)
    add_counters(net, stats)
    _add(budget.stats, part.finish())
    return open_nodes, stopped


class _Farm:
    """The parent's side of the split search: the open nodes, the running tasks, the answer."""

    def __init__(
        self,
        puzzle: Nonogram,
        budget: Budget,
        found: list[Grid],
        max_solutions: int,
        thinker: _Thinker,
    ) -> None:
        self.puzzle = puzzle
        self.thinker = thinker
        self.budget = budget
        self.found = found
        self.seen = set(found)
        """The solutions found, for finding a repeated one at once (the one-core start's
        solutions are found again in the tasks' trees)."""
        self.max_solutions = max_solutions
        self.open: list[Node] = []
        self.running: dict[cf.Future[Piece], int] = {}
        self.slice = SLICE
        self.tasks = 0
        """Tasks handed out so far."""

    def settled(self) -> bool:
        """Whether the answer is known: enough solutions, or nothing left to search."""
        if len(self.found) >= self.max_solutions or self.thinker.exhausted:
            return True
        return not (self.open or self.running)

    def hand_out(self, pool: cf.Executor, workers: int) -> None:
        """Give the free workers a share of the open nodes each (the deepest first)."""
        while self.open and len(self.running) < workers:
            free = workers - len(self.running)
            left = self.budget.nodes_left(sum(self.running.values()))
            if left == 0:
                return
            allowance = None if left is None else max(1, left // free)
            remaining = self.budget.remaining()
            seconds = self.slice if remaining is None else min(self.slice, remaining - SPARE)
            if seconds <= 0:
                return
            share = -(-len(self.open) // free)
            nodes, self.open = self.open[-share:], self.open[:-share]
            wanted = self.max_solutions - len(self.found)
            task = pool.submit(explore, self.puzzle, nodes, wanted, seconds, allowance)
            self.running[task] = allowance or 0
            self.tasks += 1

    def collect(self, timeout: float = _POLL) -> None:
        """Wait up to ``timeout`` seconds for tasks to end and take in what they bring back."""
        done, _ = cf.wait(self.running, timeout=timeout, return_when=cf.FIRST_COMPLETED)
        for task in done:
            del self.running[task]
            piece = task.result()
            _add(self.budget.stats, piece.stats)
            for solution in piece.solutions:
                if solution not in self.seen:
                    self.seen.add(solution)
                    self.found.append(solution)
            self.open.extend(piece.open)
            stats = self.budget.stats
            stats.max_frontier = max(stats.max_frontier, len(self.open))
            if piece.open and not piece.finished:
                self.slice *= 2  # not one node finished: its nodes need longer slices

    def run(self, pool: cf.Executor, workers: int) -> Status | None:
        """Hand out and collect until settled or stopped; returns the stop status."""
        while not self.settled():
            stopped = self.budget.exhausted()
            if stopped:
                return stopped
            self.hand_out(pool, workers)
            promised = sum(self.running.values())
            if self.budget.nodes_left(promised) != 0:  # a node left for the portfolio
                self.thinker.think(self.budget, self.found, self.max_solutions, promised=promised)
                self.seen.update(self.found)
                self.collect(timeout=0)
            elif not self.running:  # open nodes, but no node or second left to give
                return self.budget.interrupted() or Status.LIMIT
            else:
                self.collect()
        return None

    def cancel(self) -> None:
        """Cancel the tasks not yet started (a started one ends at its own deadline)."""
        for task in self.running:
            task.cancel()


def solve_split(
    puzzle: Nonogram,
    *,
    limits: Limits,
    max_solutions: int = 1,
    seed: int = 0,
    warmup: float | None = None,
    spread: int = SPREAD,
) -> Result[Grid]:
    """Solve a nonogram by the probing search split over ``limits.workers`` processes (or the
    workers of the Dask scheduler ``limits.scheduler``); see the module docstring.

    Parameters
    ----------
    puzzle : Nonogram
        The clues.
    limits : Limits
        Time and node limits (the nodes of every process count), cancellation (looked at every
        :data:`_POLL` seconds while tasks run), workers and scheduler.
    max_solutions : int
        Stop after this many solutions: 1 to solve, 2 to decide uniqueness.
    seed : int
        Seeds the one-core start (:func:`.probing.search`).
    warmup : float, optional
        Seconds of the one-core start; :data:`WARMUP_SECONDS` by default, 0 to split at once.
    spread : int
        Open nodes a worker the parent makes before it hands out the first tasks.

    Returns
    -------
    Result of Grid
        As :func:`.portfolio.solve_probing`; ``stats.extra["tasks"]`` counts the tasks,
        ``stats.extra["portfolio_nodes"]`` the nodes of the parent's portfolio (both included
        in ``stats.expanded``).
    """
    load_kernels(puzzle)
    stats = Stats()
    budget = limits.start(stats)
    thinker = _Thinker(puzzle, seed)
    found: list[Grid] = []
    seconds = WARMUP_SECONDS if warmup is None else warmup
    settled = seconds > 0 and thinker.think(budget, found, max_solutions, seconds=seconds)
    stopped = None if settled else budget.interrupted()
    if not settled and not stopped:
        net = Network.build(puzzle)
        processes = _processes(limits)
        nodes, stopped = _descend(net, budget, found, max_solutions, spread * processes)
        if nodes and not stopped:
            stopped = _farm_out(puzzle, budget, found, max_solutions, nodes, thinker)
    found = found[:max_solutions]  # tasks running at once may find more
    result = Result.from_solutions(
        budget.finish(), "probing", found, max_solutions=max_solutions, stopped=stopped
    )
    result.solutions = found
    return result


def _processes(limits: Limits) -> int:
    """The processes that take tasks: a local pool leaves a core to the parent's portfolio; a
    Dask cluster's workers all take them."""
    return limits.workers if limits.scheduler is not None else max(1, limits.workers - 1)


def _farm_out(
    puzzle: Nonogram,
    budget: Budget,
    found: list[Grid],
    max_solutions: int,
    nodes: list[Node],
    thinker: _Thinker,
) -> Status | None:
    """Search the open ``nodes`` in tasks, the parent's portfolio going on between two looks at
    them; returns the stop status (``None``: settled)."""
    limits = budget.limits
    farm = _Farm(puzzle, budget, found, max_solutions, thinker)
    farm.open = nodes
    processes = _processes(limits)
    with executor(processes, limits.scheduler) as pool:
        try:
            stopped = farm.run(pool, processes)
        finally:
            farm.cancel()
    budget.stats.extra["tasks"] = farm.tasks
    return stopped
