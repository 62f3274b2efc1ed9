"""Pair kernels: brute force, sort and sweep, sorting a pair list.

Boxes arrive as one ``(N, 4)`` float64 array of closed bounds (rows
``lo_x, lo_y, hi_x, hi_y``);
``mode`` 0 tests boxes for strict overlap, ``mode`` 1 tests the circles
``(cx, cy, r)`` whose bounds these are. Kernels that emit pairs write at most
``len(out)`` rows and return how many they found, so the caller can grow the
buffer and call again.
"""

from __future__ import annotations

import numpy as np

from collide2d._kernels.jit import kernel
from collide2d._kernels.overlap import overlap_items
from collide2d._kernels.sorting import sort_range


@kernel
def brute_force_pairs(box, circles, mode, out, counters):
    """All ``n (n - 1) / 2`` tests. ``counters[0]`` += tests. Returns pairs found."""
    n = box.shape[0]
    found = 0
    cap = out.shape[0]
    for i in range(n):
        for j in range(i + 1, n):
            if overlap_items(box, circles, mode, i, j):
                if found < cap:
                    out[found, 0] = i
                    out[found, 1] = j
                found += 1
    counters[0] += n * (n - 1) // 2
    return found


@kernel
def sort_and_sweep_pairs(order, box, circles, mode, out, counters):
    """Sweep along x over ``order`` (indices sorted by ``lo_x``). Returns pairs found.

    Item ``j`` after ``i`` in the order can overlap ``i`` only while
    ``box[j, 0] < box[i, 2]`` (Baraff's sort and sweep, Ericson 7.5.2).
    """
    n = order.shape[0]
    found = 0
    cap = out.shape[0]
    tests = 0
    for ii in range(n):
        i = order[ii]
        right = box[i, 2]
        for jj in range(ii + 1, n):
            j = order[jj]
            if box[j, 0] >= right:
                break
            tests += 1
            if overlap_items(box, circles, mode, i, j):
                if found < cap:
                    out[found, 0] = min(i, j)
                    out[found, 1] = max(i, j)
                found += 1
    counters[0] += tests
    return found


@kernel
def sort_pairs(pairs, n):
    """Return ``pairs`` (K, 2) sorted lexicographically: a counting sort on the first
    column, then each run of equal first entries sorted by the second."""
    k = pairs.shape[0]
    counts = np.zeros(n + 1, dtype=np.intp)
    for r in range(k):
        counts[pairs[r, 0] + 1] += 1
    for i in range(n):
        counts[i + 1] += counts[i]
    result = np.empty((k, 2), dtype=np.intp)
    cursor = counts[:n].copy()
    for r in range(k):
        a = pairs[r, 0]
        slot = cursor[a]
        result[slot, 0] = a
        result[slot, 1] = pairs[r, 1]
        cursor[a] = slot + 1
    for i in range(n):
        lo = counts[i]
        hi = counts[i + 1]
        if hi - lo > 32:
            column = np.empty(hi - lo, dtype=np.intp)
            for t in range(hi - lo):
                column[t] = result[lo + t, 1]
            sort_range(column, 0, hi - lo)
            for t in range(hi - lo):
                result[lo + t, 1] = column[t]
        else:  # insertion sort: most items have a few partners
            for p in range(lo + 1, hi):
                value = result[p, 1]
                q = p - 1
                while q >= lo and result[q, 1] > value:
                    result[q + 1, 1] = result[q, 1]
                    q -= 1
                result[q + 1, 1] = value
    return result


@kernel
def match_sorted(old, new):
    """For each value of the increasing array ``new``, its index in the increasing
    array ``old``, or -1 where ``old`` does not hold it (one merge, O(len(old) +
    len(new)))."""
    at = np.full(new.shape[0], -1, dtype=np.int64)
    i = 0
    for k in range(new.shape[0]):
        value = new[k]
        while i < old.shape[0] and old[i] < value:
            i += 1
        if i < old.shape[0] and old[i] == value:
            at[k] = i
    return at
