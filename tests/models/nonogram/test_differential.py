"""Every nonogram method against brute force and the tests' own CP-SAT block model on random
black-and-white and colour puzzles (see :mod:`.differential`); ``CSPSOLVE_FUZZ=N`` or
``pytest --fuzz N`` draws N cases."""

from __future__ import annotations

import pytest
from hypothesis import given

from ...fuzzing import assert_agree, differential
from .colour_differential import ColourCase
from .differential import Case, cases, check


@pytest.mark.slow
@differential(ci=260)
@given(case=cases())
def test_every_method_agrees_with_the_oracles(case: Case | ColourCase) -> None:
    assert_agree(check(case))
