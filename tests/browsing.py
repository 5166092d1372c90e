"""Headless Chromium for the real-browser tests (the step player, the web page)."""

from __future__ import annotations

import shutil
from typing import Any

import pytest

PHONE_WIDTH = 500
"""Narrower viewports are emulated as a phone's: headless Chromium's window is never narrower
than this, so a 390-pixel window would show 500 pixels."""


def browser(width: int, height: int) -> Any:
    """Headless Chromium through selenium showing ``width`` x ``height`` pixels, or skip saying
    what is missing. The chromedriver path is given, so that selenium never tries to download a
    driver. The viewport is set to the size asked (DevTools' device metrics); below
    :data:`PHONE_WIDTH` it is a phone's (``mobile``)."""
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
    made = webdriver.Chrome(
        options=options, service=webdriver.ChromeService(executable_path=driver)
    )
    # the page's viewport exactly (the window's would lose the height of the browser's bars)
    metrics = {"width": width, "height": height, "deviceScaleFactor": 1}
    made.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride", {**metrics, "mobile": width < PHONE_WIDTH}
    )
    return made
