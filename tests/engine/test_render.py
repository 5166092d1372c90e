"""Pictures (:mod:`cspsolve.render`): scenes to PNG, SVG and GIF, graphs and plots.

Images are opened with pillow (PNG, GIF) or parsed as XML (SVG); sizes are checked against the
layout, and pixels at cell centres against the scene's colours.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import networkx as nx
import pytest
from PIL import Image

from cspsolve.errors import OptionError
from cspsolve.render import DPI, Scene, draw_graph, layout, plot_comparison, write_image

BLACK, WHITE, RED = (0, 0, 0), (255, 255, 255), (214, 39, 40)


def board(cols: int = 4, caption: str = "") -> Scene:
    """Two rows: black and white cells alternating, a gap, a red cell, labels and a mark."""
    top = tuple("black" if c % 2 == 0 else "white" for c in range(cols))
    bottom = (None, "#d62728", *("white",) * (cols - 2))
    return Scene(
        (top, bottom),
        texts=(("",) * cols, ("", "A", *("",) * (cols - 2))),
        marks=frozenset({(1, cols - 1)}),
        row_labels=("1 1", "2"),
        column_labels=tuple("1\n1" if c % 2 == 0 else "" for c in range(cols)),
        walls=frozenset({(0, cols - 1, "E")}),
        caption=caption,
    )


def centre(scene: Scene, row: int, col: int) -> tuple[int, int]:
    at = layout([scene])
    return (int(at.left + (col + 0.5) * at.cell), int(at.top + (row + 0.5) * at.cell))


def near(pixel: tuple[int, ...], colour: tuple[int, int, int], slack: int = 40) -> bool:
    return all(abs(a - b) <= slack for a, b in zip(pixel, colour, strict=False))


def test_png_has_the_layout_size_and_the_scene_colours(tmp_path: Path) -> None:
    scene = board()
    at = write_image([scene], tmp_path / "b.png")
    with Image.open(tmp_path / "b.png") as image:
        assert image.format == "PNG"
        assert image.size == (at.width, at.height)
        pixels = image.convert("RGB")
        assert near(pixels.getpixel(centre(scene, 0, 0)), BLACK)
        assert near(pixels.getpixel(centre(scene, 0, 1)), WHITE)
        assert near(pixels.getpixel(centre(scene, 1, 0)), WHITE)  # a gap shows the background
        x, y = centre(scene, 1, 1)
        assert near(pixels.getpixel((x - at.cell // 3, y)), RED)  # beside the letter
        x, y = centre(scene, 1, 3)
        ring = [pixels.getpixel((x + dx, y)) for dx in range(at.cell // 2)]
        assert any(near(p, RED, 60) for p in ring)  # the mark's ring
        assert near(pixels.getpixel((x, y)), WHITE)  # a ring, not a disc


def test_layout_grows_by_one_cell_per_column_and_leaves_room_for_labels() -> None:
    narrow, wide = layout([board(4)]), layout([board(5)])
    assert wide.width - narrow.width == narrow.cell
    assert wide.height == narrow.height
    plain = layout([Scene((("black",),))])
    assert narrow.left > plain.left and narrow.top > plain.top
    assert layout([board(4, caption="a long caption " * 8)]).width > narrow.width


def test_big_boards_get_smaller_cells() -> None:
    small = layout([Scene((("white",) * 10,) * 10)])
    big = layout([Scene((("white",) * 200,) * 200)])
    assert big.cell < small.cell
    assert big.cols * big.cell <= 1000


def test_svg_is_xml_of_the_layout_size(tmp_path: Path) -> None:
    at = write_image([board()], tmp_path / "b.svg")
    root = ET.parse(tmp_path / "b.svg").getroot()
    assert root.tag.endswith("svg")
    points = 72 / DPI
    assert float(root.attrib["width"].removesuffix("pt")) == pytest.approx(at.width * points)
    assert float(root.attrib["height"].removesuffix("pt")) == pytest.approx(at.height * points)


def test_gif_has_one_frame_per_scene_all_of_one_size(tmp_path: Path) -> None:
    scenes = [board(4, caption=f"move {i} of 3") for i in range(3)]
    scenes[2] = Scene((("white",) * 6,) * 2, caption="bigger board")
    at = write_image(scenes, tmp_path / "b.gif")
    with Image.open(tmp_path / "b.gif") as image:
        assert image.format == "GIF"
        assert image.n_frames == 3
        assert image.size == (at.width, at.height) == (layout(scenes).width, layout(scenes).height)
        assert image.info.get("loop") == 0


def test_one_scene_gives_a_one_frame_gif(tmp_path: Path) -> None:
    write_image([board()], tmp_path / "one.gif")
    with Image.open(tmp_path / "one.gif") as image:
        assert image.n_frames == 1


@pytest.mark.parametrize(
    ("scenes", "name", "message"),
    [
        ([board()], "b.jpg", "unknown image format"),
        ([], "b.png", "no scene"),
        ([Scene(())], "b.png", "empty board"),
        ([Scene((("black",), ("black", "white")))], "b.png", "differ in length"),
    ],
)
def test_what_cannot_be_drawn_is_an_option_error(
    tmp_path: Path, scenes: list[Scene], name: str, message: str
) -> None:
    with pytest.raises(OptionError, match=message):
        write_image(scenes, tmp_path / name)
    assert not (tmp_path / name).exists()


def test_graph_and_plot_are_valid_images(tmp_path: Path) -> None:
    graph = nx.Graph([(("row", 0), ("col", 1)), (("row", 0), ("col", 0))])
    draw_graph(graph, tmp_path / "g.png", title="three variables")
    draw_graph(nx.path_graph(100), tmp_path / "g.svg")
    with Image.open(tmp_path / "g.png") as image:
        assert image.format == "PNG" and image.size == (8 * DPI, 8 * DPI)
    assert ET.parse(tmp_path / "g.svg").getroot().tag.endswith("svg")
    with pytest.raises(OptionError, match="unknown image format"):
        draw_graph(graph, tmp_path / "g.gif")
    runs = [("a.non", "astar/manhattan", 1200, 0.5), ("a.non", "bfs", 0, 0.0)]
    runs += [("b.non", "astar/manhattan", 10, 0.01)]
    plot_comparison(runs, tmp_path / "p.png")
    with Image.open(tmp_path / "p.png") as image:
        assert image.format == "PNG" and image.size[0] >= 600
