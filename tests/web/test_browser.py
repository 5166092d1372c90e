"""The page in a real browser (headless Chromium through selenium) against a real server, the
user's steps one by one: the page opening with a puzzle drawn, the gallery, tabs for screen
readers, an explanation stepped through (a plan's moved piece outlined), check and analyze,
compare, a long solve cancelled (or left), bad input, a nonogram designed, painted and traced,
and each kind played with hints. What the page shows is compared with the library's answers
and with rules written here.

Screenshots are kept as :mod:`tests.web.pages` says (every tab of every kind: ``test_tour``).
Skipped, saying what is missing, without Chromium, chromedriver or selenium.
"""

from __future__ import annotations

import itertools
import math
import re
from pathlib import Path
from typing import Any

import httpx
import pytest

import cspsolve
from cspsolve.instances import ROOT
from cspsolve.web.pool import GRACE

from .pages import Page, puzzle_of, sideways, violations
from .test_jobs import ONE_PER_KIND
from .test_tools import columns, every_solution, image_of, pressed_by_hand, runs

pytestmark = pytest.mark.slow


def test_the_page_opens_with_a_puzzle_drawn(page: Page) -> None:
    page.open()
    shown = page.until(lambda: page.one("#puzzle-figure").is_displayed())
    samples = (name for kind in cspsolve.registry.kinds().values() for name in kind.samples)
    opening = next(name for name in samples if "#" not in name)  # the first a whole file
    assert shown and page.one("#instance").get_attribute("value") == opening
    picture = page.one("#puzzle-picture")
    assert page.driver.execute_script("return arguments[0].naturalWidth", picture) > 0
    box = page.driver.execute_script("return arguments[0].getBoundingClientRect()", picture)
    assert box["bottom"] <= page.driver.execute_script("return innerHeight")  # in sight at once
    first = picture.get_attribute("src")
    page.choose("#instance", ONE_PER_KIND["lightsout"])  # picking an example reads and draws it
    page.until(lambda: page.text("#read-kind").startswith("Lights Out"))
    page.until(lambda: page.one("#puzzle-picture").get_attribute("src") != first)
    second = page.one("#puzzle-picture").get_attribute("src")
    thumb = page.one(f'[data-instance="{ONE_PER_KIND["rushhour"]}"]')  # or in the gallery
    loaded = "return arguments[0].complete && arguments[0].naturalWidth"
    page.driver.execute_script("arguments[0].scrollIntoView()", thumb)
    page.until(
        lambda: page.driver.execute_script(loaded, thumb.find_element(page.by.TAG_NAME, "img"))
    )
    thumb.click()
    page.until(lambda: page.text("#read-kind").startswith("Rush Hour"))
    page.until(lambda: page.one("#puzzle-picture").get_attribute("src") not in (first, second))
    assert page.one("#instance").get_attribute("value") == ONE_PER_KIND["rushhour"]
    assert not page.severe()


def test_every_tab_list_is_tabs_to_a_screen_reader(page: Page) -> None:
    """The pages, the puzzle's sources and the answers: in each list one tab is selected, each
    names a tab panel, and a tab pressed is selected and shows its panel."""
    page.open()
    lists = page.all('[role="tablist"]')
    assert len(lists) == 3
    for tablist in lists:
        tabs = [
            t
            for t in tablist.find_elements(page.by.CSS_SELECTOR, '[role="tab"]')
            if t.is_displayed()
        ]
        assert [t.get_attribute("aria-selected") for t in tabs].count("true") == 1
        for tab in [*tabs[1:], tabs[0]]:
            panel = page.one(f"#{tab.get_attribute('aria-controls')}")
            assert panel.get_attribute("role") == "tabpanel"
            tab.click()
            assert tab.get_attribute("aria-selected") == "true" and panel.is_displayed()
    assert not page.severe()


@pytest.mark.parametrize("size", ["page", "phone"])
def test_the_opened_page_the_designer_and_the_maker_at_both_sizes(
    size: str, request: pytest.FixtureRequest
) -> None:
    """Nothing scrolls sideways and axe-core finds nothing serious, as the page opens, on the
    designer's page and on the puzzle maker's with a puzzle made (every answer tab:
    ``test_tour``); their screens are kept."""
    page: Page = request.getfixturevalue(size)
    prefix = "phone-" if size == "phone" else ""
    page.open()
    page.until(lambda: page.one("#puzzle-figure").is_displayed())
    assert sideways(page) <= 0 and violations(page) == []
    page.shot(f"{prefix}opened")
    page.visit("design")
    assert sideways(page) <= 0 and violations(page) == []
    page.shot(f"{prefix}design")
    page.visit("generate")  # the first kind that makes puzzles, its options as they are
    page.one("#generate-make").click()
    page.until(lambda: page.one("#generate-made").is_displayed())
    assert sideways(page) <= 0 and violations(page) == []
    page.driver.execute_script("document.querySelector('#generate-options').scrollIntoView()")
    page.shot(f"{prefix}generate")


def black_cells(page: Page) -> int:
    fills = [r.get_attribute("fill") for r in page.all("rect[data-cell]")]
    return sum(fill == "#000000" for fill in fills)


def test_an_explanation_steps_with_its_board_redrawn(page: Page) -> None:
    from selenium.webdriver.common.keys import Keys

    page.open()
    name = ONE_PER_KIND["nonogram"]
    page.paste((ROOT / name).read_text(), "nonogram")
    assert page.run("explain") == "done"
    assert not page.all("#answer ol > li")  # the player lists the steps: once
    solution = cspsolve.solve(puzzle_of(name)).solution
    filled = "".join(solution).count("#")
    page.driver.switch_to.frame(page.player())
    try:
        page.until(lambda: page.all("rect[data-cell]"))
        assert len(page.all(".steps li")) > 2
        inner = "return [document.documentElement.scrollHeight, window.innerHeight]"
        page.until(lambda: (lambda h: h[0] <= h[1])(page.driver.execute_script(inner)))
        first = page.text(".caption")
        at_start = black_cells(page)
        page.one(".next").click()
        second = page.text(".caption")
        assert second != first
        page.one(".prev").click()
        assert page.text(".caption") == first and black_cells(page) == at_start
        page.one(".slider").send_keys(Keys.END)
        assert page.text(".caption") != first
        assert black_cells(page) == filled > at_start
    finally:
        page.driver.switch_to.default_content()
    assert not page.severe()


PLAYER_BOARD = """
const rects = [...document.querySelectorAll("rect[data-cell]")];
const at = (name) => Number(rects[0].getAttribute(name));
const [cell, left, top] = [at("width"), at("x"), at("y")];
const cols = Math.max(...rects.map((r) => Number(r.getAttribute("data-cell").split(",")[1]))) + 1;
const words = [...document.querySelector('g[text-anchor="middle"]').children];
const corner = (l, y, x) => [(Number(l.getAttribute(y)) - top) / cell,
                             (Number(l.getAttribute(x)) - left) / cell];
const lines = [...document.querySelectorAll("line.changed")].map(
  (l) => [...corner(l, "y1", "x1"), ...corner(l, "y2", "x2")]);
return {cols, texts: words.map((w) => w.textContent), lines};
"""
"""The step player's board as drawn: its cell texts, row by row, and its outline's segments as
(row, column, row, column) between grid corners."""

Edge = tuple[str, int, int]


def player_board(page: Page) -> tuple[list[list[str]], set[Edge]]:
    """The board the step player shows: its rows of cell texts, and the unit edges its outline
    draws (``("h", r, c)``: the top of cell (r, c); ``("v", r, c)``: its left side)."""
    shown = page.driver.execute_script(PLAYER_BOARD)
    cols, texts = shown["cols"], shown["texts"]
    rows = [texts[i : i + cols] for i in range(0, len(texts), cols)]
    edges: set[Edge] = set()
    for r1, c1, r2, c2 in (map(round, line) for line in shown["lines"]):
        if r1 == r2:
            edges |= {("h", r1, c) for c in range(min(c1, c2), max(c1, c2))}
        else:
            edges |= {("v", r, c1) for r in range(min(r1, r2), max(r1, r2))}
    return rows, edges


def border(rows: list[list[str]], region: set[tuple[int, int]]) -> set[Edge]:
    """The unit edges around ``region``, split between cells of different texts."""

    def apart(cell: tuple[int, int], other: tuple[int, int]) -> bool:
        return other not in region or rows[other[0]][other[1]] != rows[cell[0]][cell[1]]

    edges: set[Edge] = set()
    for r, c in region:
        sides = {("h", r, c): (r - 1, c), ("h", r + 1, c): (r + 1, c),
                 ("v", r, c): (r, c - 1), ("v", r, c + 1): (r, c + 1)}  # fmt: skip
        edges |= {edge for edge, other in sides.items() if apart((r, c), other)}
    return edges


@pytest.mark.parametrize("kind", ["rushhour", "npuzzle"])
def test_a_plan_steps_with_the_moved_piece_outlined(page: Page, kind: str) -> None:
    """Step by step, the Why player outlines the piece that moved (read from the board drawn:
    the cells whose text changed, and the rest of the car that moved) and the cells it left,
    and the step's caption names that piece."""
    page.open()
    page.paste((ROOT / ONE_PER_KIND[kind]).read_text(), kind)
    assert page.run("explain") == "done"
    page.driver.switch_to.frame(page.player())
    try:
        page.until(lambda: page.all("rect[data-cell]"))
        before, _ = player_board(page)
        for _ in range(min(6, cspsolve.solve(puzzle_of(ONE_PER_KIND[kind])).stats.cost)):
            caption = page.text(".caption")
            page.one(".next").click()
            page.until(lambda c=caption: page.text(".caption") != c)
            after, outlined = player_board(page)
            moved = {(r, c) for r, row in enumerate(after) for c, text in enumerate(row)
                     if before[r][c] != text}  # fmt: skip
            (name,) = {after[r][c] for r, c in moved} - {""}
            assert re.search(rf"\b{name}\b", page.text(".caption"))
            piece = {(r, c) for r, row in enumerate(after) for c, t in enumerate(row) if t == name}
            assert outlined == border(after, moved | piece)
            before = after
    finally:
        page.driver.switch_to.default_content()


def test_check_gives_the_verdict_in_words_and_the_analysis(page: Page) -> None:
    page.open()
    name = ONE_PER_KIND["lightsout"]
    page.paste((ROOT / name).read_text(), "lightsout")
    assert page.run("verify") == "done"
    page.until(lambda: "Analysis" in page.text("#answer"))
    report = cspsolve.verify(puzzle_of(name))
    assert page.text("#answer h3") == "Verdict: agree"
    assert [li.text for li in page.all("#answer ul > li")] == report.words()
    analysis = cspsolve.analyze(puzzle_of(name))
    assert page.pairs()["nullity"] == str(analysis["nullity"])


def test_a_long_solve_is_cancelled(page: Page) -> None:
    page.open()
    long_solve(page)
    page.until(lambda: page.text("#job-progress"))
    page.one("#cancel").click()
    page.until(lambda: page.text("#job-state") == "cancelled", within=GRACE + 10)
    seconds = float(page.text("#job-progress").split()[0])
    assert seconds < 25
    assert not page.one("#cancel").is_displayed()


def rounded_to_3(shown: float, value: float) -> bool:
    """Whether ``shown`` is ``value`` to three significant figures (half a unit of the third
    either way: JavaScript and Python round a decimal half differently)."""
    if value == 0:
        return shown == 0
    unit = 10 ** (math.floor(math.log10(abs(value))) - 2)
    return abs(shown - value) <= unit / 2 * (1 + 1e-9)


def test_compare_shows_the_table_and_the_plot(page: Page) -> None:
    page.open()
    name = ONE_PER_KIND["npuzzle"]
    page.paste((ROOT / name).read_text(), "npuzzle")
    assert page.run("compare") == "done"
    kind = cspsolve.registry.get("npuzzle")
    expected = cspsolve.tasks.comparisons(kind, puzzle_of(name))
    rows = [[td.text for td in row.find_elements(page.by.TAG_NAME, "td")]
            for row in page.all("#answer table tr")][1:]  # fmt: skip
    assert [(r[0], None if r[1] == "—" else r[1]) for r in rows] == expected
    cost = cspsolve.solve(puzzle_of(name)).stats.cost
    runs = job_of(page, page.driver.execute_script("return state.job"))["answer"]["runs"]
    for row, run in zip(rows, runs, strict=True):
        _, _, status, shown_cost, expanded, seconds = row
        assert shown_cost == (f"{cost:,}" if status == "optimal" else shown_cost)
        assert re.fullmatch(r"\d{1,3}(,\d{3})*", expanded), expanded  # thousands separated
        assert int(expanded.replace(",", "")) == run["stats"]["expanded"]
        digits = re.sub(r"\D", "", seconds).strip("0")  # three significant figures
        assert re.fullmatch(r"[\d.,]+", seconds) and len(digits) <= 3, seconds
        assert rounded_to_3(float(seconds.replace(",", "")), run["stats"]["seconds"]), seconds
    plot = '#answer img[alt^="expanded nodes"]'
    assert page.driver.execute_script("return arguments[0].naturalWidth", page.one(plot)) > 0
    page.shot("compare-plot", plot)
    assert not page.severe()


def long_solve(page: Page) -> str:
    """Start a solve that runs 25 s; its job's id once it runs."""
    page.paste((ROOT / "npuzzle/korf15-easy.korf").read_text(), "npuzzle")
    page.choose("#method", "astar")
    page.choose("#heuristic", "misplaced")
    page.set("#time-limit", "25")
    page.one('[data-action="solve"]').click()
    page.until(lambda: page.text("#job-state") == "running")
    return str(page.driver.execute_script("return state.job"))


def job_of(page: Page, job_id: str) -> dict[str, Any]:
    answer = httpx.get(f"{page.address}api/jobs/{job_id}", params={"wait": 1}, timeout=10)
    return dict(answer.json())


def test_leaving_the_page_cancels_its_jobs(page: Page) -> None:
    """A new job cancels the one shown before; leaving the page cancels the one running."""
    page.open()
    first = long_solve(page)
    page.one('[data-action="solve"]').click()
    page.until(lambda: job_of(page, first)["state"] == "cancelled", within=GRACE + 10)
    second = str(page.driver.execute_script("return state.job"))
    assert second != first
    page.until(lambda: job_of(page, second)["state"] == "running")
    page.driver.get("about:blank")
    page.until(lambda: job_of(page, second)["state"] == "cancelled", within=GRACE + 10)
    assert job_of(page, second)["seconds"] < 25


def test_bad_input_shows_one_line_next_to_it(page: Page) -> None:
    page.open()
    text = 'title "a"\nwidth 2\nheight 1\n\nrows\n1\n\ncolumns\n1\nx\n'
    page.paste(text)
    message = httpx.post(page.address + "api/read", json={"puzzle": {"text": text}}).json()
    shown = page.text("#input-error")
    assert shown == message["error"] and "\n" not in shown and shown.startswith("pasted:")
    assert page.one("#input #input-error").is_displayed()
    assert not page.one("#run").is_displayed()
    page.shot("bad-input", "#input")


def drawn(page: Page) -> list[str]:
    return page.cells("#design-board", "filled")


def draw(page: Page, grid: list[str]) -> None:
    page.set("#design-width", str(len(grid[0])))
    page.set("#design-height", str(len(grid)))
    page.one("#design-new").click()
    for r, row in enumerate(grid):
        for c, ch in enumerate(row):
            if ch == "#":
                page.one(f'#design-board [data-cell="{r},{c}"]').click()


def check_design(page: Page) -> str:
    page.one("#design-check").click()
    return str(
        page.until(lambda: "unique" in page.text("#design-status") and page.text("#design-status"))
    )


def test_a_nonogram_is_designed(page: Page) -> None:
    page.open()
    page.visit("design")
    grid = ["#...", ".#..", "..##", "...#"]
    draw(page, grid)
    assert drawn(page) == grid
    row_clues = [th.text for th in page.all("#design-board th.clue:not(.column)")]
    column_clues = [th.text for th in page.all("#design-board th.column")]
    assert row_clues == [" ".join(map(str, runs(r) or [0])) for r in grid]
    assert [c.split() for c in column_clues] == [
        [str(n) for n in runs(c) or [0]] for c in columns(grid)
    ]
    status = check_design(page)
    solutions = every_solution(grid)
    assert "unique: no" in status and len(solutions) > 1
    marked = {
        tuple(map(int, b.get_attribute("data-cell").split(",")))
        for b in page.all("#design-board button.differ")
    }
    assert any(
        marked
        == {(r, c) for r, c in itertools.product(range(4), range(4)) if grid[r][c] != s[r][c]}
        for s in solutions
        if s != grid
    )
    page.shot("design-checked", "#design")
    # a cross: unique, and line logic solves it
    grid = [".#.", "###", ".#."]
    draw(page, grid)
    status = check_design(page)
    assert len(every_solution(grid)) == 1
    assert "unique: yes" in status and "line logic solves it: yes" in status
    assert not page.all("#design-board button.differ")
    for fmt in ("non", "nin", "xml"):
        link = page.one(f"#design-{fmt}")
        assert link.get_attribute("download") is not None
        got = httpx.get(link.get_attribute("href"), timeout=10)
        name = got.headers["content-disposition"].split('"')[1]
        (entry,) = cspsolve.api.parser(cspsolve.registry.get("nonogram"))(got.text, name)
        assert [list(r) for r in entry.puzzle.rows] == [runs(r) for r in grid]


def test_a_design_is_painted_by_strokes_and_undone(page: Page) -> None:
    """A stroke paints every cell it crosses with the first cell's new value; Undo and Redo
    (buttons, and Ctrl+Z, Ctrl+Y) step through the strokes."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    page.open()
    page.visit("design")
    draw(page, ["....", "....", "...."])

    def cell(r: int, c: int) -> Any:
        return page.one(f'#design-board [data-cell="{r},{c}"]')

    stroke = ActionChains(page.driver).click_and_hold(cell(1, 0))
    for c in (1, 2, 3):
        stroke = stroke.move_to_element(cell(1, c))
    stroke.release().perform()
    painted = ["....", "####", "...."]
    page.until(lambda: drawn(page) == painted)
    ActionChains(page.driver).click_and_hold(cell(1, 1)).move_to_element(
        cell(0, 1)
    ).release().perform()
    erased = ["....", "#.##", "...."]  # the first cell was filled: the stroke empties
    page.until(lambda: drawn(page) == erased)
    page.one("#design-undo").click()
    assert drawn(page) == painted
    ActionChains(page.driver).key_down(Keys.CONTROL).send_keys("z").key_up(Keys.CONTROL).perform()
    page.until(lambda: drawn(page) == ["....", "....", "...."])
    page.one("#design-redo").click()
    ActionChains(page.driver).key_down(Keys.CONTROL).send_keys("y").key_up(Keys.CONTROL).perform()
    page.until(lambda: drawn(page) == erased)
    assert page.one("#design-redo").get_attribute("disabled") is not None
    assert not page.severe()


def test_a_puzzle_is_made_to_order_then_solved(page: Page) -> None:
    """Make puzzles: a Lights Out board whose minimum is 7 presses, the library's for the seed,
    its minimum found again by light chasing; Solve it opens it solved in 7."""
    page.open()
    page.visit("generate")
    page.choose("#generate-kind", "lightsout")
    page.set("#generate-seed", "3")
    page.set('#generate-options [data-option="size"]', "5")
    page.set('#generate-options [data-option="min_presses"]', "7")
    page.one("#generate-make").click()
    page.until(lambda: page.one("#generate-made").is_displayed())
    [expected] = cspsolve.generate("lightsout", seed=3, size="5", min_presses=7)
    assert page.pairs("#generate-certificate")["minimum"] == "7"
    assert page.one("#generate-download").get_attribute("download") == "lightsout-3.lo"
    page.one("#generate-solve").click()
    page.until(lambda: page.text("#job-state") == "done")
    [board] = cspsolve.parse(page.one("#text").get_attribute("value"), kind="lightsout")
    assert board == expected.puzzle
    rows = ["".join(".#"[lights >> c & 1] for c in range(board.cols)) for lights in board.lights]
    assert fewest_by_chasing(rows) == 7 == expected.certificate["minimum"]
    assert page.pairs()["cost"] == "7"
    assert not page.severe()


def fewest_by_chasing(rows: list[str]) -> int:
    """The fewest presses that turn a grid off, by light chasing: each choice of presses in
    the first row, then a press under every light left on, row by row."""
    width, best = len(rows[0]), None
    for first in itertools.product((False, True), repeat=width):
        presses = [[0, c] for c in range(width) if first[c]]
        for r in range(1, len(rows)):
            above = pressed_by_hand(rows, presses)[r - 1]
            presses += [[r, c] for c in range(width) if above[c] == "#"]
        if "#" not in "".join(pressed_by_hand(rows, presses)):
            best = len(presses) if best is None else min(best, len(presses))
    assert best is not None, "unsolvable"
    return best


def test_a_design_is_traced_from_an_image(page: Page, tmp_path: Path) -> None:
    page.open()
    page.visit("design")
    grid = ["..##..", ".#..#.", "#....#", ".#..#.", "..##.."]
    path = tmp_path / "ring.png"
    path.write_bytes(image_of(grid, 12))
    page.set("#design-width", str(len(grid[0])))
    page.set("#design-height", str(len(grid)))
    page.one("#design-image").send_keys(str(path))
    page.until(lambda: drawn(page) == grid)
    assert page.text("#design-error") == ""
    (tmp_path / "bad.png").write_bytes(b"not an image")
    page.one("#design-image").send_keys(str(tmp_path / "bad.png"))
    page.until(
        lambda: (
            page.text("#design-error")
            == "bad.png: not a PNG, GIF, JPEG, BMP or Netpbm (PBM, PGM, PPM) image"
        )
    )
    assert drawn(page) == grid


def test_lights_out_is_played_with_hints(page: Page) -> None:
    page.open()
    text = (ROOT / ONE_PER_KIND["lightsout"]).read_text()
    page.paste(text, "lightsout")
    page.one("#play-start").click()
    page.until(lambda: page.all("#play-board button"))
    start = [line for line in text.splitlines() if re.fullmatch(r"[01]+", line)]

    def shown() -> list[str]:
        return page.cells("#play-board", "lit")

    made: list[list[int]] = []
    for cell in ([2, 2], [0, 0], [2, 2]):
        page.one(f'#play-board [data-cell="{cell[0]},{cell[1]}"]').click()
        made.append(cell)
        want = pressed_by_hand(start, made)
        page.until(lambda want=want: shown() == want)
    least = fewest_by_chasing(pressed_by_hand(start, made))
    hints = 0
    while "solved" not in page.text("#play-status"):
        page.one("#play-hint").click()
        page.until(lambda: page.all("#play-board button.hint"))
        hinted = page.one("#play-board button.hint")
        r, c = map(int, hinted.get_attribute("data-cell").split(","))
        hinted.click()
        hints += 1
        made.append([r, c])
        want = pressed_by_hand(start, made)
        page.until(lambda want=want: shown() == want and not page.all("button.hint"))
        assert hints <= 25
    assert "#" not in "".join(pressed_by_hand(start, made))
    assert hints == least, (made, least)  # each hint was a press of a minimum solution
    assert not page.severe()


def test_the_sliding_tiles_are_played_with_hints(page: Page) -> None:
    """A tap beside the blank slides its tile, one elsewhere is refused in one line and leaves
    the board; hints bring every tile home in the fewest moves (here 2)."""
    page.open()
    name = ONE_PER_KIND["npuzzle"]
    page.paste((ROOT / name).read_text(), "npuzzle")
    page.one("#play-start").click()
    page.until(lambda: page.all("#play-board button.tile"))

    def tiles() -> list[str]:
        return [b.text for b in page.all("#play-board button")]

    start = tiles()
    page.one('#play-board [data-cell="0,0"]').click()  # tile 1: not beside the blank
    page.until(lambda: "not next to the blank" in page.text("#play-error"))
    assert tiles() == start
    hints = 0
    while "solved" not in page.text("#play-status"):
        page.one("#play-hint").click()
        page.until(lambda: page.all("#play-board button.hint"))
        page.one("#play-board button.hint").click()
        hints += 1
        page.until(lambda h=hints: f"{h} move" in page.text("#play-status"))
        assert hints <= 5
    assert hints == cspsolve.solve(puzzle_of(name)).stats.cost
    assert tiles() == ["1", "2", "3", "4", "5", "6", "7", "8", ""]
    refused = "/api/play - Failed to load resource: the server responded with a status of 400"
    assert [e for e in page.severe() if refused not in e["message"]] == []  # the refused tap


def test_rush_hour_is_played_by_dragging_with_hints(page: Page) -> None:
    """A piece dragged along its axis slides; one pressed then a cell pressed slides too; a
    drag across its axis is refused and changes nothing; every hint is a move of a plan that
    the kind's solver proves shortest from there (the moves left fall by one each time)."""
    from selenium.webdriver.common.action_chains import ActionChains

    page.open()
    name = ONE_PER_KIND["rushhour"]
    page.paste((ROOT / name).read_text(), "rushhour")
    page.one("#play-start").click()
    page.until(lambda: page.all("#play-board button.car.red"))
    (way_out,) = page.all("#play-board td.exit button")  # the last cell of the exit's row
    board = puzzle_of(name)
    assert way_out.get_attribute("data-cell") == f"{board.exit_row},{board.size - 1}"

    def cell(r: int, c: int) -> Any:
        return page.one(f'#play-board [data-cell="{r},{c}"]')

    def labels() -> list[str]:
        return [b.text for b in page.all("#play-board button")]

    start = labels()
    ActionChains(page.driver).drag_and_drop(cell(0, 4), cell(0, 5)).perform()  # D is upright
    page.until(lambda: "D slides up or down only" in page.text("#play-error"))
    assert labels() == start
    left = None
    for hinted in range(3):
        page.one("#play-hint").click()
        page.until(lambda: page.all("#play-board button.hint"))
        words = page.text("#play-status")
        count = int(re.search(r"has (\d+) moves", words).group(1))
        assert left is None or count == left - 1, words
        left = count
        source, target = page.one("#play-board button.hint"), page.one("#play-board button.hint-to")
        if hinted % 2:
            ActionChains(page.driver).drag_and_drop(source, target).perform()
        else:  # press the piece, then where it goes
            source.click()
            target.click()
        page.until(lambda h=hinted: f"{h + 1} move" in page.text("#play-status"))
    assert left == cspsolve.solve(puzzle_of(name)).stats.cost - 2
    refused = "/api/play - Failed to load resource: the server responded with a status of 400"
    assert [e for e in page.severe() if refused not in e["message"]] == []
