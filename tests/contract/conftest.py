"""The contract suite's pattern databases and other caches go to a folder of its own."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest


@pytest.fixture(scope="session", autouse=True)
def cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """Point ``CSPSOLVE_CACHE`` at an empty folder for the session (built anew each run, as on
    CI, so that the limits hold from a cold cache)."""
    folder = tmp_path_factory.mktemp("cache")
    patch = pytest.MonkeyPatch()
    patch.setenv("CSPSOLVE_CACHE", str(folder))
    yield folder
    patch.undo()
