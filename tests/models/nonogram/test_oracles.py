"""The oracles of the nonogram differential tests (:mod:`.oracles`, and the brute force of
:mod:`.differential` and :mod:`.colour_differential`) checked on their own: against every grid
of tiny boards (enumerated here, their clues counted here), on strips whose columns fix every
cell, on planted grids, and on puzzles whose answer is known."""

from __future__ import annotations

import ast
import functools
import itertools
import math
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cspsolve.models.nonogram import read
from cspsolve.models.nonogram.board import Nonogram
from cspsolve.models.nonogram.colour_board import ColourNonogram

from . import colour_differential, differential
from .oracles import Blocks, Grid, Oracle, block_model, one_colour, starts

HERE = Path(__file__).resolve().parent
DATA = HERE.parents[1] / "data" / "nonogram"

SECONDS = 30.0
"""Time limit of the block model; never reached on these sizes."""

KEYS = ".rgbyk"
"""The background and up to five colours."""

MAX_GRIDS = 1 << 16
"""Most grids of a board enumerated (a 4x4 black-and-white board)."""

FAST = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])

Puzzle = tuple[tuple[Blocks, ...], tuple[Blocks, ...]]


def blocks(line: str | tuple[str, ...], keys: str) -> Blocks:
    """The blocks of a line of colour keys, as ``(length, colour)``."""
    return tuple(
        (len(list(run)), keys.index(key)) for key, run in itertools.groupby(line) if key != "."
    )


def clues(grid: Grid, keys: str) -> Puzzle:
    """The row and column clues of a grid."""
    return tuple(blocks(row, keys) for row in grid), tuple(
        blocks(c, keys) for c in zip(*grid, strict=True)
    )


@functools.cache
def every_puzzle(height: int, width: int, keys: str) -> dict[Puzzle, list[Grid]]:
    """The clues of every grid of this size, each mapped to its first two grids."""
    rows = {"".join(cells): blocks(cells, keys) for cells in itertools.product(keys, repeat=width)}
    columns = {
        "".join(cells): blocks(cells, keys) for cells in itertools.product(keys, repeat=height)
    }
    solutions: dict[Puzzle, list[Grid]] = {}
    for grid in itertools.product(rows, repeat=height):
        puzzle = (
            tuple(map(rows.__getitem__, grid)),
            tuple(columns["".join(column)] for column in zip(*grid, strict=True)),
        )
        found = solutions.setdefault(puzzle, [])
        if len(found) < 2:
            found.append(grid)
    return solutions


def grids(height: int, width: int, keys: str) -> st.SearchStrategy[Grid]:
    """Grids of this size; each cell one of ``keys``."""
    row = st.text(alphabet=keys, min_size=width, max_size=width)
    return st.lists(row, min_size=height, max_size=height).map(tuple)


@st.composite
def tiny_puzzles(draw: st.DrawFn) -> tuple[Puzzle, str]:
    """Clues of a board small enough to enumerate, and its keys: the rows' and columns' of
    one grid (solvable), or the rows of one grid and the columns of another, which is the
    first one's cells shuffled (the same totals: unsolvable for another reason than a count)
    or any grid."""
    keys = KEYS[: draw(st.integers(2, len(KEYS)))] if draw(st.booleans()) else ".#"
    cells = int(math.log(MAX_GRIDS, len(keys)) + 1e-9)
    height = draw(st.integers(1, cells))
    width = draw(st.integers(1, cells // height))
    grid = draw(grids(height, width, keys))
    other = draw(
        st.one_of(
            st.just(grid),
            st.permutations("".join(grid)).map(
                lambda shuffled: tuple(
                    "".join(shuffled[i : i + width]) for i in range(0, len(shuffled), width)
                )
            ),
            grids(height, width, keys),
        )
    )
    return (clues(grid, keys)[0], clues(other, keys)[1]), keys


def agrees(found: Oracle, puzzle: Puzzle, keys: str, solutions: list[Grid]) -> None:
    """Assert that ``found`` says what ``solutions`` (the first two, or all) show."""
    assert found.solvable == bool(solutions)
    assert found.unique == (len(solutions) == 1)
    if solutions:
        assert found.solution is not None
        assert clues(found.solution, keys) == puzzle
    if found.unique:
        assert found.solution == solutions[0]


def library_puzzle(puzzle: Puzzle, keys: str) -> Nonogram | ColourNonogram:
    """The library's puzzle type of these clues (what the differential oracles take)."""
    rows, columns = puzzle
    if keys == ".#":
        return Nonogram([[n for n, _ in c] for c in rows], [[n for n, _ in c] for c in columns])
    palette = colour_differential.PALETTE[: len(keys)]
    assert "".join(c.key for c in palette) == keys
    return ColourNonogram(rows, columns, palette)


@pytest.mark.slow
@FAST
@given(case=tiny_puzzles())
def test_the_oracles_agree_with_every_grid(case: tuple[Puzzle, str]) -> None:
    (rows, columns), keys = case
    solutions = every_puzzle(len(rows), len(columns), keys).get((rows, columns), [])
    agrees(block_model(rows, columns, keys, SECONDS), (rows, columns), keys, solutions)
    puzzle = library_puzzle((rows, columns), keys)
    if isinstance(puzzle, Nonogram):
        found = differential.brute_force(puzzle)
    else:
        found = colour_differential.brute_force(puzzle)
    agrees(found, (rows, columns), keys, solutions)


@pytest.mark.slow
@FAST
@given(
    keys=st.sampled_from((".#", ".r", ".rg", ".rgbyk")),
    data=st.data(),
    length=st.integers(1, 200),
    transpose=st.booleans(),
)
def test_block_model_on_strips(
    keys: str, data: st.DataObject, length: int, transpose: bool
) -> None:
    """A 1xN strip's columns fix every cell: its line's clue holds or does not."""
    line = data.draw(st.text(alphabet=keys, min_size=length, max_size=length))
    other = data.draw(
        st.one_of(st.just(line), st.text(alphabet=keys, min_size=length, max_size=length))
    )
    strip = (blocks(other, keys),), tuple(blocks(cell, keys) for cell in line)
    rows, columns = strip[::-1] if transpose else strip
    found = block_model(rows, columns, keys, SECONDS)
    solved = blocks(line, keys) == blocks(other, keys)
    assert (found.solvable, found.unique) == (solved, solved)
    if solved:
        assert found.solution == (tuple(line) if transpose else (line,))


@pytest.mark.slow
@FAST
@given(
    keys=st.sampled_from((".#", ".rg", ".rgb")),
    data=st.data(),
    height=st.integers(1, 20),
    width=st.integers(1, 20),
)
def test_block_model_solves_planted_grids(
    keys: str, data: st.DataObject, height: int, width: int
) -> None:
    """The clues of a grid are solvable; a unique solution is that grid, another one makes
    the puzzle not unique."""
    grid = data.draw(grids(height, width, keys))
    rows, columns = clues(grid, keys)
    found = block_model(rows, columns, keys, SECONDS)
    assert found.solvable and found.solution is not None
    assert clues(found.solution, keys) == (rows, columns)
    if found.unique:
        assert found.solution == grid
    if found.solution != grid:
        assert found.unique is False


@pytest.mark.slow
@FAST
@given(data=st.data(), height=st.integers(3, 20), width=st.integers(3, 20))
def test_a_switch_makes_the_block_model_not_unique(
    data: st.DataObject, height: int, width: int
) -> None:
    """A grid whose corner is ``#.`` over ``.#``, fenced by an empty third row and column,
    has the same clues with the corner ``.#`` over ``#.``."""
    grid = data.draw(grids(height, width, ".#"))
    corner = ("#..", ".#.", "...")
    grid = tuple(corner[i] + row[3:] if i < 3 else row for i, row in enumerate(grid))
    rows, columns = clues(grid, ".#")
    found = block_model(rows, columns, ".#", SECONDS)
    assert (found.solvable, found.unique) == (True, False)


def test_starts_pack_the_blocks_to_either_end() -> None:
    # 2r 1r 3g on 9 cells: 2r from 0, a gap, 1r at 3, 3g touching it at 4; and to the right.
    assert starts(((2, 1), (1, 1), (3, 2)), 9) == [(0, 2), (3, 5), (4, 6)]
    assert starts(((1, 1), (1, 1)), 3) == [(0, 0), (2, 2)]
    assert starts((), 4) == []


def file_clues(name: str) -> tuple[Puzzle, str]:
    """The clues and keys of a puzzle file of ``tests/data/nonogram``."""
    (entry,) = read(DATA / name)
    puzzle = entry.puzzle
    if isinstance(puzzle, Nonogram):
        return (tuple(map(one_colour, puzzle.rows)), tuple(map(one_colour, puzzle.columns))), ".#"
    keys = "".join(c.key for c in puzzle.colours)
    return (puzzle.rows, puzzle.columns), keys


KNOWN = {
    # Ueda & Nagao's example (the file's source says it has two solutions).
    "test_pattern_13.txt": (True, False, None),
    # The negative katakana "ne"; its source says the solution is not unique.
    "test_pattern_05.txt": (True, False, None),
    # Rows 1 1 and 2, every column 1: the 2 lies in the middle, under the row's 1 1 corners.
    "test_pattern_09.txt": (True, True, ("#..#", ".##.")),
    # Columns 2 and 4 are 2,1 with row 3 empty: rows 1 and 2 are .#.#.; the 3 of row 5 must
    # then be in the middle (at either end, row 4 would hold a 2).
    "smile.non": (True, True, (".#.#.", ".#.#.", ".....", "#...#", ".###.")),
    # Columns 1 and 6 fix the row ends; every row's blocks then have one place.
    "colour/tricolour.non": (True, True, ("bb..rr", "bb..rr", "XXXXXX", "X.XX.X", "b....r")),
    # A column block shortened by one: the rows fill 114 cells, the columns 113.
    "regressions/sum-mismatch-13x13.non": (False, False, None),
}


@pytest.mark.parametrize("name", sorted(KNOWN))
def test_block_model_on_known_puzzles(name: str) -> None:
    (rows, columns), keys = file_clues(name)
    found = block_model(rows, columns, keys, SECONDS)
    assert (found.solvable, found.unique) == KNOWN[name][:2]
    if found.unique:
        assert found.solution == KNOWN[name][2]
    elif found.solvable:
        assert found.solution is not None and clues(found.solution, keys) == (rows, columns)


ORACLE_MODULES = ("oracles.py", "differential.py", "colour_differential.py")

ALLOWED = {
    "cspsolve.models.nonogram": {"explicit", "kind"},
    "cspsolve.models.nonogram.board": None,
    "cspsolve.models.nonogram.colour_board": None,
    "cspsolve.models.nonogram.search.split": {"solve_split"},
}
"""What the oracle modules may import from the nonogram kind: the puzzle types (every name of
the board modules), ``kind`` to run the methods under test and ``solve_split`` the split search
under test, ``explicit`` to know which puzzles python-constraint takes; no other solver."""


@pytest.mark.parametrize("name", ORACLE_MODULES)
def test_the_oracles_import_no_solver(name: str) -> None:
    tree = ast.parse((HERE / name).read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            assert not any(a.name.startswith("cspsolve.models") for a in node.names), name
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("cspsolve.models"):
            allowed = ALLOWED.get(node.module or "", set())
            assert allowed is None or {a.name for a in node.names} <= allowed, (name, node.module)
