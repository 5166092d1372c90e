"""Rush Hour on ``../shared/data/rushhour`` (see its README.md): published optima and clusters.

Both 40-card sets and every line of the database sample: optimal moves and cluster sizes equal
to the published ones (the optimum from the start and from a multi-source search back from the
goals must agree); min unit steps for the cards; every card plan replayed by the independent
:func:`check`; the CP-SAT lower bound equal to the optimum on a dozen cards; the course boards.
Skipped in a fresh clone, where ``../shared/data`` is absent.
"""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from cspsolve import tasks
from cspsolve.models.rushhour import check, parse, read
from cspsolve.models.rushhour import kind as rushhour
from cspsolve.models.rushhour.cluster import explore, goal_distances
from cspsolve.results import Status
from cspsolve.tasks import Request

SHARED = Path(__file__).resolve().parents[3].parent / "shared" / "data" / "rushhour"
if not SHARED.is_dir():
    pytest.skip(
        "../shared/data/rushhour not present (fresh clone); these tests run in CI",
        allow_module_level=True,
    )

pytestmark = pytest.mark.shared


def _rows(name: str) -> list[dict[str, str]]:
    with (SHARED / name).open(encoding="utf-8") as f:
        return list(csv.DictReader(f, delimiter="\t"))


CARDS = _rows("thinkfun_original40.tsv") + _rows("thinkfun_later_edition40.tsv")


def test_both_card_sets_are_complete() -> None:
    assert len(CARDS) == 80


@pytest.mark.parametrize("row", CARDS, ids=lambda r: r["card"])
def test_card(row: dict[str, str]) -> None:
    board = parse(row["board"], fmt="string")[0].puzzle
    for metric, column in (("moves", "optimal_moves"), ("steps", "min_unit_steps")):
        result = tasks.solve(rushhour.KIND, board, request=Request(None, None, {"metric": metric}))
        assert result.status == Status.OPTIMAL and result.solution is not None
        assert result.stats.cost == int(row[column])
        assert check(board, result.solution) == []
    cluster, _, _ = explore(board, stop_at_goal=False)
    assert cluster is not None and cluster.size == int(row["cluster_size"])
    assert goal_distances(cluster)[0] == int(row["optimal_moves"])


@pytest.mark.slow
def test_database_sample() -> None:
    entries = read(SHARED / "db_sample.txt")
    assert len(entries) == 4291
    wrong = []
    for entry in entries:
        cluster, _, _ = explore(entry.puzzle, stop_at_goal=False)
        assert cluster is not None
        found = (int(goal_distances(cluster)[0]), cluster.size)
        if found != (entry.optimal_moves, entry.cluster_size):
            wrong.append((entry.line, found))
    assert wrong == []


@pytest.mark.parametrize("row", _rows("thinkfun_original40.tsv")[:12], ids=lambda r: r["card"])
def test_cpsat_bound_equals_the_optimum(row: dict[str, str]) -> None:
    board = parse(row["board"], fmt="string")[0].puzzle
    report = tasks.verify(rushhour.KIND, board, request=Request())
    assert report.agree is True, report.problems
    assert report.reference.proof["lower_bound"] == int(row["optimal_moves"])


@pytest.mark.parametrize("row", _rows("uva_boards/expected.tsv"), ids=lambda r: r["board_file"])
def test_course_boards(row: dict[str, str]) -> None:
    board = read(SHARED / "uva_boards" / row["board_file"])[0].puzzle
    assert board.size == int(row["N"]) and len(board.pieces) == int(row["pieces_incl_red"])
    result = tasks.solve(rushhour.KIND, board, request=Request())
    assert result.solution is not None and check(board, result.solution) == []
    assert result.stats.cost == int(row["optimal_moves"])
    if board.size == 6:
        cluster, _, _ = explore(board, stop_at_goal=False)
        assert cluster is not None
        assert cluster.size == int(row["reachable_states_in_component"])
