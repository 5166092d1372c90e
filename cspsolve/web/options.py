"""A kind's options as the page offers them: widgets made from the kind's declaration, and
the values a request sends, checked against it.

The widget of a field follows its type, as the command line's flags do: ``bool`` is a check
box (``"flag"``), ``bool | None`` a yes/no/default choice (``"yes-no"``), ``int | None`` a count
of at least 1 (``"count"``), a field with ``metadata["choices"]`` a choice, else text.
"""

from __future__ import annotations

import dataclasses
import typing
from collections.abc import Mapping
from typing import Any

from cspsolve.errors import OptionError
from cspsolve.kind import Kind

__all__ = ["describe", "values"]


def _widget(annotation: Any, choices: tuple[str, ...]) -> str:
    if annotation is bool:
        return "flag"
    if annotation == bool | None:
        return "yes-no"
    if annotation == int | None:
        return "count"
    return "choice" if choices else "text"


def _fields(kind: Kind) -> list[tuple[dataclasses.Field[Any], str]]:
    hints = typing.get_type_hints(kind.options)
    return [
        (f, _widget(hints[f.name], tuple(f.metadata.get("choices", ()))))
        for f in dataclasses.fields(kind.options)
    ]


def describe(kind: Kind) -> list[dict[str, Any]]:
    """Each option of the kind: ``name``, ``widget``, ``choices`` and ``help``."""
    return [
        {
            "name": f.name,
            "widget": widget,
            "choices": list(f.metadata.get("choices", ())),
            "help": f.metadata.get("help", ""),
        }
        for f, widget in _fields(kind)
    ]


def _fits(widget: str, value: Any) -> bool:
    if widget in ("flag", "yes-no"):
        return isinstance(value, bool)
    if widget == "count":
        return isinstance(value, int) and not isinstance(value, bool) and value >= 1
    return isinstance(value, str)


_WANTED = {"flag": "true or false", "yes-no": "true or false", "count": "a whole number >= 1"}


def values(kind: Kind, raw: Any) -> dict[str, Any]:
    """The options a request sends (a JSON object; ``null`` or ``""`` leaves one unset).

    Raises
    ------
    OptionError
        For an option the kind lacks or a value of the wrong type (choices are checked by
        :func:`cspsolve.tasks.options_of`).
    """
    if raw is None:
        return {}
    if not isinstance(raw, Mapping):
        raise OptionError("options must be an object of option names and values")
    widgets = {f.name: widget for f, widget in _fields(kind)}
    out: dict[str, Any] = {}
    for name, value in raw.items():
        if name not in widgets:
            known = ", ".join(widgets) or "none"
            raise OptionError(f"unknown option {name!r} for {kind.name}; choose from {known}")
        if value is None or value == "":
            continue
        if not _fits(widgets[name], value):
            raise OptionError(f"option {name} takes {_WANTED.get(widgets[name], 'a string')}")
        out[name] = value
    return out
