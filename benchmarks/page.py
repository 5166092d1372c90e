"""The page of ``cspsolve serve``: the size of what it loads, and how soon a puzzle is drawn.

Starts ``cspsolve serve`` on a free port, reads the page and every script and style sheet it
links (bytes as served), then opens the page in headless Chromium at a desk's size (1280 x
900) and a phone's (390 x 844, emulated) and times, from the navigation's start: the document
parsed (``DOMContentLoaded``), the page loaded, the opening puzzle drawn, and every thumbnail
on the screen drawn (the page asks for them once the puzzle is drawn). Each browser's first
load is timed apart from the median of ``--repeat`` loads after it; the desk's is the first
after the server starts (each thumbnail drawn for the first time), the phone's finds them
drawn.

Usage: python benchmarks/page.py [--repeat 5]   (needs chromium, chromedriver and selenium)
"""

from __future__ import annotations

import argparse
import re
import shutil
import signal
import statistics
import subprocess
import sys
import time
from typing import Any

import httpx
from rich.console import Console
from rich.table import Table

DRAWN = (
    "return !document.getElementById('puzzle-figure').hidden"
    " && document.getElementById('puzzle-picture').complete"
)
"""True once the opening puzzle is drawn."""
THUMBNAILS = (
    "return [...document.querySelectorAll('img[data-src]')]"
    ".filter((i) => i.checkVisibility() && i.getBoundingClientRect().top < innerHeight)"
    ".every((i) => i.complete && i.naturalWidth > 0)"
)
"""True once every thumbnail on the screen is drawn (the others load when scrolled to; on a
phone the gallery starts folded)."""
SIZES = {"desk 1280x900": (1280, 900), "phone 390x844": (390, 844)}


def serving() -> tuple[subprocess.Popen[str], str]:
    """A ``cspsolve serve`` on a free port and its address, once it answers."""
    process = subprocess.Popen(
        [sys.executable, "-m", "cspsolve", "serve", "--port", "0", "--workers", "1"],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert process.stdout is not None
    address = process.stdout.readline().split()[3]
    for _ in range(300):
        try:
            httpx.get(address + "api/kinds", timeout=5)
            return process, address
        except httpx.TransportError:
            time.sleep(0.1)
    raise SystemExit("the server never answered")


def chromium(width: int, height: int) -> Any:
    """Headless Chromium showing ``width`` x ``height`` pixels (a phone's below 500)."""
    from selenium import webdriver

    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or "chromium"
    for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage"):
        options.add_argument(flag)
    options.add_argument(f"--window-size={max(width, 500)},{height}")
    service = webdriver.ChromeService(executable_path=shutil.which("chromedriver"))
    driver = webdriver.Chrome(options=options, service=service)
    if width < 500:
        metrics = {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": True}
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", metrics)
    return driver


def load(driver: Any, address: str) -> tuple[float, float, float, float]:
    """Seconds from the navigation's start to the document parsed, the page loaded, the
    opening puzzle drawn and every thumbnail drawn."""
    start = time.perf_counter()
    driver.get(address)
    seconds = []
    for ready in (DRAWN, THUMBNAILS):
        while not driver.execute_script(ready):
            time.sleep(0.005)
        seconds.append(time.perf_counter() - start)
    parsed, loaded = driver.execute_script(
        "const n = performance.getEntriesByType('navigation')[0];"
        "return [n.domContentLoadedEventEnd, n.loadEventEnd]"
    )
    return parsed / 1000, loaded / 1000, *seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    repeat = parser.parse_args().repeat
    console = Console()
    process, address = serving()
    try:
        page = httpx.get(address, timeout=10).text
        assets = Table(title="what the page loads (bytes as served, not compressed)")
        assets.add_column("file")
        assets.add_column("bytes", justify="right")
        files = ["/", *re.findall(r'(?:href|src)="(/static/[^"]+)"', page)]
        total = 0
        for path in files:
            size = len(httpx.get(address.rstrip("/") + path, timeout=10).content)
            total += size
            assets.add_row(path, f"{size:,}")
        assets.add_row("in all (thumbnails aside)", f"{total:,}")
        console.print(assets)
        times = Table(title=f"seconds to the page ready (median of {repeat} loads after the first)")
        columns = ("screen", "load", "parsed", "loaded", "puzzle drawn", "thumbnails on screen")
        for column in columns:
            times.add_column(column, justify="right" if column != "screen" else "left")
        for name, (width, height) in SIZES.items():
            driver = chromium(width, height)
            try:
                first = load(driver, address)
                later = [load(driver, address) for _ in range(repeat)]
            finally:
                driver.quit()
            times.add_row(name, "first", *(f"{t:.3f}" for t in first))
            medians = (statistics.median(run[k] for run in later) for k in range(4))
            times.add_row(name, "later", *(f"{t:.3f}" for t in medians))
        console.print(times)
    finally:
        process.send_signal(signal.SIGINT)
        process.wait(30)


if __name__ == "__main__":
    sys.exit(main())
