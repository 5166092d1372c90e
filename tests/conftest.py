"""Options of the whole suite."""

from __future__ import annotations

import os

import pytest

from .fuzzing import FUZZ_ENV


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--fuzz",
        type=int,
        default=None,
        metavar="N",
        help=f"draw N random cases in every differential test (as {FUZZ_ENV}=N)",
    )


def pytest_configure(config: pytest.Config) -> None:
    fuzz = config.getoption("--fuzz")
    if fuzz is not None:
        os.environ[FUZZ_ENV] = str(fuzz)
