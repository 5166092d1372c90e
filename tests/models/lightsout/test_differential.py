"""Every Lights Out method against brute force, an independent elimination and an independent
CP-SAT model on random boards (see :mod:`.differential`); ``CSPSOLVE_FUZZ=N`` or
``pytest --fuzz N`` draws N cases."""

from __future__ import annotations

import pytest
from hypothesis import given

from ...fuzzing import assert_agree, differential
from .differential import Case, cases, check


@pytest.mark.slow
@differential(ci=250)
@given(case=cases())
def test_every_method_agrees_with_the_oracles(case: Case) -> None:
    assert_agree(check(case))
