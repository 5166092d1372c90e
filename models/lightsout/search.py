"""Lights Out as a state-space search, with admissible and consistent heuristics.

The model (*fixed press order*): presses commute and pressing a cell twice undoes it, so a
plan needs to decide each cell once, press or not. The cells are decided in a fixed order —
row by row, or column by column when the board is wider than tall, so that the first line
decided is the shorter one; node order for graphs. A state is ``(lights, k)``: the lights as a
packed int and the position in that order of the next cell to decide. From ``(lights, k)``
the actions are *skip* (cost 0) and *press* (cost 1, toggling the cell's lights); a goal is any
state with every light off (the undecided cells are then skipped). A child is pruned when a
light that no later cell can toggle is left on — on a plain grid this makes every cell after
the first line forced (light chasing), so at most ``2**width · cells`` states are reachable,
against ``2**cells`` in the naive model where any cell may be pressed in any state.

The cheapest path cost is the minimum number of presses, so A* and IDA* with an admissible
heuristic return proven minima. Heuristics (both admissible and consistent, since one press
lowers each by at most 1 and a skip changes nothing):

``packing``
    Lights are split greedily into *families* in which no two lights share a toggling cell
    (on a sigma-plus grid: the cells ``(r, c)`` with ``r + 2c ≡ i (mod 5)``, whose closed
    neighbourhoods tile the plane). Each lit light of a family needs its own press, so
    ``max_i |lit ∩ F_i|`` presses are needed. It is never below ``lit``'s bound (the families
    partition the lights). Default.
``lit``
    ``⌈lit / k⌉`` with ``k`` the most lights one press toggles (5 on a sigma-plus grid, 4 on sigma).

The oldest example this project grew from counted the lit cells of all but the last row and
called it admissible; it is not (one press can clear four lights), so it is not offered.
Sources: Russell & Norvig, *Artificial Intelligence: A Modern Approach*, 4th ed., §3.6
(admissible and consistent heuristics; the max of consistent heuristics is consistent).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from functools import lru_cache
from typing import Any

from cspsolve.errors import OptionError
from cspsolve.limits import Limits
from cspsolve.results import Result, Stats
from cspsolve.searches import ALGORITHMS, Search

from .board import LightsOut, Presses, bits, unflatten
from .budget import LimitError, Tick, never, ticker

__all__ = [
    "HEURISTICS",
    "METHODS",
    "Action",
    "PressOrder",
    "State",
    "heuristic",
    "searched",
    "solve",
]

State = tuple[int, int]
"""``(lights, k)``: lit cells as a flat int, position of the next cell to decide."""

Action = tuple[int, bool]
"""``(cell, pressed)``: the flat index of the cell decided and whether it is pressed."""

METHODS = ("astar", "idastar")
HEURISTICS = ("packing", "lit")

TICK_CELLS = 4096
"""Cells set up between two calls of the tick (a few milliseconds of work)."""

CACHED_MASKS = 4096
"""Toggle masks kept between expansions (a mask is as large as the board)."""


def _toggled(puzzle: LightsOut, cell: int) -> list[int]:
    """The lights an enabled cell toggles (flat indices); by symmetry also the cells that
    toggle its light."""
    own = [cell] if puzzle.variant == "sigma-plus" else []
    return own + list(puzzle.neighbours(cell))


def _mask(cells: Sequence[int], size: int) -> int:
    """The flat int with the bits ``cells`` set (O(size), not O(size) per bit)."""
    raw = bytearray((size + 7) // 8)
    for j in cells:
        raw[j >> 3] |= 1 << (j & 7)
    return int.from_bytes(raw, "little")


def _ticked(items: Sequence[int], tick: Tick) -> Iterator[tuple[int, int]]:
    """``enumerate(items)``, calling ``tick`` every :data:`TICK_CELLS` items."""
    for k, item in enumerate(items):
        if k % TICK_CELLS == 0:
            tick()
        yield k, item


def _enabled(puzzle: LightsOut, tick: Tick, *, by_column: bool = False) -> list[int]:
    """The enabled cells (flat indices), row by row or column by column; ``tick`` is called
    before each line."""
    if not puzzle.is_grid:
        tick()
        return bits(puzzle.enabled)
    rows, cols = puzzle.rows, puzzle.cols
    lines = (
        (range(c, rows * cols, cols) for c in range(cols))
        if by_column
        else (range(r * cols, (r + 1) * cols) for r in range(rows))
    )
    out: list[int] = []
    for line in lines:
        tick()
        out.extend(line if not puzzle.holes else (i for i in line if puzzle.usable(i)))
    return out


class PressOrder:
    """The fixed-press-order search problem of a board (see the module docstring).

    Parameters
    ----------
    puzzle : LightsOut
        Any board.
    tick : callable, optional
        Called every :data:`TICK_CELLS` cells while setting up (O(cells) Python steps,
        seconds on a million cells); it may raise :class:`.budget.LimitError` to stop.

    Attributes
    ----------
    order : tuple of int
        The enabled cells (flat indices) in the order they are decided.
    due : tuple of tuple of int
        ``due[k]``: the lights that no cell after position ``k`` toggles and some cell up to
        ``k`` does (with, at ``k = 0``, the lights no cell toggles): they must be off once
        position ``k`` is decided. Toggle masks are made when needed (one is as large as the
        board), the last :data:`CACHED_MASKS` of them kept.
    """

    def __init__(self, puzzle: LightsOut, tick: Tick = never) -> None:
        self.puzzle = puzzle
        self.order = tuple(_enabled(puzzle, tick, by_column=puzzle.cols > puzzle.rows))
        last: dict[int, int] = {}
        for k, cell in _ticked(self.order, tick):
            for light in _toggled(puzzle, cell):
                last[light] = k
        due: list[list[int]] = [[] for _ in self.order]
        for _, light in _ticked(self.order, tick):
            due[last.get(light, 0)].append(light)
        self.due = tuple(tuple(lights) for lights in due)
        self.mask = lru_cache(maxsize=CACHED_MASKS)(self._mask)

    def _mask(self, k: int) -> int:
        """The lights that pressing the cell at position ``k`` toggles."""
        return self.puzzle.toggles(self.order[k])

    @property
    def initial(self) -> State:
        """The board's lights, nothing decided."""
        return (self.puzzle.flat, 0)

    def is_goal(self, state: State) -> bool:
        """Every light off."""
        return state[0] == 0

    def _strands(self, lights: int, k: int) -> bool:
        """Whether a light due at position ``k`` is left on."""
        return any(lights >> j & 1 for j in self.due[k])

    def successors(self, state: State) -> Iterator[tuple[Action, State, int]]:
        """Skip (cost 0) or press (cost 1) the next cell, unless it strands a lit light."""
        lights, k = state
        if k == len(self.order):
            return
        cell = self.order[k]
        if not self._strands(lights, k):
            yield (cell, False), (lights, k + 1), 0
        pressed = lights ^ self.mask(k)
        if not self._strands(pressed, k):
            yield (cell, True), (pressed, k + 1), 1

    def actions(self, state: State) -> Iterator[Action]:
        """The actions of :meth:`successors`."""
        return (action for action, _, _ in self.successors(state))

    def result(self, state: State, action: Action) -> State:
        """The state after ``action`` (which must be the next cell's)."""
        lights, k = state
        return (lights ^ self.mask(k) if action[1] else lights, k + 1)

    def cost(self, state: State, action: Action, next_state: State) -> int:
        """1 for a press, 0 for a skip."""
        return 1 if action[1] else 0

    def presses(self, plan: list[Action]) -> Presses:
        """The press set of a plan."""
        flat = _mask([cell for cell, pressed in plan if pressed], self.puzzle.cells)
        return unflatten(flat, rows=self.puzzle.rows, cols=self.puzzle.cols)


def families(puzzle: LightsOut, tick: Tick = never) -> list[int]:
    """Greedy split of the enabled lights into families with no toggling cell in common.

    Each light, in flat order, joins the first family none of whose lights shares a
    toggling cell with it (a new family if there is none). ``tick`` is called every
    :data:`TICK_CELLS` lights.

    Returns
    -------
    list of int
        Each family as a flat mask of lights; together they partition the enabled cells.
    """
    members: list[list[int]] = []
    users: dict[int, int] = {}  # cell -> bit f set when the cell toggles a light of family f
    for _, light in _ticked(_enabled(puzzle, tick), tick):
        togglers = _toggled(puzzle, light)  # symmetric toggle matrix
        blocked = 0
        for cell in togglers:
            blocked |= users.get(cell, 0)
        f = (~blocked & (blocked + 1)).bit_length() - 1  # the lowest family not blocked
        if f == len(members):
            members.append([])
        members[f].append(light)
        for cell in togglers:
            users[cell] = users.get(cell, 0) | 1 << f
    return [_mask(lights, puzzle.cells) for lights in members]


def heuristic(puzzle: LightsOut, name: str, tick: Tick = never) -> Callable[[State], float]:
    """The heuristic ``name`` (from :data:`HEURISTICS`) for ``puzzle``; its ``__name__`` is
    ``name``. ``tick`` is called every :data:`TICK_CELLS` cells while setting it up.

    Raises
    ------
    OptionError
        For an unknown name.
    """
    if name == "lit":
        most = 1
        for _, cell in _ticked(_enabled(puzzle, tick), tick):
            most = max(most, len(_toggled(puzzle, cell)))

        def lit(state: State) -> float:
            return float(-(-state[0].bit_count() // most))

        return lit
    if name == "packing":
        groups = families(puzzle, tick)

        def packing(state: State) -> float:
            lights = state[0]
            return float(max((lights & f).bit_count() for f in groups)) if lights else 0.0

        return packing
    raise OptionError(f"unknown heuristic {name!r}; choose from {', '.join(HEURISTICS)}")


def solve(
    puzzle: LightsOut,
    *,
    method: str = "astar",
    name: str = "packing",
    limits: Limits | None = None,
) -> Result[Presses]:
    """Fewest presses by A* or IDA* on the fixed-press-order model (:func:`searched`).

    Returns
    -------
    Result
        ``optimal`` with the press set (both heuristics are admissible), ``unsolvable`` when
        the space is exhausted, else ``limit``/``cancelled``. ``stats.cost`` is the number of
        presses; ``stats.depth`` the number of cells decided.

    Raises
    ------
    OptionError
        For an unknown method or heuristic.
    """
    if method not in METHODS:
        raise OptionError(f"unknown search method {method!r}; choose from {', '.join(METHODS)}")
    search = ALGORITHMS[method].run
    return searched(puzzle, name, method=method, options=None, limits=limits, search=search)


def searched(
    puzzle: LightsOut,
    name: str | None,
    /,
    *,
    method: str,
    options: Any,
    limits: Limits | None,
    search: Search,
) -> Result[Presses]:
    """How the engine's searches run on a board (:mod:`cspsolve.searches`): ``search`` on
    :class:`PressOrder` with the heuristic ``name``, its plan read as a press set.

    The setup (the press order and the heuristic: O(cells) Python steps) counts against
    the time limit; ``stats.seconds`` covers it.

    Raises
    ------
    OptionError
        For an unknown heuristic.
    """
    if name not in HEURISTICS:
        raise OptionError(f"unknown heuristic {name!r}; choose from {', '.join(HEURISTICS)}")
    setup = (limits or Limits()).start(Stats())
    tick = ticker(setup, nodes=False)
    try:
        problem = PressOrder(puzzle, tick)
        h = heuristic(puzzle, name, tick)
    except LimitError as e:
        return Result(e.status, None, setup.finish(), method, name)
    result = search(problem, h, setup.rest())
    result.stats.seconds = setup.finish().seconds
    return result.map(problem.presses)
