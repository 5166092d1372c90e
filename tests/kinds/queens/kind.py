"""The ``queens`` kind: a board with given queens, completed by search or by CP-SAT."""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cspsolve import search
from cspsolve.errors import InputError, OptionError
from cspsolve.explanation import Explanation, Step
from cspsolve.kind import Generator, Kind, Made, Method, option
from cspsolve.limits import Limits
from cspsolve.render import Scene
from cspsolve.results import Result, Stats, Status

Columns = tuple[int, ...]
"""A solution: the column of the queen in each row."""


@dataclass(frozen=True)
class Queens:
    """A board of ``len(given)`` rows; ``given[r]`` is the column of row r's given queen."""

    given: tuple[int | None, ...]

    @property
    def n(self) -> int:
        return len(self.given)


@dataclass(frozen=True)
class Entry:
    """The one puzzle of a ``.queens`` file."""

    puzzle: Queens
    id: None = None
    line: int = 1


def read(path: str | Path) -> list[Entry]:
    """A ``.queens`` file: ``n`` lines of ``n`` characters, ``.`` empty and ``Q`` a given queen.

    Raises
    ------
    InputError
        For a line of the wrong length or character, or two given queens in a row.
    """
    lines = Path(path).read_text(encoding="utf-8").split()
    given: list[int | None] = []
    for number, line in enumerate(lines, 1):
        if len(line) != len(lines) or set(line) - {".", "Q"}:
            raise InputError(str(path), number, f"expected {len(lines)} of '.' or 'Q'")
        if line.count("Q") > 1:
            raise InputError(str(path), number, "two queens in one row")
        given.append(line.index("Q") if "Q" in line else None)
    if not given:
        raise InputError(str(path), None, "no rows")
    return [Entry(Queens(tuple(given)))]


def sniff(name: str, text: str) -> str | None:
    return "queens" if name.endswith(".queens") else None


def write(puzzle: Queens, path: str | Path) -> None:
    rows = ("".join("Q" if c == g else "." for c in range(puzzle.n)) for g in puzzle.given)
    Path(path).write_text("\n".join(rows) + "\n", encoding="utf-8")


def check(puzzle: Queens, solution: Columns) -> list[str]:
    """What is wrong with ``solution`` (an empty list when it is right)."""
    if len(solution) != puzzle.n or not all(0 <= c < puzzle.n for c in solution):
        return [f"expected {puzzle.n} columns in 0..{puzzle.n - 1}"]
    problems = [
        f"row {r}: the given queen is not kept"
        for r, g in enumerate(puzzle.given)
        if g is not None and solution[r] != g
    ]
    for r1 in range(puzzle.n):
        for r2 in range(r1 + 1, puzzle.n):
            if abs(solution[r1] - solution[r2]) in (0, r2 - r1):
                problems.append(f"rows {r1} and {r2} attack each other")
    return problems


class Placement:
    """The state space: a state is the columns of the queens of the first rows."""

    def __init__(self, puzzle: Queens) -> None:
        self.puzzle = puzzle
        self.initial: Columns = ()

    def actions(self, state: Columns) -> Iterator[int]:
        row = len(state)
        given = self.puzzle.given[row]
        for c in range(self.puzzle.n) if given is None else (given,):
            if all(abs(c - q) not in (0, row - r) for r, q in enumerate(state)):
                yield c

    def result(self, state: Columns, action: int) -> Columns:
        return (*state, action)

    def is_goal(self, state: Columns) -> bool:
        return len(state) == self.puzzle.n


def _dfs(puzzle: Queens, /, *, limits: Limits | None, **_: Any) -> Result[Columns]:
    found = search.dfs(Placement(puzzle), limits=limits)
    return found.map(tuple)


def _cpsat(puzzle: Queens, /, *, limits: Limits | None, **_: Any) -> Result[Columns]:
    from ortools.sat.python import cp_model

    model = cp_model.CpModel()
    queens = [model.new_int_var(0, puzzle.n - 1, f"q{r}") for r in range(puzzle.n)]
    for shift in (0, 1, -1):
        model.add_all_different([q + shift * r for r, q in enumerate(queens)])
    for q, g in zip(queens, puzzle.given, strict=True):
        if g is not None:
            model.add(q == g)
    solver = cp_model.CpSolver()
    if limits is not None and limits.time_limit is not None:
        solver.parameters.max_time_in_seconds = max(limits.time_limit, 0.001)
    status = solver.solve(model)
    stats = Stats(seconds=solver.wall_time)
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return Result(Status.SOLVED, tuple(solver.value(q) for q in queens), stats)
    return Result(Status.UNSOLVABLE if status == cp_model.INFEASIBLE else Status.LIMIT, None, stats)


def draw(puzzle: Queens, solution: Columns) -> str:
    return "\n".join(" ".join("Q" if c == q else "." for c in range(puzzle.n)) for q in solution)


def scene(puzzle: Queens, columns: Columns, caption: str = "") -> Scene:
    """The board with queens in its first ``len(columns)`` rows."""
    shade = ("white", "lightgray")
    fills = tuple(tuple(shade[(r + c) % 2] for c in range(puzzle.n)) for r in range(puzzle.n))
    placed = (*columns, *(None,) * (puzzle.n - len(columns)))
    texts = tuple(tuple("Q" if c == q else "" for c in range(puzzle.n)) for q in placed)
    return Scene(fills, texts, caption=caption)


def scenes(puzzle: Queens, solution: Columns) -> list[Scene]:
    return [scene(puzzle, solution)]


def explain(puzzle: Queens, /, *, limits: Limits | None, **_: Any) -> Explanation:
    """The queens of the depth-first search's solution row by row (rule ``"place"``, data
    ``row`` and ``column``, 0-based), each checked against the queens above it."""
    result = _dfs(puzzle, limits=limits)
    placed = result.solution or ()
    steps = [
        Step(
            "place",
            f"row {r + 1}: the queen in column {c + 1}"
            + (" is given" if puzzle.given[r] is not None else " attacks no queen above"),
            {"row": r, "column": c},
            placed[: r + 1],
        )
        for r, c in enumerate(placed)
    ]
    backtracks = f"after {result.stats.backtracks} dead ends" if result.stats.backtracks else ""
    proof = [f"Depth-first search placed a queen in every row {backtracks}".rstrip() + "."]
    if result.status is Status.UNSOLVABLE:
        proof = ["Depth-first search tried every column of every row: no placement works."]
    return Explanation(
        "queens",
        result,
        steps,
        proof,
        {"grade": "search", "backtracks": result.stats.backtracks},
        start=(),
        scene=lambda columns, caption: scene(puzzle, columns, caption),
        draw=lambda columns: draw(puzzle, columns),
    )


def analyze(puzzle: Queens, **_: Any) -> dict[str, Any]:
    return {"queens": puzzle.n, "given": sum(g is not None for g in puzzle.given)}


@dataclass(frozen=True)
class GenerateOptions:
    """What ``cspsolve generate queens`` is asked for."""

    size: int | None = option("rows (and columns) of the board", default=6, metavar="N")
    given: int | None = option("queens given", default=1, metavar="K")
    unique: bool = option("give queens until one solution is left", default=False)


def _solutions(board: Queens) -> list[Columns]:
    """Every completion of ``board``, by trying every permutation of the columns."""
    return [p for p in itertools.permutations(range(board.n)) if not check(board, p)]


def make(options: GenerateOptions, rng: random.Random, limits: Limits) -> Made | None:
    """A board of ``size`` rows with ``given`` queens of a random solution (and more, from
    the same solution, until it is the only one, with ``unique``); its solutions counted by
    trying every permutation."""
    n = options.size or 0
    if not 4 <= n <= 8:
        raise OptionError(f"--size: {n} is not in 4..8")
    if options.given is None or options.given > n:
        raise OptionError(f"--given: {options.given} is more than the {n} rows")
    if limits.time_limit == 0:
        return None
    solution = rng.choice(_solutions(Queens((None,) * n)))
    rows = rng.sample(range(n), n)
    shown = options.given
    board = Queens(tuple(solution[r] if r in rows[:shown] else None for r in range(n)))
    while options.unique and len(_solutions(board)) > 1:
        shown += 1
        board = Queens(tuple(solution[r] if r in rows[:shown] else None for r in range(n)))
    return Made(board, {"given": shown, "solutions": len(_solutions(board))})


KIND = Kind(
    name="queens",
    title="Queens",
    extensions=frozenset({".queens"}),
    methods=(
        Method(
            name="dfs",
            run=_dfs,
            summary="depth-first search, row by row",
            backend="search",
            optimal=None,
            complete=True,
            default=True,
        ),
        Method(
            name="cpsat",
            run=_cpsat,
            summary="CP-SAT, three all-different constraints",
            backend="cp-sat",
            optimal=None,
            complete=True,
        ),
    ),
    reference="cpsat",
    sniff=sniff,
    read=read,
    select=lambda entries, key, source: entries[0],
    write=write,
    check=check,
    encode=lambda solution: {"columns": list(solution)},
    describe=lambda puzzle: f"{puzzle.n} queens",
    draw=draw,
    scenes=scenes,
    analyze=analyze,
    analysis="queens, given",
    explain=explain,
    generator=Generator(
        options=GenerateOptions,
        make=make,
        extension=".queens",
        note="Boards of N rows with queens given from a random solution.",
    ),
)
