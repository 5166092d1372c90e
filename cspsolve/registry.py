"""The puzzle kinds: found, imported together on first use, and matched to files.

A kind is a package under :mod:`cspsolve.models` whose ``kind`` module holds a
:class:`~cspsolve.kind.Kind` named ``KIND``: adding a package is enough for every command to
offer it. Kinds kept elsewhere (a plugin, a test) are importable modules holding a ``KIND``,
named by an installed distribution's entry points of the group ``cspsolve.kinds`` (the entry
point's module; see ``pyproject.toml``), or in the environment variable ``CSPSOLVE_KINDS``
(comma-separated).
"""

from __future__ import annotations

import functools
import importlib
import importlib.metadata
import os
import pkgutil
from collections.abc import Callable, Iterable
from pathlib import Path, PurePath

from cspsolve.errors import MAX_MESSAGE, InputError, OptionError, UnknownKindError
from cspsolve.inputs import BrokenEntry, check, head
from cspsolve.kind import Kind, Method, PuzzleEntry

__all__ = [
    "ENTRY_POINT_GROUP",
    "EXTRA_KINDS_ENV",
    "detect",
    "get",
    "kind_of",
    "kinds",
    "load",
    "method_table",
    "names",
    "owner",
    "reading",
    "sniffed",
    "split_selector",
]

EXTRA_KINDS_ENV = "CSPSOLVE_KINDS"
"""Environment variable naming modules of further kinds (comma-separated)."""

ENTRY_POINT_GROUP = "cspsolve.kinds"
"""Entry-point group of installed distributions naming modules of kinds."""


def _modules() -> list[str]:
    """The modules that declare kinds, each once: every ``cspsolve.models.*.kind``, then those
    of the ``cspsolve.kinds`` entry points, then those of ``CSPSOLVE_KINDS``."""
    models = importlib.import_module("cspsolve.models")
    found = [
        f"{models.__name__}.{info.name}.kind"
        for info in pkgutil.iter_modules(models.__path__)
        if info.ispkg
    ]
    plugged = [point.module for point in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP)]
    extra = os.environ.get(EXTRA_KINDS_ENV, "")
    named = [name.strip() for name in extra.split(",") if name.strip()]
    return list(dict.fromkeys(found + plugged + named))


@functools.cache
def kinds() -> dict[str, Kind]:
    """Every kind by name, in sniffing order (increasing :attr:`~cspsolve.kind.Kind.priority`)."""
    declared = [importlib.import_module(module).KIND for module in _modules()]
    declared.sort(key=lambda kind: (kind.priority, kind.name))
    return {kind.name: kind for kind in declared}


def _cell(value: bool | None) -> str:
    """A table cell for a method's ``optimal`` or ``complete``."""
    return {True: "yes", False: "no", None: "-"}[value]


def _default_cell(method: Method) -> str:
    """A table cell for a method's ``default``: empty when it is never the default."""
    if callable(method.default):
        return "for some puzzles"
    return "yes" if method.default else ""


def _method_row(kind: str, method: Method) -> str:
    """One line of :func:`method_table`."""
    cells = [
        kind,
        f"`{method.name}`",
        method.backend,
        _cell(method.optimal),
        _cell(method.complete),
        ", ".join(f"`{h}`" for h in method.heuristics),
        _default_cell(method),
        method.summary,
    ]
    return "| " + " | ".join(cell.replace("|", "\\|") for cell in cells) + " |"


def method_table() -> str:
    """The methods of every kind as one Markdown table, a row per method in table order, the
    kind named on its first row: what ``cspsolve methods --format markdown`` prints and
    docs/design.md §3 shows."""
    lines = [
        "| kind | method | backend | optimal | complete | heuristics | default | summary |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for kind in kinds().values():
        lines += [_method_row(kind.name if i == 0 else "", m) for i, m in enumerate(kind.methods)]
    return "\n".join(lines) + "\n"


def names() -> list[str]:
    """The names of every kind, in sniffing order."""
    return list(kinds())


def get(name: str) -> Kind:
    """The kind called ``name``.

    Raises
    ------
    OptionError
        If there is no such kind.
    """
    found = kinds().get(name)
    if found is None:
        raise OptionError(f"unknown kind {name!r}; choose from {', '.join(kinds())}")
    return found


def kind_of(puzzle: object) -> Kind:
    """The kind of a puzzle object: the kind whose package defines its class (or a base).

    A kind's package is the one of the module declaring it (``cspsolve.models.NAME`` for
    ``cspsolve.models.NAME.kind``).

    Raises
    ------
    OptionError
        When no kind's package defines the class, or ``puzzle`` is a file name or text.
    """
    if isinstance(puzzle, str | PurePath):
        raise OptionError(
            f"{str(puzzle)!r} is a file name or text, not a puzzle: read it first, "
            "cspsolve.read(path)[0] (or cspsolve.parse(text)[0])"
        )
    packages: dict[str, Kind] = {
        module.removesuffix(".kind"): importlib.import_module(module).KIND for module in _modules()
    }
    for cls in type(puzzle).__mro__:
        for package, kind in packages.items():
            if cls.__module__ == package or cls.__module__.startswith(package + "."):
                return kind
    raise OptionError(
        f"{type(puzzle).__name__} is not a puzzle class of any kind; "
        f"name its kind ({', '.join(kinds())})"
    )


def owner(path: Path) -> str | None:
    """The kind whose :attr:`~cspsolve.kind.Kind.extensions` hold the file's extension, if any."""
    suffix = path.suffix.lower()
    return next((k.name for k in kinds().values() if suffix in k.extensions), None)


def detect(path: Path) -> str:
    """The kind of a puzzle file: the one that owns its extension, else the first whose
    ``sniff`` recognises its first 64 KiB.

    Raises
    ------
    UnknownKindError
        If no kind recognises the file.
    InputError
        If the file cannot be read (see :func:`cspsolve.inputs.head`).
    """
    text = head(path)
    kind = owner(path) or sniffed(path.name, text)
    if kind is None:
        raise UnknownKindError(
            str(path),
            None,
            f"cannot tell the puzzle kind; name it with --kind ({', '.join(kinds())})",
        )
    return kind


def sniffed(name: str, text: str) -> str | None:
    """The first kind (in sniffing order) whose ``sniff`` recognises ``text``, the first 64 KiB
    of a file called ``name``; ``None`` when none does."""
    return next((kind.name for kind in kinds().values() if kind.sniff(name, text)), None)


def split_selector(spec: str) -> tuple[Path, str | None]:
    """Split ``FILE#KEY`` into the file and the key (``None`` when there is none).

    A ``#`` belongs to the file name when a file of that whole name exists.
    """
    path = Path(spec)
    if "#" in spec and not path.exists():
        name, _, key = spec.rpartition("#")
        return Path(name), key
    return path, None


def _hinted(error: InputError, kind: str) -> InputError:
    """``error`` ending in a hint that the kind was guessed from the content (the message is
    cut before the hint when both do not fit in :data:`~cspsolve.errors.MAX_MESSAGE`)."""
    hint = f"; read as {kind} by its content (name the kind with --kind if it is another)"
    room = MAX_MESSAGE - len(hint)
    message = error.message if len(error.message) <= room else error.message[: room - 3] + "..."
    return InputError(error.source, error.line, message + hint)


def load(spec: str, kind: str | None = None) -> tuple[str, list[PuzzleEntry]]:
    """Read the puzzles named by ``FILE`` or ``FILE#KEY``.

    Parameters
    ----------
    spec : str
        A file name, optionally followed by ``#KEY`` to pick one puzzle of a multi-puzzle file.
    kind : str, optional
        Forces the puzzle kind instead of detecting it.

    Returns
    -------
    tuple of (str, list)
        The kind and the puzzles read; in a file of many, a puzzle that cannot be read is a
        :class:`~cspsolve.inputs.BrokenEntry` beside the others.

    Raises
    ------
    InputError
        On any problem with the file (:class:`UnknownKindError` when no kind recognises it),
        or with the puzzle ``#KEY`` names. When the kind was told by the file's content (no
        kind owns its extension) and the file then fails to read as that kind, the message
        ends by naming the kind and ``--kind``.
    OptionError
        For an unknown ``kind``.
    """
    path, key = split_selector(spec)
    by_content = kind is None and owner(path) is None
    if kind is None:
        kind = detect(path)
    model = get(kind)
    check(path)
    entries = reading(kind, str(path), lambda: model.read(path), by_content=by_content)
    if key is None:
        return kind, entries
    chosen = model.select(entries, key, str(path))
    if isinstance(chosen, BrokenEntry):
        raise chosen.error
    return kind, [chosen]


def reading(
    kind: str, source: str, read: Callable[[], Iterable[PuzzleEntry]], *, by_content: bool
) -> list[PuzzleEntry]:
    """The entries ``read()`` gives, its errors turned into one :class:`InputError` on
    ``source``.

    Raises
    ------
    InputError
        From ``read``, or made of its ``ValueError`` (and the like); when ``by_content`` (the
        kind was told by the content), the message ends by naming the kind and ``--kind``.
    """
    try:
        return list(read())
    except InputError as e:
        raise (_hinted(e, kind) if by_content else e) from None
    except (ValueError, RecursionError, OverflowError, MemoryError) as e:
        reason = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
        error = InputError(source, None, f"cannot read it as {kind}: {reason}")
        raise (_hinted(error, kind) if by_content else error) from None
