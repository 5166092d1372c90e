"""Package discovery for setuptools (the rest of the configuration is in pyproject.toml).

The folders ``models/`` and ``instances/`` install as ``cspsolve.models`` and
``cspsolve.instances`` (pyproject's ``package-dir``); every package below them is found here,
so a new puzzle kind is only a new folder under ``models/`` (and its examples a new folder
under ``instances/``).
"""

from setuptools import find_namespace_packages, find_packages, setup

ENGINE = find_packages(include=["cspsolve", "cspsolve.*"])
MODELS = ["cspsolve.models", *(f"cspsolve.models.{p}" for p in find_packages("models"))]
EXAMPLES = [f"cspsolve.instances.{p}" for p in find_namespace_packages("instances")]
"""The folders of example puzzles, one per kind: data, shipped whole."""
PAGE = ["cspsolve.web.static", "cspsolve.web.templates"]
"""The web page's script, style and template: data, shipped whole."""
TABLES = {"cspsolve.models.npuzzle": ["duplicate_moves.json"]}
"""Data files of the models' own (the sliding tiles' duplicate move sequences)."""

setup(
    packages=[*ENGINE, *MODELS, "cspsolve.instances", *EXAMPLES, *PAGE],
    package_data={"": ["py.typed"], **{name: ["*"] for name in [*EXAMPLES, *PAGE]}, **TABLES},
    exclude_package_data={"": ["*.pyc"]},
)
