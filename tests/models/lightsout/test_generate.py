"""Lights Out boards made to order (:mod:`cspsolve.models.lightsout.generate`), each
certificate checked by oracles that share nothing with the generator or the algebra.

- Boards of at most :data:`TABLE_CELLS` cells: every press set is tried once, in Gray code
  order, with the press rule of :class:`.differential.Board` (written cell by cell in the
  tests); the lightest press set reaching each board is the *table* of every board's
  minimum, so the number of boards reached gives the nullity and the largest entry the
  largest minimum any board has.
- Plain grids of 5 x 5 to 9 x 9: light chasing written here (each of the ``2**cols`` first
  rows, the later rows forced by the lights left above them); the number of first rows that
  solve the board is ``2**nullity``. On a torus of at least 3 x 3 the first and the last row
  are both chosen (``2**(2 * cols)`` pairs) and the chase must come back to the last row
  chosen. The chases are checked against the table on small boards.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, fields
from functools import cache
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cspsolve.errors import OptionError
from cspsolve.kind import Made
from cspsolve.limits import Budget, Limits
from cspsolve.models.lightsout import generate
from cspsolve.models.lightsout.board import LightsOut
from cspsolve.models.lightsout.generate import TRIES, GenerateOptions, make
from cspsolve.models.lightsout.kind import KIND

from .differential import Board

TABLE_CELLS = 16
"""Largest board whose table of minima is made (2**16 press sets)."""


# --- the oracles -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Table:
    """Every board of one shape and rule with its minimum number of presses.

    Attributes
    ----------
    minima : dict of int to int
        Lit cells (bit ``r * cols + c``) of each solvable board, to its fewest presses.
    tight : dict of int to int
        For each ``K``, how many press sets of ``K`` cells are a least one of their board.
    cells : int
        Cells of the shape.
    """

    minima: dict[int, int]
    tight: dict[int, int]
    cells: int

    @property
    def nullity(self) -> int:
        """log2 of the press sets per solvable board (``2**cells`` over the boards reached)."""
        return self.cells - (len(self.minima).bit_length() - 1)

    def tight_share(self, k: int) -> float:
        """The share of ``K``-cell press sets whose board has minimum ``K``."""
        total = 1
        for i in range(k):
            total = total * (self.cells - i) // (i + 1)
        return self.tight.get(k, 0) / total


@cache
def table(rows: int, cols: int, variant: str, torus: bool) -> Table:
    """The :class:`Table` of a shape, by trying every press set (Gray code order)."""
    board = Board(LightsOut((0,) * rows, cols, variant, torus))
    masks = [sum(1 << t for t in board.toggles[c]) for c in range(rows * cols)]
    minima = {0: 0}
    reached = [0]
    state = weight = 0
    for i in range(1, 1 << len(masks)):
        k = (i & -i).bit_length() - 1
        state ^= masks[k]
        weight += 1 if (i ^ (i >> 1)) >> k & 1 else -1
        minima[state] = min(weight, minima.get(state, weight))
        reached.append(state)
    tight: dict[int, int] = {}
    for i, state in enumerate(reached):
        w = (i ^ (i >> 1)).bit_count()
        if minima[state] == w:
            tight[w] = tight.get(w, 0) + 1
    return Table(minima, tight, rows * cols)


def flat_lights(puzzle: LightsOut) -> int:
    """The lit cells as one int, bit ``r * cols + c``."""
    return sum(row << (r * puzzle.cols) for r, row in enumerate(puzzle.lights))


def _spread(p: int, cols: int, own: bool, torus: bool) -> int:
    """What the presses ``p`` of one row toggle in that row (left, right, and own cells)."""
    full = (1 << cols) - 1
    if torus:
        left = ((p << 1) | (p >> (cols - 1))) & full
        right = (p >> 1) | ((p & 1) << (cols - 1))
    else:
        left, right = (p << 1) & full, p >> 1
    return left ^ right ^ (p if own else 0)


def chased(puzzle: LightsOut) -> tuple[int | None, int]:
    """Light chasing: the fewest presses (``None`` if unsolvable) and the number of press
    sets that solve the board; a torus needs at least 3 rows and 3 columns."""
    rows, cols, lights = puzzle.rows, puzzle.cols, puzzle.lights
    own = puzzle.variant == "sigma-plus"
    assert not puzzle.torus or min(rows, cols) >= 3, "the wrapped chase needs 3 x 3"
    lasts = range(1 << cols) if puzzle.torus else [0]
    best, count = None, 0
    for first in range(1 << cols):
        for last in lasts:
            prev, cur, weight = last, first, first.bit_count()
            for r in range(rows - 1):
                prev, cur = cur, lights[r] ^ _spread(cur, cols, own, puzzle.torus) ^ prev
                weight += cur.bit_count()
            if puzzle.torus and cur != last:
                continue
            wrap = first if puzzle.torus else 0
            if lights[-1] ^ _spread(cur, cols, own, puzzle.torus) ^ prev ^ wrap == 0:
                count += 1
                best = weight if best is None else min(best, weight)
    return best, count


def assert_exact(made: Made, k: int) -> None:
    """The certificate of a ``--min-presses K`` board, checked by the oracles."""
    puzzle, cert = made
    assert cert["minimum"] == k and cert["solvable"] is True
    assert "2^" in cert["proven_by"] or "only solution" in cert["proven_by"]
    if puzzle.cells <= TABLE_CELLS:
        known = table(puzzle.rows, puzzle.cols, puzzle.variant, puzzle.torus)
        assert known.minima[flat_lights(puzzle)] == k
        assert cert["nullity"] == known.nullity
    else:
        best, count = chased(puzzle)
        assert best == k
        assert count == 2 ** cert["nullity"]


def options(
    size: str,
    *,
    variant: str = "sigma-plus",
    torus: bool = False,
    min_presses: int | None = None,
    solvable: bool = False,
) -> GenerateOptions:
    """The options of ``cspsolve generate lightsout --size SIZE ...``."""
    return GenerateOptions(size, variant, torus, min_presses, solvable)


# --- the oracles agree --------------------------------------------------------------------


@settings(max_examples=40, deadline=None)
@given(
    rows=st.integers(3, 4),
    cols=st.integers(3, 4),
    variant=st.sampled_from(["sigma-plus", "sigma"]),
    torus=st.booleans(),
    lights=st.integers(0, (1 << 16) - 1),
)
def test_light_chasing_agrees_with_the_table(
    rows: int, cols: int, variant: str, torus: bool, lights: int
) -> None:
    cells = rows * cols
    packed = tuple(lights >> (r * cols) & ((1 << cols) - 1) for r in range(rows))
    puzzle = LightsOut(packed, cols, variant, torus)
    known = table(rows, cols, variant, torus)
    best, count = chased(puzzle)
    assert best == known.minima.get(flat_lights(puzzle))
    assert count == (2**known.nullity if best is not None else 0)
    assert len(known.minima) == 2 ** (cells - known.nullity)


# --- exact minima -----------------------------------------------------------------------------


@settings(max_examples=40, deadline=None)
@given(
    shape=st.sampled_from(["1x5", "2x2", "2x5", "3", "3x4", "2x6", "4x3"]),
    variant=st.sampled_from(["sigma-plus", "sigma"]),
    torus=st.booleans(),
    seed=st.integers(0, 2**32),
    share=st.floats(0, 1),
)
def test_small_boards_have_the_minimum_asked_or_none_can(
    shape: str, variant: str, torus: bool, seed: int, share: float
) -> None:
    rows, _, cols = shape.partition("x")
    known = table(int(rows), int(cols or rows), variant, torus)
    k = 1 + round(share * (known.cells - 1))
    asked = options(shape, variant=variant, torus=torus, min_presses=k)
    try:
        made = make(asked, random.Random(seed))
    except OptionError as e:
        assert str(e).startswith("--min-presses:") and f"{TRIES} tries" in str(e)
        # no board has minimum K, or so few K-press sets reach one that TRIES draws miss
        assert known.tight_share(k) < 0.02, (k, known.tight_share(k))
        return
    assert made is not None
    assert_exact(made, k)
    assert made.certificate["size"] == f"{rows}x{cols or rows}"
    assert made.certificate["lit"] == flat_lights(made.puzzle).bit_count()


@pytest.mark.parametrize(
    ("size", "variant", "torus", "k"),
    [
        ("2x5", "sigma-plus", False, 4),
        ("3x5", "sigma", False, 5),
        ("4", "sigma-plus", False, 7),
        ("4", "sigma-plus", True, 5),
        ("4", "sigma", False, 6),
        ("3", "sigma", True, 2),
        ("4", "sigma", True, 4),
        ("5", "sigma-plus", False, 15),
        ("5", "sigma-plus", True, 8),
        ("6", "sigma", False, 10),
        ("7", "sigma-plus", False, 15),
        ("5x8", "sigma-plus", False, 14),
        ("9x6", "sigma", False, 12),
        ("7", "sigma", True, 12),
        ("8", "sigma-plus", False, 18),
        ("9", "sigma-plus", False, 20),
        ("9", "sigma", False, 25),
    ],
)
def test_the_minimum_is_exactly_k(size: str, variant: str, torus: bool, k: int) -> None:
    asked = options(size, variant=variant, torus=torus, min_presses=k)
    made = make(asked, random.Random(k))
    assert made is not None
    assert made.certificate["variant"] == variant and made.certificate["torus"] is torus
    assert made.puzzle.variant == variant and made.puzzle.torus is torus
    assert_exact(made, k)


def test_a_minimum_no_board_has_is_refused() -> None:
    known = table(4, 4, "sigma-plus", False)
    most = max(known.minima.values())
    assert known.tight.get(most + 1, 0) == 0
    with pytest.raises(OptionError, match=rf"^--min-presses: .*{TRIES} tries"):
        make(options("4", min_presses=most + 1), random.Random(1))
    made = make(options("4", min_presses=most), random.Random(1))
    assert made is not None
    assert_exact(made, most)


# --- solvable and random boards --------------------------------------------------------------


def oracle_solvable(puzzle: LightsOut) -> tuple[bool, int]:
    """Whether the board is solvable, and its nullity, by the oracles."""
    if puzzle.cells <= TABLE_CELLS:
        known = table(puzzle.rows, puzzle.cols, puzzle.variant, puzzle.torus)
        return flat_lights(puzzle) in known.minima, known.nullity
    best, count = chased(puzzle)
    if best is None:
        return False, -1
    return True, count.bit_length() - 1


@pytest.mark.parametrize(
    ("size", "variant", "torus"),
    [("4", "sigma-plus", False), ("5", "sigma-plus", False), ("6", "sigma", True)],
)
def test_solvable_boards_are_and_random_ones_are_told(size: str, variant: str, torus: bool) -> None:
    seen = set()
    for seed in range(12):
        for solvable in (True, False):
            asked = options(size, variant=variant, torus=torus, solvable=solvable)
            made = make(asked, random.Random(seed))
            assert made is not None
            cert = made.certificate
            really, nullity = oracle_solvable(made.puzzle)
            assert cert["solvable"] is really
            seen.add((solvable, really))
            if solvable:
                assert really
            if really:
                assert cert["nullity"] == nullity
                best = oracle_minimum(made.puzzle)
                assert cert["minimum"] == best
                assert "reason" not in cert
            else:
                assert cert["minimum"] is None
                assert "quiet pattern" in cert["reason"] and "odd" in cert["reason"]
    assert (False, False) in seen, "random lights never unsolvable"


def oracle_minimum(puzzle: LightsOut) -> int | None:
    if puzzle.cells <= TABLE_CELLS:
        known = table(puzzle.rows, puzzle.cols, puzzle.variant, puzzle.torus)
        return known.minima.get(flat_lights(puzzle))
    return chased(puzzle)[0]


# --- determinism -------------------------------------------------------------------------


@settings(max_examples=15, deadline=None)
@given(
    seed=st.integers(0, 2**64),
    size=st.sampled_from(["3", "5", "4x7", "9"]),
    k=st.one_of(st.none(), st.integers(1, 6)),
    solvable=st.booleans(),
)
def test_a_seed_gives_the_same_board(seed: int, size: str, k: int | None, solvable: bool) -> None:
    asked = options(size, min_presses=k, solvable=solvable)
    first, second = make(asked, random.Random(seed)), make(asked, random.Random(seed))
    assert first is not None and second is not None
    assert first.puzzle == second.puzzle
    assert first.certificate == second.certificate


def test_a_seed_gives_the_same_board_in_another_process() -> None:
    code = (
        "import random\n"
        "from cspsolve.models.lightsout.generate import GenerateOptions, make\n"
        "made = make(GenerateOptions(size='9', min_presses=20), random.Random(2024))\n"
        "print(made.puzzle.lights)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    )
    here = make(options("9", min_presses=20), random.Random(2024))
    assert here is not None
    assert done.stdout.strip() == str(here.puzzle.lights)


# --- files, the kind, the certificate ------------------------------------------------------


@pytest.mark.parametrize(
    "asked",
    [
        options("5", min_presses=10),
        options("3x7", variant="sigma", torus=True, min_presses=4),
        options("6x2", solvable=True),
        options("1x9"),
    ],
)
def test_the_board_written_reads_back_the_same(asked: GenerateOptions, tmp_path: Path) -> None:
    generator = KIND.generator
    assert generator is not None and generator.make is make
    made = generator.make(asked, random.Random(5), Limits())
    assert made is not None
    path = tmp_path / f"board{generator.extension}"
    KIND.write(made.puzzle, path)
    (entry,) = KIND.read(path)
    assert entry.puzzle == made.puzzle
    assert json.loads(json.dumps(made.certificate)) == made.certificate


def test_the_kind_declares_the_generator() -> None:
    generator = KIND.generator
    assert generator is not None
    assert generator.options is GenerateOptions and generator.extension == ".lo"
    assert generator.note
    assert {f.name for f in fields(GenerateOptions)} == {
        "size",
        "variant",
        "torus",
        "min_presses",
        "solvable",
    }
    assert all(f.metadata["help"] for f in fields(GenerateOptions))
    made = make(GenerateOptions(), random.Random(3))
    assert made is not None
    assert made.certificate["size"] == "5x5" and made.certificate["variant"] == "sigma-plus"
    assert set(made.certificate) >= {
        "size",
        "variant",
        "torus",
        "lit",
        "made",
        "tries",
        "solvable",
        "nullity",
        "minimum",
        "proven_by",
    }


# --- bad options and limits ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("asked", "flag"),
    [
        (options("abc"), "--size"),
        (options("0"), "--size"),
        (options("3x"), "--size"),
        (options("5x0"), "--size"),
        (options("x5"), "--size"),
        (options("-3"), "--size"),
        (options("70000"), "--size"),
        (options("3000"), "--size"),
        (options("200", torus=True), "--torus"),
        (options("5", variant="plus"), "--variant"),
        (options("5", min_presses=0), "--min-presses"),
        (options("5", min_presses=26), "--min-presses"),
        (options("2x3", min_presses=-1), "--min-presses"),
    ],
)
def test_bad_options_name_their_flag(asked: GenerateOptions, flag: str) -> None:
    with pytest.raises(OptionError) as caught:
        make(asked, random.Random(0), Limits(time_limit=0))
    message = str(caught.value)
    assert message.startswith(f"{flag}: ") and "\n" not in message


@pytest.mark.parametrize(
    "asked",
    [options("9", min_presses=20), options("5"), options("40", torus=True, solvable=True)],
)
def test_no_time_makes_no_board(asked: GenerateOptions) -> None:
    assert make(asked, random.Random(1), Limits(time_limit=0)) is None
    cancel = threading.Event()
    cancel.set()
    assert make(asked, random.Random(1), Limits(cancel=cancel)) is None


def test_a_short_time_limit_stops_the_tries(monkeypatch: pytest.MonkeyPatch) -> None:
    # 19 x 19 (nullity 16): a try takes some 20 ms, and K = 356 is never the minimum
    tries = []
    judge = generate.judge

    def counted(puzzle: LightsOut, budget: Budget) -> object:
        tries.append(puzzle)
        return judge(puzzle, budget)

    monkeypatch.setattr(generate, "judge", counted)
    start = time.perf_counter()
    assert make(options("19", min_presses=356), random.Random(1), Limits(time_limit=0.3)) is None
    assert time.perf_counter() - start < 1.0
    assert 1 < len(tries) < TRIES
