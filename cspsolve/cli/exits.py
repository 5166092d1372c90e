"""The exit codes of the ``cspsolve`` command and how several puzzles' codes combine
(:func:`worst`); the package's docstring says what each means."""

from __future__ import annotations

from cspsolve.results import Status

EXIT_OK, EXIT_UNSOLVABLE, EXIT_BAD_INPUT, EXIT_LIMIT, EXIT_DISAGREE = 0, 1, 2, 3, 4

EXIT_INTERNAL = 70

STATUS_EXIT = {
    Status.SOLVED: EXIT_OK,
    Status.OPTIMAL: EXIT_OK,
    Status.UNSOLVABLE: EXIT_UNSOLVABLE,
    Status.LIMIT: EXIT_LIMIT,
    Status.CANCELLED: EXIT_LIMIT,
}

_EXIT_PRIORITY = (EXIT_BAD_INPUT, EXIT_LIMIT, EXIT_UNSOLVABLE, EXIT_OK)


def worst(codes: list[int]) -> int:
    """The exit code of several puzzles: the first of 2, 3, 1 among ``codes``, else 0."""
    return min(codes, key=_EXIT_PRIORITY.index, default=EXIT_OK)
