"""The exact nonogram line solvers side by side: microseconds a line, by length.

For each length, 1000 random lines: a random fill pattern of blocks 1-5 long, half of its
cells shown, the clue its blocks. Each solver settles every line from a compiled loop (so that
no Python call is timed), after a warm-up; the table gives the best of ``--repeat`` runs, in
microseconds a line, and the ratio to the cell-code solver:

* ``bits`` (:func:`cspsolve.models.nonogram.lines.bits.settle_bits`, one 64-bit word, lines of
  up to 62 cells);
* ``words`` (:func:`cspsolve.models.nonogram.lines.words.settle_words`, arrays of words, any
  length: the fast solver's path beyond 62 cells);
* ``cells`` (:func:`cspsolve.models.nonogram.lines.cells.settle_line`, one byte a cell, any
  length: the explainer's path beyond 62 cells).

Every solver must find the same lines consistent (all of them: each clue comes from a pattern
that agrees with the line).

Usage: python benchmarks/lines.py [--lengths 30,62,95,200,1000,2048] [--repeat 5]
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

import numba
import numpy as np
from rich.console import Console
from rich.table import Table

from cspsolve.models.nonogram.lines.bits import MAX_CELLS, settle_bits
from cspsolve.models.nonogram.lines.cells import EMPTY, FILLED, UNKNOWN, scratch, settle_line
from cspsolve.models.nonogram.lines.words import scratch_words, settle_words, words_for

LINES = 1000


def random_lines(n: int, rng: np.random.Generator) -> tuple[Any, Any, Any]:
    """``LINES`` lines of ``n`` cells: cell codes (uint8, (LINES, n)), blocks (int64, (LINES,
    k)) and block counts (int64, (LINES,))."""
    codes = np.full((LINES, n), UNKNOWN, np.uint8)
    clues: list[list[int]] = []
    for t in range(LINES):
        pattern = np.zeros(n, bool)
        blocks: list[int] = []
        i = int(rng.integers(0, 4))
        while i < n:
            length = min(int(rng.integers(1, 6)), n - i)
            pattern[i : i + length] = True
            blocks.append(length)
            i += length + 1 + int(rng.integers(0, 4))
        clues.append(blocks)
        shown = rng.random(n) < 0.5
        codes[t] = np.where(shown, np.where(pattern, FILLED, EMPTY), UNKNOWN)
    k = max(map(len, clues), default=0)
    table = np.zeros((LINES, max(k, 1)), np.int64)
    for t, blocks in enumerate(clues):
        table[t, : len(blocks)] = blocks
    return codes, table, np.array([len(b) for b in clues], np.int64)


def bit_sets(codes: Any) -> tuple[Any, Any]:
    """The lines as ``can_empty`` and ``can_fill`` word arrays (uint64, (LINES, words))."""
    n = codes.shape[1]
    words = words_for(n)
    padded = np.zeros((LINES, words * 64), bool)
    can = []
    for code in (EMPTY, FILLED):
        padded[:, :n] = (codes & code) != 0
        packed = np.packbits(padded, axis=1, bitorder="little")
        can.append(np.ascontiguousarray(packed).view(np.uint64).reshape(LINES, words))
    return can[0], can[1]


@numba.njit(cache=True)
def run_bits(can_empty: Any, can_fill: Any, n: int, blocks: Any, counts: Any, work: Any) -> int:
    consistent = 0
    for t in range(can_empty.shape[0]):
        ok, _, _ = settle_bits(can_empty[t, 0], can_fill[t, 0], n, blocks[t], 0, counts[t], work)
        consistent += ok
    return consistent


@numba.njit(cache=True)
def run_words(
    can_empty: Any, can_fill: Any, n: int, blocks: Any, counts: Any, work: Any, out: Any
) -> int:
    consistent = 0
    for t in range(can_empty.shape[0]):
        consistent += settle_words(can_empty[t], can_fill[t], n, blocks[t], 0, counts[t], work, out)
    return consistent


@numba.njit(cache=True)
def run_cells(
    codes: Any, blocks: Any, counts: Any, cells: Any, forward: Any, backward: Any,
    blocked: Any, cover: Any,
) -> int:  # fmt: skip
    consistent = 0
    for t in range(codes.shape[0]):
        cells[:] = codes[t]
        clue = blocks[t, : counts[t]]
        consistent += settle_line(cells, clue, forward, backward, blocked, cover)
    return consistent


def best(run: Callable[..., int], arguments: tuple[Any, ...], repeat: int) -> tuple[float, int]:
    """The fastest of ``repeat`` calls ``run(*arguments)`` after a warm-up, in microseconds a
    line, and what the call returned."""
    answer = run(*arguments)
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        run(*arguments)
        times.append(time.perf_counter() - started)
    return min(times) / LINES * 1e6, answer


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lengths", default="30,62,95,200,1000,2048")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    table = Table(title=f"exact line solvers, {LINES} random lines a length, best of {args.repeat}")
    for column in ("cells n", "blocks (max)", "bits µs", "words µs", "cells µs", "cells / words"):
        table.add_column(column, justify="right")
    rng = np.random.default_rng(1)
    for n in map(int, args.lengths.split(",")):
        codes, blocks, counts = random_lines(n, rng)
        can_empty, can_fill = bit_sets(codes)
        k = blocks.shape[1]
        words, out = scratch_words(n, k), np.zeros((2, words_for(n)), np.uint64)
        cells = np.zeros(n, np.uint8)
        on_words = best(
            run_words, (can_empty, can_fill, n, blocks, counts, words, out), args.repeat
        )
        on_cells = best(run_cells, (codes, blocks, counts, cells, *scratch(n, k)), args.repeat)
        bits = "-"
        if n <= MAX_CELLS:
            work = np.zeros((4, k + 1), np.uint64)
            on_bits = best(run_bits, (can_empty, can_fill, n, blocks, counts, work), args.repeat)
            assert on_bits[1] == LINES
            bits = f"{on_bits[0]:.2f}"
        assert on_words[1] == on_cells[1] == LINES, (n, on_words[1], on_cells[1])
        table.add_row(
            str(n), str(k), bits, f"{on_words[0]:.2f}", f"{on_cells[0]:.2f}",
            f"{on_cells[0] / on_words[0]:.1f}x",
        )  # fmt: skip
    Console().print(table)


if __name__ == "__main__":
    main()
