"""The tables the command prints: numbers written alike in every one (thousands separators
for counts, three significant digits for fractions, ``-`` for nothing), and columns never
narrower than their longest word, so that a table at 80 columns wraps between words."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rich.table import Table

NOTHING = "-"
"""What a table shows for a value that is not there."""


def significant(x: float, places: int = 3) -> str:
    """``x`` to three significant digits, in fixed notation with thousands separators (whole
    from 1,000), and at most ``places`` decimals (seconds are shown to the millisecond).

    Examples
    --------
    >>> significant(0.5317), significant(12.345), significant(1234.5), significant(0.00005)
    ('0.532', '12.3', '1,234', '0')
    >>> significant(0.042392, places=6), significant(0), significant(-2.5)
    ('0.0424', '0', '-2.50')
    """
    if x == 0 or not math.isfinite(x):
        return f"{x:g}"
    digits = min(places, max(0, 2 - math.floor(math.log10(abs(x)))))
    shown = f"{x:,.{digits}f}"
    return "0" if float(shown.replace(",", "")) == 0 else shown


def cell(value: Any) -> str:
    """A value as a table shows it: a count with thousands separators, a fraction to three
    significant digits, yes/no, ``-`` for nothing; a list as its items, a mapping as its
    named items (names with spaces for underscores), never as JSON.

    Examples
    --------
    >>> cell(8388608), cell(0.155332), cell(True), cell(None), cell(14.0)
    ('8,388,608', '0.155', 'yes', '-', '14')
    >>> cell([185, 1023, 6])
    '185 1,023 6'
    >>> cell({"mean": 6.92, "max": 16, "hardest_start": {"optimal_moves": 14}})
    'mean 6.92; max 16; hardest start (optimal moves 14)'
    """
    if value is None:
        return NOTHING
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int) or (isinstance(value, float) and value.is_integer()):
        return f"{int(value):,}"
    if isinstance(value, float):
        return significant(value, places=6)
    if isinstance(value, dict):
        named = (f"{name(k)} {_nested(v)}" for k, v in value.items())
        return "; ".join(named)
    if isinstance(value, list | tuple):
        return " ".join(_nested(v) for v in value)
    return str(value)


def _nested(value: Any) -> str:
    """A value inside a list or a mapping: bracketed when it has parts of its own."""
    shown = cell(value)
    return f"({shown})" if isinstance(value, dict | list | tuple) else shown


def name(key: str) -> str:
    """A JSON key as a table's words: ``solution_density`` is ``solution density``."""
    return key.replace("_", " ")


def table(
    title: str,
    header: Sequence[str],
    rows: Sequence[Sequence[str]],
    styles: Sequence[str | None] = (),
) -> Table:
    """A table of ``rows`` under ``header``: a rule under the header, columns two spaces
    apart, each as wide as its longest word at least (:func:`whole_words`), a column of
    numbers set right; row ``k`` in rich's style ``styles[k]`` when there is one."""
    from rich import box
    from rich.table import Table

    made = Table(
        title=title,
        title_justify="left",
        box=box.SIMPLE_HEAD,
        show_edge=False,
        pad_edge=False,
        collapse_padding=True,
    )
    for number, heading in enumerate(header):
        shown = [row[number] for row in rows if row[number] != NOTHING]
        figures = bool(shown) and all(map(_figure, shown))
        made.add_column(heading, justify="right" if figures else "left")
    whole_words(made, rows)
    for number, row in enumerate(rows):
        made.add_row(*row, style=styles[number] if number < len(styles) else None)
    return made


def _figure(shown: str) -> bool:
    """Whether a cell shows a number."""
    return shown.replace(",", "").replace(".", "").lstrip("-").isdigit()


def whole_words(table: Table, rows: Sequence[Sequence[str]]) -> None:
    """Give each column of ``table`` the width of its longest word (header included), so
    that a narrow console wraps its cells between words and never inside one."""
    for number, column in enumerate(table.columns):
        words = str(column.header).split()
        words += [word for row in rows for word in row[number].split()]
        column.min_width = max(column.min_width or 0, *map(len, words))
