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

from cspsolve.compiling import announce_compiling

announce_compiling()

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
    dist: Arr,
    queue: Arr,
    ends: Arr,
    chunk: int,
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
) -> None:
    """Up to ``chunk`` steps of a multi-source BFS over the states in the table.

    ``dist`` holds each state's distance (-1 not reached yet), ``queue[ends[0]:ends[1]]`` the
    states reached and not yet expanded; the caller seeds both with the goals, and both ends
    move on in place.
    """
    n = len(horiz)
    occ = np.zeros(size * size, dtype=np.int64)
    most = n * size
    out_key = np.zeros(most, dtype=np.int64)
    out_piece = np.zeros(most, dtype=np.int64)
    out_delta = np.zeros(most, dtype=np.int64)
    head, tail = ends[0], ends[1]
    stop = head + chunk
    while head < tail and head < stop:
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
    ends[0], ends[1] = head, tail


# ----------------------------------------------------------------------------------------------
# Breadth-first heuristic search over bit-packed keys of several words (:mod:`.packed`).
# A key is ``words`` int64 values; piece i's offset minus ``low[i]`` sits in bits
# ``shift[i] .. shift[i] + bits[i] - 1`` of word ``word[i]`` (at most 62 bits a word, so every
# word stays non-negative). The hash table holds the keys themselves, one row a slot (-1 in the
# first word: empty), so a look-up reads one row instead of an index and then the key; its
# size is a power of two, kept at most half full by the caller.

_MIX2 = -7046029254386353131  # 0x9E3779B97F4A7C15, the 64-bit golden-ratio constant
_INFINITE = 1 << 30


@njit(cache=True, inline="always")
def _hash_words(key: Arr, mask: int) -> int:
    """Slot where the search for ``key`` (one row of words) starts."""
    h = 0
    for k in range(len(key)):
        h = (h ^ key[k]) * _MIX
        h ^= h >> 29
    return ((h * _MIX2) >> 20) & mask


@njit(cache=True, inline="always")
def _find(table: Arr, key: Arr) -> int:
    """The slot holding ``key``, or the empty slot where it belongs."""
    mask = len(table) - 1
    h = _hash_words(key, mask)
    words = len(key)
    while table[h, 0] != -1:
        same = True
        for k in range(words):
            if table[h, k] != key[k]:
                same = False
                break
        if same:
            return h
        h = (h + 1) & mask
    return h


@njit(cache=True)
def packed_rehash(table: Arr, keys: Arr, count: int) -> Arr:
    """Insert the keys ``keys[:count]`` (distinct) into the empty ``table``."""
    for i in range(count):
        slot = _find(table, keys[i])
        for k in range(keys.shape[1]):
            table[slot, k] = keys[i, k]
    return table


@njit(cache=True, inline="always")
def _decode(key: Arr, pos: Arr, low: Arr, word: Arr, shift: Arr, bits: Arr) -> None:
    """Piece offsets of ``key`` into ``pos``."""
    for i in range(len(pos)):
        pos[i] = low[i] + ((key[word[i]] >> shift[i]) & ((1 << bits[i]) - 1))


@njit(cache=True, inline="always")
def _paint(
    occ: Arr, i: int, p: int, value: int, size: int, horiz: Arr, line: Arr, length: Arr
) -> None:
    """Write ``value`` on the cells of piece ``i`` at offset ``p``."""
    stride = 1 if horiz[i] else size
    base = line[i] * size + p if horiz[i] else p * size + line[i]
    for k in range(length[i]):
        occ[base + k * stride] = value


@njit(cache=True, inline="always")
def _place(
    key: Arr,
    pos: Arr,
    occ: Arr,
    size: int,
    horiz: Arr,
    line: Arr,
    length: Arr,
    low: Arr,
    word: Arr,
    shift: Arr,
    bits: Arr,
    walls: Arr,
) -> None:
    """The position of ``key``: its piece offsets into ``pos``, its cells into ``occ`` (piece
    index + 1, -1 on a wall, 0 free)."""
    _decode(key, pos, low, word, shift, bits)
    for c in range(size * size):
        occ[c] = walls[c]
    for i in range(len(pos)):
        _paint(occ, i, pos[i], i + 1, size, horiz, line, length)


_MASK_BITS = 62
"""Pieces a word of a piece set holds (no sign bit, so shifts stay logical)."""


@njit(cache=True)
def sweeps(pieces: int, size: int) -> Arr:
    """Scratch for the ``union`` estimate of a board of ``pieces`` pieces and ``size`` rows:
    two piece sets a blocker (its sweeps up and down), then a stack of unions, each
    ``ceil(pieces / 62)`` words."""
    return np.zeros((3 * size + 1, (pieces + _MASK_BITS - 1) // _MASK_BITS), dtype=np.int64)


@njit(cache=True, inline="always")
def _sweep(occ: Arr, col: int, first: int, last: int, size: int, sets: Arr, at: int) -> int:
    """The pieces on rows ``first..last`` of column ``col`` into the set ``sets[at]``; return
    how many, or -1 (the set left unfinished) if a wall is there."""
    for w in range(sets.shape[1]):
        sets[at, w] = 0
    count = 0
    previous = 0
    for r in range(first, last + 1):
        v = occ[r * size + col]
        if v < 0:
            return -1
        if v > 0 and v != previous:
            sets[at, (v - 1) // _MASK_BITS] |= 1 << ((v - 1) % _MASK_BITS)
            count += 1
        previous = v
    return count


@njit(cache=True, inline="always")
def _column_pieces(occ: Arr, col: int, first: int, last: int, size: int) -> int:
    """Distinct pieces on rows ``first..last`` of column ``col``; -1 if a wall is there."""
    count = 0
    previous = 0
    for r in range(first, last + 1):
        v = occ[r * size + col]
        if v < 0:
            return -1
        if v > 0 and v != previous:
            count += 1
        previous = v
    return count


@njit(cache=True)
def _fewest_union(sets: Arr, sides: Arr, blockers: int, size: int, best: int) -> int:
    """Least size, below ``best``, of a union of one sweep per blocker (blocker ``j``'s up and
    down sweeps are ``sets[2j]`` and ``sets[2j + 1]``, ``sides[j]`` bit 0 and bit 1 saying
    which exist), by depth-first branch and bound; ``best`` when none is smaller."""
    stack = 2 * size
    for w in range(sets.shape[1]):
        sets[stack, w] = 0
    depth = 0
    sides[size] = -1
    while depth >= 0:
        side = sides[size + depth] + 1
        while side < 2 and not (sides[depth] >> side) & 1:
            side += 1
        if side == 2:
            depth -= 1
            continue
        sides[size + depth] = side
        count = 0
        for w in range(sets.shape[1]):
            x = sets[stack + depth, w] | sets[2 * depth + side, w]
            sets[stack + depth + 1, w] = x
            while x:
                x &= x - 1
                count += 1
        if count >= best:
            continue
        if depth + 1 == blockers:
            best = count
            continue
        depth += 1
        sides[size + depth] = -1
    return best


@njit(cache=True, inline="always")
def _estimate(
    occ: Arr,
    red_offset: int,
    level: int,
    steps: bool,
    size: int,
    horiz: Arr,
    length: Arr,
    pos: Arr,
    red: int,
    row: int,
    goal_offset: int,
) -> int:
    """Cost-to-go estimate of the position ``occ`` (piece index + 1 per cell, -1 a wall).

    ``level`` 0: zero; 1: blocking (the red car plus one per blocker, or under steps their
    fewest cells); 2: blockers (1 plus the most second-level pieces of one blocker); 3, not
    admissible (the beam's score): blocking plus every blocker's fewest second-level pieces,
    summed; 4: union (:func:`_union`). Levels 0-2 and 4 are admissible. Returns
    ``_INFINITE`` when a wall or a piece ahead of the red car can never leave its row.
    """
    if level == 0 or red_offset == goal_offset:
        return 0
    h = goal_offset - red_offset if steps else 1
    second = 0
    total = 0
    for col in range(red_offset + length[red], size):
        v = occ[row * size + col]
        if v == 0:
            continue
        if v < 0 or horiz[v - 1]:
            return _INFINITE
        b = v - 1
        top = pos[b]
        lb = length[b]
        fewest_cells = _INFINITE
        fewest_pieces = _INFINITE
        up = row - lb
        if up >= 0:
            found = _column_pieces(occ, col, up, top - 1, size)
            if found >= 0:
                fewest_cells = top - up
                fewest_pieces = found
        down = row + 1
        if down + lb <= size:
            found = _column_pieces(occ, col, top + lb, row + lb, size)
            if found >= 0:
                fewest_cells = min(fewest_cells, down - top)
                fewest_pieces = min(fewest_pieces, found)
        if fewest_pieces == _INFINITE:
            return _INFINITE
        h += fewest_cells if steps else 1
        second = max(second, fewest_pieces)
        total += fewest_pieces
    if level == 3:
        return h + total
    return h + second if level == 2 else h


@njit(cache=True)
def _union(
    occ: Arr,
    red_offset: int,
    steps: bool,
    size: int,
    horiz: Arr,
    length: Arr,
    pos: Arr,
    red: int,
    row: int,
    goal_offset: int,
    sets: Arr,
    sides: Arr,
) -> int:
    """The union estimate (level 4): blocking plus the fewest distinct second-level pieces over
    every choice of the side each blocker leaves by (``sets`` and ``sides`` are scratch,
    :func:`sweeps` and ``2 * size`` ints). A call of its own, so that the other levels' inlined
    loop stays as small as it was."""
    h = _estimate(occ, red_offset, 1, steps, size, horiz, length, pos, red, row, goal_offset)
    if h == 0 or h >= _INFINITE:
        return h
    blockers = 0
    most = 0
    for col in range(red_offset + length[red], size):
        v = occ[row * size + col]
        if v == 0:
            continue
        top = pos[v - 1]
        lb = length[v - 1]
        sides[blockers] = 0
        fewest = _INFINITE
        if row - lb >= 0:
            found = _sweep(occ, col, row - lb, top - 1, size, sets, 2 * blockers)
            if found >= 0:
                sides[blockers] |= 1
                fewest = found
        if row + 1 + lb <= size:
            found = _sweep(occ, col, top + lb, row + lb, size, sets, 2 * blockers + 1)
            if found >= 0:
                sides[blockers] |= 2
                fewest = min(fewest, found)
        most += fewest
        blockers += 1
    return h + _fewest_union(sets, sides, blockers, size, most + 1) if blockers else h


@njit(cache=True, inline="always")
def _slides(
    key: Arr,
    pos: Arr,
    occ: Arr,
    last: int,
    steps: bool,
    cand: Arr,
    moved: Arr,
    size: int,
    horiz: Arr,
    line: Arr,
    length: Arr,
    word: Arr,
    shift: Arr,
) -> int:
    """Write the keys of the slides from ``key`` (offsets ``pos``, cells ``occ``) into ``cand``
    and their (piece, signed distance) into ``moved``, piece ``last`` left out; return how many.

    The look-ups come after, in a loop of their own, whose reads of the table the processor can
    overlap.
    """
    m = 0
    for i in range(len(pos)):
        if i == last:
            continue
        p = pos[i]
        stride = 1 if horiz[i] else size
        first = line[i] * size if horiz[i] else line[i]
        for direction in (-1, 1):
            d = direction
            while True:
                edge = p + d if d < 0 else p + length[i] - 1 + d
                if edge < 0 or edge >= size or occ[first + edge * stride] != 0:
                    break
                for k in range(len(key)):
                    cand[m, k] = key[k]
                cand[m, word[i]] += d << shift[i]
                moved[m, 0] = i
                moved[m, 1] = d
                m += 1
                if steps:
                    break
                d += direction
    return m


@njit(cache=True)
def packed_layer(
    table: Arr,
    keys: Arr,
    parent: Arr,
    piece: Arr,
    delta: Arr,
    counters: Arr,
    end: int,
    chunk: int,
    depth: int,
    bound: int,
    level: int,
    stop_at_goal: bool,
    steps: bool,
    size: int,
    horiz: Arr,
    line: Arr,
    length: Arr,
    low: Arr,
    word: Arr,
    shift: Arr,
    bits: Arr,
    walls: Arr,
    red: int,
    goal_offset: int,
) -> int:
    """Expand up to ``chunk`` states of the layer ``keys[head:end]`` (all at ``depth``).

    A new state whose ``depth + 1 + estimate`` exceeds ``bound`` is not kept (pruned).
    ``counters`` holds count, head, generated, pruned, the least pruned f (or ``_INFINITE``)
    and the keys in the table (more than count after a beam search narrowed a layer), and is
    updated. Returns the index of a goal state generated (when ``stop_at_goal``), else -1.
    Stops early when fewer than ``pieces * size`` rows are free in the arrays or in the table's
    half.

    Under the moves metric the piece that moved last is not moved again: every position it
    reaches is the parent or a child of the parent, generated when the parent was expanded,
    at a depth no greater (parent pruning; its children were kept or pruned there already).
    """
    n = len(horiz)
    occ = np.zeros(size * size, dtype=np.int64)
    pos = np.zeros(n, dtype=np.int64)
    words = keys.shape[1]
    most = n * size
    cand = np.zeros((most, words), dtype=np.int64)
    moved = np.zeros((most, 2), dtype=np.int64)
    sets = sweeps(n, size)
    sides = np.zeros(2 * size, dtype=np.int64)
    generated = counters[2]
    room = len(keys) - most
    table_room = len(table) // 2 - most
    count = counters[0]
    inserted = counters[5]
    head = counters[1]
    start = head
    row = line[red]
    found = -1
    while head < end and head - start < chunk and count <= room and inserted <= table_room:
        last = piece[head] if parent[head] >= 0 and not steps else -1
        _place(keys[head], pos, occ, size, horiz, line, length, low, word, shift, bits, walls)
        m = _slides(keys[head], pos, occ, last, steps, cand, moved, size, horiz, line, length,
                    word, shift)  # fmt: skip
        generated += m
        for j in range(m):
            slot = _find(table, cand[j])
            if table[slot, 0] != -1:
                continue
            i = moved[j, 0]
            d = moved[j, 1]
            p = pos[i]
            _paint(occ, i, p, 0, size, horiz, line, length)
            _paint(occ, i, p + d, i + 1, size, horiz, line, length)
            pos[i] = p + d
            red_at = pos[red]
            if level == 4:
                h = _union(
                    occ, red_at, steps, size, horiz, length, pos, red, row, goal_offset, sets,
                    sides,
                )  # fmt: skip
            else:
                h = _estimate(
                    occ, red_at, level, steps, size, horiz, length, pos, red, row, goal_offset
                )
            pos[i] = p
            _paint(occ, i, p + d, 0, size, horiz, line, length)
            _paint(occ, i, p, i + 1, size, horiz, line, length)
            f = depth + 1 + h
            if h >= _INFINITE:
                continue
            if f > bound:
                counters[3] += 1
                counters[4] = min(counters[4], f)
                continue
            for k in range(words):
                table[slot, k] = cand[j, k]
                keys[count, k] = cand[j, k]
            parent[count] = head
            piece[count] = i
            delta[count] = d
            if found < 0 and i == red and red_at == goal_offset:
                found = count
            count += 1
            inserted += 1
        head += 1
        if found >= 0 and stop_at_goal:
            break
    counters[0] = count
    counters[1] = head
    counters[2] = generated
    counters[5] = inserted
    return found


@njit(cache=True)
def packed_estimates(
    keys: Arr,
    level: int,
    steps: bool,
    size: int,
    horiz: Arr,
    line: Arr,
    length: Arr,
    low: Arr,
    word: Arr,
    shift: Arr,
    bits: Arr,
    walls: Arr,
    red: int,
    goal_offset: int,
) -> Arr:
    """The estimate at ``level`` of every key of ``keys``, as :func:`packed_layer` computes it."""
    n = len(horiz)
    occ = np.zeros(size * size, dtype=np.int64)
    pos = np.zeros(n, dtype=np.int64)
    out = np.zeros(len(keys), dtype=np.int64)
    sets = sweeps(n, size)
    sides = np.zeros(2 * size, dtype=np.int64)
    for s in range(len(keys)):
        _place(keys[s], pos, occ, size, horiz, line, length, low, word, shift, bits, walls)
        if level == 4:
            out[s] = _union(
                occ, pos[red], steps, size, horiz, length, pos, red, line[red], goal_offset, sets,
                sides,
            )  # fmt: skip
        else:
            out[s] = _estimate(
                occ, pos[red], level, steps, size, horiz, length, pos, red, line[red], goal_offset
            )
    return out
