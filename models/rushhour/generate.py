"""Random Rush Hour boards of any size, kept when their hardest position is far from the exit.

:func:`random_board` drops the red car ``X`` at the exit (so that its cluster holds a goal
position; or at a column asked for) and then cars (length 2) and trucks (length 3) of random
axis at random free cells until the board holds the pieces asked for. :func:`hardest_start`
searches the board's whole cluster breadth first (:func:`.packed.search`), then searches it
again from all its goal positions at once; the last layer of that second search holds the
positions farthest from the exit, the way Michael Fogleman's database picks its puzzles
(https://www.michaelfogleman.com/rush/). Its depth is the optimum of those positions, proven by
the exhaustive search.

Run as a script it writes boards in the course CSV format::

    python -m cspsolve.models.rushhour.generate --size 9 --pieces 25 --min-moves 18 \\
        --count 2 --out tests/data/rushhour/
"""

from __future__ import annotations

import argparse
import random
from dataclasses import dataclass
from pathlib import Path

from cspsolve.errors import OptionError
from cspsolve.limits import Limits
from cspsolve.results import Stats

from .board import Board, Piece
from .formats import write
from .packed import Packing, search

__all__ = ["Hardest", "hardest_start", "random_board"]


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
        horizontal = rng.random() < 0.5
        length = 3 if rng.random() < trucks else 2
        row, col = rng.randrange(size), rng.randrange(size)
        if horizontal and row == exit_row and col > red.col:
            continue
        k = len(placed) - 1
        piece = Piece(letters[k] if k < len(letters) else f"P{k + 1}", row, col, length, horizontal)
        cells = piece.cells()
        if all(0 <= r < size and 0 <= c < size and (r, c) not in taken for r, c in cells):
            placed.append(piece)
            taken.update(cells)
    return Board(size, tuple(placed), frozenset(), "X")


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
    start = packing.key([p.offset for p in board.pieces])[None, :]
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
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    row = (args.exit_row or (args.size + 1) // 2) - 1
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


if __name__ == "__main__":
    main()
