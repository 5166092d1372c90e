"""The Python examples of the README, the guide and the tutorial, and the scripts of
``examples/``, pass ``mypy --strict`` as a user's code.

Each ```python block becomes a module of its own (a ``>>>`` session keeps its input lines),
checked by :func:`mypy.api.run` against the package as installed: ``cspsolve`` with its
``models`` and ``instances`` inside, laid out here as links to the checkout's folders (an
editable install maps them by an import hook, which mypy does not run). Errors in the
package's own modules are left to the project's mypy run; any error in an example fails.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCUMENTS = ("README.md", "docs/guide.md", "docs/tutorial.md")
SCRIPTS = ROOT / "examples"
BLOCK = re.compile(r"^```python\n(.*?)^```", re.DOTALL | re.MULTILINE)
PROMPT = re.compile(r"^(?:>>>|\.\.\.)(?: |$)")


def code_of(block: str) -> str:
    """A block's code: a ``>>>`` session's input lines, else the block as it is."""
    lines = block.splitlines()
    if not any(PROMPT.match(line) for line in lines):
        return block
    return "\n".join(PROMPT.sub("", line) for line in lines if PROMPT.match(line)) + "\n"


def examples() -> dict[str, str]:
    """Every Python example of :data:`DOCUMENTS` and :data:`SCRIPTS`, by a module name naming
    where it is."""
    found = {}
    for document in DOCUMENTS:
        text = (ROOT / document).read_text(encoding="utf-8")
        stem = Path(document).stem.lower()
        for number, match in enumerate(BLOCK.finditer(text), 1):
            found[f"{stem}_example_{number}"] = code_of(match.group(1))
    for script in sorted(SCRIPTS.glob("*.py")):
        found[f"examples_script_{script.stem}"] = script.read_text(encoding="utf-8")
    return found


def installed_layout(folder: Path) -> Path:
    """A folder holding ``cspsolve`` as it installs: the engine's files, ``models`` and
    ``instances``, as links to the checkout's."""
    package = folder / "cspsolve"
    package.mkdir(parents=True)
    for entry in (ROOT / "cspsolve").iterdir():
        if entry.name != "__pycache__":
            (package / entry.name).symlink_to(entry)
    for name in ("models", "instances"):
        (package / name).symlink_to(ROOT / name)
    return folder


def test_every_document_has_examples() -> None:
    names = examples()
    documents = {name.split("_example_")[0] for name in names if "_example_" in name}
    assert documents == {"readme", "guide", "tutorial"}
    assert sum(name.startswith("examples_script_") for name in names) >= 3
    assert all(code.strip() for code in names.values())


@pytest.mark.slow
def test_the_examples_pass_mypy_strict(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from mypy import api

    monkeypatch.setenv("MYPYPATH", str(installed_layout(tmp_path / "site")))
    sources = tmp_path / "examples"
    sources.mkdir()
    for name, code in examples().items():
        (sources / f"{name}.py").write_text(code, encoding="utf-8")
    report, errors, status = api.run(
        [
            "--strict",
            "--follow-imports=silent",
            "--config-file",
            str(ROOT / "pyproject.toml"),
            "--cache-dir",
            str(tmp_path / "cache"),
            str(sources),
        ]
    )
    assert status == 0, report + errors
