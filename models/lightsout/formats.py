"""Read and write Lights Out boards.

Three formats (grammar in ``docs/design.md`` §13.2):

``grid`` (``.lo``, ``.lights``; any file with ``--kind lightsout``)
    Optional header lines ``variant: sigma-plus|sigma``, ``torus: yes|no`` and ``title: ...``
    (each at most once), then one line per row. A row is written ``0|1|0`` (as in our oldest
    example), ``010``, ``.#.`` or ``0 1 0``: ``1``/``#`` lit, ``0``/``.`` off, ``x`` a disabled
    cell. Blank lines are ignored; all rows must have the same number of cells.
``json`` (``.json``)
    ``{"rows": ["0|1|0", ...]}`` or ``{"board": "010/101"}`` (rows joined by ``/``), with
    optional ``"variant"``, ``"torus"`` and ``"title"``; a graph board is
    ``{"nodes": [...], "edges": [[u, v], ...], "lit": [...], "variant": ...}`` (when
    ``"nodes"`` is given, every edge's ends must be among them).
``edges`` (``.edges``, ``.edgelist``)
    An arbitrary graph as an edge list (the networkx ``read_edgelist`` layout, without edge
    data): one ``u v`` pair per line, a lone name for an isolated node, ``lit: u v ...`` for
    the lit nodes, optional ``nodes: u v ...`` (fixes the node order) and ``variant: ...``
    (each header at most once); ``#`` starts a comment.

Every problem raises :class:`~cspsolve.errors.InputError` naming the 1-based line; no other
exception escapes :func:`parse` or :func:`read`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path, PurePath
from typing import Any

from cspsolve.errors import InputError, OptionError, PuzzleError
from cspsolve.inputs import parse_json, read_text

from .board import CANONICAL, GENERAL_CELLS, MAX_CELLS, MAX_SIDE, VARIANTS, LightsOut

__all__ = [
    "FORMATS",
    "Entry",
    "dumps",
    "from_graph",
    "parse",
    "read",
    "select",
    "sniff",
    "write",
]

FORMATS = ("grid", "json", "edges")
"""The format names accepted by :func:`parse` and :func:`read`."""

_EXTENSIONS = {".lo": "grid", ".lights": "grid", ".edges": "edges", ".edgelist": "edges"}
_SPACE = re.compile(r"\s")
_BAD_CELL = re.compile(r"[^01.#xX]")
_BAR_ROW = re.compile(r"\s*[01xX](\s*\|\s*[01xX])+\s*")
_HEADER = re.compile(r"([A-Za-z]+)\s*:\s*(.*)")
_YES = {"yes": True, "true": True, "1": True, "no": False, "false": False, "0": False}


@dataclass(frozen=True)
class Entry:
    """One board read from a file (every format holds one board: ``id`` is ``None``)."""

    id: int | str | None
    puzzle: LightsOut
    line: int
    title: str = ""


# --- variant, flags, helpers ------------------------------------------------------------------


def variant_name(text: str, source: str, line: int | None) -> str:
    """Normalise a variant name (``sigma_plus``, ``sigma+``, Greek letters: ``sigma-plus``)."""
    name = text.strip().lower().replace("_", "-").replace("\u03c3", "sigma").replace("\u207a", "+")
    name = "sigma-plus" if name in ("sigma+", "sigmaplus", "classic") else name
    if name not in VARIANTS:
        raise InputError(source, line, f"unknown variant {text!r}; use sigma-plus or sigma")
    return name


def _flag(text: str, source: str, line: int) -> bool:
    value = _YES.get(text.strip().lower())
    if value is None:
        raise InputError(source, line, f"expected yes or no, found {text.strip()!r}")
    return value


def _once(seen: dict[str, int], key: str, source: str, line: int) -> None:
    """Record header ``key`` at ``line``; InputError when ``seen`` has it already (a repeated
    header is refused, not read as "the last wins")."""
    if key in seen:
        raise InputError(source, line, f"duplicate header {key!r} (first on line {seen[key]})")
    seen[key] = line


def _lines(text: str) -> list[str]:
    text = text.removeprefix("\ufeff")
    lines = [line.removesuffix("\r") for line in text.split("\n")]
    if lines and lines[-1] == "":
        lines.pop()  # the text ended with a line end: no further line
    return lines


def _tokens(body: str) -> list[str] | str:
    """The cells of a row as written: ``0|1`` and ``0 1`` rows as a list of tokens, a row of
    single characters (``01``, ``.#``) as the string itself."""
    if "|" in body:
        return [t.strip() for t in body.split("|")]
    if _SPACE.search(body.strip()):
        return body.split()
    return body.strip()


def _row_cells(body: str, source: str, line: int) -> str:
    """The cells of one grid row as a string of ``0`` (off), ``1`` (lit) and ``x`` (disabled).

    Raises
    ------
    InputError
        For an unknown cell, or a row of more than :data:`~.board.MAX_SIDE` cells (checked
        before the cells are looked at, so that a huge row is refused at once).
    """
    tokens = _tokens(body)
    if len(tokens) > MAX_SIDE:
        raise InputError(
            source,
            line,
            f"a row of {len(tokens):,} cells is too long (at most {MAX_SIDE:,} columns)",
        )
    text = tokens if isinstance(tokens, str) else "".join(t if len(t) == 1 else "?" for t in tokens)
    bad = _BAD_CELL.search(text)
    if bad is not None:
        col = bad.start()
        token = text[col] if isinstance(tokens, str) else tokens[col]
        shown = token if token else "an empty cell"
        raise InputError(
            source, line, f"column {col + 1}: unexpected {shown!r} (use 0/1, ./# or x)"
        )
    return text.translate(CANONICAL)


def _cap_rows(rows: int, cols: int, source: str, line: int) -> None:
    """InputError when ``rows`` rows of ``cols`` cells pass :data:`~.board.MAX_SIDE` rows or
    :data:`~.board.MAX_CELLS` cells."""
    if rows > MAX_SIDE:
        raise InputError(source, line, f"more than {MAX_SIDE:,} rows (the board is too large)")
    if rows * cols > MAX_CELLS:
        raise InputError(
            source,
            line,
            f"board too large: {rows} rows of {cols:,} cells is more than {MAX_CELLS:,} cells",
        )


def _board(
    grid: Sequence[tuple[int, str]],
    source: str,
    end_line: int,
    variant: str,
    torus: bool,
) -> LightsOut:
    """A grid board from ``(line, cells)`` rows (see :func:`_row_cells`); checks raggedness,
    :data:`~.board.MAX_CELLS` and, for a torus or a board with holes,
    :data:`~.board.GENERAL_CELLS`."""
    if not grid:
        raise InputError(source, end_line, "no board rows (the board is empty)")
    cols = len(grid[0][1])
    for line, row in grid:
        if len(row) != cols:
            raise InputError(
                source, line, f"ragged row: {len(row)} cells, expected {cols} as in the first"
            )
    _cap_rows(len(grid), cols, source, grid[0][0])
    cells = cols * len(grid)
    if (torus or any("x" in row for _, row in grid)) and cells > GENERAL_CELLS:
        shape = "torus" if torus else "grid with holes"
        raise InputError(
            source,
            grid[0][0],
            f"a {shape} of {cells:,} cells is too large (at most {GENERAL_CELLS:,} cells; "
            f"plain grids up to {MAX_CELLS:,})",
        )
    return LightsOut.from_cells([row for _, row in grid], variant=variant, torus=torus)


# --- grid text --------------------------------------------------------------------------------


def _parse_grid(text: str, source: str) -> Entry:
    lines = _lines(text)
    variant, torus, title = "sigma-plus", False, ""
    grid: list[tuple[int, str]] = []
    headers: dict[str, int] = {}
    first = 0
    for number, raw in enumerate(lines, 1):
        body = raw.strip()
        if not body:
            continue
        header = _HEADER.fullmatch(body)
        if header and not grid:
            key, value = header.group(1).lower(), header.group(2)
            if key in ("variant", "torus", "title"):
                _once(headers, key, source, number)
            if key == "variant":
                variant = variant_name(value, source, number)
            elif key == "torus":
                torus = _flag(value, source, number)
            elif key == "title":
                title = value.strip()
            else:
                raise InputError(source, number, f"unknown header {key!r} (variant, torus, title)")
            continue
        first = first or number
        grid.append((number, _row_cells(body, source, number)))
        _cap_rows(len(grid), len(grid[0][1]), source, number)
    board = _board(grid, source, max(1, len(lines)), variant, torus)
    return Entry(None, board, first or 1, title)


def dumps(puzzle: LightsOut, title: str = "") -> str:
    """A grid board in the ``grid`` text format (``0``/``1``/``x`` characters, with headers).

    Raises
    ------
    OptionError
        For a graph board (use :func:`dumps_json` or the ``edges`` format).
    """
    if not puzzle.is_grid:
        raise OptionError("a graph board is written as .json or .edges, not as a grid")
    head = [f"variant: {puzzle.variant}"]
    head += ["torus: yes"] if puzzle.torus else []
    head += [f"title: {title}"] if title else []
    return "\n".join(head + _grid_rows(puzzle)) + "\n"


def _grid_rows(puzzle: LightsOut) -> list[str]:
    """The rows of a grid board as ``0``/``1``/``x`` strings."""
    holes = puzzle.holes or (0,) * puzzle.rows
    return [
        "".join(
            "x" if hole >> c & 1 else "1" if light >> c & 1 else "0" for c in range(puzzle.cols)
        )
        for light, hole in zip(puzzle.lights, holes, strict=True)
    ]


# --- JSON -------------------------------------------------------------------------------------


def _key_line(text: str, key: str) -> int | None:
    """The 1-based line where ``"key"`` first appears in a JSON text (for error messages)."""
    at = text.find(f'"{key}"')
    return None if at < 0 else text.count("\n", 0, at) + 1


def _parse_json(text: str, source: str) -> Entry:
    data = parse_json(text, source)
    if not isinstance(data, dict):
        raise InputError(source, 1, "expected a JSON object")
    variant = variant_name(
        str(data.get("variant", "sigma-plus")), source, _key_line(text, "variant")
    )
    title = str(data.get("title", ""))
    if "nodes" in data or "edges" in data:
        return Entry(None, _json_graph(data, text, source, variant), 1, title)
    torus = data.get("torus", False)
    if not isinstance(torus, bool):
        raise InputError(source, _key_line(text, "torus"), "torus must be true or false")
    if isinstance(data.get("board"), str):
        rows: Any = data["board"].split("/")
        key = "board"
    else:
        rows, key = data.get("rows"), "rows"
    if not isinstance(rows, list) or not all(isinstance(r, str) for r in rows):
        raise InputError(source, _key_line(text, key) or 1, 'expected "rows": ["0|1|0", ...]')
    line = _key_line(text, key) or 1
    grid = [(line, _row_cells(r, source, line)) for r in rows if r.strip()]
    return Entry(None, _board(grid, source, line, variant, torus), line, title)


def _json_graph(data: dict[str, Any], text: str, source: str, variant: str) -> LightsOut:
    edges = data.get("edges", [])
    if not isinstance(edges, list) or not all(isinstance(e, list) and len(e) == 2 for e in edges):
        raise InputError(source, _key_line(text, "edges"), 'expected "edges": [[u, v], ...]')
    nodes = data.get("nodes", [])
    lit = data.get("lit", [])
    if not isinstance(nodes, list) or not isinstance(lit, list):
        raise InputError(source, _key_line(text, "nodes"), '"nodes" and "lit" must be lists')
    pairs = [(str(u), str(v)) for u, v in edges]
    if "nodes" in data:
        listed = {str(n) for n in nodes}
        for u, v in pairs:
            if u not in listed or v not in listed:
                missing = u if u not in listed else v
                raise InputError(
                    source,
                    _key_line(text, "edges"),
                    f'edge [{u}, {v}]: node {missing!r} is not in "nodes"',
                )
    try:
        return from_graph(
            [str(n) for n in nodes], pairs, lit=[str(n) for n in lit], variant=variant
        )
    except PuzzleError as e:
        raise InputError(source, _key_line(text, "edges"), str(e)) from None


# --- graphs -----------------------------------------------------------------------------------


def from_graph(
    nodes: Iterable[str], edges: Iterable[tuple[str, str]], *, lit: Iterable[str], variant: str
) -> LightsOut:
    """A graph board from node names, edges and lit nodes (nodes in first-mention order).

    Raises
    ------
    PuzzleError
        On a loop (an edge from a node to itself), a lit node that is not in the graph, or
        more than :data:`~.board.GENERAL_CELLS` nodes.
    """
    index: dict[str, int] = {}
    for name in nodes:
        index.setdefault(name, len(index))
    near: list[set[int]] = [set() for _ in index]
    for u, v in edges:
        if u == v:
            raise PuzzleError(f"loop at node {u!r} (a node cannot neighbour itself)")
        for name in (u, v):
            if name not in index:
                index[name] = len(index)
                near.append(set())
        near[index[u]].add(index[v])
        near[index[v]].add(index[u])
    lights = 0
    for name in lit:
        if name not in index:
            raise PuzzleError(f"lit node {name!r} is not in the graph")
        lights |= 1 << index[name]
    if not index:
        raise PuzzleError("the graph has no nodes")
    if len(index) > GENERAL_CELLS:
        raise PuzzleError(
            f"a graph of {len(index):,} nodes is too large (at most {GENERAL_CELLS:,})"
        )
    graph = tuple(tuple(sorted(n)) for n in near)
    return LightsOut((lights,), len(index), variant, graph=graph, names=tuple(index))


def from_networkx(graph: Any, lit: Iterable[Any], *, variant: str = "sigma-plus") -> LightsOut:
    """A graph board from a ``networkx.Graph`` (node names are ``str(node)``).

    Raises
    ------
    PuzzleError
        As :func:`from_graph`.
    """
    nodes = [str(n) for n in graph.nodes]
    edges = [(str(u), str(v)) for u, v in graph.edges]
    return from_graph(nodes, edges, lit=[str(n) for n in lit], variant=variant)


def _cap_nodes(known: set[str], names: list[str], source: str, line: int) -> None:
    """Add ``names`` to the nodes ``known``; InputError once there are more than
    :data:`~.board.GENERAL_CELLS`."""
    known.update(names)
    if len(known) > GENERAL_CELLS:
        raise InputError(source, line, f"a graph of more than {GENERAL_CELLS:,} nodes is too large")


def _parse_edges(text: str, source: str) -> Entry:
    nodes: list[str] = []
    edges: list[tuple[str, str]] = []
    lit: list[tuple[int, str]] = []
    known: set[str] = set()
    variant = "sigma-plus"
    headers: dict[str, int] = {}
    for number, raw in enumerate(_lines(text), 1):
        body = raw.split("#", 1)[0].strip()
        header = _HEADER.fullmatch(body)
        if not body:
            continue
        if header:
            key, value = header.group(1).lower(), header.group(2)
            if key in ("lit", "nodes", "variant"):
                _once(headers, key, source, number)
            if key == "lit":
                lit += [(number, name) for name in value.split()]
            elif key == "nodes":
                nodes += value.split()
                _cap_nodes(known, value.split(), source, number)
            elif key == "variant":
                variant = variant_name(value, source, number)
            else:
                raise InputError(source, number, f"unknown header {key!r} (lit, nodes, variant)")
            continue
        tokens = body.split()
        if len(tokens) > 2:
            raise InputError(
                source,
                number,
                f"expected 'u v' (an edge) or 'u' (a node), found {len(tokens)} fields",
            )
        nodes += tokens[:2]
        _cap_nodes(known, tokens[:2], source, number)
        if len(tokens) > 1:
            if tokens[0] == tokens[1]:
                raise InputError(source, number, f"loop at node {tokens[0]!r}")
            edges.append((tokens[0], tokens[1]))
    for number, name in lit:
        if name not in known:
            raise InputError(source, number, f"lit node {name!r} is not in the graph")
    if not known:
        raise InputError(source, 1, "no nodes (the graph is empty)")
    return Entry(None, from_graph(nodes, edges, lit=[n for _, n in lit], variant=variant), 1)


# --- dispatch ---------------------------------------------------------------------------------


_BOARD_STRING = re.compile(r'"board"\s*:\s*"[01]+(/[01]+)*"')
"""A JSON ``"board"`` of ``0``/``1`` rows joined by ``/``: Lights Out's alone."""


def sniff(name: str, text: str) -> str | None:
    """The format of a Lights Out file, or ``None`` when it is not clearly one.

    ``.lo``/``.lights``/``.edges``/``.edgelist`` decide by extension; otherwise only
    unambiguous content is claimed: ``0|1|0`` rows, a JSON object with a ``"board"`` string of
    ``0``/``1`` rows joined by ``/``, or one with ``"rows"``, ``"board"`` or ``"edges"`` and a
    Lights Out key (``"variant"``, ``"lit"``, ``"torus"``). A plain ``010`` or ``.#.`` grid is
    left to ``--kind lightsout``.

    Examples
    --------
    >>> sniff("a.txt", "0|1|0\\n1|1|1\\n")
    'grid'
    >>> sniff("a.json", '{"board": "010/101/010"}')
    'json'
    >>> sniff("a.txt", "010\\n111\\n") is None
    True
    """
    suffix = PurePath(name).suffix.lower()
    if suffix in _EXTENSIONS:
        return _EXTENSIONS[suffix]
    body = [line.strip() for line in _lines(text) if line.strip()]
    if not body:
        return None
    if body[0].startswith("{"):
        keys = re.findall(r'"(\w+)"\s*:', text)
        if set(keys) & {"rows", "board", "edges"} and set(keys) & {"variant", "lit", "torus"}:
            return "json"
        if _BOARD_STRING.search(text):
            return "json"
        return None
    grid = [line for line in body if not _HEADER.fullmatch(line)]
    if grid and all(_BAR_ROW.fullmatch(line) for line in grid):
        return "grid"
    return None


def parse(text: str, source: str, *, fmt: str | None = None) -> list[Entry]:
    """Read the board of ``text``; ``fmt`` from :data:`FORMATS` (default: guessed).

    Without ``fmt``, a text starting with ``{`` is JSON and anything else a grid (edge lists
    are recognised by extension in :func:`read`).

    Raises
    ------
    InputError
        On any problem, with the 1-based line.
    """
    if fmt is None:
        fmt = "json" if text.lstrip("\ufeff \t\r\n").startswith("{") else "grid"
    if fmt not in FORMATS:
        raise InputError(source, None, f"unknown Lights Out format {fmt!r}")
    try:
        if fmt == "json":
            return [_parse_json(text, source)]
        if fmt == "edges":
            return [_parse_edges(text, source)]
        return [_parse_grid(text, source)]
    except ValueError as e:
        if isinstance(e, InputError):
            raise
        raise InputError(source, None, str(e)) from None


def read(path: str | Path, fmt: str | None = None) -> list[Entry]:
    """Read the board of a file (format from ``fmt``, else the extension, else the content).

    Raises
    ------
    InputError
        If the file cannot be read (:func:`cspsolve.inputs.read_text`: regular files of at
        most 64 MiB of UTF-8 text) or holds no valid board.
    """
    path = Path(path)
    text = read_text(path)
    return parse(text, str(path), fmt=fmt or _EXTENSIONS.get(path.suffix.lower()))


def select(entries: Sequence[Entry], key: str, source: str) -> Entry:
    """``FILE#KEY``: a Lights Out file holds one board, so any key is an error."""
    raise InputError(source, None, f"a Lights Out file holds one board; drop '#{key}'")


def _json_text(puzzle: LightsOut, title: str) -> str:
    data: dict[str, Any] = {"variant": puzzle.variant}
    if title:
        data["title"] = title
    if puzzle.graph is not None:
        data["nodes"] = list(puzzle.names)
        data["edges"] = [
            [puzzle.names[i], puzzle.names[j]]
            for i, near in enumerate(puzzle.graph)
            for j in near
            if i < j
        ]
        data["lit"] = [puzzle.names[i] for i in range(puzzle.cols) if puzzle.lights[0] >> i & 1]
    else:
        data["torus"] = puzzle.torus
        data["rows"] = _grid_rows(puzzle)
    return json.dumps(data, indent=1) + "\n"


def _edges_text(puzzle: LightsOut) -> str:
    if puzzle.graph is None:
        raise OptionError("only a graph board is written as an edge list")
    names = puzzle.names
    lines = [f"variant: {puzzle.variant}", "nodes: " + " ".join(names)]
    lines.append(
        "lit: " + " ".join(names[i] for i in range(puzzle.cols) if puzzle.lights[0] >> i & 1)
    )
    for i, near in enumerate(puzzle.graph):
        lines += [f"{names[i]} {names[j]}" for j in near if i < j]
    return "\n".join(lines) + "\n"


def write(puzzle: LightsOut, path: str | Path, *, title: str = "") -> None:
    """Write a board in the format of ``path``'s extension (``.lo``/``.lights``/``.txt``,
    ``.json``, ``.edges``/``.edgelist``).

    Raises
    ------
    OptionError
        For another extension, a graph board as a grid, or a grid board as an edge list.
    """
    suffix = PurePath(path).suffix.lower()
    if suffix == ".json":
        text = _json_text(puzzle, title)
    elif _EXTENSIONS.get(suffix) == "edges":
        text = _edges_text(puzzle)
    elif suffix in (".lo", ".lights", ".txt"):
        text = dumps(puzzle, title)
    else:
        raise OptionError(
            f"cannot tell the format from {suffix or 'no extension'!r}; use .lo, .json or .edges"
        )
    Path(path).write_text(text, encoding="utf-8")
