"""Colours as files write them: declarations, keyed clues such as ``2r,1b``, and goal pictures.

The ``.non`` reader (:mod:`.formats`) and the webpbn XML reader (:mod:`.web`) both turn what
they read into :class:`~..colour_board.Colour` objects here, so that a colour is checked the
same way in either format; every problem is an :class:`~cspsolve.errors.InputError` at its
line.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from cspsolve.errors import InputError

from ..board import Grid
from ..colour_board import BACKGROUND, MAX_COLOURS, Colour, ColourClue

__all__ = ["WHITE", "colour_clue", "declare", "free_key", "goal_of", "rgb", "written"]

WHITE = Colour(BACKGROUND, "white", "#ffffff")
"""The background when a file names none."""

_HEX = re.compile(r"#?([0-9A-Fa-f]{3}|[0-9A-Fa-f]{6})")
_BLOCK = re.compile(r"([0-9]{1,6})([A-Za-z]?)")


def rgb(text: str, source: str, line: int) -> str:
    """``#rrggbb`` from ``rrggbb``, ``#rrggbb``, ``rgb`` or ``#rgb`` (hex digits).

    Examples
    --------
    >>> rgb("F80", "a.xml", 1)
    '#ff8800'
    """
    match = _HEX.fullmatch(text.strip())
    if match is None:
        shown = text.strip()[:20]
        raise InputError(source, line, f"colour value {shown!r} is not a hex colour (#rrggbb)")
    digits = match.group(1).lower()
    return "#" + (digits if len(digits) == 6 else "".join(ch * 2 for ch in digits))


def declare(colours: list[Colour], colour: Colour, source: str, line: int) -> None:
    """Add ``colour`` to ``colours`` (the background first), refusing a second colour of one
    key or name, a malformed name, or more than :data:`MAX_COLOURS` colours."""
    for other in colours:
        if other.key == colour.key or other.name == colour.name:
            raise InputError(
                source, line, f"colour {colour.name!r} ({colour.key}) clashes with {other.name!r}"
            )
    if not colour.name or any(ch.isspace() for ch in colour.name):
        raise InputError(source, line, f"colour name {colour.name!r} is empty or has spaces")
    if len(colours) >= MAX_COLOURS:
        raise InputError(source, line, f"more than {MAX_COLOURS - 1} colours")
    colours.append(colour)


def free_key(wanted: str, name: str, taken: Sequence[str]) -> str:
    """A letter key for a colour: ``wanted`` when it is a free ASCII letter, else the first
    free letter of ``name`` (either case), else the first free letter of the alphabet.

    Examples
    --------
    >>> free_key("X", "black", [])
    'X'
    >>> free_key("#", "red", ["r"])
    'R'
    """
    letters = "abcdefghijklmnopqrstuvwxyz"
    candidates = [wanted] + [c for ch in name for c in (ch.lower(), ch.upper())]
    candidates += list(letters + letters.upper())
    for key in candidates:
        if len(key) == 1 and key.isascii() and key.isalpha() and key not in taken:
            return key
    raise AssertionError("no free key among 52 letters for at most 31 colours")


def colour_clue(body: str, colours: Sequence[Colour], source: str, line: int) -> ColourClue:
    """Parse a keyed clue: comma-separated blocks ``LENGTH[KEY]`` (``2r,1b``); a block without
    a key has the first colour after the background; blank or ``0`` is the empty clue."""
    body = body.strip()
    if not body or body == "0":
        return ()
    index = {c.key: i for i, c in enumerate(colours) if i}
    blocks = []
    for token in (t.strip() for t in body.split(",")):
        match = _BLOCK.fullmatch(token)
        if match is None or int(match.group(1)) == 0:
            shown = token[:20]
            raise InputError(
                source, line, f"block {shown!r} is not a run length >= 1 and a colour key (2r)"
            )
        key = match.group(2) or colours[1].key
        if key not in index:
            raise InputError(source, line, f"block {token!r}: no colour has the key {key!r}")
        blocks.append((int(match.group(1)), index[key]))
    return tuple(blocks)


def written(clue: ColourClue, colours: Sequence[Colour]) -> str:
    """A colour clue as :func:`colour_clue` reads it (``0`` when empty).

    Examples
    --------
    >>> written(((2, 1), (1, 1)), [WHITE, Colour("r", "red", "#ff0000")])
    '2r,1r'
    """
    return ",".join(f"{n}{colours[c].key}" for n, c in clue) or "0"


def goal_of(rows: Sequence[str], chars: dict[str, str], width: int, source: str, line: int) -> Grid:
    """A goal picture in colour keys from rows of characters, each mapped by ``chars`` to a
    key (the background's ``.``)."""
    if len(rows) * width == 0 or any(len(r) != width for r in rows):
        raise InputError(source, line, f"the goal picture is not {width} cells wide")
    for row in rows:
        for ch in row:
            if ch not in chars:
                raise InputError(source, line, f"the goal picture has {ch!r}, not a colour")
    return tuple("".join(chars[ch] for ch in row) for row in rows)
