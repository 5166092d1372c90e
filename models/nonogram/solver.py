"""The nonogram methods, each as a :class:`~cspsolve.kind.Runner` of the kind's table.

``probing`` (the default)
    Depth-first search with probing at every node, on compiled bit grids
    (:mod:`.search`): line logic on a worklist of dirty lines, probing to a fixpoint,
    branching on the cell whose trials fixed the most cells. A puzzle of at most
    :data:`LINE_LOGIC_CELLS` cells first gets line logic alone in pure Python (the engine's GAC
    propagation on :mod:`.constraints`), and while the kernels are not loaded, a puzzle of at
    most :data:`QUICK_CELLS` cells gets that line logic, then the engine's MAC for
    :data:`QUICK_NODES` nodes
    (:func:`python_mac`: it answers only a puzzle it proves to have one solution or none, so
    that the answer does not depend on the path), until it fails once or has spent
    :data:`QUICK_TOTAL` seconds in the process; while either settles the puzzles, the compiled
    kernels are never loaded, and a
    small solve takes a fraction of a second as a whole process (neither shortcut is taken
    while :func:`cspsolve.compiling.eager` holds).
``gac-astar``
    Best-first search over GAC-propagated states (:func:`cspsolve.csp.gac_astar`) on the
    implicit-domain CSP of :mod:`.constraints`.
``mac``
    Depth-first search maintaining GAC (:func:`cspsolve.csp.mac`) on the same CSP.
``cpsat``
    The independent OR-Tools CP-SAT model of :mod:`.cpsat` (one automaton per line).
``cdcl``
    Clause learning over the line solvers of the compiled search (:mod:`.search.cdcl`).
``python-constraint``
    Explicit pattern lists handed to python-constraint2 (:mod:`.explicit`); small puzzles only.

``probing`` and ``cpsat`` also solve colour puzzles (:class:`.colour_board.ColourNonogram`),
by the colour solver (:mod:`.search.colour`) and the colour CP-SAT model (:mod:`.colour_cpsat`);
the other methods refuse them (:func:`black_and_white_only`).

Every method decides uniqueness when the options ask (it then looks for a second solution).
Clues whose row and column totals differ are unsolvable at once for every method but CP-SAT,
which refutes them by itself (its model's counting constraints) so that it stays an
independent check.
"""

from __future__ import annotations

import dataclasses
import functools
import sys
import time
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import TypeGuard, cast

from cspsolve import compiling
from cspsolve.csp import Assignment, Domain, gac_astar, mac
from cspsolve.csp.gac import propagate
from cspsolve.errors import OptionError
from cspsolve.kind import Runner, option
from cspsolve.limits import Budget, Limits
from cspsolve.results import Result, Stats, Status

from .board import Grid, Nonogram
from .colour_board import ColourNonogram
from .constraints import LineDomain, build_csp, grid_from_assignment

__all__ = [
    "GRADES",
    "LINE_LOGIC_CELLS",
    "NonogramOptions",
    "black_and_white_only",
    "cdcl",
    "cpsat",
    "gac_astar_method",
    "line_logic",
    "mac_method",
    "pattern_refusal",
    "probing",
    "python_constraint",
    "python_line_fixpoint",
    "python_line_logic",
    "python_mac",
    "sat",
    "spares_kernels",
    "sum_mismatch",
]


@dataclass(frozen=True)
class NonogramOptions:
    """The nonogram kind's options."""

    unique: bool = option("also decide whether the solution is unique.", default=False)
    solutions: int | None = option(
        "list up to N solutions (methods probing, cdcl, cpsat and sat; N >= 2 also decides "
        "uniqueness)."
    )


Puzzle = Nonogram | ColourNonogram
"""A black-and-white or a colour nonogram."""

Solve = Callable[[Puzzle, Limits | None, int], Result[Grid]]
"""A solver given the puzzle, the limits and how many solutions to look for (1 or 2 to solve or
decide uniqueness, up to :attr:`NonogramOptions.solutions` to list them)."""

LISTING = ("probing", "cdcl", "cpsat", "sat")
"""The methods that list several solutions (:attr:`NonogramOptions.solutions`)."""

GRADES = ("line logic", "probing", "deeper probes", "search")
"""The grades of a puzzle, easiest first: the deepest reasoning its explanation needs
(:mod:`.explain`), which ``cspsolve generate nonogram --grade`` asks for."""


def sum_mismatch(puzzle: Puzzle) -> str:
    """Say why the clues contradict each other by their totals ("" when the totals agree); in
    a colour puzzle, the totals of each colour."""
    if isinstance(puzzle, Nonogram):
        by_rows = sum(map(sum, puzzle.rows))
        by_columns = sum(map(sum, puzzle.columns))
        if by_rows == by_columns:
            return ""
        return f"the row clues fill {by_rows} cells, the column clues {by_columns}"
    for colour in range(1, len(puzzle.colours)):
        by_rows, by_columns = (
            sum(n for clue in clues for n, c in clue if c == colour)
            for clues in (puzzle.rows, puzzle.columns)
        )
        if by_rows != by_columns:
            name = puzzle.colours[colour].name
            return f"the row clues have {by_rows} {name} cells, the column clues {by_columns}"
    return ""


def black_and_white_only(puzzle: Puzzle) -> str | None:
    """Why a method of the generic engine refuses ``puzzle``: it has colours (None otherwise)."""
    if isinstance(puzzle, ColourNonogram):
        return "solves black-and-white nonograms only; use probing or cpsat for colour puzzles"
    return None


def pattern_refusal(puzzle: Puzzle) -> str | None:
    """Why python-constraint refuses ``puzzle``: it has colours, or a line has more fill
    patterns than it is handed (:data:`.explicit.MAX_PATTERNS`, counted, never listed)."""
    colours = black_and_white_only(puzzle)
    if colours is not None or isinstance(puzzle, ColourNonogram):
        return colours
    from .explicit import MAX_PATTERNS, too_large

    problem = too_large(puzzle, MAX_PATTERNS)
    return f"{problem}: too many to list; use probing or cpsat" if problem else None


def wanted(options: NonogramOptions) -> int:
    """How many solutions the options ask a method to look for: ``solutions`` (at least 2 with
    ``unique``), else 2 to decide uniqueness or 1."""
    return max(options.solutions or 1, 2 if options.unique else 1)


def _method(solve: Solve, *, refutes_totals: bool = False, lists: bool = False) -> Runner:
    """The runner of ``solve``: uniqueness as the options ask, the totals checked first
    (unless the solver refutes them itself), an unsolvable puzzle's reason in the message.

    ``lists``: ``solve`` returns every solution it found in :attr:`Result.solutions`, which the
    runner keeps when the options ask for ``solutions`` (and drops otherwise); a runner that
    does not list refuses that option.
    """

    def run(
        puzzle: Puzzle,
        /,
        *,
        heuristic: str | None,
        options: NonogramOptions,
        limits: Limits | None,
    ) -> Result[Grid]:
        if options.solutions is not None and not lists:
            listing = ", ".join(LISTING[:-1]) + " and " + LISTING[-1]
            raise OptionError(f"solutions: only the methods {listing} list solutions")
        mismatch = sum_mismatch(puzzle)
        if mismatch and not refutes_totals:
            result: Result[Grid] = Result(Status.UNSOLVABLE, None, Stats())
        else:
            result = solve(puzzle, limits, wanted(options))
        if result.status is Status.UNSOLVABLE:
            result.message = mismatch or "no grid satisfies every clue"
            if wanted(options) >= 2:
                result.proof["unique"] = False
        if options.solutions is None:
            result.solutions = []
            result.proof.pop("exhaustive", None)  # uniqueness says it
        elif result.status is Status.UNSOLVABLE:
            result.proof["exhaustive"] = True
        else:
            result.proof.setdefault("exhaustive", False)
        result.proof.setdefault("unique", None)
        return result

    return run


def _engine(
    search: Callable[..., Result[Assignment]],
) -> Solve:
    """A search of :mod:`cspsolve.csp` on the line model, its assignment turned into a grid;
    building the model counts against the limits (``stats.seconds`` includes it)."""

    def solve(puzzle: Puzzle, limits: Limits | None, wanted: int) -> Result[Grid]:
        assert isinstance(puzzle, Nonogram)  # colour puzzles are refused before
        budget = (limits or Limits()).start(Stats())
        csp = build_csp(puzzle)
        found = search(csp, limits=budget.rest(), max_solutions=wanted)
        found.stats.seconds = budget.finish().seconds
        return found.map(functools.partial(grid_from_assignment, puzzle))

    return solve


LINE_LOGIC_CELLS = 400
"""Largest puzzle (cells) that gets pure-Python line logic before the compiled search: there
it costs at most a few milliseconds, against about half a second to load the kernels."""


def python_line_logic(
    puzzle: Nonogram, *, limits: Limits | None = None, max_solutions: int = 1
) -> Result[Grid] | None:
    """Solve ``puzzle`` by line logic alone, in pure Python, or say it cannot (``None``).

    The twin of the compiled search's first phase, which loads the kernels this one exists to
    spare. Line logic is GAC propagation (:func:`cspsolve.csp.gac.propagate`) on the row and
    column pattern variables of :func:`.constraints.build_csp`. It is sound, so a grid it
    decides in full is the only solution, and a wiped-out line proves the clues unsolvable.

    Parameters
    ----------
    puzzle : Nonogram
        The clues.
    limits : Limits, optional
        Only the clock is kept (propagation is not interrupted).
    max_solutions : int
        2 (or more) to state the uniqueness verdict, as the searches do.

    Returns
    -------
    Result of Grid or None
        As :meth:`cspsolve.results.Result.from_solutions` for method ``"probing"``: ``SOLVED``
        (unique, when ``max_solutions >= 2``) or ``UNSOLVABLE``; ``stats.propagations`` counts
        the revisions; ``solutions`` lists the solution. ``None`` when cells remain undecided.
    """
    stats = Stats()
    budget = (limits or Limits()).start(stats)
    domains = _line_fixpoint(puzzle, stats)
    solutions: list[Grid] = []
    if domains is not None:
        if any(domain.size() != 1 for domain in domains.values()):
            return None
        assignment = {v: domain.value() for v, domain in domains.items()}
        solutions.append(grid_from_assignment(puzzle, assignment))
    decided = Result.from_solutions(
        budget.finish(), "probing", solutions, max_solutions=max_solutions, stopped=None
    )
    decided.solutions = solutions
    return decided


def python_line_fixpoint(puzzle: Nonogram, *, budget: Budget | None = None) -> tuple[bool, int]:
    """What line logic alone decides, in pure Python: the twin of :func:`.kind.line_logic`.

    Parameters
    ----------
    puzzle : Nonogram
        The clues.
    budget : Budget, optional
        Its time limit and cancellation stop the propagation.

    Returns
    -------
    tuple of (bool, int)
        Whether the clues are consistent under line logic, and how many cells it fixes (0 when
        they are not).

    Raises
    ------
    StopPropagationError
        When ``budget`` stopped the propagation.
    """
    domains = _line_fixpoint(puzzle, Stats(), budget)
    if domains is None:
        return False, 0
    rows = (cast(LineDomain, domains["row", i]) for i in range(puzzle.height))
    return True, sum(puzzle.width - row.undecided().bit_count() for row in rows)


def _line_fixpoint(
    puzzle: Nonogram, stats: Stats, budget: Budget | None = None
) -> dict[Hashable, Domain] | None:
    """The line domains of ``puzzle`` made GAC from the empty grid, or ``None`` when a line is
    wiped out; ``stats.propagations`` counts the revisions."""
    csp = build_csp(puzzle)
    domains = dict(csp.domains)
    return domains if propagate(csp, domains, stats=stats, budget=budget) else None


def spares_kernels(puzzle: Puzzle) -> TypeGuard[Nonogram]:
    """Whether plain Python may try ``puzzle`` before the compiled kernels: a black-and-white
    puzzle of at most :data:`QUICK_CELLS` cells while the kernels are not loaded and
    :func:`cspsolve.compiling.eager` does not hold."""
    small = not isinstance(puzzle, ColourNonogram) and puzzle.height * puzzle.width <= QUICK_CELLS
    return small and _COMPILED not in sys.modules and not compiling.is_eager()


QUICK_CELLS = 4096
"""Largest puzzle (cells) that may try pure-Python line logic and :func:`python_mac` first:
line logic takes the webpbn puzzles of up to 3,600 cells 0.06 s at most, settled or not."""
QUICK_NODES = 200
"""Nodes :func:`python_mac` may expand (about 10 ms each on a 25 x 25 puzzle; the webpbn
survey puzzles of 1,360 to 3,300 cells that need search take it 8 to 154 nodes, 0.1 to 0.5 s,
against about half a second to load the kernels)."""
QUICK_SECONDS = 0.5
"""Seconds :func:`python_mac` may spend on a puzzle."""
QUICK_TOTAL = 1.0
"""Seconds :func:`python_mac` may spend in all in a process: a tournament file fails it within
its first few puzzles, a file of easy puzzles spends at most this much more than the kernels."""
_quick_spent = 0.0
_COMPILED = f"{__package__}._kernels"


def python_mac(
    puzzle: Nonogram, *, limits: Limits | None = None, max_solutions: int = 1, nodes: int
) -> Result[Grid] | None:
    """Solve ``puzzle`` by the engine's MAC in pure Python within ``nodes`` expanded nodes and
    :data:`QUICK_SECONDS`, when that settles it, or say it did not (``None``).

    MAC always looks for a second solution here, and answers only a puzzle it proves to have
    one solution, or none: those answers are the compiled search's too, so that a puzzle's
    answer never depends on which path a process took (a puzzle of several solutions is left
    to the compiled search, whose first solution may differ from MAC's).

    Parameters
    ----------
    puzzle : Nonogram
        The clues.
    limits : Limits, optional
        The run's limits (its time and node limits, when smaller, and its cancellation are
        kept).
    max_solutions : int
        What the caller asked for: 2 (or more) to state the uniqueness verdict.
    nodes : int
        The most nodes to expand.

    Returns
    -------
    Result of Grid or None
        As :meth:`cspsolve.results.Result.from_solutions` for ``max_solutions``: ``SOLVED``
        with the only solution (listed in ``solutions``) or ``UNSOLVABLE``, ``CANCELLED``
        when the run was cancelled; ``None`` when MAC stopped at the node or time allowance
        (even after a first solution: its search did not end, so nothing says it is the only
        one) or found two solutions.
    """
    limits = limits or Limits()
    given = limits.time_limit
    seconds = QUICK_SECONDS if given is None else min(QUICK_SECONDS, given)
    most = nodes if limits.max_nodes is None else min(nodes, limits.max_nodes)
    quick = dataclasses.replace(limits, time_limit=seconds, max_nodes=most)
    found = mac(build_csp(puzzle), limits=quick, max_solutions=2)
    if found.status is Status.CANCELLED:
        return found.map(functools.partial(grid_from_assignment, puzzle))
    if found.status is Status.SOLVED and not found.proof.get("exhaustive"):
        return None  # stopped by the node or time allowance, or two solutions: not settled
    if found.status is Status.LIMIT:
        return None
    grids = [grid_from_assignment(puzzle, found.solution)] if found.solution is not None else []
    settled = Result.from_solutions(
        found.stats, found.method, grids, max_solutions=max_solutions, stopped=None
    )
    settled.solutions = grids
    return settled


def _quick_nodes(puzzle: Nonogram) -> int:
    """Nodes :func:`python_mac` may spend: :data:`QUICK_NODES` while the kernels are not loaded
    (the first time it fails, they are) and it has spent less than :data:`QUICK_TOTAL` seconds
    in the process (a process that solves many puzzles is faster loading the kernels once for
    all of them); none while :func:`cspsolve.compiling.eager` holds."""
    return QUICK_NODES if spares_kernels(puzzle) and _quick_spent < QUICK_TOTAL else 0


def _quick_mac(
    puzzle: Nonogram, limits: Limits | None, wanted: int, nodes: int
) -> Result[Grid] | None:
    """:func:`python_mac`, its seconds added to those the process spent in it."""
    global _quick_spent
    started = time.perf_counter()
    try:
        return python_mac(puzzle, limits=limits, max_solutions=wanted, nodes=nodes)
    finally:
        _quick_spent += time.perf_counter() - started


def _tries_line_logic(puzzle: Nonogram) -> bool:
    """Whether pure-Python line logic goes before the compiled search: up to
    :data:`LINE_LOGIC_CELLS` cells, or where plain Python may spare the kernels
    (:func:`spares_kernels`); never while :func:`cspsolve.compiling.eager` holds."""
    if compiling.is_eager():
        return False
    return puzzle.height * puzzle.width <= LINE_LOGIC_CELLS or spares_kernels(puzzle)


def _probing(puzzle: Puzzle, limits: Limits | None, wanted: int) -> Result[Grid]:
    if isinstance(puzzle, ColourNonogram):
        from .search.colour import solve_colour

        return solve_colour(puzzle, limits=limits, max_solutions=wanted)
    if _tries_line_logic(puzzle):
        decided = python_line_logic(puzzle, limits=limits, max_solutions=wanted)
        if decided is not None:
            return decided
    nodes = _quick_nodes(puzzle)
    if nodes:
        budget = (limits or Limits()).start(Stats())
        found = _quick_mac(puzzle, limits, wanted, nodes)
        if found is not None:
            return found
        limits = budget.rest()
    if limits is not None and limits.parallel:
        from .search.split import solve_split

        return solve_split(puzzle, limits=limits, max_solutions=wanted)
    from .search.portfolio import solve_probing

    return solve_probing(puzzle, limits=limits, max_solutions=wanted)


def _cpsat(puzzle: Puzzle, limits: Limits | None, wanted: int) -> Result[Grid]:
    if isinstance(puzzle, ColourNonogram):
        from .colour_cpsat import solve as solve_colour_cpsat

        return solve_colour_cpsat(puzzle, limits=limits, max_solutions=wanted)
    from .cpsat import solve as solve_cpsat

    return solve_cpsat(puzzle, limits=limits, max_solutions=wanted)


def _sat(puzzle: Puzzle, limits: Limits | None, wanted: int) -> Result[Grid]:
    assert isinstance(puzzle, Nonogram)  # colour puzzles are refused before
    from .sat import solve as solve_sat

    return solve_sat(puzzle, limits=limits, max_solutions=wanted)


def _cdcl(puzzle: Puzzle, limits: Limits | None, wanted: int) -> Result[Grid]:
    assert isinstance(puzzle, Nonogram)  # colour puzzles are refused before
    from .search.cdcl import solve_cdcl

    return solve_cdcl(puzzle, limits=limits, max_solutions=wanted)


def _python_constraint(puzzle: Puzzle, limits: Limits | None, wanted: int) -> Result[Grid]:
    assert isinstance(puzzle, Nonogram)  # colour puzzles are refused before
    from .explicit import solve_python_constraint

    return solve_python_constraint(puzzle, limits=limits, max_solutions=wanted)


probing = _method(_probing, lists=True)
gac_astar_method = _method(_engine(gac_astar))
mac_method = _method(_engine(mac))
cpsat = _method(_cpsat, refutes_totals=True, lists=True)
python_constraint = _method(_python_constraint)
sat = _method(_sat, lists=True)
cdcl = _method(_cdcl, lists=True)


def line_logic(
    puzzle: Nonogram | ColourNonogram, *, budget: Budget | None = None
) -> tuple[bool, int]:
    """What line logic alone (GAC on the line constraints, no probing, no search) decides.

    Runs the fast solver's worklist propagation (:func:`.search.propagation.line_logic`, for a
    colour puzzle :func:`.search.colour.line_logic`) from the grid of undecided cells, or where
    plain Python may spare the kernels (:func:`spares_kernels`), its pure-Python twin
    :func:`python_line_fixpoint`.

    Parameters
    ----------
    puzzle : Nonogram or ColourNonogram
        The clues.
    budget : Budget, optional
        Its time limit and cancellation stop the propagation.

    Returns
    -------
    tuple of (bool, int)
        Whether the clues are consistent under line logic, and how many cells it fixes.

    Raises
    ------
    StopPropagationError
        When ``budget`` stopped the propagation.
    """
    if spares_kernels(puzzle):
        return python_line_fixpoint(puzzle, budget=budget)
    if isinstance(puzzle, ColourNonogram):
        from .search.colour import line_logic as propagate_colours

        return propagate_colours(puzzle, budget=budget)
    from .lines.cells import UNKNOWN
    from .search.propagation import line_logic as propagate_lines

    consistent, grid, _ = propagate_lines(puzzle, budget=budget)
    return consistent, int((grid != UNKNOWN).sum())
