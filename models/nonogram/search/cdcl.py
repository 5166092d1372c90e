"""Conflict-driven clause learning over the line solver: the ``cdcl`` method.

The search of a CDCL SAT solver (Marques-Silva & Sakallah, "GRASP", *IEEE Trans. Computers*
48(5), 1999; Eén & Sörensson, "An extensible SAT-solver", *SAT 2003*, LNCS 2919) whose
propagators are the exact line solvers of :mod:`.propagation` rather than clauses: lazy clause
generation (Ohrimenko, Stuckey & Codish, "Propagation via lazy clause generation",
*Constraints* 14(3), 2009). The variables are the cells (a literal ``2 * cell + v`` says the
cell is filled, ``v = 1``, or empty, ``v = 0``); the clues are never written as clauses.

Propagation
    Clauses learnt so far, by two watched literals (Moskewicz, Madigan, Zhao, Zhang & Malik,
    "Chaff", *DAC 2001*), then the dirty lines one at a time, each narrowed by its line solver.
    A cell that the solve of line ``L`` decides has the reason "the cells of ``L`` decided
    before that solve": the line's naive explanation, read off the trail when a conflict
    needs it (a cell's trail position tells whether it came before), so that no reason clause
    is ever stored.
Conflicts
    A line with no fill left (its conflict clause: every decided cell of the line) or a learnt
    clause all false. Analysis to the first unique implication point, the learnt clause
    asserting its literal after a backjump; the cells met are bumped (VSIDS, Chaff) and the
    learnt clause keeps its literal block distance (LBD: Audemard & Simon, "Predicting
    learnt clauses quality in modern SAT solvers", *IJCAI 2009*).
Decisions
    The open cell of highest activity, set to its last value (phase saving: Pipatsrisawat &
    Darwiche, *SAT 2007*), empty at first.
Restarts and clause deletion
    The driver (:func:`solve_cdcl`) restarts after ``_RESTART_UNIT * luby(i)`` conflicts
    (:func:`.portfolio.luby`) and, at a restart, keeps learnt clauses of LBD at most
    :data:`_GLUE` and the better half of the others (:func:`reduce_clauses`).
Solutions
    A solution is every cell decided with every line consistent (each line was solved after its
    last cell was set). Asked for more, the search adds the clause "some decision differs"
    (another solution that took every decision would be propagated to the same grid) and goes
    on; the search ends when it is refuted at level 0, which proves the list complete.

Every working array is allocated by :class:`Learning` (the kernels run without numba's runtime,
see :func:`.._kernels.kernel`); when the clause store is full the kernel returns
:data:`NEED_SPACE` with its pending conflict kept, and the driver grows the store and calls it
again.
"""

from __future__ import annotations

import functools
from typing import Any, NamedTuple

import numpy as np

from cspsolve.compiling import is_eager
from cspsolve.limits import Budget, Limits
from cspsolve.results import Result, Stats, Status

from .._kernels import kernel, lowest_bit
from ..board import Grid, Nonogram
from ..lines.bits import MAX_CELLS
from .portfolio import luby
from .propagation import (
    STOP,
    Network,
    _assign,
    _bit,
    _decide,
    add_counters,
    enqueue,
    has_long_lines,
    interrupted,
    raise_stop,
    settle_line,
)

__all__ = [
    "NEED_SPACE",
    "SOLUTION",
    "Learning",
    "load_kernels",
    "reduce_clauses",
    "run",
    "solve_cdcl",
]

SOLUTION, REFUTED, NODE_LIMIT, STOPPED, RESTART, NEED_SPACE = range(6)
"""What :func:`run` returns: every cell decided; refuted at level 0 (no more solutions);
the decision limit reached; the stop flag raised; the restart due; the clause store full."""

(_TRAIL, _QHEAD, _LEVEL, _USED, _CLAUSES, _DECISIONS, _CONFLICTS, _LEARNT, _PENDING, _BLOCK) = (
    range(10)
)
"""Indices in :attr:`Learning.state`: trail size, next trail entry for the clauses, decision
level, arena cells used, clauses stored, decisions, conflicts, live learnt clauses, the conflict
waiting for analysis (-1: none), and whether a solution waits to be blocked."""

_DELETED, _KEPT = 1, 2
"""Clause flags: deleted (its watchers are dropped when met), and kept for good (a blocking
clause of :func:`_block`)."""

_GLUE = 2
"""Learnt clauses of LBD at most this are never deleted (glue clauses, Audemard & Simon)."""
_RESTART_UNIT = 100
"""Restart ``i`` comes ``_RESTART_UNIT * luby(i)`` conflicts after the one before."""
_FIRST_REDUCTION = 2000
"""Learnt clauses kept before the first deletion; the allowance grows by :data:`_GROWTH`."""
_GROWTH = 1.1
_DECAY = 0.95
"""Activities decay by this factor at every conflict (VSIDS, as MiniSat)."""
_LBD_CAP = 255
"""LBDs above this count as this when the deletion ranks clauses."""
_SLOTS, _ARENA = 1 << 12, 1 << 18
"""The clause store's first size: clause slots and arena literals (it doubles when full)."""


class Learning(NamedTuple):
    """The search's arrays, for ``N`` cells, ``C`` clause slots and an arena of ``A`` literals.

    Attributes
    ----------
    value, phase : numpy.ndarray of int8, shape (N,)
        Each cell's value (-1 open, 0 empty, 1 filled) and its saved phase.
    level, position : numpy.ndarray of int64, shape (N,)
        The decision level and trail position of each decided cell.
    why, since : numpy.ndarray of int64, shape (N,)
        A decided cell's reason: -1 for a decision (or any cell of level 0), a line index
        ``< H + W`` for a line solve that started when the trail had ``since`` cells, and
        ``H + W + c`` for clause ``c``.
    trail : numpy.ndarray of int64, shape (N,)
        The literals in the order they were set.
    bounds : numpy.ndarray of int64, shape (N + 1,)
        The trail size when each decision level began.
    activity : numpy.ndarray of float64, shape (N,)
        VSIDS activities; ``scale[0]`` is the current bump.
    seen : numpy.ndarray of uint8, shape (N,)
        Marks of the conflict analysis.
    learnt, levels : numpy.ndarray of int64, shape (N + 1,)
        The clause being learnt; stamps of the levels met (for its LBD).
    arena : numpy.ndarray of int64, shape (A,)
        Every clause's literals, one clause after another; the first two are watched.
    start, size, lbd : numpy.ndarray of int64, shape (C,)
        Each clause's first literal in ``arena``, its length and LBD.
    flags : numpy.ndarray of uint8, shape (C,)
        :data:`_DELETED`, :data:`_KEPT`.
    head, next : numpy.ndarray of int64, shapes (2 N,), (2 C,)
        Watch lists as linked lists: ``head[lit]`` is the first watcher of ``lit`` (-1: none),
        watcher ``2 c + k`` watches ``arena[start[c] + k]``, ``next`` links them.
    histogram : numpy.ndarray of int64, shape (_LBD_CAP + 1,)
        Scratch of :func:`reduce_clauses`.
    saved : numpy.ndarray of uint64, shape (2, words)
        A line's bit sets while :func:`_window` tries parts of it.
    state : numpy.ndarray of int64, shape (10,)
        The counters and positions listed at ``_TRAIL``.
    scale : numpy.ndarray of float64, shape (1,)
        The VSIDS bump.
    """

    value: Any
    phase: Any
    level: Any
    position: Any
    why: Any
    since: Any
    trail: Any
    bounds: Any
    activity: Any
    seen: Any
    learnt: Any
    levels: Any
    arena: Any
    start: Any
    size: Any
    lbd: Any
    flags: Any
    head: Any
    next: Any
    histogram: Any
    saved: Any
    state: Any
    scale: Any

    @classmethod
    def allocate(cls, cells: int, longest: int, clauses: int, arena: int) -> Learning:
        """The arrays of a search over ``cells`` cells, lines of up to ``longest``, nothing
        decided, room for ``clauses`` clauses of ``arena`` literals in all."""
        state = np.zeros(10, np.int64)
        state[_PENDING] = -1
        return cls(
            value=np.full(cells, -1, np.int8),
            phase=np.zeros(cells, np.int8),
            level=np.zeros(cells, np.int64),
            position=np.zeros(cells, np.int64),
            why=np.full(cells, -1, np.int64),
            since=np.zeros(cells, np.int64),
            trail=np.zeros(cells, np.int64),
            bounds=np.zeros(cells + 1, np.int64),
            activity=np.zeros(cells),
            seen=np.zeros(cells, np.uint8),
            learnt=np.zeros(cells + 1, np.int64),
            levels=np.full(cells + 1, -1, np.int64),
            arena=np.zeros(arena, np.int64),
            start=np.zeros(clauses, np.int64),
            size=np.zeros(clauses, np.int64),
            lbd=np.zeros(clauses, np.int64),
            flags=np.zeros(clauses, np.uint8),
            head=np.full(2 * cells, -1, np.int64),
            next=np.full(2 * clauses, -1, np.int64),
            histogram=np.zeros(_LBD_CAP + 1, np.int64),
            saved=np.zeros((2, (longest + 63) // 64), np.uint64),
            state=state,
            scale=np.ones(1),
        )

    def grown(self) -> Learning:
        """The same search with twice the clause slots and twice the arena."""

        def doubled(array: Any, fill: int = 0) -> Any:
            return np.concatenate([array, np.full(len(array), fill, array.dtype)])

        return self._replace(
            arena=doubled(self.arena),
            start=doubled(self.start),
            size=doubled(self.size),
            lbd=doubled(self.lbd),
            flags=doubled(self.flags),
            next=doubled(self.next, -1),
        )


@kernel(inline=True)
def _truth(value: Any, lit: int) -> int:
    """1 when ``lit`` holds, 0 when it is false, -1 while its cell is open."""
    v = value[lit >> 1]
    if v < 0:
        return -1
    return 1 if v == (lit & 1) else 0


@kernel(inline=True)
def _set(
    learning: Any, grid: Any, cell: int, v: int, why: int, since: int, line: int, height: int,
    width: int, work: Any,
) -> None:  # fmt: skip
    """Decide ``cell`` to ``v`` at the current level for reason ``why`` (see
    :class:`Learning`), in the grid's both views; its row and column are queued, but for
    ``line``, the line whose solve decided it (-1: none)."""
    state = learning.state
    learning.value[cell] = v
    learning.level[cell] = state[_LEVEL]
    learning.position[cell] = state[_TRAIL]
    learning.why[cell] = why
    learning.since[cell] = since
    learning.trail[state[_TRAIL]] = 2 * cell + v
    state[_TRAIL] += 1
    if line < 0:
        _assign(grid, cell, v, width, work)
        return
    row, col = cell // width, cell % width
    at = col if line < height else row
    _decide(grid, line, at >> 6, v, _bit(at), height, work.queue, work.queued, work.ends)


@kernel(inline=True)
def _unset(learning: Any, grid: Any, cell: int, height: int, width: int) -> None:
    """Open ``cell`` again, saving its value as its phase."""
    v = learning.value[cell]
    learning.phase[cell] = v
    learning.value[cell] = -1
    row, col = cell // width, cell % width
    grid[v, row, col >> 6] &= ~_bit(col)
    grid[v, height + col, row >> 6] &= ~_bit(row)


@kernel(inline=True)
def _clear_queue(work: Any) -> None:
    work.queued[:] = 0
    work.ends[:] = 0


@kernel()
def _backjump(learning: Any, grid: Any, level: int, height: int, width: int, work: Any) -> None:
    """Undo every decision level above ``level``."""
    state = learning.state
    if state[_LEVEL] <= level:
        return
    bottom = learning.bounds[level]
    for t in range(state[_TRAIL] - 1, bottom - 1, -1):
        _unset(learning, grid, learning.trail[t] >> 1, height, width)
    state[_TRAIL] = bottom
    state[_QHEAD] = bottom
    state[_LEVEL] = level
    _clear_queue(work)


@kernel(inline=True)
def _unlink(learning: Any, lit: int, previous: int, watcher: int, following: int) -> None:
    """Take ``watcher`` out of ``lit``'s list (``previous`` before it, -1 at the head)."""
    if previous < 0:
        learning.head[lit] = following
    else:
        learning.next[previous] = following
    learning.next[watcher] = -1


@kernel(inline=True)
def _watch(learning: Any, lit: int, watcher: int) -> None:
    learning.next[watcher] = learning.head[lit]
    learning.head[lit] = watcher


@kernel()
def _falsified(learning: Any, grid: Any, false: int, height: int, width: int, work: Any) -> int:
    """Visit the clauses watching literal ``false``, now false: each finds another literal to
    watch, or sets its other watched literal, or is in conflict. Returns the conflicting
    clause, or -1."""
    value, arena = learning.value, learning.arena
    lines = height + width
    previous, watcher = -1, learning.head[false]
    while watcher >= 0:
        following = learning.next[watcher]
        clause, k = watcher >> 1, watcher & 1
        if learning.flags[clause] & _DELETED:
            _unlink(learning, false, previous, watcher, following)
            watcher = following
            continue
        first = learning.start[clause]
        other = arena[first + 1 - k]
        if _truth(value, other) == 1:
            previous, watcher = watcher, following
            continue
        moved = False
        for j in range(first + 2, first + learning.size[clause]):
            lit = arena[j]
            if _truth(value, lit) != 0:
                arena[j] = arena[first + k]
                arena[first + k] = lit
                _unlink(learning, false, previous, watcher, following)
                _watch(learning, lit, watcher)
                moved = True
                break
        if moved:
            watcher = following
            continue
        if _truth(value, other) == 0:
            return int(clause)
        _set(learning, grid, other >> 1, other & 1, lines + clause, 0, -1, height, width, work)
        previous, watcher = watcher, following
    return -1


@kernel()
def _propagate(
    learning: Any, grid: Any, height: int, width: int, clues: Any, work: Any, counters: Any
) -> int:
    """Clauses, then one dirty line, until nothing is left to do. Returns -1 at the fixpoint,
    -2 when the stop flag is up, a line index for a line in conflict, ``H + W + c`` for a
    clause ``c`` in conflict."""
    state, narrowed = learning.state, work.narrowed
    lines = height + width
    while True:
        while state[_QHEAD] < state[_TRAIL]:
            lit = learning.trail[state[_QHEAD]]
            state[_QHEAD] += 1
            clause = _falsified(learning, grid, lit ^ 1, height, width, work)
            if clause >= 0:
                _clear_queue(work)
                return lines + clause
        ends = work.ends
        if ends[1] == 0:
            return -1
        if counters[STOP]:
            _clear_queue(work)
            return -2
        line = work.queue[ends[0]]
        ends[0] = ends[0] + 1 if ends[0] + 1 < lines else 0
        ends[1] -= 1
        work.queued[line] = 0
        n = width if line < height else height
        if not settle_line(grid, line, n, clues, work, counters):
            _clear_queue(work)
            return int(line)
        since = state[_TRAIL]
        for w in range((n + 63) >> 6):
            for plane in range(2):
                new = narrowed[plane, w] & ~grid[plane, line, w]
                while new:
                    i = w * 64 + lowest_bit(new)
                    new &= new - np.uint64(1)
                    cell = _line_cell(line, i, height, width)
                    _set(learning, grid, cell, plane, line, since, line, height, width, work)


@kernel(inline=True)
def _bump(learning: Any, cell: int) -> None:
    activity, scale = learning.activity, learning.scale
    activity[cell] += scale[0]
    if activity[cell] > 1e100:
        for other in range(activity.shape[0]):
            activity[other] *= 1e-100
        scale[0] *= 1e-100


@kernel(inline=True)
def _meet(learning: Any, cell: int, pending: int, size: int) -> tuple[int, int]:
    """Mark ``cell`` as met by the analysis: one more cell of the conflict's level still to
    resolve (``pending``), or its negation added to the learnt clause (``size`` so far)."""
    if learning.seen[cell] or learning.level[cell] == 0:
        return pending, size
    learning.seen[cell] = 1
    _bump(learning, cell)
    if learning.level[cell] == learning.state[_LEVEL]:
        return pending + 1, size
    learning.learnt[size] = 2 * cell + 1 - learning.value[cell]
    return pending, size + 1


@kernel(inline=True)
def _line_cell(line: int, i: int, height: int, width: int) -> int:
    """The cell at position ``i`` of line ``line``."""
    return line * width + i if line < height else i * width + line - height


@kernel(inline=True)
def _holds(
    learning: Any, grid: Any, line: int, n: int, bound: int, lo: int, hi: int, target: int,
    clues: Any, work: Any, counters: Any, height: int, width: int,
) -> bool:  # fmt: skip
    """Whether the cells of ``line`` at positions ``lo .. hi`` decided before trail position
    ``bound`` alone make the line solver decide the cell at position ``target`` as it is now
    (or, ``target`` -1, find the line contradictory). Writes the line's row of ``grid``
    (:func:`_window` restores it)."""
    words = (n + 63) >> 6
    for w in range(words):
        grid[0, line, w] = np.uint64(0)
        grid[1, line, w] = np.uint64(0)
    for i in range(max(lo, 0), hi + 1):
        cell = _line_cell(line, i, height, width)
        v = learning.value[cell]
        if v >= 0 and learning.position[cell] < bound:
            grid[v, line, i >> 6] |= _bit(i)
    if not settle_line(grid, line, n, clues, work, counters):
        return True
    if target < 0:
        return False
    v = learning.value[_line_cell(line, target, height, width)]
    return bool(work.narrowed[v, target >> 6] & _bit(target))


@kernel()
def _window(
    learning: Any, grid: Any, line: int, bound: int, target: int, clues: Any, work: Any,
    counters: Any, height: int, width: int,
) -> tuple[int, int]:  # fmt: skip
    """The narrowest positions ``lo .. hi`` of ``line`` whose cells decided before trail
    position ``bound`` still decide the cell at position ``target`` (-1: still contradict):
    the line's explanation, cut down from all of its decided cells. The line solver is
    monotone (more decided cells decide more), so ``hi`` is found by bisection with ``lo = 0``,
    then ``lo`` by bisection below ``hi``; ``2 log2 n`` line solves."""
    n = width if line < height else height
    saved = learning.saved
    for w in range((n + 63) >> 6):
        saved[0, w] = grid[0, line, w]
        saved[1, w] = grid[1, line, w]
    low, high = -1, n - 1  # holds(0, high); not holds(0, low)
    while high - low > 1:
        middle = (low + high) // 2
        if _holds(learning, grid, line, n, bound, 0, middle, target, clues, work, counters,
                  height, width):  # fmt: skip
            high = middle
        else:
            low = middle
    hi = high
    low, high = 0, hi + 1  # holds(low, hi); not holds(high, hi)
    while high - low > 1:
        middle = (low + high) // 2
        if _holds(learning, grid, line, n, bound, middle, hi, target, clues, work, counters,
                  height, width):  # fmt: skip
            low = middle
        else:
            high = middle
    for w in range((n + 63) >> 6):
        grid[0, line, w] = saved[0, w]
        grid[1, line, w] = saved[1, w]
    return low, hi


@kernel(inline=True)
def _meet_reason(
    learning: Any, grid: Any, reason: int, bound: int, skip: int, pending: int, size: int,
    clues: Any, work: Any, counters: Any, height: int, width: int,
) -> tuple[int, int]:  # fmt: skip
    """:func:`_meet` every cell of a reason other than ``skip``: for a line, its cells decided
    before trail position ``bound`` within its explanation window (:func:`_window`; ``skip``
    -1 for a line in conflict), for a clause, its cells."""
    lines = height + width
    if reason < lines:
        target = -1
        if skip >= 0:
            target = skip % width if reason < height else skip // width
        lo, hi = _window(
            learning, grid, reason, bound, target, clues, work, counters, height, width
        )
        for i in range(lo, hi + 1):
            cell = _line_cell(reason, i, height, width)
            if learning.value[cell] >= 0 and learning.position[cell] < bound:
                pending, size = _meet(learning, cell, pending, size)
        return pending, size
    clause = reason - lines
    first = learning.start[clause]
    for j in range(first, first + learning.size[clause]):
        cell = learning.arena[j] >> 1
        if cell != skip:
            pending, size = _meet(learning, cell, pending, size)
    return pending, size


@kernel()
def _analyse(
    learning: Any, grid: Any, conflict: int, clues: Any, work: Any, counters: Any, height: int,
    width: int,
) -> int:  # fmt: skip
    """First-UIP analysis of ``conflict`` (as :func:`_propagate` returns it): the learnt
    clause in ``learning.learnt``, its asserting literal first and a literal of the backjump
    level second. Returns its length."""
    state, trail = learning.state, learning.trail
    pending, size = _meet_reason(
        learning, grid, conflict, state[_TRAIL], -1, 0, 1, clues, work, counters, height, width
    )
    t = state[_TRAIL] - 1
    while True:
        while not learning.seen[trail[t] >> 1]:
            t -= 1
        cell = trail[t] >> 1
        t -= 1
        learning.seen[cell] = 0
        pending -= 1
        if pending == 0:
            learning.learnt[0] = 2 * cell + 1 - learning.value[cell]
            break
        why = learning.why[cell]
        pending, size = _meet_reason(
            learning, grid, why, learning.since[cell], cell, pending, size, clues, work,
            counters, height, width,
        )  # fmt: skip
    highest = 1
    for j in range(1, size):
        learning.seen[learning.learnt[j] >> 1] = 0
        if learning.level[learning.learnt[j] >> 1] > learning.level[learning.learnt[highest] >> 1]:
            highest = j
    if size > 1:
        learning.learnt[1], learning.learnt[highest] = learning.learnt[highest], learning.learnt[1]
    learning.scale[0] /= _DECAY
    return size


@kernel(inline=True)
def _lbd(learning: Any, size: int) -> int:
    """The number of decision levels among the learnt clause's literals."""
    stamp = learning.state[_CONFLICTS]
    count = 0
    for j in range(size):
        level = learning.level[learning.learnt[j] >> 1]
        if learning.levels[level] != stamp:
            learning.levels[level] = stamp
            count += 1
    return count


@kernel(inline=True)
def _store(learning: Any, size: int, lbd: int, flags: int) -> int:
    """Add the clause in ``learning.learnt`` to the store, watched on its first two literals;
    returns its number."""
    state = learning.state
    clause, first = state[_CLAUSES], state[_USED]
    for j in range(size):
        learning.arena[first + j] = learning.learnt[j]
    learning.start[clause] = first
    learning.size[clause] = size
    learning.lbd[clause] = lbd
    learning.flags[clause] = flags
    _watch(learning, learning.learnt[0], 2 * clause)
    _watch(learning, learning.learnt[1], 2 * clause + 1)
    state[_CLAUSES] += 1
    state[_USED] += size
    return int(clause)


@kernel(inline=True)
def _assert(
    learning: Any, grid: Any, size: int, lbd: int, flags: int, height: int, width: int,
    work: Any,
) -> None:  # fmt: skip
    """Backjump to the level of the clause in ``learning.learnt`` (its second literal's, 0 for
    one literal), store it, and set its first literal."""
    lit = learning.learnt[0]
    if size == 1:
        _backjump(learning, grid, 0, height, width, work)
        _set(learning, grid, lit >> 1, lit & 1, -1, 0, -1, height, width, work)
        return
    _backjump(learning, grid, learning.level[learning.learnt[1] >> 1], height, width, work)
    clause = _store(learning, size, lbd, flags)
    if not flags & _KEPT:
        learning.state[_LEARNT] += 1
    why = height + width + clause
    _set(learning, grid, lit >> 1, lit & 1, why, 0, -1, height, width, work)


@kernel(inline=True)
def _has_room(learning: Any) -> bool:
    """Whether the store takes one more clause of any length."""
    state = learning.state
    cells = learning.value.shape[0]
    return bool(
        state[_CLAUSES] < learning.start.shape[0]
        and state[_USED] + cells + 1 <= learning.arena.shape[0]
    )


@kernel(inline=True)
def _block(learning: Any, grid: Any, height: int, width: int, work: Any) -> bool:
    """After a solution, add the clause "some decision differs", kept for good, and set its
    literal. Returns False when the solution took no decision: there is no other."""
    levels = learning.state[_LEVEL]
    if levels == 0:
        return False
    for j in range(levels):
        learning.learnt[j] = learning.trail[learning.bounds[levels - 1 - j]] ^ 1
    _assert(learning, grid, levels, levels, _KEPT, height, width, work)
    return True


@kernel(inline=True)
def _pick(learning: Any) -> int:
    """The open cell of highest activity (the first such), or -1 when none is open."""
    best, most = -1, -1.0
    value, activity = learning.value, learning.activity
    for cell in range(value.shape[0]):
        if value[cell] < 0 and activity[cell] > most:
            best, most = cell, activity[cell]
    return best


@kernel()
def run(
    grid: Any, height: int, width: int, clues: Any, work: Any, counters: Any, learning: Any,
    max_decisions: int, restart_at: int,
) -> int:  # fmt: skip
    """Search on from where the last call stopped, until one of the outcomes of
    :data:`SOLUTION`.

    Parameters
    ----------
    grid : numpy.ndarray of uint64, shape (2, H + W, words)
        The grid of :class:`.propagation.Network`, with the learning's decided cells.
    height, width, clues, work, counters
        As :func:`.propagation.propagate`; the first call finds every line queued.
    learning : Learning
        The search's arrays, left as they are for the next call.
    max_decisions : int
        Decisions allowed in all (:data:`NODE_LIMIT` when reached).
    restart_at : int
        The conflict count at which to restart (:data:`RESTART`, at level 0).

    Returns
    -------
    int
        :data:`SOLUTION` (``learning.value`` is the grid; set ``state[_BLOCK]`` before the
        next call for the next solution), :data:`REFUTED`, :data:`NODE_LIMIT`,
        :data:`STOPPED`, :data:`RESTART` or :data:`NEED_SPACE`.
    """
    state = learning.state
    while True:
        if state[_BLOCK]:
            if not _has_room(learning):
                return NEED_SPACE
            state[_BLOCK] = 0
            if not _block(learning, grid, height, width, work):
                return REFUTED
        if state[_PENDING] >= 0:
            if not _has_room(learning):
                return NEED_SPACE
            size = _analyse(learning, grid, state[_PENDING], clues, work, counters, height, width)
            lbd = _lbd(learning, size)
            state[_PENDING] = -1
            _assert(learning, grid, size, lbd, 0, height, width, work)
        conflict = _propagate(learning, grid, height, width, clues, work, counters)
        if conflict == -2:
            return STOPPED
        if conflict >= 0:
            state[_CONFLICTS] += 1
            if state[_LEVEL] == 0:
                return REFUTED
            state[_PENDING] = conflict
            continue
        if counters[STOP]:
            return STOPPED
        if state[_CONFLICTS] >= restart_at:
            _backjump(learning, grid, 0, height, width, work)
            return RESTART
        cell = _pick(learning)
        if cell < 0:
            return SOLUTION
        if state[_DECISIONS] >= max_decisions:
            return NODE_LIMIT
        state[_DECISIONS] += 1
        learning.bounds[state[_LEVEL]] = state[_TRAIL]
        state[_LEVEL] += 1
        _set(learning, grid, cell, learning.phase[cell], -1, 0, -1, height, width, work)


@kernel()
def reduce_clauses(learning: Any, allowed: int) -> None:
    """At level 0, after propagation: delete learnt clauses down to about half of ``allowed``,
    worst LBD first (older first among equals), never a glue or kept clause; then drop the
    literals false at level 0 and the clauses true there, compact the store and rebuild the
    watch lists. Every clause left has two open literals to watch (propagation at level 0 left
    no clause unit)."""
    state, histogram = learning.state, learning.histogram
    histogram[:] = 0
    for clause in range(state[_CLAUSES]):
        if _deletable(learning, clause):
            histogram[min(learning.lbd[clause], _LBD_CAP)] += 1
    excess = state[_LEARNT] - allowed // 2
    threshold, at_threshold = _LBD_CAP + 1, 0
    while excess > 0 and threshold > _GLUE + 1:
        threshold -= 1
        at_threshold = min(histogram[threshold], excess)
        excess -= histogram[threshold]
    for clause in range(state[_CLAUSES]):
        if not _deletable(learning, clause):
            continue
        lbd = min(learning.lbd[clause], _LBD_CAP)
        if lbd > threshold or (lbd == threshold and at_threshold > 0):
            if lbd == threshold:
                at_threshold -= 1
            learning.flags[clause] |= _DELETED
    _compact(learning)


@kernel(inline=True)
def _deletable(learning: Any, clause: int) -> bool:
    return not learning.flags[clause] & (_DELETED | _KEPT) and learning.lbd[clause] > _GLUE


@kernel()
def _compact(learning: Any) -> None:
    """Rewrite the store without deleted clauses, false literals and true clauses (at level
    0), watched on their first two literals."""
    state, arena, value = learning.state, learning.arena, learning.value
    learning.head[:] = -1
    clauses, used, learnt = 0, 0, 0
    for clause in range(state[_CLAUSES]):
        if learning.flags[clause] & _DELETED:
            continue
        first, size = learning.start[clause], learning.size[clause]
        kept, satisfied = 0, False
        for j in range(first, first + size):
            truth = _truth(value, arena[j])
            if truth == 1:
                satisfied = True
                break
            if truth < 0:
                arena[used + kept] = arena[j]
                kept += 1
        if satisfied:
            continue
        learning.start[clauses] = used
        learning.size[clauses] = kept
        learning.lbd[clauses] = learning.lbd[clause]
        learning.flags[clauses] = learning.flags[clause]
        _watch(learning, arena[used], 2 * clauses)
        _watch(learning, arena[used + 1], 2 * clauses + 1)
        if not learning.flags[clauses] & _KEPT:
            learnt += 1
        clauses += 1
        used += kept
    state[_CLAUSES], state[_USED], state[_LEARNT] = clauses, used, learnt


def load_kernels(puzzle: Nonogram | None = None) -> None:
    """Load (or compile) the kernels a search of ``puzzle`` runs, before a run's clock starts,
    as :func:`.portfolio.load_kernels` does (a set for puzzles with lines of over
    :data:`.lines.bits.MAX_CELLS` cells, one for the others; both while
    :func:`cspsolve.compiling.eager` holds)."""
    _load_kernels(puzzle is not None and has_long_lines(puzzle))
    if is_eager():
        _load_kernels(True)


@functools.cache
def _load_kernels(long_lines: bool) -> None:
    """Search two crossed diagonals (two solutions: a decision, a blocking clause), in a grid
    of two rows and two columns or enough for long rows, then run the clause deletion on an
    empty store (its kernel is called between searches, so the search does not compile it)."""
    width = MAX_CELLS + 1 if long_lines else 2
    puzzle = Nonogram(rows=((1,), (1,)), columns=((1,), (1,)) + ((),) * (width - 2))
    _search(puzzle, Limits().start(Stats()), 2)
    reduce_clauses(Learning.allocate(1, 1, 1, 1), 0)


def _decoded(learning: Learning, height: int, width: int) -> Grid:
    """The grid of a solution (every cell decided)."""
    rows = learning.value.reshape(height, width)
    return tuple("".join("#" if v else "." for v in row) for row in rows)


class _Run(NamedTuple):
    """What :func:`_search` found: the solutions, why it stopped early (None: it did not),
    and its learning's last state."""

    solutions: list[Grid]
    stopped: Status | None
    learning: Learning
    restarts: int


def _search(puzzle: Nonogram, budget: Budget, max_solutions: int) -> _Run:
    """Search ``puzzle`` (see the module docstring) until ``max_solutions`` solutions, the
    refutation of any more, or a limit; line solves and cache hits go to ``budget.stats``."""
    net = Network.build(puzzle)
    grid = net.unknown()
    cells = puzzle.height * puzzle.width
    learning = Learning.allocate(cells, max(puzzle.height, puzzle.width), _SLOTS, _ARENA)
    work = net.work
    for line in range(puzzle.height + puzzle.width):
        enqueue(line, work.queue, work.queued, work.ends)
    step = functools.partial(run, grid, puzzle.height, puzzle.width, net.clues, work, net.counters)
    left = budget.nodes_left()
    max_decisions = 2**62 if left is None else left
    solutions: list[Grid] = []
    restarts, allowed, restart_at = 0, _FIRST_REDUCTION, _RESTART_UNIT
    stopped = budget.interrupted()
    with budget.alarm(functools.partial(raise_stop, net.counters)):
        while stopped is None:
            outcome = step(learning, max_decisions, restart_at)
            budget.stats.expanded = int(learning.state[_DECISIONS])
            if outcome == SOLUTION:
                solutions.append(_decoded(learning, puzzle.height, puzzle.width))
                if len(solutions) >= max_solutions:
                    break
                learning.state[_BLOCK] = 1
            elif outcome == REFUTED:
                break
            elif outcome == NEED_SPACE:
                learning = learning.grown()
            elif outcome == RESTART:
                restarts += 1
                restart_at = int(learning.state[_CONFLICTS]) + _RESTART_UNIT * luby(restarts + 1)
                if learning.state[_LEARNT] > allowed:
                    reduce_clauses(learning, allowed)
                    allowed = int(allowed * _GROWTH)
            elif outcome == NODE_LIMIT:
                stopped = Status.LIMIT
            else:
                stopped = interrupted(net.counters, budget) or Status.LIMIT
    add_counters(net, budget.stats)
    return _Run(solutions, stopped, learning, restarts)


def solve_cdcl(
    puzzle: Nonogram, *, limits: Limits | None = None, max_solutions: int = 1
) -> Result[Grid]:
    """Solve a nonogram by clause learning over the line solver (method ``"cdcl"``; see the
    module docstring).

    Parameters
    ----------
    puzzle : Nonogram
        The clues.
    limits : Limits, optional
        The node limit counts decisions; the time limit and cancellation stop the kernel
        before its next line solve or decision (:meth:`Budget.alarm`).
    max_solutions : int
        Stop after this many solutions: 1 to solve, 2 to decide uniqueness.

    Returns
    -------
    Result of Grid
        As :meth:`cspsolve.results.Result.from_solutions`; ``stats.expanded`` counts
        decisions, ``propagations`` line solves (explanations included), ``backtracks``
        conflicts; ``stats.extra`` has ``restarts``, ``clauses`` (learnt and blocking clauses
        held at the end) and ``line_cache_hits``; ``solutions`` lists every solution found.
    """
    load_kernels(puzzle)
    stats = Stats()
    budget = (limits or Limits()).start(stats)
    found = _search(puzzle, budget, max_solutions)
    stats.backtracks = int(found.learning.state[_CONFLICTS])
    stats.extra["restarts"] = found.restarts
    stats.extra["clauses"] = int(found.learning.state[_CLAUSES])
    result = Result.from_solutions(
        budget.finish(), "cdcl", found.solutions, max_solutions=max_solutions,
        stopped=found.stopped,
    )  # fmt: skip
    result.solutions = found.solutions
    return result
