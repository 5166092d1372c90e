"""Dependencies point one way: no import cycle among the engine's modules and the model
packages (every import in the source, lazy ones included, read from the ast), and the engine
names no kind, by an import or a string."""

from __future__ import annotations

import ast
from collections.abc import Collection, Iterator
from pathlib import Path

import networkx as nx

from cspsolve import registry

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = {"cspsolve": ROOT / "cspsolve", "cspsolve.models": ROOT / "models"}


def modules() -> dict[str, Path]:
    """Dotted module name (a package by its own name, for its ``__init__``) -> file."""
    found = {}
    for package, folder in PACKAGES.items():
        for path in folder.rglob("*.py"):
            parts = path.relative_to(folder).with_suffix("").parts
            found[".".join((package, *parts)).removesuffix(".__init__")] = path
    return found


def imported(name: str, path: Path) -> Iterator[str]:
    """Every module ``path`` names: ``from . import x`` imports the package and ``.x``."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                source = ".".join([*base, node.module] if node.module else base)
            else:
                source = node.module or ""
            yield source
            yield from (f"{source}.{alias.name}" for alias in node.names)


def test_no_import_cycles() -> None:
    files = modules()
    graph = nx.DiGraph()
    graph.add_nodes_from(files)
    for name, path in files.items():
        graph.add_edges_from((name, t) for t in imported(name, path) if t in files and t != name)
    assert list(nx.simple_cycles(graph)) == []


def docstrings(tree: ast.Module) -> set[int]:
    """The ``id`` of every docstring node of ``tree`` (module, class and function)."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            first = node.body[0] if node.body else None
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                found.add(id(first.value))
    return found


def named_kinds(source: str, kinds: Collection[str]) -> Iterator[tuple[int, str]]:
    """Where ``source`` names a kind (line, what): an import of a ``cspsolve.models`` module,
    or a string (not a docstring) equal to a kind's name or holding ``models.`` (and so
    ``cspsolve.models.``)."""
    tree = ast.parse(source)
    skipped = docstrings(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.Import | ast.ImportFrom):
            module = f"{node.module}." if isinstance(node, ast.ImportFrom) else ""
            for alias in node.names:
                if (module + alias.name).startswith(("cspsolve.models.", "models.")):
                    yield node.lineno, f"import {module}{alias.name}"
        elif isinstance(node, ast.Constant) and id(node) not in skipped:
            text = node.value
            if isinstance(text, str) and (text in kinds or "models." in text):
                yield node.lineno, f"the string {text!r}"


def test_the_engine_names_no_kind() -> None:
    kinds = set(registry.names())
    assert {"nonogram", "lightsout", "rushhour", "npuzzle"} <= kinds
    found = [
        f"{path.relative_to(ROOT)}:{line}: {what}"
        for path in sorted((ROOT / "cspsolve").rglob("*.py"))
        for line, what in named_kinds(path.read_text(), kinds)
    ]
    assert found == []


def test_a_kind_named_is_found() -> None:
    source = '''"""Loads the nonogram kind (a docstring may say so)."""
import importlib
from cspsolve.models.nonogram import board
KIND = "lightsout"
BOARD = importlib.import_module(f"cspsolve.models.{KIND}.board")
def play():
    """Plays Lights Out (cspsolve.models.lightsout.play)."""
'''
    assert sorted(named_kinds(source, {"nonogram", "lightsout"})) == [
        (3, "import cspsolve.models.nonogram.board"),
        (4, "the string 'lightsout'"),
        (5, "the string 'cspsolve.models.'"),
    ]
