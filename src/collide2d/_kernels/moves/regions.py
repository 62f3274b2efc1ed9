"""The pairs a ``World.move_all`` may bring together: a hashed grid of the movers'
regions (each the box its move never leaves), compiled."""

from __future__ import annotations

import numpy as np

from collide2d._kernels.jit import borrowing_kernel, helper_kernel, kernel

CELL_LIMIT = 2.0**40  # cell numbers beyond this are not hashed (the item is tested apart)


@kernel
def region_pairs(regions, movers, cell, out):
    """Rows ``(m, i)``: item ``i``'s region overlaps mover ``movers[m]``'s strictly (the
    pairs a ``move_all`` may bring together), ``i != movers[m]``, in no set order (the
    caller sorts them). A hashed grid of ``cell``-sized squares over the movers'
    regions alone (a frame moves a few of many items): each mover is filed in the
    cells its region touches, then every item looks up its own cells. A region over
    more than 64 cells, or beyond whole cell numbers, is kept apart: an item so is
    tested against every mover, a mover so against every item. Returns the number
    of rows (counted beyond ``len(out)``)."""
    n = regions.shape[0]
    k = movers.shape[0]
    scale = 1.0 / cell  # any rising map of coordinates to cells will do: the same for all
    spans = np.empty((k, 4), dtype=np.int64)
    apart = np.zeros(k, dtype=np.bool_)
    entries = 0
    for m in range(k):
        cells = _span(regions, movers[m], scale, spans[m])
        if cells < 0:
            apart[m] = True
        else:
            entries += cells
    # A hash table of the movers' cells (open addressing, at least twice as many slots
    # as entries), each slot heading a chain of the movers filed in its cell.
    bits = 4
    while (1 << bits) < 2 * entries:
        bits += 1
    slot_key = np.empty(1 << bits, dtype=np.int64)
    slot_head = np.full(1 << bits, -1, dtype=np.int64)
    next_entry = np.empty(entries, dtype=np.int64)
    owner = np.empty(entries, dtype=np.int64)
    e = 0
    for m in range(k):
        if apart[m]:
            continue
        for cx in range(spans[m, 0], spans[m, 2] + 1):
            for cy in range(spans[m, 1], spans[m, 3] + 1):
                h = _slot(slot_key, slot_head, _cell_key(cx, cy), bits)
                owner[e] = m
                next_entry[e] = slot_head[h]
                slot_head[h] = e
                e += 1
    seen = np.full(k, -1, dtype=np.int64)
    span = np.empty(4, dtype=np.int64)
    items_apart = np.zeros(n, dtype=np.bool_)
    rows = 0
    cap = out.shape[0]
    for i in range(n):
        if _span(regions, i, scale, span) < 0:  # tested against every mover
            items_apart[i] = True
            for m in range(k):
                rows = _pair(regions, movers, m, i, rows, out, cap)
            continue
        for cx in range(span[0], span[2] + 1):
            for cy in range(span[1], span[3] + 1):
                p = slot_head[_probe(slot_key, slot_head, _cell_key(cx, cy), bits)]
                while p >= 0:
                    m = owner[p]
                    p = next_entry[p]
                    if seen[m] != i:
                        seen[m] = i
                        rows = _pair(regions, movers, m, i, rows, out, cap)
    for m in range(k):  # movers kept apart: against every item not apart itself
        if apart[m]:
            for i in range(n):
                if not items_apart[i]:
                    rows = _pair(regions, movers, m, i, rows, out, cap)
    return rows


@borrowing_kernel
def _span(regions, i, scale, span):
    """Write region ``i``'s cell range ``x0, y0, x1, y1`` into ``span``; return its
    number of cells, or -1 when it is kept apart (over 64 cells, or beyond whole cell
    numbers, NaN included)."""
    fx0 = np.floor(regions[i, 0] * scale)
    fy0 = np.floor(regions[i, 1] * scale)
    fx1 = np.floor((regions[i, 0] + regions[i, 2]) * scale)
    fy1 = np.floor((regions[i, 1] + regions[i, 3]) * scale)
    if not (max(-fx0, fx1, -fy0, fy1) < CELL_LIMIT):  # False for NaN too
        return -1
    span[0] = np.int64(fx0)
    span[1] = np.int64(fy0)
    span[2] = np.int64(fx1)
    span[3] = np.int64(fy1)
    cells = (span[2] - span[0] + 1) * (span[3] - span[1] + 1)
    return cells if cells <= 64 else -1


@borrowing_kernel
def _pair(regions, movers, m, i, rows, out, cap):
    """Add row ``(m, i)`` if item ``i`` is not mover ``m`` and their regions overlap
    strictly; returns the new row count."""
    a = movers[m]
    if i == a:
        return rows
    ax = regions[a, 0]
    ay = regions[a, 1]
    bx = regions[i, 0]
    by = regions[i, 1]
    across = bx < ax + regions[a, 2] and ax < bx + regions[i, 2]
    if across and by < ay + regions[a, 3] and ay < by + regions[i, 3]:
        if rows < cap:
            out[rows, 0] = m
            out[rows, 1] = i
        return rows + 1
    return rows


@helper_kernel
def _hash(key, bits):
    """Fibonacci hashing of a cell key to ``bits`` bits."""
    return np.int64((np.uint64(key) * np.uint64(0x9E3779B97F4A7C15)) >> np.uint64(64 - bits))


@borrowing_kernel
def _probe(slot_key, slot_head, key, bits):
    """The slot of ``key`` in the open-addressing table, or the empty slot where it
    would go (its head is -1), by Fibonacci hashing and linear probing."""
    mask = (1 << bits) - 1
    h = _hash(key, bits)
    while slot_head[h] >= 0 and slot_key[h] != key:
        h = (h + 1) & mask
    return h


@borrowing_kernel
def _slot(slot_key, slot_head, key, bits):
    """The slot of ``key``, claimed for it if new (its head stays -1 until an entry
    is filed)."""
    h = _probe(slot_key, slot_head, key, bits)
    slot_key[h] = key
    return h


@helper_kernel
def _cell_key(cx, cy):
    """One int64 for a cell (coordinates wrap at 2**31: a collision of keys only adds
    candidates, which the exact test drops)."""
    return (cx & 0xFFFFFFFF) << 32 | (cy & 0xFFFFFFFF)
