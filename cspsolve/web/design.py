"""The page's designer: drawings sent or traced from images (:mod:`cspsolve.tracing`), and the
kind that designs.

A drawing is a list of rows of ``#`` (filled) and ``.`` (empty), all of one length. The first
kind that declares a :class:`~cspsolve.kind.Designer` makes a puzzle of it, checks it (a job
in a worker) and writes its files, as text to memory, never to a path.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from cspsolve import registry
from cspsolve.errors import OptionError
from cspsolve.kind import Designer, Kind
from cspsolve.tracing import Grid

__all__ = [
    "MAX_SIDE",
    "MAX_TITLE",
    "Design",
    "Grid",
    "design",
    "designer",
    "drawing",
    "side",
    "titled",
]

MAX_SIDE = 60
"""The widest and tallest drawing the designer takes."""

MAX_TITLE = 200
"""The longest title, in characters."""


def drawing(raw: Any) -> Grid:
    """The drawing a request sends: 1 to :data:`MAX_SIDE` rows of ``#`` and ``.``, of one
    length of 1 to :data:`MAX_SIDE` (``/`` may separate the rows of one string).

    Raises
    ------
    OptionError
        For anything else, saying what is wrong.
    """
    rows = raw.split("/") if isinstance(raw, str) else raw
    if not isinstance(rows, list) or not all(isinstance(row, str) for row in rows):
        raise OptionError("the drawing must be a list of rows of '#' and '.'")
    if not 1 <= len(rows) <= MAX_SIDE or not 1 <= len(rows[0]) <= MAX_SIDE:
        raise OptionError(f"a drawing has 1 to {MAX_SIDE} rows and columns")
    for number, row in enumerate(rows, 1):
        if len(row) != len(rows[0]):
            raise OptionError(f"row {number} has {len(row)} cells, the first {len(rows[0])}")
        if set(row) - {"#", "."}:
            raise OptionError(f"row {number} holds other than '#' and '.'")
    return tuple(rows)


def side(raw: Any, what: str) -> int:
    """A width or height a request sends (a whole number from 1 to :data:`MAX_SIDE`).

    Raises
    ------
    OptionError
        For anything else.
    """
    if isinstance(raw, str) and raw.strip().isdigit():
        raw = int(raw)
    if not isinstance(raw, int) or isinstance(raw, bool) or not 1 <= raw <= MAX_SIDE:
        raise OptionError(f"{what} must be a whole number from 1 to {MAX_SIDE}")
    return raw


def titled(raw: Any) -> str:
    """The title a request sends (``None`` or empty: none).

    Raises
    ------
    OptionError
        For a title that is not a string of at most :data:`MAX_TITLE` characters on one line.
    """
    raw = raw or ""
    if not isinstance(raw, str) or len(raw) > MAX_TITLE or "\n" in raw or "\r" in raw:
        raise OptionError(f"the title must be one line of at most {MAX_TITLE} characters")
    return raw


def designer() -> tuple[Kind, Designer] | None:
    """The first kind (in sniffing order) that declares a designer, and its designer."""
    for kind in registry.kinds().values():
        tool = kind.tools.get("design")
        if isinstance(tool, Designer):
            return kind, tool
    return None


@dataclass(frozen=True)
class Design:
    """A drawing made a puzzle: the kind and designer that made it, its title and puzzle."""

    kind: Kind
    tool: Designer
    title: str
    puzzle: Any

    def file(self, fmt: Any) -> tuple[str, str]:
        """The puzzle's file in format ``fmt``, one of the designer's
        :attr:`~cspsolve.kind.Designer.files`: its name (made of the title) and text.

        Raises
        ------
        OptionError
            For a format the designer does not write.
        """
        if fmt not in self.tool.files:
            raise OptionError(f"format must be one of {', '.join(self.tool.files)}")
        stem = "".join(ch if ch.isalnum() or ch in "-_" else "-" for ch in self.title)[:40]
        return f"{stem.strip('-') or 'design'}.{fmt}", self.tool.files[fmt](self.puzzle)


def design(grid: Any, title: Any) -> Design:
    """The puzzle of the drawing and title a request sends.

    Raises
    ------
    OptionError
        For a drawing or title that is not such (see :func:`drawing`, :func:`titled`), or when
        no kind declares a designer.
    """
    found = designer()
    if found is None:
        raise OptionError("no puzzle kind here declares a designer")
    kind, tool = found
    drawn, named = drawing(grid), titled(title)
    return Design(kind, tool, named, tool.puzzle(drawn, named))
