"""The grade of a sliding-tile board: its optimum against the hardest optimum of its size.

``explain`` and ``analyze`` grade a board in the words of :data:`cspsolve.plans.GRADES`, by
:func:`cspsolve.plans.grade`: the optimal number of moves as a share of :func:`scale`, the
most moves any start of a board of that size needs (its *diameter*, goal blank in a corner),
so that the hardest 8-puzzle (31 moves) and the hardest 15-puzzle (80) both grade ``expert``.

The diameters known (single-tile moves, OEIS A090033, A151943, A151944 and A087725):

- strips of one row or column: ``cells - 1`` (only the blank moves);
- 2x2 6, 2x3 21, 2x4 36 (Karlemo & Östergård 2000, "On sliding block puzzles", J. Combin.
  Math. Combin. Comput. 34); 2x5 55, 2x6 80, 2x7 108, 2x8 140, 3x4 53, 3x5 84 (Korf 2008,
  "Linear-time disk-based implicit graph search", J. ACM 55(6), Table III, with Rokicki's
  corrections in OEIS A151943);
- 3x3 31 (Reinefeld 1993, "Complete solution of the eight-puzzle and the benefit of node
  ordering in IDA*", IJCAI 1993);
- 4x4 80 (Brüngger, Marzetta, Fukuda & Nievergelt 1999, "The parallel search bench ZRAM and
  its applications", Annals of Operations Research 90; confirmed by the complete breadth-first
  search of Korf & Schultze 2005, "Large-scale parallel breadth-first search", AAAI 2005);
- 5x5: not known; 152 is its best lower bound (OEIS A087725, A090031: between 152 and 205),
  used as the scale.

Any other size gets an estimate, :data:`ESTIMATE_FACTOR` times the Manhattan distance of the
goal turned half round (every tile on the cell opposite its own through the centre, the blank
not counted), ``n floor(m^2 / 2) + m floor(n^2 / 2) - (m + n - 2)`` for m rows and n columns:
within a fifth of every value above from 2x3 up (0.81 to 1.18 times it).
"""

from __future__ import annotations

from cspsolve import plans

from .board import Puzzle

__all__ = ["DIAMETERS", "ESTIMATE_FACTOR", "grade", "half_turn_distance", "scale"]

DIAMETERS = {
    (2, 2): 6,
    (2, 3): 21,
    (2, 4): 36,
    (2, 5): 55,
    (2, 6): 80,
    (2, 7): 108,
    (2, 8): 140,
    (3, 3): 31,
    (3, 4): 53,
    (3, 5): 84,
    (4, 4): 80,
    (5, 5): 152,
}
"""The most moves a start of a board of (fewer, more) sides needs (module text; 5x5: a lower
bound)."""

ESTIMATE_FACTOR = 1.6
"""The diameter of a size not in :data:`DIAMETERS`, per move of the half-turned goal's
Manhattan distance (the known ratios run from 1.38, the 4x4, to 1.96, the 2x7)."""


def half_turn_distance(rows: int, cols: int) -> int:
    """The Manhattan distance of the goal turned half round: every tile on the cell opposite
    its own through the centre, the blank (from a corner) not counted.

    Examples
    --------
    >>> half_turn_distance(3, 3), half_turn_distance(4, 4)
    (20, 58)
    """
    return cols * (rows * rows // 2) + rows * (cols * cols // 2) - (rows + cols - 2)


def scale(rows: int, cols: int) -> float:
    """The most moves a start of a ``rows`` x ``cols`` board needs: known (module text), else
    estimated.

    Examples
    --------
    >>> scale(3, 3), scale(4, 3), scale(1, 7), scale(4, 5)
    (31, 53, 6, 129.6)
    """
    if min(rows, cols) == 1:
        return rows * cols - 1
    known = DIAMETERS.get((min(rows, cols), max(rows, cols)))
    if known is not None:
        return known
    return round(ESTIMATE_FACTOR * half_turn_distance(rows, cols), 1)


def grade(puzzle: Puzzle, optimum: int | None) -> str:
    """The grade of ``puzzle`` whose optimal plan has ``optimum`` moves (``None``: no plan) on
    the scale of its size (:func:`cspsolve.plans.grade`).

    Examples
    --------
    >>> from .board import Puzzle
    >>> eight = Puzzle.from_rows([[1, 2, 3], [4, 0, 6], [7, 5, 8]])
    >>> grade(eight, 2), grade(eight, 31), grade(eight, None)
    ('easy', 'expert', 'unsolvable')
    """
    return plans.grade(optimum, scale(puzzle.rows, puzzle.cols))
