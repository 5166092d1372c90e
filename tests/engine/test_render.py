"""Pictures (:mod:`cspsolve.render`): scenes to PNG, SVG and GIF, graphs and plots.

Images are opened with pillow (PNG, GIF: each frame as a viewer composes it) or parsed as XML
(SVG); sizes are checked against the layout, and pixels at cell centres against the scene's
colours. The GIF's memory is measured in a process of its own.
"""

from __future__ import annotations

import subprocess
import sys
import xml.etree.ElementTree as ET
from dataclasses import replace
from pathlib import Path

import networkx as nx
import pytest
from PIL import Image, ImageChops

from cspsolve.errors import OptionError
from cspsolve.render import (
    ANNOUNCED_FRAMES,
    DPI,
    Scene,
    draw_graph,
    gif_seconds,
    layout,
    plot_comparison,
    swatch_boxes,
    write_image,
)

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


def frames_of(path: Path) -> list[tuple[Image.Image, int]]:
    """Each frame of a GIF as a viewer shows it (RGB, the frames before composed under it) and
    its duration in milliseconds."""
    out = []
    with Image.open(path) as gif:
        for number in range(gif.n_frames):
            gif.seek(number)
            out.append((gif.convert("RGB"), int(gif.info["duration"])))
    return out


def lit(cols: int, on: set[int], caption: str = "") -> Scene:
    """One row of cells, gold where ``on`` says, else grey."""
    return Scene((tuple("gold" if c in on else "dimgray" for c in range(cols)),), caption=caption)


def test_gif_frames_show_each_scene_in_turn_the_last_held_longer(tmp_path: Path) -> None:
    scenes = [lit(5, set(range(k)), f"{k} lit") for k in range(6)]
    write_image(scenes, tmp_path / "lit.gif")
    frames = frames_of(tmp_path / "lit.gif")
    assert [ms for _, ms in frames] == [600] * 5 + [2000]
    gold, grey = (255, 215, 0), (105, 105, 105)
    for k, (frame, _) in enumerate(frames):
        shown = [frame.getpixel(centre(scenes[k], 0, c)) for c in range(5)]
        assert [near(p, gold, 8) for p in shown] == [c < k for c in range(5)]
        assert all(near(p, gold, 8) or near(p, grey, 8) for p in shown)


def test_a_gif_frame_equal_to_the_one_before_lengthens_it(tmp_path: Path) -> None:
    same = lit(3, {1})
    write_image([same, same, lit(3, {2}), lit(3, {2})], tmp_path / "same.gif")
    assert [ms for _, ms in frames_of(tmp_path / "same.gif")] == [1200, 2600]


def test_a_gif_frame_is_stored_only_where_it_differs(tmp_path: Path) -> None:
    scenes = [lit(20, set()), lit(20, {19})]
    write_image(scenes, tmp_path / "corner.gif")
    with Image.open(tmp_path / "corner.gif") as gif:
        gif.seek(1)
        x0, y0, x1, y1 = gif.dispose_extent
    x, y = centre(scenes[1], 0, 19)
    assert x0 <= x < x1 and y0 <= y < y1
    assert x1 - x0 <= layout(scenes).cell and y1 - y0 <= layout(scenes).cell  # that cell only


def test_a_long_gif_is_announced_with_an_estimate_before_it_is_drawn(tmp_path: Path) -> None:
    said: list[str] = []
    many = [lit(4, {k % 4}, f"frame {k}") for k in range(ANNOUNCED_FRAMES + 1)]
    at = write_image(many, tmp_path / "many.gif", announce=said.append)
    seconds = max(1, round(gif_seconds(len(many), at)))
    assert said == [
        f"drawing {len(many)} frames of {at.width} x {at.height} pixels into many.gif: "
        f"about {seconds} s"
    ]
    write_image(many[:-1], tmp_path / "fewer.gif", announce=said.append)
    write_image(many[:1], tmp_path / "one.png", announce=said.append)
    assert len(said) == 1


MEMORY = """
import resource, sys
from cspsolve.render import Scene, write_image
count = int(sys.argv[1])
scenes = [
    Scene(tuple(tuple("black" if (r * c + k) % 3 else "white" for c in range(30))
                for r in range(30)), caption=f"frame {k}")
    for k in range(count)
]
write_image(scenes, sys.argv[2])
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""


@pytest.mark.slow
def test_a_gif_is_written_frame_by_frame_in_memory_that_does_not_grow(tmp_path: Path) -> None:
    def peak_kb(frames: int) -> int:
        done = subprocess.run(
            [sys.executable, "-c", MEMORY, str(frames), str(tmp_path / f"{frames}.gif")],
            capture_output=True, text=True, check=True,
        )  # fmt: skip
        return int(done.stdout)

    few, many = peak_kb(10), peak_kb(130)
    # 120 more frames of about a megapixel: 360 MB more if they were all held as RGB
    assert many - few < 60_000
    with Image.open(tmp_path / "130.gif") as gif:
        assert gif.n_frames == 130


def step_scene() -> Scene:
    """A 3 x 3 white board with everything a step may add: a changed cell, a chain's row, a
    conflict column, a supposed value and a cell's colours left."""
    return Scene(
        (("white",) * 3,) * 3,
        highlight=frozenset({(1, 0)}),
        lines=(("row", 0, "chain"), ("column", 2, "conflict")),
        dots=((2, 0, "black"),),
        swatches=((2, 1, ("#d62728", "#1f77b4")),),
        caption="a step",
    )


def test_a_picture_shows_what_a_step_adds(tmp_path: Path) -> None:
    scene = step_scene()
    at = write_image([scene], tmp_path / "step.png")
    with Image.open(tmp_path / "step.png") as image:
        pixels = image.convert("RGB")
    x, y = centre(scene, 1, 0)
    assert near(pixels.getpixel((x + at.cell // 2, y)), (255, 127, 14), 30)  # the outline
    assert near(pixels.getpixel((x, y)), WHITE, 5)  # inside it
    tinted = pixels.getpixel(centre(scene, 0, 0))
    assert near(tinted, (205, 224, 239), 12)  # the chain's row: white under blue
    x, y = centre(scene, 1, 2)
    assert near(pixels.getpixel((x - at.cell // 2, y)), RED, 40)  # the conflict's border
    assert near(pixels.getpixel(centre(scene, 2, 0)), BLACK, 30)  # the dot
    left, right = swatch_boxes(2)
    x0, y0 = at.left + 1 * at.cell, at.top + 2 * at.cell
    for (top, side_left, side), colour in zip((left, right), (RED, (31, 119, 180)), strict=True):
        middle = (int(x0 + (side_left + side / 2) * at.cell), int(y0 + (top + side / 2) * at.cell))
        assert near(pixels.getpixel(middle), colour, 30)


def test_a_gif_frame_is_drawn_as_the_still_picture(tmp_path: Path) -> None:
    scene = step_scene()
    write_image([scene], tmp_path / "still.png")
    write_image([scene, replace(scene, caption="b step")], tmp_path / "moving.gif")
    with Image.open(tmp_path / "still.png") as still:
        png = still.convert("RGB")
    ((gif, _), _) = frames_of(tmp_path / "moving.gif")
    difference = ImageChops.difference(png, gif).convert("L")
    histogram = difference.histogram()
    assert sum(histogram[40:]) < 0.002 * png.width * png.height  # a few pixels of text


def test_a_graph_is_its_nodes_joined_by_edges_without_a_frame(tmp_path: Path) -> None:
    nodes = (("gold", None, "dimgray"),) + ((None,) * 3,) * 2
    scene = Scene(
        nodes, texts=(("a", "", "b"), ("",) * 3, ("",) * 3), edges=((0, 0, 0, 2),), framed=False
    )
    at = write_image([scene], tmp_path / "graph.png")
    with Image.open(tmp_path / "graph.png") as image:
        pixels = image.convert("RGB")
    assert not near(pixels.getpixel(centre(scene, 0, 1)), WHITE, 30)  # the edge between them
    assert near(pixels.getpixel(centre(scene, 2, 1)), WHITE, 5)  # no cell, no line
    corner = (at.left + 3 * at.cell - 1, at.top + 3 * at.cell - 1)
    assert near(pixels.getpixel(corner), WHITE, 5)  # no frame
