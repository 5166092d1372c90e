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

from collections.abc import Callable, Iterator
from dataclasses import dataclass

from cspsolve import search as engine
from cspsolve.errors import OptionError
from cspsolve.limits import Limits
from cspsolve.results import Result

from .board import LightsOut, Presses, unflatten

__all__ = ["HEURISTICS", "METHODS", "Action", "PressOrder", "State", "heuristic", "solve"]

State = tuple[int, int]
"""``(lights, k)``: lit cells as a flat int, position of the next cell to decide."""

Action = tuple[int, bool]
"""``(cell, pressed)``: the flat index of the cell decided and whether it is pressed."""

METHODS = ("astar", "idastar")
HEURISTICS = ("packing", "lit")


@dataclass(frozen=True)
class PressOrder:
    """The fixed-press-order search problem of a board (see the module docstring)."""

    puzzle: LightsOut

    def __post_init__(self) -> None:
        p = self.puzzle
        order = [i for i in self._order() if p.enabled >> i & 1]
        masks = [p.toggles(i) for i in order]
        last = {light: k for k, mask in enumerate(masks) for light in _bits(mask)}
        # a light no cell toggles is settled from the start (k = -1)
        done_at = [0] * (len(order) + 1)
        for light in _bits(p.enabled):
            done_at[last.get(light, -1) + 1] |= 1 << light
        settled, acc = [], 0
        for mask in done_at:
            acc |= mask
            settled.append(acc)
        object.__setattr__(self, "order", tuple(order))
        object.__setattr__(self, "masks", tuple(masks))
        object.__setattr__(self, "settled", tuple(settled))

    order: tuple[int, ...] = ()
    masks: tuple[int, ...] = ()
    settled: tuple[int, ...] = ()
    """``settled[k]``: lights no cell at position ``>= k`` toggles (must be off at ``k``)."""

    def _order(self) -> range | Iterator[int]:
        p = self.puzzle
        if p.is_grid and p.cols > p.rows:
            return (r * p.cols + c for c in range(p.cols) for r in range(p.rows))
        return range(p.cells)

    @property
    def initial(self) -> State:
        """The board's lights, nothing decided."""
        return (self.puzzle.flat, 0)

    def is_goal(self, state: State) -> bool:
        """Every light off."""
        return state[0] == 0

    def successors(self, state: State) -> Iterator[tuple[Action, State, float]]:
        """Skip (cost 0) or press (cost 1) the next cell, unless it strands a lit light."""
        lights, k = state
        if k == len(self.order):
            return
        settled = self.settled[k + 1]
        cell = self.order[k]
        if not lights & settled:
            yield (cell, False), (lights, k + 1), 0.0
        pressed = lights ^ self.masks[k]
        if not pressed & settled:
            yield (cell, True), (pressed, k + 1), 1.0

    def actions(self, state: State) -> Iterator[Action]:
        """The actions of :meth:`successors`."""
        return (action for action, _, _ in self.successors(state))

    def result(self, state: State, action: Action) -> State:
        """The state after ``action`` (which must be the next cell's)."""
        lights, k = state
        return (lights ^ self.masks[k] if action[1] else lights, k + 1)

    def cost(self, state: State, action: Action, next_state: State) -> float:
        """1 for a press, 0 for a skip."""
        return 1.0 if action[1] else 0.0

    def presses(self, plan: list[Action]) -> Presses:
        """The press set of a plan."""
        flat = sum(1 << cell for cell, pressed in plan if pressed)
        return unflatten(flat, rows=self.puzzle.rows, cols=self.puzzle.cols)


def _bits(value: int) -> Iterator[int]:
    while value:
        low = value & -value
        yield low.bit_length() - 1
        value ^= low


def families(puzzle: LightsOut) -> list[int]:
    """Greedy split of the enabled lights into families with no toggling cell in common.

    Returns
    -------
    list of int
        Each family as a flat mask of lights; together they partition the enabled cells.
    """
    found: list[tuple[int, int]] = []  # (family lights, cells toggling any of them)
    for light in _bits(puzzle.enabled):
        togglers = puzzle.toggles(light)  # symmetric toggle matrix
        for i, (members, used) in enumerate(found):
            if not used & togglers:
                found[i] = (members | 1 << light, used | togglers)
                break
        else:
            found.append((1 << light, togglers))
    return [members for members, _ in found]


def heuristic(puzzle: LightsOut, name: str) -> Callable[[State], float]:
    """The heuristic ``name`` (from :data:`HEURISTICS`) for ``puzzle``; its ``__name__`` is
    ``name``.

    Raises
    ------
    OptionError
        For an unknown name.
    """
    if name == "lit":
        most = max((m.bit_count() for m in puzzle.toggle_masks), default=1) or 1

        def lit(state: State) -> float:
            return float(-(-state[0].bit_count() // most))

        return lit
    if name == "packing":
        groups = families(puzzle)

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
    """Fewest presses by A* or IDA* on the fixed-press-order model.

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
    problem = PressOrder(puzzle)
    h = heuristic(puzzle, name)
    if method == "astar":
        result = engine.astar(problem, h, limits=limits)
    elif method == "idastar":
        result = engine.idastar(problem, h, limits=limits)
    else:
        raise OptionError(f"unknown search method {method!r}; choose from {', '.join(METHODS)}")
    result.stats.cost = int(result.stats.cost)
    return result.map(problem.presses)
