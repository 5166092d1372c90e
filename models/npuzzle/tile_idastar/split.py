"""IDA* of one puzzle on several processes, the split part of ``tile-idastar``: with
``limits.workers > 1`` or ``limits.scheduler`` (:mod:`cspsolve.parallel`).

The tree is split at a fixed depth: the start is expanded breadth-first (the blank never
moving straight back, a board met twice at the same depth kept once, with the smaller
path-maximum of f) until a level holds :data:`SUBTREES_PER_WORKER` nodes a worker. If a level
holds the goal, the first such level is the optimal length and its path is the plan. Otherwise
each iteration of IDA* (cost bound ``B``, in the order of serial IDA*) searches the subtrees of
the last level's nodes whose path stays within ``B``, one task each, with the compiled kernel
(:class:`.walk.Walk`). A node above the cut is counted as the serial search counts it
(generated when its parent is within ``B``, expanded when it is within ``B`` itself), so the
tally per f-limit adds up to ``stats.expanded``; the next bound is the least f cut off, above
the split or in a subtree.

Any plan found within ``B`` is optimal: every smaller bound was searched in full before
(weighted IDA*: it costs at most ``B``, at most ``w`` times the optimum), so the first plan a
task reports ends the search and the tasks not yet started are cancelled. Keeping one of two
equal boards at the same depth loses no plan: in a shortest plan within ``B``, replacing the
path to the cut by the kept one gives a plan as short, within ``B``, with no board twice (else
a shorter one would exist), so it never steps back to the kept path's previous board. A
subtree starts the duplicate-move automaton afresh (:mod:`..move_pruning`; it never steps
back all the same): among the shortest plans through its root, the least one in the
automaton's order from there contains no duplicate, and does not step back (that would make
a shorter plan).

A task searches for at most :data:`SLICE` seconds (and the time and nodes left), then hands
back its search state, which the next task on that subtree resumes: the caller, which waits
on the tasks :data:`POLL` seconds at a time, stops within a slice of a cancellation and the
pool never holds long work. Subtrees differ in size by orders of magnitude, and a subtree's
nodes in one iteration predict its nodes in the next: after each iteration, a subtree that
took more than a share of the nodes (:data:`REFINE`) is replaced by its children. The
subtrees are handed out one a worker in the serial search's order (the moves U, L, R, D from
the start), a paused one resumed before a later one starts, so that the last iteration, which
stops at the first plan, searches about the nodes the serial one does before it.

Workers read the pattern databases from the caller's cache folder once per process (the
caller got them first, so they are built and cached before any task starts); a forked local
pool inherits the caller's.
"""

from __future__ import annotations

import concurrent.futures as cf
import heapq
import math
import time
from collections.abc import Iterator
from dataclasses import dataclass, field

import numpy as np

from cspsolve.limits import Budget
from cspsolve.pacing import Pace
from cspsolve.parallel import executor
from cspsolve.results import Status
from cspsolve.search import Tally

from ..board import Puzzle, neighbours
from ..partitions import Partition
from ..pdb import BuildStoppedError, PatternDatabases, cache_at, cache_dir
from .walk import FOUND, PAUSED, Walk

__all__ = ["POLL", "SLICE", "SUBTREES_PER_WORKER", "Outcome", "Setup", "search", "subtree"]

SUBTREES_PER_WORKER = 32
"""The split stops at the first level with at least this many nodes per worker."""

SLICE = 0.1
"""Seconds a task searches before it hands back its state."""

POLL = 0.05
"""Seconds between two looks of the caller at its limits while tasks run."""

REFINE = 16
"""After each iteration, a subtree that took more than 1 / (``REFINE`` x workers) of its
nodes is split into its children for the next iterations (0: never)."""


@dataclass(frozen=True)
class Setup:
    """What a task needs besides its subtree: the board's shape and goal, the databases
    (``patterns``, or None for the Manhattan distance) and where they are cached, the weights
    of ``f = g_weight * g + h_weight * h``."""

    rows: int
    cols: int
    goal: tuple[int, ...]
    patterns: Partition | None
    cache: str
    g_weight: int
    h_weight: int


@dataclass(frozen=True)
class Node:
    """A node above the cut: its board, the blank's cells from the start, the largest f on
    its path and that of its parent's path (-1 for the start)."""

    tiles: tuple[int, ...]
    path: tuple[int, ...]
    f: int
    parent_f: int


@dataclass(frozen=True)
class Outcome:
    """What one slice of a task did: :data:`.walk.FOUND` (with the blank's ``path``),
    ``DONE`` or ``PAUSED`` (with the ``state`` to resume from), its node counts and the least
    f it cut off (None if none)."""

    code: int
    generated: int
    expanded: int
    next_bound: int | None
    path: list[int] | None = None
    state: tuple[np.ndarray, ...] | None = None


_LOADED: dict[tuple[object, ...], PatternDatabases] = {}
"""The databases this process has, by board shape, goal and patterns (one entry)."""

_PACE = Pace(first=1 << 14, largest=1 << 22)
"""Nodes per kernel call in this process, sized from the speed of the last call."""


def _key(setup: Setup) -> tuple[object, ...]:
    return (setup.rows, setup.cols, setup.goal, setup.patterns)


def _databases(setup: Setup, deadline: float) -> PatternDatabases:
    """The databases of ``setup``, read from the cache the first time in this process.

    Raises
    ------
    BuildStoppedError
        When ``deadline`` (a :func:`time.time`) passed before they were read.
    """
    key = _key(setup)
    if key not in _LOADED:
        goal = Puzzle(setup.rows, setup.cols, setup.goal, setup.goal)

        def late() -> Status | None:
            return Status.LIMIT if time.time() > deadline else None

        with cache_at(setup.cache):  # a worker reads the caller's cache
            dbs = PatternDatabases.for_puzzle(
                goal, chosen=setup.patterns, manhattan=setup.patterns is None, stop=late
            )
        _LOADED.clear()
        _LOADED[key] = dbs
    return _LOADED[key]


def subtree(
    setup: Setup,
    node: Node,
    bound: int,
    deadline: float,
    nodes: int | None,
    state: tuple[np.ndarray, ...] | None,
) -> Outcome:
    """A task: search the subtree of ``node`` within cost ``bound`` for one :data:`SLICE`,
    stopping earlier at ``deadline`` (a :func:`time.time`) or after ``nodes`` expansions;
    resumes from ``state`` when given. A worker that has not got the databases by the
    deadline hands the task back untouched."""
    try:
        dbs = _databases(setup, deadline)
    except BuildStoppedError:
        return Outcome(PAUSED, 0, 0, None, state=state)
    walk = Walk(dbs, setup.cols, node.tiles, node.path, setup.g_weight, setup.h_weight)
    if state is not None:
        walk.resume(state)
        walk.counters[:2] = 0
    walk.fit(bound)
    stop_at = min(deadline, time.time() + SLICE)
    while True:
        chunk, before = _PACE.chunk(), walk.expanded
        if nodes is not None:
            chunk = max(1, min(chunk, nodes - walk.expanded))
        code = walk.run(bound, chunk)
        _PACE.measured(walk.expanded - before)
        if code != PAUSED or time.time() >= stop_at:
            break
        if nodes is not None and walk.expanded >= nodes:
            break
    return Outcome(
        code,
        walk.generated,
        walk.expanded,
        walk.next_bound,
        walk.path() if code == FOUND else None,
        walk.state() if code == PAUSED else None,
    )


def _children(puzzle: Puzzle, dbs: PatternDatabases, setup: Setup, node: Node) -> Iterator[Node]:
    """The children of ``node`` (the blank never moving straight back)."""
    blank = node.path[-1]
    back = node.path[-2] if len(node.path) > 1 else -1
    depth = len(node.path)
    for _, cell in neighbours(puzzle.rows, puzzle.cols)[blank]:
        if cell != back:
            board = list(node.tiles)
            board[blank], board[cell] = board[cell], 0
            tiles = tuple(board)
            f = setup.g_weight * depth + setup.h_weight * dbs.value(tiles)
            yield Node(tiles, (*node.path, cell), max(node.f, f), node.f)


def _levels(
    puzzle: Puzzle, dbs: PatternDatabases, setup: Setup, width: int
) -> list[list[Node]] | tuple[int, ...]:
    """The levels of the tree down to the first of at least ``width`` nodes, or the blank's
    path to the goal when a level reaches it first (the shortest plan)."""
    f0 = setup.h_weight * dbs.value(puzzle.start)
    levels = [[Node(puzzle.start, (puzzle.start.index(0),), f0, -1)]]
    while len(levels[-1]) < width:
        kept: dict[tuple[int, ...], Node] = {}
        for node in levels[-1]:
            for child in _children(puzzle, dbs, setup, node):
                if child.tiles == puzzle.goal:
                    return child.path
                if child.tiles not in kept or kept[child.tiles].f > child.f:
                    kept[child.tiles] = child
        assert kept, "a solvable board always has a level below"
        levels.append(list(kept.values()))
    return levels


def _refined(
    puzzle: Puzzle,
    dbs: PatternDatabases,
    setup: Setup,
    cut: list[Node],
    sizes: list[int],
    most: float,
) -> tuple[list[Node], list[Node]]:
    """Split the subtrees of ``cut`` that took more than ``most`` nodes (``sizes``) into their
    children, in place (the order stays the serial search's): the new cut and the nodes that
    left it. A subtree with the goal as a child is kept whole."""
    new_cut: list[Node] = []
    left: list[Node] = []
    for node, size in zip(cut, sizes, strict=True):
        children = list(_children(puzzle, dbs, setup, node)) if size > most else []
        if not children or any(child.tiles == puzzle.goal for child in children):
            new_cut.append(node)
        else:
            left.append(node)
            new_cut.extend(children)
    return new_cut, left


@dataclass
class _Account:
    """The counts of one iteration, and where the search stands."""

    expanded: int = 0
    next_bound: int | None = None
    found: list[int] | None = None
    stopped: Status | None = None
    sizes: list[int] = field(default_factory=list)

    def cut(self, f: int | None) -> None:
        if f is not None and (self.next_bound is None or f < self.next_bound):
            self.next_bound = f


def search(
    puzzle: Puzzle,
    dbs: PatternDatabases,
    manhattan: bool,
    walk: Walk,
    budget: Budget,
    tally: Tally | None,
    subtrees: dict[int, list[int]] | None = None,
) -> list[int] | Status:
    """Parallel IDA* from the start of ``puzzle`` (``walk`` stands on it): the blank's cells
    along the plan found, or the status the limits stopped it with.

    ``budget.stats`` counts the nodes of every task; ``tally`` gets the nodes expanded per
    f-limit, ``subtrees`` the nodes expanded in each subtree per f-limit (in the order of the
    split's last level).
    """
    limits, stats = budget.limits, budget.stats
    setup = Setup(
        puzzle.rows,
        puzzle.cols,
        puzzle.goal,
        None if manhattan else dbs.partition,
        str(cache_dir()),
        walk.g_weight,
        walk.h_weight,
    )
    _LOADED.clear()
    _LOADED[_key(setup)] = dbs  # a forked pool's workers start with them
    levels = _levels(puzzle, dbs, setup, SUBTREES_PER_WORKER * limits.workers)
    if isinstance(levels, tuple):
        stats.expanded = stats.generated = len(levels) - 1
        if tally is not None:
            tally[float(setup.g_weight * (len(levels) - 1))] = stats.expanded
        return list(levels)
    above = [node for level in levels[1:] for node in level]
    cut = levels[-1]
    stats.extra["split_depth"] = len(levels) - 1
    stats.extra["subtrees"] = len(cut)
    remaining = budget.remaining()
    deadline = math.inf if remaining is None else time.time() + remaining
    bound = walk.h_weight * walk.h
    with executor(limits.workers, limits.scheduler) as pool:
        iterations = 0
        while True:
            iterations += 1
            stats.extra["iterations"] = iterations
            account = _Account(sizes=[0] * len(cut))
            account.expanded = 1 + sum(1 for node in above if node.f <= bound)
            stats.expanded += account.expanded
            stats.generated += sum(1 for node in above if node.parent_f <= bound)
            for node in above:
                if node.parent_f <= bound < node.f:
                    account.cut(node.f)
            order = [i for i, n in enumerate(cut) if n.f <= bound]
            _iteration(pool, setup, cut, order, bound, deadline, budget, account)
            if tally is not None:
                tally[float(bound)] = account.expanded
            if subtrees is not None:
                subtrees[bound] = account.sizes
            if account.found is not None:
                return account.found
            if account.stopped is not None:
                return account.stopped
            assert account.next_bound is not None, "a solvable board has a path beyond any bound"
            bound = account.next_bound
            if REFINE:
                most = account.expanded / (REFINE * limits.workers)
                cut, left = _refined(puzzle, dbs, setup, cut, account.sizes, most)
                above.extend(left)
                stats.extra["subtrees"] = len(cut)


def _iteration(
    pool: cf.Executor,
    setup: Setup,
    cut: list[Node],
    order: list[int],
    bound: int,
    deadline: float,
    budget: Budget,
    account: _Account,
) -> None:
    """Search the subtrees ``order`` (increasing indices of ``cut``) within ``bound`` as tasks
    of ``pool``, one a worker, the first of the serial order first (a paused one is resumed
    before the next is started), until done, a plan is found or the limits stop it (noted in
    ``account``)."""
    limits, stats = budget.limits, budget.stats
    todo: list[tuple[int, tuple[np.ndarray, ...] | None]] = [(i, None) for i in order]
    running: dict[cf.Future[Outcome], int] = {}

    def hand_out() -> None:
        while todo and len(running) < limits.workers:
            i, state = heapq.heappop(todo)
            nodes = budget.nodes_left()
            running[pool.submit(subtree, setup, cut[i], bound, deadline, nodes, state)] = i

    try:
        hand_out()
        while running:
            done, _ = cf.wait(running, timeout=POLL, return_when=cf.FIRST_COMPLETED)
            for future in done:
                i = running.pop(future)
                outcome = future.result()
                stats.generated += outcome.generated
                stats.expanded += outcome.expanded
                account.expanded += outcome.expanded
                account.sizes[i] += outcome.expanded
                account.cut(outcome.next_bound)
                if outcome.code == FOUND:
                    account.found = outcome.path
                    return
                if outcome.code == PAUSED:
                    heapq.heappush(todo, (i, outcome.state))
            account.stopped = budget.exhausted()
            if account.stopped is not None:
                return
            hand_out()
    finally:
        for future in running:
            future.cancel()
