"""The ``lightsout`` kind: its table of methods, options, files and pictures.

Only the board, format and generator modules are imported here (the command line imports
every kind to sniff files); the solvers are imported when used.
"""

from __future__ import annotations

import dataclasses
import functools
from dataclasses import dataclass
from typing import Any

from cspsolve import searches
from cspsolve.errors import OptionError
from cspsolve.explanation import Explanation
from cspsolve.kind import Generator, Kind, Method, Runner, option
from cspsolve.limits import Limits
from cspsolve.render import plural
from cspsolve.results import Result, Stats, Status
from cspsolve.searches import Search

from .board import VARIANTS, LightsOut, NodePresses, Presses, check, coordinates, labelled
from .budget import LimitError, ticker
from .formats import read, select, sniff, write
from .generate import EXTENSION, NOTE, GenerateOptions, make
from .pictures import draw, scenes
from .play import PLAYER

__all__ = ["KIND", "SEARCH_CELLS", "LightsOutOptions", "analyze", "prepare"]

HEURISTICS = ("packing", "lit")
SEARCH_CELLS = 64
"""Largest board ``cspsolve compare`` runs the searches on (A* needs up to 2**width states)."""


@dataclass(frozen=True)
class LightsOutOptions:
    """The Lights Out kind's options (``None`` keeps what the file says)."""

    variant: str | None = option(
        "a press toggles the cell and its neighbours (sigma-plus, the classic) or only the "
        "neighbours (sigma). Default: the file's, else sigma-plus.",
        choices=VARIANTS,
    )
    torus: bool | None = option(
        "the board wraps around at its edges. Default: the file's, else no."
    )


def prepare(puzzle: LightsOut, options: LightsOutOptions) -> LightsOut:
    """``puzzle`` with the variant and torus of ``options`` (``None`` keeps the file's).

    Raises
    ------
    OptionError
        When a torus is asked for a graph board.
    """
    changes: dict[str, Any] = {}
    if options.variant is not None and options.variant != puzzle.variant:
        changes["variant"] = options.variant
    if options.torus is not None and options.torus != puzzle.torus:
        if not puzzle.is_grid:
            raise OptionError("--torus applies to grid boards, not graphs")
        changes["torus"] = options.torus
    return dataclasses.replace(puzzle, **changes) if changes else puzzle


def _naming(run: Runner) -> Runner:
    """``run``, its answers on a graph board naming their nodes (:func:`.board.labelled`)."""

    @functools.wraps(run)
    def named(
        puzzle: LightsOut, /, *, heuristic: str | None, options: Any, limits: Limits | None
    ) -> Result[Presses]:
        result = run(puzzle, heuristic=heuristic, options=options, limits=limits)
        return result if puzzle.is_grid else result.map(functools.partial(labelled, puzzle))

    return named


def _algebra(
    puzzle: LightsOut, /, *, heuristic: str | None, options: Any, limits: Limits | None
) -> Result[Presses]:
    from . import algebra

    return algebra.minimum(puzzle, limits=limits)


def _with_nullity(result: Result[Presses], puzzle: LightsOut, limits: Limits | None) -> None:
    """Add ``proof["nullity"]`` (and an unsolvable board's reason) by the algebra, in the time
    the run left (``None`` when it is up); its seconds are added to ``result.stats``."""
    from . import algebra

    limits = limits or Limits()
    if limits.time_limit is not None:
        limits = dataclasses.replace(
            limits, time_limit=max(0.0, limits.time_limit - result.stats.seconds)
        )
    budget = limits.start(Stats())
    try:
        found = algebra.solve(puzzle, ticker(budget, nodes=False))
    except LimitError:
        result.proof["nullity"] = None
        return
    finally:
        result.stats.seconds += budget.finish().seconds
    result.proof["nullity"] = found.nullity
    if result.status is Status.UNSOLVABLE and found.witness is not None:
        result.message = algebra.unsolvable_reason(puzzle, found)


def _cpsat(
    puzzle: LightsOut, /, *, heuristic: str | None, options: Any, limits: Limits | None
) -> Result[Presses]:
    from . import cpsat

    result = cpsat.solve(puzzle, limits=limits)
    _with_nullity(result, puzzle, limits)
    return result


def _searched(
    puzzle: LightsOut,
    name: str | None,
    /,
    *,
    method: str,
    options: Any,
    limits: Limits | None,
    search: Search,
) -> Result[Presses]:
    """The engine's ``search`` on the fixed-press-order model (:func:`.search.searched`): its
    answer a proven minimum when optimal, with the nullity (:func:`_with_nullity`)."""
    from .search import searched

    result = searched(puzzle, name, method=method, options=options, limits=limits, search=search)
    result.proof["minimum"] = result.status is Status.OPTIMAL
    _with_nullity(result, puzzle, limits)
    return result


def _search(algorithm: str, compared: tuple[str, ...]) -> Method:
    """The row of the engine's ``algorithm`` on the fixed-press-order model, naming the nodes
    of a graph board (:func:`_naming`); ``compare`` runs it with ``compared`` on small boards."""
    row = searches.method(
        algorithm,
        _searched,
        on="on the fixed-press-order model",
        heuristics=HEURISTICS,
        compared=_small(compared),
    )
    return dataclasses.replace(row, run=_naming(row.run))


def _small(heuristics: tuple[str, ...]) -> Any:
    def compared(puzzle: LightsOut) -> tuple[str, ...]:
        return heuristics if puzzle.cells <= SEARCH_CELLS else ()

    return compared


METHODS = (
    Method(
        name="algebra",
        run=_naming(_algebra),
        summary="GF(2) elimination, light chasing and the quiet patterns: proven minimum",
        backend="algebra",
        optimal=True,
        complete=True,
        default=True,
    ),
    _search("astar", HEURISTICS),
    _search("idastar", HEURISTICS[:1]),
    Method(
        name="cpsat",
        run=_naming(_cpsat),
        summary="OR-Tools CP-SAT: one Boolean per press, one parity constraint per cell",
        backend="cp-sat",
        optimal=True,
        complete=True,
    ),
)


def analyze(
    puzzle: LightsOut,
    *,
    method: str | None,
    heuristic: str | None,
    options: LightsOutOptions,
    limits: Limits | None,
) -> dict[str, Any]:
    """Nullity, solvability, minimum presses and the counts of solvable states.

    Returns
    -------
    dict
        ``nullity`` and ``solvable`` (``None`` when a limit stopped the elimination),
        ``min_presses`` (``None`` when unsolvable), ``status`` (``"limit"`` or
        ``"cancelled"`` when a limit cut the analysis short),
        ``min_presses_proven``, ``cells`` (enabled), ``lit``, ``solvable_states_log2``
        (``cells - nullity``), ``solvable_states`` and ``solutions_per_state``
        (``2**nullity``) as exact integers (``None`` beyond 2**128), and ``quiet_pattern``
        (the proof, as :func:`encode` lists presses) when unsolvable.
    """
    from . import algebra

    if method is not None or heuristic is not None:
        raise OptionError("analyze uses the algebra; it takes no --method/--heuristic")
    result, witness = algebra.minimum_with_witness(puzzle, limits=limits)
    d = result.proof["nullity"]
    cells = puzzle.enabled.bit_count()
    out: dict[str, Any] = {
        "nullity": d,
        "solvable": None if d is None else result.status.has_solution,
        "min_presses": int(result.stats.cost) if result.status.has_solution else None,
        "min_presses_proven": result.proof.get("minimum", False),
        "cells": cells,
        "lit": puzzle.flat.bit_count(),
    }
    stopped = result.proof.get("stopped")
    if result.status in (Status.LIMIT, Status.CANCELLED):
        stopped = result.status.value
    if stopped is not None:
        out["status"] = stopped
    if d is not None:
        out |= {
            "solvable_states_log2": cells - d,
            "solvable_states": 2 ** (cells - d) if cells - d <= 128 else None,
            "solutions_per_state": 2**d if d <= 128 else None,
        }
    if witness is not None:
        out["quiet_pattern"] = encode(labelled(puzzle, witness))["presses"]
        out["reason"] = result.message
    return out


def encode(solution: Presses) -> dict[str, Any]:
    """``{"presses": [[row, col], ...], "count": N}``, 0-based, row by row; on a graph board
    (:class:`.board.NodePresses`) the presses are the nodes' labels, in node order.

    Examples
    --------
    >>> encode((0b10, 0b01))
    {'presses': [[0, 1], [1, 0]], 'count': 2}
    >>> encode(NodePresses(0b110, ("a", "b", "c")))
    {'presses': ['b', 'c'], 'count': 2}
    """
    presses: list[Any] = (
        solution.pressed if isinstance(solution, NodePresses) else coordinates(solution)
    )
    return {"presses": presses, "count": len(presses)}


def describe(puzzle: LightsOut) -> str:
    """E.g. ``5x5 sigma-plus, 25 lit`` or ``graph of 7 nodes, sigma, 1 lit``."""
    lit = f"{puzzle.flat.bit_count()} lit"
    if not puzzle.is_grid:
        return f"graph of {plural(puzzle.cols, 'node')}, {puzzle.variant}, {lit}"
    shape = f"{puzzle.rows}x{puzzle.cols} {puzzle.variant}"
    shape += " torus" if puzzle.torus else ""
    holes = puzzle.cells - puzzle.enabled.bit_count()
    shape += f", {plural(holes, 'disabled cell')}" if holes else ""
    return f"{shape}, {lit}"


def no_presses(puzzle: LightsOut) -> Presses:
    """No cell pressed: the board as given."""
    return (0,) * puzzle.rows


def _explain(puzzle: LightsOut, **how: Any) -> Explanation:
    """The answer explained step by step (:mod:`.explain`; imported on first use: it needs the
    algebra)."""
    from .explain import explain

    return explain(puzzle, **how)


KIND = Kind(
    name="lightsout",
    title="Lights Out",
    extensions=frozenset({".lo", ".lights", ".edges", ".edgelist"}),
    priority=20,
    methods=METHODS,
    reference="cpsat",
    options=LightsOutOptions,
    analysis="nullity, solvable, min_presses, solutions per solvable state",
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
    prepare=prepare,
    explain=_explain,
    blank=no_presses,
    classes={"LightsOut": LightsOut},
    tools={"play": PLAYER},
    generator=Generator(options=GenerateOptions, make=make, extension=EXTENSION, note=NOTE),
    samples=("lightsout/sigma-torus-9x9.lo",),
)
