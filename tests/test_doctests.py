"""The examples in docstrings run and give what they show."""

from __future__ import annotations

import doctest
import importlib
import pkgutil
from pathlib import Path

import pytest

import cspsolve
import cspsolve.models

ROOT = Path(__file__).resolve().parent.parent


def modules() -> list[str]:
    """Every module of the engine and of the models (which install under cspsolve.models)."""
    found = set()
    for package in (cspsolve, cspsolve.models):
        prefix = package.__name__ + "."
        found |= {m.name for m in pkgutil.walk_packages(package.__path__, prefix) if not m.ispkg}
    return sorted(found)


def test_every_package_module_is_found() -> None:
    names = modules()
    assert "cspsolve.models.nonogram.io.formats" in names
    assert "cspsolve.csp.gac" in names


@pytest.mark.parametrize("name", modules())
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    failures, _ = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert failures == 0


DOCS = sorted(
    p.relative_to(ROOT).as_posix() for p in [ROOT / "README.md", *(ROOT / "docs").glob("*.md")]
)


def test_the_docs_with_examples_are_found() -> None:
    assert "docs/guide.md" in DOCS


@pytest.mark.parametrize("name", DOCS)
def test_examples_in_the_docs(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The ``>>>`` examples of the README and docs/ run from the repository root."""
    monkeypatch.chdir(ROOT)
    flags = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
    failures, _ = doctest.testfile(str(ROOT / name), module_relative=False, optionflags=flags)
    assert failures == 0
