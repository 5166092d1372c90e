"""Settings shared by the differential tests (``tests/models/<kind>/test_differential.py``).

Each kind's ``differential.py`` offers ``METHODS`` (the methods it checks), ``cases()`` (a
hypothesis strategy of random instances) and ``check(case)`` (each method mapped to ``None``
when it agrees with the independent oracle, else a one-line account of the disagreement).

The suite runs a fixed, derandomized set of cases per kind (as every property test of the suite,
``tests/conftest.py``). For a long run set the environment variable ``CSPSOLVE_FUZZ=N`` (or pass
``pytest --fuzz N``): every differential test then draws ``N`` random cases, the other property
tests fresh examples, and ``python benchmarks/fuzz.py`` prints the table of cases and
disagreements per kind and method.
"""

from __future__ import annotations

import os
from collections.abc import Mapping

from hypothesis import HealthCheck, settings

FUZZ_ENV = "CSPSOLVE_FUZZ"


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
