"""Reading puzzle files safely: what every kind's reader uses before it parses.

A puzzle file is a regular file of at most :data:`MAX_BYTES` bytes of UTF-8 text. Anything else
(a folder, a named pipe, a device such as ``/dev/zero``, a sparse file of gigabytes, a file the
user may not read, binary data, JSON nested too deep for the parser) is refused with an
:class:`~cspsolve.errors.InputError` naming the file and the problem, before more than
:data:`MAX_BYTES` are read and without blocking (a pipe is never opened).
"""

from __future__ import annotations

import json
import re
import stat
import sys
from pathlib import Path
from typing import Any

from cspsolve.errors import InputError

__all__ = [
    "MAX_BYTES",
    "MAX_JSON_DEPTH",
    "check",
    "decode",
    "head",
    "parse_json",
    "read_bytes",
    "read_text",
]

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
