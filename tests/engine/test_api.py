"""The one-line library calls (:mod:`cspsolve.api`) give what the lower layer gives.

Each call is checked against :func:`cspsolve.registry.load` and the :mod:`cspsolve.tasks`
call with the same :class:`~cspsolve.tasks.Request`, on the shipped instances of every kind;
a puzzle built from Python data is checked by a checker written here.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest

import cspsolve
from cspsolve import registry, tasks
from cspsolve.errors import InputError, OptionError, UnknownKindError
from cspsolve.instances import ROOT
from cspsolve.models.nonogram.board import Nonogram
from cspsolve.results import Result, Status

FILES = sorted(
    path
    for path in ROOT.glob("*/*")
    if path.is_file()
    and not path.parent.name.startswith("__")  # __pycache__ of an installed copy
    and path.suffix != ".md"
    and not path.name.startswith("LICENSE")
)

# One small instance per kind, and the methods (heuristics) compare runs on it.
SMALL = {
    "nonogram": ("jwilk-data000.nin", ["probing", "mac"], None),
    "lightsout": ("classic-5x5.lo", None, None),
    "npuzzle": ("easy8.txt", ["astar", "bfs"], ["manhattan"]),
    "rushhour": ("walls.rh", ["astar", "bfs"], ["blocking"]),
}


def key(result: Result[Any]) -> tuple[Any, ...]:
    """What two runs of one deterministic method on one puzzle share (not the seconds)."""
    s = result.stats
    return (result.status, result.solution, s.cost, s.expanded, result.method, result.heuristic)


def timeless(data: Any) -> Any:
    """``data`` without its ``seconds`` entries."""
    if isinstance(data, dict):
        return {k: timeless(v) for k, v in data.items() if k != "seconds"}
    return data


def small(kind: str) -> Any:
    [entry] = registry.load(str(ROOT / kind / SMALL[kind][0]))[1]
    return entry.puzzle


def test_every_kind_ships_a_small_instance() -> None:
    assert set(SMALL) == set(registry.names())
    assert {path.parent.name for path in FILES} == set(SMALL)


# --- read and parse -------------------------------------------------------------------------------


@pytest.mark.parametrize("path", FILES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_read_gives_the_puzzles_load_gives_and_they_know_their_kind(path: Path) -> None:
    kind, entries = registry.load(str(path))
    puzzles = cspsolve.read(path)
    assert puzzles == [entry.puzzle for entry in entries]
    assert {registry.kind_of(p).name for p in puzzles} == {kind} == {path.parent.name}


@pytest.mark.parametrize("path", FILES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_parse_reads_a_files_text_as_read_reads_the_file(path: Path) -> None:
    kind, entries = registry.load(str(path))
    text = path.read_text(encoding="utf-8")
    fmt = "edges" if path.suffix == ".edges" else None  # told by the extension alone
    assert cspsolve.parse(text, kind, fmt) == [entry.puzzle for entry in entries]


def test_read_picks_one_puzzle_by_key() -> None:
    path = ROOT / "nonogram" / "tournament-sample.txt"
    everything = cspsolve.read(path)
    assert len(everything) > 1
    assert cspsolve.read(f"{path}#2") == [everything[1]]


def test_read_of_a_file_with_a_broken_puzzle_raises_its_error_and_reads_the_others_by_key(
    tmp_path: Path,
) -> None:
    path = tmp_path / "t.txt"
    path.write_text("$1\n1\n1\n$2\n1\nx\n1\n1\n$3\n0\n1\n0\n1\n")
    with pytest.raises(InputError) as raised:
        cspsolve.read(path)
    assert str(raised.value) == f"{path}:6: puzzle $2: run length 'x' is not a whole number"
    with pytest.raises(InputError) as again:
        cspsolve.read(f"{path}#2")
    assert str(again.value) == str(raised.value)
    assert cspsolve.read(f"{path}#3") == cspsolve.parse("$3\n0\n1\n0\n1\n")


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("1 2 3\n4 0 6\n7 5 8\n", "npuzzle"),
        ("ooBoCCooBoooAABoooDDDooEoooooEoooooE\n", "rushhour"),
        ("0|1|0\n1|1|1\n0|1|0\n", "lightsout"),
        ('{"board": "010/101/010"}', "lightsout"),
        ("$1\n1\n1\n", "nonogram"),
        ("GRID Dot\nROWS\n[ 1 ]\nCOLUMNS\n[ 1 ]\n", "nonogram"),
    ],
)
def test_parse_tells_the_kind_from_the_text(text: str, kind: str) -> None:
    [puzzle] = cspsolve.parse(text)
    assert registry.kind_of(puzzle).name == kind
    assert cspsolve.parse(text, kind) == [puzzle]


def test_parse_takes_the_format_and_a_byte_order_mark() -> None:
    [puzzle] = cspsolve.parse("\ufeff1 1\n1\n1\n", "nonogram", format="nin")
    assert puzzle == Nonogram(rows=[(1,)], columns=[(1,)])


def test_parse_refuses_text_no_kind_recognises_and_names_the_kinds() -> None:
    with pytest.raises(UnknownKindError, match=r"nonogram, .*npuzzle"):
        cspsolve.parse("hello, world\n")


def test_parse_reports_bad_text_as_input_error_with_the_kind_it_guessed() -> None:
    with pytest.raises(InputError, match=r"<string>.*read as rushhour by its content"):
        cspsolve.parse("ooooooooooooAAoooooooBoooooooooooooo\n")  # a car of one cell


def test_an_unknown_kind_is_an_option_error() -> None:
    with pytest.raises(OptionError, match=r"choose from .*rushhour"):
        cspsolve.parse("1\n", "sudoku")


# --- solve, verify, analyze, compare against the lower layer --------------------------------------


@pytest.mark.parametrize("kind", sorted(SMALL))
def test_solve_verify_analyze_are_the_lower_layers_calls(kind: str) -> None:
    puzzle = small(kind)
    model = registry.get(kind)
    assert key(cspsolve.solve(puzzle)) == key(tasks.solve(model, puzzle))
    mine, theirs = cspsolve.verify(puzzle), tasks.verify(model, puzzle)
    assert (mine.agree, mine.problems) == (theirs.agree, theirs.problems) == (True, [])
    assert key(mine.search) == key(theirs.search)
    assert key(mine.reference)[:3] == key(theirs.reference)[:3]
    assert timeless(cspsolve.analyze(puzzle)) == timeless(tasks.analyze(model, puzzle))


@pytest.mark.parametrize("kind", sorted(SMALL))
def test_compare_runs_the_pairs_the_command_line_runs(kind: str) -> None:
    puzzle = small(kind)
    model = registry.get(kind)
    _, methods, heuristics = SMALL[kind]
    runs = cspsolve.compare(puzzle, methods=methods, heuristics=heuristics)
    pairs = tasks.comparisons(model, puzzle, methods=methods, heuristics=heuristics)
    assert [(r.method, r.heuristic) for r in runs] == pairs
    for run, (method, heuristic) in zip(runs, pairs, strict=True):
        alone = tasks.solve(model, puzzle, request=tasks.Request(method, heuristic))
        assert key(run)[:3] == key(alone)[:3]
        assert model.check(puzzle, run.solution) == []


def test_keywords_become_the_request_and_the_limits() -> None:
    board = small("rushhour")
    model = registry.get("rushhour")
    for metric in ("moves", "steps"):
        request = tasks.Request("astar", "blocking", {"metric": metric})
        expected = tasks.solve(model, board, request=request)
        got = cspsolve.solve(board, method="astar", heuristic="blocking", metric=metric)
        assert key(got) == key(expected)
    limited = cspsolve.solve(board, method="bfs", max_nodes=3)
    assert limited.status is Status.LIMIT
    assert limited.stats.expanded <= 3
    stop = threading.Event()
    stop.set()
    assert cspsolve.solve(board, method="bfs", cancel=stop).status is Status.CANCELLED


def test_a_time_limit_is_honoured() -> None:
    [board] = cspsolve.read(ROOT / "npuzzle" / "worst8.json")
    result = cspsolve.solve(board, method="dfs", time_limit=0.2)
    assert result.stats.seconds <= 0.2 + 0.5
    if result.status is not Status.LIMIT:
        assert registry.get("npuzzle").check(board, result.solution) == []


def test_progress_receives_the_live_counters() -> None:
    board = cspsolve.read(ROOT / "npuzzle" / "korf15-easy.korf")[0]
    seen: list[int] = []
    result = cspsolve.solve(
        board,
        method="idastar",
        heuristic="misplaced",
        time_limit=1.0,
        progress=lambda stats: seen.append(stats.expanded),
    )
    assert seen and seen == sorted(seen)
    assert seen[-1] <= result.stats.expanded


# --- options checked against the kind -------------------------------------------------------------


@pytest.mark.parametrize(
    ("call", "words", "message"),
    [
        (cspsolve.solve, {"colour": 3}, r"unknown option 'colour' .*choose from .*metric"),
        (cspsolve.solve, {"timelimit": 5}, r"did you mean 'time_limit'\?\); .*max_nodes.*metric"),
        (cspsolve.solve, {"metric": "hops"}, r"unknown metric 'hops' .*choose from moves, steps"),
        (cspsolve.solve, {"method": "dijkstra"}, r"unknown method 'dijkstra' .*bfs, .*astar"),
        (cspsolve.verify, {"heuristic": "h9"}, r"unknown heuristic 'h9' .*blocking"),
        (cspsolve.analyze, {"method": "dijkstra"}, r"unknown method 'dijkstra' .*astar"),
        (cspsolve.compare, {"colour": 3}, r"unknown option 'colour' .*metric"),
        (cspsolve.compare, {"methods": ["dijkstra"]}, r"unknown method 'dijkstra' .*astar"),
    ],
)
def test_a_name_the_kind_lacks_raises_option_error_naming_the_choices(
    call: Any, words: dict[str, Any], message: str
) -> None:
    with pytest.raises(OptionError, match=message):
        call(small("rushhour"), **words)


def test_a_method_that_does_not_take_the_heuristic_is_refused() -> None:
    with pytest.raises(OptionError, match="bfs is uninformed"):
        cspsolve.solve(small("rushhour"), method="bfs", heuristic="blocking")


def test_options_are_keyword_only() -> None:
    with pytest.raises(TypeError):
        cspsolve.solve(small("npuzzle"), "astar")  # type: ignore[misc]


@pytest.mark.parametrize(
    "words, message",
    [
        ({"time_limit": "5"}, "time limit must be a number of seconds, got '5'"),
        ({"time_limit": float("nan")}, "time limit must be a number of seconds, got nan"),
        ({"time_limit": -1}, "time limit must be >= 0"),
        ({"max_nodes": 2.5}, "node limit must be a whole number, got 2.5"),
        ({"max_nodes": True}, "node limit must be a whole number, got True"),
        ({"workers": 0}, "workers must be a positive count or 'auto', got 0"),
        ({"workers": -2}, "workers must be a positive count or 'auto', got -2"),
        ({"workers": "many"}, "workers must be a positive count or 'auto', got 'many'"),
    ],
)
def test_a_limit_of_the_wrong_type_or_range_is_refused_in_our_words(
    words: dict[str, Any], message: str
) -> None:
    with pytest.raises(OptionError, match=message):
        cspsolve.solve(small("npuzzle"), **words)
    with pytest.raises(OptionError, match=message):
        cspsolve.solve_many([small("npuzzle")], **words)


def test_workers_auto_means_every_core() -> None:
    puzzle = small("npuzzle")
    assert cspsolve.solve(puzzle, workers="auto").stats.cost == 2
    assert [r.stats.cost for r in cspsolve.solve_many([puzzle] * 2, workers="auto")] == [2, 2]


def test_an_object_of_no_kind_is_refused_unless_its_kind_is_named() -> None:
    with pytest.raises(OptionError, match="not a puzzle class of any kind"):
        cspsolve.solve(3.5)
    for text in ("1 2 3", Path("board.json")):
        with pytest.raises(OptionError, match=r"not a puzzle: read it first, cspsolve.read"):
            cspsolve.solve(text)
    with pytest.raises(OptionError, match="unknown kind 'chess'"):
        cspsolve.solve(small("npuzzle"), kind="chess")
    assert cspsolve.solve(small("npuzzle"), kind="npuzzle").stats.cost == 2


# --- a puzzle built from Python data --------------------------------------------------------------


def runs(line: Any) -> tuple[int, ...]:
    """The lengths of the runs of ``#`` in a line of cells."""
    return tuple(len(run) for run in "".join(line).split(".") if run)


def test_a_nonogram_built_from_python_data_is_solved_and_checked_here() -> None:
    rows = [(3,), (1, 1), (3,), (1,), (1,)]
    columns = [(3,), (1, 1), (5,)]
    puzzle = Nonogram(rows=rows, columns=columns)
    result = cspsolve.solve(puzzle, unique=True)
    grid = result.solution
    assert result.status.has_solution and result.proof["unique"] is True
    assert [runs(row) for row in grid] == rows
    assert [runs(column) for column in zip(*grid, strict=True)] == columns
    assert cspsolve.verify(puzzle).agree is True
    assert cspsolve.analyze(puzzle)["unique"] is True


def test_a_clue_of_zero_is_the_empty_line_as_in_the_files() -> None:
    puzzle = Nonogram(rows=[(1,), (0,)], columns=[(1,), (0,)])
    assert puzzle.rows == ((1,), ()) and puzzle == Nonogram(rows=[(1,), ()], columns=[(1,), ()])
    assert cspsolve.solve(puzzle).solution == ("#.", "..")
    with pytest.raises(ValueError, match="row 1: run length 0 is not a positive integer"):
        Nonogram(rows=[(1, 0)], columns=[(1,)])


def test_dir_shows_the_public_names_only() -> None:
    assert dir(cspsolve) == sorted([*cspsolve.__all__, "__version__"])
    assert "sys" not in dir(cspsolve) and "solve" in dir(cspsolve)


def test_an_unsolvable_nonogram_is_proved_so() -> None:
    # The rows fill two cells, the columns three.
    puzzle = Nonogram(rows=[(1,), (1,)], columns=[(2,), (1,)])
    result = cspsolve.solve(puzzle)
    assert result.status is Status.UNSOLVABLE


def test_boards_built_from_rows_are_the_boards_their_files_give() -> None:
    from cspsolve.models.lightsout.board import LightsOut
    from cspsolve.models.npuzzle.board import Puzzle
    from cspsolve.models.rushhour.board import Board

    rush = ["..B...", "..B...", "AAB...", "......", "......", "......"]
    assert Board.from_rows(rush) == cspsolve.parse("\n".join(rush), kind="rushhour")[0]
    lights = ["#.#", ".#x", "#.#"]
    built = LightsOut.from_rows(lights, variant="sigma", torus=True)
    text = "variant: sigma\ntorus: yes\n" + "\n".join(lights)
    assert built == cspsolve.parse(text, kind="lightsout")[0]
    tiles = Puzzle.from_rows(
        [[1, 2, 3], [4, 0, 6], [7, 5, 8]], goal=[[0, 1, 2], [3, 4, 5], [6, 7, 8]]
    )
    assert (
        tiles
        == cspsolve.parse(
            '{"start": [[1,2,3],[4,0,6],[7,5,8]], "goal": [[0,1,2],[3,4,5],[6,7,8]]}'
        )[0]
    )


@pytest.mark.parametrize(
    ("build", "message"),
    [
        ("rushhour", r"^row 2: row has 2 cells; a 3-row grid needs 3$"),
        ("lightsout", r"^row 2, column 2: unexpected '\?'$"),
        ("npuzzle", r"same length"),
    ],
)
def test_rows_that_do_not_make_a_board_are_refused(build: str, message: str) -> None:
    from cspsolve.models.lightsout.board import LightsOut
    from cspsolve.models.npuzzle.board import Puzzle
    from cspsolve.models.rushhour.board import Board

    makers = {
        "rushhour": lambda: Board.from_rows(["..B", "AA", "..."]),
        "lightsout": lambda: LightsOut.from_rows(["#.#", ".?."]),
        "npuzzle": lambda: Puzzle.from_rows([[1, 2], [3]]),
    }
    with pytest.raises(ValueError, match=message):
        makers[build]()
