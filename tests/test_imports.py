"""Dependencies point one way: no import cycle among the engine's modules and the model
packages (every import in the source, lazy ones included, read from the ast)."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import networkx as nx

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
