"""What a puzzle kind declares: its methods, its options, its files and its pictures.

A kind is one package under :mod:`cspsolve.models` whose ``kind`` module holds a :class:`Kind`
named ``KIND``. The engine (:mod:`cspsolve.tasks`, the command line, batch runs) works on any
kind through this declaration alone, and names none of them:

- :class:`Method` rows say what each method runs, its heuristics, whether its answers are
  optimal and complete, its backend, and when it is the default;
- ``options`` is a dataclass of the kind's own settings: each field becomes a command-line
  flag (``--field-name``) whose help is the field's ``metadata["help"]`` and whose choices are
  ``metadata["choices"]``; every field defaults to ``None`` or ``False`` (the kind's choice);
- ``reference`` names the method that ``verify`` checks the others against;
- ``tools`` are what the web page offers beside the methods: a :class:`Designer` that makes
  puzzles of drawings, a :class:`Player` that plays a puzzle cell by cell.

The style follows networkx and CPMpy: a puzzle is a plain data object, methods are functions
over it with keyword-only options, and each solver backend lives in a module of its own.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

from cspsolve.errors import OptionError
from cspsolve.explanation import Explanation
from cspsolve.limits import Limits
from cspsolve.render import Scene
from cspsolve.results import Result

if TYPE_CHECKING:
    import networkx as nx

__all__ = [
    "TOOLS",
    "Designer",
    "Generator",
    "Kind",
    "Made",
    "Method",
    "NoOptions",
    "Player",
    "PuzzleEntry",
    "Runner",
    "listed_moves",
    "option",
]


class Runner(Protocol):
    """How a method is called: the puzzle, then keyword-only heuristic, options and limits."""

    def __call__(
        self, puzzle: Any, /, *, heuristic: str | None, options: Any, limits: Limits | None
    ) -> Result[Any]:
        """Solve ``puzzle``; the heuristic is one of the method's (``None`` when it has none)."""
        ...


class Confirmer(Protocol):
    """How a reference method checks another method's answer (see :attr:`Method.confirm`)."""

    def __call__(
        self, puzzle: Any, answer: Result[Any], /, *, options: Any, limits: Limits | None
    ) -> Result[Any]:
        """Its own result for ``puzzle``, proved afresh, using ``answer`` only as a bound."""
        ...


class PuzzleEntry(Protocol):
    """One puzzle read from a file (in a file of many, a :class:`~cspsolve.inputs.BrokenEntry`
    when it cannot be read)."""

    @property
    def id(self) -> int | str | None:
        """Its id inside a multi-puzzle file (``None`` for single-puzzle files)."""
        ...

    @property
    def puzzle(self) -> Any:
        """The puzzle object (a broken entry raises its error)."""
        ...

    @property
    def line(self) -> int:
        """1-based line where the puzzle starts."""
        ...


def _always(puzzle: Any) -> str | None:
    return None


@dataclass(frozen=True, kw_only=True)
class Method:
    """One row of a kind's table of methods.

    Attributes
    ----------
    name : str
        What ``--method`` calls it, e.g. ``"astar"``.
    run : Runner
        ``run(puzzle, *, heuristic, options, limits) -> Result``.
    summary : str
        One line for ``cspsolve methods``: the algorithm and its source.
    backend : str
        What computes the answer: ``"search"`` (:mod:`cspsolve.search`), ``"csp"``
        (:mod:`cspsolve.csp`), ``"compiled"`` (the kind's numba kernels), ``"cp-sat"``,
        ``"python-constraint"``, ``"algebra"``.
    optimal : bool or None
        Whether it proves its answers least-cost (status ``optimal``); ``None`` where the
        puzzle has no cost to minimise.
    complete : bool
        It finds an answer whenever one exists and proves unsolvable puzzles so, given time.
    heuristics : tuple of str
        The heuristics it takes (empty for uninformed methods); the first is its default.
    default : bool or callable
        Whether it is the kind's default method, or a predicate on the puzzle saying so (the
        first default method that takes the heuristic asked for is chosen).
    refuses : callable
        ``refuses(puzzle) -> str | None``: why it cannot run on this puzzle (then asking for it
        raises :class:`~cspsolve.errors.OptionError`), else ``None``.
    compared : callable or None
        ``compared(puzzle) -> heuristics``: what ``cspsolve compare`` runs of it on this puzzle
        (``[None]`` for an uninformed method, ``[]`` to leave it out). Default: every heuristic.
    confirm : Confirmer or None
        How it answers as the kind's ``reference`` in ``verify``, given the answer to check
        (e.g. CP-SAT proving the search's optimum as a bound). Default: it solves afresh.
    """

    name: str
    run: Runner
    summary: str
    backend: str
    optimal: bool | None
    complete: bool
    heuristics: tuple[str, ...] = ()
    default: bool | Callable[[Any], bool] = False
    refuses: Callable[[Any], str | None] = _always
    compared: Callable[[Any], Sequence[str | None]] | None = None
    confirm: Confirmer | None = None

    def is_default(self, puzzle: Any) -> bool:
        """Whether this is the default method for ``puzzle``."""
        return self.default(puzzle) if callable(self.default) else self.default

    def comparisons(self, puzzle: Any) -> list[str | None]:
        """The heuristics ``cspsolve compare`` runs this method with on ``puzzle``."""
        if self.refuses(puzzle) is not None:
            return []
        if self.compared is not None:
            return list(self.compared(puzzle))
        return list(self.heuristics) or [None]


@dataclass(frozen=True)
class NoOptions:
    """The options of a kind that has none."""


def option(
    help: str, *, default: Any = None, choices: Sequence[str] = (), metavar: str | None = None
) -> Any:
    """A field of a kind's options dataclass, with the help (and choices, or the name of its
    value in the help: ``metavar``) of its flag.

    Examples
    --------
    >>> from dataclasses import dataclass, fields
    >>> @dataclass(frozen=True)
    ... class Options:
    ...     metric: str | None = option("Cost of a plan.", choices=("moves", "steps"))
    >>> fields(Options)[0].metadata["choices"]
    ('moves', 'steps')
    """
    metadata = {"help": help, "choices": tuple(choices), "metavar": metavar}
    return field(default=default, metadata=metadata)


@dataclass(frozen=True, kw_only=True)
class Designer:
    """A kind's designer: the puzzle a drawing makes, checked, and its files.

    A drawing is a tuple of rows of ``#`` (filled) and ``.`` (empty), all of one length; the
    web page lets people draw one, or trace it from an image, and shows the runs of ``#`` of
    each row and column beside it.

    Attributes
    ----------
    title : str
        The heading of the page's designer, e.g. ``"Design a nonogram"``.
    note : str
        One line on what to do there and what the check says.
    puzzle : callable
        ``puzzle(drawing, title) -> puzzle``: the puzzle whose answer is the drawing.
    files : mapping of str to callable
        Each format it writes (``"non"``: a file ending ``.non``) to
        ``write(puzzle) -> text``, the file's text.
    check : callable
        ``check(puzzle, limits) -> dict``: what the puzzle's clues decide (its answer is
        JSON-ready data; the page runs it as a job in a worker).
    """

    title: str
    note: str
    puzzle: Callable[[tuple[str, ...], str], Any]
    files: Mapping[str, Callable[[Any], str]]
    check: Callable[[Any, Limits], dict[str, Any]]


@dataclass(frozen=True, kw_only=True)
class Player:
    """A kind's play: a puzzle's grid pressed (or tapped) cell by cell, with a hint on request.

    Attributes
    ----------
    title : str
        The heading of the page's play, e.g. ``"Play Lights Out"``.
    note : str
        One line on the rules.
    moves : callable
        ``moves(puzzle, raw) -> moves``: the moves of the ``[row, column]`` pairs a request
        lists (``None`` for none), in the form ``board`` and ``after`` take; raises
        :class:`~cspsolve.errors.OptionError` for moves that do not fit the puzzle, or a puzzle
        that cannot be played.
    board : callable
        ``board(puzzle, moves) -> dict``: the grid after the moves as JSON-ready data:
        ``rows`` (a string per row, a character per cell) and, for the page, optionally
        ``labels`` (a list per row of each cell's text), ``style`` (how the page draws the
        cells: ``"lights"``, ``"tiles"``, ``"cars"``), ``status`` (the board in words),
        ``solved``, ``pressed`` (cells to mark) and ``exit`` (a row whose right end is the
        way out, marked beside the board).
    after : callable
        ``after(puzzle, moves) -> puzzle``: the puzzle as the moves leave it.
    hint : callable
        ``hint(puzzle, limits) -> dict``: a next move towards a solution, as JSON-ready data
        (the page runs it as a job in a worker): ``press`` (``[row, column]`` or ``None``)
        and optionally ``words`` (the hint as the page says it, rows and columns from 1).
    """

    title: str
    note: str
    moves: Callable[[Any, Any], Any]
    board: Callable[[Any, Any], dict[str, Any]]
    after: Callable[[Any, Any], Any]
    hint: Callable[[Any, Limits], dict[str, Any]]


class Made(NamedTuple):
    """One puzzle a :class:`Generator` made, with what was proven about it."""

    puzzle: Any
    """The puzzle object, as the kind's ``read`` would give it."""
    certificate: dict[str, Any]
    """What was proven about it, JSON-ready: each promise the options asked for (e.g.
    ``"unique": True``, ``"optimum": 20``) with how it was proven (``"proven_by"``: the
    method and the proof's words) and the figures that describe it (size, density, cells
    changed)."""


@dataclass(frozen=True, kw_only=True)
class Generator:
    """How a kind makes puzzles to order (``cspsolve generate KIND``, :func:`cspsolve.generate`).

    Attributes
    ----------
    options : type
        A dataclass of the generator's settings; each field becomes a flag of ``cspsolve
        generate KIND`` as the kind's own options do (``metadata["help"]``, ``"choices"``,
        ``"metavar"``; a field of ``float | None`` takes a number). Every field has a default.
    make : callable
        ``make(options, rng, limits) -> Made | None``: one puzzle keeping every promise the
        options ask for, drawn with ``rng`` (a :class:`random.Random`) alone, so that the same
        seed gives the same puzzle in any process; ``None`` when ``limits`` stopped it first.
        Raises :class:`~cspsolve.errors.OptionError` for options that no puzzle can meet (one
        line, naming the flag), and before any work when the options are malformed.
    extension : str
        The file extension the puzzles are written under (``".non"``), one the kind's
        ``write`` knows.
    note : str
        A paragraph for the command's help: how the puzzles are made and proven.
    """

    options: type
    make: Callable[[Any, random.Random, Limits], Made | None]
    extension: str
    note: str = ""

    def __post_init__(self) -> None:
        if not dataclasses.is_dataclass(self.options):
            raise TypeError("a generator's options must be a dataclass")


TOOLS: Mapping[str, type[Designer | Player]] = {"design": Designer, "play": Player}
"""The tools a kind may declare, by the name it declares each under, and their types."""


def listed_moves(raw: Any, *, what: str, shape: str, size: int, most: int) -> list[list[int]]:
    """The moves a play request lists, for a :class:`Player`'s ``moves``: each a list of
    ``size`` whole numbers (``None``: no move).

    Parameters
    ----------
    raw : object
        What the request sent.
    what, shape : str
        The moves' name and shape in messages: ``"taps"``, ``"[row, column] pairs"``.
    size : int
        Numbers in a move.
    most : int
        The most moves one request may list.

    Raises
    ------
    OptionError
        For anything but a list of at most ``most`` such lists.

    Examples
    --------
    >>> listed_moves([[0, 1]], what="taps", shape="[row, column] pairs", size=2, most=9)
    [[0, 1]]
    """
    if raw is None:
        return []
    if not isinstance(raw, list) or len(raw) > most:
        raise OptionError(f"{what} must be a list of at most {most} {shape}")
    for move in raw:
        ok = isinstance(move, list) and len(move) == size
        if not ok or not all(isinstance(v, int) and not isinstance(v, bool) for v in move):
            raise OptionError(f"{what} must be {shape} of whole numbers")
    return raw


def no_moves(puzzle: Any) -> list[Any]:
    """The empty plan: the :attr:`Kind.blank` of a kind whose solutions are plans of moves."""
    return []


@dataclass(frozen=True, kw_only=True)
class Kind:
    """Everything a puzzle kind offers the engine.

    Attributes
    ----------
    name : str
        The kind's name (``--kind``), e.g. ``"queens"``.
    title : str
        Its name for people, e.g. ``"Queens"`` (prefixes the help of its flags).
    extensions : frozenset of str
        File extensions (lower case, with the dot) only this kind uses: such a file is given
        to this kind without sniffing, so its reader reports what is wrong with it.
    priority : int
        Kinds are asked to sniff a file in increasing priority; the first answer wins.
    methods : tuple of Method
        Every method; their names are unique.
    reference : str
        The method ``verify`` checks answers against.
    options : type
        The dataclass of the kind's own options (see :func:`option`).
    verify_options : mapping
        Options ``verify`` always sets on both runs (e.g. deciding uniqueness).
    analysis : str
        The keys :attr:`analyze` reports, for ``cspsolve methods``.
    sniff : callable
        ``sniff(name, text) -> format | None``: the format of a file's first 64 KiB when it is
        this kind's (only when sure).
    read : callable
        ``read(path) -> [PuzzleEntry, ...]``; raises :class:`~cspsolve.errors.InputError`
        (in a file of many puzzles, only where the puzzles cannot be told apart: each is read
        on its own, see :mod:`cspsolve.inputs`).
    select : callable
        ``select(entries, key, source) -> PuzzleEntry``: the puzzle ``FILE#KEY`` names.
    write : callable
        ``write(puzzle, path)`` in the format the extension names; raises
        :class:`~cspsolve.errors.OptionError` when none can.
    check : callable
        ``check(puzzle, solution) -> [problem, ...]``: an independent checker of solutions.
    encode : callable
        ``encode(solution)``: the JSON form of a solution.
    describe : callable
        ``describe(puzzle) -> str``, e.g. ``"25x25"``.
    draw : callable
        ``draw(puzzle, solution) -> str``: the solution drawn as text for a terminal.
    scenes : callable
        ``scenes(puzzle, solution) -> [Scene, ...]``: the picture of the solution, then one
        per state along a plan (an animated GIF plays them); raises OptionError for a puzzle
        that has no grid to draw.
    analyze : callable
        ``analyze(puzzle, *, method, heuristic, options, limits) -> dict``: difficulty and
        structure as JSON-ready data; a ``"status"`` of ``"limit"`` when a limit cut it short.
    prepare : callable or None
        ``prepare(puzzle, options) -> puzzle``: the puzzle as the options shape it (e.g. a
        board under another rule of play); must be idempotent.
    constraint_graph : callable or None
        ``constraint_graph(puzzle) -> networkx.Graph`` for kinds solved as a CSP.
    explain : callable or None
        ``explain(puzzle, *, method, heuristic, options, limits) -> Explanation``: why the
        answer holds, step by step (:mod:`cspsolve.explanation`); ``method`` and ``heuristic``
        are those asked for (``None``: the kind's choice). ``None`` when the kind explains
        nothing.
    blank : callable or None
        ``blank(puzzle) -> solution``: the solution that draws the puzzle as it is given (no
        presses, no moves, an empty grid), for its picture in Jupyter
        (:func:`cspsolve.notebook.picture`); ``None`` when puzzles show no picture.
    classes : mapping of str to type
        The kind's puzzle classes by the capitalised names ``cspsolve`` offers them under
        (``from cspsolve import RushHour``), unique among the kinds and the engine's names.
    presolve : callable or None
        ``presolve(puzzle) -> Result | None``: the answer at sight, before any method runs
        (e.g. an unsolvable board by a parity rule); ``None`` leaves the puzzle to the method.
    tools : mapping of str to Designer or Player
        What the web page offers for the kind beside its methods, each under its name in
        :data:`TOOLS` (``"design"``: a :class:`Designer`; ``"play"``: a :class:`Player`).
    generator : Generator or None
        How the kind makes puzzles to order (``cspsolve generate``); ``None`` when it makes
        none.
    samples : tuple of str
        Shipped puzzles (``FOLDER/FILE`` or ``FOLDER/FILE#KEY`` under :mod:`cspsolve.instances`)
        on which the kind's commands, together, call every one of its compiled kernels:
        ``cspsolve warm`` runs them (:mod:`cspsolve.warming`). Empty for a kind with none.
    """

    name: str
    title: str
    extensions: frozenset[str]
    methods: tuple[Method, ...]
    reference: str
    sniff: Callable[[str, str], str | None]
    read: Callable[[str | Path], Sequence[PuzzleEntry]]
    select: Callable[[Any, str, str], PuzzleEntry]
    write: Callable[[Any, str | Path], None]
    check: Callable[[Any, Any], list[str]]
    encode: Callable[[Any], Any]
    describe: Callable[[Any], str]
    draw: Callable[[Any, Any], str]
    scenes: Callable[[Any, Any], list[Scene]]
    analyze: Callable[..., dict[str, Any]]
    analysis: str
    priority: int = 50
    options: type = NoOptions
    verify_options: Mapping[str, Any] = field(default_factory=dict)
    prepare: Callable[[Any, Any], Any] | None = None
    constraint_graph: Callable[[Any], nx.Graph] | None = None
    explain: Callable[..., Explanation] | None = None
    blank: Callable[[Any], Any] | None = None
    classes: Mapping[str, type] = field(default_factory=dict)
    presolve: Callable[[Any], Result[Any] | None] | None = None
    tools: Mapping[str, Designer | Player] = field(default_factory=dict)
    samples: tuple[str, ...] = ()
    generator: Generator | None = None

    def __post_init__(self) -> None:
        names = [m.name for m in self.methods]
        if len(set(names)) != len(names):
            raise TypeError(f"kind {self.name}: two methods share a name in {names}")
        if not dataclasses.is_dataclass(self.options):
            raise TypeError(f"kind {self.name}: options must be a dataclass")
        for name, tool in self.tools.items():
            if not isinstance(tool, TOOLS.get(name, ())):
                known = ", ".join(f"{n} ({t.__name__})" for n, t in TOOLS.items())
                raise TypeError(f"kind {self.name}: tool {name!r} is not one of {known}")

    @property
    def method_names(self) -> tuple[str, ...]:
        """The names of its methods, in table order."""
        return tuple(m.name for m in self.methods)

    @property
    def heuristic_names(self) -> tuple[str, ...]:
        """Every heuristic of any of its methods, in table order."""
        return tuple(dict.fromkeys(h for m in self.methods for h in m.heuristics))

    @property
    def option_names(self) -> tuple[str, ...]:
        """The fields of its options dataclass."""
        return tuple(f.name for f in dataclasses.fields(self.options))

    def method(self, name: str) -> Method:
        """The method called ``name``; raises KeyError."""
        for m in self.methods:
            if m.name == name:
                return m
        raise KeyError(name)
