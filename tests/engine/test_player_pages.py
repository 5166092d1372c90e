"""Explanation pages in a real browser (headless Chromium through selenium), as
``cspsolve explain FILE --image OUT.html`` writes them: the page takes the keys on load, lists
the frames by step, and draws what each step adds (the cells it decided, a probe's chain,
conflict and assumption, a narrowed colour cell's colours left, a moved car, a graph's
edges), at a desk's size (1280 x 900) and a phone's (390 x 844) without scrolling sideways.

What the browser draws is counted against the frames' own scenes. Screenshots go to the
test's temporary folder; with ``CSPSOLVE_SCREENSHOTS=DIR`` set they are also saved as
``DIR/player-NAME.png``. Skipped, saying what is missing, without Chromium, chromedriver or
selenium.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import cspsolve
from cspsolve import registry, tasks
from cspsolve.explanation import Explanation
from cspsolve.instances import ROOT
from cspsolve.models.lightsout.pictures import board
from cspsolve.player import Frame, page
from cspsolve.render import outline

from ..browsing import browser

pytestmark = pytest.mark.slow

DATA = Path(__file__).resolve().parents[1] / "data"
SIZES = {"desk": (1280, 900), "phone": (390, 844)}


def explained(path: Path, kind: str = "nonogram") -> Explanation:
    (puzzle,) = cspsolve.read(path)
    return tasks.explain(registry.get(kind), puzzle)


class Player:
    """An explanation page open in the browser."""

    def __init__(self, driver: Any, shots: Path) -> None:
        from selenium.webdriver.common.by import By

        self.driver, self.shots, self.by = driver, shots, By

    def open(self, markup: str, name: str) -> None:
        path = self.shots / f"{name}.html"
        path.write_text(markup, encoding="utf-8")
        self.driver.get(path.as_uri())

    def all(self, css: str) -> list[Any]:
        return list(self.driver.find_elements(self.by.CSS_SELECTOR, css))

    def text(self, css: str) -> str:
        return str(self.driver.find_element(self.by.CSS_SELECTOR, css).text)

    def go(self, frame: int) -> None:
        """Show frame ``frame`` through the slider."""
        self.driver.execute_script(
            "var s = document.querySelector('.slider'); s.value = arguments[0];"
            "s.dispatchEvent(new Event('input'));",
            frame,
        )

    def keys(self, *keys: str) -> None:
        """Press keys with no element clicked first."""
        from selenium.webdriver.common.action_chains import ActionChains

        ActionChains(self.driver).send_keys(*keys).perform()

    def shot(self, name: str) -> Path:
        path = self.shots / f"player-{name}.png"
        self.driver.save_screenshot(str(path))
        saved = os.environ.get("CSPSOLVE_SCREENSHOTS")
        if saved:
            shutil.copy(path, Path(saved) / path.name)
        return path

    def severe(self) -> list[Any]:
        return [e for e in self.driver.get_log("browser") if e["level"] == "SEVERE"]


@pytest.fixture(params=sorted(SIZES))
def player(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Player]:
    driver = browser(*SIZES[request.param])
    try:
        yield Player(driver, tmp_path)
    finally:
        driver.quit()


@pytest.fixture
def desk(tmp_path: Path) -> Iterator[Player]:
    driver = browser(*SIZES["desk"])
    try:
        yield Player(driver, tmp_path)
    finally:
        driver.quit()


def fits(player: Player) -> None:
    """Nothing scrolls sideways, the board is no taller than 80 % of the window, and the
    caption can be read without scrolling."""
    script = player.driver.execute_script
    assert script("return document.documentElement.scrollWidth <= window.innerWidth")
    board = script("return document.querySelector('svg.board').getBoundingClientRect().toJSON()")
    height, width = script("return [window.innerHeight, window.innerWidth]")
    assert board["height"] <= 0.8 * height + 1 and board["right"] <= width
    caption = script("return document.querySelector('.caption').getBoundingClientRect().bottom")
    assert caption < height


def test_the_page_takes_keys_on_load_and_lists_the_frames_by_step(player: Player) -> None:
    why = explained(DATA / "nonogram" / "smile.non")
    player.open(why.html(title="Smile & wave", subtitle="nonogram 5x5"), "smile")
    assert player.driver.title == "Smile & wave"
    assert player.text(".count") == "start"
    player.driver.execute_script("document.activeElement.blur()")  # focus on no element
    player.keys("\ue014")  # the right arrow, nothing clicked
    assert player.text(".count") == f"step 1 of {len(why.steps)}"
    assert player.text(".caption") == f"step 1 of {len(why.steps)}: {why.steps[0].text}"
    items = player.all(".steps li")
    assert items[0].get_attribute("class") == "unnumbered" and items[0].text == "start"
    assert [int(li.get_property("value")) for li in items[1:]] == list(range(1, len(why.steps) + 1))
    assert [li.text for li in items[1:]] == [step.text for step in why.steps]
    player.keys("\ue010")  # End
    assert player.text(".count") == f"step {len(why.steps)} of {len(why.steps)}"
    fits(player)
    player.shot(f"smile-{player.driver.get_window_size()['width']}")
    assert not player.severe()


def test_a_probe_shows_its_chain_its_conflict_and_what_it_supposed(player: Player) -> None:
    why = explained(DATA / "nonogram" / "smile.non")
    frames = why.frames()
    [number] = [k for k, f in enumerate(frames) if f.step and why.steps[f.step - 1].rule == "probe"]
    scene = frames[number].scene
    player.open(why.html(title="Smile & wave"), "probe")
    player.go(number)
    assert len(player.all("rect.line-chain")) == sum(r == "chain" for _, _, r in scene.lines) > 0
    assert len(player.all("rect.line-conflict")) == 1
    assert len(player.all("circle.dot")) == len(scene.dots) > 1
    assert len(player.all("circle.mark")) == 1
    assert len(player.all("line.changed")) == len(outline(scene)) > 0
    fits(player)
    player.shot(f"probe-{player.driver.get_window_size()['width']}")


def test_a_narrowed_colour_cell_shows_the_colours_left(player: Player) -> None:
    why = explained(ROOT / "nonogram" / "mushroom.non")
    frames = why.frames()
    player.open(why.html(title="Mushroom"), "mushroom")
    player.go(3)
    wanted = sum(len(colours) for _, _, colours in frames[3].scene.swatches)
    assert len(player.all("rect.swatch")) == wanted > 0
    player.go(0)
    assert player.all("rect.swatch") == []
    fits(player)
    player.shot(f"mushroom-{player.driver.get_window_size()['width']}")


def test_a_moved_car_is_outlined(desk: Player) -> None:
    why = explained(ROOT / "rushhour" / "card-32.txt", "rushhour")
    frames = why.frames()
    desk.open(why.html(title="card-32"), "card")
    desk.go(1)
    assert len(desk.all("line.changed")) == len(outline(frames[1].scene)) > 0
    fits(desk)
    desk.shot("card-32")


def test_a_graph_board_plays_with_its_edges(desk: Player) -> None:
    (puzzle,) = cspsolve.read(ROOT / "lightsout" / "petersen.edges")
    nodes = puzzle.cols  # type: ignore[attr-defined]
    scenes = [
        board(puzzle, (lights,), (0,), f"lights {lights:b}")  # type: ignore[arg-type]
        for lights in (0b1, 0b11, 0b111)
    ]
    frames = [
        Frame("start", scenes[0]),
        *(Frame(s.caption, s, k) for k, s in enumerate(scenes[1:], 1)),
    ]
    desk.open(page(frames, title="Petersen"), "petersen")
    drawn = [text.text for text in desk.all("svg.board text") if text.text]
    assert sorted(drawn) == sorted(puzzle.labels)  # type: ignore[attr-defined]
    edges = sum(len(near) for near in puzzle.graph) // 2  # type: ignore[attr-defined]
    assert len(desk.all("svg.board line[stroke='#555555']")) == edges
    assert len(desk.all("rect[data-cell][visibility='visible']")) == nodes
    desk.keys("\ue014", "\ue014")
    assert desk.text(".count") == "step 2 of 2"
    fits(desk)
    desk.shot("petersen")
    assert not desk.severe()


def test_a_folded_refutation_is_one_line_until_it_is_reached(desk: Player) -> None:
    from cspsolve.explanation import Step
    from cspsolve.render import Scene
    from cspsolve.results import Result, Status

    def strip(state: int, caption: str) -> Scene:
        return Scene((tuple("black" if c < state else "white" for c in range(5)),), caption=caption)

    fold = (3, "if cell 2 were empty: 3 steps, then no placement")
    steps = [
        Step("line", "fill cell 1", {}, 1),
        Step("guess", "guess cell 2 empty", {}, 1, fold),
        Step("contradiction", "no placement", {}, 1),
        Step("backtrack", "cell 2 is filled", {}, 2),
        Step("line", "fill cells 3 to 5", {}, 5),
    ]
    why = Explanation("strip", Result(Status.SOLVED), steps, start=0, scene=strip)
    desk.open(why.html(title="folded"), "folded")
    (summary,) = desk.all(".steps summary")
    assert summary.text == "2\u20134. " + fold[1]
    assert (
        desk.driver.execute_script("return document.querySelector('.steps details').open") is False
    )
    shown = [li.text for li in desk.all(".steps li[data-frame]") if li.is_displayed()]
    assert shown == ["start", "fill cell 1", "fill cells 3 to 5"]
    desk.go(3)  # the contradiction, inside the fold
    assert desk.driver.execute_script("return document.querySelector('.steps details').open")
    (current,) = desk.all(".steps li.current")
    assert current.text == "no placement" and int(current.get_property("value")) == 3
    desk.all(".steps li[data-frame]")[2].click()  # the folded guess
    assert desk.text(".count") == "step 2 of 5"
    assert not desk.severe()
