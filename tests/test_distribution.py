"""The package as it installs and ships: one version, ``python -m cspsolve``, an sdist that
carries what a user needs (the docs, the example puzzles, the tests whole) and no caches, and
the release files (CHANGELOG.md, CITATION.cff, .pre-commit-config.yaml) in agreement with it."""

from __future__ import annotations

import ast
import importlib.metadata
import re
import subprocess
import sys
import sysconfig
import tarfile
import tomllib
from pathlib import Path, PurePosixPath

import pytest

import cspsolve
from cspsolve.instances import ROOT as INSTANCES

ROOT = Path(__file__).resolve().parents[1]

CACHES = {"__pycache__", ".hypothesis", ".pytest_cache", ".mypy_cache", ".ruff_cache"}
"""Folders no sdist carries."""
CACHE_SUFFIXES = {".pyc", ".pyo", ".nbi", ".nbc"}
"""Files no sdist carries: Python's bytecode and numba's cached kernels (index, code)."""
BUILT = ("docs/_build/", "docs/api/")
"""What sphinx-build writes into the source tree (the site, its generated API pages)."""


def _is_cache(path: PurePosixPath) -> bool:
    built = f"{path}/".startswith(BUILT)
    return bool(CACHES & set(path.parts)) or path.suffix in CACHE_SUFFIXES or built


def _files(folder: str) -> set[str]:
    """The files under ``folder`` of the source tree, caches aside, relative to the root."""
    found = set()
    for path in (ROOT / folder).rglob("*"):
        relative = PurePosixPath(path.relative_to(ROOT).as_posix())
        if path.is_file() and not _is_cache(relative):
            found.add(str(relative))
    return found


def test_the_version_is_the_installed_metadata() -> None:
    assert cspsolve.__version__ == importlib.metadata.version("cspsolve")


def test_python_m_cspsolve_is_the_cspsolve_command(tmp_path: Path) -> None:
    script = Path(sysconfig.get_path("scripts")) / "cspsolve"
    assert script.exists(), f"no console script {script}: is cspsolve installed?"
    duck = str(INSTANCES / "nonogram" / "duck.non")

    def both(*args: str) -> list[subprocess.CompletedProcess[str]]:
        commands = [[str(script), *args], [sys.executable, "-m", "cspsolve", *args]]
        return [
            subprocess.run(c, capture_output=True, text=True, cwd=tmp_path, timeout=120)
            for c in commands
        ]

    script_run, module_run = both("--version")
    assert module_run.returncode == script_run.returncode == 0
    assert module_run.stdout == script_run.stdout == f"cspsolve, version {cspsolve.__version__}\n"

    script_run, module_run = both("solve", duck)
    assert module_run.returncode == script_run.returncode == 0
    # The last line says how long the run took.
    assert module_run.stdout.splitlines()[:-1] == script_run.stdout.splitlines()[:-1]
    assert module_run.stdout.splitlines()[-1].startswith("solved by")

    script_run, module_run = both("solve", str(tmp_path / "absent.non"))
    assert module_run.returncode == script_run.returncode == 2
    assert module_run.stderr == script_run.stderr != ""


@pytest.fixture(scope="module")
def sdist(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    """The member files of the sdist built from the source tree, relative to its top folder,
    built by setuptools' PEP 517 hook as ``python -m build --sdist`` would, without a network."""
    out = tmp_path_factory.mktemp("sdist")
    build = "import sys; from setuptools import build_meta; build_meta.build_sdist(sys.argv[1])"
    run = subprocess.run(
        [sys.executable, "-c", build, str(out)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr
    [tarball] = out.glob("*.tar.gz")
    assert tarball.name == f"cspsolve-{cspsolve.__version__}.tar.gz"
    with tarfile.open(tarball) as tar:
        names = [m.name for m in tar.getmembers() if m.isfile()]
    top = f"cspsolve-{cspsolve.__version__}/"
    assert all(name.startswith(top) for name in names)
    return [name.removeprefix(top) for name in names]


def test_the_sdist_carries_the_documents_and_the_examples(sdist: list[str]) -> None:
    members = set(sdist)
    for name in ["README.md", "LICENSE", "CHANGELOG.md", "CONTRIBUTING.md", "CITATION.cff"]:
        assert name in members
    assert "docs/guide.md" in members and "docs/images/mushroom.png" in members
    assert _files("docs") <= members
    assert _files("instances") <= members
    assert "examples/solve_nonogram.py" in members and _files("examples") <= members
    assert {"pyproject.toml", "setup.py", "MANIFEST.in"} <= members


def test_the_sdist_carries_the_tests_whole_or_none(sdist: list[str]) -> None:
    shipped = {name for name in sdist if name.startswith("tests/")}
    assert shipped in (set(), _files("tests"))


def _imported_paths(module: PurePosixPath, tree: ast.Module) -> list[PurePosixPath]:
    """The paths, without suffix, of the modules of the tests' own folders that ``module``
    imports (relative imports and ``tests.*``)."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level > 0:
            base = module.parent
            for _ in range(node.level - 1):
                base = base.parent
            if node.module:
                found.append(base.joinpath(*node.module.split(".")))
            else:
                found.extend(base / alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("tests."):
            found.append(PurePosixPath(*(node.module or "").split(".")))
        elif isinstance(node, ast.Import):
            found.extend(
                PurePosixPath(*alias.name.split("."))
                for alias in node.names
                if alias.name.startswith("tests.")
            )
    return found


def test_every_helper_a_shipped_test_imports_is_shipped(sdist: list[str]) -> None:
    members = set(sdist)
    folders = {str(PurePosixPath(name).parent) for name in members}
    modules = [PurePosixPath(n) for n in sdist if n.startswith("tests/") and n.endswith(".py")]
    missing = []
    for module in modules:
        tree = ast.parse((ROOT / module).read_text(encoding="utf-8"))
        for target in _imported_paths(module, tree):
            is_module = f"{target}.py" in members or str(target) in folders
            # ``from . import name`` may name an attribute of the package itself.
            if not is_module and (target.parent / "__init__.py").as_posix() not in members:
                missing.append(f"{module}: {target}")
    assert not missing


def test_the_sdist_carries_no_caches(sdist: list[str]) -> None:
    assert [name for name in sdist if _is_cache(PurePosixPath(name))] == []
    assert not [name for name in sdist if name.startswith((".venv/", "build/", "dist/"))]


def test_the_release_files_name_the_version() -> None:
    version = cspsolve.__version__
    citation = (ROOT / "CITATION.cff").read_text(encoding="utf-8")
    assert re.search(r"^cff-version: 1\.2\.0$", citation, re.M)
    for key in ["message", "title", "authors", "license", "date-released"]:
        assert re.search(rf"^{key}:", citation, re.M), key
    assert re.search(rf'^version: "{re.escape(version)}"$', citation, re.M)
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    releases = re.findall(r"^## \[([^\]]+)\]", changelog, re.M)
    assert releases[:2] == ["Unreleased", version]
    [date] = re.findall(rf"^## \[{re.escape(version)}\] - (\S+)$", changelog, re.M)
    assert f'date-released: "{date}"' in citation


def test_pre_commit_pins_the_linters_of_the_dev_extra() -> None:
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    pins = dict(
        re.fullmatch(r"(ruff|mypy)==(\S+)", requirement).groups()  # type: ignore[union-attr]
        for requirement in pyproject["project"]["optional-dependencies"]["dev"]
        if requirement.startswith(("ruff", "mypy"))
    )
    config = (ROOT / ".pre-commit-config.yaml").read_text(encoding="utf-8")
    repo = r"repo: https://github.com/\S+/(?:mirrors-)?(ruff|mypy)\S*\n\s+rev: v(\S+)"
    revs = dict(re.findall(repo, config))
    assert pins == revs == {"ruff": pins["ruff"], "mypy": pins["mypy"]}
    assert any(r.startswith("mypy") for r in pyproject["project"]["optional-dependencies"]["test"])
