"""Lights Out boards made to order (``cspsolve generate lightsout``).

Three ways to light a grid of ``rows x cols`` cells, drawn with a :class:`random.Random`
alone, so that a seed gives the same board in any process:

- *random presses* (``--solvable``): each cell of a dark board pressed with probability 1/2;
  the lights left are solvable by construction, since pressing the same cells again turns
  them off (presses commute and undo themselves: Anderson & Feil, "Turning Lights Out with
  Linear Algebra", Mathematics Magazine 71 (1998) 300-303);
- *random lights* (the default): each light on with probability 1/2; the board may be
  unsolvable, which the algebra then proves by a quiet pattern covering an odd number of lit
  cells;
- *an exact minimum* (``--min-presses N``): ``N`` distinct random cells pressed on a dark
  board; those presses solve it, so its minimum is at most ``N``, and the board is kept when
  the kind's exact method (:func:`.algebra.minimum`: light chasing or Gauss-Jordan
  elimination over GF(2) for one solution, then the lightest of all ``2**nullity``
  solutions, the coset of the quiet patterns) proves it is exactly ``N``; else new presses
  are drawn, up to :data:`TRIES` times.

Each board's certificate says what was proven about it (:func:`make`). The algebra (and so
numpy) is imported on first use: the kind's module imports this one when any command starts.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from cspsolve.errors import OptionError
from cspsolve.kind import Made, option
from cspsolve.limits import Budget, Limits
from cspsolve.results import Result, Stats, Status

from .board import GENERAL_CELLS, MAX_CELLS, MAX_SIDE, VARIANTS, LightsOut, Presses, apply

if TYPE_CHECKING:
    from .algebra import Trace

__all__ = [
    "EXTENSION",
    "NOTE",
    "TRIES",
    "GenerateOptions",
    "Verdict",
    "distinct_cells",
    "judge",
    "make",
    "parse_size",
    "random_lights",
]

TRIES = 800
"""Most boards of ``N`` random presses drawn for ``--min-presses N`` before giving up (a try
takes about a millisecond on 9 x 9; the rarest minimum of 5 x 5, 15, took up to 320 tries)."""

EXTENSION = ".lo"
"""The files the boards are written to: the kind's grid format (:mod:`.formats`)."""

NOTE = (
    "Boards are lit by random presses on a dark board (--solvable: solvable by construction), "
    "by random lights (the default: the certificate says whether they are solvable, and why "
    "not), or, with --min-presses N, by N distinct random presses, kept when the algebra "
    "(light chasing or GF(2) elimination, then the lightest of all 2^nullity solutions) "
    f"proves that no fewer presses solve the board; up to {TRIES} tries."
)
"""The paragraph of ``cspsolve generate lightsout --help``."""

_SIZE = re.compile(r"(\d+)(?:\s*[xX]\s*(\d+))?")


@dataclass(frozen=True)
class GenerateOptions:
    """What ``cspsolve generate lightsout`` is asked for (each field is a flag)."""

    size: str | None = option(
        "rows x columns of the board: N (N x N) or MxN. Default: 5.",
        default="5",
        metavar="N|MxN",
    )
    variant: str | None = option(
        "a press toggles the cell and its neighbours (sigma-plus, the classic) or only the "
        "neighbours (sigma). Default: sigma-plus.",
        default=VARIANTS[0],
        choices=VARIANTS,
    )
    torus: bool = option("the board wraps around at its edges.", default=False)
    min_presses: int | None = option(
        "the board's proven minimum number of presses is exactly N (implies --solvable)."
    )
    solvable: bool = option(
        "light the board by random presses, so that it is solvable (else the lights are "
        "random and the board may be unsolvable).",
        default=False,
    )


@dataclass(frozen=True)
class _Order:
    """Options checked: the board's shape and rule, and the promise asked for."""

    rows: int
    cols: int
    variant: str
    torus: bool
    presses: int | None
    """``N`` of ``--min-presses`` (``None``: no minimum asked)."""
    solvable: bool

    @property
    def cells(self) -> int:
        """Cells of the board."""
        return self.rows * self.cols

    @property
    def size(self) -> str:
        """E.g. ``"9x9"``."""
        return f"{self.rows}x{self.cols}"

    def dark(self) -> LightsOut:
        """The board of this shape and rule with every light off."""
        return LightsOut((0,) * self.rows, self.cols, self.variant, self.torus)


@dataclass(frozen=True)
class Verdict:
    """What the algebra proved about one board."""

    solvable: bool
    nullity: int
    minimum: int | None
    """Fewest presses, proven (``None`` when unsolvable or not proven)."""
    proven_by: str
    reason: str | None = None
    """An unsolvable board's quiet pattern, in words."""


# --- options ---------------------------------------------------------------------------------


def parse_size(text: str | None) -> tuple[int, int]:
    """The rows and columns ``--size`` asks for.

    Parameters
    ----------
    text : str or None
        ``"N"`` (an N x N board), ``"MxN"`` (M rows of N cells) or ``None`` (5 x 5).

    Returns
    -------
    tuple of (int, int)
        Rows and columns, each from 1 to :data:`~.board.MAX_SIDE`, at most
        :data:`~.board.MAX_CELLS` cells (the largest board the reader takes).

    Raises
    ------
    OptionError
        Naming ``--size``, for other text or a board out of those bounds.

    Examples
    --------
    >>> parse_size("9"), parse_size("3x5")
    ((9, 9), (3, 5))
    """
    found = _SIZE.fullmatch((text or "5").strip())
    if found is None:
        raise OptionError(f"--size: expected N or MxN (e.g. 5 or 4x6), got {text!r}")
    rows = int(found.group(1))
    cols = int(found.group(2) or rows)
    if not 1 <= rows <= MAX_SIDE or not 1 <= cols <= MAX_SIDE:
        raise OptionError(f"--size: rows and columns must be from 1 to {MAX_SIDE:,}, got {text}")
    if rows * cols > MAX_CELLS:
        raise OptionError(f"--size: {rows}x{cols} is more than {MAX_CELLS:,} cells")
    return rows, cols


def _checked(options: GenerateOptions) -> _Order:
    """``options`` checked against each other and the board's bounds.

    Raises
    ------
    OptionError
        Naming the flag: a bad size, an unknown variant, a torus beyond
        :data:`~.board.GENERAL_CELLS` cells, or ``N`` below 1 or above the cells.
    """
    rows, cols = parse_size(options.size)
    variant = options.variant or VARIANTS[0]
    if variant not in VARIANTS:
        raise OptionError(f"--variant: choose from {', '.join(VARIANTS)}, got {variant!r}")
    if options.torus and rows * cols > GENERAL_CELLS:
        raise OptionError(
            f"--torus: a torus has at most {GENERAL_CELLS:,} cells, {rows}x{cols} has "
            f"{rows * cols:,}"
        )
    k = options.min_presses
    if k is not None and not 1 <= k <= rows * cols:
        raise OptionError(
            f"--min-presses: {k} distinct presses cannot be made on {rows}x{cols} "
            f"({rows * cols} cells); N must be from 1 to {rows * cols}"
        )
    solvable = options.solvable or k is not None
    return _Order(rows, cols, variant, bool(options.torus), k, solvable)


# --- lighting a board ------------------------------------------------------------------------


def random_lights(rng: random.Random, rows: int, cols: int) -> Presses:
    """``rows`` packed rows of ``cols`` random bits (each 1 with probability 1/2)."""
    return tuple(rng.getrandbits(cols) for _ in range(rows))


def distinct_cells(rng: random.Random, rows: int, cols: int, k: int) -> Presses:
    """Packed rows with ``k`` distinct random cells set (all ``k``-sets equally likely)."""
    packed = [0] * rows
    for cell in rng.sample(range(rows * cols), k):
        r, c = divmod(cell, cols)
        packed[r] |= 1 << c
    return tuple(packed)


def _pressed(order: _Order, presses: Presses) -> LightsOut:
    """The board ``presses`` leave on a dark board of ``order``'s shape and rule (so that
    pressing them again solves it), by the kind's press rule (:func:`.board.apply`)."""
    dark = order.dark()
    return dark.with_lights(apply(dark, presses))


# --- the proof -------------------------------------------------------------------------------


def _first_step(puzzle: LightsOut) -> str:
    """How the algebra finds one solution of ``puzzle``."""
    return "light chasing" if puzzle.plain else "Gauss-Jordan elimination over GF(2)"


def _proof(puzzle: LightsOut, nullity: int, trace: Trace) -> str:
    """The words of a proven minimum: how the algebra covered the coset of solutions."""
    searches = {group.search for group in trace.groups}
    head = f"algebra: {_first_step(puzzle)}"
    if "local" in searches:
        return (
            f"{head} and the quiet patterns (nullity {nullity}), the groups too large to "
            "enumerate settled by CP-SAT, which proved the minimum"
        )
    if nullity == 0:
        return f"{head}, which gives the only solution (nullity 0)"
    symmetric = ", up to the grid's symmetries" if "symmetry" in searches else ""
    return f"{head}, then the lightest of all 2^{nullity} solutions{symmetric}"


def _stopped(result: Result[Presses], budget: Budget) -> bool:
    """Whether the limits, not the board, left ``result`` without a proven answer."""
    if result.status in (Status.LIMIT, Status.CANCELLED) or "stopped" in result.proof:
        return True
    unproven = result.status is Status.SOLVED
    return unproven and (budget.exhausted() is not None or budget.limits.max_nodes is not None)


def judge(puzzle: LightsOut, budget: Budget) -> Verdict | None:
    """Solvability, nullity and minimum of ``puzzle`` by the algebra, in the budget left.

    Returns
    -------
    Verdict or None
        ``None`` when the budget's limits stopped the algebra first; a minimum of ``None``
        when the board is unsolvable, or too large for its minimum to be proven.
    """
    from .algebra import Trace, minimum_with_witness

    trace = Trace()
    result, _ = minimum_with_witness(puzzle, limits=budget.rest(), trace=trace)
    if _stopped(result, budget):
        return None
    nullity = int(result.proof["nullity"])
    if result.status is Status.UNSOLVABLE:
        words = "a quiet pattern covers an odd number of lit cells"
        proof = f"algebra: {_first_step(puzzle)} and the quiet patterns; {words}"
        return Verdict(False, nullity, None, proof, result.message)
    if result.status is Status.OPTIMAL:
        return Verdict(True, nullity, int(result.stats.cost), _proof(puzzle, nullity, trace))
    proof = f"algebra: {_first_step(puzzle)} (solvable); the minimum was not proven"
    return Verdict(True, nullity, None, proof)


def _certificate(order: _Order, puzzle: LightsOut, verdict: Verdict, **how: Any) -> dict[str, Any]:
    """The JSON-ready certificate of a board made (keys listed in :func:`make`)."""
    out: dict[str, Any] = {
        "size": order.size,
        "variant": order.variant,
        "torus": order.torus,
        "lit": puzzle.flat.bit_count(),
        **how,
        "solvable": verdict.solvable,
        "nullity": verdict.nullity,
        "minimum": verdict.minimum,
        "proven_by": verdict.proven_by,
    }
    if verdict.reason is not None:
        out["reason"] = verdict.reason
    return out


# --- making ----------------------------------------------------------------------------------


def _exact(order: _Order, k: int, rng: random.Random, budget: Budget) -> Made | None:
    """A board whose proven minimum is ``k`` (see the module's text); ``None`` at a limit.

    Raises
    ------
    OptionError
        When no try of :data:`TRIES` met ``k``, or the minimum of boards of this size
        cannot be proven.
    """
    for tries in range(1, TRIES + 1):
        if budget.exhausted() is not None:
            return None
        puzzle = _pressed(order, distinct_cells(rng, order.rows, order.cols, k))
        verdict = judge(puzzle, budget)
        if verdict is None:
            return None
        if verdict.minimum is None:
            raise OptionError(
                f"--min-presses: the minimum of a {order.size} board cannot be proven "
                f"(nullity {verdict.nullity}: too many solutions to enumerate)"
            )
        if verdict.minimum == k:
            made = f"{k} distinct random presses on a dark board"
            return Made(puzzle, _certificate(order, puzzle, verdict, made=made, tries=tries))
    raise OptionError(
        f"--min-presses: no board of {order.size} made by {k} random presses had a minimum of "
        f"{k} in {TRIES} tries (try a smaller N)"
    )


def _random(order: _Order, rng: random.Random, budget: Budget) -> Made | None:
    """A board of random presses (solvable) or random lights, judged; ``None`` at a limit."""
    bits = random_lights(rng, order.rows, order.cols)
    if order.solvable:
        puzzle = _pressed(order, bits)
        made = "random presses on a dark board (each cell with probability 1/2)"
    else:
        puzzle = order.dark().with_lights(bits)
        made = "random lights (each on with probability 1/2)"
    verdict = judge(puzzle, budget)
    if verdict is None:
        return None
    return Made(puzzle, _certificate(order, puzzle, verdict, made=made, tries=1))


def make(options: GenerateOptions, rng: random.Random, limits: Limits | None = None) -> Made | None:
    """One board keeping every promise of ``options``, drawn with ``rng`` alone.

    Parameters
    ----------
    options : GenerateOptions
        The shape, rule and promise asked for.
    rng : random.Random
        The only source of randomness (a seed gives the same board in any process).
    limits : Limits, optional
        Time limit, node limit and cancellation, passed to every solve.

    Returns
    -------
    Made or None
        The board (a :class:`~.board.LightsOut` of ``rows`` packed rows of ``cols`` bits, as
        the kind's ``read`` gives it back from a ``.lo`` file) and its certificate:
        ``size`` (``"RxC"``), ``variant``, ``torus``, ``lit`` (lights on), ``made`` (how it
        was lit), ``tries`` (boards drawn until one kept the promise), ``solvable``,
        ``nullity``, ``minimum`` (proven fewest presses; ``None`` when unsolvable or not
        proven), ``proven_by`` (the method and its proof, in words) and, for an unsolvable
        board, ``reason`` (the quiet pattern that proves it). ``None`` when the limits
        stopped it first.

    Raises
    ------
    OptionError
        One line naming the flag, before any work for malformed options (:func:`parse_size`,
        an unknown variant, a torus too large, ``N`` out of range), and for an ``N`` that no
        try met (see :data:`TRIES`).

    Examples
    --------
    >>> made = make(GenerateOptions(size="3x4", min_presses=3), random.Random(7))
    >>> made.certificate["minimum"], made.puzzle.rows, made.puzzle.cols
    (3, 3, 4)
    """
    order = _checked(options)
    budget = (limits or Limits()).start(Stats())
    if budget.exhausted() is not None:
        return None
    if order.presses is not None:
        return _exact(order, order.presses, rng, budget)
    return _random(order, rng, budget)
