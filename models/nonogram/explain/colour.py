"""The colour replay: line logic and probes on the colour solver's grid of colour masks.

The grid is one mask a cell (uint32): bit ``c`` set while the cell may take colour ``c``, bit 0
the background, as in :mod:`..search.colour`. Line logic runs on a worklist of dirty lines,
each visit by the colour solver's exact line solver with its line cache
(:func:`..search.colour._settle`), logging every cell it narrows; a sweep of probes runs the
colour solver's trials (:func:`..search.colour._trial`), and the failed assumption's trial is
run again with the log, for its chain.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from typing import Any

import numpy as np

from .._kernels import copy, kernel
from ..colour_board import BACKGROUND, ColourNonogram
from ..colour_board import Grid as ColourGrid
from ..search.colour import Network
from ..search.colour import _settle as settle
from ..search.colour import _trial as trial
from ..search.propagation import STOP, enqueue, raise_stop
from .common import CONFLICT, FIXPOINT, HALTED, NONE, STOPPED

__all__ = ["ColourBoard"]

_SLOTS = 32
"""A failed assumption is returned as ``cell * _SLOTS + colour``."""


@kernel(inline=True)
def _run(grid: Any, clues: Any, work: Any, counters: Any, log: Any, tally: Any) -> int:
    """Line logic to a fixpoint from the lines on the worklist, logging what it narrows.

    Each cell narrowed is a row ``(line, position, mask)`` of ``log``, in order; a line left
    with no placement ends the log with ``(line, -1, 0)``. ``tally[0]`` receives the rows
    written. Returns :data:`.FIXPOINT`, :data:`.CONFLICT`, or :data:`.STOPPED` when the stop
    flag of ``counters`` is raised.
    """
    lengths, colours, starts, counts = clues
    queue, queued, ends, cells = work[0], work[1], work[2], work[3]
    height, width = grid.shape
    lines = height + width
    m = 0
    status = FIXPOINT
    while ends[1]:
        if counters[STOP]:
            status = STOPPED
            break
        line = queue[ends[0]]
        ends[0] = ends[0] + 1 if ends[0] + 1 < lines else 0
        ends[1] -= 1
        queued[line] = 0
        row = line < height
        n = width if row else height
        line_cells = cells[:n]
        for i in range(n):
            line_cells[i] = grid[line, i] if row else grid[i, line - height]
        first, k = starts[line], counts[line]
        if not settle(line, line_cells, lengths[first : first + k], colours[first : first + k],
                      work, counters):  # fmt: skip
            log[m, 0], log[m, 1], log[m, 2] = line, -1, 0
            m += 1
            status = CONFLICT
            break
        for i in range(n):
            r, c = (line, i) if row else (i, line - height)
            if line_cells[i] != grid[r, c]:
                grid[r, c] = line_cells[i]
                log[m, 0], log[m, 1], log[m, 2] = line, i, line_cells[i]
                m += 1
                enqueue(height + i if row else i, queue, queued, ends)
    if status != FIXPOINT:
        queued[:] = 0
        ends[:] = 0
    tally[0] = m
    return status


@kernel()
def _line_logic(grid: Any, clues: Any, work: Any, counters: Any, log: Any, tally: Any) -> int:
    """:func:`_run` as a kernel of its own."""
    return _run(grid, clues, work, counters, log, tally)


@kernel()
def _logged_trial(
    grid: Any, copied: Any, row: int, col: int, mask: Any, clues: Any, work: Any,
    counters: Any, log: Any, tally: Any,
) -> int:  # fmt: skip
    """Copy ``grid`` into ``copied``, narrow one cell there to ``mask`` and run line logic
    (:func:`_run`), logging it: the chain of a probe."""
    height, width = grid.shape
    for r in range(height):
        for c in range(width):
            copied[r, c] = grid[r, c]
    copied[row, col] = mask
    queue, queued, ends = work[0], work[1], work[2]
    enqueue(row, queue, queued, ends)
    enqueue(height + col, queue, queued, ends)
    return _run(copied, clues, work, counters, log, tally)


@kernel()
def _sweep(
    grid: Any, start: int, clues: Any, work: Any, counters: Any, trials: Any, target: Any,
    scores: Any, best: Any,
) -> int:  # fmt: skip
    """Probe the undecided cells from ``start`` on (wrapping round), each colour it may take,
    until an assumption fails (the colour solver's trials).

    Returns ``cell * 32 + colour`` for a failed assumption, :data:`.NONE` when none fails, or
    :data:`.HALTED` when the stop flag of ``counters`` was raised. After :data:`.NONE`,
    ``scores`` (float64, (H * W,)) holds each undecided cell's score, the product over its
    colours of the colours the trial removes plus one (0 for a decided cell), and ``best`` the
    cell whose trial with its colour in ``target`` (masks, a solution) removed the most, and
    the colour whose trial removes the most there (the one a search tries first).
    """
    height, width = grid.shape
    cells = height * width
    scores[:] = 0.0
    best_score = -1.0
    for step in range(cells):
        cell = start + step if start + step < cells else start + step - cells
        row, col = cell // width, cell % width
        mask = grid[row, col]
        if not mask & (mask - np.uint32(1)):
            continue
        score, first, most, helped = 1.0, 0, -1, -1
        for colour in range(_SLOTS):
            bit = np.uint32(1) << np.uint32(colour)
            if not mask & bit:
                continue
            removed = trial(grid, trials[0], row, col, bit, clues, work, counters)
            if counters[STOP]:
                return HALTED
            if removed < 0:
                return cell * _SLOTS + colour
            score *= removed + 1.0
            if removed > most:
                first, most = colour, removed
            if target[row, col] == bit:
                helped = removed
        scores[cell] = score
        if helped > best_score:
            best[0], best[1], best_score = cell, first, helped
    return NONE


@kernel()
def _deep(
    grid: Any, deep: Any, row: int, col: int, bit: Any, clues: Any, work: Any, counters: Any,
    trials: Any,
) -> int:  # fmt: skip
    """Whether giving cell (``row``, ``col``) the colour ``bit`` in ``grid`` (at a fixpoint of
    probes) fails under line logic and probes of depth 1 to their fixpoint, on the copy
    ``deep``: 1 if it fails, 0 if not, :data:`.HALTED` when the stop flag of ``counters`` was
    raised (as :func:`..black._deep`: a failed probe removes its colour from its cell)."""
    height, width = grid.shape
    failed = trial(grid, deep, row, col, bit, clues, work, counters) < 0
    changed = not failed
    while changed and not failed:
        changed = False
        for cell in range(height * width):
            r, c = cell // width, cell % width
            for colour in range(_SLOTS):
                if counters[STOP]:
                    return HALTED
                mask = deep[r, c]
                one = np.uint32(1) << np.uint32(colour)
                if not mask & (mask - np.uint32(1)) or not mask & one:
                    continue
                if trial(deep, trials[0], r, c, one, clues, work, counters) >= 0:
                    continue
                if trial(deep, trials[1], r, c, mask & ~one, clues, work, counters) < 0:
                    failed = True
                    break
                copy(deep, trials[1])
                changed = True
            if failed:
                break
    if counters[STOP]:
        return HALTED
    return 1 if failed else 0


def _colours(mask: int) -> list[int]:
    """The colours of a mask."""
    return [c for c in range(mask.bit_length()) if mask >> c & 1]


class ColourBoard:
    """The replay's grid and the kernels' arrays for a colour puzzle (see
    :class:`.common.Board`); values are colour indices (0 the background)."""

    key = "narrowed"

    def __init__(self, puzzle: ColourNonogram) -> None:
        height, width = puzzle.height, puzzle.width
        self.puzzle = puzzle
        self.size = (height, width)
        self.net = Network.build(puzzle)
        self.keys = "".join(c.key for c in puzzle.colours)
        self.codes = self.net.unknown()
        self.copied = self.codes.copy()
        self.log = np.zeros((height * width * len(self.keys) + 1, 3), np.int64)
        self.tally = np.zeros(1, np.int64)
        self.best = np.zeros(2, np.int64)
        self.scores = np.zeros(height * width)
        self.deep_grid = self.codes.copy()
        self.target = np.zeros(self.size, np.uint32)
        self.names: list[dict[str, Any]] = [
            *({"axis": "row", "index": i, "clue": [list(b) for b in c]}
              for i, c in enumerate(puzzle.rows)),
            *({"axis": "column", "index": i, "clue": [list(b) for b in c]}
              for i, c in enumerate(puzzle.columns)),
        ]  # fmt: skip
        self.titles = [
            f"{n['axis']} {n['index'] + 1} (clue "
            f"{' '.join(f'{length}{self.keys[c]}' for length, c in n['clue']) or '0'})"
            for n in self.names
        ]

    def _logged(self, verdict: int) -> tuple[int, Any]:
        return verdict, self.log[: int(self.tally[0])]

    def propagate(self, lines: Iterable[int]) -> tuple[int, Any]:
        """Line logic on ``codes`` from ``lines`` (:func:`_line_logic`)."""
        net = self.net
        queue, queued, ends = net.work[0], net.work[1], net.work[2]
        for line in lines:
            enqueue(line, queue, queued, ends)
        verdict = _line_logic(self.codes, net.clues, net.work, net.counters, self.log, self.tally)
        return self._logged(verdict)

    def sweep(self, start: int) -> tuple[int, int]:
        """A sweep of probes from ``start`` (:func:`_sweep`)."""
        net = self.net
        found = _sweep(
            self.codes, start, net.clues, net.work, net.counters, net.trials, self.target,
            self.scores, self.best,
        )  # fmt: skip
        return (found, 0) if found < 0 else divmod(found, _SLOTS)

    def branching(self) -> tuple[int, int]:
        """The best cell of the last sweep and the colour to try there first."""
        return int(self.best[0]), int(self.best[1])

    def candidates(self, count: int) -> list[int]:
        """Up to ``count`` undecided cells of the best scores of the last sweep, best first."""
        order = np.argsort(-self.scores, kind="stable")[:count]
        return [int(cell) for cell in order if self.scores[cell] > 0]

    def values(self, cell: int) -> tuple[int, ...]:
        """The colours ``cell`` may still take."""
        return tuple(_colours(int(self.codes.flat[cell])))

    def deep(self, cell: int, value: int) -> int:
        """Whether giving ``cell`` colour ``value`` fails with probes of depth 1 under it
        (:func:`_deep`): 1, 0 or :data:`.HALTED`."""
        row, col = divmod(cell, self.size[1])
        net = self.net
        bit = np.uint32(1 << value)
        args = (net.clues, net.work, net.counters, net.trials)
        return int(_deep(self.codes, self.deep_grid, row, col, bit, *args))

    def trial(self, cell: int, value: int) -> tuple[int, Any]:
        """The logged trial of colour ``value`` at ``cell`` (:func:`_logged_trial`)."""
        row, col = divmod(cell, self.size[1])
        net = self.net
        mask = np.uint32(1 << value)
        args = (net.clues, net.work, net.counters, self.log, self.tally)
        return self._logged(_logged_trial(self.codes, self.copied, row, col, mask, *args))

    def visits(self, entries: Any) -> list[tuple[int, list[list[Any]]]]:
        """Entries grouped by line visit: the line and the ``[row, column, colours]`` it
        narrowed (the colours each cell may still take)."""
        height = self.size[0]
        out: list[tuple[int, list[list[Any]]]] = []
        last = -1
        narrowed: list[list[Any]] = []
        for line, position, mask in entries.tolist():
            if position < 0:
                continue
            if line != last:
                narrowed = []
                out.append((line, narrowed))
                last = line
            r, c = (line, position) if line < height else (position, line - height)
            narrowed.append([r, c, _colours(mask)])
        return out

    def apply(self, cells: list[list[Any]]) -> None:
        """Narrow the ``[row, column, colours]`` cells."""
        for r, c, colours in cells:
            self.codes[r, c] = sum(1 << colour for colour in colours)

    def _names(self, colours: list[int]) -> str:
        return " or ".join(self.puzzle.colours[c].name for c in colours)

    def fixes(self, data: dict[str, Any]) -> str:
        """``leaves columns 1, 2 white or red and column 5 cream``."""
        noun = "column" if data["axis"] == "row" else "row"
        along = 1 if data["axis"] == "row" else 0
        groups: dict[str, list[str]] = {}
        for cell in data["narrowed"]:
            groups.setdefault(self._names(cell[2]), []).append(str(cell[along] + 1))
        parts = (
            f"{noun}{'s' if len(at) > 1 else ''} {', '.join(at)} {names}"
            for names, at in groups.items()
        )
        return f"leaves {' and '.join(parts)}"

    def exclude(self, cell: int, value: int) -> tuple[list[list[Any]], str]:
        """The cell loses colour ``value``."""
        row, col = divmod(cell, self.size[1])
        mask = int(self.codes[row, col]) & ~(1 << value)
        self.codes[row, col] = mask
        return [[row, col, _colours(mask)]], self._names(_colours(mask))

    def assign(self, cell: int, value: int) -> None:
        """Give ``cell`` colour ``value``."""
        self.codes.flat[cell] = 1 << value

    def value(self, solution: ColourGrid, cell: int) -> int:
        """The colour of ``cell`` in ``solution``."""
        row, col = divmod(cell, self.size[1])
        return self.keys.index(solution[row][col])

    def word(self, value: int) -> str:
        """The colour's name."""
        return self.puzzle.colours[value].name

    def aim(self, solution: ColourGrid | None) -> None:
        """Guesses are made where the colour in ``solution`` removes the most."""
        self.target[:] = 0 if solution is None else self.encode(solution)

    def spent(self) -> int:
        """The trials run so far."""
        return int(self.net.counters[1])

    def open(self) -> bool:
        """Whether some cell may still take several colours."""
        codes = self.codes
        return bool((codes & (codes - np.uint32(1))).any())

    def encode(self, grid: ColourGrid) -> Any:
        """The masks of a grid of colour keys."""
        return np.array(
            [[1 << self.keys.index(ch) for ch in row] for row in grid], np.uint32
        ).reshape(self.size)

    def rows(self, codes: bytes) -> ColourGrid:
        """A colour's key per decided cell, ``?`` where several colours are left."""
        masks = np.frombuffer(codes, np.uint32).reshape(self.size)
        keys = {1 << c: key for c, key in enumerate(self.keys)}
        return tuple("".join(keys.get(int(m), "?") for m in row) for row in masks)

    def ring(self) -> None:
        """Raise the kernels' stop flag."""
        raise_stop(self.net.counters)


@functools.cache
def warm() -> None:
    """Compile (or load) the kernels of this module."""
    from ..colour_board import Colour

    colours = (Colour(BACKGROUND, "white", "#ffffff"), Colour("a", "black", "#000000"))
    puzzle = ColourNonogram(rows=(((1, 1),), ((1, 1),)), columns=(((1, 1),), ((1, 1),)),
                            colours=colours)  # fmt: skip
    board = ColourBoard(puzzle)
    board.propagate(range(4))
    board.sweep(0)
    board.deep(0, 1)
    board.trial(0, 1)
