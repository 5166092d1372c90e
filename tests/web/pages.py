"""The page in a real browser, as a user drives it: :class:`Page` (headless Chromium through
selenium, from :func:`tests.browsing.browser`) with the steps a user takes, and what the tests
read from it (sideways overflow, axe-core's violations).

Screenshots go to the test's temporary folder; with ``CSPSOLVE_SCREENSHOTS=DIR`` set they are
also saved as ``DIR/web-NAME.png`` (``docs/images`` holds the ones ``docs/web.md`` shows),
quantized to 256 colours with Pillow to keep them small.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import cspsolve
from cspsolve.instances import ROOT

from ..browsing import browser
from .conftest import Server

WAIT = 90.0
"""Seconds the page may take to show an answer on a loaded machine."""


class Page:
    """The page in the browser, with the steps a user takes."""

    def __init__(self, driver: Any, address: str, shots: Path, width: int) -> None:
        from selenium.webdriver.common.by import By

        self.driver, self.address, self.shots, self.by = driver, address, shots, By
        self.width = width
        """The screen's width in CSS pixels."""

    def open(self) -> None:
        """Load the page afresh, forgetting the console messages of the page before."""
        self.driver.get_log("browser")
        self.driver.get(self.address)
        self.until(lambda: self.all("#design-board button"))

    def one(self, css: str) -> Any:
        return self.driver.find_element(self.by.CSS_SELECTOR, css)

    def all(self, css: str) -> list[Any]:
        return list(self.driver.find_elements(self.by.CSS_SELECTOR, css))

    def text(self, css: str) -> str:
        return str(self.one(css).text)

    def until(self, check: Callable[[], Any], within: float = WAIT) -> Any:
        from selenium.common.exceptions import StaleElementReferenceException
        from selenium.webdriver.support.ui import WebDriverWait

        wait = WebDriverWait(
            self.driver,
            within,
            poll_frequency=0.1,
            ignored_exceptions=(StaleElementReferenceException,),
        )
        return wait.until(lambda _: check())

    def paste(self, text: str, kind: str | None = None) -> None:
        """Paste ``text`` (and pick its kind, or leave it to detection), then read it."""
        from selenium.webdriver.support.ui import Select

        self.one('[data-tab="paste"]').click()
        self.driver.execute_script("arguments[0].value = arguments[1]", self.one("#text"), text)
        Select(self.one("#kind")).select_by_value(kind or "")
        self.one("#read").click()
        self.until(lambda: self.one("#run").is_displayed() or self.text("#input-error"))

    def visit(self, name: str) -> None:
        """Open the page's page ``name`` (``design``, ``generate``) by its tab, scrolled to
        first: on an emulated phone, chromedriver's own scrolling misses a button above the
        screen."""
        tab = self.one(f"#nav-{name}")
        self.driver.execute_script("arguments[0].scrollIntoView()", tab)
        tab.click()
        self.until(lambda: self.one(f"#{name}").is_displayed())

    def choose(self, css: str, value: str) -> None:
        from selenium.webdriver.support.ui import Select

        Select(self.one(css)).select_by_value(value)

    def set(self, css: str, value: str) -> None:
        field = self.one(css)
        field.clear()
        field.send_keys(value)

    def run(self, action: str) -> str:
        """Start an action from its tab; the job's state once it has ended."""
        self.one(f'[data-show="{action}"]').click()
        self.one(f'[data-action="{action}"]').click()
        return str(
            self.until(
                lambda: (
                    self.text("#job-state") in ("done", "failed", "cancelled")
                    and self.text("#job-state")
                )
            )
        )

    def player(self) -> Any:
        """The Why tab's step player (its frame), scrolled into view and grown to the player's
        height. Chromium throttles an offscreen cross-origin frame (the player's is sandboxed):
        until seen, it neither lays out anew nor tells the page its height."""
        frame = self.until(lambda: self.all('[data-answer="explain"] iframe.player'))[0]
        self.driver.execute_script("arguments[0].scrollIntoView()", frame)
        self.until(lambda: self.driver.execute_script("return arguments[0].style.height", frame))
        return frame

    def shot(self, name: str, css: str | None = None) -> Path:
        """A screenshot of the page's element ``css`` (scrolled into view), or of the screen
        as the user sees it with ``css`` None; kept as said in the module's docstring."""
        path = self.shots / f"web-{name}.png"
        if css is None:
            self.driver.save_screenshot(str(path))
        else:
            element = self.one(css)
            self.driver.execute_script("arguments[0].scrollIntoView()", element)
            element.screenshot(str(path))
        assert path.read_bytes().startswith(b"\x89PNG")
        if os.environ.get("CSPSOLVE_SCREENSHOTS"):
            from PIL import Image

            with Image.open(path) as image:
                kept = image.convert("RGB").quantize(256)
            kept.save(Path(os.environ["CSPSOLVE_SCREENSHOTS"]) / path.name, optimize=True)
        return path

    def cells(self, table: str, on: str) -> list[str]:
        """The rows of a board of cell buttons: ``#`` where a button has the class ``on``."""
        marks = self.driver.execute_script(
            "return [...document.querySelectorAll(arguments[0] + ' tr')].map((tr) =>"
            " [...tr.querySelectorAll('button')].map((b) =>"
            " b.classList.contains(arguments[1]) ? '#' : '.').join('')).filter(Boolean)",
            table,
            on,
        )
        return list(marks)

    def pairs(self, box: str = "#answer") -> dict[str, str]:
        """The rows of two cells of the tables in ``box``, the first cell to the second."""
        rows = [[td.text for td in row.find_elements(self.by.TAG_NAME, "td")]
                for row in self.all(f"{box} table tr")]  # fmt: skip
        return {row[0]: row[1] for row in rows if len(row) == 2}

    def severe(self) -> list[Any]:
        return [e for e in self.driver.get_log("browser") if e["level"] == "SEVERE"]


def page_of(width: int, height: int, server: Server, shots: Path) -> Iterator[Page]:
    """The page in a browser of ``width`` x ``height`` pixels, closed after."""
    driver = browser(width, height)
    try:
        yield Page(driver, server.address, shots, width)
    finally:
        driver.quit()


def puzzle_of(name: str) -> Any:
    """The first puzzle of the shipped example ``name``."""
    return cspsolve.read(ROOT / name)[0]


def sideways(page: Page) -> int:
    """Pixels the page is wider than the screen (an emulated phone widens its layout to fit
    the page, so the window's own width would hide them)."""
    return int(page.driver.execute_script("return document.documentElement.scrollWidth")) - (
        page.width
    )


def violations(page: Page) -> list[str]:
    """The serious and critical violations axe-core (Deque's accessibility rules) finds on the
    page as it is now, each as its rule and the elements it names."""
    from axe_core_python.selenium import Axe

    # no transitions (Pico turns them off for reduced motion): axe reads colours as they stand
    reduced = {"features": [{"name": "prefers-reduced-motion", "value": "reduce"}]}
    page.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", reduced)
    found = Axe().run(page.driver)["violations"]
    return [
        f"{v['id']}: {[node['target'] for node in v['nodes']]}"
        for v in found
        if v["impact"] in ("serious", "critical")
    ]
