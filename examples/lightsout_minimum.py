"""Find the fewest presses that turn off a Lights Out board, and check that none fewer do.

Run it from any folder: ``python examples/lightsout_minimum.py``.
"""

import cspsolve
from cspsolve.instances import ROOT
from cspsolve.models import lightsout

[board] = cspsolve.read(ROOT / "lightsout" / "classic-5x5.lo")


def presses(solution: tuple[int, ...]) -> int:
    """How many cells a solution presses: it is one bit mask a row."""
    return sum(row.bit_count() for row in solution)


# The default method works over GF(2) and proves its answer minimal.
result = cspsolve.solve(board)
assert result.solution is not None
print(result)
print("minimum presses:", presses(result.solution), "proven:", result.proof["minimum"])

# Pressing those cells turns every light off, by the kind's own press rule.
print("lights left on:", sum(lightsout.apply(board, result.solution)))
assert lightsout.check(board, result.solution) == []

# An independent check: list every press set that solves the board (2 ** nullity of them)
# and take the smallest.
every = list(lightsout.solutions(board))
print(f"{len(every)} solutions (nullity {lightsout.nullity(board)}),", end=" ")
print("the smallest presses", min(presses(solution) for solution in every))

# A* over the board's presses must find a plan just as short.
searched = cspsolve.solve(board, method="astar")
print(searched, "->", int(searched.stats.cost), "presses")
