"""What the nonogram differential tests know of a case, how it is found, and how a method's
result is judged against it (:mod:`.differential`, :mod:`.colour_differential`).

Two oracles, written here and importing no solver of the library (only its result types):

- :func:`brute_force`, every grid of a tiny board;
- :func:`block_model`, a CP-SAT model of the test's own whose variables are the blocks' starts
  (not the library's model, which states each line as an automaton over its cells): it decides
  whether the clues are solvable and, by a second solve that excludes the first solution,
  whether the solution is unique.

Both take colour clues, ``(length, colour)`` pairs; a black-and-white clue is a colour clue of
one colour (:func:`one_colour`).
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ortools.sat.python import cp_model

from cspsolve.results import Result, Status

Grid = tuple[str, ...]

Blocks = tuple[tuple[int, int], ...]
"""A line's clue as blocks ``(length, colour)``, colour 1 and up (0 is the background)."""


@dataclass(frozen=True)
class Oracle:
    """What is known of a case: ``solvable`` and ``unique`` (None: unknown), a solution."""

    solvable: bool | None
    unique: bool | None
    solution: Grid | None


def disagreement(changed: bool, known: Oracle, result: Result[Grid], matches: bool) -> str | None:
    """Why ``result`` contradicts what is known of a case (None when it does not).

    ``changed`` says whether a clue was changed after the planted grid gave them (else that
    grid proves the puzzle solvable); ``matches`` whether the result's grid satisfies the clues
    by the test's own check.
    """
    status = result.status
    if status not in (Status.SOLVED, Status.UNSOLVABLE):
        return f"ended with status {status.value}"
    if not changed and status is Status.UNSOLVABLE:
        return "unsolvable, but the planted grid solves it"
    if known.solvable is not None and known.solvable != (status is Status.SOLVED):
        return f"status {status.value}, the oracle says solvable={known.solvable}"
    if status is Status.UNSOLVABLE:
        return None
    if result.solution is None or not matches:
        return "its grid does not match the clues"
    unique = result.proof.get("unique")
    if known.unique is not None and unique != known.unique:
        return f"unique={unique}, the oracle says {known.unique}"
    if known.unique and result.solution != known.solution:
        return "a unique solution, but not the oracle's grid"
    return None


def brute_force(
    rows: Sequence[Any],
    width: int,
    symbols: str,
    line_clue: Callable[[str], Any],
    solves: Callable[[Grid], bool],
) -> Oracle:
    """Enumerate every grid of rows of ``width`` of ``symbols`` whose rows have the clues
    ``rows`` (by ``line_clue``), stopping at two that ``solves`` accepts."""
    lines = ["".join(cells) for cells in itertools.product(symbols, repeat=width)]
    fitting = [[line for line in lines if line_clue(line) == clue] for clue in rows]
    found: list[Grid] = []
    for grid in itertools.product(*fitting):
        if solves(grid):
            found.append(grid)
            if len(found) == 2:
                break
    return Oracle(bool(found), len(found) == 1 if found else False, found[0] if found else None)


def one_colour(clue: Sequence[int]) -> Blocks:
    """A black-and-white clue as blocks of colour 1."""
    return tuple((length, 1) for length in clue)


def starts(blocks: Blocks, length: int) -> list[tuple[int, int]]:
    """The earliest and the latest start of each block on a line of ``length`` cells: the
    blocks before it (after it) packed to the left (right), with one background cell between
    two consecutive blocks of the same colour."""
    earliest, cell = [], 0
    for k, (size, colour) in enumerate(blocks):
        cell += k > 0 and blocks[k - 1][1] == colour
        earliest.append(cell)
        cell += size
    latest, end = [], length
    for k in reversed(range(len(blocks))):
        size, colour = blocks[k]
        end -= k + 1 < len(blocks) and blocks[k + 1][1] == colour
        end -= size
        latest.append(end)
    return list(zip(earliest, reversed(latest), strict=True))


def _add_line(model: cp_model.CpModel, blocks: Blocks, cells: Sequence[Sequence[Any]]) -> None:
    """State that the line of ``cells`` holds ``blocks``; a cell is its Booleans "has colour
    c" for c = 1, 2, ... (none true: the background).

    Each block's start is an integer between the bounds of :func:`starts`, in the order
    encoding: the Boolean ``by[t]`` says "the block starts at or before cell t" (``by[t]``
    implies ``by[t + 1]``; 0 before the earliest start, 1 from the latest on). A block starts
    after the previous one ends, one cell later if both have the same colour: starting by t
    implies that the previous block started by t - its length (- 1). The block covers cell x
    exactly when it starts by x and not by x - length, which is ``by[x] - by[x - length]``; a
    cell has colour c exactly when a block of colour c covers it. No cell has two colours: at
    most one block covers a cell, by the order of the starts.
    """
    covering: list[list[list[Any]]] = [[[] for _ in cell] for cell in cells]
    previous: dict[int, Any] = {}
    gap = 0
    for k, ((size, colour), (first, last)) in enumerate(
        zip(blocks, starts(blocks, len(cells)), strict=True)
    ):
        if k:
            gap = blocks[k - 1][0] + (blocks[k - 1][1] == colour)
        by: dict[int, Any] = {t: 0 for t in range(first - size, first)}
        by |= {t: 1 for t in range(last, last + size)}
        for t in range(first, last):
            by[t] = model.new_bool_var("")
            if t > first:
                model.add_implication(by[t - 1], by[t])
            if k:
                model.add_implication(by[t], previous[t - gap])
        for x in range(first, last + size):
            covering[x][colour - 1] += (by[x], -by[x - size])
        previous = by
    for x, cell in enumerate(cells):
        for covers, has in zip(covering[x], cell, strict=True):
            model.add(cp_model.LinearExpr.sum(covers) == has)


def _filled(blocks: Blocks, colour: int) -> int:
    """How many cells of ``colour`` the blocks fill."""
    return sum(size for size, c in blocks if c == colour)


def block_model(
    rows: Sequence[Blocks], columns: Sequence[Blocks], keys: str, seconds: float
) -> Oracle:
    """Decide the puzzle of these clues with the test's own CP-SAT model (see
    :func:`_add_line`): solvable, and unique when a second solve that excludes the first
    solution finds none.

    Clues whose rows and columns fill different numbers of cells of a colour are unsolvable
    at once (search would have to count to see it: an unsolvable 4x70 strip was not refuted
    in 30 s). CP-SAT runs on one worker without presolve and without linear relaxation, which
    halves its time on these models and leaves the clauses of the blocks to propagation.

    Parameters
    ----------
    rows, columns : sequence of Blocks
        The clues, top to bottom and left to right.
    keys : str
        The key of each colour in grids, the background's (``.``) first.
    seconds : float
        Time limit of both solves together.

    Returns
    -------
    Oracle
        What was decided: ``solvable`` and ``unique`` are None when the time limit stopped the
        solve that decides them; ``unique`` is False when there is no solution.
    """
    for colour in range(1, len(keys)):
        if sum(_filled(clue, colour) for clue in rows) != sum(
            _filled(clue, colour) for clue in columns
        ):
            return Oracle(False, False, None)
    model = cp_model.CpModel()
    cells = [[[model.new_bool_var("") for _ in keys[1:]] for _ in columns] for _ in rows]
    for clue, row in zip(rows, cells, strict=True):
        _add_line(model, clue, row)
    for j, clue in enumerate(columns):
        _add_line(model, clue, [row[j] for row in cells])
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.cp_model_presolve = False
    solver.parameters.linearization_level = 0
    deadline = time.monotonic() + seconds
    found: list[Grid] = []
    while len(found) < 2:
        solver.parameters.max_time_in_seconds = max(0.0, deadline - time.monotonic())
        status = solver.solve(model)
        if status == cp_model.INFEASIBLE:
            break
        if status == cp_model.UNKNOWN:
            return Oracle(True if found else None, None, found[0] if found else None)
        if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            raise RuntimeError(f"CP-SAT ended with {solver.status_name(status)}")
        colours = [[[solver.boolean_value(v) for v in cell] for cell in row] for row in cells]
        found.append(
            tuple(
                "".join(keys[1 + has.index(True)] if any(has) else keys[0] for has in row)
                for row in colours
            )
        )
        # Some cell has another colour: one it had not, or one of those it had.
        model.add_bool_or(
            [
                ~v if had else v
                for row, had_row in zip(cells, colours, strict=True)
                for cell, has in zip(row, had_row, strict=True)
                for v, had in zip(cell, has, strict=True)
            ]
        )
    return Oracle(bool(found), len(found) == 1, found[0] if found else None)
