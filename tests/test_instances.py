"""Every example puzzle shipped with the package reads, solves, and agrees with CP-SAT."""

from __future__ import annotations

from pathlib import Path

import pytest

from cspsolve.instances import ROOT
from cspsolve.models import nonogram

SHIPPED = sorted(p for p in (ROOT / "nonogram").iterdir() if p.suffix in (".non", ".nin", ".txt"))


def test_examples_are_shipped_with_their_attribution() -> None:
    assert len(SHIPPED) >= 4
    attribution = (ROOT / "nonogram" / "ATTRIBUTION.md").read_text(encoding="utf-8")
    for path in SHIPPED:
        assert f"`{path.name}`" in attribution, path.name


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.name)
def test_example_solves_and_verifies(path: Path) -> None:
    for entry in nonogram.read(path):
        report = nonogram.verify(entry.puzzle)
        assert report.agree is True, report.problems
        assert nonogram.check(entry.puzzle, report.search.solution) == []
