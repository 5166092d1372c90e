"""Nonograms drawn: grids with their clues as text for the terminal, and as scenes
(:mod:`cspsolve.render`) for the pictures of a solution and of an explanation's steps.

An explanation's state (:mod:`.explain`) is ``(codes, marks)``: the grid's cell masks as bytes
(bit ``v`` set: the cell may still take value ``v``; one byte a cell in black and white, where
value 1 is filled and 0 empty, four bytes in colour, where value ``c`` is colour ``c``), and the
cells the step decided. Its picture shows a decided cell in its colour, an open one grey, with
small swatches of the colours left when some are ruled out, and outlines the cells the step
decided; :func:`detail` adds what the step read (see :class:`cspsolve.render.Scene`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any

from cspsolve.explanation import Step
from cspsolve.render import Scene, labelled_grid
from cspsolve.scenes import ANSI_COLOURS

from .board import Grid
from .colour_board import ColourNonogram
from .solver import Puzzle

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

__all__ = [
    "UNDECIDED",
    "UNDECIDED_INK",
    "detail",
    "draw",
    "picture",
    "scenes",
    "state_scene",
    "state_text",
]

UNDECIDED = "?"
"""The character of an undecided cell in a partial grid (an explanation's states)."""
UNDECIDED_INK = "#c8c8c8"
"""The colour of an undecided cell in pictures."""
DECIDED_FILLED, DECIDED_EMPTY = "▓", "x"
"""How text draws the cells a step decided: a filled (or coloured) cell shaded, an empty one
crossed (an undecided cell is ``?``, a filled one ``█``, an empty one ``·``)."""


def _labels(puzzle: Puzzle) -> tuple[list[list[str]], list[list[str]]]:
    """The row and column clues as written: ``3`` (``3r`` for a block of colour ``r``)."""
    if isinstance(puzzle, ColourNonogram):
        return [puzzle.written(c) for c in puzzle.rows], [puzzle.written(c) for c in puzzle.columns]
    return [list(map(str, c)) for c in puzzle.rows], [list(map(str, c)) for c in puzzle.columns]


def _keys(puzzle: Puzzle) -> str:
    """Each value's grid character: ``.`` and ``#`` in black and white, the colours' keys."""
    if isinstance(puzzle, ColourNonogram):
        return "".join(c.key for c in puzzle.colours)
    return ".#"


def _inks(puzzle: Puzzle) -> dict[str, str]:
    """Each grid character's colour: a colour puzzle's ``#rrggbb``, else ``#`` black and ``.``
    white; :data:`UNDECIDED` grey."""
    if isinstance(puzzle, ColourNonogram):
        inks = {c.key: c.rgb for c in puzzle.colours}
    else:
        inks = {"#": "black", ".": "white"}
    return {**inks, UNDECIDED: UNDECIDED_INK}


def draw(puzzle: Puzzle, solution: Grid, decided: Iterable[tuple[int, int]] = ()) -> str:
    """The solved grid with its clues: ``██`` filled, `` ·`` empty (wider for long clues); in
    a colour puzzle each block in its colour (ANSI 24-bit colour codes), or, where text may not
    be coloured (:data:`~cspsolve.scenes.ANSI_COLOURS`: the command line's output is not a
    terminal), each cell by its colour's letter, as in the clues. A partial grid's undecided cells
    (:data:`UNDECIDED`) are drawn as `` ?``, and the ``decided`` ones as ``▓▓`` (filled or
    coloured) or `` x`` (empty).

    Examples
    --------
    >>> from cspsolve.models.nonogram import Nonogram
    >>> print(draw(Nonogram(rows=[(2,), (1,)], columns=[(2,), (1,)]), ("#?", "#."), [(1, 0)]))
       2 1
    2 ██ ?
    1 ▓▓ ·
    """
    rows, columns = _labels(puzzle)
    longest = max((len(n) for clue in columns for n in clue), default=1)
    width = max(2, longest + 1)
    glyphs = {
        key: _inked(puzzle, key, "█" * width, "·".rjust(width))
        for key in _keys(puzzle)
    }  # fmt: skip
    marked = {
        key: _inked(puzzle, key, DECIDED_FILLED * width, DECIDED_EMPTY.rjust(width))
        for key in _keys(puzzle)
    }  # fmt: skip
    glyphs[UNDECIDED] = marked[UNDECIDED] = UNDECIDED.rjust(width)
    chosen = set(decided)
    cells = [
        [(marked if (r, c) in chosen else glyphs)[ch] for c, ch in enumerate(row)]
        for r, row in enumerate(solution)
    ]
    return labelled_grid(cells, row_labels=rows, column_labels=columns, cell_width=width)


def _inked(puzzle: Puzzle, key: str, full: str, empty: str) -> str:
    """The glyph of a cell of character ``key``: ``empty`` for the background, else ``full``
    (in a colour puzzle, in the colour's ANSI code, or its letter ``key`` where text is not
    coloured)."""
    if key == _keys(puzzle)[0]:
        return empty
    if not isinstance(puzzle, ColourNonogram):
        return full
    if not ANSI_COLOURS.get():
        return key.rjust(len(full))
    red, green, blue = bytes.fromhex(_inks(puzzle)[key][1:])
    return f"\x1b[38;2;{red};{green};{blue}m{full}\x1b[0m"


def picture(
    puzzle: Puzzle, grid: Grid, caption: str, marks: Iterable[tuple[int, int]] = ()
) -> Scene:
    """A (partial) grid in the puzzle's colours, its clues left of the rows and stacked above
    the columns, ``marks`` ringed."""
    inks = _inks(puzzle)
    fills = tuple(tuple(inks[ch] for ch in row) for row in grid)
    rows, columns = _labels(puzzle)
    return Scene(
        fills,
        marks=frozenset(marks),
        row_labels=tuple(" ".join(clue) for clue in rows),
        column_labels=tuple("\n".join(clue) for clue in columns),
        caption=caption,
    )


def scenes(puzzle: Puzzle, solution: Grid) -> list[Scene]:
    """One picture: the solved grid (:func:`picture`) captioned with the puzzle's title."""
    return [picture(puzzle, solution, puzzle.title)]


# --- an explanation's states ------------------------------------------------------------------


def _masks(puzzle: Puzzle, codes: bytes) -> NDArray[np.uint32]:
    """A state's cell masks, row by row (see the module docstring)."""
    import numpy as np

    kind = np.uint32 if isinstance(puzzle, ColourNonogram) else np.uint8
    return np.frombuffer(codes, kind).reshape(puzzle.height, puzzle.width).astype(np.uint32)


def _open(puzzle: Puzzle, codes: bytes) -> Iterator[tuple[int, int, list[int]]]:
    """Every cell as ``(row, col, values left)``."""
    for r, row in enumerate(_masks(puzzle, codes).tolist()):
        for c, mask in enumerate(row):
            yield r, c, [v for v in range(mask.bit_length()) if mask >> v & 1]


def _grid(puzzle: Puzzle, codes: bytes) -> Grid:
    """A state's grid: each decided cell's character, :data:`UNDECIDED` where several values
    are left."""
    keys = _keys(puzzle)
    cells = [keys[left[0]] if len(left) == 1 else UNDECIDED for _, _, left in _open(puzzle, codes)]
    width = puzzle.width
    return tuple("".join(cells[k : k + width]) for k in range(0, len(cells), width))


def state_scene(puzzle: Puzzle, state: tuple[bytes, Any], caption: str) -> Scene:
    """An explanation's state as a picture: the decided cells in their colours, the open ones
    grey with a swatch of each colour left when some are ruled out, and the cells the step
    decided outlined."""
    codes, decided = state
    keys, inks = _keys(puzzle), _inks(puzzle)
    swatches = tuple(
        (r, c, tuple(inks[keys[v]] for v in left))
        for r, c, left in _open(puzzle, codes)
        if 1 < len(left) < len(keys)
    )
    drawn = picture(puzzle, _grid(puzzle, codes), caption)
    cells = frozenset((r, c) for r, c in decided)
    return dataclasses.replace(drawn, highlight=cells, swatches=swatches)


def state_text(puzzle: Puzzle, state: tuple[bytes, Any]) -> str:
    """An explanation's state as text (:func:`draw`), the cells the step decided marked."""
    codes, decided = state
    return draw(puzzle, _grid(puzzle, codes), [(r, c) for r, c in decided])


def detail(puzzle: Puzzle, scene: Scene, step: Step) -> Scene:
    """What a step adds to the picture of its state: the line a ``line`` step read; a
    probe's cell ringed with the value it assumed, the lines of its chain tinted with the
    values they gave, and its conflict line; the cell of a guess or a backtrack ringed; the
    line a contradiction found with no placement.

    Examples
    --------
    >>> from cspsolve.models.nonogram import Nonogram
    >>> puzzle = Nonogram(rows=[(1,), (1,)], columns=[(1,), (1,)])
    >>> probe = Step("probe", "...", {"cell": [0, 0], "assumed": 1,
    ...     "chain": [{"axis": "row", "index": 0, "fixed": [[0, 1, 0]]}],
    ...     "conflict": {"axis": "column", "index": 1}})
    >>> shown = detail(puzzle, Scene((("white", "white"),) * 2), probe)
    >>> shown.marks, shown.lines
    (frozenset({(0, 0)}), (('row', 0, 'chain'), ('column', 1, 'conflict')))
    >>> shown.dots
    ((0, 0, 'black'), (0, 1, 'white'))
    """
    data = step.data
    if step.rule == "line":
        return dataclasses.replace(scene, lines=((data["axis"], data["index"], "read"),))
    if step.rule == "contradiction":
        return dataclasses.replace(scene, lines=((data["axis"], data["index"], "conflict"),))
    if step.rule in ("guess", "backtrack"):
        return dataclasses.replace(scene, marks=frozenset({tuple(data["cell"])}))
    if step.rule != "probe":
        return scene
    row, col = data["cell"]
    chain = data["chain"]
    lines = [(entry["axis"], entry["index"], "chain") for entry in chain if "axis" in entry]
    conflict = data["conflict"]
    lines.append((conflict["axis"], conflict["index"], "conflict"))
    given = [(row, col, [data["assumed"]]), *_given(chain)]
    values = _value_inks(puzzle)
    dots = tuple((r, c, values[left[0]]) for r, c, left in given if len(left) == 1)
    return dataclasses.replace(scene, marks=frozenset({(row, col)}), lines=tuple(lines), dots=dots)


def _given(chain: list[dict[str, Any]]) -> Iterator[tuple[int, int, list[int]]]:
    """The values a probe's chain gave cells, in order: ``(row, col, values left)``."""
    for entry in chain:
        for r, c, value in entry.get("fixed", ()):
            yield r, c, [value]
        for r, c, left in entry.get("narrowed", ()):
            yield r, c, list(left)


def _value_inks(puzzle: Puzzle) -> list[str]:
    """Each value's colour (a value is 0 empty and 1 filled, or a colour's index)."""
    inks = _inks(puzzle)
    return [inks[key] for key in _keys(puzzle)]
