"""Nonograms made to order (:mod:`cspsolve.models.nonogram.generate`), each certificate
checked by an oracle that is not the generator's:

- uniqueness by every grid whose rows fit their clues (:func:`.oracles.brute_force`) on tiny
  boards, black and white and colour, and by the kind's CP-SAT model asked for two solutions
  (and once the tests' own block model, :func:`.oracles.block_model`) on 10x10 to 25x25;
- the grade ``line logic`` by the compiled line solver's fixpoint and the pure-Python one
  (:func:`.solver.python_line_fixpoint`), and the grades ``line logic`` and ``probing`` by a
  line logic and probing written here on the explanation tests' own line checker
  (:func:`.test_explain.possible`);
- a traced image by the drawing the test painted, the files by reading them back.
"""

from __future__ import annotations

import dataclasses
import io
import itertools
import json
import random
import re
import subprocess
import sys
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cspsolve import tasks, tracing
from cspsolve.errors import OptionError
from cspsolve.kind import Made
from cspsolve.limits import Limits
from cspsolve.models.nonogram.board import Nonogram
from cspsolve.models.nonogram.colour_board import ColourNonogram
from cspsolve.models.nonogram.colour_board import clue_of as colour_clue_of
from cspsolve.models.nonogram.generate import (
    PALETTE,
    GenerateOptions,
    make,
    max_changes,
)
from cspsolve.models.nonogram.kind import KIND
from cspsolve.models.nonogram.solver import GRADES, python_line_fixpoint

from . import differential, oracles
from .test_explain import possible

FAST = settings(max_examples=25, deadline=None)

Known = list[list[int | None]]
"""A partial grid of the oracle's line logic: 1 filled, 0 empty, None unknown."""


def made(rng_seed: int = 0, **options: Any) -> Made:
    """The puzzle ``make`` makes of ``options`` with a generator seeded ``rng_seed``."""
    result = make(GenerateOptions(**options), random.Random(rng_seed), Limits())
    assert result is not None
    return result


def solve_twice(puzzle: Nonogram | ColourNonogram, method: str) -> Any:
    """The kind's ``method`` asked for two solutions."""
    request = tasks.Request(method, None, {"solutions": 2})
    return tasks.solve(KIND, puzzle, request=request, limits=Limits(time_limit=60))


# --- the oracle's line logic and probing ----------------------------------------------------


def lines(puzzle: Nonogram) -> list[tuple[Sequence[int], list[tuple[int, int]]]]:
    """Each line's clue and cells, rows then columns."""
    rows = [(clue, [(r, c) for c in range(puzzle.width)]) for r, clue in enumerate(puzzle.rows)]
    columns = [
        (clue, [(r, c) for r in range(puzzle.height)]) for c, clue in enumerate(puzzle.columns)
    ]
    return rows + columns


def line_logic(puzzle: Nonogram, known: Known, start: set[int] | None = None) -> bool:
    """Line logic to its fixpoint on ``known`` (in place) from the lines ``start`` (rows
    first, then columns; default every line); False when a line has no placement that fits."""
    every = lines(puzzle)
    dirty = set(range(len(every))) if start is None else start
    while dirty:
        line = dirty.pop()
        clue, cells = every[line]
        values = possible(clue, [known[r][c] for r, c in cells])
        if values is None:
            return False
        for (r, c), can in zip(cells, values, strict=True):
            if known[r][c] is None and len(can) == 1:
                known[r][c] = next(iter(can))
                dirty |= {r, puzzle.height + c}
    return True


def probed(puzzle: Nonogram, known: Known) -> bool:
    """Line logic and probes of depth 1 (a value assumed, line logic on a copy, the value
    ruled out when a line is left without placement) to their fixpoint, in place; False on a
    contradiction."""
    start = None
    while line_logic(puzzle, known, start):
        ruled_out = next(
            (
                (r, c, value)
                for r, c in itertools.product(range(puzzle.height), range(puzzle.width))
                for value in (1, 0)
                if known[r][c] is None and refuted(puzzle, known, r, c, value)
            ),
            None,
        )
        if ruled_out is None:
            return True
        r, c, value = ruled_out
        known[r][c] = 1 - value
        start = {r, puzzle.height + c}
    return False


def refuted(puzzle: Nonogram, known: Known, row: int, col: int, value: int) -> bool:
    """Whether line logic, ``value`` assumed at ``(row, col)``, leaves a line no placement."""
    trial = [cells[:] for cells in known]
    trial[row][col] = value
    return not line_logic(puzzle, trial, {row, puzzle.height + col})


def oracle_grade(puzzle: Nonogram) -> str:
    """``line logic`` or ``probing`` when they decide every cell, else ``deeper``."""
    known: Known = [[None] * puzzle.width for _ in range(puzzle.height)]
    assert line_logic(puzzle, known)
    if all(cell is not None for row in known for cell in row):
        return "line logic"
    assert probed(puzzle, known)
    return "probing" if all(cell is not None for row in known for cell in row) else "deeper"


def grid_of(known: Known) -> tuple[str, ...]:
    return tuple("".join("#" if cell else "." for cell in row) for row in known)


def test_the_oracle_grades_known_puzzles() -> None:
    cross = Nonogram(rows=[(1,), (3,), (1,)], columns=[(1,), (3,), (1,)])
    assert oracle_grade(cross) == "line logic"
    # the two diagonals of 2x2 both fit: probing cannot settle them
    assert oracle_grade(Nonogram(rows=[(1,), (1,)], columns=[(1,), (1,)])) == "deeper"
    # line logic stalls on this picture; probing settles it
    picture = ("#..#.", "..#.#", "....#", "....#", "..##.")
    needs_probes = Nonogram(
        rows=[(1, 1), (1, 1), (1,), (1,), (2,)], columns=[(1,), (), (1, 1), (1, 1), (3,)]
    )
    assert oracle_grade(needs_probes) == "probing"
    known: Known = [[None] * 5 for _ in range(5)]
    assert probed(needs_probes, known) and grid_of(known) == picture


# --- the declaration ------------------------------------------------------------------------


def test_the_kind_declares_its_generator() -> None:
    generator = KIND.generator
    assert generator is not None and generator.extension == ".non" and generator.note
    assert generator.options is GenerateOptions and generator.make is make
    allowed = {"bool", "int | None", "float | None", "str | None"}
    for field in dataclasses.fields(GenerateOptions):
        assert field.type in allowed and field.metadata["help"]
        assert field.default is not dataclasses.MISSING
    grade = next(f for f in dataclasses.fields(GenerateOptions) if f.name == "grade")
    assert grade.metadata["choices"] == GRADES


def test_importing_the_kind_loads_no_numpy_nor_pillow() -> None:
    code = (
        "import sys; from cspsolve import registry; registry.get('nonogram');"
        "print([m for m in ('numpy', 'numba', 'PIL') if m in sys.modules])"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


# --- uniqueness -----------------------------------------------------------------------------


@FAST
@given(
    st.integers(1, 5),
    st.integers(1, 4),
    st.floats(0.1, 0.9),
    st.integers(0, 2**32),
)
def test_tiny_unique_puzzles_have_one_grid_by_brute_force(
    width: int, height: int, fill: float, seed: int
) -> None:
    result = made(seed, size=f"{width}x{height}", fill=fill, unique=True)
    puzzle = result.puzzle
    assert isinstance(puzzle, Nonogram) and (puzzle.width, puzzle.height) == (width, height)
    known = differential.brute_force(puzzle)
    assert known.unique and known.solution == puzzle.goal
    certificate = result.certificate
    assert certificate["unique"] is True and "probing" in certificate["proven_by"]
    assert 0 <= certificate["cells_changed"] <= max_changes(width, height)


def colour_line_clue(keys: str) -> Any:
    """The colour clue of a line of keys (the tests' own, on the puzzle's keys)."""
    return lambda line: colour_clue_of(keys.index(ch) for ch in line)


@settings(max_examples=15, deadline=None)
@given(st.integers(1, 3), st.integers(1, 3), st.integers(2, 3), st.integers(0, 2**32))
def test_tiny_colour_puzzles_have_one_grid_by_brute_force(
    width: int, height: int, colours: int, seed: int
) -> None:
    result = made(seed, size=f"{width}x{height}", colours=colours, unique=True)
    puzzle = result.puzzle
    assert isinstance(puzzle, ColourNonogram) and len(puzzle.colours) == colours + 1
    keys = "".join(c.key for c in puzzle.colours)
    clue = colour_line_clue(keys)

    def solves(grid: tuple[str, ...]) -> bool:
        columns = ["".join(row[c] for row in grid) for c in range(width)]
        return [clue(c) for c in columns] == list(puzzle.columns)

    known = oracles.brute_force(puzzle.rows, width, keys, clue, solves)
    assert known.unique and known.solution == puzzle.goal
    assert result.certificate["colours"] == colours


@pytest.mark.parametrize(("size", "seed"), [("10x10", 1), ("15x15", 2), ("25x25", 3)])
def test_unique_puzzles_have_one_solution_by_cpsat(size: str, seed: int) -> None:
    result = made(seed, size=size, unique=True)
    found = solve_twice(result.puzzle, "cpsat")
    assert found.proof["unique"] is True and found.solution == result.puzzle.goal


def test_a_unique_puzzle_has_one_solution_by_the_tests_block_model() -> None:
    puzzle = made(4, size="15x12", fill=0.55, unique=True).puzzle
    rows = [oracles.one_colour(clue) for clue in puzzle.rows]
    columns = [oracles.one_colour(clue) for clue in puzzle.columns]
    known = oracles.block_model(rows, columns, ".#", 60.0)
    assert known.unique is True and known.solution == puzzle.goal


def test_a_unique_colour_puzzle_has_one_solution_by_cpsat() -> None:
    result = made(5, size="12x10", colours=3, unique=True)
    found = solve_twice(result.puzzle, "cpsat")
    assert found.proof["unique"] is True and found.solution == result.puzzle.goal


def test_without_unique_nothing_is_claimed_but_the_draw() -> None:
    result = made(6, size="7x5", fill=0.3)
    assert result.certificate == {"size": "7x5", "fill": 0.3}
    assert not KIND.check(result.puzzle, result.puzzle.goal)


# --- grades ---------------------------------------------------------------------------------


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from(["8x8", "10x10", "12x9"]))
def test_line_logic_puzzles_are_solved_by_either_line_solver(seed: int, size: str) -> None:
    from cspsolve.models.nonogram.lines.cells import UNKNOWN
    from cspsolve.models.nonogram.search.propagation import line_logic as compiled

    result = made(seed, size=size, grade="line logic")
    puzzle = result.puzzle
    cells = puzzle.width * puzzle.height
    consistent, grid, _ = compiled(puzzle)
    assert consistent and int((grid != UNKNOWN).sum()) == cells
    assert python_line_fixpoint(puzzle) == (True, cells)
    assert oracle_grade(puzzle) == "line logic"
    assert result.certificate["grade"] == "line logic" and result.certificate["unique"] is True


@settings(max_examples=8, deadline=None)
@given(st.integers(0, 2**32))
def test_probing_puzzles_need_probes_and_no_more(seed: int) -> None:
    result = made(seed, size="10x10", grade="probing")
    puzzle = result.puzzle
    assert oracle_grade(puzzle) == "probing"
    known: Known = [[None] * puzzle.width for _ in range(puzzle.height)]
    assert probed(puzzle, known) and grid_of(known) == puzzle.goal
    assert python_line_fixpoint(puzzle)[1] < puzzle.width * puzzle.height
    assert result.certificate["grade"] == "probing"


def test_the_grade_is_explains() -> None:
    result = made(7, size="15x15", grade="probing")
    assert KIND.explain is not None
    explained = KIND.explain(
        result.puzzle, method=None, heuristic=None, options=KIND.options(), limits=None
    )
    assert explained.summary["grade"] == "probing" and explained.summary["verdict"] == "unique"


@pytest.mark.parametrize(("grade", "seed"), [("deeper probes", 3), ("search", 1)])
def test_harder_grades_need_more_than_probing(grade: str, seed: int) -> None:
    result = made(seed, size="20x20", fill=0.4, grade=grade)
    puzzle = result.puzzle
    assert solve_twice(puzzle, "cpsat").proof["unique"] is True
    assert python_line_fixpoint(puzzle)[1] < puzzle.width * puzzle.height
    assert oracle_grade(puzzle) == "deeper"
    assert result.certificate["grade"] == grade


@pytest.mark.slow
@settings(max_examples=20, deadline=None)
@given(st.integers(0, 2**32))
def test_probing_25x25_puzzles_are_unique_by_the_tests_block_model(seed: int) -> None:
    puzzle = made(seed, size="25x25", grade="probing").puzzle
    rows = [oracles.one_colour(clue) for clue in puzzle.rows]
    columns = [oracles.one_colour(clue) for clue in puzzle.columns]
    known = oracles.block_model(rows, columns, ".#", 60.0)
    assert known.unique is True and known.solution == puzzle.goal
    assert python_line_fixpoint(puzzle)[1] < puzzle.width * puzzle.height


def test_a_grade_no_puzzle_of_the_size_has_is_an_option_error() -> None:
    with pytest.raises(OptionError, match=r"^--grade search: .*1x1.* 300 tries$"):
        make(GenerateOptions(size="1x1", grade="search"), random.Random(0), Limits())


# --- images ---------------------------------------------------------------------------------


def painted(grid: Sequence[str], scale: int, fmt: str) -> bytes:
    """``grid`` painted, each cell ``scale`` pixels square, black on white."""
    from PIL import Image

    image = Image.new("L", (len(grid[0]) * scale, len(grid) * scale), 255)
    for r, row in enumerate(grid):
        for c, ch in enumerate(row):
            if ch == "#":
                image.paste(0, (c * scale, r * scale, (c + 1) * scale, (r + 1) * scale))
    out = io.BytesIO()
    (image.convert("1") if fmt == "PPM" else image).save(out, fmt)
    return out.getvalue()


DRAWING = ("#..##", ".##..", "#...#", "####.")


@pytest.mark.parametrize(("fmt", "suffix"), [("PNG", ".png"), ("PPM", ".pbm"), ("GIF", ".gif")])
def test_an_image_is_traced_to_the_size(tmp_path: Path, fmt: str, suffix: str) -> None:
    path = tmp_path / f"drawing{suffix}"
    path.write_bytes(painted(DRAWING, 7, fmt))
    result = made(0, size="5x4", image=str(path))
    assert result.puzzle.goal == DRAWING
    assert result.certificate == {"size": "5x4", "image": path.name}


def test_a_unique_image_counts_the_cells_changed(tmp_path: Path) -> None:
    path = tmp_path / "drawing.png"
    path.write_bytes(painted(DRAWING, 3, "PNG"))
    result = made(1, size="5x4", image=str(path), unique=True)
    goal = result.puzzle.goal
    cells = zip("".join(goal), "".join(DRAWING), strict=True)
    changed = sum(a != b for a, b in cells)
    assert result.certificate["cells_changed"] == changed
    assert differential.brute_force(result.puzzle).unique


def test_a_graded_image_keeps_its_grade(tmp_path: Path) -> None:
    path = tmp_path / "drawing.png"
    path.write_bytes(painted(DRAWING, 4, "PNG"))
    result = made(2, size="5x4", image=str(path), grade="line logic")
    puzzle = result.puzzle
    assert python_line_fixpoint(puzzle) == (True, 20) and oracle_grade(puzzle) == "line logic"
    changed = sum(a != b for a, b in zip("".join(puzzle.goal), "".join(DRAWING), strict=True))
    assert result.certificate["cells_changed"] == changed
    assert result.certificate["grade"] == "line logic"


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"not an image", "not a PNG"),
        (b"P1\n3", re.escape(f"not a {tracing.WORDS} image")),
    ],
)
def test_an_unreadable_image_is_an_option_error(tmp_path: Path, data: bytes, message: str) -> None:
    path = tmp_path / "broken.png"
    path.write_bytes(data)
    with pytest.raises(OptionError, match=rf"^--image: .*broken\.png.*{message}"):
        make(GenerateOptions(image=str(path)), random.Random(0), Limits())
    with pytest.raises(OptionError, match=r"^--image: cannot read .*missing\.png"):
        make(GenerateOptions(image=str(tmp_path / "missing.png")), random.Random(0), Limits())


# --- options, limits, determinism, files ----------------------------------------------------


@pytest.mark.parametrize(
    ("options", "flag"),
    [
        ({"size": "10"}, "--size"),
        ({"size": "0x5"}, "--size"),
        ({"size": "ax3"}, "--size"),
        ({"size": "3000x3"}, "--size"),
        ({"size": "1100x1000"}, "--size"),
        ({"fill": 0.0}, "--fill"),
        ({"fill": 1.0}, "--fill"),
        ({"fill": -0.5}, "--fill"),
        ({"fill": float("nan")}, "--fill"),
        ({"colours": 1}, "--colours"),
        ({"colours": len(PALETTE) + 1}, "--colours"),
        ({"colours": 2, "image": "x.png"}, "--colours"),
        ({"grade": "hard"}, "--grade"),
    ],
)
def test_bad_options_are_one_line_errors_naming_the_flag(
    options: dict[str, Any], flag: str
) -> None:
    with pytest.raises(OptionError) as raised:
        make(GenerateOptions(**options), random.Random(0), Limits(time_limit=0))
    assert str(raised.value).startswith(f"{flag}: ") and "\n" not in str(raised.value)


def test_a_time_limit_of_zero_makes_nothing_at_once() -> None:
    started = time.perf_counter()
    for options in (GenerateOptions(), GenerateOptions(unique=True, size="25x25")):
        assert make(options, random.Random(0), Limits(time_limit=0)) is None
    assert time.perf_counter() - started < 0.5


def test_a_time_limit_stops_a_long_making() -> None:
    options = GenerateOptions(size="40x40", fill=0.35, grade="search")
    started = time.perf_counter()
    assert make(options, random.Random(0), Limits(time_limit=0.5)) is None
    assert time.perf_counter() - started < 2.5


def test_cancellation_stops_the_making() -> None:
    cancel = threading.Event()
    cancel.set()
    options = GenerateOptions(size="25x25", unique=True)
    assert make(options, random.Random(0), Limits(cancel=cancel)) is None


@settings(max_examples=10, deadline=None)
@given(
    st.integers(0, 2**32),
    st.sampled_from(
        [
            {"size": "9x7"},
            {"size": "12x12", "unique": True},
            {"size": "10x8", "grade": "probing"},
            {"size": "6x6", "colours": 3, "unique": True},
        ]
    ),
)
def test_one_seed_makes_one_puzzle(seed: int, options: dict[str, Any]) -> None:
    first, second = made(seed, **options), made(seed, **options)
    assert first == second and first.puzzle.goal == second.puzzle.goal


def test_one_seed_makes_one_puzzle_in_another_process() -> None:
    code = (
        "import json, random; from cspsolve.limits import Limits;"
        "from cspsolve.models.nonogram import write_non;"
        "from cspsolve.models.nonogram.generate import GenerateOptions, make;"
        "m = make(GenerateOptions(size='20x15', grade='probing'), random.Random(42), Limits());"
        "print(json.dumps([write_non(m.puzzle), m.certificate]))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    here = made(42, size="20x15", grade="probing")
    from cspsolve.models.nonogram import write_non

    assert json.loads(out.stdout) == [write_non(here.puzzle), here.certificate]


@pytest.mark.parametrize(
    "options",
    [
        {"size": "25x25", "grade": "probing"},
        {"size": "8x6", "colours": 4, "unique": True},
        {"size": "5x9", "fill": 0.7},
    ],
)
def test_the_file_reads_back_to_the_puzzle(tmp_path: Path, options: dict[str, Any]) -> None:
    result = made(9, **options)
    assert KIND.generator is not None
    path = tmp_path / f"made{KIND.generator.extension}"
    KIND.write(result.puzzle, path)
    [entry] = KIND.read(path)
    assert entry.puzzle == result.puzzle and entry.puzzle.goal == result.puzzle.goal
    json.dumps(result.certificate)


def test_the_certificate_says_what_was_proven() -> None:
    result = made(10, size="25x25", grade="probing")
    assert list(result.certificate) == [
        "size",
        "fill",
        "unique",
        "proven_by",
        "grade",
        "graded_by",
        "cells_changed",
    ]
    assert result.certificate["size"] == "25x25" and result.certificate["fill"] == 0.5
