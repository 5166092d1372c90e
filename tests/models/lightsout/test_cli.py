"""The ``cspsolve`` command on Lights Out boards, in a fresh interpreter (docs/design.md §11)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cspsolve import registry
from cspsolve.instances import ROOT
from cspsolve.models.lightsout import formats
from cspsolve.models.lightsout.board import LightsOut, check

from ...conftest import run

SHIPPED = ROOT / "lightsout"
BOARDS = sorted(p for p in SHIPPED.iterdir() if p.suffix in (".lo", ".json", ".edges", ".txt"))


def presses(record: dict[str, object]) -> tuple[int, ...]:
    solution = record["solution"]
    assert isinstance(solution, dict)
    rows: dict[int, int] = {}
    for r, c in solution["presses"]:
        rows[r] = rows.get(r, 0) | 1 << c
    assert solution["count"] == len(solution["presses"])
    return tuple(rows.get(r, 0) for r in range(max(rows, default=-1) + 1))


def test_shipped_boards_are_attributed_and_detected() -> None:
    attribution = (SHIPPED / "ATTRIBUTION.md").read_text(encoding="utf-8")
    assert len(BOARDS) >= 6
    for path in BOARDS:
        assert f"`{path.name}`" in attribution
        assert registry.detect(path) == "lightsout", path.name


@pytest.mark.parametrize("path", BOARDS, ids=lambda p: p.name)
def test_solve_json_replays_to_all_off(path: Path) -> None:
    done = run("solve", path, "--format", "json")
    record = json.loads(done.stdout)
    puzzle = formats.read(path)[0].puzzle
    if record["status"] == "unsolvable":
        assert done.returncode == 1 and "quiet pattern" in record["message"]
        return
    assert done.returncode == 0 and record["status"] == "optimal"
    assert record["proof"]["minimum"] is True and "nullity" in record["proof"]
    found = presses(record)
    found += (0,) * (puzzle.rows - len(found))
    assert check(puzzle, found) == []


@pytest.mark.slow
def test_variant_and_torus_options_change_the_board(tmp_path: Path) -> None:
    path = tmp_path / "allon.lo"
    formats.write(LightsOut((0b1111,) * 4, 4), path)
    plain = json.loads(run("solve", path, "--format", "json").stdout)
    sigma = json.loads(run("solve", path, "--variant", "sigma", "--format", "json").stdout)
    torus = json.loads(run("analyze", path, "--torus", "--format", "json").stdout)
    assert plain["solution"]["count"] == 4 and sigma["solution"]["count"] == 6
    assert torus["analysis"]["nullity"] == 0  # 4x4 torus: OEIS A165738(4) = 0
    graph = run("solve", SHIPPED / "petersen.edges", "--torus")
    assert graph.returncode == 2 and "graph" in graph.stderr


def test_kind_option_reads_plain_grids(tmp_path: Path) -> None:
    path = tmp_path / "plain.txt"
    path.write_text("010\n111\n010\n", encoding="utf-8")
    assert run("solve", path).returncode == 2  # ambiguous without --kind
    done = run("solve", path, "--kind", "lightsout", "--format", "json")
    assert done.returncode == 0 and json.loads(done.stdout)["solution"] == {
        "presses": [[1, 1]],
        "count": 1,
    }


@pytest.mark.slow
def test_analyze_verify_and_compare() -> None:
    board = SHIPPED / "classic-5x5.lo"
    analysis = json.loads(run("analyze", board, "--format", "json").stdout)["analysis"]
    assert analysis["nullity"] == 2 and analysis["solvable"] is True
    assert analysis["solvable_states"] == 2**23 and analysis["solutions_per_state"] == 4
    verify = run("verify", board, "--format", "json")
    assert verify.returncode == 0 and json.loads(verify.stdout)["agree"] is True
    compare = run("compare", board, "--format", "json")
    runs = [json.loads(line) for line in compare.stdout.splitlines()]
    assert {(r["method"], r["heuristic"]) for r in runs} >= {("astar", "packing"), ("cpsat", None)}
    assert len({r["stats"]["cost"] for r in runs}) == 1


@pytest.mark.parametrize(
    ("text", "line"),
    [("010\n01\n", 2), ("010\n0z0\n", 2), ("variant: sigma-x\n01\n", 1), ("\n", 1)],
)
def test_bad_input_exits_2_with_the_line(tmp_path: Path, text: str, line: int) -> None:
    path = tmp_path / "bad.lo"
    path.write_text(text, encoding="utf-8")
    done = run("solve", path)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith(f"cspsolve: {path}:{line}: ") and "Traceback" not in done.stderr


BIG = 991
"""Side of the big all-on board (nullity 640, OEIS A159257): the time went into the quiet
patterns' basis and CP-SAT before any limit check (> 100 s for solve, > 300 s for analyze)."""


def chebyshev_nullity(m: int, n: int) -> int:
    """Nullity of the m x n sigma-plus grid by OEIS A159257's formula ``deg gcd(f_m(x),
    f_n(x + 1))``, ``f_0 = 1``, ``f_1 = x``, ``f_{k+1} = x f_k + f_{k-1}`` over GF(2)
    (polynomials as ints; written here, independently of the library)."""

    def f(k: int, shift: bool) -> int:
        x = 0b11 if shift else 0b10
        prev, cur = 1, x
        for _ in range(k - 1):
            times = 0
            for bit in range(x.bit_length()):
                if x >> bit & 1:
                    times ^= cur << bit
            prev, cur = cur, times ^ prev
        return cur

    a, b = f(m, False), f(n, True)
    while b:
        while a.bit_length() >= b.bit_length():
            a ^= b << (a.bit_length() - b.bit_length())
        a, b = b, a
    return a.bit_length() - 1


@pytest.fixture(scope="module")
def big() -> Path:
    path = Path(__file__).resolve().parents[2] / "data" / "lightsout" / f"all-on-{BIG}x{BIG}.txt"
    assert path.read_text(encoding="utf-8") == ("1" * BIG + "\n") * BIG
    return path


@pytest.mark.slow
def test_big_board_analyze_gives_the_nullity(big: Path) -> None:
    done = run("analyze", big, "--kind", "lightsout", "--format", "json", timeout=60)
    assert done.returncode == 0, done.stderr
    analysis = json.loads(done.stdout)["analysis"]
    assert analysis["nullity"] == chebyshev_nullity(BIG, BIG)
    assert analysis["solvable"] is True and analysis["min_presses_proven"] is False


@pytest.mark.slow
@pytest.mark.parametrize("limit", [("--time-limit", "2"), ("--max-nodes", "0")])
def test_big_board_solve_answers_within_the_limit(big: Path, limit: tuple[str, str]) -> None:
    done = run("solve", big, "--kind", "lightsout", "--format", "json", *limit, timeout=60)
    assert done.returncode == 0, done.stderr
    record = json.loads(done.stdout)
    assert record["status"] == "solved" and record["proof"]["minimum"] is False
    found = presses(record)
    found += (0,) * (BIG - len(found))
    assert check(LightsOut(((1 << BIG) - 1,) * BIG, BIG), found) == []


def test_big_board_analyze_stops_at_the_time_limit(big: Path) -> None:
    done = run("analyze", big, "--kind", "lightsout", "--time-limit", "0", "--format", "json")
    analysis = json.loads(done.stdout)["analysis"]
    assert done.returncode == 3 and analysis["status"] == "limit"


@pytest.mark.parametrize(("rows", "cols"), [(79, 625_000), (1, 50_000_000)])
def test_huge_boards_are_refused_in_one_line(tmp_path: Path, rows: int, cols: int) -> None:
    path = tmp_path / "huge.txt"
    path.write_text(("1" * cols + "\n") * rows, encoding="utf-8")
    done = run("solve", path, "--kind", "lightsout", timeout=30)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith(f"cspsolve: {path}:1: ") and done.stderr.count("\n") == 1


@pytest.mark.slow
def test_counts_and_graph_nodes_are_worded_right(tmp_path: Path) -> None:
    graph = tmp_path / "pair.edges"
    graph.write_text("lit: left\nleft right\n", encoding="utf-8")
    unsolvable = run("solve", graph).stdout
    assert "graph of 2 nodes" in unsolvable and "covers 1 lit node," in unsolvable
    assert "left right (2 nodes;" in unsolvable and "(0," not in unsolvable
    single = tmp_path / "single.edges"
    single.write_text("lit: a\na\n", encoding="utf-8")
    assert "graph of 1 node," in run("solve", single).stdout
    corner = tmp_path / "corner.lo"
    corner.write_text("10000\n" + "00000\n" * 4, encoding="utf-8")
    text = run("solve", corner).stdout
    assert "covers 1 lit cell," in text and "1 lit cells" not in text


def test_the_board_is_shown_with_the_variant_of_the_options(tmp_path: Path) -> None:
    path = tmp_path / "pair.txt"
    path.write_text("1 1\n")
    proc = run("solve", path, "--kind", "lightsout", "--variant", "sigma")
    assert proc.returncode == 0, proc.stderr
    assert "1x2 sigma," in proc.stdout.splitlines()[0]


def test_solve_text_says_how_many_presses() -> None:
    board = SHIPPED / "classic-5x5.lo"
    text = run("solve", board).stdout.splitlines()
    [record] = [
        json.loads(line)
        for line in run("solve", board, "--format", "json").stdout.split("\n")
        if line
    ]
    pressed = sum(line.split("   ")[1].count("P") for line in text[2:7])
    assert pressed == record["solution"]["count"] == 7
    assert text[7] == "7 presses"
