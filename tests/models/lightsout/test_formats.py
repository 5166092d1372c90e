"""Reading and writing boards; bad input names the line."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings

from cspsolve.errors import InputError, OptionError
from cspsolve.models.lightsout import formats
from cspsolve.models.lightsout.board import GENERAL_CELLS, MAX_CELLS, MAX_SIDE, LightsOut

from ...conftest import run
from ...test_cli import assert_bad_input
from .strategies import boards


def one(text: str, fmt: str | None = None) -> LightsOut:
    return formats.parse(text, "t", fmt=fmt)[0].puzzle


def test_row_styles_read_alike() -> None:
    expected = LightsOut((0b010, 0b101), 3)
    for text in ("0|1|0\n1|0|1\n", "010\n101\n", ".#.\n#.#\n", "0 1 0\n1 0 1\n", "\n010\r\n\n101"):
        assert one(text) == expected


def test_headers_holes_and_json() -> None:
    board = one("variant: sigma\ntorus: yes\ntitle: t\n0x1\n100\n")
    assert board == LightsOut((0b100, 0b001), 3, "sigma", True, (0b010, 0))
    assert one('{"board": "0x1/100", "variant": "sigma", "torus": true}') == board
    assert one('{"rows": ["0|x|1", "1|0|0"], "variant": "sigma_plus"}').variant == "sigma-plus"


def test_graph_formats() -> None:
    text = "# a path\nvariant: sigma\nlit: b\na b  # edge\nb c\nd\n"
    board = one(text, "edges")
    assert board.cols == 4 and board.names == ("a", "b", "c", "d") and board.lights == (0b10,)
    assert board.graph == ((1,), (0, 2), (1,), ())
    as_json = one(
        '{"nodes": ["a", "b", "c", "d"], "edges": [["a", "b"], ["b", "c"]], '
        '"lit": ["b"], "variant": "sigma"}'
    )
    assert as_json == board


@pytest.mark.parametrize(
    ("text", "fmt", "line", "words"),
    [
        ("010\n01\n", None, 2, "ragged row"),
        ("010\n0a0\n", None, 2, "unexpected 'a'"),
        ("\n\n", None, 2, "empty"),
        ("variant: sigma-minus\n01\n", None, 1, "unknown variant"),
        ("colour: red\n01\n", None, 1, "unknown header"),
        ("torus: maybe\n01\n", None, 1, "yes or no"),
        ('{"rows": ["01",\n "0"], "variant": "sigma"}', None, 1, "ragged row"),
        ('{"rows": [1, 2]}', None, 1, "expected"),
        ('{"rows": ["01"],\n"variant": "x"}', None, 2, "unknown variant"),
        ('{\n"rows": [', None, 2, "not valid JSON"),
        ("a a\n", "edges", 1, "loop"),
        ("lit: z\na b\n", "edges", 1, "not in the graph"),
        ("a b c d\n", "edges", 1, "fields"),
        ("a b\n0 1 2\n", "edges", 2, "found 3 fields"),
        ("variant: sigma\nvariant: sigma-plus\n01\n", None, 2, "duplicate header 'variant'"),
        ("torus: no\ntitle: t\nTorus: yes\n01\n", None, 3, "duplicate header 'torus'"),
        ("title: a\ntitle: b\n01\n", None, 2, "duplicate header 'title'"),
        ("variant: sigma\na b\nvariant: sigma\n", "edges", 3, "duplicate header 'variant'"),
        ("lit: a\na b\nlit: b\n", "edges", 3, "duplicate header 'lit'"),
        ("nodes: a b\nnodes: c\na b\n", "edges", 2, "duplicate header 'nodes'"),
        ('{"nodes": [0, 1],\n "edges": [[0, 5]], "lit": [0]}', None, 2, "'5' is not in"),
    ],
)
def test_bad_input_names_the_line(text: str, fmt: str | None, line: int, words: str) -> None:
    with pytest.raises(InputError) as caught:
        formats.parse(text, "f.lo", fmt=fmt)
    assert caught.value.line == line and words in caught.value.message


def over_the_caps() -> list[tuple[str, str | None, int, str]]:
    """Boards just over each size cap of the reader, with the line that must be named."""
    side, cells, general = MAX_SIDE, MAX_CELLS, GENERAL_CELLS
    wide = cells // side
    nodes = "".join(f"n{i} n{i + 1}\n" for i in range(general))
    return [
        ("1" * (side + 1) + "\n", None, 1, "too long"),
        ("variant: sigma\n" + "0 1 " * (side // 2) + "1\n", None, 2, "too long"),
        ("1\n" * (side + 1), None, side + 1, "rows"),
        (("1" * side + "\n") * wide + "1" * side + "\n", None, wide + 1, "too large"),
        ('{"board": "' + "/".join(["1" * side] * (wide + 1)) + '"}', None, 1, "too large"),
        ("torus: yes\n" + ("1" * 128 + "\n") * (general // 128 + 1), None, 2, "torus"),
        ("x" + "1" * (general // 2) + "\n" + "1" * (general // 2 + 1) + "\n", None, 1, "holes"),
        (nodes, "edges", general, "nodes"),
    ]


@pytest.mark.parametrize(("text", "fmt", "line", "words"), over_the_caps())
def test_boards_over_the_size_caps_are_refused(
    text: str, fmt: str | None, line: int, words: str
) -> None:
    with pytest.raises(InputError) as caught:
        formats.parse(text, "f.lo", fmt=fmt)
    assert caught.value.line == line and words in caught.value.message


def test_boards_at_the_size_caps_are_read() -> None:
    side, general = MAX_SIDE, GENERAL_CELLS
    assert one("1" * side + "\n").cols == side
    assert one("1\n" * side).rows == side
    assert one("torus: yes\n" + ("1" * 128 + "\n") * (general // 128)).cells == general
    nodes = "".join(f"n{i} n{i + 1}\n" for i in range(general - 1))
    assert one(nodes, "edges").cols == general


def test_sniff_claims_only_clear_content() -> None:
    assert formats.sniff("a.lo", "anything") == "grid"
    assert formats.sniff("a.edges", "") == "edges"
    assert formats.sniff("a.txt", "variant: sigma\n0|1\n1|0\n") == "grid"
    assert formats.sniff("a.json", '{"rows": ["01"], "variant": "sigma"}') == "json"
    assert formats.sniff("a.txt", "01\n10\n") is None
    assert formats.sniff("a.json", '{"n": 3, "start": [[1]]}') is None


@settings(max_examples=50, deadline=None)
@given(boards)
def test_write_then_read_gives_the_board_back(
    tmp_path_factory: pytest.TempPathFactory, board: LightsOut
) -> None:
    folder = tmp_path_factory.mktemp("rt")
    suffixes = [".json"] + ([".lo"] if board.is_grid else [".edges"])
    for suffix in suffixes:
        path = Path(folder) / f"b{suffix}"
        formats.write(board, path, title="title")
        again = formats.read(path)[0].puzzle
        assert again == board


def test_write_refuses_unknown_extensions(tmp_path: Path) -> None:
    with pytest.raises(OptionError, match="cannot tell"):
        formats.write(LightsOut((1,), 1), tmp_path / "b.png")


@pytest.mark.parametrize(
    ("name", "text", "pattern"),
    [
        ("three.edges", "a b\n0 1 2\n", r"cspsolve: .*three\.edges:2: .*found 3 fields"),
        (
            "stray.json",
            '{"nodes": [0, 1], "edges": [[0, 5]], "lit": [0]}',
            r"cspsolve: .*stray\.json:1: edge \[0, 5\]: node '5' is not in \"nodes\"",
        ),
        (
            "twice.lo",
            "variant: sigma\nvariant: sigma-plus\n010\n",
            r"cspsolve: .*twice\.lo:2: duplicate header 'variant' \(first on line 1\)",
        ),
        (
            "twice.edges",
            "variant: sigma\na b\nvariant: sigma-plus\n",
            r"cspsolve: .*twice\.edges:3: duplicate header 'variant' \(first on line 1\)",
        ),
    ],
)
def test_cli_refuses_bad_boards_naming_the_line(
    tmp_path: Path, name: str, text: str, pattern: str
) -> None:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    assert_bad_input(run("solve", path, "--kind", "lightsout"), pattern)
