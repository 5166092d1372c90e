"""Rush Hour explanations, replayed by a checker written here.

The checker has its own move rules (a piece slides along its axis through empty cells of the
board) and its own breadth-first search of the board's cluster, backwards from the goal
positions, which gives the true cost still to go from every position (in moves, or in cells
under the steps metric). Every step of an explanation must replay under these rules, carry
the right g, f and remaining, and have ``h`` at most the true cost to go; an optimal plan's
``remaining`` is that true cost at every step. Boards come from the differential generator
(5x5 to 7x7, walls, unsolvable ones; :mod:`.differential`).
"""

from __future__ import annotations

import json
import re
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import given

from cspsolve import tasks
from cspsolve.explanation import Explanation
from cspsolve.limits import Limits
from cspsolve.models.rushhour.board import Board
from cspsolve.models.rushhour.kind import KIND
from cspsolve.results import Status
from cspsolve.tasks import Request
from tests.fuzzing import differential

from .conftest import board as parse_board
from .differential import Case, cases

INSTANCES = Path(__file__).resolve().parents[3] / "instances" / "rushhour"
DATA = Path(__file__).resolve().parents[2] / "data" / "rushhour"
STEP_KEYS = {"type", "step", "rule", "text", "move", "piece", "delta", "g", "h", "f", "remaining"}
LIMIT = 0.5
MARGIN = 0.5

Offsets = tuple[int, ...]


@dataclass(frozen=True)
class Spec:
    """A board as the checker sees it: each piece's axis, fixed line, length and name."""

    size: int
    names: tuple[str, ...]
    across: tuple[bool, ...]
    line: tuple[int, ...]
    length: tuple[int, ...]
    walls: frozenset[tuple[int, int]]
    red: int

    @classmethod
    def of(cls, board: Board) -> tuple[Spec, Offsets]:
        ps = board.pieces
        spec = cls(
            board.size,
            tuple(p.name for p in ps),
            tuple(p.horizontal for p in ps),
            tuple(p.row if p.horizontal else p.col for p in ps),
            tuple(p.length for p in ps),
            board.walls,
            [p.name for p in ps].index(board.red),
        )
        return spec, tuple(p.col if p.horizontal else p.row for p in ps)

    def cells(self, i: int, at: int, length: int | None = None) -> set[tuple[int, int]]:
        along = range(at, at + (self.length[i] if length is None else length))
        if self.across[i]:
            return {(self.line[i], k) for k in along}
        return {(k, self.line[i]) for k in along}

    def taken(self, offsets: Offsets, but: int) -> set[tuple[int, int]]:
        out = set(self.walls)
        for j, o in enumerate(offsets):
            if j != but:
                out |= self.cells(j, o)
        return out

    def slide(self, offsets: Offsets, i: int, delta: int) -> Offsets | None:
        """The offsets after piece ``i`` slides ``delta`` cells, or None when it cannot."""
        taken = self.taken(offsets, i)
        step = 1 if delta > 0 else -1
        at = offsets[i]
        for _ in range(abs(delta)):
            at += step
            if at < 0 or at + self.length[i] > self.size or self.cells(i, at) & taken:
                return None
        return (*offsets[:i], at, *offsets[i + 1 :])

    def moves(self, offsets: Offsets, steps: bool) -> Iterator[Offsets]:
        """Every position one slide (one cell under ``steps``) away."""
        taken = self.taken(offsets, -1)
        for i, at in enumerate(offsets):
            for step in (1, -1):
                k = at
                while True:
                    k += step
                    lead = k + self.length[i] - 1 if step > 0 else k
                    if not 0 <= lead < self.size or self.cells(i, lead, 1).pop() in taken:
                        break
                    yield (*offsets[:i], k, *offsets[i + 1 :])
                    if steps:
                        break

    def solved(self, offsets: Offsets) -> bool:
        return offsets[self.red] + self.length[self.red] == self.size


def to_go(spec: Spec, start: Offsets, steps: bool) -> dict[Offsets, int]:
    """The true cost to the exit from every position of the cluster that can reach it."""
    seen, queue = {start}, deque([start])
    while queue:
        for after in spec.moves(queue.popleft(), steps):
            if after not in seen:
                seen.add(after)
                queue.append(after)
    goals = [s for s in seen if spec.solved(s)]
    dist = dict.fromkeys(goals, 0)
    queue = deque(goals)
    while queue:  # moves are reversible: distance from the goals is distance to them
        here = queue.popleft()
        for after in spec.moves(here, steps):
            if after not in dist:
                dist[after] = dist[here] + 1
                queue.append(after)
    return dist


def replayed(
    explanation: Explanation, board: Board, metric: str, optimum: int | None = None
) -> None:
    """Replay every step with the checker's rules; fail at the first wrong fact. The true
    costs to go come from the checker's search of the cluster, unless ``optimum`` is given
    (for a cluster too large for it): then ``h`` is checked against the plan's remaining
    cost, and an optimal plan's length against ``optimum``."""
    steps = metric == "steps"
    spec, here = Spec.of(board)
    status = explanation.result.status
    if optimum is None:
        dist = to_go(spec, here, steps)
        optimum = dist.get(here)
    else:
        dist = {}
    if optimum is None:
        assert status is Status.UNSOLVABLE, explanation.text()
        assert explanation.steps == [] and explanation.proof
        assert explanation.summary["grade"] == "unsolvable"
        assert explanation.summary["lower_bound"] is None
        return
    assert status in (Status.OPTIMAL, Status.SOLVED), explanation.text()
    total = sum(abs(s.data["delta"]) if steps else 1 for s in explanation.steps)
    g = 0
    for number, step in enumerate(explanation.steps, 1):
        data = step.data
        assert step.rule == "move"
        i = spec.names.index(data["piece"])
        after = spec.slide(here, i, data["delta"])
        assert after is not None, f"step {number} ({data['move']}) is illegal"
        here = after
        g += abs(data["delta"]) if steps else 1
        assert tuple(p.offset for p in step.state.pieces) == here
        assert (data["g"], data["remaining"]) == (g, total - g)
        truth = dist.get(here, data["remaining"])
        assert data["h"] is not None and data["h"] <= truth, f"h overestimates at {number}"
        assert data["f"] == data["g"] + data["h"]
        if status is Status.OPTIMAL:
            assert data["remaining"] == truth
    assert spec.solved(here)
    summary = explanation.summary
    assert summary["cost"] == total and summary["overestimates"] == []
    if status is Status.OPTIMAL:
        assert total == optimum and summary["lower_bound"] == optimum
        assert any(str(optimum) in sentence for sentence in explanation.proof)
    else:
        assert total >= optimum and "not proven optimal" in " ".join(explanation.proof)


def explained(board: Board, method: str | None, heuristic: str | None, metric: str) -> Explanation:
    request = Request(method, heuristic, {"metric": metric})
    return tasks.explain(KIND, board, request=request)


FAST = ((None, None), ("bfida", "blockers"), ("astar", "union"))
ALL = (
    *FAST,
    ("bfida", "zero"),
    ("bfida", "blocking"),
    ("astar", "blockers"),
    ("idastar", "blockers"),
    ("engine-bfs", None),
    ("greedy", "blockers"),
    ("bfs", None),
)


@given(cases())
@differential(15)
def test_explanations_replay_on_random_boards(case: Case) -> None:
    for metric in ("moves", "steps"):
        for method, heuristic in FAST:
            replayed(explained(case.board, method, heuristic, metric), case.board, metric)


@pytest.mark.slow
@given(cases())
@differential(12)
def test_every_method_explains_random_boards(case: Case) -> None:
    for metric in ("moves", "steps"):
        for method, heuristic in ALL:
            if method == "engine-bfs" and metric == "steps":
                continue  # counts moves; astar with zero is its steps counterpart
            replayed(explained(case.board, method, heuristic, metric), case.board, metric)


@pytest.mark.parametrize("name", ["card-32.txt", "walls.rh"])
def test_shipped_instances_replay(name: str) -> None:
    board = KIND.read(INSTANCES / name)[0].puzzle
    replayed(explained(board, None, None, "moves"), board, "moves")


def test_a_shipped_instance_of_a_large_cluster_replays() -> None:
    # 1.9 million positions: the optimum comes from solve's own breadth-first search.
    board = KIND.read(INSTANCES / "seven.csv")[0].puzzle
    optimum = int(tasks.solve(KIND, board).stats.cost)
    for method, heuristic in ((None, None), ("bfida", "blockers")):
        replayed(explained(board, method, heuristic, "moves"), board, "moves", optimum)


def test_json_lines_carry_the_documented_keys() -> None:
    board = KIND.read(INSTANCES / "walls.rh")[0].puzzle
    explanation = explained(board, None, None, "moves")
    records = [json.loads(line) for line in explanation.jsonl(KIND.encode).splitlines()]
    *steps, summary = records
    assert len(steps) == len(explanation.steps) > 0
    for number, record in enumerate(steps, 1):
        assert set(record) == STEP_KEYS and record["step"] == number
    assert summary["type"] == "summary" and summary["status"] == "optimal"
    facts = summary["explanation"]
    assert {"lower_bound", "cost", "grade", "expanded", "counts"} <= set(facts)
    assert facts["lower_bound"] == facts["cost"] == len(steps)


def test_the_proof_counts_what_breadth_first_search_expanded() -> None:
    board = KIND.read(INSTANCES / "walls.rh")[0].puzzle
    explanation = explained(board, "bfs", None, "moves")
    counts = explanation.summary["counts"]
    assert [depth for depth, _ in counts] == list(range(len(counts)))
    assert sum(n for _, n in counts) == explanation.result.stats.expanded
    assert counts[0] == [0, 1]


def test_the_proof_counts_what_ida_star_expanded() -> None:
    board = parse_board("ooBoCCooBoooAABoooDDDooEoooooEoooooE")  # Card-1, 9 moves
    explanation = explained(board, "idastar", "blockers", "moves")
    limits = [bound for bound, _ in explanation.summary["counts"]]
    assert limits == sorted(limits) and limits[-1] == 9
    assert sum(n for _, n in explanation.summary["counts"]) == explanation.result.stats.expanded
    assert "f-limit" in " ".join(explanation.proof)


def test_the_blocking_chain_names_what_holds_the_blockers() -> None:
    # The red car A (row 3) is blocked by the truck B, which the top edge keeps from leaving
    # upwards and the car C (row 5) from leaving downwards.
    board = parse_board("ooooooooBoooAABoooooBoooooCCoooooooo")
    explanation = explained(board, None, None, "moves")
    text = " ".join(explanation.proof)
    assert "blocked by B at (3, 3)" in text
    assert "C at (5, 3) must move first" in text
    assert explanation.summary["blockers"] == ["B"]
    replayed(explanation, board, "moves")


LEAVES = re.compile(
    r"So (\w) leaves the row only after .*?; "
    r"in this plan \1 leaves the row at move (\d+) \((\S+)\)\."
)


@pytest.mark.parametrize("name", ["card-32.txt", "walls.rh", "seven.csv"])
def test_each_blocker_leaves_the_row_at_the_move_the_words_name(name: str) -> None:
    """Replayed by the checker's own slides: before the move named, the blocker covers the red
    car's row after every move; after it, it does not (card-32's D: move 47, not its first)."""
    board = KIND.read(INSTANCES / name)[0].puzzle
    explanation = explained(board, None, None, "moves")
    spec, offsets = Spec.of(board)
    row = spec.line[spec.red]
    claims = [LEAVES.search(sentence) for sentence in explanation.proof]
    named = {m.group(1): (int(m.group(2)), m.group(3)) for m in claims if m}
    assert named or name != "card-32.txt"
    covers: dict[str, list[bool]] = {p: [] for p in named}
    for step in explanation.steps:
        i = spec.names.index(step.data["piece"])
        moved = spec.slide(offsets, i, step.data["delta"])
        assert moved is not None
        offsets = moved
        for p in named:
            j = spec.names.index(p)
            covers[p].append(row in range(offsets[j], offsets[j] + spec.length[j]))
    for p, (k, move) in named.items():
        assert all(covers[p][: k - 1]) and not covers[p][k - 1], (p, k, covers[p])
        assert str(explanation.steps[k - 1].data["piece"]) == p and move.startswith(p)


def test_a_walled_in_red_car_is_unsolvable_at_once() -> None:
    board = parse_board("ooooooooooooAAoBBooooooooooooooooooo")  # B lies ahead of A in its row
    explanation = explained(board, None, None, "moves")
    assert explanation.result.status is Status.UNSOLVABLE
    assert "never leaves" in explanation.proof[0]
    replayed(explanation, board, "moves")


@pytest.mark.parametrize(("method", "heuristic"), [(None, None), ("bfida", "blockers")])
def test_an_unsolvable_cluster_is_searched_in_full(
    method: str | None, heuristic: str | None
) -> None:
    # B, in the red car's row, is held by C above and D below, which the edges hold.
    board = parse_board("oooCoooooCooAAoBoooooBoooooDoooooDoo")
    explanation = explained(board, method, heuristic, "moves")
    replayed(explanation, board, "moves")
    assert "No plan" in " ".join(explanation.proof)


def test_explain_keeps_within_the_time_limit() -> None:
    board = KIND.read(DATA / "random9x9_24_b.csv")[0].puzzle
    explanation = tasks.explain(KIND, board, limits=Limits(time_limit=LIMIT))
    result = explanation.result
    assert result.stats.seconds <= LIMIT + MARGIN
    if result.status is Status.LIMIT:
        assert explanation.steps == [] and "limit" in " ".join(explanation.proof).lower()
    else:
        replayed(explanation, board, "moves")


def test_explain_keeps_within_the_node_limit() -> None:
    board = KIND.read(INSTANCES / "card-32.txt")[0].puzzle
    for method, heuristic in (("bfs", None), ("bfida", "blockers"), ("astar", "blockers")):
        request = Request(method, heuristic)
        explanation = tasks.explain(KIND, board, request=request, limits=Limits(max_nodes=50))
        assert explanation.result.status is Status.LIMIT
        assert explanation.result.stats.expanded <= 50 + 64
        bound = explanation.summary["lower_bound"]
        assert bound is None or bound <= 49


def test_frames_draw_every_position() -> None:
    board = KIND.read(INSTANCES / "walls.rh")[0].puzzle
    explanation = explained(board, None, None, "moves")
    frames = explanation.frames()
    assert len(frames) == len(explanation.steps) + 1
    last = frames[-1][1]
    row = board.exit_row
    assert last.texts[row][-1] == board.red == last.texts[row][-2]  # the red car at the exit
    assert explanation.text(frames=True).count(">") == len(frames)
