"""Example puzzles shipped with cspsolve (see ``ATTRIBUTION.md`` in each folder)."""

from pathlib import Path

ROOT = Path(__file__).resolve().parent
"""Folder holding one sub-folder of example files per puzzle kind."""
