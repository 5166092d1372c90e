"""Read webpbn XML puzzle files and Simon Tatham's ``pattern`` game IDs.

webpbn XML
    The export format of Jan Wolter's webpbn.com (``pbn-0.3.dtd``, described at
    https://webpbn.com/pbn_fmt.html): a ``<puzzleset>`` of ``<puzzle>`` elements, each with
    ``<clues type="columns">`` and ``<clues type="rows">`` of ``<line>`` elements holding
    ``<count>`` elements, an optional ``<title>``, optional ``<source>``, ``<author>`` and
    ``<copyright>`` (kept as the puzzle's :class:`~..board.Metadata`) and an optional
    ``<solution type="goal">`` whose ``<image>`` draws the picture between ``|`` bars. Every
    ``<color>`` value must be a hex colour, in any puzzle. A puzzle whose every ``<count>``
    is black (the ``defaultcolor`` unless a ``color`` attribute names another) and that
    declares no ``<color>`` but the background and black is a black-and-white
    :class:`~..board.Nonogram`; any other is a
    :class:`~..colour_board.ColourNonogram` whose colours are the puzzle's ``<color name=
    char=>RGB</color>`` elements (the ``backgroundcolor``, white by default, first; each keyed
    by its ``char`` when that is a free ASCII letter, see :func:`.palette.free_key`).
    The text is parsed by the standard library's expat with every DTD feature that
    could expand into more text refused: a document type with an internal subset
    (``<!DOCTYPE x [ ... ]>``) or any ``<!ENTITY`` declaration is an error (the "billion
    laughs" and external-entity attacks need one), and no external DTD is fetched. HTML named
    entities such as ``&copy;``, which webpbn exports use without declaring them, are turned
    into the single characters they name before parsing. The whole file must be well-formed
    XML; then each ``<puzzle>`` is read on its own (:func:`parse_xml`).
Tatham game IDs
    The ``W x H : description`` strings of the ``pattern`` game of Simon Tatham's Portable
    Puzzle Collection (https://www.chiark.greenend.org.uk/~sgtatham/puzzles/, ``pattern.c``,
    ``validate_desc``): ``W`` column clues (top to bottom) then ``H`` row clues (left to right),
    clues separated by ``/``, the numbers of a clue by ``.``, an empty clue written as nothing.
    ``N:...`` stands for ``NxN``.
"""

from __future__ import annotations

import functools
import html.entities
import re
import xml.parsers.expat
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from cspsolve.errors import InputError

from ..board import Grid, Metadata, Nonogram
from ..colour_board import BACKGROUND, Colour, ColourNonogram
from . import palette
from .clues import MAX_SIDE, ColourPlaced, Placed, build, build_colour, check_size

__all__ = ["XmlPuzzle", "parse_tatham", "parse_xml", "write_tatham", "write_xml"]

Block = tuple[int, str, int]
"""A ``<count>`` as read: its run length, its colour's name and its line."""

XmlPuzzle = tuple[str | None, int, Callable[[], Nonogram | ColourNonogram]]
"""A ``<puzzle>`` element of webpbn XML: its ``<id>`` text (``None`` when absent), its line,
and the function that reads it, raising :class:`~cspsolve.errors.InputError` (naming the
line) for undeclared or malformed colours or bad clues."""

_TATHAM = re.compile(r"\s*([0-9]{1,6})(?:x([0-9]{1,6}))?:([0-9./]*)\s*")
_NAMED_ENTITY = re.compile(r"&([A-Za-z][A-Za-z0-9]*);")
_XML_ENTITIES = frozenset({"amp", "lt", "gt", "quot", "apos"})
_INTERNAL_SUBSET = re.compile(r"<!DOCTYPE[^>\[]*\[", re.IGNORECASE)
_METADATA = {"source": "catalogue", "author": "author", "copyright": "copyright"}
"""``<puzzle>`` children of webpbn XML → :class:`~..board.Metadata` fields (the format has no
place for a licence)."""


def _numeric_entity(match: re.Match[str]) -> str:
    """``&copy;`` → ``&#169;``; XML's own five entities and unknown names are left alone."""
    name = match.group(1)
    if name in _XML_ENTITIES or name not in html.entities.name2codepoint:
        return match.group(0)
    return f"&#{html.entities.name2codepoint[name]};"


@dataclass
class _Node:
    """An element of the XML tree: tag, attributes, 1-based line, children, text."""

    tag: str
    attrs: dict[str, str]
    line: int
    children: list[_Node] = field(default_factory=list)
    text: str = ""

    def find(self, tag: str) -> list[_Node]:
        """The children named ``tag``."""
        return [c for c in self.children if c.tag == tag]


def _refuse_entities(*_: object) -> Any:
    """Expat handler for entity declarations and references: refuse them all."""
    raise ValueError("entity declarations are not accepted (no DTD entities are expanded)")


def _tree(text: str, source: str) -> _Node:
    """Parse XML into :class:`_Node` trees, refusing internal DTD subsets and entities."""
    match = _INTERNAL_SUBSET.search(text)
    if match is not None or "<!ENTITY" in text.upper():
        at = text.count("\n", 0, match.start() if match else text.upper().index("<!ENTITY")) + 1
        raise InputError(
            source,
            at,
            "the XML declares a DTD internal subset or entities; refused (entities are never "
            "expanded, to keep 'billion laughs' and external-entity files harmless)",
        )
    parser = xml.parsers.expat.ParserCreate()
    parser.SetParamEntityParsing(xml.parsers.expat.XML_PARAM_ENTITY_PARSING_NEVER)
    parser.EntityDeclHandler = _refuse_entities
    parser.UnparsedEntityDeclHandler = _refuse_entities
    parser.ExternalEntityRefHandler = _refuse_entities
    root = _Node("", {}, 1)
    stack = [root]

    def start(tag: str, attrs: dict[str, str]) -> None:
        node = _Node(tag, attrs, parser.CurrentLineNumber)
        stack[-1].children.append(node)
        stack.append(node)

    def end(_: str) -> None:
        stack.pop()

    def data(chunk: str) -> None:
        stack[-1].text += chunk

    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.CharacterDataHandler = data
    try:
        parser.Parse(_NAMED_ENTITY.sub(_numeric_entity, text), True)
    except xml.parsers.expat.ExpatError as err:
        reason = xml.parsers.expat.errors.messages.get(err.code, str(err))
        raise InputError(source, err.lineno, f"not well-formed XML: {reason}") from None
    except ValueError as err:
        raise InputError(source, parser.CurrentLineNumber, str(err)) from None
    return root


def _count(node: _Node, default: str, source: str) -> Block:
    """A ``<count>`` element: its run length, its colour (``default`` unless named), its line."""
    text = node.text.strip()
    if not text.isascii() or not text.isdigit() or not 1 <= int(text) <= MAX_SIDE:
        shown = text[:20]
        raise InputError(
            source, node.line, f"count {shown!r} is not a run length from 1 to {MAX_SIDE:,}"
        )
    return int(text), node.attrs.get("color", default), node.line


def _clues(puzzle: _Node, kind: str, source: str) -> list[tuple[list[Block], int]]:
    """The ``<line>`` clues of ``<clues type=kind>``, each with its line number."""
    found = [c for c in puzzle.find("clues") if c.attrs.get("type") == kind]
    if len(found) != 1:
        raise InputError(
            source,
            puzzle.line,
            f'expected one <clues type="{kind}"> in the puzzle, found {len(found)}',
        )
    lines = found[0].find("line")
    if not lines:
        raise InputError(source, found[0].line, f"no <line> in the {kind} clues")
    default = puzzle.attrs.get("defaultcolor", "black")
    return [([_count(c, default, source) for c in line.find("count")], line.line) for line in lines]


def _image(puzzle: _Node, width: int, height: int, source: str) -> tuple[list[str], int] | None:
    """The rows of the ``<solution type="goal">`` picture and its line, if the puzzle has one."""
    for solution in puzzle.find("solution"):
        if solution.attrs.get("type", "goal") != "goal":
            continue
        images = solution.find("image")
        if not images:
            return None
        rows = [r.strip().strip("|") for r in images[0].text.split("\n") if r.strip()]
        if len(rows) != height or any(len(r) != width for r in rows):
            raise InputError(
                source, images[0].line, f"the goal image is not {width}x{height} cells"
            )
        return rows, images[0].line
    return None


def _goal(puzzle: _Node, width: int, height: int, source: str) -> Grid | None:
    """The black-and-white goal picture, if the puzzle has one."""
    image = _image(puzzle, width, height, source)
    if image is None:
        return None
    return tuple("".join("." if ch in ".0 " else "#" for ch in row) for row in image[0])


def _colours(node: _Node, source: str) -> tuple[list[Colour], dict[str, str]]:
    """The puzzle's colours (the background first) and each ``char`` of the XML's goal picture
    mapped to its colour's key."""
    background = node.attrs.get("backgroundcolor", "white")
    colours = [palette.WHITE if background == "white" else Colour(BACKGROUND, background, "")]
    chars: dict[str, str] = {}
    for element in node.find("color"):
        name, char = element.attrs.get("name", ""), element.attrs.get("char", "")
        value = palette.rgb(element.text, source, element.line)
        if name == background:
            colours[0] = Colour(BACKGROUND, name, value)
            chars[char] = BACKGROUND
            continue
        key = palette.free_key(char, name, [c.key for c in colours])
        palette.declare(colours, Colour(key, name, value), source, element.line)
        chars[char] = key
    if not colours[0].rgb:
        raise InputError(source, node.line, f"background colour {background!r} is not declared")
    return colours, chars


def _colour_puzzle(
    node: _Node, columns: list[tuple[list[Block], int]], rows: list[tuple[list[Block], int]],
    title: str, source: str,
) -> ColourNonogram:  # fmt: skip
    """One ``<puzzle>`` element with colours as a :class:`ColourNonogram`."""
    colours, chars = _colours(node, source)
    used = {name for blocks, _ in rows + columns for _, name, _ in blocks}
    if "black" in used and "black" not in {c.name for c in colours}:  # the default may go
        black = palette.free_key("X", "black", [c.key for c in colours])  # undeclared
        palette.declare(colours, Colour(black, "black", "#000000"), source, node.line)
    index = {c.name: i for i, c in enumerate(colours)}

    def placed(lines: list[tuple[list[Block], int]]) -> list[ColourPlaced]:
        out = []
        for blocks, at in lines:
            for _, name, line in blocks:
                if name not in index or index[name] == 0:
                    raise InputError(source, line, f"colour {name!r} is not a declared colour")
            out.append((tuple((n, index[name]) for n, name, _ in blocks), at))
        return out

    width, height = len(columns), len(rows)
    image = _image(node, width, height, source)
    goal = None if image is None else palette.goal_of(image[0], chars, width, source, image[1])
    return build_colour(
        source,
        node.line,
        placed(rows),
        placed(columns),
        colours=colours,
        title=title,
        goal=goal,
        metadata=_metadata(node),
    )


def _puzzle(node: _Node, source: str) -> Nonogram | ColourNonogram:
    """One ``<puzzle>`` element as a :class:`Nonogram`, or a :class:`ColourNonogram` when it
    has colours besides black and the background."""
    if node.attrs.get("type", "grid") != "grid":
        raise InputError(source, node.line, f"puzzle type {node.attrs['type']!r} is not 'grid'")
    for element in node.find("color"):  # checked even when the puzzle is black and white
        palette.rgb(element.text, source, element.line)
    columns = _clues(node, "columns", source)
    rows = _clues(node, "rows", source)
    title = _text(node, "title")
    plain = {"black", node.attrs.get("backgroundcolor", "white")}
    declared = {c.attrs.get("name", "") for c in node.find("color")}
    used = {name for blocks, _ in rows + columns for _, name, _ in blocks}
    if not declared | used <= plain:
        return _colour_puzzle(node, columns, rows, title, source)

    def placed(lines: list[tuple[list[Block], int]]) -> list[Placed]:
        return [(tuple(n for n, _, _ in blocks), at) for blocks, at in lines]

    goal = _goal(node, len(columns), len(rows), source)
    return build(
        source,
        node.line,
        placed(rows),
        placed(columns),
        title=title,
        goal=goal,
        metadata=_metadata(node),
    )


def _metadata(node: _Node) -> Metadata:
    """The catalogue, author and copyright of a ``<puzzle>`` element."""
    return Metadata(**{name: _text(node, tag) for tag, name in _METADATA.items()})


def _text(node: _Node, tag: str) -> str:
    """The text of ``node``'s first ``tag`` child, its white space runs made single spaces
    ("" when there is no such child)."""
    found = node.find(tag)
    return " ".join(found[0].text.split()) if found else ""


def parse_xml(text: str, source: str) -> list[XmlPuzzle]:
    """Read a webpbn XML file as far as its ``<puzzle>`` elements.

    Parameters
    ----------
    text : str
        The file content.
    source : str
        The file name, for error messages.

    Returns
    -------
    list of XmlPuzzle
        Every ``<puzzle>`` element's ``<id>`` text (``None`` when absent), the line it starts
        on, and the function that reads it, each on its own (see :data:`XmlPuzzle`).

    Raises
    ------
    InputError
        For malformed XML, DTD entity declarations or no ``<puzzle>`` element, naming the line.
    """
    root = _tree(text, source)
    top = root.children[0]
    puzzles = top.find("puzzle") if top.tag == "puzzleset" else [top]
    if not puzzles or puzzles[0].tag != "puzzle":
        raise InputError(source, top.line, "no <puzzle> element (expected webpbn XML)")
    out: list[XmlPuzzle] = []
    for node in puzzles:
        ids = node.find("id")
        ident = ids[0].text.strip().lstrip("#") or None if ids else None
        out.append((ident, node.line, functools.partial(_puzzle, node, source)))
    return out


def parse_tatham(text: str, source: str) -> Nonogram:
    """Read a Tatham ``pattern`` game ID such as ``3x2:1/1.1/1/3/1``.

    Raises
    ------
    InputError
        When the text is not a game ID or its clues do not fit.
    """
    match = _TATHAM.fullmatch(text)
    if match is None:
        raise InputError(source, 1, "expected a Tatham game ID 'WxH:clues' (e.g. 2x1:1/1/2)")
    width = int(match.group(1))
    height = int(match.group(2) or width)
    check_size(width, height, source, 1)
    parts = match.group(3).split("/")
    if len(parts) != width + height:
        raise InputError(
            source, 1, f"{len(parts)} clues for a {width}x{height} grid; expected {width + height}"
        )
    if width < 1 or height < 1:
        raise InputError(source, 1, "width and height must be at least 1")
    clues: list[Placed] = []
    for part in parts:
        pieces = part.split(".") if part else []
        if any(not 1 <= len(p) <= 6 or int(p) < 1 for p in pieces):
            raise InputError(source, 1, f"clue {part!r}: runs must be whole numbers >= 1")
        clues.append((tuple(map(int, pieces)), 1))
    return build(source, 1, clues[width:], clues[:width])


def write_tatham(puzzle: Nonogram) -> str:
    """Write ``puzzle`` as a Tatham game ID (title and goal are not part of it).

    Examples
    --------
    >>> write_tatham(Nonogram(rows=[(1,), ()], columns=[(1,)]))
    '1x2:1/1/'
    """
    lines = [*puzzle.columns, *puzzle.rows]
    clues = "/".join(".".join(map(str, clue)) for clue in lines)
    return f"{puzzle.width}x{puzzle.height}:{clues}"


def write_xml(puzzle: Nonogram | ColourNonogram) -> str:
    """Write ``puzzle`` as webpbn XML (source, title, author, copyright, colours, clues and goal
    picture), which :func:`parse_xml` reads back to an equal puzzle with the same metadata
    but its licence (for which the format has no place).

    A black-and-white puzzle is written in white and black (``char`` ``.`` and ``X``), its
    counts without a ``color``; a colour puzzle names the colour of every count.
    """
    if isinstance(puzzle, ColourNonogram):
        colours = puzzle.colours
        clues = [
            [(n, colours[c].name) for n, c in clue] for clue in (*puzzle.columns, *puzzle.rows)
        ]
    else:
        colours = (palette.WHITE, Colour("X", "black", "#000000"))
        clues = [[(n, "black") for n in clue] for clue in (*puzzle.columns, *puzzle.rows)]
    bare = not isinstance(puzzle, ColourNonogram)
    out = ['<?xml version="1.0"?>', '<!DOCTYPE pbn SYSTEM "https://webpbn.com/pbn-0.3.dtd">']
    out += ["<puzzleset>", f'<puzzle type="grid" defaultcolor="{colours[1].name}" '
            f'backgroundcolor="{colours[0].name}">']  # fmt: skip
    metadata = puzzle.metadata
    for tag, text in (
        ("source", metadata.catalogue),
        ("title", puzzle.title),
        ("author", metadata.author),
        ("copyright", metadata.copyright),
    ):
        if text:
            out.append(f"<{tag}>{html.escape(text, quote=False)}</{tag}>")
    out += [f'<color name="{c.name}" char="{c.key}">{c.rgb[1:]}</color>' for c in colours]
    for kind, start, count in (("columns", 0, puzzle.width), ("rows", puzzle.width, puzzle.height)):
        out.append(f'<clues type="{kind}">')
        for clue in clues[start : start + count]:
            counts = "".join(
                f"<count>{n}</count>" if bare else f'<count color="{name}">{n}</count>'
                for n, name in clue
            )
            out.append(f"<line>{counts}</line>")
        out.append("</clues>")
    if puzzle.goal is not None:
        rows = [row.replace("#", "X") for row in puzzle.goal]
        out += ['<solution type="goal">', "<image>", *(f"|{row}|" for row in rows), "</image>"]
        out.append("</solution>")
    out += ["</puzzle>", "</puzzleset>"]
    return "\n".join(out) + "\n"
