"""Solve one sliding-tile puzzle with several methods and heuristics, and compare them.

Run it from any folder: ``python examples/npuzzle_methods.py``.
"""

import cspsolve
from cspsolve import NPuzzle
from cspsolve.models import npuzzle

# An 8-puzzle built from Python data: rows of tiles, 0 the blank; the goal is 1..8 then blank.
puzzle = NPuzzle.from_rows([[8, 1, 3], [4, 0, 2], [7, 6, 5]])
print(npuzzle.solvability(puzzle)[1])

# Each (method, heuristic) pair; None: the method uses no heuristic.
runs = [
    ("bfs", None),
    ("astar", "misplaced"),
    ("astar", "manhattan"),
    ("idastar", "linear-conflict"),
    ("greedy", "manhattan"),
]
lengths = {}
for method, heuristic in runs:
    result = cspsolve.solve(puzzle, method=method, heuristic=heuristic, time_limit=30)
    plan = result.solution
    assert plan is not None and npuzzle.check(puzzle, plan) == []  # the plan really solves it
    lengths[method, heuristic] = len(plan)
    name = method + (f"/{heuristic}" if heuristic else "")
    print(f"{name:24} {result.status:8} {len(plan):3} moves, {result.stats.expanded:6} expanded")

# Every optimal method finds a plan of the same length; greedy search may find a longer one.
optimal = {length for (method, _), length in lengths.items() if method != "greedy"}
print("optimal length:", optimal.pop() if len(optimal) == 1 else f"disagreement {optimal}")
