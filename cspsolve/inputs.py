"""Reading puzzle files safely: what every kind's reader uses before it parses, and how it
reads a file of many puzzles.

A puzzle file is a regular file of at most :data:`MAX_BYTES` bytes of UTF-8 text. Anything else
(a folder, a named pipe, a device such as ``/dev/zero``, a sparse file of gigabytes, a file the
user may not read, binary data, JSON nested too deep for the parser) is refused with an
:class:`~cspsolve.errors.InputError` naming the file and the problem, before more than
:data:`MAX_BYTES` are read and without blocking (a pipe is never opened).

In a file of many puzzles each entry is read on its own (:func:`entry_or_broken`): one that
cannot be read becomes a :class:`BrokenEntry` holding its error, and the others read on. Only
what frames the entries (where each one starts) fails a whole file, and so does the broken
entry of a file that holds no other (:func:`file_entries`).
"""

from __future__ import annotations

import json
import re
import stat
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NoReturn, TypeVar

from cspsolve.errors import InputError

__all__ = [
    "MAX_BYTES",
    "MAX_JSON_DEPTH",
    "BrokenEntry",
    "check",
    "claim",
    "decode",
    "entry_or_broken",
    "file_entries",
    "head",
    "parse_json",
    "read_bytes",
    "read_text",
]

E = TypeVar("E")

MAX_BYTES = 64 << 20
"""The largest puzzle file read, in bytes (64 MiB)."""

MAX_JSON_DEPTH = 64
"""The deepest nesting of lists and objects a JSON puzzle file may have."""


def check(path: str | Path) -> tuple[Path, int]:
    """The path of a regular file of at most :data:`MAX_BYTES` and its size, without opening it.

    Raises
    ------
    InputError
        When the file is missing, out of reach, a folder, a named pipe, a device or too large.
    """
    path = Path(path)
    source = str(path)
    try:
        info = path.stat()
    except FileNotFoundError:
        raise InputError(source, None, "no such file") from None
    except PermissionError:
        raise InputError(source, None, "permission denied (cannot reach the file)") from None
    except OSError as e:
        raise InputError(source, None, e.strerror or "cannot read the file") from None
    if stat.S_ISDIR(info.st_mode):
        raise InputError(source, None, "is a folder, not a puzzle file")
    if not stat.S_ISREG(info.st_mode):
        what = "a named pipe" if stat.S_ISFIFO(info.st_mode) else "a device or special file"
        raise InputError(source, None, f"is {what}, not a regular file")
    if info.st_size > MAX_BYTES:
        raise InputError(
            source,
            None,
            f"is {info.st_size:,} bytes; puzzle files are limited to {MAX_BYTES >> 20} MiB",
        )
    return path, info.st_size


def _read(path: Path, limit: int) -> bytes:
    try:
        with path.open("rb") as f:
            data = f.read(limit + 1)
    except PermissionError:
        raise InputError(str(path), None, "permission denied") from None
    except OSError as e:
        raise InputError(str(path), None, e.strerror or "cannot read the file") from None
    return data


def read_bytes(path: str | Path) -> bytes:
    """The whole content of a puzzle file.

    Parameters
    ----------
    path : str or Path
        The file.

    Returns
    -------
    bytes
        At most :data:`MAX_BYTES` bytes.

    Raises
    ------
    InputError
        When the file is missing, not a regular file (folder, pipe, device), larger than
        :data:`MAX_BYTES` (also when it grows while read) or unreadable.
    """
    checked, _ = check(path)
    data = _read(checked, MAX_BYTES)
    if len(data) > MAX_BYTES:
        raise InputError(
            str(path), None, f"is larger than {MAX_BYTES >> 20} MiB, the limit for puzzle files"
        )
    return data


def read_text(path: str | Path) -> str:
    """The content of a puzzle file as text (UTF-8, an optional BOM dropped).

    Raises
    ------
    InputError
        As :func:`read_bytes`, and when the file holds NUL bytes or is not UTF-8 text (the
        line of the first bad byte is named).
    """
    data = read_bytes(path)
    return decode(data, str(path))


def decode(data: bytes, source: str) -> str:
    """``data`` as UTF-8 text without a BOM; InputError (with the line) for binary data."""
    if b"\0" in data:
        line = data[: data.index(b"\0")].count(b"\n") + 1
        raise InputError(source, line, "binary data (NUL byte), not a text puzzle file")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data[: e.start].count(b"\n") + 1
        raise InputError(source, line, "not UTF-8 text") from None
    return text.removeprefix("\ufeff")


def head(path: str | Path, size: int = 1 << 16) -> str:
    """The first ``size`` bytes of a puzzle file as text (bad bytes replaced), for sniffing.

    Raises
    ------
    InputError
        As :func:`read_bytes` (the size limit included), without reading the whole file.
    """
    checked, _ = check(path)
    return _read(checked, size)[:size].decode("utf-8", errors="replace").removeprefix("\ufeff")


def _depth(text: str) -> int:
    """The deepest nesting of ``[``/``{`` in JSON text, strings skipped."""
    depth = deepest = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    return deepest


def parse_json(text: str, source: str) -> Any:
    """Parse a JSON puzzle file.

    Parameters
    ----------
    text : str
        The file's content.
    source : str
        The file name, for errors.

    Returns
    -------
    object
        The parsed value.

    Raises
    ------
    InputError
        For malformed JSON (with its line), a key given twice in one object (the JSON standard
        leaves its meaning open), nesting deeper than :data:`MAX_JSON_DEPTH`, or integers too
        long to convert (Python's 4300-digit limit).

    Notes
    -----
    A leading byte-order mark (as Windows editors write) is dropped, as :func:`decode` does.
    """
    text = text.removeprefix("\ufeff")
    if _depth(text) > MAX_JSON_DEPTH:
        raise InputError(source, None, f"JSON nested deeper than {MAX_JSON_DEPTH} levels")

    def unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        found: dict[str, Any] = {}
        for key, value in pairs:
            if key in found:
                raise InputError(source, None, f"the key {key!r} is given twice in one object")
            found[key] = value
        return found

    try:
        return json.loads(text, object_pairs_hook=unique_keys)
    except InputError:
        raise
    except json.JSONDecodeError as e:
        raise InputError(source, e.lineno, f"not valid JSON: {e.msg}") from None
    except (ValueError, RecursionError) as e:
        digits = re.search(r"value has (\d+) digits", str(e))
        if digits is None:
            raise InputError(source, None, f"unreadable JSON ({str(e).splitlines()[0]})") from None
        limit = sys.get_int_max_str_digits()
        reason = f"a number too long ({int(digits[1]):,} digits, at most {limit:,})"
        raise InputError(source, None, reason) from None


# --- files of many puzzles --------------------------------------------------------------------


@dataclass(frozen=True)
class BrokenEntry:
    """A puzzle of a file of many that cannot be read; the file's other puzzles read on.

    Attributes
    ----------
    id : int or str or None
        The id the entry has in its file (what ``FILE#KEY`` names), ``None`` when even that
        cannot be read.
    line : int
        1-based line where the entry starts.
    label : str
        How the entry is named in its error, e.g. ``"puzzle $500"`` or ``"grid 'Smile'"``.
    cause : InputError
        What is wrong with it, as the reader found it.
    """

    id: int | str | None
    line: int
    label: str
    cause: InputError

    @property
    def error(self) -> InputError:
        """The error of the entry: the file, the line of the problem (where the entry starts
        when the problem has none), the entry's label and what is wrong."""
        at = self.cause.line if self.cause.line is not None else self.line
        return InputError(self.cause.source, at, f"{self.label}: {self.cause.message}")

    @property
    def puzzle(self) -> NoReturn:
        """A broken entry has no puzzle: raises its :attr:`error`."""
        raise self.error


def entry_or_broken(
    ident: int | str | None, line: int, label: str, read: Callable[[], E]
) -> E | BrokenEntry:
    """The entry ``read()`` makes, or a :class:`BrokenEntry` of the
    :class:`~cspsolve.errors.InputError` it raises.

    Parameters
    ----------
    ident : int or str or None
        The entry's id in its file.
    line : int
        1-based line where the entry starts.
    label : str
        How its error names it (see :attr:`BrokenEntry.label`).
    read : callable
        Reads the entry; raises InputError when it cannot.

    Examples
    --------
    >>> def bad() -> str:
    ...     raise InputError("t.txt", 4, "row 1: clue 3 needs 3 cells, the line has 1")
    >>> print(entry_or_broken(2, 3, "puzzle $2", bad).error)
    t.txt:4: puzzle $2: row 1: clue 3 needs 3 cells, the line has 1
    """
    try:
        return read()
    except InputError as cause:
        return BrokenEntry(ident, line, label, cause)


def claim(ident: int | str, line: int, first: dict[int | str, int], source: str) -> None:
    """Note in ``first`` that the entry starting on ``line`` has the id ``ident``.

    Raises
    ------
    InputError
        At ``line``, when an earlier entry has that id (``FILE#KEY`` names the earlier one).
    """
    if ident in first:
        raise InputError(source, line, f"given twice (first on line {first[ident]})")
    first[ident] = line


def file_entries(entries: Sequence[E | BrokenEntry]) -> list[E | BrokenEntry]:
    """The entries of a file, each read on its own (:func:`entry_or_broken`).

    Raises
    ------
    InputError
        The error the reader found, when the file holds one entry and it is broken: then the
        whole file fails, as a file of one puzzle does.
    """
    if len(entries) == 1 and isinstance(entries[0], BrokenEntry):
        raise entries[0].cause
    return list(entries)
