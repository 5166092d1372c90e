"""The standard partitions of the tiles into disjoint patterns, for additive pattern databases
(:mod:`.pdb`); plain data, so that the kind's options can name them without loading numpy."""

from __future__ import annotations

__all__ = ["PARTITIONS", "Partition"]

Partition = tuple[tuple[int, ...], ...]
"""Patterns as tuples of goal cells (row-major indices)."""

PARTITIONS: dict[str, Partition] = {
    "6-6-3": ((1, 2, 3), (4, 5, 8, 9, 12, 13), (6, 7, 10, 11, 14, 15)),
    "5-5-5": ((1, 2, 3, 6, 7), (4, 5, 8, 9, 12), (10, 11, 13, 14, 15)),
    "6-6-6-6": (
        (1, 5, 6, 10, 11, 12),
        (2, 3, 4, 7, 8, 9),
        (15, 16, 17, 20, 21, 22),
        (13, 14, 18, 19, 23, 24),
    ),
}
"""Standard partitions in cells of Korf's goal (blank on cell 0): 6-6-3 and 5-5-5 for the
15-puzzle (Felner, Korf & Hanan 2004), 6-6-6-6 for the 24-puzzle (Korf & Felner 2002, Fig. 4:
127.5 million entries a pattern). For another goal with the blank in a corner the cells are
mirrored so that the blank's goal is cell 0."""
