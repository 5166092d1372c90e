"""Sphinx configuration of cspsolve's documentation site.

Build it from the repository's root, with the ``docs`` extra installed::

    sphinx-build -W --keep-going -b html docs docs/_build/html

The pages are the Markdown files of this folder (read by MyST) and an API reference that
autosummary generates on each build from the installed package's docstrings (numpydoc style)
into ``docs/api/``, a folder git ignores. Nothing is fetched from the network, neither at build
time nor when a page is viewed.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import re
import typing
from types import ModuleType
from typing import Any

from numpydoc.numpydoc import mangle_signature
from sphinx.application import Sphinx

import cspsolve

project = "cspsolve"
author = "cspsolve developers"
project_copyright = "cspsolve developers, MIT licence"
release = version = cspsolve.__version__

REPOSITORY = "https://github.com/cspsolve/cspsolve/blob/main/"
"""Where a page's link to a file outside ``docs/`` (``../tests/...``) points on the site."""

extensions = [
    "myst_parser",
    "numpydoc",
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
]

source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
root_doc = "index"
templates_path = ["_templates"]
exclude_patterns = ["_build"]

# MyST: headings get anchors down to ### so that links like design.md#12-json-output resolve.
myst_heading_anchors = 3

# The API reference: one page a module, generated on each build.
autosummary_generate = True
autosummary_ignore_module_all = False  # a module's __all__ lists what it documents
autodoc_member_order = "bysource"
autodoc_typehints = "none"  # numpydoc's sections say the types; signatures stay short
numpydoc_show_class_members = False

PUZZLE_CLASSES = {
    name: f"{cls.__module__}.{cls.__qualname__}"
    for name in cspsolve.__all__
    if (cls := getattr(cspsolve, name)).__module__.startswith("cspsolve.models.")
}
"""The kinds' puzzle classes ``cspsolve`` offers (``cspsolve.Nonogram``), with where each is
documented: its kind's page. The page of ``cspsolve`` links to them there rather than
documenting a class a second time under another name."""


def _directive(value: Any) -> str:
    """The autodoc directive that documents ``value``."""
    if isinstance(value, type):
        return "autoexception" if issubclass(value, BaseException) else "autoclass"
    return "autofunction" if inspect.isroutine(value) else "autodata"


def _public_names() -> dict[str, list[tuple[str, str]]]:
    """Each module's ``__all__``, each name with the directive that documents it, by the
    module's name, for the engine and the kinds.

    A module page documents exactly these names, one directive each: ``automodule`` alone
    would leave out a constant without a docstring (``KIND``), a name a package re-exports
    that is not a class or function, and one it serves lazily from ``__getattr__``
    (``cspsolve.models.rushhour.analyze``). The command line and the web page, applications
    the reference leaves out, are not imported.
    """
    found: dict[str, list[tuple[str, str]]] = {}
    for package in (cspsolve, cspsolve.models):
        prefix = f"{package.__name__}."
        for info in pkgutil.walk_packages(package.__path__, prefix, onerror=lambda _: None):
            if info.name.startswith(("cspsolve.cli", "cspsolve.web")):
                continue
            module = importlib.import_module(info.name)
            names = getattr(module, "__all__", ())
            found[info.name] = [(name, _directive(getattr(module, name))) for name in names]
    return found


autosummary_context = {
    "engine_names": [name for name in cspsolve.__all__ if name not in PUZZLE_CLASSES],
    "puzzle_classes": PUZZLE_CLASSES,
    "public_names": _public_names(),
}

html_theme = "furo"
html_title = f"cspsolve {release}"

_OUTSIDE = re.compile(r"\]\(\.\./([^)#\s]+)")


def _link_outside_files(app: Sphinx, docname: str, source: list[str]) -> None:
    """Point a Markdown link to a file outside ``docs/`` (``](../tests/x.py)``, which reads
    well on GitHub) at the repository's copy of the file, instead of copying the file into the
    site as a download."""
    if app.env.doc2path(docname).suffix == ".md":
        source[0] = _OUTSIDE.sub(rf"]({REPOSITORY}\1", source[0])


_RELATIVE = re.compile(r":(mod|func|class|data|attr|meth|obj|exc):`(~?)\.([\w.]+)`")
_TABLE_ROW = re.compile(r"^(\s*)\|(.*)\|\s*$")
_TABLE_RULE = re.compile(r"^\s*\|(\s*:?-+:?\s*\|)+\s*$")


def _target(path: str) -> Any:
    """The module, or attribute of one, that ``path`` names in the installed package, or None."""
    parts = path.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            found: Any = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for part in parts[cut:]:
            found = getattr(found, part, None)
        return found
    return None


def _relative_references(name: str, text: str) -> str:
    """``text`` with each relative reference (``:mod:`.cpsat```) that names a module or object
    of the documented one's package, as a relative import would, spelled out in full.

    The docstrings of the kinds name their sibling modules this way. Sphinx reads a leading dot
    as "any object whose name ends so", and every kind has a ``cpsat``, a ``search``, a
    ``board.check``: it warns of several targets and links the first. A name the documented
    object's own module (its ``__all__``) or class holds keeps the dot: Sphinx finds it there
    first.
    """
    parts = name.split(".")
    scopes = [_target(".".join(parts[:cut])) for cut in range(len(parts), 0, -1)]
    module = next((scope for scope in scopes if isinstance(scope, ModuleType)), None)
    if module is None:
        return text
    package = module.__name__ if hasattr(module, "__path__") else module.__package__

    def local(scope: Any, rest: str) -> bool:
        """Whether ``scope`` documents the object ``rest`` names."""
        first, *more = rest.split(".")
        if isinstance(scope, ModuleType) and first not in getattr(scope, "__all__", ()):
            return False
        if not isinstance(scope, ModuleType | type) or not hasattr(scope, first):
            return False
        found = getattr(scope, first)
        for part in more:
            found = getattr(found, part, None)
        return found is not None

    def spelled(match: re.Match[str]) -> str:
        role, short, rest = match.groups()
        inner = scopes[: scopes.index(module) + 1]
        if role != "mod" and any(local(scope, rest) for scope in inner):
            return match.group(0)
        found = _target(f"{package}.{rest}")
        if found is None or (role == "mod") != isinstance(found, ModuleType):
            return match.group(0)
        title = rest.rpartition(".")[2] if short else rest
        return f":{role}:`{title} <{package}.{rest}>`"

    return _RELATIVE.sub(spelled, text)


def _markdown_tables(lines: list[str]) -> list[str]:
    """``lines`` with each Markdown table (``| a | b |`` over ``|---|---|``) as a list-table."""
    out: list[str] = []
    k = 0
    while k < len(lines):
        head = _TABLE_ROW.match(lines[k])
        if not head or k + 1 >= len(lines) or not _TABLE_RULE.match(lines[k + 1]):
            out.append(lines[k])
            k += 1
            continue
        indent = head.group(1)
        out += [f"{indent}.. list-table::", f"{indent}   :header-rows: 1", ""]
        rows = [lines[k]]
        k += 2
        while k < len(lines) and _TABLE_ROW.match(lines[k]):
            rows.append(lines[k])
            k += 1
        for row in rows:
            cells = [cell.strip() for cell in row.strip()[1:-1].split("|")]
            out.append(f"{indent}   * - {cells[0]}")
            out += [f"{indent}     - {cell}" for cell in cells[1:]]
        out.append("")
    return out


def _borrowed(what: str, obj: Any, lines: list[str]) -> bool:
    """Whether ``lines`` are the docstring of a constant's type rather than the constant's own
    (``KIND`` is a :class:`cspsolve.kind.Kind`; a tuple's would be Python's text on tuples,
    as would a type alias's such as ``tuple[int, ...]``)."""
    if what != "data" or isinstance(obj, type | ModuleType):
        return False
    own = [line for line in lines if line.strip()]
    for source in (type(obj), typing.get_origin(obj)):
        text = getattr(source, "__doc__", None)
        if text and own == [line for line in inspect.cleandoc(text).splitlines() if line.strip()]:
            return True
    return False


def _docstring(app: Sphinx, what: str, name: str, obj: Any, options: Any, lines: list[str]) -> None:
    """Make the docstring's Markdown tables and relative references read as intended, and
    show no text for a constant that has none of its own."""
    if _borrowed(what, obj, lines):
        lines.clear()
    lines[:] = [_relative_references(name, line) for line in _markdown_tables(lines)]


def _contents(app: Sphinx, what: str, name: str, obj: Any, options: Any, lines: list[str]) -> None:
    """End a module's text with the names it documents (its ``__all__``), each linked to its
    entry further down the page."""
    if what != "module" or not getattr(obj, "__all__", None):
        return
    names = [n for n in obj.__all__ if n not in PUZZLE_CLASSES or name != "cspsolve"]
    lines += ["", ".. rubric:: Contents", "", ", ".join(f":py:obj:`{n}`" for n in names), ""]


def _signature(app: Sphinx, what: str, *args: Any) -> tuple[str, str] | None:
    """numpydoc's signature of a callable, asked only for what has a signature.

    numpydoc answers for a type alias (``Tally = dict[float, int]``: a generic alias is
    callable), which Sphinx 9 has no signature slot for: it warns "error while formatting
    signature" and drops the alias's docstring (sphinx-doc/sphinx#14576).
    """
    if what in {"data", "attribute", "type", "module"}:
        return None
    found: tuple[str, str] | None = mangle_signature(app, what, *args)
    return found


def setup(app: Sphinx) -> None:
    """Connect the hooks above; numpydoc's own signature hook gives way to ``_signature``."""
    app.connect("source-read", _link_outside_files)
    app.connect("autodoc-process-docstring", _docstring, priority=400)
    app.connect("autodoc-process-docstring", _contents, priority=600)
    for listener in list(app.events.listeners["autodoc-process-signature"]):
        if listener.handler is mangle_signature:
            app.disconnect(listener.id)
    app.connect("autodoc-process-signature", _signature)
