"""Options as the page offers them: widgets made from an options dataclass of a kind's
declaration (its ``options``, or its generator's), and the values a request sends, checked
against it.

The widget of a field follows its type, as the command line's flags do: ``bool`` is a check
box (``"flag"``), ``bool | None`` a yes/no/default choice (``"yes-no"``), ``int | None`` a count
of at least 1 (``"count"``), ``float | None`` a number (``"number"``), a field with
``metadata["choices"]`` a choice, else text.
"""

from __future__ import annotations

import dataclasses
import math
import typing
from collections.abc import Mapping
from typing import Any

from cspsolve.errors import OptionError

__all__ = ["describe", "values"]


def _widget(annotation: Any, choices: tuple[str, ...]) -> str:
    if annotation is bool:
        return "flag"
    if annotation == bool | None:
        return "yes-no"
    if annotation == int | None:
        return "count"
    if annotation == float | None:
        return "number"
    return "choice" if choices else "text"


def _fields(options: type) -> list[tuple[dataclasses.Field[Any], str]]:
    hints = typing.get_type_hints(options)
    return [
        (f, _widget(hints[f.name], tuple(f.metadata.get("choices", ()))))
        for f in dataclasses.fields(options)
    ]


def describe(options: type) -> list[dict[str, Any]]:
    """Each field of the options dataclass: ``name``, ``widget``, ``choices``, ``help`` and
    ``default`` (a number or string the field takes when left unset, else ``None``)."""
    return [
        {
            "name": f.name,
            "widget": widget,
            "choices": list(f.metadata.get("choices", ())),
            "help": f.metadata.get("help", ""),
            "default": _shown(f.default),
        }
        for f, widget in _fields(options)
    ]


def _shown(default: Any) -> int | float | str | None:
    """A default the page shows in an empty field (``None``: none to show)."""
    if isinstance(default, bool) or not isinstance(default, int | float | str):
        return None
    return default


def _fits(widget: str, value: Any) -> bool:
    if widget in ("flag", "yes-no"):
        return isinstance(value, bool)
    if widget == "count":
        return isinstance(value, int) and not isinstance(value, bool) and value >= 1
    if widget == "number":
        number = isinstance(value, int | float) and not isinstance(value, bool)
        return number and math.isfinite(value)
    return isinstance(value, str)


_WANTED = {
    "flag": "true or false",
    "yes-no": "true or false",
    "count": "a whole number >= 1",
    "number": "a finite number",
}


def values(options: type, raw: Any, owner: str) -> dict[str, Any]:
    """The options a request sends (a JSON object; ``null`` or ``""`` leaves one unset), for
    the options dataclass ``options`` of ``owner`` (a kind's name, in messages).

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
    widgets = {f.name: widget for f, widget in _fields(options)}
    out: dict[str, Any] = {}
    for name, value in raw.items():
        if name not in widgets:
            known = ", ".join(widgets) or "none"
            raise OptionError(f"unknown option {name!r} for {owner}; choose from {known}")
        if value is None or value == "":
            continue
        if not _fits(widgets[name], value):
            raise OptionError(f"option {name} takes {_WANTED.get(widgets[name], 'a string')}")
        out[name] = value
    return out
