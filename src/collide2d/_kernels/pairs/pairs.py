"""Pair kernels: brute force, sort and sweep, matching sorted lists.

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
from collide2d._kernels.pairs.overlap import overlap_items


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
