"""What the nonogram differential tests know of a case, and how a method's result is judged
against it (:mod:`.differential`, :mod:`.colour_differential`)."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from cspsolve.results import Result, Status

Grid = tuple[str, ...]


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
