"""Puzzles that show themselves in Jupyter.

A puzzle class takes its ``_repr_svg_`` from :func:`picture`, naming its kind; results and
their statistics have theirs in :mod:`cspsolve.results`. Pictures are the kind's own
:attr:`~cspsolve.kind.Kind.scenes`, drawn by :func:`cspsolve.render.drawn` (matplotlib is imported
on the first picture, not before).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from cspsolve.kind import Kind

__all__ = ["as_given", "picture"]


def picture(kind: str) -> Callable[[Any], str | None]:
    """A ``_repr_svg_`` method for the puzzles of ``kind``: the puzzle as given, as SVG.

    Parameters
    ----------
    kind : str
        The kind's name; its :attr:`~cspsolve.kind.Kind.blank` says what an unsolved puzzle
        looks like.

    Returns
    -------
    callable
        ``_repr_svg_(puzzle) -> str | None``; ``None`` (Jupyter then shows the text repr) when
        the kind has no ``blank`` or the puzzle no grid to draw.

    Examples
    --------
    >>> from cspsolve.models.nonogram import Nonogram
    >>> Nonogram(rows=[(1,)], columns=[(1,)])._repr_svg_().startswith("<?xml")
    True
    """

    def _repr_svg_(puzzle: Any) -> str | None:
        from cspsolve.registry import get

        return as_given(get(kind), puzzle)

    return _repr_svg_


def as_given(kind: Kind, puzzle: Any) -> str | None:
    """The SVG of ``puzzle`` as given: the first of the kind's scenes of its
    :attr:`~cspsolve.kind.Kind.blank` solution, or ``None`` when the kind has no ``blank``."""
    blank = kind.blank
    if blank is None:
        return None
    from cspsolve.render import drawn

    return drawn(lambda: kind.scenes(puzzle, blank(puzzle))[:1])
