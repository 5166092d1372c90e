"""The package's face: the kinds' puzzle classes come from ``cspsolve`` by name, found through
the registry on first use, while the engine's source names no kind and ``import cspsolve``
imports none."""

from __future__ import annotations

import ast
import dataclasses
import subprocess
import sys
from pathlib import Path

import pytest

import cspsolve
from cspsolve import registry

ENGINE = Path(cspsolve.__file__).resolve().parent

OFFERED = {
    "Nonogram": "cspsolve.models.nonogram.board",
    "ColourNonogram": "cspsolve.models.nonogram.colour_board",
    "LightsOut": "cspsolve.models.lightsout.board",
    "RushHour": "cspsolve.models.rushhour.board",
    "NPuzzle": "cspsolve.models.npuzzle.board",
}
"""Each class ``cspsolve`` offers, and the module defining it."""


def test_the_puzzle_classes_are_the_kinds_own() -> None:
    from cspsolve import ColourNonogram, LightsOut, Nonogram, NPuzzle, RushHour

    offered = [Nonogram, ColourNonogram, LightsOut, RushHour, NPuzzle]
    assert [cls.__module__ for cls in offered] == list(OFFERED.values())
    board = RushHour.from_rows(["...", "AA.", "..."])
    assert cspsolve.solve(board).stats.depth == 1 and registry.kind_of(board).name == "rushhour"


def test_all_and_dir_list_the_public_names_and_the_classes() -> None:
    assert set(OFFERED) <= set(cspsolve.__all__)
    assert {"solve", "Result", "Limits"} <= set(cspsolve.__all__)
    assert dir(cspsolve) == sorted([*cspsolve.__all__, "__version__"])
    assert not {"sys", "Path", "importlib", "Any"} & set(dir(cspsolve))
    names: dict[str, object] = {}
    exec("from cspsolve import *", names)
    assert set(names) - {"__builtins__"} == set(cspsolve.__all__)


def test_an_unknown_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="'Queen'"):
        cspsolve.Queen  # noqa: B018
    with pytest.raises(ImportError):
        from cspsolve import Sudoku  # noqa: F401


def test_importing_the_package_or_an_engine_module_imports_no_kind() -> None:
    code = (
        "import sys, cspsolve\n"
        "from cspsolve import tasks, registry\n"
        "kinds = lambda: [m for m in sys.modules if m.startswith('cspsolve.models.')]\n"
        "assert kinds() == [], kinds()\n"
        "cspsolve.RushHour\n"
        "assert 'cspsolve.models.rushhour.kind' in kinds()\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_two_kinds_offering_one_name_are_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    real = registry.kinds()
    clash = dataclasses.replace(real["lightsout"], classes={"Nonogram": object})
    monkeypatch.setattr(registry, "kinds", lambda: {**real, "lightsout": clash})
    with pytest.raises(TypeError, match="'Nonogram' is already taken"):
        cspsolve.Nonogram  # noqa: B018


def engine_modules() -> list[Path]:
    return sorted(ENGINE.rglob("*.py"))


@pytest.mark.parametrize("path", engine_modules(), ids=lambda p: str(p.relative_to(ENGINE)))
def test_the_engine_imports_no_kind(path: Path) -> None:
    """No engine module imports a kind's package (lazy imports included, read from the ast)."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and not node.level:
            names = [node.module or ""]
        else:
            continue
        assert not [n for n in names if n.startswith("cspsolve.models.")], (path, node.lineno)


def words_of_the_code(tree: ast.Module) -> set[str]:
    """The names, attributes and strings of a module's code, its docstrings left out."""
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.FunctionDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
    }
    words = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            if id(node) not in docstrings:
                words.add(node.value)
        elif isinstance(node, ast.Name):
            words.add(node.id)
        elif isinstance(node, ast.Attribute):
            words.add(node.attr)
    return words


def test_the_package_module_names_no_kind_in_its_code() -> None:
    """Outside docstrings, ``cspsolve/__init__.py`` names no kind and no puzzle class: they
    come from the registry."""
    words = words_of_the_code(ast.parse((ENGINE / "__init__.py").read_text(encoding="utf-8")))
    kinds = {name.lower() for name in [*registry.names(), *OFFERED]}
    assert {"kinds", "classes", "__all__"} <= words  # what the code uses is seen
    assert not {kind for kind in kinds for word in words if kind in word.lower()}


def test_the_classes_take_lists_and_keep_tuples() -> None:
    from cspsolve import ColourNonogram, LightsOut, Nonogram, NPuzzle, RushHour
    from cspsolve.models.nonogram import Colour
    from cspsolve.models.rushhour import Piece

    listed = Nonogram(rows=[[2], [1]], columns=[[2], [1]], goal=["##", "#."])
    assert listed == Nonogram(rows=((2,), (1,)), columns=((2,), (1,)))
    assert (listed.rows, listed.goal) == (((2,), (1,)), ("##", "#."))
    colours = [Colour(".", "white", "#ffffff"), Colour("r", "red", "#ff0000")]
    colour = ColourNonogram([[[1, 1]]], [[[1, 1]]], colours)
    assert (colour.rows, colour.colours) == ((((1, 1),),), tuple(colours))
    graph = LightsOut([0b11], 2, graph=[[1], [0]], names=["a", "b"])
    assert (graph.lights, graph.graph, graph.names) == ((3,), ((1,), (0,)), ("a", "b"))
    board = RushHour(3, [Piece("A", 1, 0, 2, True)], [(0, 0)], "A")
    assert (board.pieces, board.walls) == ((Piece("A", 1, 0, 2, True),), frozenset({(0, 0)}))
    tiles = NPuzzle(1, 3, [1, 0, 2], [1, 2, 0])
    assert (tiles.start, tiles.goal) == ((1, 0, 2), (1, 2, 0))
    assert len({listed, graph, board, tiles, colour}) == 5  # hashable: tuples inside
