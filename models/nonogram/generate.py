"""Nonograms made to order (``cspsolve generate nonogram``): random or traced grids, made unique
and graded as the kind's own solver and explanation prove.

A puzzle is the clues of a grid: a random grid of ``--size`` whose cells are filled (in a
colour puzzle: given one of ``--colours`` colours at random) with probability ``--fill``, or
a picture traced from ``--image``. Its certificate says what was proven of it:

- ``--unique``: the kind's ``probing`` method, asked for two solutions, finds only the grid.
  Where it finds a second solution, the grid is repaired as designers repair a drawing
  (webpbn's puzzle checker, the web page's designer: :func:`.design.check`): one cell where
  the two solutions differ, picked at random, is given the second solution's value, the clues
  are recomputed and checked again, up to :func:`max_changes` times. ``cells_changed`` counts
  the cells in which the puzzle's grid differs from the grid drawn (or traced).
- ``--grade``: the least reasoning that solves the puzzle, in the words of the kind's
  explanation (:data:`.solver.GRADES`): ``line logic`` when line logic alone decides every
  cell (its fixpoint, the explanation's first phase), else the grade of the explanation's
  replay (the kind's ``explain``). A grade implies ``--unique``; grids are drawn afresh (a
  traced picture has more and more cells changed at random) until the grade is met, at most
  :data:`TRIES` times.

Randomness comes from the ``rng`` given to :func:`make` alone, and the solver's search is
seeded, so that one seed makes one puzzle in any process.

References
----------
K. J. Batenburg, S. Henstra, W. A. Kosters and W. J. Palenstijn, "Constructing simple
nonograms of varying difficulty", *Pure Mathematics and Applications* 20 (2009): random
grids of a given density, graded by the reasoning that solves them.
J. Wolter, pbnsolve and webpbn's puzzle checks, https://webpbn.com/pbnsolve.html: the uniqueness
check and line-solvability grading that designers repair their drawings against.
"""

from __future__ import annotations

import dataclasses
import math
import random
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cspsolve.errors import InputError, OptionError
from cspsolve.kind import Made, option
from cspsolve.limits import Budget, Limits
from cspsolve.results import Stats, Status

from .board import Grid, Nonogram
from .colour_board import Colour, ColourNonogram
from .colour_board import clue_of as colour_clue_of
from .io.clues import MAX_CELLS, MAX_SIDE
from .io.palette import WHITE
from .solver import GRADES

__all__ = [
    "PALETTE",
    "TRIES",
    "GenerateOptions",
    "make",
    "max_changes",
    "parse_size",
]

PALETTE = (
    Colour("k", "black", "#000000"),
    Colour("r", "red", "#d62728"),
    Colour("b", "blue", "#1f77b4"),
    Colour("g", "green", "#2ca02c"),
    Colour("y", "yellow", "#f2c418"),
    Colour("o", "orange", "#ff7f0e"),
    Colour("p", "purple", "#9467bd"),
    Colour("n", "brown", "#8c564b"),
    Colour("i", "pink", "#e377c2"),
    Colour("a", "grey", "#7f7f7f"),
    Colour("c", "cyan", "#17becf"),
    Colour("l", "olive", "#bcbd22"),
)
"""The colours of colour puzzles, in the order they are taken (the background is white)."""

TRIES = 300
"""Most grids drawn (or traced pictures changed) for one puzzle before the options are
declared impossible to meet."""

DEFAULT_SIZE = "10x10"
DEFAULT_FILL = 0.5

_SIZE = re.compile(r"([0-9]{1,9})[xX]([0-9]{1,9})")

Cells = list[list[int]]
"""A grid being made: a colour index per cell, 0 the background (in black and white, 1 is
filled)."""


@dataclass(frozen=True)
class GenerateOptions:
    """The options of ``cspsolve generate nonogram``."""

    size: str | None = option(
        "size of the grid, WxH (default 10x10).", default=DEFAULT_SIZE, metavar="WxH"
    )
    fill: float | None = option(
        "share of the cells a random grid fills, between 0 and 1 (default 0.5; not used "
        "with --image).",
        default=DEFAULT_FILL,
        metavar="P",
    )
    image: str | None = option(
        "trace the grid from this image (PNG, GIF, JPEG, BMP or Netpbm): scaled to --size, "
        "a cell filled "
        "where the mean of its pixels is darker than mid-grey.",
        metavar="FILE",
    )
    unique: bool = option(
        "make the clues' solution unique, proven by a search for a second one (cells where "
        "another solution differs are changed until none is left).",
        default=False,
    )
    grade: str | None = option(
        "the least reasoning that solves the puzzle, as explain grades it (implies --unique).",
        choices=GRADES,
    )
    colours: int | None = option(
        f"make colour puzzles of this many colours besides the background (2 to {len(PALETTE)}).",
        metavar="K",
    )


@dataclass(frozen=True)
class _Plan:
    """The options checked: what to make."""

    width: int
    height: int
    fill: float
    colours: int
    """Colours besides the background (1 for black and white)."""
    picture: Cells | None
    """The traced image, or ``None`` for random grids."""
    image: str | None
    """The image's file name."""
    unique: bool
    grade: str | None

    @property
    def keys(self) -> str:
        """The character of each colour index in grids."""
        if self.colours == 1:
            return ".#"
        return WHITE.key + "".join(c.key for c in PALETTE[: self.colours])


class _StoppedError(Exception):
    """The limits stopped the making."""


def parse_size(text: str | None) -> tuple[int, int]:
    """The width and height ``--size`` gives, ``WxH``.

    Raises
    ------
    OptionError
        For text that is not ``WxH`` with sides from 1 to the largest a file may have
        (:data:`.io.clues.MAX_SIDE`, :data:`.io.clues.MAX_CELLS` cells).

    Examples
    --------
    >>> parse_size("25x20")
    (25, 20)
    """
    text = DEFAULT_SIZE if text is None else text
    match = _SIZE.fullmatch(text.strip()) if isinstance(text, str) else None
    if match is None:
        raise OptionError(f"--size: expected WxH such as 25x25, got {text!r}")
    width, height = int(match[1]), int(match[2])
    if not (1 <= width <= MAX_SIDE and 1 <= height <= MAX_SIDE) or width * height > MAX_CELLS:
        raise OptionError(
            f"--size: {width}x{height} is not 1 to {MAX_SIDE} a side and at most "
            f"{MAX_CELLS:,} cells"
        )
    return width, height


def _fill(value: float | None) -> float:
    """``--fill``, checked."""
    fill = DEFAULT_FILL if value is None else value
    number = isinstance(fill, int | float) and not isinstance(fill, bool)
    if not number or not math.isfinite(fill) or not 0 < fill < 1:
        raise OptionError(f"--fill: a share strictly between 0 and 1, got {fill!r}")
    return float(fill)


def _colours(value: int | None, image: str | None) -> int:
    """``--colours``, checked (1: black and white)."""
    if value is None:
        return 1
    if not isinstance(value, int) or isinstance(value, bool) or not 2 <= value <= len(PALETTE):
        raise OptionError(f"--colours: a whole number from 2 to {len(PALETTE)}, got {value!r}")
    if image is not None:
        raise OptionError("--colours: images are traced in black and white; drop --image")
    return value


def _grade(value: str | None) -> str | None:
    """``--grade``, checked."""
    if value is not None and value not in GRADES:
        raise OptionError(f"--grade: one of {', '.join(GRADES)}; got {value!r}")
    return value


def _plan(options: GenerateOptions) -> _Plan:
    """The options checked, the image traced.

    Raises
    ------
    OptionError
        Naming the flag of the first malformed option, or the image that cannot be read.
    """
    width, height = parse_size(options.size)
    fill = _fill(options.fill)
    grade = _grade(options.grade)
    colours = _colours(options.colours, options.image)
    picture = None if options.image is None else _traced(options.image, width, height)
    return _Plan(
        width=width,
        height=height,
        fill=fill,
        colours=colours,
        picture=picture,
        image=None if options.image is None else Path(options.image).name,
        unique=bool(options.unique) or grade is not None,
        grade=grade,
    )


def _traced(path: str, width: int, height: int) -> Cells:
    """The image at ``path`` traced to ``width`` x ``height`` cells
    (:func:`cspsolve.tracing.traced`).

    Raises
    ------
    OptionError
        Naming the file, when it cannot be read or is not an image of those formats.
    """
    from cspsolve.tracing import traced

    try:
        data = Path(path).read_bytes()
    except OSError as error:
        raise OptionError(f"--image: cannot read {path}: {error.strerror or error}") from None
    try:
        grid = traced(data, path, width, height)
    except InputError as error:
        raise OptionError(f"--image: {error}") from None
    return [[int(ch == "#") for ch in row] for row in grid]


def max_changes(width: int, height: int) -> int:
    """Most cells changed to make one grid's clues unique: half the cells (then another grid
    is drawn).

    Examples
    --------
    >>> max_changes(25, 25)
    312
    """
    return max(1, width * height // 2)


def _drawn(plan: _Plan, rng: random.Random, attempt: int) -> Cells:
    """The grid of try ``attempt``: random, or the picture with ``attempt`` cells changed."""
    if plan.picture is None:
        return [[_random_cell(plan, rng) for _ in range(plan.width)] for _ in range(plan.height)]
    cells = [row[:] for row in plan.picture]
    changed = rng.sample(range(plan.width * plan.height), min(attempt, plan.width * plan.height))
    for cell in changed:
        row, col = divmod(cell, plan.width)
        cells[row][col] = 1 - cells[row][col]
    return cells


def _random_cell(plan: _Plan, rng: random.Random) -> int:
    """A cell of a random grid: filled with probability ``fill``, in a colour drawn at random."""
    return rng.randrange(1, plan.colours + 1) if rng.random() < plan.fill else 0


def _puzzle(cells: Cells, plan: _Plan) -> Nonogram | ColourNonogram:
    """The puzzle whose clues are the runs of ``cells``, with their grid as its goal."""
    keys = plan.keys
    goal = tuple("".join(keys[v] for v in row) for row in cells)
    if plan.colours == 1:
        from .design import puzzle_of

        return puzzle_of(goal, "")
    columns = [[row[c] for row in cells] for c in range(plan.width)]
    return ColourNonogram(
        rows=[colour_clue_of(row) for row in cells],
        columns=[colour_clue_of(column) for column in columns],
        colours=(WHITE, *PALETTE[: plan.colours]),
        goal=goal,
    )


def _rest(budget: Budget) -> Limits:
    """What is left of the limits for one solve, on this process alone (a split search would
    not be reproducible), without progress reports."""
    return dataclasses.replace(budget.rest(), workers=1, scheduler=None, progress=None)


def _go_on(budget: Budget) -> None:
    """Raise :class:`_StoppedError` when the time is up or the run is cancelled."""
    if budget.interrupted() or budget.remaining() == 0:
        raise _StoppedError


def _second_solution(puzzle: Nonogram | ColourNonogram, budget: Budget) -> Grid | None:
    """A solution of ``puzzle`` other than its goal, or ``None`` when the kind's ``probing``
    method, asked for two solutions, proves there is none.

    Raises
    ------
    _StoppedError
        When the limits stopped the search before it settled the question.
    """
    from cspsolve import registry, tasks

    request = tasks.Request("probing", None, {"solutions": 2})
    result = tasks.solve(registry.get("nonogram"), puzzle, request=request, limits=_rest(budget))
    unique = result.proof.get("unique")
    if result.status is not Status.SOLVED or unique is None:
        raise _StoppedError
    if unique:
        return None
    other: Grid | None = next((s for s in result.solutions if s != puzzle.goal), None)
    if other is None:
        raise AssertionError("probing found two solutions but listed one")
    return other


def _made_unique(cells: Cells, plan: _Plan, rng: random.Random, budget: Budget) -> bool:
    """Change ``cells`` (in place) until their clues are unique, a cell where another solution
    differs at a time; False when :func:`max_changes` changes did not make them so.

    Raises
    ------
    _StoppedError
        When the limits stopped a search.
    """
    most = max_changes(plan.width, plan.height)
    for changes in range(most + 1):
        _go_on(budget)
        puzzle = _puzzle(cells, plan)
        other = _second_solution(puzzle, budget)
        if other is None:
            return True
        if changes < most:
            _change(cells, puzzle, other, plan, rng)
    return False


def _change(
    cells: Cells, puzzle: Nonogram | ColourNonogram, other: Grid, plan: _Plan, rng: random.Random
) -> None:
    """Give one cell where ``other`` differs from the puzzle's goal, picked with ``rng``,
    ``other``'s value (in place)."""
    assert puzzle.goal is not None
    differ = [
        (r, c)
        for r, (mine, theirs) in enumerate(zip(puzzle.goal, other, strict=True))
        for c in range(plan.width)
        if mine[c] != theirs[c]
    ]
    row, col = rng.choice(differ)
    cells[row][col] = plan.keys.index(other[row][col])


def _graded(puzzle: Nonogram | ColourNonogram, grade: str, budget: Budget) -> bool:
    """Whether ``puzzle``, whose solution is unique, has the grade ``grade``: line logic
    alone decides every cell (the fixpoint of the kind's line logic), else the grade of the
    kind's explanation.

    Raises
    ------
    _StoppedError
        When the limits stopped the line logic or the explanation.
    """
    from cspsolve import registry
    from cspsolve.csp.gac import StopPropagationError

    from .solver import NonogramOptions, line_logic

    try:
        consistent, fixed = line_logic(puzzle, budget=_rest(budget).start(Stats()))
    except StopPropagationError:
        raise _StoppedError from None
    if consistent and fixed == puzzle.width * puzzle.height:
        return grade == GRADES[0]
    if grade == GRADES[0]:
        return False
    explain = registry.get("nonogram").explain
    assert explain is not None
    explained = explain(
        puzzle, method="probing", heuristic=None, options=NonogramOptions(), limits=_rest(budget)
    )
    if explained.summary["grade"] is None:
        raise _StoppedError
    if explained.summary["verdict"] != "unique":
        raise AssertionError(f"explain says {explained.summary['verdict']} of a unique puzzle")
    return bool(explained.summary["grade"] == grade)


def _certificate(plan: _Plan, start: Cells, cells: Cells) -> dict[str, Any]:
    """What was proven of the puzzle of ``cells``, drawn as ``start``."""
    certificate: dict[str, Any] = {"size": f"{plan.width}x{plan.height}"}
    if plan.image is not None:
        certificate["image"] = plan.image
    else:
        certificate["fill"] = plan.fill
    if plan.colours > 1:
        certificate["colours"] = plan.colours
    if plan.unique:
        certificate["unique"] = True
        certificate["proven_by"] = "probing with solutions=2: the search found no second solution"
    if plan.grade is not None:
        certificate["grade"] = plan.grade
        certificate["graded_by"] = (
            "line logic alone decides every cell"
            if plan.grade == GRADES[0]
            else "explain: the deepest reasoning its replay needs"
        )
    if plan.unique:
        certificate["cells_changed"] = _differences(start, cells)
    return certificate


def _differences(first: Sequence[Sequence[int]], second: Sequence[Sequence[int]]) -> int:
    """How many cells of two grids differ."""
    pairs = zip(first, second, strict=True)
    return sum(a != b for x, y in pairs for a, b in zip(x, y, strict=True))


def _attempt(plan: _Plan, rng: random.Random, attempt: int, budget: Budget) -> Made | None:
    """Try ``attempt``: the puzzle of a grid drawn (repaired and graded as the plan asks), or
    ``None`` when it does not keep the plan's promises.

    Raises
    ------
    _StoppedError
        When the limits stopped it.
    """
    _go_on(budget)
    start = _drawn(plan, rng, attempt)
    cells = [row[:] for row in start]
    if plan.unique and not _made_unique(cells, plan, rng, budget):
        return None
    puzzle = _puzzle(cells, plan)
    if plan.grade is not None and not _graded(puzzle, plan.grade, budget):
        return None
    return Made(puzzle, _certificate(plan, start, cells))


def make(options: GenerateOptions, rng: random.Random, limits: Limits) -> Made | None:
    """Make one nonogram keeping every promise of ``options`` (see the module docstring).

    Parameters
    ----------
    options : GenerateOptions
        What to make.
    rng : random.Random
        The only source of randomness: one seed makes one puzzle, in any process.
    limits : Limits
        Its time limit and cancellation cover the whole making (each solve gets what is
        left, on this process alone).

    Returns
    -------
    Made or None
        The puzzle (its grid as its goal) and its certificate: ``size``, ``fill`` (or
        ``image``, the file's name), ``colours`` for colour puzzles; with ``--unique`` (or a
        grade) ``unique`` (true), ``proven_by`` and ``cells_changed``; with a grade, ``grade``
        and ``graded_by``. ``None`` when the limits stopped it first.

    Raises
    ------
    OptionError
        Naming the flag, for malformed options (before any work) or an image that cannot be
        read; naming ``--grade`` (or ``--unique``) when :data:`TRIES` grids did not meet it.
    """
    plan = _plan(options)
    budget = limits.start(Stats())
    tries = TRIES if plan.unique else 1
    try:
        for attempt in range(tries):
            made = _attempt(plan, rng, attempt, budget)
            if made is not None:
                return made
    except _StoppedError:
        return None
    flag = f"--grade {plan.grade}" if plan.grade is not None else "--unique"
    source = f"the image {plan.image}" if plan.image else f"fill {plan.fill}"
    raise OptionError(
        f"{flag}: no {plan.width}x{plan.height} puzzle of {source} met it in {tries} tries"
    )
