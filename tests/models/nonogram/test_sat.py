"""The SAT model of a nonogram line (:func:`cspsolve.models.nonogram.sat.line_clauses`): its
models, projected on the cells, are exactly the fill patterns of the clue, for every clue of
every line of up to 9 cells (each pattern enumerated), clues that do not fit included."""

from __future__ import annotations

import itertools

import pytest

from cspsolve.csp.sat import Cnf, solve_cnf
from cspsolve.limits import Limits
from cspsolve.models.nonogram.board import Clue, clue_of
from cspsolve.models.nonogram.sat import line_clauses
from cspsolve.results import Stats


def patterns(n: int) -> dict[Clue, set[tuple[bool, ...]]]:
    """Every fill pattern of ``n`` cells, by its clue (brute force)."""
    found: dict[Clue, set[tuple[bool, ...]]] = {}
    for line in itertools.product((False, True), repeat=n):
        found.setdefault(clue_of(line), set()).add(line)
    return found


def models(n: int, clue: Clue) -> set[tuple[bool, ...]]:
    """Every model of the line's clauses, read on its cells (each model enumerated)."""
    cnf = Cnf()
    first = cnf.new(n)
    cells = list(range(first, first + n))
    line_clauses(cnf, cells, clue)
    found = solve_cnf(cnf, cells, Limits().start(Stats()), max_models=2**n + 1)
    assert found.stopped is None
    return {tuple(model) for model in found.models}


@pytest.mark.parametrize("n", range(1, 10))
def test_line_models_are_exactly_the_patterns_of_the_clue(n: int) -> None:
    for clue, expected in patterns(n).items():
        assert models(n, clue) == expected, clue


@pytest.mark.parametrize(("n", "clue"), [(1, (2,)), (3, (1, 2)), (5, (2, 1, 1)), (4, (5,))])
def test_a_clue_that_does_not_fit_has_no_model(n: int, clue: Clue) -> None:
    assert models(n, clue) == set()
