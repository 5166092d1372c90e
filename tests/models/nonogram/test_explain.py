"""Nonogram explanations replayed by a checker written here, and the ``solutions`` option.

The checker knows nothing of the library's line solvers: :func:`possible` finds, by its own
recursion over the placements of a clue, which values each cell of a partial line can take.
Every step is replayed on the checker's own grid:

- ``line``: every cell it fixes was unknown and takes that value in every placement that fits
  the cells known before the step;
- ``probe``: on a copy with the assumed value, every visit of the chain is checked as a
  ``line`` step (depth 1), or every entry of the chain as the ``line`` step or the ``probe`` of
  depth 1 it names (depth 2), and the conflict line must have no placement; then the cell takes
  the other value;
- ``guess``: the cell was unknown; it takes the guessed value (the replay then goes on under it)
  and the checker keeps its grid as it was;
- ``contradiction``: the line has no placement; under a guess the next step must be a
  ``backtrack``, with no guess held the puzzle is unsolvable and this is the last step;
- ``backtrack``: the cells undone are exactly those that changed since the last guess held,
  the grid is restored to what it was then, and the guessed cell takes the other value;
- ``second``: a grid that matches the clues and differs from the solution exactly there.

The replay must end in the result's solution (every cell decided), or in a contradiction or the
search's word for an unsolvable puzzle; the grade and the uniqueness claim are checked against
the steps and the tests' oracles (:mod:`.oracles`, brute force and the block model).
"""

from __future__ import annotations

import functools
import itertools
import json
import math
import random
from collections.abc import Sequence
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cspsolve import tasks
from cspsolve.explanation import Explanation, Step
from cspsolve.limits import Limits
from cspsolve.models.nonogram.board import Nonogram
from cspsolve.models.nonogram.colour_board import ColourNonogram
from cspsolve.models.nonogram.kind import KIND
from cspsolve.results import Status

from ...fuzzing import differential
from .colour_differential import PALETTE, ColourCase, blocks, blocks_match, colour_cases
from .colour_differential import oracle as colour_oracle
from .differential import Case, black_and_white_cases, oracle, runs, runs_match

Known = list[list[int | None]]

KEYS = {
    "line": {"axis", "index", "clue", "fixed"},
    "probe": {"cell", "assumed", "depth", "chain", "conflict", "fixed"},
    "guess": {"cell", "value", "depth"},
    "backtrack": {"cell", "undone", "fixed", "depth"},
    "contradiction": {"axis", "index", "clue"},
    "second": {"grid", "cells"},
}
"""The documented data keys of each rule."""


def possible(clue: Sequence[int], known: Sequence[int | None]) -> list[set[int]] | None:
    """The values each cell can take in some placement of ``clue`` that fits ``known`` (None:
    unknown), by a recursion over placements memoised on (cell, block); None when no
    placement fits."""
    n, k = len(known), len(clue)

    @functools.cache
    def rest(i: int, j: int) -> tuple[int, int] | None:
        """Masks (may be filled, may be empty) of cells i.. holding blocks j.., or None."""
        if i >= n:
            return (0, 0) if j == k else None
        filled = empty = 0
        ok = False
        if known[i] != 1:  # cell i empty
            after = rest(i + 1, j)
            if after is not None:
                ok = True
                filled, empty = after[0], after[1] | 1 << i
        if j < k:
            end = i + clue[j]
            fits = end <= n and all(known[x] != 0 for x in range(i, end))
            if fits and (end == n or known[end] != 1):
                after = rest(end + 1, j + 1) if end < n else ((0, 0) if j + 1 == k else None)
                if after is not None:
                    ok = True
                    block = ((1 << end) - 1) ^ ((1 << i) - 1)
                    gap = 1 << end if end < n else 0
                    filled |= after[0] | block
                    empty |= after[1] | gap
        return (filled, empty) if ok else None

    masks = rest(0, 0)
    if masks is None:
        return None
    return [{v for v, mask in ((1, masks[0]), (0, masks[1])) if mask >> x & 1} for x in range(n)]


def line_cells(puzzle: Nonogram, axis: str, index: int) -> tuple[Sequence[int], list[Any]]:
    """A line's clue and its cells ``(row, column)``."""
    if axis == "row":
        return puzzle.rows[index], [(index, c) for c in range(puzzle.width)]
    return puzzle.columns[index], [(r, index) for r in range(puzzle.height)]


def check_line(puzzle: Nonogram, known: Known, data: dict[str, Any]) -> None:
    """A line visit: its fixed cells are forced by every placement; then they are set."""
    clue, cells = line_cells(puzzle, data["axis"], data["index"])
    assert list(clue) == data["clue"]
    values = possible(clue, [known[r][c] for r, c in cells])
    assert values is not None, f"{data}: the line has no placement"
    assert data["fixed"], "a line step fixes something"
    for r, c, v in data["fixed"]:
        assert (r, c) in cells and known[r][c] is None, f"{data}: ({r}, {c}) not open in line"
        assert values[cells.index((r, c))] == {v}, f"{data}: ({r}, {c}) not forced to {v}"
        known[r][c] = v


def has_no_placement(puzzle: Nonogram, known: Known, data: dict[str, Any]) -> bool:
    clue, cells = line_cells(puzzle, data["axis"], data["index"])
    return possible(clue, [known[r][c] for r, c in cells]) is None


def check_probe(puzzle: Nonogram, known: Known, data: dict[str, Any], depth: int) -> None:
    """A probe of depth 1 or 2 (see the module docstring); then its cell takes the other value."""
    (r, c), assumed = data["cell"], data["assumed"]
    assert known[r][c] is None and data["fixed"] == [[r, c, 1 - assumed]]
    assert data["depth"] == depth, data
    trial = [row[:] for row in known]
    trial[r][c] = assumed
    for entry in data["chain"]:
        if depth == 1:
            check_line(puzzle, trial, entry)
        elif entry["rule"] == "line":
            check_line(puzzle, trial, {k: v for k, v in entry.items() if k != "rule"})
        else:
            assert entry["rule"] == "probe", entry
            check_probe(puzzle, trial, {k: v for k, v in entry.items() if k != "rule"}, 1)
    assert has_no_placement(puzzle, trial, data["conflict"]), data
    known[r][c] = 1 - assumed


def changed_cells(before: Known, after: Known) -> list[list[int]]:
    return [
        [r, c]
        for r, (a, b) in enumerate(zip(before, after, strict=True))
        for c, (x, y) in enumerate(zip(a, b, strict=True))
        if x != y
    ]


def replay(puzzle: Nonogram, explanation: Explanation) -> tuple[Known, int, list[int]]:
    """Check every step on the checker's own grid (see the module docstring); the grid at the
    end (before a ``second`` step), the guesses held then, and each step's level (the guesses
    held before it: 0 outside refutations)."""
    known: Known = [[None] * puzzle.width for _ in range(puzzle.height)]
    held: list[tuple[Known, list[int], int]] = []  # grid before each guess held, cell, value
    levels: list[int] = []
    refuted = False  # a contradiction under a guess: a backtrack must follow
    result = explanation.result
    for number, step in enumerate(explanation.steps):
        data = dict(step.data)
        assert set(data) == KEYS[step.rule], step
        assert not refuted or step.rule == "backtrack", step
        json.dumps(data)
        levels.append(len(held) - (step.rule == "backtrack"))
        if step.rule == "line":
            check_line(puzzle, known, data)
        elif step.rule == "probe":
            assert data["depth"] in (1, 2)
            check_probe(puzzle, known, data, data["depth"])
        elif step.rule == "guess":
            (r, c), value = data["cell"], data["value"]
            assert known[r][c] is None and value in (0, 1)
            held.append(([row[:] for row in known], [r, c], value))
            assert data["depth"] == len(held)
            known[r][c] = value
        elif step.rule == "contradiction":
            assert has_no_placement(puzzle, known, data)
            if held:
                refuted = True
                continue
            assert result.status is Status.UNSOLVABLE
            assert number == len(explanation.steps) - 1
        elif step.rule == "backtrack":
            assert refuted, step
            refuted = False
            before, cell, value = held.pop()
            assert data["cell"] == cell and data["depth"] == len(held)
            assert data["undone"] == changed_cells(before, known)
            known = before
            assert data["fixed"] == [[*cell, 1 - value]]
            known[cell[0]][cell[1]] = 1 - value
        else:
            assert step.rule == "second" and number == len(explanation.steps) - 1
            check_second(puzzle, known, result.solution, data)
    assert not refuted or result.status is Status.LIMIT
    return known, len(held), levels


def fits(grid: Sequence[str], known: Known) -> bool:
    """Whether a full grid agrees with every decided cell of ``known``."""
    return all(
        v is None or (grid[r][c] == "#") == bool(v)
        for r, row in enumerate(known)
        for c, v in enumerate(row)
    )


def check_second(puzzle: Nonogram, known: Known, solution: Any, data: dict[str, Any]) -> None:
    """Two solutions that fit every step and differ exactly in ``cells``, every one open."""
    second = tuple(data["grid"])
    assert runs_match(puzzle, second) and solution is not None
    assert fits(solution, known) and fits(second, known)
    differ = [
        [r, c]
        for r in range(puzzle.height)
        for c in range(puzzle.width)
        if second[r][c] != solution[r][c]
    ]
    assert differ and differ == data["cells"]
    assert all(known[r][c] is None for r, c in differ)


def grid_of(known: Known) -> tuple[str, ...]:
    return tuple("".join("?" if v is None else "#" if v else "." for v in row) for row in known)


def expected_grade(explanation: Explanation, levels: list[int]) -> str:
    """The deepest reasoning outside refutations: a guess opens one."""
    used = {
        "search" if step.rule == "guess" else f"depth {step.data['depth']}"
        for step, level in zip(explanation.steps, levels, strict=True)
        if level == 0 and step.rule in ("guess", "probe")
    }
    for grade, mark in (("search", "search"), ("deeper probes", "depth 2"), ("probing", "depth 1")):
        if mark in used:
            return grade
    return "line logic"


def check_explanation(case: Case, explanation: Explanation) -> None:
    """Replay the steps, then check the end, the grade and the verdict against the oracle: a
    unique puzzle ends with every cell decided and no guess standing, one that is not unique
    at a branch between two solutions, an unsolvable one in a contradiction."""
    puzzle, result = case.puzzle, explanation.result
    known, held, levels = replay(puzzle, explanation)
    rules = [s.rule for s in explanation.steps]
    deeper = sum(s.rule == "probe" and s.data["depth"] == 2 for s in explanation.steps)
    summary = explanation.summary
    assert summary["grade"] == expected_grade(explanation, levels)
    assert summary["guesses"] == rules.count("guess")
    assert summary["probes"] == rules.count("probe") and summary["deeper probes"] == deeper
    assert summary["backtracks"] == rules.count("backtrack")
    assert held == 0, "no guess stands at the end"
    truth = oracle(case)
    if result.status is Status.SOLVED:
        assert result.solution is not None and runs_match(puzzle, result.solution)
        assert truth.solvable is not False
        unique = result.proof["unique"]
        if truth.unique is not None:
            assert unique == truth.unique
        assert summary["verdict"] == ("unique" if unique else "not unique")
        assert ("second" in rules) == (unique is False)
        if unique:
            assert grid_of(known) == result.solution  # the steps alone decide every cell
    else:
        assert result.status is Status.UNSOLVABLE, result.status
        assert case.changed and truth.solvable is not True
        assert "second" not in rules and summary["verdict"] == "no solution"
        totals = sum(map(sum, puzzle.rows)), sum(map(sum, puzzle.columns))
        assert rules[-1:] == ["contradiction"] or (not rules and totals[0] != totals[1])


def explained(puzzle: Nonogram, **options: Any) -> Explanation:
    request = tasks.Request(options=options)
    return tasks.explain(KIND, puzzle, request=request, limits=Limits(time_limit=60.0))


@st.composite
def small_cases(draw: st.DrawFn) -> Case:
    """Random puzzles up to 10x10, some with a clue changed (as the differential cases)."""
    width, height = draw(st.integers(1, 10)), draw(st.integers(1, 10))
    density = draw(st.floats(0.0, 1.0))
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    planted = tuple(
        "".join("#" if rng.random() < density else "." for _ in range(width)) for _ in range(height)
    )
    rows = [runs(row) for row in planted]
    columns = [runs("".join(row[j] for row in planted)) for j in range(width)]
    changed = draw(st.booleans())
    if changed:
        rows[0] = (rng.randint(1, width),)
    return Case(Nonogram(tuple(rows), tuple(columns)), planted, changed)


@given(small_cases())
@differential(60)
def test_explanations_of_small_puzzles_replay(case: Case) -> None:
    check_explanation(case, explained(case.puzzle))


@pytest.mark.slow
@given(black_and_white_cases())
@differential(300)
def test_explanations_of_every_size_replay(case: Case) -> None:
    """The differential cases: strips, lines of 65 to 200 cells, boards up to 64x64."""
    check_explanation(case, explained(case.puzzle))


def test_long_lines_and_a_big_board_replay() -> None:
    """Lines over 64 cells (several words a line in the fast solver) and a 30x30 board."""
    rng = random.Random(7)
    for width, height, density in ((90, 3, 0.6), (2, 130, 0.5), (30, 30, 0.6), (70, 12, 0.7)):
        planted = tuple(
            "".join("#" if rng.random() < density else "." for _ in range(width))
            for _ in range(height)
        )
        rows = tuple(runs(row) for row in planted)
        columns = tuple(runs("".join(row[j] for row in planted)) for j in range(width))
        case = Case(Nonogram(rows, columns), planted, False)
        check_explanation(case, explained(case.puzzle))


def test_crossed_diagonals_branch_at_once_and_show_the_second_solution() -> None:
    """Line logic decides nothing: the two solutions branch at the start."""
    puzzle = Nonogram(rows=((1,), (1,)), columns=((1,), (1,)))
    explanation = explained(puzzle)
    check_explanation(Case(puzzle, ("#.", ".#"), False), explanation)
    assert explanation.summary["verdict"] == "not unique"
    assert [step.rule for step in explanation.steps] == ["second"]
    assert explanation.steps[-1].data["cells"] == [[0, 0], [0, 1], [1, 0], [1, 1]]
    assert explanation.result.proof["unique"] is False


def test_a_probe_is_needed_and_graded() -> None:
    """A 5x5 puzzle where line logic stalls after four steps and probes finish it."""
    planted = (".#...", "...##", "...#.", "#..#.", ".##.#")
    rows = tuple(runs(row) for row in planted)
    columns = tuple(runs("".join(row[j] for row in planted)) for j in range(5))
    puzzle = Nonogram(rows, columns)
    explanation = explained(puzzle)
    check_explanation(Case(puzzle, planted, False), explanation)
    assert explanation.summary["grade"] == "probing"
    assert explanation.result.proof["unique"] is True


TAAI2011_65 = Nonogram(
    rows=(
        (2, 2, 1, 4, 1, 1), (1, 1, 4, 5), (1, 2, 4, 1, 2), (2, 3, 1, 1, 3, 2),
        (2, 1, 1, 1, 2, 2, 7), (2, 1, 1, 1, 3, 1, 2), (1, 1, 2, 2, 1, 1, 1, 2), (7, 2, 1, 4),
        (1, 1, 2, 2, 3, 3, 2), (1, 1, 3, 1, 1, 2, 1), (3, 4, 5, 2, 1), (1, 1, 2, 4, 2, 1, 1, 1),
        (2, 1, 3, 1, 2, 1, 1, 1), (1, 1, 2, 4, 4, 1), (1, 1, 2, 1, 1, 1, 3, 1), (2, 3, 2, 4, 1),
        (7, 1, 1, 1, 2, 1), (1, 2, 1, 1, 3, 2), (3, 4, 3, 1, 3, 2), (2, 2, 2, 1, 1, 1),
        (1, 2, 3, 1, 5, 1), (2, 2, 2, 1, 1, 2, 2, 1), (2, 1, 2, 1, 4, 3), (1, 3, 1, 1, 1, 1, 1, 2),
        (2, 1, 1, 2, 1, 2, 3),
    ),
    columns=(
        (4, 3, 2, 1), (1, 1, 2, 2, 2, 3, 4), (1, 1, 2, 1, 1, 1, 3), (3, 2, 1, 2, 1, 2),
        (1, 2, 1, 1, 1, 4, 1), (1, 1, 1, 3, 1, 1, 2, 1), (1, 2, 2, 1, 2, 1, 1, 1, 1),
        (5, 1, 1, 3, 1, 6), (1, 1, 6, 3, 4), (1, 2, 1, 5, 1, 2), (7, 1, 1, 1), (2, 1, 1, 4, 1, 5),
        (3, 1, 3, 1, 2, 1), (1, 2, 5, 2, 1, 1), (1, 1, 6, 1, 3, 1), (2, 1, 1, 1, 1, 1, 1),
        (3, 2, 3, 1, 3), (1, 3, 2, 3, 2, 5), (5, 1, 1, 2, 1, 1, 1, 1), (2, 2, 3, 1, 4, 2),
        (2, 1, 2, 1, 2, 2), (2, 2, 3, 5), (3, 8, 1, 3), (1, 2, 1, 2, 3), (1, 1, 1, 1, 2, 4, 2, 1),
    ),
)  # fmt: skip
"""Puzzle 66 of the TAAI 2011 tournament set: probes of depth 1 stall, one of depth 2 is
needed, and no guess."""


def test_a_probe_of_depth_2_is_needed_and_graded() -> None:
    explanation = explained(TAAI2011_65)
    solution = explanation.result.solution
    assert solution is not None
    check_explanation(Case(TAAI2011_65, solution, False), explanation)
    assert explanation.summary["grade"] == "deeper probes"
    assert explanation.result.proof["unique"] is True
    deep = [s for s in explanation.steps if s.rule == "probe" and s.data["depth"] == 2]
    assert deep and any(e["rule"] == "probe" for s in deep for e in s.data["chain"])
    assert "at depth 2" in deep[0].text


def without_deeper_probes(monkeypatch: pytest.MonkeyPatch) -> None:
    """Switch off probes of depth 2, so that where probes of depth 1 stall only refutations
    go on."""
    from cspsolve.models.nonogram.explain import _Replay
    from cspsolve.models.nonogram.explain.common import NONE

    monkeypatch.setattr(_Replay, "deep_probe", lambda self, capped: NONE)


def test_refutations_prove_a_unique_solution(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without probes of depth 2, TAAI 2011 #66 needs a refutation: a guess of a value the
    solution does not take, the deductions under it, the contradiction and the backtrack,
    which the checker replays (restoring its grid). Every cell ends decided with no guess
    standing; the text folds the refutation into one line unless asked; a tampered ``undone``
    fails the checker."""
    without_deeper_probes(monkeypatch)
    explanation = explained(TAAI2011_65)
    solution = explanation.result.solution
    assert solution is not None
    check_explanation(Case(TAAI2011_65, solution, False), explanation)
    summary = explanation.summary
    assert summary["grade"] == "search" and summary["verdict"] == "unique"
    assert summary["refutations"] >= 1 and summary["backtracks"] == summary["guesses"]
    steps = explanation.steps
    first = next(i for i, step in enumerate(steps) if step.rule == "guess")
    assert steps[first].fold is not None
    span, words = steps[first].fold
    assert steps[first + span - 1].rule == "backtrack"
    assert steps[first + span - 2].rule == "contradiction"
    (r, c), value = steps[first].data["cell"], steps[first].data["value"]
    assert (solution[r][c] == "#") != bool(value)
    assert f"{first + 1}-{first + span}. {words}" in explanation.text()
    unfolded = explanation.text(unfold=True)
    assert all(step.text in unfolded for step in steps[first : first + span])
    backtrack = first + span - 1
    tampered = [
        *steps[:backtrack],
        Step("backtrack", "", {**steps[backtrack].data, "undone": []}, steps[backtrack].state),
        *steps[backtrack + 1 :],
    ]
    shown = SimpleNamespace(steps=tampered, result=explanation.result)
    with pytest.raises(AssertionError):
        replay(TAAI2011_65, cast(Explanation, shown))


def test_refutations_prove_there_is_no_solution(monkeypatch: pytest.MonkeyPatch) -> None:
    """TAAI 2011 #66 with its first row clue changed (the totals still agree) has no solution;
    without probes of depth 2, a refutation is needed before line logic reaches the
    contradiction, with no guess standing."""
    without_deeper_probes(monkeypatch)
    puzzle = Nonogram(((2, 1, 2, 4, 1, 1), *TAAI2011_65.rows[1:]), TAAI2011_65.columns)
    explanation = explained(puzzle)
    check_explanation(Case(puzzle, ("",), True), explanation)
    assert explanation.summary["refutations"] >= 1
    assert explanation.summary["verdict"] == "no solution"


def test_clues_whose_totals_differ_need_no_step() -> None:
    puzzle = Nonogram(rows=((2,), (1,)), columns=((1,), (1,)))
    explanation = explained(puzzle)
    assert explanation.result.status is Status.UNSOLVABLE and not explanation.steps
    assert "row clues fill 3 cells, the column clues 2" in explanation.proof[0]
    assert explanation.summary["verdict"] == "no solution"


def test_a_stopped_solve_keeps_the_deductions_made() -> None:
    """The solve of TAAI 2011 #66 needs more than one node: with a node limit of 1 the run
    stops, keeping the line logic and probes found before it (those of the whole
    explanation's start), which replay, and no grade."""
    explanation = tasks.explain(KIND, TAAI2011_65, limits=Limits(max_nodes=1))
    assert explanation.result.status is Status.LIMIT
    assert explanation.summary["grade"] is None and explanation.summary["verdict"] is None
    known, held, _ = replay(TAAI2011_65, explanation)
    assert held == 0 and any(v is None for row in known for v in row)
    steps = [(step.rule, step.data) for step in explanation.steps]
    whole = [(step.rule, step.data) for step in explained(TAAI2011_65).steps]
    assert "probe" in dict(steps) and steps == whole[: len(steps)]


def test_json_lines_parse_with_the_documented_keys() -> None:
    puzzle = Nonogram(rows=((2,), (1, 1), (2,)), columns=((2,), (1, 1), (2,)))
    explanation = explained(puzzle)
    records = [json.loads(line) for line in explanation.jsonl(KIND.encode).splitlines()]
    steps, summary = records[:-1], records[-1]
    assert len(steps) == len(explanation.steps) > 0
    for number, record in enumerate(steps, 1):
        assert record["type"] == "step" and record["step"] == number
        assert {"rule", "text"} | KEYS[record["rule"]] == set(record) - {"type", "step"}
    assert summary["type"] == "summary" and summary["explanation"]["grade"] in (
        "line logic",
        "probing",
        "deeper probes",
        "search",
    )


def test_frames_and_text_draw_every_state() -> None:
    puzzle = Nonogram(rows=((1,), (1,)), columns=((1,), (1,)))
    explanation = explained(puzzle)
    frames = explanation.frames()
    assert len(frames) == len(explanation.steps) + 1
    second = frames[-1][1]
    assert second.highlight == {(0, 0), (0, 1), (1, 0), (1, 1)}  # where the two differ
    assert "?" in explanation.text(frames=True)


def test_the_time_limit_holds_on_a_hard_board() -> None:
    rng = random.Random(3)
    planted = tuple("".join(rng.choice("#.") for _ in range(60)) for _ in range(60))
    rows = tuple(runs(row) for row in planted)
    columns = tuple(runs("".join(row[j] for row in planted)) for j in range(60))
    puzzle = Nonogram(rows, columns)
    limit = 0.5
    explanation = tasks.explain(KIND, puzzle, limits=Limits(time_limit=limit))
    result = explanation.result
    assert result.stats.seconds <= limit + 0.5
    if result.status is Status.LIMIT:
        assert any("limit" in sentence for sentence in explanation.proof)
        replay(puzzle, explanation)
    else:
        check_explanation(Case(puzzle, planted, False), explanation)


def every_solution(puzzle: Nonogram) -> set[tuple[str, ...]]:
    """Every grid of ``puzzle``: the products of rows matching their clues, columns checked."""
    lines = ["".join(cells) for cells in itertools.product(".#", repeat=puzzle.width)]
    fitting = [[line for line in lines if runs(line) == clue] for clue in puzzle.rows]
    return {grid for grid in itertools.product(*fitting) if runs_match(puzzle, grid)}


@st.composite
def ambiguous(draw: st.DrawFn) -> Nonogram:
    """Sparse random puzzles up to 6x6: many have several solutions."""
    width, height = draw(st.integers(2, 6)), draw(st.integers(2, 6))
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    planted = [
        "".join("#" if rng.random() < 0.3 else "." for _ in range(width)) for _ in range(height)
    ]
    rows = tuple(runs(row) for row in planted)
    columns = tuple(runs("".join(row[j] for row in planted)) for j in range(width))
    return Nonogram(rows, columns)


@given(ambiguous(), st.integers(1, 6), st.sampled_from(("probing", "cpsat")))
@settings(max_examples=60, deadline=None, derandomize=True, database=None)
def test_solutions_lists_up_to_n_distinct_solutions(puzzle: Nonogram, n: int, method: str) -> None:
    truth = every_solution(puzzle)
    request = tasks.Request(method, options={"solutions": n})
    result = tasks.solve(KIND, puzzle, request=request)
    listed = result.solutions
    assert len(listed) == len(set(listed)) == min(n, len(truth))
    assert set(listed) <= truth
    assert listed[0] == result.solution
    assert result.stats.extra["solutions"] == len(listed)
    assert result.proof["exhaustive"] == (len(truth) < n)  # all of them, and provably so
    if n >= 2:
        assert result.proof["unique"] == (len(truth) == 1)
    json.dumps(result.to_json(KIND.encode))


PERMUTATIONS = Nonogram(rows=((1,),) * 6, columns=((1,),) * 6)
"""Every clue 1 on a 6 x 6 grid: its solutions are the 6! permutation matrices."""


@pytest.mark.parametrize(
    "asked, limit, count, exhaustive, words",
    [
        (1000, None, math.factorial(6), True, "720 solutions: all there are"),
        (3, None, 3, False, "3 solutions listed, as many as asked for; there may be more"),
        (1000, 30, None, False, "solutions found; the search for more stopped at a limit"),
    ],
)
def test_a_list_of_solutions_says_whether_it_is_all_of_them(
    tmp_path: Path, asked: int, limit: int | None, count: int | None, exhaustive: bool, words: str
) -> None:
    """``proof.exhaustive`` and the text: "of N" only beside a complete list."""
    from click.testing import CliRunner

    from cspsolve.cli import cli

    path = tmp_path / "ones.non"
    KIND.write(PERMUTATIONS, path)
    args = ["solve", str(path), "--solutions", str(asked)]
    args += [] if limit is None else ["--max-nodes", str(limit)]
    record = json.loads(CliRunner().invoke(cli, [*args, "--format", "json"]).stdout)
    assert record["proof"]["exhaustive"] is exhaustive
    listed = len(record["solutions"])
    assert listed == count if count is not None else 1 <= listed < asked
    text = CliRunner().invoke(cli, args).stdout
    assert words in text
    assert (f"solution 2 of {listed}:" in text) is exhaustive
    assert "solution 2" in text


def test_solutions_is_refused_by_methods_that_do_not_list() -> None:
    from cspsolve.errors import OptionError

    puzzle = Nonogram(rows=((1,), (1,)), columns=((1,), (1,)))
    with pytest.raises(OptionError, match="solutions"):
        tasks.solve(KIND, puzzle, request=tasks.Request("mac", options={"solutions": 2}))


def test_solutions_not_asked_lists_nothing() -> None:
    puzzle = Nonogram(rows=((1,), (1,)), columns=((1,), (1,)))
    result = tasks.solve(KIND, puzzle, request=tasks.Request(options={"unique": True}))
    assert result.solutions == [] and "solutions" not in result.to_json(KIND.encode)


def test_an_explanation_lists_the_solutions_asked_for() -> None:
    puzzle = Nonogram(rows=((1,), (1,)), columns=((1,), (1,)))
    truth = every_solution(puzzle)
    assert explained(puzzle).result.solutions == []
    for n in (1, 2, 3):
        listed = explained(puzzle, solutions=n).result.solutions
        assert len(listed) == min(n, len(truth)) and set(listed) <= truth


def possible_colours(
    clue: Sequence[Sequence[int]], known: Sequence[set[int]]
) -> list[set[int]] | None:
    """The colours each cell can take in some placement of the colour ``clue`` (``(length,
    colour)`` blocks; two blocks of one colour need a background cell between them) that fits
    ``known`` (each cell's colours left), by a recursion memoised on (cell, block); None when
    no placement fits. A cell's colours are packed in 32 bits of one integer."""
    n, k = len(known), len(clue)

    def bit(x: int, colour: int) -> int:
        return 1 << (32 * x + colour)

    @functools.cache
    def rest(i: int, j: int) -> int | None:
        """Colours of cells i.. holding blocks j.. (block j may start at i), or None."""
        if i >= n:
            return 0 if j == k and i == n else None
        found: int | None = None
        if 0 in known[i]:
            after = rest(i + 1, j)
            if after is not None:
                found = after | bit(i, 0)
        if j < k:
            length, colour = clue[j]
            end = i + length
            if end <= n and all(colour in known[x] for x in range(i, end)):
                block = sum(bit(x, colour) for x in range(i, end))
                gap = j + 1 < k and clue[j + 1][1] == colour
                if gap:
                    after = rest(end + 1, j + 1) if end < n and 0 in known[end] else None
                    after = None if after is None else after | bit(end, 0)
                else:
                    after = rest(end, j + 1)
                if after is not None:
                    found = (found or 0) | after | block
        return found

    packed = rest(0, 0)
    if packed is None:
        return None
    return [{c for c in range(32) if packed >> (32 * x + c) & 1} for x in range(n)]


def colour_cells(puzzle: ColourNonogram, axis: str, index: int) -> tuple[Any, list[Any]]:
    if axis == "row":
        return puzzle.rows[index], [(index, c) for c in range(puzzle.width)]
    return puzzle.columns[index], [(r, index) for r in range(puzzle.height)]


def check_colour_line(puzzle: ColourNonogram, known: list[list[set[int]]], data: Any) -> None:
    """A colour line visit: each cell it narrows keeps exactly the colours some placement
    gives it, fewer than it had; then they are narrowed."""
    clue, cells = colour_cells(puzzle, data["axis"], data["index"])
    assert [list(b) for b in clue] == data["clue"]
    values = possible_colours(clue, [known[r][c] for r, c in cells])
    assert values is not None and data["narrowed"], data
    for r, c, colours in data["narrowed"]:
        assert set(colours) == values[cells.index((r, c))] < known[r][c], (data, r, c)
        known[r][c] = set(colours)


Colours = list[list[set[int]]]


def no_colour_placement(puzzle: ColourNonogram, known: Colours, data: dict[str, Any]) -> bool:
    clue, cells = colour_cells(puzzle, data["axis"], data["index"])
    return possible_colours(clue, [known[y][x] for y, x in cells]) is None


def check_colour_probe(puzzle: ColourNonogram, known: Colours, data: Any, depth: int) -> None:
    """A colour probe of depth 1 or 2; then its cell loses the colour assumed."""
    (r, c), assumed = data["cell"], data["assumed"]
    assert data["depth"] == depth and assumed in known[r][c] and len(known[r][c]) > 1
    trial = [[set(s) for s in row] for row in known]
    trial[r][c] = {assumed}
    for entry in data["chain"]:
        if depth == 1 or entry["rule"] == "line":
            check_colour_line(puzzle, trial, entry)
        else:
            assert entry["rule"] == "probe", entry
            check_colour_probe(puzzle, trial, entry, 1)
    assert no_colour_placement(puzzle, trial, data["conflict"]), data
    known[r][c] = known[r][c] - {assumed}
    assert data["narrowed"] == [[r, c, sorted(known[r][c])]]


def replay_colour(case: ColourCase, explanation: Explanation) -> None:
    """The colour checker: every step replayed (see the module docstring), the end checked."""
    puzzle, result = case.puzzle, explanation.result
    every = set(range(len(puzzle.colours)))
    known: Colours = [[set(every) for _ in range(puzzle.width)] for _ in range(puzzle.height)]
    held: list[tuple[Colours, list[int], int]] = []
    refuted = False
    for number, step in enumerate(explanation.steps):
        data = dict(step.data)
        json.dumps(data)
        assert not refuted or step.rule == "backtrack", step
        if step.rule == "line":
            check_colour_line(puzzle, known, data)
        elif step.rule == "probe":
            check_colour_probe(puzzle, known, data, data["depth"])
        elif step.rule == "guess":
            (r, c), value = data["cell"], data["value"]
            assert len(known[r][c]) > 1 and value in known[r][c]
            held.append(([[set(s) for s in row] for row in known], [r, c], value))
            assert data["depth"] == len(held)
            known[r][c] = {value}
        elif step.rule == "contradiction":
            assert no_colour_placement(puzzle, known, data)
            refuted = bool(held)
            assert refuted or result.status is Status.UNSOLVABLE
        elif step.rule == "backtrack":
            assert refuted
            refuted = False
            before, (r, c), value = held.pop()
            assert data["cell"] == [r, c] and data["depth"] == len(held)
            assert data["undone"] == [
                [y, x]
                for y in range(puzzle.height)
                for x in range(puzzle.width)
                if before[y][x] != known[y][x]
            ]
            known = before
            known[r][c] = known[r][c] - {value}
            assert data["narrowed"] == [[r, c, sorted(known[r][c])]]
        else:
            assert step.rule == "second" and number == len(explanation.steps) - 1
            assert blocks_match(puzzle, tuple(data["grid"])) and result.proof["unique"] is False
            keys = [c.key for c in puzzle.colours]
            for grid in (tuple(data["grid"]), result.solution):
                assert grid is not None
                assert all(
                    keys.index(ch) in known[r][c]
                    for r, row in enumerate(grid)
                    for c, ch in enumerate(row)
                )
            assert all(len(known[r][c]) > 1 for r, c in data["cells"])
    assert not held, "no guess stands at the end"
    truth = colour_oracle(case)
    if result.status is Status.SOLVED:
        assert result.solution is not None and blocks_match(puzzle, result.solution)
        if truth.unique is not None:
            assert result.proof["unique"] == truth.unique
        if result.proof["unique"]:
            keys = [c.key for c in puzzle.colours]
            assert [[{keys.index(ch)} for ch in row] for row in result.solution] == known
    else:
        assert result.status is Status.UNSOLVABLE and case.changed and truth.solvable is not True
        assert not explanation.steps or explanation.steps[-1].rule == "contradiction"


@given(colour_cases())
@differential(25)
def test_colour_explanations_replay(case: ColourCase) -> None:
    replay_colour(case, explained(case.puzzle))


@pytest.mark.slow
@given(colour_cases())
@differential(300)
def test_colour_explanations_of_every_size_replay(case: ColourCase) -> None:
    replay_colour(case, explained(case.puzzle))


@st.composite
def small_colour_puzzles(draw: st.DrawFn) -> ColourNonogram:
    """Random colour puzzles up to 4x4 of one or two colours: many have several solutions."""
    width, height = draw(st.integers(1, 4)), draw(st.integers(1, 4))
    palette = PALETTE[: draw(st.integers(2, 3))]
    keys = "".join(c.key for c in palette)
    planted = draw(
        st.lists(st.text(keys, min_size=width, max_size=width), min_size=height, max_size=height)
    )
    rows = tuple(blocks(row) for row in planted)
    columns = tuple(blocks("".join(row[j] for row in planted)) for j in range(width))
    return ColourNonogram(rows, columns, palette)


@given(small_colour_puzzles(), st.integers(1, 5), st.sampled_from(("probing", "cpsat")))
@settings(max_examples=40, deadline=None, derandomize=True, database=None)
def test_solutions_lists_colour_solutions(puzzle: ColourNonogram, n: int, method: str) -> None:
    keys = "".join(c.key for c in puzzle.colours)
    lines = ["".join(cells) for cells in itertools.product(keys, repeat=puzzle.width)]
    fitting = [[line for line in lines if blocks(line) == clue] for clue in puzzle.rows]
    truth = {g for g in itertools.product(*fitting) if blocks_match(puzzle, g)}
    request = tasks.Request(method, options={"solutions": n})
    listed = tasks.solve(KIND, puzzle, request=request).solutions
    assert len(listed) == len(set(listed)) == min(n, len(truth)) and set(listed) <= truth


def test_a_limit_stops_the_replay_with_checkable_steps() -> None:
    """The solve runs without limits, the replay with a limit already spent: the result has
    status limit, the steps so far replay, and the proof says what is open."""
    from cspsolve.models.nonogram.explain import explain

    rng = random.Random(5)  # a 30x30 board that line logic alone does not solve
    planted = tuple("".join(rng.choice("#.") for _ in range(30)) for _ in range(30))
    rows = tuple(runs(row) for row in planted)
    columns = tuple(runs("".join(row[j] for row in planted)) for j in range(30))
    puzzle = Nonogram(rows, columns)
    probing = KIND.method("probing").run

    def unlimited(puzzle: Nonogram, **given: Any) -> Any:
        return probing(puzzle, **{**given, "limits": None})

    explanation = explain(
        puzzle, run=unlimited, method="probing", heuristic=None,
        options=KIND.options(), limits=Limits(time_limit=1e-3),
    )  # fmt: skip
    assert explanation.result.status is Status.LIMIT
    assert "open" in " ".join(explanation.proof)
    known, _, _ = replay(puzzle, explanation)
    assert any(v is None for row in known for v in row)
