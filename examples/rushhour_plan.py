"""Solve a Rush Hour board optimally, replay the plan, and compare it with the board's analysis.

Run it from any folder: ``python examples/rushhour_plan.py``.
"""

import cspsolve
from cspsolve.instances import ROOT
from cspsolve.models import rushhour

[board] = cspsolve.read(ROOT / "rushhour" / "card-32.txt")

# Count moves (a piece sliding any distance is one move); the default method for a 6x6 board
# is a compiled breadth-first search, which proves the plan is the shortest.
result = cspsolve.solve(board, metric="moves")
print(result)
plan = result.solution
assert plan is not None

# A move is a piece and how far it slides (+ right or down, - left or up).
print(len(plan), "moves:", " ".join(f"{move.piece}{move.delta:+d}" for move in plan))

# Replaying the plan with the board's own rules checks it move by move.
assert rushhour.check(board, plan) == []
positions = rushhour.replay(board, plan)
print("positions visited:", len(positions))

# The analysis explores every position reachable from the start, apart from any solver:
# its optimum must be the plan's length.
facts = cspsolve.analyze(board)
print("optimal moves by analysis:", facts["optimal_moves"], "grade:", facts["grade"])
