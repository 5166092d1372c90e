"""The search of the fast solver's ``probing`` method: depth-first search over probed
nodes (:mod:`.probing`, on :mod:`.propagation`'s grid), in a portfolio with restarts.

:func:`search`
    Depth-first search over probed nodes, branching where :func:`.probing.probe` says, the
    likelier value first; a line's conflict weight decays at every node (:data:`_DECAY`).

    Three searches share the work in doubling rounds (a portfolio with restarts: Gomes, Selman
    & Kautz 1998, *AAAI*): likelier child first and more-fixing child first, both resumed where
    they stopped, and likelier-first searches with randomized scores, each started afresh and
    cut after a number of nodes that follows the Luby sequence (:func:`luby`; Luby, Sinclair &
    Zuckerman 1993, *IPL* 47), seeded: runs are reproducible. The conflict weights carry over
    from search to search. From round :data:`_LAST_CONFLICT_ROUND` on they reason from the last
    conflict (Lecoutre, Saïs, Tabary & Vidal 2009, *AIJ* 173). A search that exhausts its tree
    settles the question; ``max_solutions=2`` settles uniqueness by the search itself. With
    several workers the search below the first branching decisions is split over processes
    (:mod:`.split`).
"""

from __future__ import annotations

import functools
from typing import Any

import numba
import numpy as np

from cspsolve.compiling import is_eager
from cspsolve.limits import Budget, Limits
from cspsolve.results import Result, Stats, Status

from .._kernels import copy, kernel
from ..board import Grid, Nonogram
from ..lines.bits import MAX_CELLS
from .probing import _DEAD, _SOLVED, Probes, _likelihoods, both_trials, probe, stamp
from .propagation import (
    Network,
    _known,
    _propagate_all,
    add_counters,
    has_long_lines,
    interrupted,
    raise_stop,
)

__all__ = ["Portfolio", "children", "load_kernels", "luby", "search", "solve_probing"]

LIKELIER, FEWER, MORE = 0, 1, 2
"""Orders of :func:`children`: the likelier value first, the child fixing fewer cells first, the
one fixing more first."""

_FIRST_RUN = 400
"""Nodes allowed to each search of :func:`search`'s first round; the allowance doubles every
round."""
_RESTART_UNIT = 100
"""The randomized search number ``j`` of :func:`search` is cut after ``_RESTART_UNIT *
luby(j)`` nodes (see :class:`_Restarts`)."""
_LAST_CONFLICT_ROUND = 2
"""From this round of :func:`search` on, the searches reason from the last conflict."""
_NOISE = 10.0
"""The randomized searches multiply a cell's branching score by a random factor in
``[1, 1 + _NOISE)``."""
_DECAY = 0.98
"""The conflict weights are multiplied by this factor at every node a search expands: a
failure counts half as much 34 nodes later."""


@numba.njit(cache=True, nogil=True)
def _seed(seed: int) -> None:
    """Seed the random generator of compiled code (separate from numpy's in Python)."""
    np.random.seed(seed)


@kernel()
def children(
    grid: Any, cell: int, size: Any, clues: Any, work: Any, counters: Any, trials: Any,
    out: Any, *, order: int,
) -> None:  # fmt: skip
    """The two propagated children of branching on ``cell`` into ``out`` (shape (2,) + grid's),
    the one to try first first: by ``order``, :data:`LIKELIER` the value of higher likelihood
    (:func:`_likelihoods`, from the messages :func:`probe` left in ``work``), :data:`FEWER`
    the child that fixes fewer cells (the less constrained), :data:`MORE` the one that fixes
    more (the likelier to fail soon)."""
    height, width = size
    empty, filled = trials[0], trials[1]
    fixed_empty, fixed_filled = both_trials(
        grid, trials, cell, size, clues, work, counters, work.read
    )
    if order == LIKELIER:
        as_empty, as_filled = _likelihoods(cell, height, width, work.messages)
        filled_first = as_filled > as_empty
    else:
        filled_first = (fixed_filled <= fixed_empty) == (order == FEWER)
    copy(out[0], filled if filled_first else empty)
    copy(out[1], empty if filled_first else filled)


class _Dive:
    """A depth-first search from a grid that can be stopped and resumed (see :func:`search`).

    Parameters
    ----------
    net : Network
        The puzzle.
    start : numpy.ndarray
        The grid at the root (copied).
    order : int
        Which child to try first (:data:`LIKELIER`, :data:`FEWER` or :data:`MORE`).
    noise : float
        The noise of :func:`probe`'s branching choice (0: none).
    """

    def __init__(self, net: Network, start: Any, order: int, noise: float) -> None:
        self.net = net
        self.order = order
        self.noise = noise
        self.stack = [(start.copy(), Probes.fresh(net.height * net.width), 0, -1)]
        """Nodes to expand: grid, probes, depth and the cell decided to make the node (-1)."""
        self.conflict = -1
        """The last conflict: the cell whose decision made the last dead node (-1: none)."""
        self.last_conflict = False
        """Whether dead nodes set :attr:`conflict` (see :meth:`branching_cell`)."""
        self.resumable = False
        """Whether a node the budget interrupts goes back on the stack as it was, so that the
        search can go on later (elsewhere: :mod:`.split`); a copy of every node is then kept
        while it is expanded."""
        self.put_back = 0
        """How many interrupted nodes went back on the stack."""

    def advance(
        self, allowance: int, budget: Budget, found: list[Grid], max_solutions: int
    ) -> tuple[bool, Status | None]:
        """Expand up to ``allowance`` more nodes; solutions not in ``found`` are appended to it.

        Returns whether the search is settled (this tree exhausted, or ``max_solutions`` found)
        and the budget's stop status, if any.
        """
        net, stats = self.net, budget.stats
        size = (net.height, net.width)
        stack, weights = self.stack, net.work.conflicts
        while stack:
            stopped = budget.exhausted()
            if stopped or not allowance:
                return False, stopped
            allowance -= 1
            grid, probes, depth, decided = stack.pop()
            kept = (grid.copy(), probes.copy(), depth, decided) if self.resumable else None
            stats.expanded += 1
            weights *= _DECAY
            stats.depth = max(stats.depth, depth)
            cell = probe(
                grid, size, net.clues, net.work, net.counters, net.trials, probes.probed_at,
                probes.read, probes.score, probes.changed_at, noise=self.noise,
            )  # fmt: skip
            stopped = interrupted(net.counters, budget)
            if stopped:
                return False, self._put_back(kept, stopped)
            if cell == _DEAD:
                stats.backtracks += 1
                if self.last_conflict:
                    self.conflict = decided
            elif cell == _SOLVED:
                solution = net.decode(grid)
                if solution not in found:
                    found.append(solution)
                if len(found) >= max_solutions:
                    return True, None
            else:
                cell = self.branching_cell(grid, cell)
                kids = self._children(grid, cell, probes, depth + 1)
                stopped = interrupted(net.counters, budget)
                if stopped:
                    return False, self._put_back(kept, stopped)
                stack += kids
                stats.generated += 2
                stats.max_frontier = max(stats.max_frontier, len(stack))
        return True, None

    def _put_back(self, kept: Any, stopped: Status) -> Status:
        """Put an interrupted node back on the stack as it was before (when :attr:`resumable`);
        returns ``stopped``."""
        if kept is not None:
            self.stack.append(kept)
            self.put_back += 1
        return stopped

    def branching_cell(self, grid: Any, best: int) -> int:
        """The cell to branch on: the last conflict while it is undecided, else ``best``.

        Reasoning from the last conflict (Lecoutre, Saïs, Tabary & Vidal 2009, "Reasoning from
        last conflict(s) in constraint programming", *Artificial Intelligence* 173(18), §3):
        after a dead node the search branches on the cell that made it dead, at every node
        where that cell is undecided, until a decision on it survives. Backtracking past the
        culprit decision higher up is then found at once, as backjumping would.
        """
        if self.conflict >= 0 and _known(grid, self.conflict, self.net.width):
            self.conflict = -1
        return best if self.conflict < 0 else self.conflict

    def _children(self, grid: Any, cell: int, probes: Probes, depth: int) -> list[Any]:
        """Stack entries for the children of branching on ``cell``, the one to try first last."""
        net = self.net
        kids = np.empty((2, *grid.shape), np.uint64)
        size = (net.height, net.width)
        args = (net.clues, net.work, net.counters, net.trials, kids)
        children(grid, cell, size, *args, order=self.order)
        other = probes.copy()
        stamp(grid, kids[0], probes.changed_at, net.counters)
        stamp(grid, kids[1], other.changed_at, net.counters)
        return [(kids[1], other, depth, cell), (kids[0], probes, depth, cell)]


def luby(i: int) -> int:
    """The ``i``-th term (from 1) of the Luby sequence 1, 1, 2, 1, 1, 2, 4, 1, 1, 2, ...

    ``2**(k - 1)`` when ``i = 2**k - 1``, else the term ``i - 2**(k - 1) + 1`` for ``2**(k - 1)
    <= i < 2**k - 1``: the universal restart schedule of Luby, Sinclair & Zuckerman 1993,
    "Optimal speedup of Las Vegas algorithms", *Information Processing Letters* 47(4), §3.

    Raises
    ------
    ValueError
        When ``i < 1``.
    """
    if i < 1:
        raise ValueError(f"the Luby sequence starts at term 1, not {i}")
    while True:
        k = i.bit_length()  # 2**(k - 1) <= i < 2**k
        if i == (1 << k) - 1:
            return 1 << (k - 1)
        i -= (1 << (k - 1)) - 1


class _Restarts:
    """Randomized likelier-first searches, each started afresh from the root and cut after
    :data:`_RESTART_UNIT` times :func:`luby` of its number nodes (see :func:`search`).

    The search a round's allowance cuts short goes on in the next round. The conflict weights,
    kept in the network, carry over from one search to the next.

    Parameters
    ----------
    net : Network
        The puzzle.
    root : numpy.ndarray
        The grid every search starts from (copied by each).
    """

    def __init__(self, net: Network, root: Any, *, resumable: bool = False) -> None:
        self.net = net
        self.root = root
        self.resumable = resumable
        """Whether each search is resumable (see :attr:`_Dive.resumable`)."""
        self.started = 0
        """How many searches have been started."""
        self.last_conflict = False
        """Whether the searches reason from the last conflict (see :class:`_Dive`)."""
        self.dive, self.left = self._next()

    def _next(self) -> tuple[_Dive, int]:
        """A fresh randomized search and the nodes it is allowed."""
        self.started += 1
        dive = _Dive(self.net, self.root, LIKELIER, _NOISE)
        dive.resumable = self.resumable
        return dive, _RESTART_UNIT * luby(self.started)

    def advance(
        self, allowance: int, budget: Budget, found: list[Grid], max_solutions: int
    ) -> tuple[bool, Status | None]:
        """Expand up to ``allowance`` more nodes, restarting as the Luby sequence says; as
        :meth:`_Dive.advance`."""
        while allowance > 0:
            if self.left <= 0:
                self.dive, self.left = self._next()
            self.dive.last_conflict = self.last_conflict
            step = min(self.left, allowance)
            before = budget.stats.expanded
            settled, stopped = self.dive.advance(step, budget, found, max_solutions)
            used = budget.stats.expanded - before  # `step` unless settled or stopped
            self.left -= used
            allowance -= used
            if settled or stopped:
                return settled, stopped
        return False, None


class Portfolio:
    """The searches of :func:`search` sharing the work in doubling rounds, resumable.

    Round ``r`` allows :data:`_FIRST_RUN` ``* 2**r`` nodes to the likelier-first search, as many
    to the more-fixing-first search (both resumed) and as many to the randomized searches
    (:class:`_Restarts`), which draw their factors from numba's generator (:func:`_seed`).
    :meth:`advance` goes on where the last call stopped, so the portfolio can run in slices
    between other work (:mod:`.split` runs it beside the tasks of the split search).

    Parameters
    ----------
    net : Network
        The puzzle; the portfolio's searches use its work space and conflict weights.
    root : numpy.ndarray
        The grid at the root, propagated (copied by each search).
    resumable : bool
        Whether a node the budget interrupts goes back on its stack (see
        :attr:`_Dive.resumable`): for a portfolio run in slices.
    """

    def __init__(self, net: Network, root: Any, *, resumable: bool = False) -> None:
        likelier, more = _Dive(net, root, LIKELIER, 0.0), _Dive(net, root, MORE, 0.0)
        likelier.resumable = more.resumable = resumable
        self.searchers = (likelier, more, _Restarts(net, root, resumable=resumable))
        self.rounds = 0
        """Rounds started before the current one."""
        self.turn = 0
        """Which searcher has the work."""
        self.left = _FIRST_RUN
        """Nodes left to it in this round."""

    def advance(
        self, budget: Budget, found: list[Grid], max_solutions: int
    ) -> tuple[bool, Status | None]:
        """Search until the puzzle is settled or the budget stops the search; solutions not in
        ``found`` are appended to it.

        Returns whether the puzzle is settled (a search exhausted the whole tree, or
        ``max_solutions`` are in ``found``) and the budget's stop status, if any.
        """
        while True:
            searcher = self.searchers[self.turn]
            searcher.last_conflict = self.rounds >= _LAST_CONFLICT_ROUND
            before = budget.stats.expanded
            settled, stopped = searcher.advance(self.left, budget, found, max_solutions)
            self.left -= budget.stats.expanded - before
            if settled or stopped:
                return settled, stopped
            self.turn = (self.turn + 1) % len(self.searchers)
            self.rounds += self.turn == 0
            self.left = _FIRST_RUN << self.rounds


def search(
    net: Network, budget: Budget, *, max_solutions: int, seed: int = 0
) -> tuple[list[Grid], Status | None]:
    """Depth-first search with probing at every node, as a :class:`Portfolio` (see the module
    docstring) seeded with ``seed``.

    Returns
    -------
    solutions : list of Grid
        Up to ``max_solutions`` solutions, in the order found.
    stopped : Status or None
        ``LIMIT`` or ``CANCELLED`` when the budget stopped the search, else ``None``.
    """
    solutions: list[Grid] = []
    root = net.unknown()
    consistent = _propagate_all(net, root)
    stopped = interrupted(net.counters, budget)
    rounds = 0
    if consistent and not stopped:
        _seed(seed % 2**32)
        portfolio = Portfolio(net, root)
        _, stopped = portfolio.advance(budget, solutions, max_solutions)
        rounds = portfolio.rounds + 1
    add_counters(net, budget.stats)
    budget.stats.extra["rounds"] = rounds
    return solutions, stopped


def load_kernels(puzzle: Nonogram | None = None) -> None:
    """Load (or compile) the kernels a search of ``puzzle`` runs, before a run's clock starts:
    numba does it on first call.

    A puzzle with a line of over :data:`.lines.bits.MAX_CELLS` cells has kernels of their own,
    which hold the long-line solver (:class:`.propagation.Work`); ``None`` stands for the
    others. While :func:`cspsolve.compiling.eager` holds (a warm-up), both sets are loaded.
    """
    _load_kernels(puzzle is not None and has_long_lines(puzzle))
    if is_eager():
        _load_kernels(True)


@functools.cache
def _load_kernels(long_lines: bool) -> None:
    """Run every kernel once on two crossed diagonals (which need branching), in a grid of
    two rows and either two columns or enough for long rows."""
    width = MAX_CELLS + 1 if long_lines else 2
    puzzle = Nonogram(rows=((1,), (1,)), columns=((1,), (1,)) + ((),) * (width - 2))
    search(Network.build(puzzle), Limits().start(Stats()), max_solutions=2)


def solve_probing(
    puzzle: Nonogram, *, limits: Limits | None = None, max_solutions: int = 1, seed: int = 0
) -> Result[Grid]:
    """Solve a nonogram by depth-first search with probing (method ``"probing"``).

    Parameters
    ----------
    puzzle : Nonogram
        The clues.
    limits : Limits, optional
        The node limit is checked before each node; the time limit and cancellation also
        stop the kernels within a node, before their next line solve (:meth:`Budget.alarm`).
        One core whatever ``workers`` says (the split search is :func:`.split.solve_split`).
    max_solutions : int
        Stop after this many solutions: 1 to solve, 2 to decide uniqueness.
    seed : int
        Seeds the randomized searches of the portfolio (see :func:`search`). Every seed gives
        a correct answer, but a puzzle with several solutions may show another one first, and
        the node counts of hard puzzles vary with the seed
        (``python benchmarks/nonogram.py --parts seeds``).

    Returns
    -------
    Result of Grid
        As :meth:`cspsolve.results.Result.from_solutions`; ``stats.expanded`` counts probed
        nodes, ``propagations`` line solves, ``probes`` trials, ``backtracks`` dead nodes;
        ``stats.extra`` has ``line_cache_hits`` and ``rounds`` (of the portfolio, see
        :func:`search`); ``solutions`` lists every solution found.
    """
    load_kernels(puzzle)
    stats = Stats()
    budget = (limits or Limits()).start(stats)
    network = Network.build(puzzle)
    with budget.alarm(functools.partial(raise_stop, network.counters)):
        solutions, stopped = search(network, budget, max_solutions=max_solutions, seed=seed)
    found = Result.from_solutions(
        budget.finish(), "probing", solutions, max_solutions=max_solutions, stopped=stopped
    )
    found.solutions = solutions
    return found
