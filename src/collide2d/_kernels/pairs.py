"""Pair kernels: brute force, sort and sweep, sorting a pair list.

Boxes arrive as four float64 arrays of closed bounds (``lo_x, lo_y, hi_x, hi_y``);
``mode`` 0 tests boxes for strict overlap, ``mode`` 1 tests the circles
``(cx, cy, r)`` whose bounds these are. Kernels that emit pairs write at most
``len(out)`` rows and return how many they found, so the caller can grow the
buffer and call again.
"""

from __future__ import annotations

import numpy as np

from collide2d._kernels.overlap import overlap_items
from collide2d._kernels.jit import kernel


@kernel
def brute_force_pairs(lo_x, lo_y, hi_x, hi_y, circles, mode, out, counters):  # type: ignore[no-untyped-def]
    """All ``n (n - 1) / 2`` tests. ``counters[0]`` += tests. Returns pairs found."""
    n = lo_x.shape[0]
    found = 0
    cap = out.shape[0]
    for i in range(n):
        for j in range(i + 1, n):
            if overlap_items(lo_x, lo_y, hi_x, hi_y, circles, mode, i, j):
                if found < cap:
                    out[found, 0] = i
                    out[found, 1] = j
                found += 1
    counters[0] += n * (n - 1) // 2
    return found


@kernel
def sort_and_sweep_pairs(order, lo_x, lo_y, hi_x, hi_y, circles, mode, out, counters):  # type: ignore[no-untyped-def]
    """Sweep along x over ``order`` (indices sorted by ``lo_x``). Returns pairs found.

    Item ``j`` after ``i`` in the order can overlap ``i`` only while
    ``lo_x[j] < hi_x[i]`` (Baraff's sort and sweep, Ericson 7.5.2).
    """
    n = order.shape[0]
    found = 0
    cap = out.shape[0]
    tests = 0
    for ii in range(n):
        i = order[ii]
        right = hi_x[i]
        for jj in range(ii + 1, n):
            j = order[jj]
            if lo_x[j] >= right:
                break
            tests += 1
            if overlap_items(lo_x, lo_y, hi_x, hi_y, circles, mode, i, j):
                if found < cap:
                    out[found, 0] = min(i, j)
                    out[found, 1] = max(i, j)
                found += 1
    counters[0] += tests
    return found


@kernel
def sort_pairs(pairs, n):  # type: ignore[no-untyped-def]
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
        if hi - lo > 1:
            result[lo:hi, 1] = np.sort(result[lo:hi, 1])
    return result
