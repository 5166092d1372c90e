"""Errors raised for bad input, shown to users as ``cspsolve: FILE:LINE: what is wrong``."""

from __future__ import annotations

__all__ = ["MAX_MESSAGE", "InputError", "UnknownKindError"]

MAX_MESSAGE = 200
"""Longest message of an :class:`InputError`, in characters."""


class InputError(ValueError):
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
