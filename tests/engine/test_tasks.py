"""The engine's operations on any kind: choosing a method, and verify's rules of agreement."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from cspsolve import tasks
from cspsolve.errors import OptionError
from cspsolve.kind import Kind, Method
from cspsolve.results import Result, Stats, Status

from ..stubs import stub_kind


def _never(puzzle: Any, /, **_: Any) -> Result[Any]:
    raise AssertionError("not run")


def method(name: str, **fields: Any) -> Method:
    values: dict[str, Any] = {"run": _never, "summary": name, "backend": "search"}
    values |= {"optimal": True, "complete": True} | fields
    return Method(name=name, **values)


KIND: Kind = dataclasses.replace(
    stub_kind("toy", lambda p: Result(Status.SOLVED, p)),
    methods=(
        method("exact", default=lambda p: len(p) <= 3),
        method("informed", heuristics=("h1", "h2"), default=True),
        method("quick", optimal=False, refuses=lambda p: "too long" if len(p) > 5 else None),
    ),
    check=lambda puzzle, solution: [] if solution != "bad" else ["not a solution"],
)


def result(
    status: Status, solution: Any = None, cost: float = 0, by: str = "exact", **proof: Any
) -> Result[Any]:
    return Result(status, solution, Stats(cost=cost), by, None, dict(proof))


def choose(puzzle: str, method: str | None = None, heuristic: str | None = None) -> tuple[str, Any]:
    chosen, h = tasks.choose(KIND, puzzle, request=tasks.Request(method, heuristic))
    return chosen.name, h


def test_choose_takes_the_first_default_method_that_takes_the_heuristic() -> None:
    assert choose("abc") == ("exact", None)
    assert choose("abcd") == ("informed", "h1")
    assert choose("abc", heuristic="h2") == ("informed", "h2")
    assert choose("abcd", "quick") == ("quick", None)


@pytest.mark.parametrize(
    ("method", "heuristic", "message"),
    [
        ("nope", None, "unknown method 'nope' for toy; choose from exact, informed, quick"),
        (None, "h9", "unknown heuristic 'h9' for toy; choose from h1, h2"),
        ("exact", "h1", "exact is uninformed: it takes no heuristic"),
        ("quick", None, "quick: too long"),
    ],
)
def test_choose_refuses_what_does_not_fit(
    method: str | None, heuristic: str | None, message: str
) -> None:
    with pytest.raises(OptionError) as refused:
        choose("abcdefg", method, heuristic)
    assert str(refused.value) == message


def agree(first: Result[Any], second: Result[Any]) -> bool | None:
    return tasks.agreement(KIND, "puzzle", first, second)[0]


SOLVED, OPTIMAL, LIMIT, UNSOLVABLE = Status.SOLVED, Status.OPTIMAL, Status.LIMIT, Status.UNSOLVABLE


def test_agreement_rules() -> None:
    best = result(OPTIMAL, "a", 5)
    assert agree(best, result(OPTIMAL, "b", 5)) is True
    assert agree(best, result(OPTIMAL, "b", 6)) is False  # optimal costs differ
    assert agree(best, result(OPTIMAL, "bad", 5)) is False  # fails the kind's check
    assert agree(best, result(UNSOLVABLE)) is False
    assert agree(result(UNSOLVABLE), result(UNSOLVABLE)) is True
    assert agree(best, result(LIMIT)) is None
    assert agree(best, result(SOLVED, "b", 5)) is None  # an optimal method, unproven
    quick = result(SOLVED, "b", 4, by="quick")
    assert agree(best, quick) is False  # cheaper than a proven optimum
    assert agree(best, dataclasses.replace(quick, stats=Stats(cost=7))) is True
    bound = result(LIMIT, lower_bound=6)
    assert agree(best, bound) is False  # below a proven bound, though the bound's run stopped


def test_agreement_on_uniqueness() -> None:
    unique = result(SOLVED, "a", by="quick", unique=True)
    assert agree(unique, result(SOLVED, "a", by="quick", unique=True)) is True
    assert agree(unique, result(SOLVED, "b", by="quick", unique=True)) is False
    assert agree(unique, result(SOLVED, "b", by="quick", unique=False)) is False
    assert agree(unique, result(SOLVED, "a", by="quick", unique=None)) is None


def test_verify_refuses_the_reference_itself() -> None:
    kind = dataclasses.replace(KIND, reference="exact")
    with pytest.raises(OptionError, match="verify checks a method against exact"):
        tasks.verify(kind, "abc", request=tasks.Request("exact"))


def test_verification_in_words() -> None:
    def run(status: Status, method: str, **proof: Any) -> Result[Any]:
        solution = "s" if status.has_solution else None
        return Result(status, solution, Stats(cost=4), method, proof=proof)

    none = tasks.Verification(
        run(Status.UNSOLVABLE, "dfs"), run(Status.UNSOLVABLE, "cpsat"), True, []
    )
    assert none.words() == ["dfs and cpsat each prove that no solution exists."]
    found = run(Status.SOLVED, "probing", unique=True)
    found.heuristic = "h"
    unique = tasks.Verification(found, run(Status.SOLVED, "cpsat", unique=True), True, [])
    assert unique.words()[-1].startswith("cpsat finds the same solution")
    assert "(probing/h, cpsat)" in unique.words()[0] and len(unique.words()) == 2
    bound = tasks.Verification(
        run(Status.OPTIMAL, "astar"), run(Status.SOLVED, "cpsat", lower_bound=4), True, []
    )
    assert "no solution costs less than 4, the cost astar found" in bound.words()[1]
    split = tasks.Verification(found, found, False, ["status differs", "costs differ"])
    assert split.words() == [
        "The answers disagree: status differs.",
        "The answers disagree: costs differ.",
    ]
    open_ = tasks.Verification(found, found, None, ["not settled within the limits: cpsat"])
    assert open_.words() == ["Not settled within the limits: cpsat."]
