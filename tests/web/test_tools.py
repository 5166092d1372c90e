"""The nonogram designer and Lights Out play: clues and files of a drawing, drawings traced
from images, the board after presses, checked against run lengths, solutions and press rules
written here, and by brute force over every grid or press set of small boards."""

from __future__ import annotations

import io
import itertools
import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

import cspsolve
from cspsolve.instances import ROOT
from cspsolve.web.app import create_app
from cspsolve.web.design import MAX_SIDE

from .conftest import HOSTILE, SETTINGS, client_of, finished, started

DIAGONAL = ["#.", ".#"]
"""Two solutions: the other diagonal differs in every cell."""


def runs(line: str) -> list[int]:
    """The lengths of the runs of ``#`` in ``line``."""
    return [len(run) for run in line.replace(".", " ").split()]


def columns(grid: list[str]) -> list[str]:
    return ["".join(row[c] for row in grid) for c in range(len(grid[0]))]


def every_solution(grid: list[str]) -> list[list[str]]:
    """Every grid of the drawing's size with the drawing's clues (by brute force)."""
    height, width = len(grid), len(grid[0])
    want = ([runs(r) for r in grid], [runs(c) for c in columns(grid)])
    found = []
    for bits in itertools.product(".#", repeat=width * height):
        rows = ["".join(bits[r * width : (r + 1) * width]) for r in range(height)]
        if ([runs(r) for r in rows], [runs(c) for c in columns(rows)]) == want:
            found.append(rows)
    return found


drawings = st.integers(1, 3).flatmap(
    lambda w: st.lists(st.text("#.", min_size=w, max_size=w), min_size=1, max_size=3)
)


# --- the designer's files --------------------------------------------------------------------


@settings(max_examples=25, deadline=None)
@given(drawings, st.sampled_from(["non", "nin", "xml"]))
def test_a_drawings_file_reads_back_to_its_runs(grid: list[str], fmt: str) -> None:
    client = client_of(create_app(SETTINGS))
    answer = client.get("/api/design/file", params={"grid": "/".join(grid), "format": fmt})
    assert answer.status_code == 200, answer.text
    name = answer.headers["content-disposition"].split('"')[1]
    assert name == f"design.{fmt}"
    (puzzle,) = (e.puzzle for e in cspsolve.api.parser(cspsolve.registry.get("nonogram"))(
        answer.text, name))  # fmt: skip
    assert [list(r) for r in puzzle.rows] == [runs(r) for r in grid]
    assert [list(c) for c in puzzle.columns] == [runs(c) for c in columns(grid)]


def test_a_title_names_the_file_and_stays_text(plain: TestClient) -> None:
    answer = plain.get(
        "/api/design/file", params={"grid": "#", "format": "non", "title": f"a {HOSTILE}"}
    )
    assert answer.status_code == 200
    disposition = answer.headers["content-disposition"]
    assert re.fullmatch(r'attachment; filename="a-[\w-]+\.non"', disposition), disposition
    assert answer.headers["content-type"].startswith("text/plain")
    assert "<script>" not in answer.text


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ({"grid": "#.", "format": "pdf"}, "format must be one of non, nin, xml"),
        ({"grid": "#./#", "format": "non"}, "row 2 has 1 cells, the first 2"),
        ({"grid": "#a", "format": "non"}, "row 1 holds other than '#' and '.'"),
        ({"grid": "", "format": "non"}, f"a drawing has 1 to {MAX_SIDE} rows and columns"),
        ({"grid": "#" * (MAX_SIDE + 1), "format": "non"}, "1 to"),
        ({"grid": "#", "format": "non", "title": "a\nb"}, "the title must be one line"),
    ],
)
def test_bad_drawings_are_one_line_errors(
    plain: TestClient, query: dict[str, str], message: str
) -> None:
    answer = plain.get("/api/design/file", params=query)
    assert answer.status_code == 400
    assert message in answer.json()["error"] and "\n" not in answer.json()["error"]
    if not message.startswith("format"):
        job = plain.post("/api/design", json={**query, "grid": query["grid"].split("/")})
        assert job.status_code == 400 and message in job.json()["error"]


# --- the designer: a drawing traced from an image ---------------------------------------------


def image_of(grid: list[str], scale: int, fmt: str = "PNG") -> bytes:
    """``grid`` drawn as an image, each cell ``scale`` pixels square (black filled, white
    empty; the empty cells of a PNG transparent)."""
    from PIL import Image, ImageDraw

    mode, empty = ("RGBA", (0, 0, 0, 0)) if fmt == "PNG" else ("RGB", "white")
    image = Image.new(mode, (len(grid[0]) * scale, len(grid) * scale), empty)
    pen = ImageDraw.Draw(image)
    for r, row in enumerate(grid):
        for c, ch in enumerate(row):
            if ch == "#":
                box = (c * scale, r * scale, (c + 1) * scale - 1, (r + 1) * scale - 1)
                pen.rectangle(box, fill="black")
    out = io.BytesIO()
    image.save(out, fmt)
    return out.getvalue()


@settings(max_examples=20, deadline=None)
@given(drawings, st.integers(1, 9), st.sampled_from(["PNG", "GIF", "BMP"]))
def test_an_image_is_traced_cell_by_cell(grid: list[str], scale: int, fmt: str) -> None:
    client = client_of(create_app(SETTINGS))
    size = {"width": str(len(grid[0])), "height": str(len(grid))}
    answer = client.post(
        "/api/design/image", files={"file": ("x.img", image_of(grid, scale, fmt))}, data=size
    )
    assert answer.status_code == 200, answer.text
    assert answer.json()["grid"] == grid


@pytest.mark.parametrize(
    ("data", "size", "message"),
    [
        (b"GIF89a not really", {"width": "3", "height": "3"}, "a.png: not a PNG, GIF"),
        (b"%PDF-1.4", {"width": "3", "height": "3"}, "a.png: not a PNG, GIF"),
        (None, {"width": "3", "height": "3"}, "a.png: the image has more than 16,777,216 pixels"),
        (b"", {"width": "0", "height": "3"}, "width must be a whole number from 1 to"),
        (b"", {"width": "3", "height": "many"}, "height must be a whole number from 1 to"),
    ],
)
def test_bad_images_are_one_line_errors(
    plain: TestClient, data: bytes | None, size: dict[str, str], message: str
) -> None:
    if data is None:  # 5000 x 5000 pixels, a small file
        from PIL import Image

        out = io.BytesIO()
        Image.new("1", (5000, 5000)).save(out, "PNG")
        data = out.getvalue()
    answer = plain.post("/api/design/image", files={"file": ("x\\a.png", data)}, data=size)
    assert answer.status_code == 400, answer.text
    error = answer.json()["error"]
    assert message in error and "\n" not in error


# --- Lights Out: the press rule ----------------------------------------------------------------

FIVE = (ROOT / "lightsout" / "classic-5x5.lo").read_text()


def pressed_by_hand(rows: list[str], presses: list[list[int]], *, own: bool = True) -> list[str]:
    """The board (``1`` or ``#`` lit) after ``presses``: each press toggles the cell
    (``own``) and its orthogonal neighbours on the board."""
    lit = [[ch in "1#" for ch in row] for row in rows]
    for r, c in presses:
        for dr, dc in ((0, 0), (-1, 0), (1, 0), (0, -1), (0, 1)):
            rr, cc = r + dr, c + dc
            if (dr, dc) == (0, 0) and not own:
                continue
            if 0 <= rr < len(lit) and 0 <= cc < len(lit[0]):
                lit[rr][cc] = not lit[rr][cc]
    return ["".join("#" if on else "." for on in row) for row in lit]


def played(client: TestClient, text: str, presses: list[list[int]]) -> dict[str, Any]:
    answer = client.post(
        "/api/play", json={"puzzle": {"text": text, "kind": "lightsout"}, "presses": presses}
    )
    assert answer.status_code == 200, answer.text
    return answer.json()


@settings(max_examples=30, deadline=None)
@given(st.lists(st.lists(st.integers(0, 4), min_size=2, max_size=2), max_size=12))
def test_presses_follow_the_press_rule(presses: list[list[int]]) -> None:
    board = played(client_of(create_app(SETTINGS)), FIVE, presses)
    want = pressed_by_hand(FIVE.splitlines()[2:], presses)
    assert board["rows"] == want
    assert board["lit"] == "".join(want).count("#")
    assert board["solved"] == (board["lit"] == 0)
    odd = {(r, c) for r, c in presses if presses.count([r, c]) % 2}
    assert {tuple(p) for p in board["pressed"]} == odd


def test_the_sigma_variant_leaves_the_pressed_cell(plain: TestClient) -> None:
    text = "variant: sigma\n000\n000\n000\n"
    board = played(plain, text, [[1, 1]])
    assert (
        board["rows"]
        == pressed_by_hand(["000"] * 3, [[1, 1]], own=False)
        == [
            ".#.",
            "#.#",
            ".#.",
        ]
    )


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (
            {"puzzle": {"text": FIVE, "name": "a.lo"}, "presses": [[5, 0]]},
            "(5, 0) is off the 5x5 board",
        ),
        ({"puzzle": {"text": FIVE, "name": "a.lo"}, "presses": [[0]]}, "[row, column] pairs"),
        ({"puzzle": {"text": FIVE, "name": "a.lo"}, "presses": "a1"}, "presses must be a list"),
        ({"puzzle": {"instance": "lightsout/holes-6x6.lo"}, "presses": []}, None),
        ({"puzzle": {"instance": "lightsout/petersen.edges"}}, "only a Lights Out grid"),
        ({"puzzle": {"instance": "nonogram/duck.non"}}, "can be played here"),
    ],
)
def test_bad_plays_are_one_line_errors(
    plain: TestClient, body: dict[str, Any], message: str | None
) -> None:
    answer = plain.post("/api/play", json=body)
    if message is None:  # a board with holes plays; a hole cannot be pressed
        rows = answer.json()["rows"]
        hole = next([r, c] for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == "x")
        answer = plain.post("/api/play", json={**body, "presses": [hole]})
        message = "is a disabled cell"
    assert answer.status_code == 400
    assert message in answer.json()["error"] and "\n" not in answer.json()["error"]


# --- jobs: the designer's check and the hint ---------------------------------------------------


@pytest.mark.slow
@settings(max_examples=12, deadline=None)
@given(drawings)
def test_the_check_says_what_brute_force_finds(served: TestClient, grid: list[str]) -> None:
    job = finished(served, started(served, "design", {"grid": grid}))
    assert job["state"] == "done", job["error"]
    answer = job["answer"]
    solutions = every_solution(grid)
    assert answer["unique"] is (len(solutions) == 1)
    assert answer["rows"] == [runs(r) for r in grid]
    if len(solutions) == 1:
        assert answer["differ"] == [] and answer["other"] is None
    else:
        assert answer["other"] in solutions and answer["other"] != grid
        assert answer["differ"] == [
            [r, c]
            for r in range(len(grid))
            for c in range(len(grid[0]))
            if grid[r][c] != answer["other"][r][c]
        ]
    if answer["line_solvable"]:
        assert len(solutions) == 1  # line logic only fixes what every solution shares


@pytest.mark.slow
def test_the_check_tells_line_logic_from_search(served: TestClient) -> None:
    cross = finished(served, started(served, "design", {"grid": [".#.", "###", ".#."]}))
    assert cross["answer"]["line_solvable"] is True and cross["answer"]["unique"] is True
    diagonal = finished(served, started(served, "design", {"grid": DIAGONAL}))["answer"]
    assert diagonal["line_solvable"] is False and diagonal["unique"] is False
    assert diagonal["differ"] == [[0, 0], [0, 1], [1, 0], [1, 1]]


def fewest_presses(rows: list[str]) -> int:
    """The fewest presses that turn a small board off (by trying every press set)."""
    cells = [[r, c] for r in range(len(rows)) for c in range(len(rows[0]))]
    for size in range(len(cells) + 1):
        for chosen in itertools.combinations(cells, size):
            if "#" not in "".join(pressed_by_hand(rows, list(chosen))):
                return size
    raise AssertionError("unsolvable")


@pytest.mark.slow
def test_a_hint_is_a_press_of_a_minimum_solution(served: TestClient) -> None:
    text = "101\n010\n111\n"
    made: list[list[int]] = [[0, 0]]
    while True:
        now = pressed_by_hand(text.split(), made)
        body = {"puzzle": {"text": text, "kind": "lightsout"}, "presses": made}
        job = finished(served, started(served, "hint", body))
        assert job["state"] == "done", job["error"]
        answer = job["answer"]
        fewest = fewest_presses(now)
        assert answer["left"] == fewest and answer["minimum"] is True
        if fewest == 0:
            assert answer["press"] is None
            break
        made.append(answer["press"])
        after = pressed_by_hand(text.split(), made)
        assert fewest_presses(after) == fewest - 1


# --- the sliding tiles, tap by tap -------------------------------------------------------------

SIX = "4 1 2\n0 5 3\n"
"""A 2 x 3 board, 4 moves from its goal (1 2 3 / 4 5 0)."""


def tapped_by_hand(rows: list[list[int]], taps: list[list[int]]) -> list[list[int]]:
    """The board after ``taps``: each must be on a tile beside the blank, which it swaps with."""
    board = [row[:] for row in rows]
    for r, c in taps:
        (br, bc) = next((i, j) for i, row in enumerate(board) for j, t in enumerate(row) if t == 0)
        assert abs(br - r) + abs(bc - c) == 1, "not beside the blank"
        board[br][bc], board[r][c] = board[r][c], 0
    return board


def tiles_played(client: TestClient, text: str, taps: list[list[int]]) -> Any:
    body = {"puzzle": {"text": text, "kind": "npuzzle"}, "presses": taps}
    return client.post("/api/play", json=body)


@settings(max_examples=30, deadline=None)
@given(st.lists(st.integers(0, 3), max_size=14))
def test_taps_slide_tiles_by_the_rules(choices: list[int]) -> None:
    """Each tap is drawn among the cells beside the blank (a choice past their number is a tap
    on a cell that is not, which is refused and leaves the board as it was)."""
    client = client_of(create_app(SETTINGS))
    start = [[int(t) for t in line.split()] for line in SIX.splitlines()]
    taps: list[list[int]] = []
    for choice in choices:
        board = tapped_by_hand(start, taps)
        br, bc = next((i, j) for i, row in enumerate(board) for j, t in enumerate(row) if t == 0)
        beside = [[br + dr, bc + dc] for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))
                  if 0 <= br + dr < 2 and 0 <= bc + dc < 3]  # fmt: skip
        if choice < len(beside):
            taps.append(beside[choice])
        else:
            far = next([r, c] for r in range(2) for c in range(3) if abs(r - br) + abs(c - bc) > 1)
            refused = tiles_played(client, SIX, [*taps, far])
            assert refused.status_code == 400 and "not next to the blank" in refused.json()["error"]
    answer = tiles_played(client, SIX, taps)
    assert answer.status_code == 200, answer.text
    board = answer.json()
    want = tapped_by_hand(start, taps)
    assert board["labels"] == [[str(t) if t else "" for t in row] for row in want]
    goal = [[1, 2, 3], [4, 5, 0]]
    assert board["solved"] == (want == goal)
    misplaced = sum(
        t != g and t != 0
        for row, grow in zip(want, goal, strict=True)
        for t, g in zip(row, grow, strict=True)
    )
    assert board["misplaced"] == misplaced


def distances(goal: tuple[int, ...], cols: int) -> dict[tuple[int, ...], int]:
    """Every board's fewest moves to ``goal``: breadth-first search from it (moves reverse)."""
    seen = {goal: 0}
    frontier = [goal]
    while frontier:
        after: list[tuple[int, ...]] = []
        for tiles in frontier:
            blank = tiles.index(0)
            r, c = divmod(blank, cols)
            for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
                if 0 <= r + dr < len(tiles) // cols and 0 <= c + dc < cols:
                    board = list(tiles)
                    other = (r + dr) * cols + c + dc
                    board[blank], board[other] = board[other], 0
                    if tuple(board) not in seen:
                        seen[tuple(board)] = seen[tiles] + 1
                        after.append(tuple(board))
        frontier = after
    return seen


@pytest.mark.slow
def test_a_tile_hint_is_a_move_of_a_shortest_plan(served: TestClient) -> None:
    text = "5 4 3\n0 2 1\n"  # far from home
    start = [[int(t) for t in line.split()] for line in text.splitlines()]
    fewest = distances((1, 2, 3, 4, 5, 0), 3)
    made: list[list[int]] = []
    while True:
        now = tuple(t for row in tapped_by_hand(start, made) for t in row)
        body = {"puzzle": {"text": text, "kind": "npuzzle"}, "presses": made}
        job = finished(served, started(served, "hint", body))
        assert job["state"] == "done", job["error"]
        answer = job["answer"]
        assert answer["left"] == fewest[now] and answer["minimum"] is True
        if fewest[now] == 0:
            assert answer["press"] is None and answer["words"] == "every tile is home"
            break
        made.append(answer["press"])
        after = tuple(t for row in tapped_by_hand(start, made) for t in row)
        assert fewest[after] == fewest[now] - 1


# --- Rush Hour, slide by slide ------------------------------------------------------------------

SMALL = "ooBo\nAABo\noooo\nCCoo\n"
"""A 4 x 4 board: B must go down 2 before A leaves (C can block B's way)."""


def slide_by_hand(rows: list[str], slide: list[int]) -> list[str] | None:
    """The grid after dragging the piece at ``slide[:2]`` so that cell lands on ``slide[2:]``,
    or ``None`` when that is no legal slide (across the piece's axis, off the board, or
    through a cell that is not empty)."""
    r, c, r2, c2 = slide
    name = rows[r][c]
    if name in "ox":
        return None
    cells = [(i, j) for i, row in enumerate(rows) for j, ch in enumerate(row) if ch == name]
    flat = len({i for i, _ in cells}) == 1
    dr, dc = (0, c2 - c) if flat else (r2 - r, 0)
    if (r2 != r if flat else c2 != c) or (dr, dc) == (0, 0):
        return None
    moved = [(i + dr, j + dc) for i, j in cells]
    step = (0, 1 if dc > 0 else -1) if flat else (1 if dr > 0 else -1, 0)
    swept = {
        (i + k * step[0], j + k * step[1]) for i, j in cells for k in range(1, abs(dr + dc) + 1)
    }
    size = len(rows)
    if any(not (0 <= i < size and 0 <= j < size) for i, j in moved):
        return None
    if any(rows[i][j] not in ("o", name) for i, j in swept):
        return None
    grid = [list(row) for row in rows]
    for i, j in cells:
        grid[i][j] = "o"
    for i, j in moved:
        grid[i][j] = name
    return ["".join(row) for row in grid]


def cars_played(client: TestClient, text: str, slides: list[list[int]]) -> Any:
    body = {"puzzle": {"text": text, "name": "small.rh"}, "presses": slides}
    return client.post("/api/play", json=body)


@settings(max_examples=40, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(0, 3), st.integers(0, 3), st.integers(0, 3), st.integers(0, 3)),
        max_size=8,
    )
)
def test_slides_follow_the_rules(drawn: list[tuple[int, int, int, int]]) -> None:
    """Each slide drawn is made when the rule written here allows it, and refused (leaving the
    board as it was) when it does not."""
    client = client_of(create_app(SETTINGS))
    rows, made = SMALL.split(), []
    for slide in map(list, drawn):
        after = slide_by_hand(rows, slide)
        answer = cars_played(client, SMALL, [*made, slide])
        if after is None:
            assert answer.status_code == 400, (rows, slide)
            assert "\n" not in answer.json()["error"]
        else:
            assert answer.status_code == 200, (rows, slide, answer.text)
            rows, made = after, [*made, slide]
    board = cars_played(client, SMALL, made).json()
    assert [["" if ch == "o" else ch for ch in row] for row in rows] == board["labels"]
    assert board["solved"] == (rows[1][2:] == "AA")


def moves_left(rows: list[str]) -> int:
    """The fewest slides (any length) that bring A to the right edge: breadth-first search over
    grids, with the slides of :func:`slide_by_hand`."""
    seen, frontier, depth = {tuple(rows)}, [rows], 0
    while frontier:
        if any(grid[1][2:] == "AA" for grid in frontier):
            return depth
        after = []
        for grid in frontier:
            for r, c, r2, c2 in itertools.product(range(4), repeat=4):
                moved = slide_by_hand(grid, [r, c, r2, c2])
                if moved is not None and tuple(moved) not in seen:
                    seen.add(tuple(moved))
                    after.append(moved)
        frontier, depth = after, depth + 1
    raise AssertionError("no plan")


@pytest.mark.slow
def test_a_slide_hint_is_a_move_of_a_shortest_plan(served: TestClient) -> None:
    rows, made = SMALL.split(), []
    while True:
        body = {"puzzle": {"text": SMALL, "name": "small.rh"}, "presses": made}
        job = finished(served, started(served, "hint", body))
        assert job["state"] == "done", job["error"]
        answer = job["answer"]
        assert answer["left"] == moves_left(rows) and answer["minimum"] is True
        if answer["left"] == 0:
            assert answer["press"] is None
            break
        slide = [*answer["press"], *answer["to"]]
        after = slide_by_hand(rows, slide)
        assert after is not None and moves_left(after) == answer["left"] - 1
        rows, made = after, [*made, slide]
