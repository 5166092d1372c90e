"""Random Rush Hour boards of any size, made hard two ways.

:func:`random_board` drops the red car ``X`` at the exit (so that its cluster holds a goal
position; or at a column asked for) and then cars (length 2) and trucks (length 3) of random
axis at random free cells until the board holds the pieces asked for.

:func:`scramble` walks at random from a solved board and keeps the position of the walk with
the most ``blockers`` (:mod:`.search`); moves are reversible, so the exit can be reached from
it: a board solvable by construction, for sizes where no search can prove it.

:func:`jam` makes boards like the hand-made boards of a course: it moves one random piece (not
the red car) to a random free place, and keeps the change when breadth-first search from the
start (with a cap on the positions it may keep) still finds a plan and its optimum has not
dropped; once the optimum is in the range asked for, it keeps a change when the optimum stays
in range and the search keeps no fewer positions. It is local search (hill climbing with
sideways moves) over placements, scored by exact search, so every optimum it reports is
proven. :func:`hardest_start`
searches the board's whole cluster breadth first (:func:`.packed.search`), then searches it
again from all its goal positions at once; the last layer of that second search holds the
positions farthest from the exit, the way Michael Fogleman's database picks its puzzles
(https://www.michaelfogleman.com/rush/). Its depth is the optimum of those positions, proven by
the exhaustive search.

Run as a script it writes boards in the course CSV format, the hardest positions of random
clusters, (``--jam``) jammed boards, or (``--scramble STEPS``) scrambled boards::

    python -m cspsolve.models.rushhour.generate --size 9 --pieces 25 --min-moves 18 \\
        --count 2 --out tests/data/rushhour/
    python -m cspsolve.models.rushhour.generate --jam --size 9 --pieces 24 --min-moves 18 \\
        --max-moves 22 --states 2000000 --seed 1 --out tests/data/rushhour/
    python -m cspsolve.models.rushhour.generate --scramble 200000 --size 12 --pieces 44 \\
        --trucks 0.3 --seed 2 --out tests/data/rushhour/
"""

from __future__ import annotations

import argparse
import random
import sys
from dataclasses import dataclass
from pathlib import Path

from cspsolve.errors import OptionError
from cspsolve.limits import Limits
from cspsolve.results import Stats

from .board import Board, Piece
from .formats import write
from .packed import Packing, search
from .search import RushHourProblem, heuristic

__all__ = ["Hardest", "Jammed", "hardest_start", "jam", "random_board", "scramble"]


def random_board(
    rng: random.Random,
    size: int,
    pieces: int,
    *,
    exit_row: int,
    trucks: float = 0.25,
    red_col: int | None = None,
) -> Board:
    """A random board of ``size`` x ``size`` with up to ``pieces`` pieces (module text).

    Pieces are named ``X`` (the red car, at the exit unless ``red_col`` gives its 0-based
    column) and ``A``, ``B``, ... then ``P26``, ``P27``, ...; a drop is a truck with probability
    ``trucks``. At most ``100 * pieces`` drops are tried; a horizontal piece right of the red car
    on its row is never dropped (it would wall the exit in).

    Raises
    ------
    OptionError
        If ``size`` is below 4 or ``exit_row`` is off the board.
    """
    if size < 4 or not 0 <= exit_row < size:
        raise OptionError(f"no {size}x{size} board with an exit on row {exit_row + 1}")
    red = Piece("X", exit_row, size - 2 if red_col is None else red_col, 2, True)
    taken = set(red.cells())
    placed = [red]
    letters = [c for c in "ABCDEFGHIJKLMNOPQRSTUVWYZ"]
    for _ in range(100 * pieces):
        if len(placed) >= pieces:
            break
        k = len(placed) - 1
        name = letters[k] if k < len(letters) else f"P{k + 1}"
        piece = _drop(rng, name, size, red, taken, trucks)
        if piece is not None:
            placed.append(piece)
            taken.update(piece.cells())
    return Board(size, tuple(placed), frozenset(), "X")


def _drop(
    rng: random.Random, name: str, size: int, red: Piece, taken: set[tuple[int, int]], trucks: float
) -> Piece | None:
    """A piece of random axis and length at a random cell, if it lands on free cells and not
    in the red car's row ahead of it; else None."""
    horizontal = rng.random() < 0.5
    length = 3 if rng.random() < trucks else 2
    row, col = rng.randrange(size), rng.randrange(size)
    if horizontal and row == red.row and col > red.col:
        return None
    piece = Piece(name, row, col, length, horizontal)
    cells = piece.cells()
    if all(0 <= r < size and 0 <= c < size and (r, c) not in taken for r, c in cells):
        return piece
    return None


def scramble(board: Board, rng: random.Random, steps: int) -> Board:
    """The position of a random walk of ``steps`` moves from ``board`` with the most
    ``blockers`` (the first such one; ``board`` itself when no move raises it).

    Every move can be undone, so when ``board`` is solved (or any plan for it is known) the
    exit can be reached from the result.

    Examples
    --------
    >>> solved = random_board(random.Random(1), 6, 10, exit_row=2)
    >>> moved = scramble(solved, random.Random(1), 500)
    >>> [p.name for p in moved.pieces] == [p.name for p in solved.pieces]
    True
    """
    problem = RushHourProblem(board)
    blockers = heuristic("blockers", problem)
    state = best = problem.initial
    most = blockers(state)
    for _ in range(steps):
        _, state, _ = rng.choice(list(problem.successors(state)))
        value = blockers(state)
        if value > most:
            best, most = state, value
    return board.with_offsets(best)


@dataclass(frozen=True)
class Hardest:
    """A position of a cluster farthest from the exit.

    Attributes
    ----------
    board : Board
        The position.
    moves : int
        Its optimal number of moves.
    cluster_size, goal_states : int
        Positions in its cluster, and how many of them are solved.
    """

    board: Board
    moves: int
    cluster_size: int
    goal_states: int


def hardest_start(board: Board, *, max_states: int, limits: Limits | None = None) -> Hardest | None:
    """The position of ``board``'s cluster farthest from the exit (module text).

    Returns
    -------
    Hardest or None
        None when the cluster holds no goal position, or more than ``max_states`` positions,
        or a limit stopped the search.
    """
    packing = Packing.of(board)
    budget = (limits or Limits()).start(Stats())
    start = packing.start()
    cluster = search(packing, start, budget=budget, stop_at_goal=False, max_states=max_states)
    if not cluster.exhausted:
        return None
    goals = cluster.keys[packing.red_offsets(cluster.keys) == board.goal_offset]
    if len(goals) == 0:
        return None
    back = search(packing, goals, budget=budget, stop_at_goal=False, max_states=max_states)
    if not back.exhausted:
        return None
    far = back.keys[back.starts[-2]]
    return Hardest(
        board.with_offsets(packing.offsets(far)), len(back.starts) - 2, cluster.size, len(goals)
    )


@dataclass(frozen=True)
class Jammed:
    """A board made by :func:`jam`.

    Attributes
    ----------
    board : Board
        The start position.
    moves : int
        Its optimal number of moves (proven by breadth-first search).
    states : int
        Positions that breadth-first search from it keeps until it reaches the exit.
    """

    board: Board
    moves: int
    states: int


def _optimum(board: Board, max_states: int) -> tuple[int, int]:
    """(optimal moves, positions kept) by breadth-first search from ``board``; the moves are
    -1 when there is no plan or the search would keep more than ``max_states`` positions."""
    packing = Packing.of(board)
    start = packing.start()
    layers = search(packing, start, budget=Limits().start(Stats()), max_states=max_states)
    return (layers.depth(layers.goal) if layers.goal >= 0 else -1), layers.size


def _relocated(rng: random.Random, board: Board, trucks: float) -> Board | None:
    """``board`` with one random piece other than the red car dropped somewhere else."""
    index = rng.randrange(len(board.pieces))
    if index == board.red_index:
        return None
    red = board.pieces[board.red_index]
    taken = {c for i, p in enumerate(board.pieces) if i != index for c in p.cells()}
    piece = _drop(rng, board.pieces[index].name, board.size, red, taken, trucks)
    if piece is None:
        return None
    pieces = list(board.pieces)
    pieces[index] = piece
    return Board(board.size, tuple(pieces), board.walls, board.red)


def jam(
    board: Board,
    rng: random.Random,
    *,
    moves: tuple[int, int],
    states: int,
    max_states: int,
    tries: int,
    trucks: float = 0.4,
) -> Jammed | None:
    """A board with ``board``'s pieces moved about until its optimum is in ``moves`` (module
    text), then on until breadth-first search keeps at least ``states`` positions or ``tries``
    changes were tried.

    Parameters
    ----------
    board : Board
        The board to start from (its pieces' names and count are kept; its red car stays).
    rng : random.Random
        The source of the changes (a seed gives the same board every time).
    moves : tuple of int
        The least and most optimal moves wanted.
    states : int
        Positions the search should keep at least (how wide the board is).
    max_states : int
        The cap of every scoring search (a board above it scores as if unsolvable).
    tries : int
        Changes to try in all.
    trucks : float
        Share of trucks among the pieces moved.

    Returns
    -------
    Jammed or None
        The board, or None when the optimum never reached the range.
    """
    low, high = moves
    best, kept = _optimum(board, max_states)
    for _ in range(tries):
        if low <= best <= high and kept >= states:
            break
        changed = _relocated(rng, board, trucks)
        if changed is None:
            continue
        optimum, size = _optimum(changed, max_states)
        if (best < low and best <= optimum <= high) or (low <= optimum <= high and size >= kept):
            board, best, kept = changed, optimum, size
    if not low <= best <= high:
        return None
    return Jammed(board, best, kept)


def main(argv: list[str] | None = None) -> None:
    """The command line of the module text."""
    parser = argparse.ArgumentParser(description="random Rush Hour boards, hardest positions")
    parser.add_argument("--size", type=int, default=9)
    parser.add_argument("--pieces", type=int, default=25)
    parser.add_argument("--exit-row", type=int, help="1-based (default: the middle row)")
    parser.add_argument("--min-moves", type=int, default=18)
    parser.add_argument("--trucks", type=float, default=0.25, help="share of trucks")
    parser.add_argument("--count", type=int, default=1, help="boards to write")
    parser.add_argument("--tries", type=int, default=1000)
    parser.add_argument("--max-states", type=int, default=3_000_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=Path("."))
    parser.add_argument("--jam", action="store_true", help="jammed boards (module text)")
    parser.add_argument("--max-moves", type=int, default=22, help="with --jam")
    parser.add_argument("--states", type=int, default=0, help="with --jam: least positions kept")
    parser.add_argument("--scramble", type=int, metavar="STEPS", help="a scrambled board")
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    row = (args.exit_row or (args.size + 1) // 2) - 1
    if args.jam:
        _write_jammed(args, rng, row)
        return
    if args.scramble is not None:
        solved = random_board(rng, args.size, args.pieces, exit_row=row, trucks=args.trucks)
        board = scramble(solved, rng, args.scramble)
        name = f"scrambled{args.size}x{args.size}_{len(board.pieces)}_s{args.seed}.csv"
        write(board, args.out / name)
        print(f"{name}\t{args.size}\t{len(board.pieces)}", flush=True)
        return
    written = 0
    for attempt in range(args.tries):
        board = random_board(rng, args.size, args.pieces, exit_row=row, trucks=args.trucks)
        found = hardest_start(board, max_states=args.max_states)
        if found is None or found.moves < args.min_moves:
            continue
        name = f"random{args.size}x{args.size}_p{args.pieces}_s{args.seed}_{attempt}.csv"
        write(found.board, args.out / name)
        print(
            f"{name}\t{args.size}\t{len(board.pieces)}\t{found.moves}\t{found.cluster_size}"
            f"\t{found.goal_states}",
            flush=True,
        )
        written += 1
        if written == args.count:
            break


def _write_jammed(args: argparse.Namespace, rng: random.Random, row: int) -> None:
    """``--jam``: one board from a random board with the red car in the second column."""
    start = random_board(rng, args.size, args.pieces, exit_row=row, trucks=args.trucks, red_col=1)
    found = jam(
        start,
        rng,
        moves=(args.min_moves, args.max_moves),
        states=args.states,
        max_states=args.max_states,
        tries=args.tries,
        trucks=args.trucks,
    )
    if found is None:
        print(f"no board within {args.tries} tries", file=sys.stderr)
        raise SystemExit(1)
    name = f"jammed{args.size}x{args.size}_{len(start.pieces)}_s{args.seed}.csv"
    write(found.board, args.out / name)
    print(f"{name}\t{args.size}\t{len(start.pieces)}\t{found.moves}\t{found.states}", flush=True)


if __name__ == "__main__":
    main()
