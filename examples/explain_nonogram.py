"""Explain a nonogram's solution step by step: which line or probe decides which cells.

Run it from any folder: ``python examples/explain_nonogram.py``.
"""

import cspsolve
from cspsolve import Nonogram

# A small puzzle built from its clues (a letter A): the block lengths of each row, top to
# bottom, then of each column, left to right.
puzzle = Nonogram(
    rows=[(3,), (1, 1), (5,), (1, 1), (1, 1)],
    columns=[(4,), (1, 1), (1, 1), (1, 1), (4,)],
)

explanation = cspsolve.explain(puzzle)
for number, step in enumerate(explanation.steps, 1):
    print(f"{number}. {step.text}")

# What the steps alone do not show (here: why the solution is unique), and a difficulty grade.
for sentence in explanation.proof:
    print(sentence)
print("grade:", explanation.summary["grade"])

# The explanation carries the answer it explains.
assert explanation.result.solution is not None
print("\n".join(explanation.result.solution))
