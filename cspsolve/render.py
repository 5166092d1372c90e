"""Text drawings of puzzle boards for the terminal."""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["labelled_grid"]


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
