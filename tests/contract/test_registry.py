"""The registry's two outward faces: the method table of docs/design.md §3 is what
``cspsolve methods --format markdown`` prints, and kinds are found through the
``cspsolve.kinds`` entry points as well as through ``CSPSOLVE_KINDS``."""

from __future__ import annotations

import importlib.metadata
import re
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from cspsolve import cli, registry

TESTS = Path(__file__).resolve().parent.parent
DESIGN = TESTS.parent / "docs" / "design.md"
KINDS = TESTS / "kinds"
BUILT_IN = {"nonogram", "lightsout", "rushhour", "npuzzle"}


@pytest.fixture
def fresh(monkeypatch: pytest.MonkeyPatch) -> Iterator[pytest.MonkeyPatch]:
    """The registry found anew, with no kinds named in the environment; found anew after."""
    monkeypatch.delenv(registry.EXTRA_KINDS_ENV, raising=False)
    registry.kinds.cache_clear()
    yield monkeypatch
    registry.kinds.cache_clear()


def _printed() -> str:
    result = CliRunner().invoke(cli.cli, ["methods", "--format", "markdown"])
    assert result.exit_code == 0, result.output
    return result.output


def test_design_shows_the_method_table_the_command_prints(fresh: pytest.MonkeyPatch) -> None:
    shown = re.search(
        r"<!-- methods: begin -->\n(.*?)<!-- methods: end -->", DESIGN.read_text(), re.S
    )
    assert shown is not None, "docs/design.md has lost its method table markers"
    assert shown.group(1) == _printed(), (
        "docs/design.md §3 differs from `cspsolve methods --format markdown`: paste its output "
        "between the markers"
    )


def test_the_markdown_table_has_a_row_per_method_of_every_kind(fresh: pytest.MonkeyPatch) -> None:
    rows = [line.split(" | ") for line in _printed().splitlines()[2:]]
    kinds = [row[0].removeprefix("| ") for row in rows]
    declared = registry.kinds().values()
    assert [row[1] for row in rows] == [f"`{m.name}`" for k in declared for m in k.methods]
    assert [k for k in kinds if k] == [k.name for k in declared]
    for row, method in zip(rows, [m for k in declared for m in k.methods], strict=True):
        assert row[2] == method.backend
        assert row[3] == {True: "yes", False: "no", None: "-"}[method.optimal]


def test_the_distribution_declares_the_built_in_kinds_as_entry_points() -> None:
    points = importlib.metadata.entry_points(group=registry.ENTRY_POINT_GROUP)
    assert {point.name for point in points} >= BUILT_IN
    for point in points:
        if point.name in BUILT_IN:
            assert importlib.import_module(point.module).KIND.name == point.name


def test_a_kind_named_by_an_entry_point_is_found(fresh: pytest.MonkeyPatch) -> None:
    point = importlib.metadata.EntryPoint("queens", "queens.kind", registry.ENTRY_POINT_GROUP)
    others = importlib.metadata.entry_points

    def entry_points(**selection: str) -> importlib.metadata.EntryPoints:
        if selection.get("group") == registry.ENTRY_POINT_GROUP:
            return importlib.metadata.EntryPoints([point])
        return others(**selection)

    fresh.setattr(importlib.metadata, "entry_points", entry_points)
    fresh.syspath_prepend(str(KINDS))
    assert "queens" in registry.names() and set(registry.names()) >= BUILT_IN
    queens = sys.modules["queens.kind"]
    assert registry.kind_of(queens.Queens((None,) * 4)) is registry.get("queens")
    assert "`dfs`" in _printed()


def test_a_kind_named_twice_is_found_once(fresh: pytest.MonkeyPatch) -> None:
    fresh.setenv(registry.EXTRA_KINDS_ENV, "cspsolve.models.rushhour.kind, queens.kind")
    fresh.syspath_prepend(str(KINDS))
    modules = registry._modules()
    assert len(modules) == len(set(modules))
    assert "queens" in registry.names()
