"""Every Rush Hour method, under both metrics, against breadth-first search on random boards
(see :mod:`.differential`); ``CSPSOLVE_FUZZ=N`` or ``pytest --fuzz N`` draws N cases."""

from __future__ import annotations

import pytest
from hypothesis import given

from ...fuzzing import assert_agree, differential
from .differential import Case, cases, check


@pytest.mark.slow
@differential(ci=200)
@given(case=cases())
def test_every_method_agrees_with_breadth_first_search(case: Case) -> None:
    assert_agree(check(case))
