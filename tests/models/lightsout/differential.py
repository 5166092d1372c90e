"""Differential testing of every Lights Out method against independent oracles.

A case is a random board — a grid (sigma-plus or sigma, plain, torus, with holes) or an
arbitrary graph — with random lights, and a random node limit for one extra run of the
default method. Sizes reach every path of the code: 1x1 boards, boards brute force can
enumerate, 1xN and Nx1 strips, wide boards (light chasing transposes them), boards of more than
32 rows (flattened through numpy), rows of more than 64 cells, and tori, holes and graphs of 60
to 130 cells (elimination rows of more than one 64-bit word).

The oracles, none of which is code under test:

- :class:`Board`, written here from the press rule: the cells each press toggles, so that
  every press set returned is replayed independently;
- an independent Gaussian elimination over GF(2) (:func:`rank_and_solvable`): the nullity
  and whether the board is solvable;
- the minimum number of presses: brute force over every press set up to :data:`BRUTE_CELLS`
  cells; above that, when the nullity is at most :data:`COSET_NULLITY`, every press set of the
  solution's coset (a solution and a null-space basis from a reduced echelon form written
  here, its 2^nullity combinations in Gray code order; on brute-force boards it must agree with
  brute force); else a CP-SAT model written here (integer parity: the presses toggling a light
  sum to its state plus twice an integer — not the library's XOR model), when it proves its
  optimum within :data:`ORACLE_SECONDS`.

A method agrees when it says unsolvable exactly for the unsolvable boards, and otherwise
returns a press set that turns every light off, of the oracle's minimum size, proven
(``optimal``). ``algebra/max-nodes`` (the default method under a node limit) must return a
valid press set, not below the minimum, and claim the minimum only when it has it.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from hypothesis import strategies as st

from cspsolve import tasks
from cspsolve.instances import ROOT
from cspsolve.limits import Limits
from cspsolve.models.lightsout import algebra, kind
from cspsolve.models.lightsout.board import LightsOut
from cspsolve.models.lightsout.formats import from_graph, read
from cspsolve.results import Result, Status
from cspsolve.tasks import Request

from ...fuzzing import Contract, Sample

SEARCHES = (("astar", "packing"), ("astar", "lit"), ("idastar", "packing"), ("idastar", "lit"))
"""The search runs of the kind (method, heuristic)."""

METHODS = (
    "algebra",
    *(f"{method}/{name}" for method, name in SEARCHES),
    "cpsat",
    "algebra/max-nodes",
    "nullity",
    "quiet-patterns",
)
"""Every method of the kind (``kind.METHODS``, the searches with each heuristic), the default
method under a node limit, and the algebra's ``nullity`` and ``quiet_patterns``."""

BRUTE_CELLS = 16
"""Largest board whose minimum is found by trying every press set (2**16)."""

SEARCH_CELLS = {"plain": 64, "other": 30}
"""Largest plain grid, and largest torus, holed grid or graph, the searches are run on (their
frontier grows as 2**width; a torus or a graph is wider than its rows)."""

COSET_NULLITY = 14
"""Largest nullity whose coset the oracle enumerates (16,384 press sets)."""

ORACLE_SECONDS = 30.0
"""Time limit of the CP-SAT oracle (an unproven oracle checks only validity)."""

METHOD_SECONDS = 60.0
"""Time limit of a method under test; reaching it counts as a disagreement."""


@dataclass(frozen=True)
class Case:
    """A random board and the node limit of the ``algebra/max-nodes`` run."""

    puzzle: LightsOut
    max_nodes: int

    def __repr__(self) -> str:
        p = self.puzzle
        if p.graph is None:
            holes = p.holes or (0,) * p.rows
            rows = "/".join(
                "".join("x" if h >> c & 1 else str(light >> c & 1) for c in range(p.cols))
                for light, h in zip(p.lights, holes, strict=True)
            )
            shape = f"{p.rows}x{p.cols}{' torus' if p.torus else ''} {rows}"
        else:
            edges = sorted((i, j) for i, near in enumerate(p.graph) for j in near if i < j)
            shape = f"graph {p.cols} nodes edges={edges} lit={p.lights[0]:#x}"
        return f"Case({p.variant} {shape}, max_nodes={self.max_nodes})"


# --- the independent board ----------------------------------------------------------------


@dataclass(frozen=True)
class Board:
    """The press rule written out cell by cell, from the board's data alone.

    Cells are numbered ``row * cols + col`` (node ``i`` on a graph); ``toggles[i]`` is the set
    of cells pressing ``i`` changes (empty for a disabled cell).
    """

    puzzle: LightsOut
    toggles: list[frozenset[int]] = field(init=False)
    lit: frozenset[int] = field(init=False)

    def __post_init__(self) -> None:
        p = self.puzzle
        width = p.cols
        lit = {
            r * width + c for r, row in enumerate(p.lights) for c in range(width) if row >> c & 1
        }
        object.__setattr__(self, "lit", frozenset(lit))
        object.__setattr__(self, "toggles", [self._toggles(i) for i in range(p.rows * width)])

    def enabled(self, cell: int) -> bool:
        p = self.puzzle
        r, c = divmod(cell, p.cols)
        return not (p.holes and p.holes[r] >> c & 1)

    def _near(self, cell: int) -> set[int]:
        p = self.puzzle
        if p.graph is not None:
            return set(p.graph[cell])
        r, c = divmod(cell, p.cols)
        near = set()
        for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            if p.torus:
                rr, cc = rr % p.rows, cc % p.cols
            if 0 <= rr < p.rows and 0 <= cc < p.cols:
                near.add(rr * p.cols + cc)
        return {n for n in near if n != cell and self.enabled(n)}

    def _toggles(self, cell: int) -> frozenset[int]:
        if not self.enabled(cell):
            return frozenset()
        own = {cell} if self.puzzle.variant == "sigma-plus" else set()
        return frozenset(self._near(cell) | own)

    @cached_property
    def cells(self) -> list[int]:
        """The enabled cells."""
        return [i for i in range(len(self.toggles)) if self.enabled(i)]

    def left_on(self, pressed: set[int]) -> set[int]:
        """The lights on after pressing ``pressed`` (each once)."""
        on = set(self.lit)
        for cell in pressed:
            on ^= self.toggles[cell]
        return on

    @cached_property
    def brute_minimum(self) -> int | None:
        """Fewest presses by trying every press set (Gray code order), None when unsolvable."""
        cells = self.cells
        masks = [sum(1 << t for t in self.toggles[c]) for c in cells]
        state = sum(1 << t for t in self.lit)
        best = 0 if state == 0 else None
        weight = 0
        for i in range(1, 1 << len(cells)):
            k = (i & -i).bit_length() - 1
            state ^= masks[k]
            weight += 1 if (i ^ (i >> 1)) >> k & 1 else -1
            if state == 0 and (best is None or weight < best):
                best = weight
        return best

    @cached_property
    def cpsat_minimum(self) -> int | None:
        """Fewest presses by an integer-parity CP-SAT model; None when not proven."""
        from ortools.sat.python import cp_model

        model = cp_model.CpModel()
        x = {c: model.new_bool_var(f"x{c}") for c in self.cells}
        for light in self.cells:
            togglers = [x[c] for c in self.cells if light in self.toggles[c]]
            k = model.new_int_var(0, len(togglers), f"k{light}")
            model.add(sum(togglers) == 2 * k + (light in self.lit))
        model.minimize(sum(x.values()))
        solver = cp_model.CpSolver()
        solver.parameters.max_time_in_seconds = ORACLE_SECONDS
        solver.parameters.num_workers = 2
        status = solver.solve(model)
        if status == cp_model.OPTIMAL:
            return round(solver.objective_value)
        return None

    @cached_property
    def coset_minimum(self) -> int | None:
        """Fewest presses over the coset of one solution (None when unsolvable or when the
        nullity exceeds :data:`COSET_NULLITY`)."""
        cells = self.cells
        equations = []
        for light in cells:
            row = sum(1 << j for j, c in enumerate(cells) if light in self.toggles[c])
            equations.append(row | int(light in self.lit) << len(cells))
        solved = solve_gf2(equations, len(cells))
        if solved is None or len(solved[1]) > COSET_NULLITY:
            return None
        presses, basis = solved
        best = presses.bit_count()
        for i in range(1, 1 << len(basis)):
            presses ^= basis[(i & -i).bit_length() - 1]
            best = min(best, presses.bit_count())
        return best

    def minimum(self) -> int | None:
        """The oracle's minimum (None when unsolvable or not proven)."""
        if len(self.cells) <= BRUTE_CELLS:
            coset = self.coset_minimum
            assert coset is None or coset == self.brute_minimum, "the coset oracle is wrong"
            return self.brute_minimum
        coset = self.coset_minimum
        return coset if coset is not None else self.cpsat_minimum


def solve_gf2(equations: list[int], n: int) -> tuple[int, list[int]] | None:
    """A solution and a null-space basis of equations over GF(2), by a reduced row echelon
    form; None when they are inconsistent.

    Each equation is a bit mask of its variables (bits ``0..n-1``) with its right side in bit
    ``n``. Every pivot is eliminated from the other rows, so a row reads ``x_pivot + (its free
    variables) = right side``: the solution sets every free variable to 0, and the basis has
    one vector per free variable ``f`` (``x_f = 1`` and each pivot its row's bit ``f``).
    """
    variables = (1 << n) - 1
    pivots: list[tuple[int, int]] = []
    for row in equations:
        for column, pivot in pivots:
            if row >> column & 1:
                row ^= pivot
        if row & variables == 0:
            if row >> n & 1:
                return None
            continue
        column = (row & variables).bit_length() - 1
        pivots = [(c, p ^ row if p >> column & 1 else p) for c, p in pivots]
        pivots.append((column, row))
    solution = sum(1 << c for c, p in pivots if p >> n & 1)
    bound = {c for c, _ in pivots}
    basis = [
        1 << f | sum(1 << c for c, p in pivots if p >> f & 1) for f in range(n) if f not in bound
    ]
    return solution, basis


def eliminate(rows: list[int]) -> list[int]:
    """Gaussian elimination over GF(2) of bit-mask rows: the nonzero rows of an echelon form
    (one per unit of rank)."""
    rows = [r for r in rows if r]
    done: list[int] = []
    while rows:
        pivot = max(rows)
        top = 1 << (pivot.bit_length() - 1)
        rows = [r ^ pivot if r & top else r for r in rows if r != pivot]
        rows = [r for r in rows if r]
        done.append(pivot)
    return done


def rank_and_solvable(board: Board) -> tuple[int, bool]:
    """Rank of the toggle matrix over GF(2) and whether the lights are in its column space:
    eliminate the rows ``[lit | toggled-by]`` (the light's state in bit 0, cells above it);
    the board is solvable unless a row reduces to the lone state bit."""
    rows = []
    for light in board.cells:
        row = sum(2 << c for c in board.cells if light in board.toggles[c])
        rows.append(row | int(light in board.lit))
    echelon = eliminate(rows)
    return sum(r > 1 for r in echelon), 1 not in echelon


# --- the cases ----------------------------------------------------------------------------


@st.composite
def grids(draw: st.DrawFn) -> LightsOut:
    """A grid of 1 to 130 cells (mostly small; strips, wide and tall boards)."""
    rows, cols = draw(
        st.one_of(
            st.tuples(st.integers(1, 4), st.integers(1, 4)),
            st.tuples(st.integers(1, 8), st.integers(1, 8)),
            st.tuples(st.integers(1, 2), st.integers(9, 70)),
            st.tuples(st.integers(33, 60), st.integers(1, 2)),
            st.tuples(st.integers(7, 11), st.integers(7, 11)),
        )
    )
    variant = draw(st.sampled_from(["sigma-plus", "sigma"]))
    torus = draw(st.integers(0, 3)) == 0
    full = (1 << cols) - 1
    holes = tuple(
        draw(st.integers(0, full)) if draw(st.integers(0, 4)) == 0 else 0 for _ in range(rows)
    )
    if not any(holes) and draw(st.booleans()):
        holes = ()
    density = draw(st.sampled_from([0.0, 0.2, 0.5, 1.0]))
    lights = tuple(
        sum(1 << c for c in range(cols) if draw(st.floats(0, 1)) < density) & ~h
        for h in holes or (0,) * rows
    )
    return LightsOut(lights, cols, variant, torus, holes)


@st.composite
def graphs(draw: st.DrawFn) -> LightsOut:
    """A random simple graph of 1 to 130 nodes (mostly up to 20), sparse or dense."""
    n = draw(st.one_of(st.integers(1, 12), st.integers(13, 20), st.integers(60, 130)))
    chance = draw(st.sampled_from([0.05, 0.2, 0.5])) if n <= 20 else 3.0 / n
    seed = draw(st.integers(0, 2**32 - 1))
    rng = random.Random(seed)
    names = [str(i) for i in range(n)]
    edges = [(u, v) for i, u in enumerate(names) for v in names[i + 1 :] if rng.random() < chance]
    lit = [name for name in names if rng.random() < 0.5]
    variant = draw(st.sampled_from(["sigma-plus", "sigma"]))
    return from_graph(names, edges, lit=lit, variant=variant)


def cases() -> st.SearchStrategy[Case]:
    """Random boards: two grids for one graph; a node limit of 0 to 64."""
    boards = st.one_of(grids(), grids(), graphs())
    return st.builds(Case, boards, st.integers(0, 64))


# --- the checks ---------------------------------------------------------------------------


def _runs(puzzle: LightsOut) -> list[tuple[str, Request]]:
    """The runs of the kind on this board: algebra and CP-SAT always, the searches where
    their frontier stays small."""
    runs = [("algebra", Request("algebra")), ("cpsat", Request("cpsat"))]
    if puzzle.cells <= SEARCH_CELLS["plain" if puzzle.plain else "other"]:
        runs += [(f"{m}/{h}", Request(m, h)) for m, h in SEARCHES]
    return runs


def _pressed(puzzle: LightsOut, presses: tuple[int, ...]) -> set[int] | str:
    """The press set as cells, or what is wrong with its shape."""
    if len(presses) != puzzle.rows or any(p < 0 or p >> puzzle.cols for p in presses):
        return f"a press set of {len(presses)} rows, not {puzzle.rows} of {puzzle.cols} bits"
    return {
        r * puzzle.cols + c
        for r, row in enumerate(presses)
        for c in range(puzzle.cols)
        if row >> c & 1
    }


def judge(
    board: Board, solvable: bool, best: int | None, result: Result[tuple[int, ...]]
) -> str | None:
    """None when ``result`` agrees with the oracles, else what is wrong.

    ``best`` is the proven minimum (None when unsolvable or unproven); an ``optimal`` or
    ``proof["minimum"]`` claim must match it, and no press set may be smaller.
    """
    status = result.status
    if not solvable:
        return None if status is Status.UNSOLVABLE else f"{status.value} on an unsolvable board"
    if status is Status.UNSOLVABLE:
        return "unsolvable, but the board is solvable"
    if result.solution is None:
        return f"{status.value} without a press set"
    pressed = _pressed(board.puzzle, result.solution)
    if isinstance(pressed, str):
        return pressed
    if not pressed <= set(board.cells):
        return "presses a disabled cell"
    left = board.left_on(pressed)
    if left:
        return f"{len(left)} lights left on by its press set"
    if result.stats.cost != len(pressed):
        return f"cost {result.stats.cost} for {len(pressed)} presses"
    claims = status is Status.OPTIMAL or result.proof.get("minimum") is True
    if best is not None and (len(pressed) < best or (claims and len(pressed) != best)):
        return f"{len(pressed)} presses ({status.value}), the minimum is {best}"
    return None


def check(case: Case) -> dict[str, str | None]:
    """Each method of :data:`METHODS` that runs on this board: None when it agrees with the
    oracles, else what is wrong."""
    puzzle = case.puzzle
    board = Board(puzzle)
    rank, solvable = rank_and_solvable(board)
    nullity = len(board.cells) - rank
    best = board.minimum() if solvable else None
    limits = Limits(time_limit=METHOD_SECONDS)
    verdicts: dict[str, str | None] = {}
    for name, options in _runs(puzzle):
        result = tasks.solve(kind.KIND, puzzle, request=options, limits=limits)
        verdict = judge(board, solvable, best, result)
        if verdict is None and result.status is not Status.OPTIMAL and solvable:
            verdict = f"{result.status.value}, not optimal, without a limit in the way"
        if verdict is None and result.proof.get("nullity") != nullity:
            verdict = f"proof nullity {result.proof.get('nullity')}, the rank gives {nullity}"
        verdicts[name] = verdict
    limited = algebra.minimum(puzzle, limits=Limits(max_nodes=case.max_nodes))
    verdicts["algebra/max-nodes"] = judge(board, solvable, best, limited)
    found = algebra.nullity(puzzle)
    verdicts["nullity"] = None if found == nullity else f"{found}, the rank gives {nullity}"
    verdicts["quiet-patterns"] = _check_quiet(board, nullity)
    return verdicts


def _check_quiet(board: Board, nullity: int) -> str | None:
    """The quiet patterns: as many as the nullity, independent, each changing no light."""
    quiet = algebra.quiet_patterns(board.puzzle)
    if len(quiet) != nullity:
        return f"{len(quiet)} quiet patterns, the nullity is {nullity}"
    empty = Board(board.puzzle.with_lights((0,) * board.puzzle.rows))
    masks = []
    for q in quiet:
        pressed = _pressed(board.puzzle, q)
        if isinstance(pressed, str) or empty.left_on(pressed) or not pressed <= set(board.cells):
            return f"the quiet pattern {q} changes lights or is malformed"
        masks.append(sum(1 << c for c in pressed))
    if len(eliminate(masks)) != len(masks):
        return "the quiet patterns are not independent"
    return None


# --- the contract suite ---------------------------------------------------------------------


def replay_json(puzzle: LightsOut, solution: Any) -> str | None:
    """``None`` when the presses of the JSON form (``[row, col]`` pairs on a grid, node labels
    on a graph) are enabled cells, as many as its count, and :class:`Board` finds every light
    off after them."""
    presses = solution["presses"]
    if puzzle.graph is None:
        pressed = {r * puzzle.cols + c for r, c in presses}
    else:
        pressed = {puzzle.labels.index(label) for label in presses}
    board = Board(puzzle)
    if len(pressed) != len(presses) or solution["count"] != len(presses):
        return f"{len(presses)} presses, {len(pressed)} cells, a count of {solution['count']}"
    if not pressed <= set(board.cells):
        return "presses a disabled cell"
    left = board.left_on(pressed)
    return f"{len(left)} lights left on by its presses" if left else None


def contract() -> Contract:
    """Two shipped 5x5 boards, the unsolvable Petersen graph, and all-on 64x64 (a group of
    quiet patterns the searches cannot cross in time)."""
    small = []
    for name in ("classic-5x5.lo", "corner-5x5.lo", "petersen.edges"):
        puzzle = read(ROOT / "lightsout" / name)[0].puzzle
        board = Board(puzzle)
        solvable = rank_and_solvable(board)[1]
        small.append(Sample(puzzle, solvable, board.minimum() if solvable else None))
    return Contract(small=small, hard=LightsOut(((1 << 64) - 1,) * 64, 64))
