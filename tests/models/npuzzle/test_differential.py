"""Every sliding-tile method against breadth-first search on random boards with random goals
(see :mod:`.differential`); ``CSPSOLVE_FUZZ=N`` or ``pytest --fuzz N`` draws N cases."""

from __future__ import annotations

import pytest
from hypothesis import given

from cspsolve.models.npuzzle.board import Puzzle

from ...fuzzing import assert_agree, differential
from .differential import cases, check


@pytest.mark.slow
@differential(ci=300)
@given(puzzle=cases())
def test_every_method_agrees_with_breadth_first_search(puzzle: Puzzle) -> None:
    assert_agree(check(puzzle))
