"""The ``rushhour`` kind: its options, its table of methods and ``KIND``.

Each compiled method is a module named by the method over the shared representations
(:mod:`.cluster`, :mod:`.packed`, :mod:`._kernels`), loaded when first run: ``bfs``
(:mod:`.bfs`, the default on boards of at most 6 x 6), ``bfida`` (:mod:`.bfida`, the default
beyond), ``anytime`` (:mod:`.anytime`) and ``cpsat`` (:mod:`.cpsat`, the reference of
``verify``). ``astar``, ``idastar``, ``greedy``, ``engine-bfs`` and ``dfs`` are the engine's
searches (:mod:`cspsolve.searches`, which says what each guarantees) on
:class:`.search.RushHourProblem` (:func:`.search.setting`), whose actions are slides; under
the steps metric a slide costs its length, so ``engine-bfs`` then answers ``solved``, not
``optimal`` (use ``astar`` — uniform-cost search with ``--heuristic zero``). ``idastar`` sees
the problem through the transposition table of :class:`.search.Transpositions`, which makes it
end on unsolvable boards. A board whose red car is walled in for good (:func:`.board.presolve`) is
reported unsolvable at once, without a search, whatever the method. ``GENERATOR`` makes boards
to order (:func:`.generate.make`; :mod:`.generate` loads numpy only when it searches).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from cspsolve import searches
from cspsolve.errors import OptionError
from cspsolve.explanation import Explanation
from cspsolve.kind import Generator, Kind, Method, no_moves, option
from cspsolve.limits import Limits
from cspsolve.loading import lazy
from cspsolve.render import plural

from . import bfs
from .board import Board, Move, check, presolve
from .formats import read, select, sniff, write
from .generate import GenerateOptions, make
from .pictures import draw, scenes
from .play import PLAYER
from .search import HEURISTICS, METRICS, setting

__all__ = ["GENERATOR", "KIND", "RushHourOptions", "analyze"]

DEFAULT_HEURISTIC = "blockers"
_HEURISTICS = (DEFAULT_HEURISTIC, *(h for h in HEURISTICS if h != DEFAULT_HEURISTIC))
_COMPILED_HEURISTICS = (DEFAULT_HEURISTIC, "union", "blocking", "zero")


@dataclass(frozen=True)
class RushHourOptions:
    """The Rush Hour kind's options."""

    metric: str | None = option(
        "cost of a plan: a piece slid any distance (moves, the default) or one cell (steps).",
        choices=METRICS,
    )

    @property
    def cost(self) -> str:
        """The metric, ``"moves"`` when none was given."""
        return self.metric or "moves"


METHODS = (
    Method(
        name="bfs",
        run=bfs.run,
        summary="compiled breadth-first search over bit-packed positions",
        backend="compiled",
        optimal=True,
        complete=True,
        default=bfs.default,
        refuses=bfs.refuses,
    ),
    Method(
        name="bfida",
        run=lazy(f"{__package__}.bfida"),
        summary="breadth-first iterative-deepening A* on bit-packed positions (Zhou, Hansen 2006)",
        backend="compiled",
        optimal=True,
        complete=True,
        heuristics=_COMPILED_HEURISTICS,
        default=True,
    ),
    Method(
        name="anytime",
        run=lazy(f"{__package__}.anytime"),
        summary="beam search for plans beside BFIDA* for a lower bound, until they meet",
        backend="compiled",
        optimal=True,
        complete=True,
        heuristics=("union", *(h for h in _COMPILED_HEURISTICS if h != "union")),
        compared=lambda board: ("union",),
    ),
    searches.method("astar", setting(), on="on slides", heuristics=_HEURISTICS, unit_cost=False),
    searches.method(
        "idastar",
        setting(transpositions=True),
        on="on slides",
        note="with a transposition table (Reinefeld & Marsland 1994)",
        unit_cost=False,
        heuristics=_HEURISTICS,
        compared=lambda board: (DEFAULT_HEURISTIC,),
    ),
    searches.method(
        "greedy",
        setting(),
        on="on slides",
        unit_cost=False,
        heuristics=_HEURISTICS,
        compared=lambda board: (DEFAULT_HEURISTIC,),
    ),
    searches.method(
        "bfs",
        setting(),
        name="engine-bfs",
        on="on slides",
        note="(under --metric steps a slide costs its length: its plans are then not proven "
        "shortest)",
    ),
    searches.method("dfs", setting(), on="on slides", unit_cost=False),
    Method(
        name="cpsat",
        run=lazy(f"{__package__}.cpsat"),
        summary="OR-Tools CP-SAT on a time-expanded model, horizon deepened until a plan",
        backend="cp-sat",
        optimal=True,
        complete=True,
        confirm=lazy(f"{__package__}.cpsat", "confirm"),
    ),
)


def analyze(
    board: Board,
    *,
    method: str | None,
    heuristic: str | None,
    options: RushHourOptions,
    limits: Limits | None,
) -> dict[str, Any]:
    """Cluster size, goal states, optimal moves and steps, the grade (:mod:`.analysis`).

    Raises
    ------
    OptionError
        When a method or heuristic is named: the analysis explores the whole cluster.
    """
    if method is not None or heuristic is not None:
        raise OptionError("analyze explores the whole cluster; it takes no --method/--heuristic")
    from .analysis import analyze as analyze_cluster  # numpy: only when asked for

    return analyze_cluster(board, limits)


def encode(solution: list[Move]) -> dict[str, Any]:
    """``{"moves": ["A+2", "B-1", ...], "count": N}``."""
    return {"moves": [str(m) for m in solution], "count": len(solution)}


def describe(board: Board) -> str:
    """E.g. ``6x6, 13 pieces, 1 wall``."""
    walls = len(board.walls)
    pieces = len(board.pieces)
    text = f"{board.size}x{board.size}, {plural(pieces, 'piece')}"
    return text + (f", {plural(walls, 'wall')}" if walls else "")


def _explain(board: Board, **how: Any) -> Explanation:
    """The plan explained move by move (:mod:`.explain`, imported on first use) by this
    kind's methods."""
    from .explain import explain

    return explain(board, kind=KIND, **how)


GENERATOR = Generator(
    options=GenerateOptions,
    make=make,
    extension=".rh",
    note="Boards are drawn at random (the red car at the exit, then walls, cars and trucks at "
    "random free cells) and, to reach --min-moves, changed one piece at a time while the "
    "position of the cluster farthest from the exit comes no nearer (hill climbing, restarted "
    "from the best board when it stalls). Each board's whole cluster is searched breadth "
    "first, then again from all its goal positions: the optimum given, and with --hardest that "
    "no position of the cluster is farther, are proven. The board is a position at least "
    "--min-moves (else 1) moves from the exit, or with --hardest one of the farthest.",
)
"""How the kind makes boards to order (:func:`.generate.make`)."""


KIND = Kind(
    name="rushhour",
    title="Rush Hour",
    extensions=frozenset({".rh"}),
    priority=30,
    methods=METHODS,
    reference="cpsat",
    options=RushHourOptions,
    analysis="optimal_moves, cluster_size, goal_states, distance histogram, grade",
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
    blank=no_moves,
    classes={"RushHour": Board},
    presolve=presolve,
    samples=("rushhour/card-32.txt",),
    tools={"play": PLAYER},
    generator=GENERATOR,
)
