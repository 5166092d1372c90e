"""The examples in docstrings run and give what they show."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import cspsolve
import cspsolve.models


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
