"""Counts in messages agree with their number: ``1 move``, ``2 moves``."""

from __future__ import annotations

import pytest

from cspsolve.errors import InputError
from cspsolve.models.npuzzle import kind
from cspsolve.models.npuzzle.board import Puzzle, check, solvability
from cspsolve.models.npuzzle.formats import parse


def noun(count: int, singular: str) -> str:
    """The expected words, written out: ``1 move``, ``2 moves``."""
    return f"{count} {singular}" if count == 1 else f"{count} {singular}s"


def korf_error(text: str) -> str:
    """The message of reading ``text`` as a Korf line."""
    with pytest.raises(InputError) as caught:
        parse(text + "\n", "t.korf", fmt="korf")
    return str(caught.value)


@pytest.mark.parametrize("count", [1, 2])
def test_counts_take_the_plural_only_when_not_one(count: int) -> None:
    up_and_down = ["U", "D"][:count]  # from the start below, neither plan reaches the goal
    unsolved = check(Puzzle(2, 2, (1, 2, 3, 0), (1, 2, 0, 3)), up_and_down)
    assert unsolved == [f"after {noun(count, 'move')} the board is not the goal"]
    assert f"\n{noun(count, 'move')} of the blank: " in kind.draw(
        Puzzle(2, 2, (1, 2, 0, 3)), up_and_down
    )
    blank_on_top = Puzzle(count + 1, 2, (0, *range(1, 2 * count + 2)))
    assert f"blank is {noun(count, 'row')} from its goal row" in solvability(blank_on_top)[1]
    assert f"{noun(count, 'number')}: not the tiles" in korf_error(" ".join(["5"] * count))
