"""Differential testing of the colour nonogram methods against independent oracles.

A case is a random grid of 1 to 5 colours and the background, its clues derived from it,
sometimes with one block's length or colour changed afterwards (which may or may not leave the
puzzle solvable). Sizes reach every path: tiny boards (brute force), 1xN and Nx1 strips, boards
up to 20x20, and lines of 65 to 120 cells.

The oracles, none of which is a method under test:

- :func:`blocks_match`, written here: the blocks of a grid equal the clues;
- brute force over every grid of the tiny boards;
- above that, :func:`.oracles.block_model`, the CP-SAT model of :mod:`.differential` (written
  in the tests, not the library's automaton per line), where two consecutive blocks need a gap
  only when they have the same colour; its status and uniqueness verdict; where it stops at its
  time limit, only what the planted grid proves (the unchanged clues are solvable) is checked.

Every method that takes colour puzzles (``probing``, ``cpsat``) solves with ``unique=True``;
it agrees when its status, its uniqueness verdict and its grid (which must match the clues,
and equal the oracle's when unique) agree.
"""

from __future__ import annotations

import itertools
import random
from dataclasses import dataclass

from hypothesis import strategies as st

from cspsolve.limits import Limits
from cspsolve.models.nonogram import kind
from cspsolve.models.nonogram.colour_board import (
    Colour,
    ColourClue,
    ColourNonogram,
    Grid,
    line_errors,
)

from . import oracles
from .oracles import Oracle, disagreement

METHODS = ("probing", "cpsat")
"""The methods that solve colour puzzles."""

PALETTE = (
    Colour(".", "white", "#ffffff"),
    Colour("r", "red", "#d62728"),
    Colour("g", "green", "#2ca02c"),
    Colour("b", "blue", "#1f77b4"),
    Colour("y", "yellow", "#ffd700"),
    Colour("k", "black", "#000000"),
)
"""The background and the five colours cases draw from."""

BRUTE_GRIDS = 1 << 14
"""Brute force enumerates the grids of boards with at most this many colourings of a row and
16 cells."""

ORACLE_SECONDS = 30.0
"""Time limit of the block model oracle."""

METHOD_SECONDS = 30.0
"""Time limit of a method under test; reaching it counts as a disagreement."""


@dataclass(frozen=True)
class ColourCase:
    """A random colour nonogram: the clues, the grid they came from, whether a clue changed."""

    puzzle: ColourNonogram
    planted: Grid
    changed: bool

    def __repr__(self) -> str:
        p = self.puzzle
        rows = " ".join(",".join(p.written(c)) or "0" for c in p.rows)
        columns = " ".join(",".join(p.written(c)) or "0" for c in p.columns)
        return (
            f"ColourCase({p.width}x{p.height}, {len(p.colours) - 1} colours, "
            f"changed={self.changed}, rows={rows!r}, columns={columns!r})"
        )


def blocks(line: str) -> ColourClue:
    """The blocks of a line of colour keys of :data:`PALETTE`, as ``(length, colour)``."""
    index = {c.key: i for i, c in enumerate(PALETTE)}
    return tuple((len(list(run)), index[key]) for key, run in itertools.groupby(line) if key != ".")


def blocks_match(puzzle: ColourNonogram, grid: Grid) -> bool:
    """Whether ``grid`` has the puzzle's size and colours and every line's blocks equal its
    clue."""
    if len(grid) != puzzle.height or any(len(row) != puzzle.width for row in grid):
        return False
    keys = {c.key for c in puzzle.colours}
    if any(set(row) - keys for row in grid):
        return False
    columns = ["".join(row[j] for row in grid) for j in range(puzzle.width)]
    return [blocks(r) for r in grid] == list(puzzle.rows) and [blocks(c) for c in columns] == list(
        puzzle.columns
    )


def _changed(
    clues: list[ColourClue], colours: int, length: int, rng: random.Random
) -> list[ColourClue]:
    """``clues`` (of lines of ``length`` cells) with one block's length raised or lowered by
    one, or its colour changed; unchanged when the changed clue would not fit its line."""
    line = rng.randrange(len(clues))
    clue = list(clues[line]) or [(1, 1)]
    k = rng.randrange(len(clue))
    length, colour = clue[k]
    if rng.random() < 0.5 or colours == 1:
        clue[k] = (length + rng.choice((-1, 1)), colour)
    else:
        clue[k] = (length, rng.choice([c for c in range(1, colours + 1) if c != colour]))
    new = tuple(b for b in clue if b[0] > 0)
    if line_errors(new, length, [c.key for c in PALETTE[: colours + 1]]):
        return clues
    return [*clues[:line], new, *clues[line + 1 :]]


@st.composite
def colour_cases(draw: st.DrawFn) -> ColourCase:
    """Random colour nonograms of every size the code treats differently."""
    density = st.one_of(st.floats(0.2, 0.95), st.sampled_from((0.0, 1.0)))
    long_line, short = st.integers(65, 120), st.integers(1, 3)
    width, height, fill = draw(
        st.one_of(
            st.tuples(st.integers(1, 4), st.integers(1, 4), density),
            st.tuples(st.integers(1, 12), st.integers(1, 12), density),
            st.tuples(st.integers(8, 20), st.integers(8, 20), st.floats(0.6, 0.95)),
            st.tuples(st.just(1), st.integers(1, 80), density),
            st.tuples(st.integers(1, 80), st.just(1), density),
            st.tuples(long_line, short, density),
            st.tuples(short, long_line, density),
        )
    )
    colours = draw(st.integers(1, 5))
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    keys = [c.key for c in PALETTE[: colours + 1]]
    planted = tuple(
        "".join(keys[rng.randint(1, colours)] if rng.random() < fill else "." for _ in range(width))
        for _ in range(height)
    )
    rows = [blocks(row) for row in planted]
    columns = [blocks("".join(row[j] for row in planted)) for j in range(width)]
    changed = draw(st.integers(0, 99)) < 15
    palette = PALETTE[: colours + 1]
    if changed:
        if rng.random() < 0.5:
            rows = _changed(rows, colours, width, rng)
        else:
            columns = _changed(columns, colours, height, rng)
    return ColourCase(ColourNonogram(tuple(rows), tuple(columns), palette), planted, changed)


def brute_force(puzzle: ColourNonogram) -> Oracle:
    """Every grid whose rows match their clues, checked column by column, stopping at two."""
    keys = "".join(c.key for c in puzzle.colours)
    return oracles.brute_force(
        puzzle.rows, puzzle.width, keys, blocks, lambda grid: blocks_match(puzzle, grid)
    )


def oracle(case: ColourCase) -> Oracle:
    """Brute force on tiny boards, else the tests' block model."""
    puzzle = case.puzzle
    if puzzle.width * puzzle.height <= 16 and len(puzzle.colours) ** puzzle.width <= BRUTE_GRIDS:
        return brute_force(puzzle)
    keys = "".join(c.key for c in puzzle.colours)
    return oracles.block_model(puzzle.rows, puzzle.columns, keys, ORACLE_SECONDS)


def check_colour(case: ColourCase) -> dict[str, str | None]:
    """Each colour method checked on ``case``, mapped to None (agrees) or what it got wrong."""
    known = oracle(case)
    verdicts: dict[str, str | None] = {}
    for method in METHODS:
        limits = Limits(time_limit=METHOD_SECONDS)
        result = kind.solve(case.puzzle, method, limits=limits, unique=True)
        matches = result.solution is not None and blocks_match(case.puzzle, result.solution)
        verdicts[method] = disagreement(case.changed, known, result, matches)
    return verdicts
