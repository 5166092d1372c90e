"""Compiled loops of :mod:`.cluster` (numba, ``cache=True``); imported only when a search runs.

The hash table is open addressing with linear probing (Knuth, *The Art of Computer
Programming*, vol. 3, §6.4, algorithm L) over int64 keys, -1 marking an empty slot; its size is
a power of two and the caller keeps it at most half full. The hash multiplies by Knuth's
MMIX LCG constant 6364136223846793005.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
from numba import njit

Arr = npt.NDArray[Any]

_MIX = 6364136223846793005


@njit(cache=True)
def _slot(table_keys: Arr, key: int) -> int:
    """The slot holding ``key``, or the empty slot where it belongs."""
    mask = len(table_keys) - 1
    h = ((key * _MIX) >> 17) & mask
    while table_keys[h] != -1 and table_keys[h] != key:
        h = (h + 1) & mask
    return h


@njit(cache=True)
def rehash(table_keys: Arr, table_ids: Arr, keys: Arr, count: int) -> tuple[Arr, Arr]:
    """Insert the first ``count`` keys (ids 0..count-1) into an empty table."""
    for i in range(count):
        h = _slot(table_keys, keys[i])
        table_keys[h] = keys[i]
        table_ids[h] = i
    return table_keys, table_ids


@njit(cache=True)
def _moves(
    key: int,
    pos: Arr,
    steps: bool,
    occ: Arr,
    out_key: Arr,
    out_piece: Arr,
    out_delta: Arr,
    size: int,
    horiz: Arr,
    line: Arr,
    length: Arr,
    low: Arr,
    radix: Arr,
    weight: Arr,
    walls: Arr,
) -> int:
    """Fill ``out_*`` with the moves of state ``key`` (piece offsets ``pos``); return how many."""
    n = len(horiz)
    occ[:] = walls
    for i in range(n):
        p = pos[i]
        stride = 1 if horiz[i] else size
        base = line[i] * size + p if horiz[i] else p * size + line[i]
        for k in range(length[i]):
            occ[base + k * stride] = 1
    count = 0
    for i in range(n):
        p = pos[i]
        stride = 1 if horiz[i] else size
        start = line[i] * size if horiz[i] else line[i]
        d = 1
        while p - d >= 0 and occ[start + (p - d) * stride] == 0:
            out_key[count] = key - d * weight[i]
            out_piece[count] = i
            out_delta[count] = -d
            count += 1
            if steps:
                break
            d += 1
        end = p + length[i] - 1
        d = 1
        while end + d < size and occ[start + (end + d) * stride] == 0:
            out_key[count] = key + d * weight[i]
            out_piece[count] = i
            out_delta[count] = d
            count += 1
            if steps:
                break
            d += 1
    return count


@njit(cache=True)
def bfs_chunk(
    table_keys: Arr,
    table_ids: Arr,
    keys: Arr,
    offsets: Arr,
    parent: Arr,
    piece: Arr,
    delta: Arr,
    depth: Arr,
    degree: Arr,
    counters: Arr,
    chunk: int,
    stop_at_goal: bool,
    steps: bool,
    size: int,
    horiz: Arr,
    line: Arr,
    length: Arr,
    low: Arr,
    radix: Arr,
    weight: Arr,
    walls: Arr,
    red: int,
    goal_offset: int,
) -> int:
    """Expand up to ``chunk`` states of the queue ``keys[head:count]``.

    ``counters`` holds count, head, generated and the largest frontier, and is updated. Returns
    the index of a goal state generated (when ``stop_at_goal``), else -1.
    """
    n = len(horiz)
    occ = np.zeros(size * size, dtype=np.int64)
    most = n * size
    out_key = np.zeros(most, dtype=np.int64)
    out_piece = np.zeros(most, dtype=np.int64)
    out_delta = np.zeros(most, dtype=np.int64)
    count = counters[0]
    head = counters[1]
    start = head
    found = -1
    room = min(len(keys), len(table_keys) // 2) - most
    while head < count and head - start < chunk and count <= room:
        key = keys[head]
        pos = offsets[head]
        m = _moves(
            key,
            pos,
            steps,
            occ,
            out_key,
            out_piece,
            out_delta,
            size,
            horiz,
            line,
            length,
            low,
            radix,
            weight,
            walls,
        )
        degree[head] = m
        counters[2] += m
        for j in range(m):
            h = _slot(table_keys, out_key[j])
            if table_keys[h] != -1:
                continue
            table_keys[h] = out_key[j]
            table_ids[h] = count
            keys[count] = out_key[j]
            offsets[count] = pos
            offsets[count, out_piece[j]] += out_delta[j]
            parent[count] = head
            piece[count] = out_piece[j]
            delta[count] = out_delta[j]
            depth[count] = depth[head] + 1
            if found < 0 and out_piece[j] == red and pos[red] + out_delta[j] == goal_offset:
                found = count
            count += 1
        head += 1
        if count - head > counters[3]:
            counters[3] = count - head
        if found >= 0 and stop_at_goal:
            break
    counters[0] = count
    counters[1] = head
    return found


@njit(cache=True)
def goal_distances(
    table_keys: Arr,
    table_ids: Arr,
    keys: Arr,
    offsets: Arr,
    goals: Arr,
    steps: bool,
    size: int,
    horiz: Arr,
    line: Arr,
    length: Arr,
    low: Arr,
    radix: Arr,
    weight: Arr,
    walls: Arr,
    red: int,
    goal_offset: int,
) -> Arr:
    """Multi-source BFS from ``goals`` over the states in the table; -1 where unreachable."""
    n = len(horiz)
    occ = np.zeros(size * size, dtype=np.int64)
    most = n * size
    out_key = np.zeros(most, dtype=np.int64)
    out_piece = np.zeros(most, dtype=np.int64)
    out_delta = np.zeros(most, dtype=np.int64)
    dist = np.full(len(keys), -1, dtype=np.int64)
    queue = np.zeros(len(keys), dtype=np.int64)
    tail = 0
    for g in goals:
        dist[g] = 0
        queue[tail] = g
        tail += 1
    head = 0
    while head < tail:
        s = queue[head]
        head += 1
        m = _moves(
            keys[s],
            offsets[s],
            steps,
            occ,
            out_key,
            out_piece,
            out_delta,
            size,
            horiz,
            line,
            length,
            low,
            radix,
            weight,
            walls,
        )
        for j in range(m):
            t = table_ids[_slot(table_keys, out_key[j])]
            if dist[t] < 0:
                dist[t] = dist[s] + 1
                queue[tail] = t
                tail += 1
    return dist
