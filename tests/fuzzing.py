"""The differential protocol, and the settings the differential tests share.

Each kind has a ``tests/models/<kind>/differential.py`` that satisfies :class:`Differential`:
random instances and an independent oracle for every method (``cases()`` and ``check(case)``,
run by its ``test_differential.py`` and by ``python benchmarks/fuzz.py``), an independent
replay of a solution's JSON form (``replay_json``), and the small instances of the contract
suite (``contract()``, see ``tests/contract/``). :func:`differential_of` finds a kind's module.

The suite runs a fixed, derandomized set of cases per kind (as every property test of the suite,
``tests/conftest.py``). For a long run set the environment variable ``CSPSOLVE_FUZZ=N`` (or pass
``pytest --fuzz N``): every differential test then draws ``N`` random cases, the other property
tests fresh examples, and ``python benchmarks/fuzz.py`` prints the table of cases and
disagreements per kind and method.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from hypothesis import HealthCheck, settings
from hypothesis.strategies import SearchStrategy

FUZZ_ENV = "CSPSOLVE_FUZZ"


@dataclass(frozen=True)
class Sample:
    """A small puzzle of the contract suite and what an oracle of the tests knows of it."""

    puzzle: Any
    solvable: bool
    optimum: float | None = None
    """The least cost of a solution, where the kind has costs (``None`` otherwise)."""


@dataclass(frozen=True)
class Contract:
    """The instances the contract suite runs every method of a kind on.

    ``small`` puzzles are settled by every method that takes them within a second or so, some
    of them unsolvable; ``hard`` is a solvable puzzle few methods settle within the suite's
    time limit, so that its limits stop the runs.
    """

    small: Sequence[Sample]
    hard: Any


@runtime_checkable
class Differential(Protocol):
    """What a kind's ``differential`` module offers (the module itself is the instance)."""

    @property
    def METHODS(self) -> Sequence[str]:  # noqa: N802 (a module constant)
        """The runs ``check`` reports on: methods, or ``method/heuristic`` and the like."""
        ...

    def cases(self) -> SearchStrategy[Any]:
        """Random instances."""
        ...

    def check(self, case: Any) -> dict[str, str | None]:
        """Each run on ``case`` mapped to ``None`` when it agrees with the oracle, else a
        one-line account of the disagreement."""
        ...

    def replay_json(self, puzzle: Any, solution: Any) -> str | None:
        """``None`` when ``solution``, a solution's JSON form as read back from JSON text,
        solves ``puzzle`` by the rules written in the tests; else what is wrong."""
        ...

    def contract(self) -> Contract:
        """The instances of the contract suite."""
        ...


def differential_of(kind: str) -> Differential:
    """The ``differential`` module of the kind called ``kind`` (``tests/models/<kind>/``).

    Raises
    ------
    ModuleNotFoundError
        When the kind has none.
    TypeError
        When it does not offer all of :class:`Differential`.
    """
    module = importlib.import_module(f"{__package__}.models.{kind}.differential")
    if not isinstance(module, Differential):
        raise TypeError(f"{module.__name__} does not offer all of the differential protocol")
    return module


def examples(ci: int) -> int:
    """How many cases a differential test draws: ``ci`` in the suite, ``CSPSOLVE_FUZZ`` if set."""
    value = os.environ.get(FUZZ_ENV)
    return int(value) if value else ci


def differential(ci: int) -> settings:
    """Hypothesis settings of a differential test that draws ``ci`` cases in the suite."""
    fuzzing = bool(os.environ.get(FUZZ_ENV))
    return settings(
        max_examples=examples(ci),
        derandomize=not fuzzing,
        database=None,
        deadline=None,
        suppress_health_check=list(HealthCheck),
    )


def assert_agree(verdicts: Mapping[str, str | None]) -> None:
    """Fail with every disagreement of ``check(case)``."""
    wrong = {method: why for method, why in verdicts.items() if why is not None}
    assert not wrong, "; ".join(f"{method}: {why}" for method, why in wrong.items())
