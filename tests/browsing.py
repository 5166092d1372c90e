"""Headless Chromium for the real-browser tests (the step player, the web page)."""

from __future__ import annotations

import shutil
from typing import Any

import pytest


def browser(width: int, height: int) -> Any:
    """Headless Chromium through selenium with a window of ``width`` x ``height`` pixels, or
    skip saying what is missing. The chromedriver path is given, so that selenium never tries
    to download a driver."""
    webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed")
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    driver = shutil.which("chromedriver")
    if chromium is None or driver is None:
        pytest.skip(
            "chromium and chromedriver are not installed (apt-get install chromium chromium-driver)"
        )
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage"):
        options.add_argument(flag)
    options.add_argument(f"--window-size={width},{height}")
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(
        options=options, service=webdriver.ChromeService(executable_path=driver)
    )
