"""Sliding-tile boards made to order (:mod:`cspsolve.models.npuzzle.generate`).

Every certificate is checked by an oracle that shares no code with the generator: on boards
up to 3x4, the exact distance to the goal by a breadth-first search written here (from both
ends, layer by layer); on the 15-puzzle, the engine's IDA* with the Manhattan distance (the
generator proves its boards with the compiled IDA* and pattern databases). Plans are replayed
by the kind's independent checker (:func:`.board.check`) and by :func:`replayed` here.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cspsolve import tasks
from cspsolve.errors import OptionError
from cspsolve.kind import Made
from cspsolve.limits import Limits
from cspsolve.models.npuzzle import generate
from cspsolve.models.npuzzle.board import Puzzle, check
from cspsolve.models.npuzzle.generate import EXTENSION, GOALS, GenerateOptions, make
from cspsolve.models.npuzzle.kind import KIND
from cspsolve.results import Status

STEPS = {"U": (-1, 0), "D": (1, 0), "L": (0, -1), "R": (0, 1)}
"""The blank's step of each move, written here."""


def goal_of(name: str, cells: int) -> tuple[int, ...]:
    """The goal called ``name``, written here: ``standard`` 1 .. cells-1 then the blank,
    ``korf`` the blank then 1 .. cells-1."""
    return (*range(1, cells), 0) if name == "standard" else tuple(range(cells))


def next_to(rows: int, cols: int, cell: int) -> list[int]:
    """The cells next to ``cell``."""
    r, c = divmod(cell, cols)
    steps = ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
    return [a * cols + b for a, b in steps if 0 <= a < rows and 0 <= b < cols]


def expanded(
    rows: int,
    cols: int,
    seen: dict[tuple[int, ...], int],
    layer: list[tuple[int, ...]],
    other: dict[tuple[int, ...], int],
) -> tuple[list[tuple[int, ...]], int | None]:
    """The next layer of one end of the search, and the shortest meeting with ``other``."""
    best: int | None = None
    after = []
    for tiles in layer:
        depth = seen[tiles] + 1
        blank = tiles.index(0)
        for cell in next_to(rows, cols, blank):
            board = list(tiles)
            board[blank], board[cell] = board[cell], 0
            state = tuple(board)
            if state in other:
                total = depth + other[state]
                best = total if best is None else min(best, total)
            if state not in seen:
                seen[state] = depth
                after.append(state)
    return after, best


def distance(puzzle: Puzzle) -> int:
    """The fewest moves from the start to the goal: breadth-first search from both ends, the
    smaller layer grown first (exact: the first layer that meets the other end gives it)."""
    start, goal = tuple(puzzle.start), tuple(puzzle.goal)
    if start == goal:
        return 0
    seen = [{start: 0}, {goal: 0}]
    layers = [[start], [goal]]
    while layers[0] and layers[1]:
        k = 0 if len(layers[0]) <= len(layers[1]) else 1
        layers[k], best = expanded(puzzle.rows, puzzle.cols, seen[k], layers[k], seen[1 - k])
        if best is not None:
            return best
    raise AssertionError("the goal cannot be reached")


def replayed(puzzle: Puzzle, plan: Sequence[str]) -> tuple[int, ...]:
    """The board after ``plan`` from the start, written here."""
    tiles = list(puzzle.start)
    for move in plan:
        blank = tiles.index(0)
        r, c = divmod(blank, puzzle.cols)
        dr, dc = STEPS[move]
        assert 0 <= r + dr < puzzle.rows and 0 <= c + dc < puzzle.cols, move
        cell = (r + dr) * puzzle.cols + c + dc
        tiles[blank], tiles[cell] = tiles[cell], 0
    return tuple(tiles)


def made(size: str, moves: int | None = None, goal: str = "standard", seed: int = 0) -> Made:
    """A board made with ``Random(seed)`` and no limits (never stopped)."""
    options = GenerateOptions(size=size, moves=moves, goal=goal)
    result = make(options, random.Random(seed), Limits())
    assert result is not None
    return result


def assert_proven(made: Made, size: str, goal: str, optimum: int) -> None:
    """The certificate proves ``optimum``, with a plan of that length that reaches the goal."""
    puzzle, cert = made
    rows, cols = (int(n) for n in size.split("x"))
    assert (puzzle.rows, puzzle.cols, puzzle.goal) == (rows, cols, goal_of(goal, rows * cols))
    assert cert["size"] == size and cert["goal"] == goal
    assert cert["optimum"] == optimum
    assert "optimal" in cert["proven_by"]
    plan = cert["plan"].split()
    assert len(plan) == optimum
    assert check(puzzle, plan) == []
    assert replayed(puzzle, plan) == puzzle.goal
    json.dumps(cert)


# --- exact optima against breadth-first search ------------------------------------------------


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    shape=st.sampled_from(("2x3", "3x2", "2x4", "3x3")),
    fraction=st.floats(0, 1),
    goal=st.sampled_from(tuple(GOALS)),
)
def test_small_boards_need_exactly_the_moves_asked(
    seed: int, shape: str, fraction: float, goal: str
) -> None:
    most = {"2x3": 21, "3x2": 21, "2x4": 36, "3x3": 31}[shape]
    moves = round(fraction * most)
    board = made(shape, moves, goal, seed)
    assert distance(board.puzzle) == moves
    assert_proven(board, shape, goal, moves)
    assert "breadth-first" in board.certificate["proven_by"]


@pytest.mark.parametrize(("size", "moves"), [("3", 31), ("2x4", 36), ("2x3", 21), ("1x6", 5)])
def test_the_farthest_positions_are_made(size: str, moves: int) -> None:
    board = made(size, moves)
    assert distance(board.puzzle) == moves
    assert board.certificate["optimum"] == moves


@pytest.mark.parametrize(("size", "moves", "goal"), [("3x4", 18, "standard"), ("4x3", 22, "korf")])
def test_larger_boards_need_exactly_the_moves_asked(size: str, moves: int, goal: str) -> None:
    for seed in range(2):
        board = made(size, moves, goal, seed)
        assert distance(board.puzzle) == moves
        assert_proven(board, size, goal, moves)
        assert board.certificate["proven_by"].startswith("tile-idastar/pdb")


@pytest.mark.parametrize(("size", "goal"), [("3x3", "standard"), ("2x4", "korf"), ("3x4", "korf")])
def test_random_boards_are_solved_optimally(size: str, goal: str) -> None:
    board = made(size, None, goal, seed=5)
    assert_proven(board, size, goal, distance(board.puzzle))
    assert board.certificate["made_by"] == "a uniformly random solvable position"


def test_fifteen_puzzles_against_another_method() -> None:
    """The 15-puzzle's optimum, proven again by the engine's IDA* with the Manhattan
    distance (not the compiled IDA* with pattern databases that made it)."""
    for seed, moves in ((1, 20), (2, 26), (3, 30)):
        board = made("4", moves, "standard", seed)
        assert board.certificate["proven_by"].startswith("tile-idastar/pdb")
        request = tasks.Request("idastar", "manhattan")
        other = tasks.solve(KIND, board.puzzle, request=request, limits=Limits(time_limit=30))
        assert other.status == Status.OPTIMAL, other.summary()
        assert other.stats.cost == moves
        assert_proven(board, "4x4", "standard", moves)


@pytest.mark.slow
@pytest.mark.parametrize("goal", tuple(GOALS))
def test_fifteen_puzzles_of_fifty_moves(goal: str) -> None:
    """The project's target boards, proven again with the Manhattan distance (the compiled
    IDA*: the engine's takes minutes at this depth)."""
    request = tasks.Request("tile-idastar", "manhattan")
    for seed in range(3):
        board = made("4", 50, goal, seed)
        assert_proven(board, "4x4", goal, 50)
        other = tasks.solve(KIND, board.puzzle, request=request, limits=Limits(time_limit=120))
        assert other.status == Status.OPTIMAL and other.stats.cost == 50, other.summary()


def test_boards_out_of_the_solvers_reach_are_bounded() -> None:
    puzzle, cert = made("5", None, "standard", seed=3)
    assert cert["optimum"] is None
    plan = cert["plan"].split()
    assert len(plan) == cert["upper_bound"] and replayed(puzzle, plan) == puzzle.goal
    home = {tile: cell for cell, tile in enumerate(puzzle.goal)}
    manhattan = sum(
        abs(cell // 5 - home[t] // 5) + abs(cell % 5 - home[t] % 5)
        for cell, t in enumerate(puzzle.start)
        if t
    )
    assert cert["lower_bound"] == manhattan <= cert["upper_bound"]
    assert "bounds only" in cert["proven_by"]


def test_a_large_board_to_order() -> None:
    board = made("6x5", 24, "korf", seed=4)
    assert_proven(board, "6x5", "korf", 24)
    assert board.certificate["proven_by"].startswith("tile-idastar/manhattan")


# --- determinism ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("size", "moves"), [("3", 20), ("3", None), ("3x4", 30), ("4", 24), ("5", None)]
)
def test_the_same_seed_makes_the_same_board(size: str, moves: int | None) -> None:
    first, second = made(size, moves, seed=42), made(size, moves, seed=42)
    assert first == second
    assert made(size, moves, seed=43).puzzle.start != first.puzzle.start


SCRIPT = """
import json, random
from cspsolve.limits import Limits
from cspsolve.models.npuzzle.generate import GenerateOptions, make
for size, moves in (("3", 24), ("3x4", 30)):
    board = make(GenerateOptions(size=size, moves=moves), random.Random(7), Limits())
    print(json.dumps([board.puzzle.start, board.certificate]))
"""


def test_the_same_seed_makes_the_same_board_in_any_process() -> None:
    boards = set()
    for hash_seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        proc = subprocess.run(
            [sys.executable, "-c", SCRIPT], capture_output=True, text=True, env=env, check=True
        )
        boards.add(proc.stdout)
    assert len(boards) == 1


# --- options ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("options", "flag"),
    [
        ({"size": "0"}, "--size"),
        ({"size": "1"}, "--size"),
        ({"size": "1x1"}, "--size"),
        ({"size": "x3"}, "--size"),
        ({"size": "3x"}, "--size"),
        ({"size": "4x4x4"}, "--size"),
        ({"size": "33x32"}, "--size"),
        ({"size": "three"}, "--size"),
        ({"size": ""}, "--size"),
        ({"moves": -1}, "--moves"),
        ({"moves": True}, "--moves"),
        ({"moves": 2.5}, "--moves"),
        ({"goal": "centre"}, "--goal"),
    ],
)
def test_bad_options_name_their_flag(options: dict[str, object], flag: str) -> None:
    with pytest.raises(OptionError, match=flag) as raised:
        GenerateOptions(**options)  # type: ignore[arg-type]
    assert "\n" not in str(raised.value)


@pytest.mark.parametrize(
    ("size", "moves", "most"),
    [
        ("3", 32, 31),
        ("3x3", 100, 31),
        ("4", 81, 80),
        ("2x3", 22, 21),
        ("1x5", 5, 4),
        ("4x3", 54, 53),
    ],
)
def test_more_moves_than_any_position_needs(size: str, moves: int, most: int) -> None:
    with pytest.raises(OptionError, match=f"--moves {moves}: .* more than {most} moves"):
        GenerateOptions(size=size, moves=moves)


def test_sizes_are_read_as_the_kind_reads_them() -> None:
    assert GenerateOptions().shape == (3, 3)
    assert GenerateOptions(size=None).shape == (3, 3)
    assert GenerateOptions(size=" 2 X 5 ").shape == (2, 5)
    assert GenerateOptions(size="32").shape == (32, 32)
    assert GenerateOptions(size="1x2").shape == (1, 2)


def test_a_start_too_rare_gives_up(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(generate, "TRIES", 2)
    with pytest.raises(OptionError, match=r"--moves 53: none of 2 starts"):
        make(GenerateOptions(size="3x4", moves=53), random.Random(0), Limits())


# --- limits -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("size", "moves", "goal"),
    [("2x4", 20, "korf"), ("3x4", 30, "standard"), ("4", None, "standard"), ("9", None, "korf")],
)
def test_no_time_makes_nothing(size: str, moves: int | None, goal: str) -> None:
    generate._LAYERS.clear()
    started = time.perf_counter()
    options = GenerateOptions(size=size, moves=moves, goal=goal)
    assert make(options, random.Random(0), Limits(time_limit=0)) is None
    assert time.perf_counter() - started < 1


def test_a_search_of_the_whole_board_cut_short_is_not_kept() -> None:
    generate._LAYERS.clear()
    options = GenerateOptions(size="3", moves=20, goal="korf")
    assert make(options, random.Random(0), Limits(time_limit=0.01)) is None
    assert generate._LAYERS == {}
    assert made("3", 20, "korf").certificate["optimum"] == 20


# --- the kind ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("size", "moves", "goal"),
    [
        ("3", 12, "standard"),
        ("3", 12, "korf"),
        ("1x5", None, "korf"),
        ("5x1", 3, "standard"),
        ("2x4", None, "korf"),
        ("4", 20, "korf"),
        ("5", None, "standard"),
    ],
)
def test_the_written_file_reads_back_as_the_board(
    tmp_path: Path, size: str, moves: int | None, goal: str
) -> None:
    assert KIND.generator is not None
    board = made(size, moves, goal, seed=9).puzzle
    path = tmp_path / f"board{KIND.generator.extension}"
    KIND.write(board, path)
    [entry] = KIND.read(path)
    assert entry.puzzle == board


def test_the_kind_declares_the_generator() -> None:
    generator = KIND.generator
    assert generator is not None
    assert generator.options is GenerateOptions and generator.extension == EXTENSION
    assert generator.note
    board = generator.make(GenerateOptions(size="2x3", moves=7), random.Random(1), Limits())
    assert board is not None and board.certificate["optimum"] == 7
