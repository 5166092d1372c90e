"""The checks of the contract suite that the kinds' own limit tests share: a run kept its
limits and answered ``limit`` or right, by the kind's checker and by the differential module's
independent replay of the answer's JSON form (:class:`tests.fuzzing.Differential`)."""

from __future__ import annotations

import functools
import json
from typing import Any

from cspsolve.kind import Kind
from cspsolve.results import Result, Status

from ..fuzzing import Differential, differential_of

MARGIN = 0.5
"""Seconds a run may overrun its time limit (the project's promise)."""


@functools.cache
def differential(kind: str) -> Differential:
    """The kind's differential module, imported once."""
    return differential_of(kind)


def assert_right(kind: Kind, puzzle: Any, result: Result[Any]) -> None:
    """The result's JSON form survives JSON text; its solution, if any, passes the kind's
    checker and the differential module's replay of the form read back."""
    text = json.dumps(result.to_json(kind.encode), allow_nan=False)
    back = json.loads(text)
    assert (back["status"], back["method"]) == (result.status.value, result.method)
    assert back["stats"] == result.stats.to_json()
    assert (result.solution is not None) == result.status.has_solution, result.status
    if result.solution is not None:
        assert kind.check(puzzle, result.solution) == []
        assert differential(kind.name).replay_json(puzzle, back["solution"]) is None


def assert_within(kind: Kind, puzzle: Any, result: Result[Any], limit: float) -> None:
    """The run on a solvable puzzle kept within ``limit`` seconds (and :data:`MARGIN`), and
    answered ``limit`` or right."""
    assert result.stats.seconds <= limit + MARGIN, result.stats.seconds
    assert result.status in (Status.LIMIT, Status.SOLVED, Status.OPTIMAL), result.status
    assert_right(kind, puzzle, result)


def assert_record_within(kind: str, puzzle: Any, record: dict[str, Any], limit: float) -> None:
    """What ``cspsolve solve --format json`` printed for a solvable puzzle: within ``limit``
    seconds (and :data:`MARGIN`), ``limit`` with no solution, or a solution the differential
    module's replay accepts."""
    assert record["stats"]["seconds"] <= limit + MARGIN, record["stats"]
    assert record["status"] in ("limit", "solved", "optimal"), record["status"]
    if record["status"] == "limit":
        assert record["solution"] is None
    else:
        assert differential(kind).replay_json(puzzle, record["solution"]) is None
