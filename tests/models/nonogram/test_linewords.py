"""The multi-word line solver (:mod:`cspsolve.models.nonogram.lines.words`) against brute force
on short lines and the cell-code solver (:func:`.lines.cells.settle_line`) on lines of any length,
and the fast solver's line logic on puzzles with long lines against a propagation loop over the
cell-code solver. ``CSPSOLVE_FUZZ=N`` or ``pytest --fuzz N`` draws N lines of each length."""

from __future__ import annotations

import itertools
import subprocess
import sys
from functools import cache

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from cspsolve.models.nonogram.board import Clue, Nonogram, clue_of
from cspsolve.models.nonogram.lines.cells import EMPTY, FILLED, UNKNOWN, scratch, settle_line
from cspsolve.models.nonogram.lines.words import scratch_words, settle_words, words_for
from cspsolve.models.nonogram.search.propagation import line_logic

from ...fuzzing import differential

LENGTHS = (1, 2, 62, 63, 64, 65, 126, 127, 128, 129, 191, 192, 193, 500, 1000, 2048)
"""Line lengths around every word boundary of the positions ``0 .. n`` and the carry bit."""
LONGEST, MOST_BLOCKS = 2048, 1024
WORK = scratch_words(LONGEST, MOST_BLOCKS)
"""One scratch for every call, as the fast solver keeps one: no call may rely on it being 0."""
SENTINEL = np.uint64(0xA5A5A5A5A5A5A5A5)

Codes = list[int]


def to_words(codes: Codes, plane: int) -> np.ndarray:
    """The bit set of the cells whose code has ``plane`` (:data:`EMPTY` or :data:`FILLED`), in
    one word more than :func:`words_for` asks, the extra word zero."""
    bits = np.zeros(words_for(len(codes)) + 1, np.uint64)
    for i, code in enumerate(codes):
        if code & plane:
            bits[i >> 6] |= np.uint64(1) << np.uint64(i & 63)
    return bits


def settle(codes: Codes, clue: Clue) -> Codes | None:
    """The narrowed cell codes from :func:`settle_words` (None on a contradiction), checking that
    it writes no bit at ``n`` or above, no cell both ways, and nothing past its words."""
    n, words = len(codes), words_for(len(codes))
    out = np.full((2, words + 1), SENTINEL, np.uint64)
    blocks = np.array((7, *clue, 5), np.int64)  # the clue inside a longer array, as in a puzzle
    ok = settle_words(
        to_words(codes, EMPTY), to_words(codes, FILLED), n, blocks, 1, len(clue), WORK, out
    )
    assert (out[:, words] == SENTINEL).all()
    if not ok:
        return None
    empty, filled = (int.from_bytes(out[p, :words].tobytes(), "little") for p in (0, 1))
    assert not (empty | filled) >> n and not empty & filled
    return [EMPTY if empty >> i & 1 else FILLED if filled >> i & 1 else UNKNOWN for i in range(n)]


def oracle(codes: Codes, clue: Clue) -> Codes | None:
    """The cell-code line solver's answer (None on a contradiction)."""
    cells = np.array(codes, np.uint8)
    consistent = settle_line(cells, np.array(clue, np.int64), *scratch(len(codes), len(clue)))
    return [int(c) for c in cells] if consistent else None


@cache
def patterns(n: int) -> dict[Clue, list[tuple[bool, ...]]]:
    """Every fill pattern of ``n`` cells, grouped by its clue."""
    groups: dict[Clue, list[tuple[bool, ...]]] = {}
    for cells in itertools.product((False, True), repeat=n):
        groups.setdefault(clue_of(cells), []).append(cells)
    return groups


def brute_force(codes: Codes, clue: Clue) -> Codes | None:
    """What every fill pattern of ``clue`` agreeing with ``codes`` allows, by enumeration."""
    fits = [
        cells
        for cells in patterns(len(codes)).get(clue, [])
        if all(code & (FILLED if fill else EMPTY) for code, fill in zip(codes, cells, strict=True))
    ]
    if not fits:
        return None
    return [
        (FILLED if any(c[i] for c in fits) else 0) | (EMPTY if not all(c[i] for c in fits) else 0)
        for i in range(len(codes))
    ]


@pytest.mark.parametrize("n", range(1, 11))
def test_every_clue_of_short_lines_against_brute_force(n: int) -> None:
    rng = np.random.default_rng(n)
    states = [[UNKNOWN, EMPTY, FILLED][s] for s in range(3)]
    if n <= 5:
        lines = [list(codes) for codes in itertools.product(states, repeat=n)]
    else:
        lines = [[UNKNOWN] * n] + [
            rng.choice(states, n, p=[0.7, 0.15, 0.15]).tolist() for _ in range(30)
        ]
    clues = [*patterns(n), (n + 1,), (n, 1), tuple([1] * (n // 2 + 1))]
    for clue in clues:
        for codes in lines:
            assert settle(codes, clue) == brute_force(codes, clue), (clue, codes)


@st.composite
def lines(draw: st.DrawFn, n: int) -> tuple[Codes, Clue, tuple[bool, ...] | None]:
    """A partial line of ``n`` cells and a clue: the clue of a random full line, with that
    line's cells partly revealed (so the clue fits), or with cells set at random, or a random
    clue; and the full line when it agrees with the partial one."""
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    density = draw(st.sampled_from([0.1, 0.3, 0.5, 0.7, 0.9]))
    pattern = tuple(bool(x) for x in rng.random(n) < density)
    clue = clue_of(pattern)
    kind = draw(st.sampled_from(["revealed", "random cells", "random clue"]))
    shown = draw(st.sampled_from([0.0, 0.05, 0.2, 0.5, 0.9, 1.0]))
    if kind == "revealed":
        known = rng.random(n) < shown
        codes = [
            (FILLED if fill else EMPTY) if k else UNKNOWN
            for fill, k in zip(pattern, known, strict=True)
        ]
        return codes, clue, pattern
    codes = [
        int(c)
        for c in rng.choice([UNKNOWN, EMPTY, FILLED], n, p=[1 - shown / 4, shown / 8, shown / 8])
    ]
    if kind == "random clue":
        longest = draw(st.sampled_from([1, 3, 10, 40]))
        clue = tuple(int(b) for b in rng.integers(1, longest + 1, rng.integers(0, n // 2 + 2)))
    return codes, clue, None


@pytest.mark.parametrize("n", LENGTHS)
@differential(ci=40)
@given(data=st.data())
def test_long_lines_against_the_cell_solver(n: int, data: st.DataObject) -> None:
    codes, clue, pattern = data.draw(lines(n))
    got = settle(codes, clue)
    assert got == oracle(codes, clue), (clue, codes)
    if pattern is not None:
        assert got is not None
        for code, fill in zip(got, pattern, strict=True):
            assert code & (FILLED if fill else EMPTY)


@pytest.mark.parametrize("n", LENGTHS)
def test_the_empty_clue_and_full_clues(n: int) -> None:
    open_line = [UNKNOWN] * n
    assert settle(open_line, ()) == [EMPTY] * n
    assert settle(open_line, (n,)) == [FILLED] * n
    assert settle(open_line, (n + 1,)) is None
    assert settle([UNKNOWN] * (n - 1) + [FILLED], ()) is None
    assert settle([EMPTY] + [UNKNOWN] * (n - 1), (n,)) is None
    if n >= 3:
        left = n // 3
        whole = (left, n - left - 1)  # two blocks and one gap: the line is decided
        assert settle(open_line, whole) == [FILLED] * left + [EMPTY] + [FILLED] * (n - left - 1)
        assert settle(open_line, (left, n - left)) is None


def test_words_for_leaves_room_for_the_carry() -> None:
    assert [words_for(n) for n in (1, 62, 63, 64, 126, 127, 190, 191)] == [1, 1, 2, 2, 2, 3, 3, 4]
    assert scratch_words(100, 3).shape == (5, 8, 2)
    assert scratch_words(200, 20).shape == (5, 21, 4)


def fixpoint(puzzle: Nonogram) -> tuple[bool, np.ndarray]:
    """Line logic by a plain loop over the rows and columns with the cell-code solver."""
    grid = np.full((puzzle.height, puzzle.width), UNKNOWN, np.uint8)
    changed = True
    while changed:
        changed = False
        for view, clues in ((grid, puzzle.rows), (grid.T, puzzle.columns)):
            for line, clue in zip(view, clues, strict=True):
                cells = line.copy()
                if not settle_line(
                    cells, np.array(clue, np.int64), *scratch(len(cells), len(clue))
                ):
                    return False, grid
                if (cells != line).any():
                    line[:] = cells
                    changed = True
    return True, grid


@pytest.mark.parametrize(
    ("height", "width", "seed"),
    [(70, 30, 1), (30, 70, 2), (130, 20, 3), (20, 200, 4), (65, 64, 5), (129, 12, 6)],
)
def test_line_logic_on_long_lines_reaches_the_cell_solver_fixpoint(
    height: int, width: int, seed: int
) -> None:
    rng = np.random.default_rng(seed)
    for density in (0.5, 0.6, 0.7, 0.85):
        cells = rng.random((height, width)) < density
        rows = [clue_of(row) for row in cells]
        columns = [clue_of(col) for col in cells.T]
        other = clue_of(rng.random(width) < density)  # another row's clue: often contradictory
        for puzzle in (Nonogram(rows, columns), Nonogram([other, *rows[1:]], columns)):
            consistent, codes, _ = line_logic(puzzle)
            expected, grid = fixpoint(puzzle)
            assert consistent == expected
            if consistent:
                assert (codes == grid).all()


KERNEL_TYPES = """
from cspsolve.models.nonogram.board import Nonogram
from cspsolve.models.nonogram.search.portfolio import solve_probing
from cspsolve.models.nonogram.search.propagation import propagate

def sides_types():
    return sorted({str(signature[4][3]) for signature in propagate.signatures})

diagonals = ((1,), (1,))
solve_probing(Nonogram(rows=diagonals, columns=diagonals), max_solutions=2)
print(sides_types())
solve_probing(Nonogram(rows=diagonals, columns=diagonals + ((),) * 61), max_solutions=2)
print(sides_types())
"""


def test_kernels_of_puzzles_without_long_lines_leave_the_long_line_solver_out() -> None:
    """A puzzle of lines of up to 62 cells runs kernels typed without the long-line solver's
    scratch (so numba compiles them without it); one with a line of 63 cells, its own."""
    done = subprocess.run(
        [sys.executable, "-P", "-c", KERNEL_TYPES], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    short, both = done.stdout.splitlines()
    assert short == "['none']"
    assert both == "['array(uint64, 2d, C)', 'none']"
