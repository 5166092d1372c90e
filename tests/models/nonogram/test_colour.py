"""The colour nonogram model, its line solver and its search: each against brute force, and a
colour puzzle of one colour against the black-and-white solver."""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cspsolve.errors import OptionError, PuzzleError
from cspsolve.limits import Limits
from cspsolve.models.nonogram import Nonogram, kind, solver
from cspsolve.models.nonogram import colour_cpsat as cpsat
from cspsolve.models.nonogram.colour_board import Colour, ColourNonogram, check, clue_of
from cspsolve.models.nonogram.lines.cells import EMPTY, FILLED, UNKNOWN, settle_line
from cspsolve.models.nonogram.lines.cells import scratch as bw_scratch
from cspsolve.models.nonogram.lines.colour import scratch, settle_colour_line
from cspsolve.models.nonogram.search.colour import solve_colour
from cspsolve.results import Status

from .colour_differential import PALETTE

RED = PALETTE[:2]
"""The background and red: a colour puzzle of one colour."""


def test_clue_of_separates_colours_and_runs() -> None:
    assert clue_of([0, 1, 1, 2, 2, 0, 2, 1]) == ((2, 1), (2, 2), (1, 2), (1, 1))
    assert clue_of([0, 0]) == ()


@pytest.mark.parametrize(
    ("colours", "rows", "message"),
    [
        (PALETTE[:1], [()], "2 to 32 colours"),
        ((Colour("x", "white", "#ffffff"), PALETTE[1]), [()], "background's key"),
        ((PALETTE[0], Colour("1", "red", "#ff0000")), [()], "not one ASCII letter"),
        ((PALETTE[0], Colour("r", "red", "red")), [()], "is not #rrggbb"),
        ((PALETTE[0], PALETTE[1], Colour("r", "rose", "#ff00ff")), [()], "declared twice"),
        (RED, [((1, 2),)], "row 1: colour 2 is not one of the puzzle's colours 1..1"),
        (RED, [((0, 1),)], "row 1: run length 0 is not a positive integer"),
        (RED, [((1, 1), (1, 1))], "row 1: clue 1r 1r needs 3 cells, the line has 2"),
    ],
)
def test_malformed_puzzles_are_refused(
    colours: tuple[Colour, ...], rows: list[tuple[tuple[int, int], ...]], message: str
) -> None:
    with pytest.raises(PuzzleError, match=message):
        ColourNonogram(rows, [(), ()], colours)


def test_blocks_of_different_colours_may_touch() -> None:
    puzzle = ColourNonogram([((1, 1), (1, 2))], [((1, 1),), ((1, 2),)], PALETTE[:3])
    assert check(puzzle, ["rg"]) == []
    assert check(puzzle, ["gr"]) == [
        "row 1: blocks ['1g', '1r'], clue ['1r', '1g']",
        "column 1: blocks ['1g'], clue ['1r']",
        "column 2: blocks ['1r'], clue ['1g']",
    ]
    assert check(puzzle, ["r"]) == ["grid is not 2x1"]
    assert check(puzzle, ["r#"]) == ["grid holds characters that are not the puzzle's colour keys"]


def _settle(masks: list[int], clue: tuple[tuple[int, int], ...]) -> list[int] | None:
    cells = np.array(masks, np.uint32)
    lengths = np.array([n for n, _ in clue], np.int64)
    colours = np.array([c for _, c in clue], np.int64)
    if not settle_colour_line(cells, lengths, colours, *scratch(len(masks), len(clue))):
        return None
    return [int(m) for m in cells]


def _enumerated(masks: list[int], clue: tuple[tuple[int, int], ...]) -> list[int] | None:
    """Each cell's colours over every line agreeing with the masks and the clue."""
    keep = [0] * len(masks)
    allowed = [[c for c in range(32) if m >> c & 1] for m in masks]
    found = False
    for line in itertools.product(*allowed):
        if clue_of(line) == clue:
            found = True
            for i, c in enumerate(line):
                keep[i] |= 1 << c
    return keep if found else None


@st.composite
def partial_lines(draw: st.DrawFn) -> tuple[list[int], tuple[tuple[int, int], ...]]:
    """A line of 1 to 5 colours narrowed at random, and a clue (of a random line, sometimes
    with a block changed)."""
    colours = draw(st.integers(1, 5))
    n = draw(st.integers(1, 8 if colours <= 2 else 6))
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    line = [rng.randint(1, colours) if rng.random() < 0.6 else 0 for _ in range(n)]
    clue = clue_of(line)
    if clue and rng.random() < 0.3:
        k = rng.randrange(len(clue))
        length, _ = clue[k]
        changed = (max(1, length + rng.choice((-1, 1))), rng.randint(1, colours))
        clue = (*clue[:k], changed, *clue[k + 1 :])
    full = (1 << (colours + 1)) - 1
    masks = [full & ~rng.getrandbits(colours + 1) if rng.random() < 0.4 else full for _ in line]
    return [m or full for m in masks], clue


@settings(max_examples=400, deadline=None, derandomize=True, database=None)
@given(partial_lines())
def test_line_solver_keeps_exactly_the_colours_of_some_placement(
    case: tuple[list[int], tuple[tuple[int, int], ...]],
) -> None:
    masks, clue = case
    assert _settle(masks, clue) == _enumerated(masks, clue)


@settings(max_examples=200, deadline=None, derandomize=True, database=None)
@given(st.integers(1, 150), st.integers(0, 2**32 - 1))
def test_line_solver_of_one_colour_matches_the_black_and_white_one(n: int, seed: int) -> None:
    rng = random.Random(seed)
    line = [rng.random() < 0.6 for _ in range(n)]
    clue = clue_of(int(x) for x in line)
    codes = [rng.choice((EMPTY, FILLED, UNKNOWN, UNKNOWN, UNKNOWN)) for _ in line]
    cells = np.array(codes, np.uint8)
    runs = np.array([length for length, _ in clue], np.int64)
    expected = settle_line(cells, runs, *bw_scratch(n, len(clue)))
    # A black-and-white cell code is the colour mask: bit 0 empty, bit 1 filled.
    got = _settle(codes, clue)
    assert (got is not None) == expected
    if expected:
        assert got == [int(c) for c in cells]


def _one_colour(puzzle: Nonogram) -> ColourNonogram:
    """``puzzle`` as a colour puzzle of one colour, red."""
    rows = [tuple((n, 1) for n in clue) for clue in puzzle.rows]
    columns = [tuple((n, 1) for n in clue) for clue in puzzle.columns]
    return ColourNonogram(rows, columns, RED)


@pytest.mark.slow
@settings(max_examples=60, deadline=None, derandomize=True, database=None)
@given(st.integers(1, 14), st.integers(1, 14), st.floats(0.3, 0.8), st.integers(0, 2**32 - 1))
def test_one_colour_gives_the_answer_of_the_black_and_white_solver(
    width: int, height: int, density: float, seed: int
) -> None:
    rng = random.Random(seed)
    grid = [[rng.random() < density for _ in range(width)] for _ in range(height)]
    bw = Nonogram(
        [clue_of_bw(row) for row in grid], [clue_of_bw(col) for col in zip(*grid, strict=True)]
    )
    black_white = kind.solve(bw, "probing", unique=True)
    coloured = kind.solve(_one_colour(bw), "probing", unique=True)
    assert coloured.status is black_white.status is Status.SOLVED
    assert coloured.proof["unique"] == black_white.proof["unique"]
    assert coloured.solution is not None and black_white.solution is not None
    if black_white.proof["unique"]:
        assert [row.replace("r", "#") for row in coloured.solution] == list(black_white.solution)


def clue_of_bw(line: list[bool] | tuple[bool, ...]) -> tuple[int, ...]:
    """The runs of a black-and-white line."""
    return tuple(n for n, _ in clue_of(int(x) for x in line))


def test_methods_of_the_generic_engine_refuse_colour_puzzles() -> None:
    puzzle = _one_colour(Nonogram([(1,)], [(1,)]))
    for method in ("gac-astar", "mac", "python-constraint"):
        with pytest.raises(OptionError, match="black-and-white nonograms only"):
            kind.solve(puzzle, method)


def test_colour_totals_that_differ_are_unsolvable_at_once() -> None:
    puzzle = ColourNonogram([((1, 1),), ((1, 2),)], [((1, 1),), ((1, 1),)], PALETTE[:3])
    for method in ("probing", "cpsat"):
        result = kind.solve(puzzle, method, unique=True)
        assert result.status is Status.UNSOLVABLE
        assert result.proof["unique"] is False
    assert kind.solve(puzzle).message == "the row clues have 1 red cells, the column clues 2"


TWO_WAYS = ColourNonogram([((1, 1),), ((1, 1),)], [((1, 1),), ((1, 1),)], RED)
"""One red cell in each row and each column: on either diagonal."""


def test_search_finds_both_grids_of_an_ambiguous_puzzle() -> None:
    result = solve_colour(TWO_WAYS, max_solutions=2)
    assert result.status is Status.SOLVED and result.proof["unique"] is False
    assert result.stats.extra["solutions"] == 2
    assert check(TWO_WAYS, result.solution or ()) == []
    assert cpsat.solve(TWO_WAYS, max_solutions=2).proof["unique"] is False


def test_node_limit_stops_the_search() -> None:
    result = solve_colour(TWO_WAYS, limits=Limits(max_nodes=0), max_solutions=2)
    assert result.status is Status.LIMIT and result.solution is None


def test_a_colour_puzzle_shows_itself_in_a_notebook() -> None:
    svg = TWO_WAYS._repr_svg_()  # type: ignore[attr-defined]
    assert svg is not None and svg.startswith("<?xml") and "1r" in svg


def test_line_logic_counts_the_cells_it_decides() -> None:
    assert solver.line_logic(TWO_WAYS) == (True, 0)
    line_solvable = ColourNonogram([((1, 1), (1, 2))], [((1, 1),), ((1, 2),)], PALETTE[:3])
    assert solver.line_logic(line_solvable) == (True, 2)
