"""A hierarchical grid as flat arrays, and the kernels that build and search it.

Items (bounding boxes ``lo_x, lo_y, hi_x, hi_y``) are split into levels by size: an
item goes to the first level whose square cell is at least its larger extent
(cells grow by ``LEVEL_RATIO`` per level; Ericson, Real-Time Collision Detection,
7.2.6 "Hierarchical grids"). At its own level an item touches at most 2 x 2 cells.
Each level lists its occupied cells sorted by id ``cx * ny + cy`` (``uniq``), where
each cell's items start (``starts``) and the items themselves (``items``); all
levels are concatenated, with per-level offsets.

A pair is reported only from the cell that holds the top-left corner of the two
boxes' intersection (``max`` of their left and top edges), so no pair is found
twice and no hash set is needed.
"""

from __future__ import annotations

import math

import numpy as np

from collide2d._kernels.jit import kernel
from collide2d._kernels.overlap import overlap_items

LEVEL_RATIO = 8.0


@kernel
def cell_of(v, origin, cell, n):  # type: ignore[no-untyped-def]
    """The cell coordinate of ``v``, clamped to ``[0, n - 1]`` (clamped in floats first,
    so that coordinates far outside never overflow the integer)."""
    f = math.floor((v - origin) / cell)
    if f < 0.0:
        return 0
    if f > n - 1:
        return n - 1
    return np.int64(f)


@kernel
def build_level(members, lo_x, lo_y, hi_x, hi_y, ox, oy, cell, nx, ny):  # type: ignore[no-untyped-def]
    """File ``members`` in the cells they touch. Returns ``(uniq, starts, items)``."""
    m = members.shape[0]
    total = 0
    for k in range(m):
        i = members[k]
        cx0 = cell_of(lo_x[i], ox, cell, nx)
        cx1 = cell_of(hi_x[i], ox, cell, nx)
        cy0 = cell_of(lo_y[i], oy, cell, ny)
        cy1 = cell_of(hi_y[i], oy, cell, ny)
        total += (cx1 - cx0 + 1) * (cy1 - cy0 + 1)
    ids = np.empty(total, dtype=np.int64)
    who = np.empty(total, dtype=np.intp)
    e = 0
    for k in range(m):
        i = members[k]
        cx0 = cell_of(lo_x[i], ox, cell, nx)
        cx1 = cell_of(hi_x[i], ox, cell, nx)
        cy0 = cell_of(lo_y[i], oy, cell, ny)
        cy1 = cell_of(hi_y[i], oy, cell, ny)
        for cx in range(cx0, cx1 + 1):
            for cy in range(cy0, cy1 + 1):
                ids[e] = cx * ny + cy
                who[e] = i
                e += 1
    ncells = nx * ny
    if ncells <= 4 * total + 1024:
        # Counting sort over the dense grid: linear time.
        counts = np.zeros(ncells + 1, dtype=np.int64)
        for e in range(total):
            counts[ids[e] + 1] += 1
        occupied = 0
        for c in range(ncells):
            if counts[c + 1] > 0:
                occupied += 1
            counts[c + 1] += counts[c]
        items = np.empty(total, dtype=np.intp)
        cursor = counts[:ncells].copy()
        for e in range(total):
            c = ids[e]
            items[cursor[c]] = who[e]
            cursor[c] += 1
        uniq = np.empty(occupied, dtype=np.int64)
        starts = np.empty(occupied + 1, dtype=np.int64)
        u = 0
        for c in range(ncells):
            if counts[c + 1] > counts[c]:
                uniq[u] = c
                starts[u] = counts[c]
                u += 1
        starts[occupied] = total
        return uniq, starts, items
    # Sparse grid: sort the entries by cell id.
    order = np.argsort(ids, kind="mergesort")
    items = who[order]
    sorted_ids = ids[order]
    occupied = 0
    for e in range(total):
        if e == 0 or sorted_ids[e] != sorted_ids[e - 1]:
            occupied += 1
    uniq = np.empty(occupied, dtype=np.int64)
    starts = np.empty(occupied + 1, dtype=np.int64)
    u = 0
    for e in range(total):
        if e == 0 or sorted_ids[e] != sorted_ids[e - 1]:
            uniq[u] = sorted_ids[e]
            starts[u] = e
            u += 1
    starts[occupied] = total
    return uniq, starts, items


@kernel
def level_candidates(  # type: ignore[no-untyped-def]
    qlx, qly, qhx, qhy, level, g_cell, g_nx, g_ny, g_uniq_off, g_member_off,
    uniq, starts, items, members, ox, oy, lo_x, lo_y, hi_x, hi_y, buf, at, visits,
):  # fmt: skip
    """Append to ``buf[at:]`` each item of ``level`` whose box may touch the query box,
    once. Returns the new end. ``visits[0]`` += cells (or items) looked at."""
    cell = g_cell[level]
    nx = g_nx[level]
    ny = g_ny[level]
    u0 = g_uniq_off[level]
    u1 = g_uniq_off[level + 1]
    cx0 = cell_of(qlx, ox, cell, nx)
    cx1 = cell_of(qhx, ox, cell, nx)
    cy0 = cell_of(qly, oy, cell, ny)
    cy1 = cell_of(qhy, oy, cell, ny)
    if (cx1 - cx0 + 1) * (cy1 - cy0 + 1) > u1 - u0:
        # The query covers more cells than are occupied: scan the level's items.
        for k in range(g_member_off[level], g_member_off[level + 1]):
            j = members[k]
            if lo_x[j] <= qhx and qlx <= hi_x[j] and lo_y[j] <= qhy and qly <= hi_y[j]:
                buf[at] = j
                at += 1
        visits[0] += g_member_off[level + 1] - g_member_off[level]
        return at
    for cx in range(cx0, cx1 + 1):
        first = cx * ny + cy0
        last = cx * ny + cy1
        u = u0 + np.searchsorted(uniq[u0:u1], first)
        while u < u1 and uniq[u] <= last:
            cy = uniq[u] - cx * ny
            visits[0] += 1
            for p in range(starts[u], starts[u + 1]):
                j = items[p]
                # Report j only from the cell holding the corner of the intersection.
                px = max(qlx, lo_x[j])
                py = max(qly, lo_y[j])
                if cell_of(px, ox, cell, nx) == cx and cell_of(py, oy, cell, ny) == cy:
                    buf[at] = j
                    at += 1
            u += 1
    return at


@kernel
def grid_pairs(  # type: ignore[no-untyped-def]
    g_cell, g_nx, g_ny, g_uniq_off, g_member_off, uniq, starts, items, members, ox, oy,
    lo_x, lo_y, hi_x, hi_y, circles, mode, out, counters,
):  # fmt: skip
    """Every overlapping pair of items, as ``(i, j)`` with ``i < j``, unsorted.

    Pairs within a level come from its cells; pairs across levels from each item
    of the coarser level searching the finer one. ``counters`` += (exact tests,
    cells visited). Returns the number of pairs (rows beyond ``len(out)`` are
    counted, not written).
    """
    levels = g_cell.shape[0]
    cap = out.shape[0]
    found = 0
    tests = 0
    visits = np.zeros(1, dtype=np.int64)
    for level in range(levels):
        cell = g_cell[level]
        nx = g_nx[level]
        ny = g_ny[level]
        for u in range(g_uniq_off[level], g_uniq_off[level + 1]):
            cx = uniq[u] // ny
            cy = uniq[u] - cx * ny
            s = starts[u]
            e = starts[u + 1]
            visits[0] += 1
            for p in range(s, e):
                i = items[p]
                for q in range(p + 1, e):
                    j = items[q]
                    px = max(lo_x[i], lo_x[j])
                    py = max(lo_y[i], lo_y[j])
                    if cell_of(px, ox, cell, nx) != cx or cell_of(py, oy, cell, ny) != cy:
                        continue
                    tests += 1
                    if overlap_items(lo_x, lo_y, hi_x, hi_y, circles, mode, i, j):
                        if found < cap:
                            out[found, 0] = min(i, j)
                            out[found, 1] = max(i, j)
                        found += 1
    most = 0
    for level in range(levels):
        most = max(most, g_member_off[level + 1] - g_member_off[level])
    buf = np.empty(most, dtype=np.intp)
    for coarse in range(1, levels):
        for k in range(g_member_off[coarse], g_member_off[coarse + 1]):
            i = members[k]
            for fine in range(coarse):
                end = level_candidates(
                    lo_x[i], lo_y[i], hi_x[i], hi_y[i], fine, g_cell, g_nx, g_ny,
                    g_uniq_off, g_member_off, uniq, starts, items, members, ox, oy,
                    lo_x, lo_y, hi_x, hi_y, buf, 0, visits,
                )  # fmt: skip
                for t in range(end):
                    j = buf[t]
                    tests += 1
                    if overlap_items(lo_x, lo_y, hi_x, hi_y, circles, mode, i, j):
                        if found < cap:
                            out[found, 0] = min(i, j)
                            out[found, 1] = max(i, j)
                        found += 1
    counters[0] += tests
    counters[1] += visits[0]
    return found


@kernel
def grid_query_pairs(  # type: ignore[no-untyped-def]
    q_lo_x, q_lo_y, q_hi_x, q_hi_y,
    g_cell, g_nx, g_ny, g_uniq_off, g_member_off, uniq, starts, items, members, ox, oy,
    lo_x, lo_y, hi_x, hi_y, out, counters,
):  # fmt: skip
    """Rows ``(q, i)``: query box ``q`` overlaps item ``i`` strictly; sorted by ``q``
    then ``i``. Returns the number of rows (counted beyond ``len(out)``)."""
    levels = g_cell.shape[0]
    cap = out.shape[0]
    n = lo_x.shape[0]
    buf = np.empty(n, dtype=np.intp)
    hits = np.empty(n, dtype=np.intp)
    visits = np.zeros(1, dtype=np.int64)
    found = 0
    tests = 0
    for q in range(q_lo_x.shape[0]):
        qlx = q_lo_x[q]
        qly = q_lo_y[q]
        qhx = q_hi_x[q]
        qhy = q_hi_y[q]
        end = 0
        for level in range(levels):
            end = level_candidates(
                qlx, qly, qhx, qhy, level, g_cell, g_nx, g_ny, g_uniq_off, g_member_off,
                uniq, starts, items, members, ox, oy, lo_x, lo_y, hi_x, hi_y, buf, end, visits,
            )  # fmt: skip
        tests += end
        h = 0
        for t in range(end):
            j = buf[t]
            if qlx < hi_x[j] and lo_x[j] < qhx and qly < hi_y[j] and lo_y[j] < qhy:
                hits[h] = j
                h += 1
        if h > 1:
            hits[:h] = np.sort(hits[:h])
        for t in range(h):
            if found < cap:
                out[found, 0] = q
                out[found, 1] = hits[t]
            found += 1
    counters[0] += tests
    counters[1] += visits[0]
    return found

