"""Every tab of every kind, at a desk's size (1280 x 900) and on a phone's (390 x 844): each
kind's example picked from the list and drawn, then Solve, Why, Check and Compare run, and Play
(where the kind has a player) started and hinted. Each answer is compared with the library's;
on every tab nothing scrolls sideways, axe-core finds nothing serious or critical, the cells
played take a finger (44 px) and the screen is kept as ``web-[phone-]KIND-TAB.png``
(:mod:`tests.web.pages`; ``docs/web.md`` shows them).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

import cspsolve

from .pages import Page, puzzle_of, sideways, violations
from .test_jobs import ONE_PER_KIND

pytestmark = pytest.mark.slow

TOURED = {**ONE_PER_KIND, "rushhour": "rushhour/walls.rh"}
"""The example of each kind: one whose every answer takes a second or less (Rush Hour's
board with walls, whose CP-SAT proof is quick)."""


def solved(page: Page, puzzle: Any) -> None:
    expected = cspsolve.solve(puzzle)
    heuristic = f"/{expected.heuristic}" if expected.heuristic else ""
    want = f"{expected.status.value} by {expected.method}{heuristic}"
    assert page.text('[data-answer="solve"] .status') == want
    image = page.one('[data-answer="solve"] img')
    assert page.driver.execute_script("return arguments[0].naturalWidth", image) > 0


def explained(page: Page, puzzle: Any) -> None:
    """The step player lists as many steps as the library's explanation has, and its frame has
    grown to the player's height."""
    steps = sum(step.state is not None for step in cspsolve.explain(puzzle).steps)
    page.driver.switch_to.frame(page.player())
    try:
        listed = page.until(lambda: len(page.all(".steps li:not(.unnumbered)")))
    finally:
        page.driver.switch_to.default_content()
    assert listed == steps


def checked(page: Page, puzzle: Any) -> None:
    page.until(lambda: "Analysis" in page.text('[data-answer="verify"]'))
    report = cspsolve.verify(puzzle)
    assert report.agree and page.text('[data-answer="verify"] h3') == "Verdict: agree"
    assert [li.text for li in page.all('[data-answer="verify"] ul > li')] == report.words()


def compared(page: Page, puzzle: Any) -> None:
    expected = cspsolve.tasks.comparisons(cspsolve.registry.kind_of(puzzle), puzzle)
    rows = [[td.text for td in row.find_elements(page.by.TAG_NAME, "td")]
            for row in page.all('[data-answer="compare"] table tr')][1:]  # fmt: skip
    assert [(r[0], None if r[1] == "—" else r[1]) for r in rows] == expected


TABS: dict[str, tuple[str, Callable[[Page, Any], None]]] = {
    "solve": ("solve", solved),
    "explain": ("why", explained),
    "verify": ("check", checked),
    "compare": ("compare", compared),
}
"""Each answer tab's action: the name its screenshot takes and what its answer must show."""


def seen(page: Page, name: str) -> None:
    """The screen as it is now, scrolled to the answer tabs: nothing sideways, nothing serious
    for axe, and kept as ``name``."""
    assert sideways(page) <= 0
    assert violations(page) == []
    page.driver.execute_script("document.querySelector('#run').scrollIntoView()")
    page.shot(name)


def played(page: Page, name: str) -> None:
    """Play starts with cells a finger can press and a hint marked."""
    page.one("#play-start").click()
    cells = page.until(lambda: page.all("#play-board button"))
    boxes = [page.driver.execute_script("return arguments[0].getBoundingClientRect()", c)
             for c in cells]  # fmt: skip
    assert min(min(box["width"], box["height"]) for box in boxes) >= 44
    page.one("#play-hint").click()
    page.until(lambda: page.all("#play-board button.hint") and "has" in page.text("#play-status"))
    seen(page, name)


@pytest.mark.parametrize("kind", sorted(TOURED))
@pytest.mark.parametrize("size", ["page", "phone"])
def test_every_tab_of_every_kind(size: str, kind: str, request: pytest.FixtureRequest) -> None:
    page: Page = request.getfixturevalue(size)
    prefix = "phone-" if size == "phone" else ""
    page.open()
    name = TOURED[kind]
    page.choose("#instance", name)
    page.until(lambda: page.text("#read-kind").startswith(cspsolve.registry.get(kind).title))
    loaded = "return arguments[0].complete && arguments[0].naturalWidth"
    page.until(lambda: page.driver.execute_script(loaded, page.one("#puzzle-picture")))
    puzzle = puzzle_of(name)
    for action, (tab, answered) in TABS.items():
        assert page.run(action) == "done", page.text("#job-error")
        answered(page, puzzle)
        seen(page, f"{prefix}{kind}-{tab}")
    if "play" in cspsolve.registry.get(kind).tools:
        played(page, f"{prefix}{kind}-play")
    else:
        assert not page.one("#play-start").is_displayed()
    assert not page.severe()
