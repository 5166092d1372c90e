"""Drawings of puzzle boards: text for the terminal, and the :class:`Scene` pictures are made of.

A puzzle kind describes what to draw as scenes (grids of coloured cells with text, marks and
labels); this module turns them into text or image files, so no kind draws pixels itself.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

__all__ = ["Scene", "labelled_grid"]


@dataclass(frozen=True)
class Scene:
    """One picture of a grid board, in terms of cells rather than pixels.

    Attributes
    ----------
    fills : tuple of tuples of (str or None)
        ``fills[r][c]`` is the colour of cell (r, c): a matplotlib colour (``"black"``,
        ``"#d62728"``); ``None`` leaves a gap (no cell there: a disabled cell, outside the board).
        All rows have the same length.
    texts : tuple of tuples of str
        Optional text centred in each cell (``""`` for none); empty, or the shape of ``fills``.
    marks : frozenset of (row, col)
        Cells marked with a ring (e.g. the cells to press in Lights Out).
    row_labels : tuple of str
        Optional text left of each row (a nonogram's row clue, ``"3 1 2"``).
    column_labels : tuple of str
        Optional text above each column, lines joined by ``"\\n"`` (a column clue stacked).
    walls : frozenset of (row, col, side)
        Thick borders: ``side`` is one of ``"N"``, ``"E"``, ``"S"``, ``"W"`` of cell (row, col)
        (e.g. the Rush Hour exit left open in the frame; the frame itself is always drawn).
    caption : str
        Text under the picture (``"move 3 of 12: A+2"``).
    """

    fills: tuple[tuple[str | None, ...], ...]
    texts: tuple[tuple[str, ...], ...] = ()
    marks: frozenset[tuple[int, int]] = field(default_factory=frozenset)
    row_labels: tuple[str, ...] = ()
    column_labels: tuple[str, ...] = ()
    walls: frozenset[tuple[int, int, str]] = field(default_factory=frozenset)
    caption: str = ""


def labelled_grid(
    cells: Sequence[Sequence[str]],
    row_labels: Sequence[Sequence[int]],
    column_labels: Sequence[Sequence[int]],
    cell_width: int = 2,
) -> str:
    """Draw a grid of cells with number labels left of each row and above each column.

    Parameters
    ----------
    cells : sequence of sequences of str
        ``cells[r][c]`` is drawn as is; each should be ``cell_width`` characters wide.
    row_labels : sequence of sequences of int
        Numbers written left of each row (e.g. a nonogram's row clues).
    column_labels : sequence of sequences of int
        Numbers stacked above each column, bottom-aligned.
    cell_width : int
        Width of one cell in characters.

    Returns
    -------
    str
        The drawing, lines separated by ``\\n``.
    """
    left = [" ".join(map(str, labels)) for labels in row_labels]
    margin = max((len(s) for s in left), default=0)
    tallest = max((len(labels) for labels in column_labels), default=0)
    lines = []
    for level in range(tallest):
        parts = []
        for labels in column_labels:
            k = level - (tallest - len(labels))
            parts.append(str(labels[k]).rjust(cell_width) if k >= 0 else " " * cell_width)
        lines.append(" " * margin + " " + "".join(parts))
    for label, row in zip(left, cells, strict=True):
        lines.append(label.rjust(margin) + " " + "".join(row))
    return "\n".join(lines)
