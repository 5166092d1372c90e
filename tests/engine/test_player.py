"""The explanation player (:mod:`cspsolve.player`): its page and Jupyter widget.

The output is parsed with :mod:`html.parser`; the embedded frames are decoded by a decoder
written here from the documented form (palette, text table, changed cells) and compared with
the scenes given, colours by their RGBA values. Hostile texts must stay text, ids must not
clash between widgets, and nothing may be fetched. A slow test plays a real page in headless
Chromium (skipped when Chromium, chromedriver or selenium is missing).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from matplotlib.colors import to_rgba

from cspsolve.errors import OptionError
from cspsolve.explanation import Explanation, Step
from cspsolve.instances import ROOT
from cspsolve.player import frame_data, page, widget
from cspsolve.render import Scene, edge_ends, outline, swatch_boxes
from cspsolve.results import Result, Stats, Status

from ..browsing import browser

HOSTILE = [
    "</script><script>alert(1)</script>",
    "<b>bold</b>",
    "a & b &amp; <!-- c -->",
    "line\u2028para\u2029end",
    "\"quoted\" 'single' `tick`",
    "</SCRIPT >",
]


# --- reading the output back -----------------------------------------------------------------


@dataclass
class Parsed:
    """What the HTML parser saw: tags, ids, scripts (attributes and text) and visible text."""

    tags: list[str] = field(default_factory=list)
    ids: list[str] = field(default_factory=list)
    attributes: list[tuple[str, str | None]] = field(default_factory=list)
    scripts: list[tuple[dict[str, str | None], str]] = field(default_factory=list)
    texts: dict[str, list[str]] = field(default_factory=dict)

    def data(self) -> list[dict[str, Any]]:
        """The JSON frame data of every player, in order."""
        return [json.loads(text) for attrs, text in self.scripts if attrs.get("type")]


class _Reader(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.out = Parsed()
        self.open: list[tuple[str, dict[str, str | None]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.out.tags.append(tag)
        self.out.attributes += attrs
        named = dict(attrs)
        if named.get("id"):
            self.out.ids.append(str(named["id"]))
        if tag not in ("meta",):
            self.open.append((tag, named))
        if tag == "script":
            self.out.scripts.append((named, ""))

    def handle_endtag(self, tag: str) -> None:
        while self.open and self.open.pop()[0] != tag:
            pass

    def handle_data(self, data: str) -> None:
        if self.open and self.open[-1][0] == "script":
            attrs, text = self.out.scripts[-1]
            self.out.scripts[-1] = (attrs, text + data)
        elif self.open:
            tag, attrs = self.open[-1]
            key = str(attrs.get("class") or tag)
            self.out.texts.setdefault(key, []).append(data)


def parse(markup: str) -> Parsed:
    reader = _Reader()
    reader.feed(markup)
    reader.close()
    return reader.out


EXTRAS = {
    "marks": [],
    "walls": [],
    "row_labels": [],
    "column_labels": [],
    "outline": [],
    "lines": [],
    "dots": [],
    "swatches": [],
    "edges": [],
    "framed": True,
}
"""Each part of a frame besides its cells, as before the first frame."""


def drawn(data: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """Each frame's parts besides its cells, as the script holds them (the last value given)."""
    extras = dict(EXTRAS)
    for frame in data["frames"]:
        extras = {key: frame.get(key, value) for key, value in extras.items()}
        yield extras


def decode(data: dict[str, Any]) -> Iterator[tuple[str, Scene]]:
    """The frames back from the player's JSON, by replaying the changed cells (the lines,
    dots and framing back as given; the outline, swatches and edges as drawn: see
    :func:`drawn`)."""
    rows, cols = data["rows"], data["cols"]
    fills: dict[tuple[int, int], str | None] = {
        (r, c): None for r in range(rows) for c in range(cols)
    }
    texts = dict.fromkeys(fills, "")
    frames = zip(data["frames"], drawn(data), strict=True)
    for frame, extras in frames:
        changed = frame["cells"]
        assert len(changed) % 3 == 0
        for at in range(0, len(changed), 3):
            cell, colour, text = changed[at : at + 3]
            r, c = divmod(cell, cols)
            fills[r, c] = None if colour == -1 else data["palette"][colour]
            texts[r, c] = data["texts"][text]
        yield (
            frame["caption"],
            Scene(
                fills=tuple(tuple(fills[r, c] for c in range(cols)) for r in range(rows)),
                texts=tuple(tuple(texts[r, c] for c in range(cols)) for r in range(rows)),
                marks=frozenset((r, c) for r, c in extras["marks"]),
                walls=frozenset((r, c, s) for r, c, s in extras["walls"]),
                row_labels=tuple(extras["row_labels"]),
                column_labels=tuple(extras["column_labels"]),
                caption=frame.get("scene_caption", frame["caption"]),
                lines=tuple((axis, index, role) for axis, index, role in extras["lines"]),
                dots=tuple((r, c, data["palette"][k]) for r, c, k in extras["dots"]),
                framed=extras["framed"],
            ),
        )


def same_picture(got: Scene, want: Scene) -> None:
    """``got`` (decoded, on the whole grid) shows ``want``: same colours (as RGBA), texts,
    marks, walls, labels and caption; cells beyond ``want``'s grid are gaps without text."""
    for r, row in enumerate(got.fills):
        for c, fill in enumerate(row):
            inside = r < len(want.fills) and c < len(want.fills[r])
            expected = want.fills[r][c] if inside else None
            if expected is None:
                assert fill is None, (r, c)
            else:
                assert fill is not None, (r, c)
                assert to_rgba(fill) == pytest.approx(to_rgba(expected), abs=1 / 255), (r, c)
            text = want.texts[r][c] if inside and want.texts else ""
            assert got.texts[r][c] == text, (r, c)
    assert (got.marks, got.walls) == (want.marks, want.walls)
    assert (got.row_labels, got.column_labels) == (want.row_labels, want.column_labels)
    assert got.caption == want.caption
    assert (got.lines, got.framed) == (want.lines, want.framed)
    assert [(r, c) for r, c, _ in got.dots] == [(r, c) for r, c, _ in want.dots]
    for (_, _, colour), (_, _, wanted) in zip(got.dots, want.dots, strict=True):
        assert to_rgba(colour) == pytest.approx(to_rgba(wanted), abs=1 / 255)


def same_drawing(extras: dict[str, Any], want: Scene, palette: list[str]) -> None:
    """A frame's outline, swatches and edges are those of ``want``: the border of its
    highlighted regions, a square of each colour left in a narrowed cell, each edge cut at the
    sides of its cells' squares."""
    assert [tuple(s) for s in extras["outline"]] == outline(want)
    squares = [
        (r, c, top, left, side, colour)
        for r, c, colours in want.swatches
        for (top, left, side), colour in zip(swatch_boxes(len(colours)), colours, strict=True)
    ]
    assert len(extras["swatches"]) == len(squares)
    for got, expected in zip(extras["swatches"], squares, strict=True):
        assert tuple(got[:5]) == expected[:5]
        assert to_rgba(palette[got[5]]) == pytest.approx(to_rgba(expected[5]), abs=1 / 255)
    assert len(extras["edges"]) == len(want.edges)
    for ends, expected in zip(extras["edges"], edge_ends(want), strict=True):
        assert tuple(ends) == pytest.approx(expected)


# --- scenes ------------------------------------------------------------------------------------

COLOURS = [None, "black", "white", "#d62728", "tab:blue", "C2", "#ff000080", (0.2, 0.4, 0.6)]


@st.composite
def scenes(draw: st.DrawFn, rows: int, cols: int) -> Scene:
    words = st.sampled_from(["", "", "1", "A", "12", *HOSTILE])
    colours = st.sampled_from(COLOURS)
    colour = st.sampled_from(COLOURS[1:])
    cell = (st.integers(0, rows - 1), st.integers(0, cols - 1))
    return Scene(
        fills=tuple(tuple(draw(colours) for _ in range(cols)) for _ in range(rows)),
        texts=draw(
            st.just(())
            | st.just(tuple(tuple(draw(words) for _ in range(cols)) for _ in range(rows)))
        ),
        marks=draw(st.frozensets(st.tuples(*cell), max_size=3)),
        walls=draw(st.frozensets(st.tuples(*cell, st.sampled_from("NESW")), max_size=3)),
        row_labels=draw(st.just(()) | st.lists(words, min_size=rows, max_size=rows).map(tuple)),
        column_labels=draw(st.just(()) | st.lists(words, min_size=cols, max_size=cols).map(tuple)),
        caption=draw(words),
        highlight=draw(st.frozensets(st.tuples(*cell), max_size=4)),
        lines=tuple(draw(st.lists(lines(rows, cols), max_size=3))),
        dots=tuple(draw(st.lists(st.tuples(*cell, colour), max_size=3))),
        swatches=tuple(
            draw(
                st.lists(
                    st.tuples(*cell, st.lists(colour, min_size=2, max_size=5).map(tuple)),
                    max_size=2,
                )
            )
        ),
        edges=tuple(draw(st.lists(st.tuples(*cell, *cell), max_size=3))),
        framed=draw(st.booleans()),
    )


def lines(rows: int, cols: int) -> st.SearchStrategy[tuple[str, int, str]]:
    """A row or a column pointed out, in one of the roles."""
    role = st.sampled_from(["read", "chain", "conflict"])
    row = st.tuples(st.just("row"), st.integers(0, rows - 1), role)
    return row | st.tuples(st.just("column"), st.integers(0, cols - 1), role)


@st.composite
def frame_lists(draw: st.DrawFn) -> list[tuple[str, Scene]]:
    """1 to 6 frames, mostly of one size, sometimes of several (drawn on the largest grid)."""
    size = st.tuples(st.integers(1, 4), st.integers(1, 5))
    rows, cols = draw(size)
    out = []
    for _ in range(draw(st.integers(1, 6))):
        if draw(st.integers(0, 4)) == 0:
            rows, cols = draw(size)
        scene = draw(scenes(rows, cols))
        caption = draw(st.sampled_from([scene.caption, "step", *HOSTILE]))
        out.append((caption, scene))
    return out


def grid(n: int, cols: int = 3, caption: str = "") -> Scene:
    """A row of ``cols`` white cells, cell ``n % cols`` black with the text ``n``."""
    fills = tuple("black" if c == n % cols else "white" for c in range(cols))
    texts = tuple(str(n) if c == n % cols else "" for c in range(cols))
    return Scene((fills,), texts=(texts,), caption=caption)


# --- the frame data ----------------------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(frame_lists())
def test_widget_data_decodes_to_the_frames_given(frames: list[tuple[str, Scene]]) -> None:
    markup = widget(frames, notes=["a note"])
    (data,) = parse(markup).data()
    decoded = list(decode(data))
    assert [c for c, _ in decoded] == [c for c, _ in frames]
    assert data["rows"] == max(len(s.fills) for _, s in frames)
    assert data["cols"] == max(len(s.fills[0]) for _, s in frames)
    for (_, got), extras, (_, want) in zip(decoded, drawn(data), frames, strict=True):
        same_picture(got, want)
        same_drawing(extras, want, data["palette"])


def test_text_is_drawn_in_the_ink_that_reads_on_its_cell() -> None:
    data = frame_data([("", Scene((("black", "white", "#ffff00", "#000080"),)))])
    ink = dict(zip(data["palette"], data["ink"], strict=True))
    assert ink == {"#000000": "white", "#ffffff": "black", "#ffff00": "black", "#000080": "white"}


def test_only_changed_cells_are_stored_per_frame() -> None:
    frames = [(f"step {n}", grid(n, cols=20)) for n in range(40)]
    stored = frame_data(frames)["frames"]
    assert len(stored[0]["cells"]) == 3 * 20
    # each later frame moves the black cell: the old one turns white, the new one black
    assert all(len(frame["cells"]) == 3 * 2 for frame in stored[1:])
    assert all("marks" not in frame for frame in stored)


def test_a_thousand_frames_of_a_large_board_make_a_small_page() -> None:
    """1000 steps of a 25x25 board, a few cells each (as nonogram line logic fills them)."""
    rows = [["white"] * 25 for _ in range(25)]
    labels = tuple(" ".join(["1"] * 6) for _ in range(25))
    frames = []
    for n in range(1000):
        for k in range(3):
            cell = (n * 3 + k) * 7 % 625
            rows[cell // 25][cell % 25] = "black" if n % 2 else "#cccccc"
        scene = Scene(tuple(map(tuple, rows)), row_labels=labels, column_labels=labels)
        frames.append((f"{n + 1}/1000: row {n % 25 + 1} (clue 1 1 1): line logic", scene))
    size = len(page(frames, title="t").encode())
    assert size < 150_000, size


@pytest.mark.parametrize(
    ("frames", "message"),
    [([], "nothing to draw"), ([("", Scene((("nocolour",),)))], "colour 'nocolour'")],
)
def test_frames_that_cannot_be_drawn_are_an_option_error(
    frames: list[tuple[str, Scene]], message: str
) -> None:
    with pytest.raises(OptionError, match=message):
        page(frames, title="t")


# --- safety -----------------------------------------------------------------------------------


def hostile_frames() -> list[tuple[str, Scene]]:
    words = tuple(HOSTILE)
    scene = Scene(
        (("white",) * len(words),),
        texts=(words,),
        row_labels=(HOSTILE[0],),
        column_labels=words,
        caption=HOSTILE[1],
    )
    return [(caption, scene) for caption in HOSTILE]


def test_hostile_texts_stay_text() -> None:
    frames = hostile_frames()
    markup = page(frames, title=HOSTILE[0] + HOSTILE[1], notes=HOSTILE)
    seen = parse(markup)
    # only the page's own elements: no <b>, no third script, and the data as given
    assert set(seen.tags) <= {
        "html", "head", "meta", "title", "style", "body", "h1", "div", "button", "input",
        "span", "svg", "ol", "ul", "li", "script",
    }  # fmt: skip
    assert len(seen.scripts) == 2
    # as a browser reads it: only the two own scripts, each ending only at its own end tag
    assert markup.lower().count("<script") == markup.lower().count("</script") == 2
    for raw in re.findall(r"<script[^>]*>(.*?)</script>", markup, re.S):
        assert not re.search(r"</script[\t\n\f\r />]|<!--", raw, re.I)
    assert seen.texts["title"] == [HOSTILE[0] + HOSTILE[1]]
    assert seen.texts["h1"] == [HOSTILE[0] + HOSTILE[1]]
    assert seen.texts["li"] == HOSTILE
    (data,) = seen.data()
    for (caption, got), (_, want) in zip(decode(data), frames, strict=True):
        same_picture(got, want)
        assert caption in HOSTILE
    code = seen.scripts[1][1]
    for _, text in seen.scripts:  # raw, they would end a line of JavaScript source
        assert "\u2028" not in text and "\u2029" not in text
    assert "innerHTML" not in code and "insertAdjacentHTML" not in code
    assert "document.write" not in code and "eval(" not in code


def test_nothing_is_fetched() -> None:
    markup = page([("start", grid(0)), ("end", grid(1))], title="plain", notes=["fine"])
    for reference in ("http://", "https://", "//", "url(", "@import", "fetch(", "XMLHttp"):
        assert reference not in markup, reference
    seen = parse(markup)
    assert not {name for name, _ in seen.attributes} & {"src", "href", "srcset", "action"}
    policy = [v for k, v in seen.attributes if k == "content" and v and "default-src" in v]
    assert policy and "default-src 'none'" in policy[0]


def test_widgets_do_not_share_ids() -> None:
    frames = [("a", grid(0)), ("b", grid(1))]
    first, second = widget(frames), widget(frames)
    ids = parse(first + second).ids
    assert len(ids) == 2 and len(set(ids)) == 2
    for markup, own, other in ((first, ids[0], ids[1]), (second, ids[1], ids[0])):
        style = parse(markup).texts["style"][0]
        script = parse(markup).scripts[1][1]
        assert json.dumps(own) in script and other not in script
        rules = [rule.split("{")[-2] for rule in style.split("}") if "{" in rule]  # @media too
        assert rules and all(rule.strip().startswith(f"#{own}") for rule in rules), rules


def test_the_widget_says_what_it_holds_without_javascript() -> None:
    markup = widget([("start", grid(0)), ("middle", grid(1)), ("the end", grid(2))], notes=["x"])
    seen = parse(markup)
    (fallback,) = seen.texts["nojs"]
    assert "3 frames" in fallback and "start" in fallback and "the end" in fallback
    assert seen.texts["li"] == ["x"]


# --- explanations ---------------------------------------------------------------------------


def lit(state: frozenset[int], caption: str) -> Scene:
    """A 2x3 board: the cells of ``state`` lit."""
    return Scene(
        tuple(tuple("gold" if r * 3 + c in state else "grey" for c in range(3)) for r in range(2)),
        caption=caption,
    )


def explained() -> Explanation:
    steps = [
        Step("press", "press (1, 1)", {"cell": 0}, frozenset({0, 1, 3})),
        Step("press", "press <2, 3>", {"cell": 5}, frozenset({0, 1, 3, 4, 5, 2})),
    ]
    return Explanation(
        kind="toy",
        result=Result(Status.OPTIMAL, solution=(0, 5), stats=Stats(), method="test"),
        steps=steps,
        proof=["No single press lights <all> cells."],
        summary={"grade": 1, "presses": [0, 5]},
        start=frozenset(),
        scene=lit,
    )


def test_an_explanation_writes_its_page(tmp_path: Path) -> None:
    path = tmp_path / "toy.html"
    explained().write(path, title="Toy & co")
    markup = path.read_text(encoding="utf-8")
    assert markup.startswith("<!DOCTYPE html>")
    seen = parse(markup)
    assert seen.texts["title"] == ["Toy & co"]
    assert seen.texts["li"] == [
        "No single press lights <all> cells.",
        "Grade: 1.",  # the summary's lists stay in the JSON
    ]
    (data,) = seen.data()
    decoded = list(decode(data))
    assert [c for c, _ in decoded] == ["start", "press (1, 1)", "press <2, 3>"]
    assert [f.get("step") for f in data["frames"]] == [None, 1, 2] and data["steps"] == 2
    captions = ["start", "step 1 of 2: press (1, 1)", "step 2 of 2: press <2, 3>"]
    states = [frozenset(), *(s.state for s in explained().steps)]
    for (_, got), state, caption in zip(decoded, states, captions, strict=True):
        same_picture(got, lit(state, caption))


def test_an_explanation_in_jupyter_is_a_widget() -> None:
    explanation = explained()
    markup = explanation._repr_html_()
    assert markup is not None and markup.startswith("<div") and "<html" not in markup
    (data,) = parse(markup).data()
    assert len(data["frames"]) == 3
    explanation.scene = None
    assert explanation._repr_html_() is None


# --- in a browser -------------------------------------------------------------------------------


def plan_frames() -> list[tuple[str, Scene]]:
    """The 8-puzzle easy8 solved, its plan drawn (start, each move), and a hostile caption."""
    import cspsolve

    (puzzle,) = cspsolve.read(ROOT / "npuzzle" / "easy8.txt")
    scenes = list(cspsolve.solve(puzzle).picture())  # type: ignore[misc]
    assert len(scenes) >= 3
    frames = [(f"{n}: {scene.caption}", scene) for n, scene in enumerate(scenes)]
    return [*frames, (HOSTILE[0].replace("alert(1)", "window.pwned=1"), scenes[-1])]


@pytest.mark.slow
def test_the_page_plays_in_a_browser(tmp_path: Path) -> None:
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import WebDriverWait

    frames = plan_frames()
    path = tmp_path / "plan.html"
    path.write_text(page(frames, title="easy8", notes=["optimal"]), encoding="utf-8")
    # the cell the first move changes, and its colour before and after
    (cell,) = [
        (r, c)
        for r, row in enumerate(frames[0][1].fills)
        for c, fill in enumerate(row)
        if fill != frames[1][1].fills[r][c]
    ][:1]
    driver = browser(1000, 800)
    try:
        driver.get(path.as_uri())
        find = driver.find_element

        def caption() -> str:
            return str(find(By.CSS_SELECTOR, ".caption").text)

        def fill() -> tuple[float, ...]:
            rect = find(By.CSS_SELECTOR, f'rect[data-cell="{cell[0]},{cell[1]}"]')
            if rect.get_attribute("visibility") == "hidden":
                return (1.0, 1.0, 1.0, 0.0)
            return to_rgba(rect.get_attribute("fill"))

        def shows(n: int) -> None:
            # above the board the scene's own caption, in the list the frame's
            assert caption() == (frames[n][1].caption or frames[n][0])
            want = frames[n][1].fills[cell[0]][cell[1]]
            assert fill() == pytest.approx(to_rgba(want) if want else (1, 1, 1, 0), abs=1 / 255)
            current = driver.find_elements(By.CSS_SELECTOR, ".steps li.current")
            assert [li.text for li in current] == [frames[n][0]]

        shows(0)
        # the page's player has the keyboard from the start
        ActionChains(driver).send_keys(Keys.ARROW_RIGHT).perform()
        shows(1)
        find(By.CSS_SELECTOR, ".first").click()
        shows(0)
        find(By.CSS_SELECTOR, ".next").click()
        shows(1)
        find(By.CSS_SELECTOR, ".prev").click()
        shows(0)
        find(By.CSS_SELECTOR, ".slider").send_keys(Keys.END)
        shows(len(frames) - 1)
        assert driver.execute_script("return window.pwned") is None
        driver.find_elements(By.CSS_SELECTOR, ".steps li")[1].click()
        shows(1)
        find(By.CSS_SELECTOR, ".cspsolve-player").send_keys(Keys.ARROW_LEFT)
        shows(0)
        find(By.CSS_SELECTOR, ".play").click()
        last = f"{len(frames)} / {len(frames)}"  # the frames have no steps: counted in order
        WebDriverWait(driver, 10).until(lambda d: find(By.CSS_SELECTOR, ".count").text == last)
        shows(len(frames) - 1)
        driver.save_screenshot(str(tmp_path / "player.png"))
        assert (tmp_path / "player.png").read_bytes().startswith(b"\x89PNG")
        errors = [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]
        assert not errors, errors
    finally:
        driver.quit()


@pytest.mark.slow
def test_two_widgets_in_one_page_play_apart(tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By

    frames = [("a", grid(0)), ("b", grid(1)), ("c", grid(2))]
    path = tmp_path / "two.html"
    path.write_text(f"<!DOCTYPE html><meta charset=utf-8>{widget(frames)}{widget(frames)}")
    driver = browser(1000, 800)
    try:
        driver.get(path.as_uri())
        players = driver.find_elements(By.CSS_SELECTOR, ".cspsolve-player")
        assert len(players) == 2
        players[1].find_element(By.CSS_SELECTOR, ".next").click()
        players[1].find_element(By.CSS_SELECTOR, ".next").click()
        captions = [p.find_element(By.CSS_SELECTOR, ".caption").text for p in players]
        assert captions == ["a", "c"]
        boards = [p.find_elements(By.CSS_SELECTOR, "svg rect[data-cell]") for p in players]
        assert [len(b) for b in boards] == [3, 3]
        assert [r.get_attribute("fill") for r in boards[1]] == ["#ffffff", "#ffffff", "#000000"]
    finally:
        driver.quit()


def test_a_folded_run_of_steps_is_marked_on_its_first_frame() -> None:
    steps = [
        Step("press", "first", {}, frozenset({0}), (2, "both at once")),
        Step("press", "second", {}, frozenset({0, 1})),
    ]
    why = Explanation("toy", Result(Status.SOLVED), steps, start=frozenset(), scene=lit)
    frames = why.frames()
    assert [f.fold for f in frames] == [None, (2, "both at once"), None]
    stored = frame_data(frames)["frames"]
    assert [f.get("fold") for f in stored] == [None, [2, "both at once"], None]
