"""numba kernels of the sliding-tile solver: pattern ranking, the PDB's breadth-first search, and
the inner loop of the specialised IDA*. Imported only by :mod:`.pdb` and the compiled IDA*'s
search state (:mod:`.tile_idastar.walk`) inside the functions that need them (numba is a heavy
import); compiled once and cached on disk.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from cspsolve.compiling import announce_compiling

announce_compiling()

UNSEEN = 255
"""Byte marking a pattern placement the breadth-first search has not reached yet."""


@njit(cache=True, inline="always")
def rank(positions: np.ndarray, k: int, cells: int) -> int:
    """Lexicographic rank of the placement ``positions[:k]`` (distinct cells) among the
    ``cells! / (cells - k)!`` ordered placements (mixed radix ``cells, cells-1, ...``)."""
    r = 0
    for i in range(k):
        p = positions[i]
        smaller = 0
        for j in range(i):
            if positions[j] < p:
                smaller += 1
        r = r * (cells - i) + (p - smaller)
    return r


@njit(cache=True)
def unrank(r: int, k: int, cells: int, positions: np.ndarray, used: np.ndarray) -> None:
    """Inverse of :func:`rank`: fill ``positions[:k]`` and mark them in ``used`` (cleared first)."""
    for c in range(cells):
        used[c] = False
    digits = np.empty(k, np.int64)
    for i in range(k - 1, -1, -1):
        radix = cells - i
        digits[i] = r % radix
        r //= radix
    for i in range(k):
        d = digits[i]
        for c in range(cells):
            if not used[c]:
                if d == 0:
                    positions[i] = c
                    used[c] = True
                    break
                d -= 1


@njit(cache=True, nogil=True)
def bfs_chunk(
    dist: np.ndarray,
    queue: np.ndarray,
    head: int,
    tail: int,
    k: int,
    cells: int,
    adjacent: np.ndarray,
    limit: int,
) -> tuple[int, int]:
    """Expand up to ``limit`` placements of the FIFO ``queue[head:tail]``; return (head, tail).

    A pattern tile moves to an adjacent cell not held by another pattern tile, at cost 1 (the
    other tiles and the blank are ignored: the abstraction of Korf & Felner 2002).
    """
    positions = np.empty(k, np.int64)
    used = np.zeros(cells, np.bool_)
    stop = min(tail, head + limit)
    while head < stop:
        r = queue[head]
        head += 1
        unrank(r, k, cells, positions, used)
        d = dist[r] + 1
        if d >= UNSEEN:
            d = UNSEEN - 1
        for i in range(k):
            old = positions[i]
            for m in range(4):
                c = adjacent[old, m]
                if c < 0:
                    break
                if used[c]:
                    continue
                positions[i] = c
                r2 = rank(positions, k, cells)
                positions[i] = old
                if dist[r2] == UNSEEN:
                    dist[r2] = d
                    queue[tail] = r2
                    tail += 1
        stop = min(tail, stop)
    return head, tail


@njit(cache=True, inline="always")
def _pattern_value(
    p: int,
    where: np.ndarray,
    members: np.ndarray,
    sizes: np.ndarray,
    offsets: np.ndarray,
    table: np.ndarray,
    cells: int,
    scratch: np.ndarray,
) -> int:
    k = sizes[p]
    for i in range(k):
        scratch[i] = where[members[p, i]]
    return int(table[offsets[p] + rank(scratch, k, cells)])


@njit(cache=True)
def pdb_value(
    where: np.ndarray,
    members: np.ndarray,
    sizes: np.ndarray,
    offsets: np.ndarray,
    table: np.ndarray,
    cells: int,
    parts: np.ndarray,
) -> int:
    """Sum of the pattern databases for tiles standing on ``where[tile]``; ``parts[p]`` is set
    to pattern p's value."""
    scratch = np.empty(members.shape[1], np.int64)
    total = 0
    for p in range(sizes.shape[0]):
        parts[p] = _pattern_value(p, where, members, sizes, offsets, table, cells, scratch)
        total += parts[p]
    return total


@njit(cache=True)
def ida_iteration(
    tiles: np.ndarray,
    where: np.ndarray,
    rwhere: np.ndarray,
    parts: np.ndarray,
    rparts: np.ndarray,
    totals: np.ndarray,
    stack: np.ndarray,
    depth_box: np.ndarray,
    bound: int,
    adjacent: np.ndarray,
    direction: np.ndarray,
    pruning: np.ndarray,
    members: np.ndarray,
    pattern_of: np.ndarray,
    sizes: np.ndarray,
    offsets: np.ndarray,
    table: np.ndarray,
    rcell: np.ndarray,
    rtile: np.ndarray,
    reflect: bool,
    g_weight: int,
    h_weight: int,
    budget: int,
    counters: np.ndarray,
    floor: int,
) -> int:
    """Run (or resume) one cost-bounded depth-first iteration of IDA* for ``budget`` nodes,
    over the subtree of the node at depth ``floor`` (0: the whole tree).

    A node of depth ``g`` and heuristic ``h`` is cut off when ``f = g_weight * g + h_weight *
    h`` exceeds ``bound``: ``g_weight == h_weight`` is IDA*, ``h_weight > g_weight`` weighted
    IDA* with ``w = h_weight / g_weight``.

    The search state lives in the arrays, so a paused iteration resumes where it stopped:
    ``tiles[cell]``, ``where[tile]`` and ``rwhere`` (the board reflected about the main
    diagonal), the per-pattern values ``parts``/``rparts`` and their sums ``totals[0:2]``, and
    ``stack[d] = (move index tried next, blank cell, saved part, saved reflected part, state of
    the pruning automaton)`` per depth, ``depth_box[0]`` the current depth. A move is not
    tried when ``pruning[state, direction[blank, m]]`` (:func:`.move_pruning.automaton`) is -1:
    it would end a duplicate move sequence. A subtree's root at depth ``floor > 0`` has the
    path to it in ``stack[:floor + 1, 1]`` (the move back to its parent is not tried) and is
    left when its moves are all tried. ``counters`` = (generated, expanded, next bound) are
    accumulated.

    Returns
    -------
    int
        1 goal found at depth ``depth_box[0]`` (the path is ``stack[:depth+1, 1]``, blank
        cells), 0 iteration (or subtree) finished without the goal, -1 budget spent (call
        again to resume).
    """
    cells = tiles.shape[0]
    scratch = np.empty(members.shape[1], np.int64)
    d = depth_box[0]
    spent = 0
    while True:
        blank = stack[d, 1]
        m = stack[d, 0]
        c = -1
        state = 0
        while m < 4:
            candidate = adjacent[blank, m]
            if candidate < 0:
                m = 4
                break
            state = pruning[stack[d, 4], direction[blank, m]]
            m += 1
            # never undo the previous move (a subtree's root starts the automaton afresh)
            if state >= 0 and (d == 0 or candidate != stack[d - 1, 1]):
                c = candidate
                break
        stack[d, 0] = m
        if c < 0:
            # every move of this node tried: go back up, undoing the move that led here
            if d == floor:
                depth_box[0] = floor
                return 0
            parent = stack[d - 1, 1]
            tile = tiles[parent]
            tiles[blank] = tile
            tiles[parent] = 0
            where[tile] = blank
            where[0] = parent
            p = pattern_of[tile]
            totals[0] += stack[d, 2] - parts[p]
            parts[p] = stack[d, 2]
            if reflect:
                rt = rtile[tile]
                rwhere[rt] = rcell[blank]
                rp = pattern_of[rt]
                totals[1] += stack[d, 3] - rparts[rp]
                rparts[rp] = stack[d, 3]
            d -= 1
            continue
        # move the tile on cell c into the blank
        tile = tiles[c]
        tiles[blank] = tile
        tiles[c] = 0
        where[tile] = blank
        where[0] = c
        p = pattern_of[tile]
        stack[d + 1, 2] = parts[p]
        new = _pattern_value(p, where, members, sizes, offsets, table, cells, scratch)
        totals[0] += new - parts[p]
        parts[p] = new
        h = totals[0]
        if reflect:
            rt = rtile[tile]
            rwhere[rt] = rcell[blank]
            rp = pattern_of[rt]
            stack[d + 1, 3] = rparts[rp]
            rnew = _pattern_value(rp, rwhere, members, sizes, offsets, table, cells, scratch)
            totals[1] += rnew - rparts[rp]
            rparts[rp] = rnew
            h = max(h, totals[1])
        counters[0] += 1
        spent += 1
        f = g_weight * (d + 1) + h_weight * h
        d += 1
        stack[d, 0] = 0
        stack[d, 1] = c
        stack[d, 4] = state
        if f > bound:
            if f < counters[2]:
                counters[2] = f
            stack[d, 0] = 4  # do not expand: the next pass undoes this move
        elif h == 0:
            depth_box[0] = d
            return 1
        else:
            counters[1] += 1
        if spent >= budget:
            depth_box[0] = d
            return -1


@njit(cache=True, inline="always")
def region(start: int, free: np.uint64, cols: int, left: np.uint64, right: np.uint64) -> np.uint64:
    """Bitmask of the cells reachable from ``start`` through the cells of ``free`` (flood fill).

    ``left``/``right``: masks of the cells that are not in the first/last column.
    """
    reached = np.uint64(1) << np.uint64(start)
    shift = np.uint64(cols)
    one = np.uint64(1)
    while True:
        grown = reached | (reached << shift) | (reached >> shift)
        grown |= ((reached & right) << one) | ((reached & left) >> one)
        grown &= free | reached
        if grown == reached:
            return reached
        reached = grown


@njit(cache=True, inline="always")
def _lowest(mask: np.uint64) -> int:
    c = 0
    while not (mask >> np.uint64(c)) & np.uint64(1):
        c += 1
    return c


LABELLED_UP_TO = 16
"""Boards of at most this many cells get a table of regions (:func:`region_labels`): 2^cells
free-cell sets x cells bytes, 1 MB for the 15-puzzle."""

OUTSIDE = 255
"""Label of a cell outside the free set in :func:`region_labels`."""


@njit(cache=True)
def region_labels(rows: int, cols: int) -> np.ndarray:
    """``labels[free, cell]``: the lowest cell of the region of ``free`` (a bit set of cells)
    holding ``cell``, :data:`OUTSIDE` when ``cell`` is not free; a table lookup instead of a
    flood fill (:func:`region`) per move in :func:`bfs_blank_chunk`."""
    cells = rows * cols
    full = (np.uint64(1) << np.uint64(cells)) - np.uint64(1)
    left, right = _side_masks(rows, cols, full)
    labels = np.full((1 << cells, cells), OUTSIDE, np.uint8)
    for free in range(1 << cells):
        for c in range(cells):
            if (free >> c) & 1 and labels[free, c] == OUTSIDE:
                reached = region(c, np.uint64(free), cols, left, right)
                for e in range(c, cells):
                    if (reached >> np.uint64(e)) & np.uint64(1):
                        labels[free, e] = c
    return labels


@njit(cache=True, inline="always")
def _side_masks(rows: int, cols: int, full: np.uint64) -> tuple[np.uint64, np.uint64]:
    """Masks of the cells not in the first column and not in the last column."""
    first_col = np.uint64(0)
    last_col = np.uint64(0)
    for r in range(rows):
        first_col |= np.uint64(1) << np.uint64(r * cols)
        last_col |= np.uint64(1) << np.uint64(r * cols + cols - 1)
    return full & ~first_col, full & ~last_col


@njit(cache=True, inline="always")
def cell_bits(cells: int) -> int:
    """Bits that hold a cell index below ``cells``."""
    bits = 1
    while (1 << bits) < cells:
        bits += 1
    return bits


@njit(cache=True, nogil=True)
def bfs_blank_chunk(
    dist: np.ndarray,
    seen: np.ndarray,
    queue: np.ndarray,
    head: int,
    tail: int,
    k: int,
    rows: int,
    cols: int,
    adjacent: np.ndarray,
    labels: np.ndarray,
    limit: int,
) -> tuple[int, int]:
    """Expand up to ``limit`` entries of the ring buffer ``queue[head % len : tail % len]``.

    An entry is ``(((placement << bits) | blank region's lowest cell) << 8) | distance``, with
    ``bits`` per cell (:func:`cell_bits`) and the placement packed as ``positions[i] << (bits
    * i)`` (read without unranking): the pattern tiles' cells and the region of non-pattern
    cells the blank can roam for free. A pattern
    tile moves (cost 1) onto an adjacent cell of the blank's region; the blank then stands where
    the tile was. ``seen[rank]`` has a bit per region already queued; ``dist[rank]`` is the
    least distance over the regions (set when the placement is first reached). Regions come
    from ``labels`` (:func:`region_labels`) when it has rows, else by flood fill. Returns
    (head, tail); ``tail - head`` beyond the buffer's length means it overflowed.
    """
    cells = rows * cols
    capacity = queue.shape[0]
    full = (np.uint64(1) << np.uint64(cells)) - np.uint64(1) if cells < 64 else ~np.uint64(0)
    left, right = _side_masks(rows, cols, full)
    labelled = labels.shape[0] > 0
    bits = cell_bits(cells)
    digit = (1 << bits) - 1
    positions = np.empty(k, np.int64)
    stop = min(tail, head + limit)
    while head < stop:
        entry = queue[head % capacity]
        head += 1
        d = (entry & 255) + 1
        if d >= UNSEEN:
            d = UNSEEN - 1
        here = (entry >> 8) & digit
        packed = entry >> (8 + bits)
        occupied = np.uint64(0)
        for i in range(k):
            positions[i] = (packed >> (bits * i)) & digit
            occupied |= np.uint64(1) << np.uint64(positions[i])
        free = full & ~occupied
        roam = np.uint64(0) if labelled else region(here, free, cols, left, right)
        for i in range(k):
            old = positions[i]
            for m in range(4):
                c = adjacent[old, m]
                if c < 0:
                    break
                if labelled:
                    if labels[free, c] != here:
                        continue
                elif not (roam >> np.uint64(c)) & np.uint64(1):
                    continue
                positions[i] = c
                r2 = rank(positions, k, cells)
                positions[i] = old
                free2 = (free | (np.uint64(1) << np.uint64(old))) & ~(np.uint64(1) << np.uint64(c))
                if labelled:
                    rep = int(labels[free2, old])
                else:
                    rep = _lowest(region(old, free2, cols, left, right))
                bit = np.uint64(1) << np.uint64(rep)
                if seen[r2] & bit:
                    continue
                seen[r2] |= bit
                if dist[r2] == UNSEEN:
                    dist[r2] = d
                if tail - head < capacity:
                    packed2 = packed + ((c - old) << (bits * i))
                    queue[tail % capacity] = (((packed2 << bits) | rep) << 8) | d
                tail += 1
        stop = min(tail, stop)
    return head, tail
