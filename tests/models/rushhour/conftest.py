"""Shared fixtures of the Rush Hour tests: the in-repository cards (tests/data/rushhour)."""

from __future__ import annotations

import csv
from pathlib import Path

from cspsolve.models.rushhour import Board, parse

DATA = Path(__file__).resolve().parents[2] / "data" / "rushhour"


def cards() -> list[dict[str, str]]:
    """Rows of ``cards.tsv`` (card, board, optimal_moves, cluster_size, min_unit_steps...)."""
    with (DATA / "cards.tsv").open(encoding="utf-8") as f:
        return list(csv.DictReader(f, delimiter="\t"))


def board(text: str) -> Board:
    """The board of a one-line string."""
    return parse(text, fmt="string")[0].puzzle
