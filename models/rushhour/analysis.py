"""Structure and difficulty of a Rush Hour board, from its whole cluster of states.

The cluster (every state reachable from the board; see :mod:`.cluster`) is explored once; a
second breadth-first search started from all goal states at once gives every state's distance
to the exit. From these: the optimum, the distance histogram, the hardest start in the cluster
(the state farthest from any goal, as in Fogleman's database, https://www.michaelfogleman.com/rush/),
branching, dead ends, and the grade ``explain`` gives (:func:`.grading.grade` of the optimum).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from cspsolve.errors import OptionError
from cspsolve.limits import Budget, Limits
from cspsolve.results import Stats, Status

from .board import Board
from .cluster import Cluster, explore, goal_distances
from .formats import board_string
from .grading import grade
from .search import RushHourProblem

__all__ = ["analyze", "state_graph"]


def _name(board: Board) -> str:
    try:
        return board_string(board)
    except OptionError:
        return "\n".join("".join(name[:1] or "." for name in row) for row in board.grid())


def analyze(board: Board, limits: Limits | None = None) -> dict[str, Any]:
    """Everything :mod:`this module <.analysis>` computes, as JSON-ready data.

    Returns
    -------
    dict
        ``optimal_moves`` and ``optimal_steps`` (``None`` when unsolvable), ``cluster_size``,
        ``goal_states``, ``solution_density``, ``distance_histogram`` (entry k: states of the
        cluster k moves from the nearest goal), ``hardest_start`` (its board and moves),
        ``branching`` (mean and largest number of moves per state), ``dead_ends`` (states with
        a single move: the only way on is back), ``grade`` (``unsolvable`` without a plan),
        ``complete`` (False when a limit stopped the analysis: only ``cluster_size`` so far,
        ``status`` and ``seconds`` are given then) and ``seconds``. Every phase (exploring the
        cluster, the distances to the goals, the optimum in steps) keeps within ``limits``.

    Raises
    ------
    OptionError
        If the board is too large for the compact state key.
    """
    budget = (limits or Limits()).start(Stats())
    cluster, _, stopped = explore(board, stop_at_goal=False, limits=budget.rest())
    if cluster is None:
        raise OptionError("the board is too large for cluster analysis (state key over 62 bits)")
    if stopped is not None:
        return _unfinished(stopped, cluster.size, budget)
    distance = goal_distances(cluster, budget=budget)
    if distance is None:
        return _unfinished(budget.exhausted() or Status.LIMIT, cluster.size, budget)
    goals = int(cluster.goal_mask().sum())
    moves = int(distance[0]) if distance[0] >= 0 else None
    steps = None
    if moves is not None:
        by_steps, _, stopped = explore(board, steps=True, limits=budget.rest())
        if stopped is not None:
            return _unfinished(stopped, cluster.size, budget)
        assert by_steps is not None and by_steps.goal >= 0  # the same cluster, by one-cell steps
        steps = int(by_steps.depth[by_steps.goal])
    out: dict[str, Any] = {
        "optimal_moves": moves,
        "optimal_steps": steps,
        "cluster_size": cluster.size,
        "goal_states": goals,
        "solution_density": round(goals / cluster.size, 6),
    }
    solvable = distance >= 0
    out["distance_histogram"] = np.bincount(distance[solvable]).tolist() if goals else []
    hardest = int(np.argmax(distance))
    out["hardest_start"] = (
        {
            "board": _name(cluster.encoding.board_of(int(cluster.keys[hardest]))),
            "optimal_moves": int(distance[hardest]),
        }
        if goals
        else None
    )
    out["branching"] = {
        "mean": round(float(cluster.degree.mean()), 3),
        "max": int(cluster.degree.max()),
    }
    out["dead_ends"] = int(np.count_nonzero(cluster.degree == 1))
    out["grade"] = grade(board, moves)
    out["complete"] = True
    out["seconds"] = round(budget.finish().seconds, 6)
    return out


def _unfinished(stopped: Status, positions: int, budget: Budget) -> dict[str, Any]:
    """What :func:`analyze` gives when a limit stopped it: the positions found so far."""
    seconds = round(budget.finish().seconds, 6)
    return {
        "complete": False,
        "status": stopped.value,
        "cluster_size": positions,
        "seconds": seconds,
    }


def state_graph(board: Board, limits: Limits | None = None) -> Any:
    """The cluster as an undirected ``networkx.Graph``.

    Nodes are state indices in breadth-first order (0 is the start) with attributes ``board``
    (the position's string), ``goal`` (bool) and ``distance`` (moves to the nearest goal, -1
    when none); an edge joins two states one move apart and carries ``piece`` and ``cells``.

    Raises
    ------
    OptionError
        If the board is too large for the compact key or a limit stopped the exploration.
    """
    import networkx as nx

    cluster, _, stopped = explore(board, stop_at_goal=False, limits=limits)
    if cluster is None or stopped is not None:
        raise OptionError("the cluster could not be explored completely")
    return _graph(nx.Graph(), cluster)


def _graph(graph: Any, cluster: Cluster) -> Any:
    distance = goal_distances(cluster)
    goal = cluster.goal_mask()
    index = {int(k): i for i, k in enumerate(cluster.keys)}
    enc = cluster.encoding
    problem = RushHourProblem(enc.board)
    for i, key in enumerate(cluster.keys):
        graph.add_node(
            i, board=_name(enc.board_of(int(key))), goal=bool(goal[i]), distance=int(distance[i])
        )
    for i, offsets in enumerate(cluster.offsets):
        for move, nxt, _ in problem.successors(tuple(int(o) for o in offsets)):
            j = index[enc.key(nxt)]
            if i < j:
                graph.add_edge(i, j, piece=move.piece, cells=abs(move.delta))
    return graph
