"""The page and the routes that start no job: kinds, instances, reading input, bad input,
limits of size and of time, paths never read, markup never echoed."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest
from starlette.testclient import TestClient

import cspsolve
from cspsolve import registry
from cspsolve.errors import InputError
from cspsolve.instances import ROOT
from cspsolve.web.pool import BusyError, Pool
from cspsolve.web.work import ACTIONS, Spec

from .conftest import HOSTILE, SETTINGS

SHIPPED = sorted(
    p
    for folder in ROOT.iterdir()
    if folder.is_dir()
    for p in folder.iterdir()
    if p.suffix != ".md" and not p.name.startswith("LICENSE") and not p.name.startswith("__")
)
"""Every shipped example file, found here from the folder itself."""


def name_of(path: Path) -> str:
    return f"{path.parent.name}/{path.name}"


def error_of(client: TestClient, path: str, body: dict[str, object], status: int = 400) -> str:
    """The one-line error of a refused request."""
    answer = client.post(path, json=body)
    assert answer.status_code == status, answer.text
    message = answer.json()["error"]
    assert isinstance(message, str) and message and "\n" not in message
    assert "Traceback" not in message
    return message


def test_the_page_needs_nothing_from_the_internet(plain: TestClient) -> None:
    page = plain.get("/")
    assert page.status_code == 200
    assert "script-src 'self'" in page.headers["content-security-policy"]
    for kind in registry.kinds().values():
        assert kind.title in page.text
    assert "http://" not in page.text and "https://" not in page.text
    linked = re.findall(r'(?:href|src)="(/static/[^"]+)"', page.text)
    assert {"/static/app.js", "/static/app.css", "/static/pico.classless.min.css"} <= set(linked)
    for path in linked:
        text = plain.get(path).text
        assert "@import" not in text and "//cdn" not in text
        targets = re.findall(r"""url\(\s*['"]?([^'")]+)""", text)
        assert all(target.startswith("data:") for target in targets), path  # drawn inline
        if path.endswith(".js"):
            assert "http://" not in text and "https://" not in text


def test_every_example_has_its_thumbnail(plain: TestClient) -> None:
    page = plain.get("/").text
    for path in SHIPPED:
        name = name_of(path)
        assert f'data-instance="{name}"' in page
        answer = plain.get("/api/thumbnail", params={"instance": name})
        assert answer.status_code == 200, (name, answer.text)
        assert answer.headers["content-type"] == "image/svg+xml" and "<svg" in answer.text
    for name in ("../../etc/passwd", "nonogram/none.non", ""):
        assert plain.get("/api/thumbnail", params={"instance": name}).status_code == 404


def test_a_puzzle_is_drawn_as_given(plain: TestClient) -> None:
    for name in ("nonogram/duck.non", "lightsout/classic-5x5.lo", "rushhour/card-32.txt"):
        svg = plain.post("/api/picture", json={"puzzle": {"instance": name}}).json()["svg"]
        assert svg.startswith("<?xml") and "<svg" in svg
    duck = {"puzzle": {"instance": "nonogram/duck.non"}, "entry": 1}
    assert "holds 1 puzzles" in error_of(plain, "/api/picture", duck)


def test_kinds_are_the_declarations(plain: TestClient) -> None:
    listed = {k["name"]: k for k in plain.get("/api/kinds").json()}
    assert list(listed) == registry.names()
    for name, kind in registry.kinds().items():
        record = listed[name]
        assert [m["name"] for m in record["methods"]] == [m.name for m in kind.methods]
        assert [m["heuristics"] for m in record["methods"]] == [
            list(m.heuristics) for m in kind.methods
        ]
        fields = [f.name for f in dataclasses.fields(kind.options)]
        assert [o["name"] for o in record["options"]] == fields


def test_instances_are_the_shipped_files(plain: TestClient) -> None:
    listed = plain.get("/api/instances").json()
    assert sorted(i["name"] for i in listed) == sorted(name_of(p) for p in SHIPPED)


@pytest.mark.parametrize("path", SHIPPED, ids=name_of)
def test_every_shipped_instance_reads_as_on_the_command_line(plain: TestClient, path: Path) -> None:
    expected = cspsolve.read(path)
    listed = plain.post("/api/read", json={"puzzle": {"instance": name_of(path)}})
    assert listed.status_code == 200, listed.text
    assert len(listed.json()["puzzles"]) == len(expected)
    if path.name == "petersen.edges":
        return  # a graph: read from its file only by extension, as the command line does
    pasted = plain.post("/api/read", json={"puzzle": {"text": path.read_text(), "name": path.name}})
    assert pasted.json()["kind"] == listed.json()["kind"] == path.parent.name
    assert len(pasted.json()["puzzles"]) == len(expected)
    uploaded = plain.post("/api/read", files={"file": (path.name, path.read_bytes())})
    assert uploaded.status_code == 200, uploaded.text
    assert uploaded.json()["puzzles"] == listed.json()["puzzles"]


def test_bad_text_gets_the_command_lines_message(plain: TestClient, tmp_path: Path) -> None:
    text = 'title "a"\nwidth 2\nheight 1\n\nrows\n1\n\ncolumns\n1\nx\n'
    (tmp_path / "pasted.non").write_text(text)
    with pytest.raises(InputError) as expected:
        cspsolve.read(tmp_path / "pasted.non")
    message = error_of(plain, "/api/read", {"puzzle": {"text": text, "name": "pasted.non"}})
    assert message == str(expected.value).replace(str(tmp_path / "pasted.non"), "pasted.non")
    unknown = error_of(plain, "/api/read", {"puzzle": {"text": "hello\n"}})
    assert unknown.startswith("pasted: cannot tell the puzzle kind")


def test_a_broken_puzzle_of_many_is_listed_with_what_is_wrong(plain: TestClient) -> None:
    text = "$1\n1\n1\n$2\n1\nx\n1\n1\n$3\n0\n1\n0\n1\n"
    source = {"text": text, "name": "t.txt"}
    listed = plain.post("/api/read", json={"puzzle": source}).json()["puzzles"]
    assert [(p["id"], p["line"]) for p in listed] == [(1, 1), (2, 4), (3, 9)]
    assert listed[1]["describe"] == "cannot be read (line 6: run length 'x' is not a whole number)"
    describe = registry.get("nonogram").describe
    for k, alone in ((0, "$1\n1\n1\n"), (2, "$3\n0\n1\n0\n1\n")):
        assert listed[k]["describe"] == describe(cspsolve.parse(alone)[0])
    message = error_of(plain, "/api/solve", {"puzzle": source, "entry": 1})
    assert message == "t.txt:6: puzzle $2: run length 'x' is not a whole number"


def test_binary_uploads_are_refused_in_one_line(plain: TestClient) -> None:
    answer = plain.post("/api/read", files={"file": ("x.non", b"width 1\n\x00\x01")})
    assert answer.status_code == 400
    assert answer.json()["error"] == "x.non:2: binary data (NUL byte), not a text puzzle file"


@pytest.mark.parametrize(
    "body",
    [
        {},
        {"puzzle": "duck.non"},
        {"puzzle": {}},
        {"puzzle": {"text": "x", "instance": "nonogram/duck.non"}},
        {"puzzle": {"text": 7}},
        {"puzzle": {"instance": "nonogram/duck.non"}, "method": "magic"},
        {"puzzle": {"instance": "nonogram/duck.non"}, "heuristic": "magic"},
        {"puzzle": {"instance": "nonogram/duck.non"}, "options": {"magic": True}},
        {"puzzle": {"instance": "nonogram/duck.non"}, "options": {"unique": "yes"}},
        {"puzzle": {"instance": "nonogram/duck.non"}, "options": []},
        {"puzzle": {"instance": "nonogram/duck.non"}, "time_limit": -1},
        {"puzzle": {"instance": "nonogram/duck.non"}, "time_limit": "ten"},
        {"puzzle": {"instance": "nonogram/duck.non"}, "time_limit": SETTINGS.max_time_limit + 1},
        {"puzzle": {"instance": "nonogram/duck.non"}, "entry": 5},
        {"puzzle": {"instance": "nonogram/duck.non"}, "entry": True},
        {"puzzle": {"instance": "nonogram/duck.non", "kind": "sudoku"}},
        {"puzzle": {"instance": "npuzzle/easy8.txt"}, "method": "astar", "heuristic": "lit"},
    ],
)
def test_bad_requests_are_one_line_errors(plain: TestClient, body: dict[str, object]) -> None:
    error_of(plain, "/api/solve", body)


def test_a_compare_of_nothing_is_refused_as_on_the_command_line(plain: TestClient) -> None:
    """The 15-puzzle's ``astar`` is compared with ``pdb`` only: no pair is left to run."""
    body = {"puzzle": {"instance": "npuzzle/korf15-easy.korf"}, "methods": ["astar"],
            "heuristics": ["misplaced"]}  # fmt: skip
    assert "no method/heuristic pair matches" in error_of(plain, "/api/compare", body)


def test_errors_name_what_the_library_names(plain: TestClient) -> None:
    duck = {"instance": "nonogram/duck.non"}
    with pytest.raises(cspsolve.errors.OptionError) as expected:
        cspsolve.solve(cspsolve.read(ROOT / "nonogram" / "duck.non")[0], method="magic")
    assert error_of(plain, "/api/solve", {"puzzle": duck, "method": "magic"}) == str(expected.value)


def test_a_request_names_no_path_the_server_reads(plain: TestClient, tmp_path: Path) -> None:
    secret = tmp_path / "secret.non"
    secret.write_text((ROOT / "nonogram" / "duck.non").read_text())
    for name in (
        "../../../etc/passwd",
        "/etc/passwd",
        str(secret),
        "nonogram/../nonogram/duck.non",
    ):
        message = error_of(plain, "/api/read", {"puzzle": {"instance": name}})
        assert message.endswith("no shipped instance of that name")
    # A file name only names the text sent: the file is never opened.
    message = error_of(plain, "/api/read", {"puzzle": {"text": "\n", "name": str(secret)}})
    assert message.startswith("secret.non:") and str(tmp_path) not in message


def test_oversized_input_is_refused(plain: TestClient) -> None:
    big = "#" * (SETTINGS.max_input_bytes + 1)
    message = error_of(plain, "/api/read", {"puzzle": {"text": big}}, status=413)
    assert f"{SETTINGS.max_input_bytes:,}" in message
    huge = b"x" * (SETTINGS.max_input_bytes * 4)
    answer = plain.post("/api/read", content=huge, headers={"content-type": "application/json"})
    assert answer.status_code == 413
    uploaded = plain.post("/api/read", files={"file": ("big.non", huge)})
    assert uploaded.status_code == 413
    chunks = iter([b'{"puzzle": {"text": "'] + [b"x" * 4096] * 64 + [b'"}}'])
    chunked = plain.post("/api/read", content=chunks, headers={"content-type": "application/json"})
    assert chunked.status_code == 413 and "larger than this server takes" in chunked.json()["error"]


def test_markup_in_input_is_never_echoed_as_html(plain: TestClient) -> None:
    text = f'title "{HOSTILE}"\nwidth 1\nheight 1\nrows\n{HOSTILE}\ncolumns\n1\n'
    answer = plain.post("/api/read", json={"puzzle": {"text": text, "name": f"{HOSTILE}.non"}})
    assert answer.status_code == 400
    assert answer.headers["content-type"] == "application/json"
    assert answer.headers["x-content-type-options"] == "nosniff"
    for path in ("/", "/static/app.js", "/jobs/nope/player"):
        assert HOSTILE not in plain.get(path).text


def test_unknown_jobs_are_404(plain: TestClient) -> None:
    assert plain.get("/api/jobs/nope").status_code == 404
    assert plain.delete("/api/jobs/nope").status_code == 404
    assert plain.get("/jobs/nope/player").status_code == 404


def test_a_full_queue_refuses_jobs() -> None:
    pool = Pool(1, max_queued=2)  # never started: jobs wait
    spec = Spec("solve", "npuzzle", None, cspsolve.tasks.Request(), 1.0)
    first, _ = pool.submit(spec), pool.submit(spec)
    with pytest.raises(BusyError):
        pool.submit(spec)
    pool.cancel(first)
    assert first.state == "cancelled" and first.over
    pool.submit(spec)


def test_every_element_the_script_uses_is_on_the_page(plain: TestClient) -> None:
    script, page = plain.get("/static/app.js").text, plain.get("/").text
    used = set(re.findall(r'\$\("([\w-]+)"\)', script))
    assert used and {name for name in used if f'id="{name}"' not in page} == set()
    actions = set(re.findall(r'data-action="(\w+)"', page))
    assert actions <= set(ACTIONS) and {"solve", "explain", "verify", "compare"} <= actions
