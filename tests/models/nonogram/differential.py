"""Differential testing of every nonogram method against independent oracles.

A case is a random grid (every cell filled with one probability, all-empty and all-full
included) whose clues are derived from it, sometimes with one clue number changed afterwards
(which may or may not leave the puzzle solvable). Sizes reach every path of the code: tiny
boards (brute force), 1xN and Nx1 strips, everything up to 64x64, and lines of 65 to 200
cells (more than one 64-bit word a line).

The oracles, none of which is a method under test:

- :func:`runs_match`, written here: the runs of a grid equal the clues;
- brute force over every grid, up to :data:`BRUTE_CELLS` cells;
- above that, :func:`.oracles.block_model`, a CP-SAT model written in the tests (each block's
  start an integer, the blocks in order with gaps, each cell linked to the blocks that may
  cover it; not the library's automaton per line), its status and uniqueness verdict; where it
  stops at its time limit, only what the planted grid proves (the unchanged clues are
  solvable) is checked.

Every method solves with ``unique=True``, and the default method also with its search split
over two processes (:data:`SPLIT`); it agrees when its status, its uniqueness verdict and
its grid (which must match the clues, and equal the oracle's when unique) agree.

A quarter of the cases are colour nonograms, checked by :mod:`.colour_differential` on the
methods that take them.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from hypothesis import strategies as st

from cspsolve.limits import Limits
from cspsolve.models.nonogram import explicit, kind
from cspsolve.models.nonogram.board import Clue, Grid, Nonogram
from cspsolve.models.nonogram.colour_board import ColourNonogram
from cspsolve.models.nonogram.search.split import solve_split

from ...fuzzing import Contract, Sample
from . import oracles
from .colour_differential import (
    PALETTE,
    ColourCase,
    blocks,
    blocks_match,
    check_colour,
    colour_cases,
)
from .oracles import Oracle, disagreement

METHODS = ("probing", "cdcl", "gac-astar", "mac", "cpsat", "sat", "python-constraint")
"""Every method of the nonogram kind."""

SPLIT = "probing, 2 workers"
"""The default method's search split over two processes from its first branching decision
(:func:`.search.split.solve_split` without the one-core start, which would settle nearly every
case before the split), on the cases whose row and column totals agree (the kind answers the
others before any search)."""

BRUTE_CELLS = 16
"""Largest board the brute-force oracle enumerates (at most 2**16 grids)."""

SLOW_CELLS = {"gac-astar": 625, "mac": 625, "python-constraint": 100}
"""Methods checked only up to this many cells: pure Python, and python-constraint enumerates
every fill pattern of a line (a sparse 14x14 puzzle took it over 20 s to settle)."""

SLOW_LINE = 100
"""Longest line the pure-Python searches (``gac-astar``, ``mac``) are checked on: lines of 65
to 100 cells take the path of more than one 64-bit word; on longer strips (a 4x129 one) their
search can pass :data:`METHOD_SECONDS` (a limit, not a wrong answer, but nothing to check)."""

ORACLE_SECONDS = 30.0
"""Time limit of the block model oracle."""

METHOD_SECONDS = 30.0
"""Time limit of a method under test; reaching it counts as a disagreement."""


@dataclass(frozen=True)
class Case:
    """A random nonogram: the clues, the grid they came from, and whether a clue was changed."""

    puzzle: Nonogram
    planted: Grid
    changed: bool

    def __repr__(self) -> str:
        rows = " ".join(",".join(map(str, c)) or "0" for c in self.puzzle.rows)
        columns = " ".join(",".join(map(str, c)) or "0" for c in self.puzzle.columns)
        size = f"{self.puzzle.width}x{self.puzzle.height}"
        return f"Case({size}, changed={self.changed}, rows={rows!r}, columns={columns!r})"


def runs(line: str) -> Clue:
    """The lengths of the runs of ``#`` in ``line``."""
    return tuple(len(run) for run in line.replace(".", " ").split())


def runs_match(puzzle: Nonogram, grid: Grid) -> bool:
    """Whether ``grid`` has the puzzle's size and every line's runs equal its clue."""
    if len(grid) != puzzle.height or any(len(row) != puzzle.width for row in grid):
        return False
    if any(set(row) - {"#", "."} for row in grid):
        return False
    columns = ["".join(row[j] for row in grid) for j in range(puzzle.width)]
    return [runs(row) for row in grid] == list(puzzle.rows) and [
        runs(column) for column in columns
    ] == list(puzzle.columns)


def _fits(clue: Clue, length: int) -> bool:
    return sum(clue) + len(clue) - 1 <= length if clue else True


def _changed(clues: list[Clue], length: int, rng: random.Random) -> list[Clue]:
    """``clues`` with one number raised or lowered by one (a clue 1 may lose its block)."""
    for line in rng.sample(range(len(clues)), len(clues)):
        clue = list(clues[line])
        if not clue:
            clue = [1]
        else:
            k = rng.randrange(len(clue))
            clue[k] += rng.choice((-1, 1))
            clue = [n for n in clue if n > 0]
        if _fits(tuple(clue), length):
            return [*clues[:line], tuple(clue), *clues[line + 1 :]]
    return clues


EASY_DENSITIES = st.one_of(st.floats(0.6, 0.9), st.sampled_from((0.0, 1.0)))
"""Densities of the big boards: random puzzles of low or middling density over a thousand
cells or more have many solutions and make a hard uniqueness question for every method (boards
of 124x37 at density 0.5 and 123x10 at 0.3 were not settled in 20 s by probing nor by
CP-SAT), which is no test of agreement."""


def cases() -> st.SearchStrategy[Case | ColourCase]:
    """Random nonograms, black-and-white (three in four) and colour (see the module
    docstring)."""
    return st.one_of(
        black_and_white_cases(), black_and_white_cases(), black_and_white_cases(), colour_cases()
    )


@st.composite
def black_and_white_cases(draw: st.DrawFn) -> Case:
    """Random black-and-white nonograms of every size the code treats differently (see the
    module docstring)."""
    any_density = st.one_of(st.floats(0.1, 0.9), st.sampled_from((0.0, 1.0)))
    long_line, short, wide = st.integers(65, 200), st.integers(1, 4), st.integers(5, 50)
    width, height, density = draw(
        st.one_of(
            st.tuples(st.integers(1, 5), st.integers(1, 5), any_density),
            st.tuples(st.integers(1, 25), st.integers(1, 25), any_density),
            st.tuples(st.just(1), st.integers(1, 200), any_density),
            st.tuples(st.integers(1, 200), st.just(1), any_density),
            st.tuples(long_line, short, any_density),
            st.tuples(short, long_line, any_density),
            st.tuples(st.integers(26, 64), st.integers(26, 64), EASY_DENSITIES),
            st.tuples(long_line, wide, EASY_DENSITIES),
            st.tuples(wide, long_line, EASY_DENSITIES),
        )
    )
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    planted = tuple(
        "".join("#" if rng.random() < density else "." for _ in range(width)) for _ in range(height)
    )
    rows = [runs(row) for row in planted]
    columns = [runs("".join(row[j] for row in planted)) for j in range(width)]
    changed = draw(st.integers(0, 99)) < 15
    if changed:
        if rng.random() < 0.5:
            rows = _changed(rows, width, rng)
        else:
            columns = _changed(columns, height, rng)
    return Case(Nonogram(tuple(rows), tuple(columns)), planted, changed)


def brute_force(puzzle: Nonogram) -> Oracle:
    """Enumerate every grid of at most :data:`BRUTE_CELLS` cells whose rows match their clues,
    stopping at two that match every clue."""
    return oracles.brute_force(
        puzzle.rows, puzzle.width, ".#", runs, lambda grid: runs_match(puzzle, grid)
    )


def oracle(case: Case) -> Oracle:
    """Brute force on tiny boards, else the tests' block model."""
    puzzle = case.puzzle
    if puzzle.width * puzzle.height <= BRUTE_CELLS:
        return brute_force(puzzle)
    rows = [oracles.one_colour(clue) for clue in puzzle.rows]
    columns = [oracles.one_colour(clue) for clue in puzzle.columns]
    return oracles.block_model(rows, columns, ".#", ORACLE_SECONDS)


def methods_for(puzzle: Nonogram) -> list[str]:
    """The methods checked on ``puzzle``: slow ones up to :data:`SLOW_CELLS` and
    :data:`SLOW_LINE`, python-constraint where no line has more fill patterns than it
    accepts."""
    cells = puzzle.width * puzzle.height
    refused = {"python-constraint"} if explicit.too_large(puzzle, explicit.MAX_PATTERNS) else set()
    if max(puzzle.width, puzzle.height) > SLOW_LINE:
        refused |= {"gac-astar", "mac"}
    return [m for m in METHODS if cells <= SLOW_CELLS.get(m, cells) and m not in refused]


def check(case: Case | ColourCase) -> dict[str, str | None]:
    """Each method checked on ``case``, mapped to None (agrees) or what it got wrong."""
    if isinstance(case, ColourCase):
        return check_colour(case)
    known = oracle(case)
    verdicts: dict[str, str | None] = {}
    for method in methods_for(case.puzzle):
        limits = Limits(time_limit=METHOD_SECONDS)
        result = kind.solve(case.puzzle, method, limits=limits, unique=True)
        matches = result.solution is not None and runs_match(case.puzzle, result.solution)
        verdicts[method] = disagreement(case.changed, known, result, matches)
    if sum(map(sum, case.puzzle.rows)) != sum(map(sum, case.puzzle.columns)):
        return verdicts  # the kind refutes unequal totals before any search, so before a split
    limits = Limits(time_limit=METHOD_SECONDS, workers=2)
    split = solve_split(case.puzzle, limits=limits, max_solutions=2, warmup=0, spread=1)
    matches = split.solution is not None and runs_match(case.puzzle, split.solution)
    verdicts[SPLIT] = disagreement(case.changed, known, split, matches)
    return verdicts


# --- the contract suite ---------------------------------------------------------------------


def replay_json(puzzle: Nonogram | ColourNonogram, solution: Any) -> str | None:
    """``None`` when the grid of the JSON form (``{"grid": [row, ...]}``) has the puzzle's
    runs, by :func:`runs_match` (:func:`.colour_differential.blocks_match` in colour)."""
    grid = tuple(solution["grid"])
    if isinstance(puzzle, ColourNonogram):
        return None if blocks_match(puzzle, grid) else "its colour blocks are not the clues"
    return None if runs_match(puzzle, grid) else "its runs are not the clues"


def clued(grid: Sequence[str]) -> Nonogram:
    """The black-and-white nonogram whose picture is ``grid`` (rows of ``#`` and ``.``)."""
    columns = ["".join(row[j] for row in grid) for j in range(len(grid[0]))]
    return Nonogram(rows=[runs(row) for row in grid], columns=[runs(c) for c in columns])


def contract() -> Contract:
    """A 5x5 picture, an unsolvable 2x2 (equal totals), a 4x4 colour picture (which the
    methods for black and white refuse), and a random 70x70 picture (lines of two 64-bit
    words)."""
    colour = ("rr.g", "r..g", ".bb.", "gg.r")
    colour_columns = ["".join(row[j] for row in colour) for j in range(4)]
    rng = random.Random(70)
    return Contract(
        small=(
            Sample(clued(("#.#.#", "#####", "..#..", ".###.", "##.##")), solvable=True),
            Sample(Nonogram(rows=[(2,), ()], columns=[(2,), ()]), solvable=False),
            Sample(
                ColourNonogram(
                    tuple(map(blocks, colour)), tuple(map(blocks, colour_columns)), PALETTE
                ),
                solvable=True,
            ),
        ),
        hard=clued(["".join(rng.choice("#.") for _ in range(70)) for _ in range(70)]),
    )
