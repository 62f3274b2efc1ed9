"""Sorted strips: the broadphase structure behind the batch API, as flat arrays.

Items (closed bounding boxes ``lo_x, lo_y, hi_x, hi_y``) are split into levels by
size, as in a hierarchical grid (Ericson, Real-Time Collision Detection, 7.2.6):
an item goes to the first level whose height ``H`` is at least its larger extent.
Within a level, items are grouped into horizontal strips by their top edge
(``strip = floor((lo_y - oy) / H)``) and each strip is sorted by left edge: sort and
sweep (Ericson 7.5.2) restricted to a strip and the one below it, since two items
of a level whose tops are two strips apart cannot overlap in y.

Layout, concatenated over levels: ``level_h``, ``level_w`` (widest item),
``level_strip_off`` (where a level's strips start in ``strip_ids``); ``strip_ids``
(sorted within a level) and ``strip_starts`` (where each strip's entries start);
entries ``e_item`` and ``e_box`` (rows ``lo_x, lo_y, hi_x, hi_y``) in strip-then-x order.
"""

from __future__ import annotations

import math

import numpy as np

from collide2d._kernels.jit import borrowing_kernel, helper_kernel, kernel
from collide2d._kernels.pairs.overlap import overlap_items
from collide2d._kernels.sorting import (
    argsort_range,
    search_left,
    search_right_column,
    sort_range,
)
from collide2d.tolerances import MAX_STRIP


@helper_kernel
def strip_of(y, oy, height):
    """The strip holding ``y``, clamped to ``[0, MAX_STRIP]``."""
    f = (y - oy) / height
    if f < 0.0:
        f = 0.0
    elif f > MAX_STRIP:
        f = MAX_STRIP
    return np.int64(math.floor(f))  # clamped first: floor of a float below 2**52


@kernel
def group_entries(level, heights, box, oy):
    """Group the items by level, then strip (not yet sorted by left edge).

    Returns ``(e_item, e_box, level_w, level_strip_off, strip_ids, strip_starts)``;
    ``e_box`` holds each entry's ``lo_x, lo_y, hi_x, hi_y`` in one row, so that the
    sweeps read memory in sequence. A counting sort by (level, strip) when the strip
    numbers are dense, a merge sort otherwise. Each strip is then sorted by left
    edge (:func:`sort_strips`): many small sorts, each within the cache, cost less
    than one large one.
    """
    n = box.shape[0]
    levels = heights.shape[0]
    strip = np.empty(n, dtype=np.int64)
    top = np.zeros(levels, dtype=np.int64)
    for i in range(n):
        lv = level[i]
        st = strip_of(box[i, 1], oy, heights[lv])
        strip[i] = st
        if st > top[lv]:
            top[lv] = st
    key_off = np.zeros(levels + 1, dtype=np.int64)
    for lv in range(levels):
        key_off[lv + 1] = key_off[lv] + top[lv] + 1
    keys = np.empty(n, dtype=np.int64)
    for i in range(n):
        keys[i] = key_off[level[i]] + strip[i]
    total = key_off[levels]
    if total <= 4 * n + 1024:
        counts = np.zeros(total + 1, dtype=np.int64)
        for i in range(n):
            counts[keys[i] + 1] += 1
        for k in range(total):
            counts[k + 1] += counts[k]
        order = np.empty(n, dtype=np.intp)
        for i in range(n):
            k = keys[i]
            order[counts[k]] = i
            counts[k] += 1
    else:
        order = argsort_range(keys, 0, n)
    e_item = np.empty(n, dtype=np.intp)
    e_box = np.empty((n, 4), dtype=np.float64)
    sorted_keys = np.empty(n, dtype=np.int64)
    for k in range(n):
        i = order[k]
        sorted_keys[k] = keys[i]
        e_box[k, 0] = box[i, 0]
        e_box[k, 1] = box[i, 1]
        e_box[k, 2] = box[i, 2]
        e_box[k, 3] = box[i, 3]
    groups = 0
    for k in range(n):
        if k == 0 or sorted_keys[k] != sorted_keys[k - 1]:
            groups += 1
    strip_ids = np.empty(groups, dtype=np.int64)
    strip_starts = np.empty(groups + 1, dtype=np.int64)
    level_strip_off = np.zeros(levels + 1, dtype=np.int64)
    level_w = np.zeros(levels, dtype=np.float64)
    g = 0
    lv = 0
    for k in range(n):
        e_item[k] = order[k]
        key = sorted_keys[k]
        if k == 0 or key != sorted_keys[k - 1]:
            while key >= key_off[lv + 1]:
                lv += 1
                level_strip_off[lv] = g
            strip_ids[g] = key - key_off[lv]
            strip_starts[g] = k
            g += 1
        w = e_box[k, 2] - e_box[k, 0]
        if w > level_w[lv]:
            level_w[lv] = w
    while lv < levels:
        lv += 1
        level_strip_off[lv] = g
    strip_starts[g] = n
    return e_item, e_box, level_w, level_strip_off, strip_ids, strip_starts


@kernel
def permute_entries(e_item, e_box, perm):
    """Reorder the entries in place so that entry ``k`` becomes old entry ``perm[k]``."""
    n = perm.shape[0]
    items = e_item.copy()
    rows = e_box.copy()
    for k in range(n):  # the gather of group_entries, by another permutation (a hot copy)
        src = perm[k]
        e_item[k] = items[src]
        e_box[k, 0] = rows[src, 0]
        e_box[k, 1] = rows[src, 1]
        e_box[k, 2] = rows[src, 2]
        e_box[k, 3] = rows[src, 3]


@kernel
def sort_strips(e_item, e_box, strip_starts):
    """Sort each strip's entries by left edge, in place (for many small strips)."""
    rows = np.empty((e_box.shape[0], 4), dtype=np.float64)
    items = np.empty(e_item.shape[0], dtype=np.intp)
    lefts = np.empty(e_box.shape[0], dtype=np.float64)
    for g in range(strip_starts.shape[0] - 1):
        a = strip_starts[g]
        b = strip_starts[g + 1]
        if b - a < 2:
            continue
        for t in range(b - a):
            lefts[t] = e_box[a + t, 0]
        by_x = argsort_range(lefts, 0, b - a)
        for t in range(b - a):
            src = a + by_x[t]
            items[t] = e_item[src]
            rows[t, :] = e_box[src, :]
        e_item[a:b] = items[: b - a]
        e_box[a:b, :] = rows[: b - a, :]


@borrowing_kernel
def _emit(out, found, i, j):
    if found < out.shape[0]:
        if i < j:
            out[found, 0] = i
            out[found, 1] = j
        else:
            out[found, 0] = j
            out[found, 1] = i
    return found + 1


@kernel
def level_candidates(
    qlx, qly, qhx, qhy, level, level_h, level_w, level_strip_off, strip_ids, strip_starts,
    e_box, oy, buf, at, counters,
):  # fmt: skip
    """Append to ``buf[at:]`` the entry positions of ``level`` whose boxes may touch the
    closed query box: those in the strips it reaches whose left edge lies in
    ``(qlx - 2 widest, qhx]`` (twice the widest item: safe against rounding).
    Returns the new end; ``counters[1]`` += strips visited."""
    height = level_h[level]
    widest = level_w[level]
    s0 = level_strip_off[level]
    s1 = level_strip_off[level + 1]
    first = strip_of(qly - 2.0 * height, oy, height)  # twice: safe against rounding
    last = strip_of(qhy, oy, height)
    u = search_left(strip_ids, s0, s1, first)
    while u < s1 and strip_ids[u] <= last:
        counters[1] += 1
        a = strip_starts[u]
        b = strip_starts[u + 1]
        p = search_right_column(e_box, a, b, qlx - 2.0 * widest)
        while p < b and e_box[p, 0] <= qhx:
            buf[at] = p
            at += 1
            p += 1
        u += 1
    return at


@kernel
def strip_pairs(
    level_h, level_w, level_strip_off, strip_ids, strip_starts, e_item, e_box, oy,
    circles, mode, out, counters, part, parts,
):  # fmt: skip
    """Every overlapping pair of items as ``(i, j)``, ``i < j``, unsorted.

    ``circles`` are the items' circles in entry order when ``mode`` is 1. Only every
    ``parts``-th strip (and coarse item) from ``part`` on is searched, so that
    threads can share the work. Returns the number of pairs (rows beyond
    ``len(out)`` are counted, not written); ``counters`` += (exact tests, strips
    visited).
    """
    levels = level_h.shape[0]
    found = 0
    tests = 0
    for level in range(levels):
        height = level_h[level]
        margin = 2.0 * level_w[level]  # twice the widest: safe against rounding
        s0 = level_strip_off[level]
        s1 = level_strip_off[level + 1]
        for u in range(s0 + part, s1, parts):
            counters[1] += 1
            sid = strip_ids[u]
            a = strip_starts[u]
            b = strip_starts[u + 1]
            below = u + 1 < s1 and strip_ids[u + 1] == sid + 1
            d = strip_starts[u + 2] if below else b
            window = b
            for p in range(a, b):
                right = e_box[p, 2]
                # The same strip: sort and sweep along x.
                q = p + 1
                while q < b:
                    if e_box[q, 0] >= right:
                        break
                    tests += 1
                    if overlap_items(e_box, circles, mode, p, q):
                        found = _emit(out, found, e_item[p], e_item[q])
                    q += 1
                # Strips below, down to the one holding p's bottom edge (strip_of is
                # monotone, so an item starting in a later strip starts below p).
                bottom = strip_of(e_box[p, 3], oy, height)
                if bottom == sid:
                    continue
                reach = e_box[p, 0] - margin
                while window < d and e_box[window, 0] <= reach:
                    window += 1
                q = window
                while q < d:
                    if e_box[q, 0] >= right:
                        break
                    tests += 1
                    if overlap_items(e_box, circles, mode, p, q):
                        found = _emit(out, found, e_item[p], e_item[q])
                    q += 1
                for t in range(sid + 2, bottom + 1):  # only where rounding stretched p
                    v = search_left(strip_ids, s0, s1, t)
                    if v == s1 or strip_ids[v] != t:
                        continue
                    e = strip_starts[v]
                    f = strip_starts[v + 1]
                    q = search_right_column(e_box, e, f, reach)
                    while q < f and e_box[q, 0] < right:
                        tests += 1
                        if overlap_items(e_box, circles, mode, p, q):
                            found = _emit(out, found, e_item[p], e_item[q])
                        q += 1
    # Across levels: each item of a coarser level searches the finer ones.
    buf = np.empty(e_item.shape[0], dtype=np.intp)
    for coarse in range(1, levels):
        first = strip_starts[level_strip_off[coarse]]
        last = strip_starts[level_strip_off[coarse + 1]]
        for p in range(first + part, last, parts):
            for fine in range(coarse):
                end = level_candidates(
                    e_box[p, 0], e_box[p, 1], e_box[p, 2], e_box[p, 3], fine, level_h,
                    level_w, level_strip_off, strip_ids, strip_starts, e_box, oy, buf, 0,
                    counters,
                )  # fmt: skip
                for t in range(end):
                    q = buf[t]
                    tests += 1
                    if overlap_items(e_box, circles, mode, p, q):
                        found = _emit(out, found, e_item[p], e_item[q])
    counters[0] += tests
    return found


@kernel
def strip_query_pairs(
    query, level_h, level_w, level_strip_off, strip_ids, strip_starts, e_item, e_box, oy,
    out, counters,
):  # fmt: skip
    """Rows ``(q, i)`` where query box ``q`` (rows of ``query``: closed bounds) overlaps
    item ``i`` strictly, sorted by ``q`` then ``i``. Returns the number of rows
    (counted beyond ``len(out)``)."""
    levels = level_h.shape[0]
    n = e_item.shape[0]
    buf = np.empty(n, dtype=np.intp)
    hits = np.empty(n, dtype=np.intp)
    found = 0
    tests = 0
    cap = out.shape[0]
    for q in range(query.shape[0]):
        qlx = query[q, 0]
        qly = query[q, 1]
        qhx = query[q, 2]
        qhy = query[q, 3]
        end = 0
        for level in range(levels):
            end = level_candidates(
                qlx, qly, qhx, qhy, level, level_h, level_w, level_strip_off, strip_ids,
                strip_starts, e_box, oy, buf, end, counters,
            )  # fmt: skip
        tests += end
        h = 0
        for t in range(end):
            p = buf[t]
            if qlx < e_box[p, 2] and e_box[p, 0] < qhx and qly < e_box[p, 3] and e_box[p, 1] < qhy:
                hits[h] = e_item[p]
                h += 1
        if h > 1:
            sort_range(hits, 0, h)
        for t in range(h):
            if found < cap:
                out[found, 0] = q
                out[found, 1] = hits[t]
            found += 1
    counters[0] += tests
    return found


@kernel
def brute_force_query_pairs(query, box, out, counters):
    """Rows ``(q, i)`` by testing every query against every box, in order."""
    found = 0
    cap = out.shape[0]
    n = box.shape[0]
    for q in range(query.shape[0]):
        for i in range(n):
            if (
                query[q, 0] < box[i, 2]
                and box[i, 0] < query[q, 2]
                and query[q, 1] < box[i, 3]
                and box[i, 1] < query[q, 3]
            ):
                if found < cap:
                    out[found, 0] = q
                    out[found, 1] = i
                found += 1
    counters[0] += query.shape[0] * n
    return found
