"""Puzzle kinds and the model packages that implement them.

Each kind is a package under :mod:`cspsolve.models` exposing the interface of
:class:`PuzzleKind`; it is imported only when asked for, so the command line starts fast.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, cast

from cspsolve.errors import InputError, UnknownKindError
from cspsolve.inputs import check, head
from cspsolve.limits import Limits
from cspsolve.render import Scene
from cspsolve.results import Result

__all__ = [
    "KINDS",
    "Options",
    "PuzzleEntry",
    "PuzzleKind",
    "detect",
    "get",
    "load",
    "owner",
    "split_selector",
]

KINDS: dict[str, str] = {
    "nonogram": "cspsolve.models.nonogram.kind",
    "lightsout": "cspsolve.models.lightsout.kind",
    "rushhour": "cspsolve.models.rushhour.kind",
    "npuzzle": "cspsolve.models.npuzzle.kind",
}
"""Kind name → module implementing :class:`PuzzleKind` (asked in this order when sniffing)."""


class PuzzleEntry(Protocol):
    """One puzzle read from a file."""

    @property
    def id(self) -> int | str | None:
        """Its id inside a multi-puzzle file (``None`` for single-puzzle files)."""
        ...

    @property
    def puzzle(self) -> Any:
        """The puzzle object."""
        ...

    @property
    def line(self) -> int:
        """1-based line where the puzzle starts."""
        ...


@dataclass(frozen=True)
class Options:
    """What the user asked for beyond the puzzle file (the command line's shared options).

    A kind uses the fields that apply to it and names them in :attr:`PuzzleKind.OPTIONS`; the
    command line refuses the others for that kind.

    Attributes
    ----------
    method : str or None
        A name from :attr:`PuzzleKind.METHODS`; ``None`` lets the kind choose per puzzle.
    heuristic : str or None
        A name from :attr:`PuzzleKind.HEURISTICS`; ``None`` lets the kind choose.
    unique : bool
        Also decide whether the solution is unique (nonograms).
    variant : str or None
        Lights Out press rule (``"sigma-plus"`` or ``"sigma"``); ``None`` keeps the file's.
    torus : bool or None
        Lights Out: wrap the board around; ``None`` keeps the file's.
    metric : str or None
        Rush Hour cost: ``"moves"`` (default) or ``"steps"``.
    """

    method: str | None = None
    heuristic: str | None = None
    unique: bool = False
    variant: str | None = None
    torus: bool | None = None
    metric: str | None = None


class PuzzleKind(Protocol):
    """What a model package offers the command line and batch tools (its ``kind`` module).

    Every function that solves takes the puzzle, the :class:`Options` and the
    :class:`~cspsolve.limits.Limits` of the run, and raises ``ValueError`` (one line, shown to the
    user with exit code 2) for options that make no sense for that puzzle. A kind whose options
    change the puzzle itself may offer ``prepare(puzzle, options) -> puzzle`` (optional): the
    command line shows and draws the puzzle it returns (e.g. a board under ``--variant``).
    """

    NAME: str
    METHODS: tuple[str, ...]
    HEURISTICS: tuple[str, ...]
    OPTIONS: frozenset[str]
    """Names of the :class:`Options` fields beyond method/heuristic that the kind uses."""
    EXTENSIONS: frozenset[str]
    """File extensions (lower case, with the dot) that only this kind uses: such a file is
    given to this kind without sniffing, so its reader reports what is wrong with it."""

    def sniff(self, name: str, text: str) -> str | None:
        """The file format of ``text`` (named ``name``) if it is this kind's, else ``None``.

        ``text`` is the first 64 KiB of the file. Return a format only when sure: kinds are
        asked in the order of :data:`KINDS` and the first answer wins.
        """
        ...

    def read(self, path: str | Path, fmt: str | None = None) -> Sequence[PuzzleEntry]:
        """Every puzzle of a file; raises :class:`~cspsolve.errors.InputError`."""
        ...

    def select(self, entries: Sequence[Any], key: str, source: str) -> PuzzleEntry:
        """The puzzle named ``key`` (``FILE#KEY``); raises InputError."""
        ...

    def write(self, puzzle: Any, path: str | Path) -> None:
        """Write a puzzle in the format its extension names; ValueError when none can."""
        ...

    def solve(self, puzzle: Any, options: Options, limits: Limits | None) -> Result[Any]:
        """Solve one puzzle with the method and heuristic of ``options`` (or the kind's choice)."""
        ...

    def verify(self, puzzle: Any, options: Options, limits: Limits | None) -> dict[str, Any]:
        """Cross-check a search answer against an independent reference method.

        Keys: ``search`` and ``reference`` (:class:`~cspsolve.results.Result`; the reference
        is CP-SAT where the kind has a CP-SAT model, its ``method`` says which), ``agree``
        (``True``/``False``, ``None`` when a limit left it unsettled), ``problems`` (list of str).
        """
        ...

    def analyze(self, puzzle: Any, options: Options, limits: Limits | None) -> dict[str, Any]:
        """Difficulty and structure as JSON-ready data (keys per DESIGN §3)."""
        ...

    def runs(self, puzzle: Any, options: Options) -> list[tuple[str, str | None]]:
        """The (method, heuristic) pairs that ``cspsolve compare`` runs on this puzzle."""
        ...

    def encode(self, solution: Any) -> Any:
        """The JSON form of a solution (DESIGN §3)."""
        ...

    def describe(self, puzzle: Any) -> str:
        """A short description, e.g. ``25x25``."""
        ...

    def draw(self, puzzle: Any, solution: Any) -> str:
        """The solution drawn as text for a terminal."""
        ...

    def scenes(self, puzzle: Any, solution: Any) -> list[Scene]:
        """The solution as pictures (:class:`~cspsolve.render.Scene`), for ``--image``.

        The first scene is the static picture (PNG/SVG): the solved grid with its clues, or the
        start board with the presses marked. Puzzles solved by a sequence of moves add one scene
        per state after each move, which an animated GIF plays in order. Raises ValueError for a
        puzzle that cannot be drawn as a grid (e.g. Lights Out on an arbitrary graph).
        """
        ...


def get(kind: str) -> PuzzleKind:
    """Import and return the model of ``kind``.

    Raises
    ------
    ValueError
        If the kind is unknown.
    """
    if kind not in KINDS:
        raise ValueError(f"unknown kind {kind!r}; choose from {', '.join(KINDS)}")
    return cast(PuzzleKind, importlib.import_module(KINDS[kind]))


def owner(path: Path) -> str | None:
    """The kind whose :attr:`PuzzleKind.EXTENSIONS` hold the file's extension, if any."""
    suffix = path.suffix.lower()
    for kind in KINDS:
        if suffix in get(kind).EXTENSIONS:
            return kind
    return None


def detect(path: Path) -> str:
    """The kind of a puzzle file: the one that owns its extension, else the first whose
    ``sniff`` recognises its first 64 KiB.

    Raises
    ------
    UnknownKindError
        If no kind recognises the file.
    InputError
        If the file cannot be read (see :func:`cspsolve.inputs.head`).
    """
    text = head(path)
    kind = owner(path)
    if kind is not None:
        return kind
    for kind in KINDS:
        if get(kind).sniff(path.name, text):
            return kind
    raise UnknownKindError(
        str(path), None, f"cannot tell the puzzle kind; name it with --kind ({', '.join(KINDS)})"
    )


def split_selector(spec: str) -> tuple[Path, str | None]:
    """Split ``FILE#KEY`` into the file and the key (``None`` when there is none).

    A ``#`` belongs to the file name when a file of that whole name exists.
    """
    path = Path(spec)
    if "#" in spec and not path.exists():
        name, _, key = spec.rpartition("#")
        return Path(name), key
    return path, None


def load(spec: str, kind: str | None = None) -> tuple[str, list[PuzzleEntry]]:
    """Read the puzzles named by ``FILE`` or ``FILE#KEY``.

    Parameters
    ----------
    spec : str
        A file name, optionally followed by ``#KEY`` to pick one puzzle of a multi-puzzle file.
    kind : str, optional
        Forces the puzzle kind instead of detecting it.

    Returns
    -------
    tuple of (str, list)
        The kind and the puzzles read.

    Raises
    ------
    InputError
        On any problem with the file (:class:`UnknownKindError` when no kind recognises it);
        ValueError for an unknown ``kind``.
    """
    path, key = split_selector(spec)
    if kind is None:
        kind = detect(path)
    model = get(kind)
    check(path)
    try:
        entries = list(model.read(path))
    except InputError:
        raise
    except (ValueError, RecursionError, OverflowError, MemoryError) as e:
        reason = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
        raise InputError(str(path), None, f"cannot read it as {kind}: {reason}") from None
    if key is not None:
        entries = [model.select(entries, key, str(path))]
    return kind, entries
