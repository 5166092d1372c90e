"""Where the page's puzzles come from: pasted or uploaded text, or a shipped instance.

Text is read as the command line reads a file: the kind named, else the one owning the
upload's extension, else the first whose ``sniff`` recognises the content; then the kind's own
``parse`` (the hardened readers of the command line, XML included). An upload's name is used
for its extension and in messages only: no file a request names is ever opened. A shipped
instance is picked by its name in :func:`instances`, never by a path.
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

from cspsolve import registry
from cspsolve.api import parser
from cspsolve.errors import InputError, OptionError, UnknownKindError
from cspsolve.inputs import BrokenEntry, decode
from cspsolve.kind import PuzzleEntry

__all__ = [
    "PASTED",
    "Read",
    "Source",
    "instances",
    "read",
    "source_of",
    "text_field",
    "uploaded",
    "uploaded_name",
]

PASTED = "pasted"
"""The name pasted text goes by in error messages."""

SNIFF_BYTES = 1 << 16
"""How much of the text the kinds' ``sniff`` look at (as for a file)."""


@dataclass(frozen=True)
class Source:
    """A puzzle source of a request.

    Attributes
    ----------
    text : str or None
        Pasted or uploaded text (``None`` for a shipped instance).
    name : str
        The upload's file name (its extension may tell the kind), ``"pasted"`` for pasted
        text, or the shipped instance's name.
    instance : bool
        Whether ``name`` names a shipped instance (and ``text`` is ``None``).
    kind, format : str or None
        The kind and format asked for; ``None`` lets the content tell.
    """

    text: str | None
    name: str
    instance: bool = False
    kind: str | None = None
    format: str | None = None


@dataclass(frozen=True)
class Read:
    """The puzzles of a source, with their kind."""

    kind: str
    entries: list[PuzzleEntry]
    name: str

    def listing(self) -> list[dict[str, Any]]:
        """One JSON object per puzzle: its ``index``, ``id``, ``line`` and description (for a
        puzzle of the source that cannot be read, what is wrong with it)."""
        describe = registry.get(self.kind).describe
        return [
            {"index": i, "id": e.id, "line": e.line, "describe": _described(e, describe)}
            for i, e in enumerate(self.entries)
        ]

    def pick(self, index: int) -> Any:
        """The puzzle at ``index``.

        Raises
        ------
        InputError
            When there is no such puzzle, or it cannot be read.
        """
        if not 0 <= index < len(self.entries):
            raise InputError(self.name, None, f"holds {len(self.entries)} puzzles; no #{index}")
        return self.entries[index].puzzle


def _described(entry: PuzzleEntry, describe: Callable[[Any], str]) -> str:
    """``describe`` of the entry's puzzle; for a broken entry, what is wrong with it."""
    if isinstance(entry, BrokenEntry):
        return f"cannot be read (line {entry.error.line}: {entry.cause.message})"
    return describe(entry.puzzle)


@functools.cache
def instances() -> dict[str, tuple[str, Path]]:
    """The shipped example puzzles by name (``"nonogram/duck.non"``): their kind and file."""
    root = Path(importlib.import_module("cspsolve.instances").ROOT)
    found: dict[str, tuple[str, Path]] = {}
    for folder in sorted(p for p in root.iterdir() if p.is_dir() and p.name in registry.kinds()):
        for path in sorted(folder.iterdir()):
            if path.is_file() and path.suffix != ".md" and not path.name.startswith("LICENSE"):
                found[f"{folder.name}/{path.name}"] = (folder.name, path)
    return found


def text_field(data: Mapping[str, Any], key: str) -> str | None:
    """The string ``data[key]``, ``None`` when absent or empty.

    Raises
    ------
    OptionError
        When the value is not a string.
    """
    value = data.get(key)
    if value is None or value == "":
        return None
    if not isinstance(value, str):
        raise OptionError(f"{key} must be a string")
    return value


def source_of(data: Mapping[str, Any]) -> Source:
    """The source a request's JSON ``puzzle`` object names: ``text`` (with an optional file
    ``name``) or ``instance``, and optionally ``kind`` and ``format``.

    Raises
    ------
    OptionError
        When it names neither or both, or a field is not a string.
    """
    text, instance = text_field(data, "text"), text_field(data, "instance")
    kind, fmt = text_field(data, "kind"), text_field(data, "format")
    if (text is None) == (instance is None):
        raise OptionError("give the puzzle as text or as the name of a shipped instance")
    if instance is not None:
        return Source(None, instance, instance=True, kind=kind, format=fmt)
    name = PurePosixPath((text_field(data, "name") or PASTED).replace("\\", "/")).name
    return Source(text, name or PASTED, kind=kind, format=fmt)


def uploaded_name(name: str | None) -> str:
    """The name an upload goes by in messages: its file name without any folder."""
    return PurePosixPath((name or "").replace("\\", "/")).name or PASTED


def uploaded(data: bytes, name: str) -> str:
    """An upload's bytes as text; InputError (naming the upload) for binary data."""
    return decode(data, uploaded_name(name))


def read(source: Source) -> Read:
    """The puzzles of ``source``, as the command line reads a file.

    Raises
    ------
    InputError
        When it does not read (:class:`~cspsolve.errors.UnknownKindError` when no kind
        recognises it), or names no shipped instance.
    OptionError
        For an unknown kind, or a kind that reads files only.
    """
    if source.kind is not None:
        registry.get(source.kind)
    if source.instance:
        found = instances().get(source.name)
        if found is None:
            raise InputError(source.name, None, "no shipped instance of that name")
        return Read(*registry.load(str(found[1]), source.kind or found[0]), source.name)
    assert source.text is not None
    text = source.text.removeprefix("\ufeff")
    owner = registry.owner(Path(source.name))
    kind: str | None = source.kind or owner or registry.sniffed(source.name, text[:SNIFF_BYTES])
    if kind is None:
        known = ", ".join(registry.kinds())
        raise UnknownKindError(source.name, None, f"cannot tell the puzzle kind; name it ({known})")
    parse_text = parser(registry.get(kind))
    entries = registry.reading(
        kind,
        source.name,
        lambda: parse_text(text, source.name, fmt=source.format),
        by_content=source.kind is None and owner is None,
    )
    if not entries:
        raise InputError(source.name, None, "holds no puzzle")
    return Read(kind, entries, source.name)
