"""Sliding-tile boards drawn: as text for the terminal, and as scenes (:mod:`cspsolve.render`)
for the pictures of a plan and of its explanation."""

from __future__ import annotations

from cspsolve.render import Scene, plural

from .board import Plan, Puzzle, apply

__all__ = ["draw", "picture", "scenes", "text"]


def text(puzzle: Puzzle, tiles: tuple[int, ...]) -> list[str]:
    """The board's rows as text, ``.`` for the blank."""
    width = len(str(puzzle.cells - 1))
    return [
        " ".join(
            str(t).rjust(width) if t else ".".rjust(width)
            for t in tiles[r * puzzle.cols :][: puzzle.cols]
        )
        for r in range(puzzle.rows)
    ]


def draw(puzzle: Puzzle, solution: Plan) -> str:
    """The start and the goal side by side, then the moves of the blank."""
    start, goal = text(puzzle, puzzle.start), text(puzzle, puzzle.goal)
    lines = [
        f"{a}   {'->' if i == puzzle.rows // 2 else '  '}   {b}"
        for i, (a, b) in enumerate(zip(start, goal, strict=True))
    ]
    moves = " ".join(solution) if solution else "(already solved)"
    count = f"{plural(len(solution), 'move')}"
    return "\n".join([*lines, f"{count} of the blank: {moves}"])


def picture(puzzle: Puzzle, tiles: tuple[int, ...], caption: str) -> Scene:
    """A board of ``puzzle``: the tiles as numbered cells, the blank white."""
    rows = [tiles[r * puzzle.cols : (r + 1) * puzzle.cols] for r in range(puzzle.rows)]
    fills = tuple(tuple("white" if t == 0 else "#f2d08a" for t in row) for row in rows)
    texts = tuple(tuple(str(t) if t else "" for t in row) for row in rows)
    return Scene(fills, texts, caption=caption)


def scenes(puzzle: Puzzle, solution: Plan) -> list[Scene]:
    """One picture per board along the plan: the start, then the board after every move."""
    boards = [puzzle.start]
    for move in solution:
        boards.append(apply(puzzle, boards[-1], move=move))
    return [
        picture(
            puzzle, tiles, "start" if k == 0 else f"move {k} of {len(solution)}: {solution[k - 1]}"
        )
        for k, tiles in enumerate(boards)
    ]
