"""The errors cspsolve raises on purpose, all under :class:`CspsolveError`.

The command line shows each as one line, ``cspsolve: FILE:LINE: what is wrong`` for input,
with exit code 2. Every class also derives from :class:`ValueError`, so code written against
earlier versions that catches ``ValueError`` keeps working.

- :class:`InputError`: a puzzle file (or argument) that cannot be read;
  :class:`UnknownKindError` when no puzzle kind recognises it.
- :class:`PuzzleError`: a puzzle object that breaks its kind's rules (sizes, overlaps, ...).
- :class:`OptionError`: a method, heuristic or option that does not fit the kind or puzzle.
"""

from __future__ import annotations

__all__ = [
    "MAX_MESSAGE",
    "CspsolveError",
    "InputError",
    "OptionError",
    "PuzzleError",
    "UnknownKindError",
]

MAX_MESSAGE = 200
"""Longest message of an :class:`InputError`, in characters."""


class CspsolveError(ValueError):
    """Base class of every error cspsolve raises on purpose (a one-line message)."""


class PuzzleError(CspsolveError):
    """A puzzle that breaks its kind's rules, e.g. a Rush Hour car outside the board."""


class OptionError(CspsolveError):
    """A method, heuristic or option that does not fit the puzzle kind or this puzzle."""


class InputError(CspsolveError):
    """A puzzle file (or argument) that cannot be read.

    Parameters
    ----------
    source : str
        The file name (or ``"<string>"``, or an argument name).
    line : int or None
        1-based line number of the problem, ``None`` when it concerns the whole file.
    message : str
        What is wrong, in one line; a message over :data:`MAX_MESSAGE` characters (one that
        quotes a huge token of the file) is cut there and ends in ``...``.

    Examples
    --------
    >>> str(InputError("a.non", 7, "expected 10 row clues, found 9"))
    'a.non:7: expected 10 row clues, found 9'
    """

    def __init__(self, source: str, line: int | None, message: str) -> None:
        if len(message) > MAX_MESSAGE:
            message = message[: MAX_MESSAGE - 3] + "..."
        self.source = source
        self.line = line
        self.message = message
        where = f"{source}:{line}" if line is not None else source
        super().__init__(f"{where}: {message}")


class UnknownKindError(InputError):
    """A readable file that no puzzle kind recognises (``--kind`` names one)."""
