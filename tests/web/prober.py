"""A light request timed from a process of its own, as a browser tab would send it while
others load the server: ``python prober.py URL`` sends ``GET URL`` every :data:`PAUSE`
seconds until its standard input closes, then prints each request's seconds as one JSON list.

It runs apart from the test's load client so that the time measured is the server's answer
and the network's, not the wait of a client busy sending and reading the burst itself.
"""

from __future__ import annotations

import http.client
import json
import select
import sys
import time
from urllib.parse import urlsplit

PAUSE = 0.02
"""Seconds between the end of one request and the start of the next."""


def main(url: str) -> None:
    parts = urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname or "127.0.0.1", parts.port, timeout=30)
    took: list[float] = []
    print("ready", flush=True)
    while not select.select([sys.stdin], [], [], PAUSE)[0]:
        start = time.perf_counter()
        conn.request("GET", parts.path)
        answer = conn.getresponse()
        answer.read()
        took.append(time.perf_counter() - start)
        if answer.status != 200:
            raise SystemExit(f"prober: {url} answered {answer.status}")
    print(json.dumps(took))


if __name__ == "__main__":
    main(sys.argv[1])
