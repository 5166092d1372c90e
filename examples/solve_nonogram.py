"""Solve a nonogram from a shipped file, print its picture, and check it against the clues.

Run it from any folder: ``python examples/solve_nonogram.py``.
"""

import cspsolve
from cspsolve.instances import ROOT  # the folder of the example puzzles shipped with cspsolve
from cspsolve.models import nonogram

# A file may hold several puzzles: read() returns them all, as the kind's own objects.
[puzzle] = cspsolve.read(ROOT / "nonogram" / "duck.non")

# The default method (probing) solves it; unique=True also searches for a second solution.
result = cspsolve.solve(puzzle, unique=True)
print(result)  # one line: status, method, time and counters
assert result.solution is not None

# The solution is one string a row: "#" filled, "." empty.
for row in result.solution:
    print(row.replace("#", "██").replace(".", " ·"))

# The kind's checker knows nothing of the solvers: it reads the grid's runs against the clues.
problems = nonogram.check(puzzle, result.solution)
print("problems:", problems or "none")
print("unique:", result.proof["unique"])
