"""Rush Hour boards made to order (:func:`cspsolve.models.rushhour.generate.make`).

Every certificate is checked by oracles that share no code with the generator: the plain
breadth-first search of the differential tests (:mod:`.differential`: the board's state graph
written out with Python sets and tuples) searches the cluster from the board, then from all its
goal positions; the optimum must be the board's distance, no position may be farther when the
board is the hardest, and the forward search to the first goal must agree. On a small board
the kind's CP-SAT model proves the optimum afresh. The rest: the promises of the options, the
same board for the same seed (in another process too), one-line errors naming the flag, the
limits, and the ``.rh`` file read back as the board made.
"""

from __future__ import annotations

import dataclasses
import random
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cspsolve.errors import OptionError
from cspsolve.kind import Made
from cspsolve.limits import Limits
from cspsolve.models.rushhour import board_string, check
from cspsolve.models.rushhour import generate as gen
from cspsolve.models.rushhour.board import Board
from cspsolve.models.rushhour.generate import GenerateOptions, make
from cspsolve.models.rushhour.kind import KIND
from cspsolve.results import Status

from .differential import Graph, bfs, explore

ALLOWED = {"bool", "int | None", "float | None", "str | None"}
"""The types a generator's option may have (each becomes a flag)."""

SMALL = settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
"""Few examples: each makes a board and searches its cluster in plain Python."""


def made(seed: int = 0, **options: Any) -> Made:
    """The board :func:`make` makes from ``seed`` with ``options``, with no limits."""
    found = make(GenerateOptions(**options), random.Random(seed), Limits())
    assert found is not None
    return found


def proven(found: Made) -> dict[str, Any]:
    """The certificate of ``found`` checked against plain breadth-first search; returns it.

    The cluster is searched from the board, then from all its goal positions at once; the
    forward search to the first goal (:func:`.differential.explore`) must give the same
    optimum."""
    board, certificate = found.puzzle, found.certificate
    graph = Graph(board)
    start = graph.start()
    cluster = bfs(graph, [start], board.size)
    assert cluster is not None
    goals = sorted(state for state in cluster if graph.is_goal(state))
    distance = bfs(graph, goals, board.size)
    assert distance is not None
    farthest = max(distance.values())
    assert certificate == {
        "size": board.size,
        "pieces": len(board.pieces),
        "walls": len(board.walls),
        "metric": "moves",
        "optimum": distance[start],
        "farthest": farthest,
        "hardest": distance[start] == farthest,
        "cluster": len(cluster),
        "goal_states": len(goals),
        "proven_by": gen.PROVEN_BY,
    }
    assert explore(board, "moves").optimum == distance[start]
    assert distance[start] >= 1
    return certificate


def python(code: str) -> subprocess.CompletedProcess[str]:
    """``code`` run by a fresh interpreter (``-P``: the working directory off ``sys.path``)."""
    command = [sys.executable, "-P", "-c", code]
    return subprocess.run(command, capture_output=True, text=True, check=True, timeout=120)


def round_trip(board: Board, folder: Path) -> Board:
    """``board`` written by the kind under the generator's extension and read back."""
    path = folder / f"made{KIND.generator.extension if KIND.generator else ''}"
    KIND.write(board, path)
    entries = KIND.read(path)
    assert len(entries) == 1
    return entries[0].puzzle


# -- what the kind declares --------------------------------------------------------------------


def test_the_kind_declares_the_generator() -> None:
    generator = KIND.generator
    assert generator is not None
    assert generator.options is GenerateOptions
    assert generator.extension == ".rh"
    assert generator.note
    for field in dataclasses.fields(GenerateOptions):
        assert field.default is not dataclasses.MISSING, field.name
        assert str(field.type) in ALLOWED, field.name
        assert field.metadata["help"], field.name
    assert [f.name for f in dataclasses.fields(GenerateOptions)] == [
        "size",
        "pieces",
        "walls",
        "min_moves",
        "hardest",
    ]


def test_importing_the_kind_loads_no_numpy() -> None:
    code = (
        "import sys, cspsolve.models.rushhour.kind as k\n"
        "assert k.KIND.generator is not None\n"
        "print(sorted({'numpy', 'numba'} & set(sys.modules)))"
    )
    out = python(code)
    assert out.stdout.strip() == "[]"


# -- certificates against the oracle -----------------------------------------------------------


@SMALL
@given(
    seed=st.integers(0, 10**6),
    size=st.sampled_from((5, 6)),
    walls=st.integers(0, 2),
    least=st.none() | st.integers(1, 12),
    hardest=st.booleans(),
)
def test_every_certificate_is_proven_by_breadth_first_search(
    seed: int, size: int, walls: int, least: int | None, hardest: bool
) -> None:
    found = made(seed, size=size, walls=walls, min_moves=least, hardest=hardest)
    certificate = proven(found)
    assert certificate["size"] == size
    assert certificate["pieces"] == gen.default_pieces(size)
    assert certificate["walls"] == walls
    assert certificate["optimum"] >= (least or 1)
    if hardest:
        assert certificate["hardest"]


def test_the_hardest_board_has_no_farther_position_in_its_cluster() -> None:
    certificate = proven(made(3, hardest=True, min_moves=15))
    assert certificate["hardest"]
    assert certificate["optimum"] == certificate["farthest"] >= 15


def test_min_moves_is_a_lower_bound_of_the_optimum() -> None:
    certificate = proven(made(5, min_moves=20))
    assert certificate["optimum"] >= 20


def test_walls_are_on_the_board_and_in_the_file(tmp_path: Path) -> None:
    found = made(2, walls=3, min_moves=10, hardest=True)
    assert len(found.puzzle.walls) == 3
    assert proven(found)["walls"] == 3
    back = round_trip(found.puzzle, tmp_path)
    assert back == found.puzzle
    assert board_string(back).count("x") == 3


def test_pieces_are_as_many_as_asked() -> None:
    found = made(4, pieces=10, min_moves=8)
    assert len(found.puzzle.pieces) == 10
    assert proven(found)["pieces"] == 10


def test_cp_sat_proves_the_optimum_of_a_small_board() -> None:
    pytest.importorskip("ortools")
    from cspsolve.models.rushhour.cpsat import solve

    found = made(1, size=5, min_moves=6)
    optimum = found.certificate["optimum"]
    result = solve(found.puzzle, limits=Limits(time_limit=60), start=0, stop=optimum)
    assert result.status is Status.OPTIMAL
    assert result.solution is not None and check(found.puzzle, result.solution) == []
    assert len(result.solution) == optimum == result.proof["lower_bound"]


@pytest.mark.slow
def test_a_board_of_forty_moves() -> None:
    certificate = proven(made(11, min_moves=40, hardest=True))
    assert certificate["optimum"] >= 40 and certificate["hardest"]


# -- determinism -------------------------------------------------------------------------------


@SMALL
@given(seed=st.integers(0, 10**9), hardest=st.booleans())
def test_the_same_seed_makes_the_same_board(seed: int, hardest: bool) -> None:
    assert made(seed, min_moves=8, hardest=hardest) == made(seed, min_moves=8, hardest=hardest)


def test_the_same_seed_makes_the_same_board_in_another_process() -> None:
    code = (
        "import random\n"
        "from cspsolve.limits import Limits\n"
        "from cspsolve.models.rushhour import board_string\n"
        "from cspsolve.models.rushhour.generate import GenerateOptions, make\n"
        "m = make(GenerateOptions(min_moves=12, walls=1), random.Random(42), Limits())\n"
        "print(board_string(m.puzzle), m.certificate['optimum'])"
    )
    out = python(code)
    here = made(42, min_moves=12, walls=1)
    assert out.stdout.split() == [board_string(here.puzzle), str(here.certificate["optimum"])]


def test_different_seeds_make_different_boards() -> None:
    boards = {board_string(made(seed, min_moves=5).puzzle) for seed in range(5)}
    assert len(boards) > 1


# -- options that are malformed, or that no board can meet --------------------------------------


@pytest.mark.parametrize(
    ("options", "flag"),
    [
        ({"size": 3}, "--size"),
        ({"size": 31}, "--size"),
        ({"size": True}, "--size"),
        ({"size": 6.5}, "--size"),
        ({"pieces": 0}, "--pieces"),
        ({"pieces": 27}, "--pieces"),
        ({"pieces": "13"}, "--pieces"),
        ({"walls": -1}, "--walls"),
        ({"min_moves": -1}, "--min-moves"),
        ({"min_moves": 2.0}, "--min-moves"),
        ({"hardest": "yes"}, "--hardest"),
        ({"pieces": 18, "walls": 1}, "--pieces 18 and --walls 1"),
        ({"size": 4, "pieces": 8, "walls": 1}, "--pieces 8 and --walls 1"),
    ],
)
def test_malformed_options_name_their_flag(options: dict[str, Any], flag: str) -> None:
    started = time.perf_counter()
    with pytest.raises(OptionError, match=flag) as caught:
        make(GenerateOptions(**options), random.Random(0), Limits())
    assert "\n" not in str(caught.value)
    assert time.perf_counter() - started < 1  # before any search


def test_a_promise_no_board_keeps_is_refused() -> None:
    # The red car alone is at most 1 move from the exit.
    with pytest.raises(OptionError, match="--min-moves 5") as caught:
        make(GenerateOptions(pieces=1, min_moves=5), random.Random(0), Limits())
    assert "\n" not in str(caught.value)


def test_clusters_too_large_to_search_are_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(gen, "MAX_STATES", 1 << 12)
    with pytest.raises(OptionError, match="--size 8") as caught:
        make(GenerateOptions(size=8, pieces=12), random.Random(0), Limits())
    assert "\n" not in str(caught.value)


# -- limits ------------------------------------------------------------------------------------


def test_no_time_makes_no_board_at_once() -> None:
    started = time.perf_counter()
    assert make(GenerateOptions(min_moves=40), random.Random(0), Limits(time_limit=0)) is None
    assert time.perf_counter() - started < 0.5


def test_a_short_time_limit_stops_a_long_search_promptly() -> None:
    started = time.perf_counter()
    limits = Limits(time_limit=0.2)
    assert make(GenerateOptions(min_moves=50, hardest=True), random.Random(0), limits) is None
    assert time.perf_counter() - started < 2


def test_cancelling_makes_no_board() -> None:
    cancel = threading.Event()
    cancel.set()
    assert make(GenerateOptions(), random.Random(0), Limits(cancel=cancel)) is None


def test_malformed_options_are_refused_even_without_time() -> None:
    with pytest.raises(OptionError, match="--size"):
        make(GenerateOptions(size=2), random.Random(0), Limits(time_limit=0))


# -- files -------------------------------------------------------------------------------------


@SMALL
@given(seed=st.integers(0, 10**6), size=st.sampled_from((4, 5, 6, 7)), walls=st.integers(0, 2))
def test_the_file_reads_back_as_the_board_made(seed: int, size: int, walls: int) -> None:
    found = made(seed, size=size, walls=walls)
    assert found.puzzle.red == "A"
    with tempfile.TemporaryDirectory() as folder:
        assert round_trip(found.puzzle, Path(folder)) == found.puzzle


def test_lettered_keeps_the_position() -> None:
    rng = random.Random(8)
    board = gen.random_board(rng, 6, 12, exit_row=2, walls=2)
    named = gen.lettered(board)
    assert named.red == "A"
    assert sorted((p.row, p.col, p.length, p.horizontal) for p in named.pieces) == sorted(
        (p.row, p.col, p.length, p.horizontal) for p in board.pieces
    )
    assert named.walls == board.walls


# -- the helpers the generator shares with the script --------------------------------------------


def test_hardest_start_is_a_farthest_position() -> None:
    board = gen.random_board(random.Random(6), 6, 12, exit_row=2)
    found = gen.hardest_start(board, max_states=1 << 20)
    assert found is not None
    graph = Graph(board)
    cluster = bfs(graph, [graph.start()], board.size)
    assert cluster is not None
    goals = [state for state in cluster if graph.is_goal(state)]
    distance = bfs(graph, goals, board.size)
    assert distance is not None
    assert found.moves == max(distance.values())
    assert distance[Graph(found.board).start()] == found.moves
    assert (found.cluster_size, found.goal_states) == (len(cluster), len(goals))


def test_random_boards_keep_the_exit_clear_of_walls() -> None:
    for seed in range(30):
        board = gen.random_board(random.Random(seed), 5, 7, exit_row=2, walls=3, red_col=0)
        assert len(board.walls) == 3
        assert not [c for r, c in board.walls if r == 2]


def test_the_script_still_writes_boards(tmp_path: Path) -> None:
    gen.main(["--size", "6", "--pieces", "12", "--min-moves", "6", "--out", str(tmp_path)])
    (written,) = tmp_path.glob("*.csv")
    assert KIND.read(written)[0].puzzle.size == 6
