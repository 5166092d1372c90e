"""The nonogram solver on every puzzle of ``../shared/data/nonogram`` (see its README.md).

Every grid is checked with the independent ``board.check``; uniqueness found by the default
method is compared with the CP-SAT model's and with the facts published in the data README.
The module is skipped in a fresh clone, where ``../shared/data`` is absent.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from cspsolve.limits import Limits
from cspsolve.models.nonogram import (
    Grid,
    Nonogram,
    check,
    read,
    solve,
    verify,
)
from cspsolve.results import Result, Status

SHARED = Path(__file__).resolve().parents[3].parent / "shared" / "data" / "nonogram"
if not SHARED.is_dir():
    pytest.skip(
        "../shared/data/nonogram not present (fresh clone); these tests run in CI",
        allow_module_level=True,
    )

pytestmark = pytest.mark.shared

LIMITS = Limits(time_limit=60)

SETS = ("jwilk", "nonogram-db", "webpbn-survey", "webpbn-cc", "picross-solver-patterns")
FILES = sorted(
    p.relative_to(SHARED).as_posix()
    for folder in SETS
    for p in (SHARED / folder).rglob("*")
    if p.suffix in (".non", ".nin", ".txt")
)

# Published facts, from ../shared/data/nonogram/README.md ("Per-puzzle facts", decided there by
# CP-SAT enumerating two solutions): in these sets exactly the files listed have two or more
# solutions, every other puzzle is unique.
NOT_UNIQUE: dict[str, set[str]] = {
    "jwilk": {"data084.nin"},
    "nonogram-db": set(),
    "webpbn-survey": set(),
    "webpbn-cc": set(),
    "picross-solver-patterns": {
        "test_pattern_05.txt",
        "test_pattern_08.txt",
        "test_pattern_13.txt",
        "test_pattern_14.txt",
        "test_pattern_15.txt",
    },
}


def solved(
    puzzle: Nonogram, method: str = "probing", unique: bool = False, limits: Limits = LIMITS
) -> Result[Grid]:
    """Solve; assert the run found a grid that passes ``check``; return the result."""
    result = solve(puzzle, method, limits=limits, unique=unique)
    assert result.status is Status.SOLVED, (method, result.status, result.message)
    assert result.solution is not None
    assert check(puzzle, result.solution) == [], method
    return result


@pytest.mark.slow
@pytest.mark.parametrize("name", FILES)
def test_default_method_solves_and_decides_uniqueness_like_cpsat(name: str) -> None:
    folder, _, file = name.partition("/")
    for entry in read(SHARED / name):
        unique = solved(entry.puzzle, unique=True).proof["unique"]
        reference = solved(entry.puzzle, "cpsat", unique=True).proof["unique"]
        assert reference is not None, entry.id
        assert unique == reference, entry.id
        if folder in NOT_UNIQUE:
            assert unique == (file not in NOT_UNIQUE[folder]), entry.id


def test_cauldron_512x512() -> None:
    # Line logic alone solves it: about 1 s by the default method (probing) here, 12 s by the
    # generic engine's GAC. The limit only guards a hang; timings belong to the benchmark.
    (entry,) = read(SHARED / "large" / "cauldron.non")
    solved(entry.puzzle, limits=Limits(time_limit=300))


# --- tournament set taai2011 ------------------------------------------------------------------

TAAI = 100
"""How many puzzles of taai2011.txt (from $1) are solved."""


def read_official(path: Path) -> dict[int, Grid]:
    """Official solutions: ``$N`` then rows of tab-separated 0/1 (1 = black)."""
    grids: dict[int, list[str]] = {}
    current: list[str] = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("$"):
            current = grids.setdefault(int(line[1:]), [])
        elif line.strip():
            current.append("".join("#" if v == "1" else "." for v in line.split()))
    return {number: tuple(rows) for number, rows in grids.items()}


@pytest.fixture(scope="module")
def taai() -> tuple[dict[int, Nonogram], dict[int, Grid]]:
    """The puzzles and official solutions of taai2011, read once for the module."""
    read_in = read(SHARED / "taai" / "question" / "taai2011.txt")
    puzzles = {e.id: e.puzzle for e in read_in if isinstance(e.id, int)}
    assert len(puzzles) == len(read_in) == 1000
    return puzzles, read_official(SHARED / "taai" / "solution" / "taai2011.txt")


@pytest.mark.parametrize("number", range(1, TAAI + 1), ids=lambda n: f"taai2011-{n}")
def test_taai2011(taai: tuple[dict[int, Nonogram], dict[int, Grid]], number: int) -> None:
    puzzles, official = taai
    puzzle = puzzles[number]
    assert (puzzle.width, puzzle.height) == (25, 25)
    # The official grid is one of possibly many solutions; it validates our reading of the file.
    assert check(puzzle, official[number]) == []
    solved(puzzle)


# --- verify() ---------------------------------------------------------------------------------

VERIFIED = [
    "jwilk/data000.nin",
    "jwilk/data016.nin",
    "jwilk/data022.nin",
    "jwilk/data084.nin",
    "jwilk/data144.nin",
    "picross-solver-patterns/test_pattern_05.txt",
    "picross-solver-patterns/test_pattern_09.txt",
    "picross-solver-patterns/test_pattern_15.txt",
    "webpbn-survey/webpbn-00023-edge.non",
]


@pytest.mark.parametrize("name", VERIFIED)
def test_verify_agrees_with_cpsat(name: str) -> None:
    for entry in read(SHARED / name):
        report = verify(entry.puzzle, limits=LIMITS)
        assert report.agree is True, report.problems
