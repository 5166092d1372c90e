"""The ``npuzzle`` kind: its options, its table of methods and ``KIND``.

Methods: the engine's searches (:mod:`cspsolve.searches`, which says what each guarantees) on
:class:`.search.SlidingTileProblem` (:func:`.search.searched`: ``astar``, ``idastar``,
``weighted-astar`` with weight 2, ``greedy``, ``bfs``, ``iddfs``, ``dfs``), the compiled
``tile-idastar`` (the package :mod:`.tile_idastar`), and ``cpsat``, the time-expanded CP-SAT
model of :mod:`.cpsat` with its horizon deepened from the heuristic's value of the start
(``manhattan`` by default, the model's own bound); the last two are loaded when first run.
Default: A* for boards of at most 9 cells, ``tile-idastar`` above; the searches' heuristic
defaults to ``pdb`` (the best available). Options (:class:`SlidingTileOptions`): ``partition``
names the pattern databases (e.g. ``6-6-6-6`` for the 24-puzzle), ``weight`` makes
``tile-idastar`` weighted IDA* (plans within ``w`` times the optimum, the bound in ``proof``)
and sets the weight of ``weighted-astar``; ``verify`` always runs unweighted.
``tile-idastar`` splits its search over ``limits.workers`` processes, or the workers of the
Dask scheduler ``limits.scheduler`` (:mod:`.tile_idastar.split`), with the answer of the
one-core run.
Boards are made to order by :mod:`.generate` (``cspsolve generate npuzzle``).
Unsolvable boards are reported at once from the parity rule (:func:`.board.presolve`), without
a search or a model. The
limits cover the whole command: building the pattern databases (and CP-SAT's models) counts
against the time limit (and stops with status ``limit`` when it passes). ``verify`` checks
the search against ``cpsat``, which deepens from the Manhattan distance up to the optimum the
search claims: every shorter horizon infeasible and a plan at the optimum confirm it; where a
limit stops CP-SAT first, the bound it proved must not exceed the search's optimum.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from cspsolve import searches, tasks
from cspsolve.errors import OptionError
from cspsolve.explanation import Explanation
from cspsolve.kind import Generator, Kind, Method, no_moves, option
from cspsolve.limits import Limits
from cspsolve.loading import lazy
from cspsolve.results import Status
from cspsolve.searches import WEIGHT

from .board import Plan, Puzzle, check, presolve, solvability
from .formats import read, select, sniff, write
from .generate import EXTENSION, NOTE, GenerateOptions, make
from .partitions import PARTITIONS
from .pictures import draw, scenes
from .play import PLAYER
from .search import searched

if TYPE_CHECKING:
    import networkx as nx

__all__ = ["KIND", "WEIGHT", "SlidingTileOptions", "analyze"]

HEURISTICS = ("pdb", "linear-conflict", "manhattan", "misplaced", "gaschnig")
"""The engine searches' heuristics, the default first."""
COMPILED = ("pdb", "manhattan")
"""The heuristics of the compiled IDA*."""
CPSAT_HEURISTICS = ("manhattan", "linear-conflict", "pdb")
"""The estimates CP-SAT's first horizon may start from, the model's own first."""
WEIGHTED = ("tile-idastar", "weighted-astar")
"""The methods that take a weight."""


@dataclass(frozen=True)
class SlidingTileOptions:
    """The sliding-tile kind's options (``None`` keeps the defaults).

    Raises
    ------
    OptionError
        When ``weight`` is not a number of at least 1 (a decimal or a fraction such as
        ``3/2``, denominator at most 10^6).
    """

    partition: str | None = option(
        "pattern databases of the pdb heuristic, for a goal with the blank in a corner: "
        "6-6-3 or 5-5-5 on the 4x4, 6-6-6-6 on the 5x5 (four databases of 127.5 M entries, "
        "510 MB, built once and cached). Default: 6-6-3 on the 4x4, else patterns of at most "
        "8 million entries.",
        choices=tuple(PARTITIONS),
    )
    weight: str | None = option(
        "W >= 1, a decimal or a fraction such as 3/2: tile-idastar runs weighted IDA* "
        "(f = g + W h) and weighted-astar uses W (default 2); plans cost at most W times the "
        "optimum, the bound in proof.",
        metavar="W",
    )

    def __post_init__(self) -> None:
        self.w  # noqa: B018 - checks the weight once, when the options are made

    @property
    def w(self) -> Fraction | None:
        """The weight as an exact fraction, or None when not given."""
        if self.weight is None:
            return None
        try:
            w = Fraction(self.weight.strip())
        except (ValueError, ZeroDivisionError):
            raise OptionError(f"--weight must be a number >= 1, not {self.weight!r}") from None
        if w < 1 or w.denominator > 10**6:
            raise OptionError(
                f"--weight must be >= 1 with a denominator <= 10^6, not {self.weight!r}"
            )
        return w

    def weight_for(self, method: str) -> Fraction | None:
        """The weight for ``method`` (:attr:`w`).

        Raises
        ------
        OptionError
            When a weight is given to a method that takes none (not in :data:`WEIGHTED`).
        """
        w = self.w
        if w is not None and method not in WEIGHTED:
            raise OptionError(f"--weight is for {' and '.join(WEIGHTED)}, not {method}")
        return w


def _small(puzzle: Puzzle) -> bool:
    return puzzle.cells <= 9


def _large(puzzle: Puzzle) -> bool:
    return puzzle.cells > 9


def _by_size(small: tuple[str | None, ...], large: tuple[str | None, ...]) -> Any:
    """What ``compare`` runs: ``small`` on boards of at most 9 cells, ``large`` beyond."""

    def compared(puzzle: Puzzle) -> tuple[str | None, ...]:
        return small if _small(puzzle) else large

    return compared


METHODS = (
    searches.method(
        "astar",
        searched,
        heuristics=HEURISTICS,
        default=_small,
        compared=_by_size(HEURISTICS, ("pdb",)),
    ),
    Method(
        name="tile-idastar",
        run=lazy(f"{__package__}.tile_idastar"),
        summary="compiled IDA* on tile arrays, incremental heuristics, duplicate-move pruning",
        backend="compiled",
        optimal=True,
        complete=True,
        heuristics=COMPILED,
        default=_large,
    ),
    searches.method(
        "idastar",
        searched,
        heuristics=HEURISTICS,
        default=_large,
        compared=_by_size(HEURISTICS, ("pdb",)),
    ),
    searches.method(
        "weighted-astar",
        searched,
        heuristics=HEURISTICS,
        compared=_by_size(("manhattan",), ("linear-conflict",)),
    ),
    searches.method(
        "greedy",
        searched,
        heuristics=HEURISTICS,
        compared=_by_size(("manhattan",), ("linear-conflict",)),
    ),
    Method(
        name="cpsat",
        run=lazy(f"{__package__}.cpsat"),
        summary="OR-Tools CP-SAT on a time-expanded model, horizon deepened until a plan "
        "(Kautz & Selman 1992)",
        backend="cp-sat",
        optimal=True,
        complete=True,
        heuristics=CPSAT_HEURISTICS,
        compared=_by_size(("manhattan",), ()),
        confirm=lazy(f"{__package__}.cpsat", "confirm"),
    ),
    searches.method("bfs", searched, compared=_by_size((None,), ())),
    searches.method("iddfs", searched, compared=_by_size((), ())),
    searches.method("dfs", searched, compared=_by_size((None,), ())),
)


def analyze(
    puzzle: Puzzle,
    *,
    method: str | None,
    heuristic: str | None,
    options: Any,
    limits: Limits | None,
) -> dict[str, Any]:
    """Solvability (with its reason), heuristic values of the start, the optimal length and
    the grade.

    Returns
    -------
    dict
        ``solvable``, ``reason``, ``cells``, ``grade`` (:func:`.grading.grade` of the optimal
        length, as ``explain`` grades: ``unsolvable`` for an unsolvable board, ``None`` when
        the length is not proven), ``manhattan``, ``linear_conflict``, ``optimal_length``
        (when computed: the default method, or the one asked for, proves it; ``None`` when a
        limit stopped it or the method does not prove optimality), ``status``, ``method``,
        ``expanded``, ``seconds``.
    """
    from .grading import grade
    from .search import heuristic as make_heuristic

    ok, why = solvability(puzzle)
    out: dict[str, Any] = {"solvable": ok, "reason": why, "cells": puzzle.cells}
    if not ok:
        return out | {"grade": grade(puzzle, None)}
    state = bytes(puzzle.start)
    out["manhattan"] = int(make_heuristic("manhattan", puzzle)(state))
    out["linear_conflict"] = int(make_heuristic("linear-conflict", puzzle)(state))
    result = tasks.solve(KIND, puzzle, request=tasks.Request(method, heuristic), limits=limits)
    optimal = result.status == Status.OPTIMAL
    out["optimal_length"] = int(result.stats.cost) if optimal else None
    out["grade"] = grade(puzzle, out["optimal_length"]) if optimal else None
    out["status"] = result.status.value
    out["method"] = result.method
    out["expanded"] = result.stats.expanded
    out["seconds"] = round(result.stats.seconds, 6)
    return out


def encode(solution: Plan) -> dict[str, Any]:
    """The JSON form of a plan: ``{"moves": ["U", "L", ...], "count": N}``."""
    return {"moves": list(solution), "count": len(solution)}


def describe(puzzle: Puzzle) -> str:
    """``3x3 (8-puzzle)``, ``2x4``..."""
    size = f"{puzzle.rows}x{puzzle.cols}"
    return f"{size} ({puzzle.cells - 1}-puzzle)" if puzzle.rows == puzzle.cols else size


def constraint_graph(puzzle: Puzzle) -> nx.Graph:
    """The constraint graph of CP-SAT's time-expanded model (:func:`.cpsat.constraint_graph`)."""
    from .cpsat import constraint_graph as model_graph

    return model_graph(puzzle)


def _explain(puzzle: Puzzle, **how: Any) -> Explanation:
    """The plan explained move by move (:mod:`.explain`, imported on first use) by this
    kind's methods."""
    from .explain import explain

    return explain(puzzle, kind=KIND, **how)


KIND = Kind(
    name="npuzzle",
    title="Sliding tiles",
    extensions=frozenset({".korf"}),
    priority=40,
    methods=METHODS,
    reference="cpsat",
    options=SlidingTileOptions,
    verify_options={"weight": None},
    analysis="solvable, optimal_length, grade",
    sniff=sniff,
    read=read,
    select=select,
    write=write,
    check=check,
    encode=encode,
    describe=describe,
    draw=draw,
    scenes=scenes,
    analyze=analyze,
    explain=_explain,
    constraint_graph=constraint_graph,
    blank=no_moves,
    classes={"NPuzzle": Puzzle},
    presolve=presolve,
    samples=("npuzzle/korf15-easy.korf#18", "npuzzle/worst8.json", "npuzzle/small2x4.txt"),
    tools={"play": PLAYER},
    generator=Generator(options=GenerateOptions, make=make, extension=EXTENSION, note=NOTE),
)
