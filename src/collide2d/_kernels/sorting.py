"""Sorting and binary search for the other kernels, in plain loops.

numba's own ``np.sort``, ``np.argsort`` and ``np.searchsorted`` compile their
quicksort, mergesort and string-argument machinery the first time they are used:
about 10 of the 20 seconds that the first ``overlapping_pairs`` call took to
compile. These few loops compile in a fraction of a second and run as fast for the
sizes the kernels sort (strips of a few items, partner lists, keys of one call).
"""

from __future__ import annotations

import numpy as np

from collide2d._kernels.jit import kernel

RUN = 16
"""Runs this short are sorted by insertion before the merges."""


@kernel
def search_left(a, lo, hi, x):
    """The first index ``i`` in ``[lo, hi)`` with ``a[i] >= x`` (``hi`` if none);
    ``a[lo:hi]`` ascending. ``np.searchsorted(a[lo:hi], x) + lo``."""
    while lo < hi:
        mid = (lo + hi) >> 1
        if a[mid] < x:
            lo = mid + 1
        else:
            hi = mid
    return lo


@kernel
def search_right(a, lo, hi, x):
    """The first index ``i`` in ``[lo, hi)`` with ``a[i] > x`` (``hi`` if none);
    ``a[lo:hi]`` ascending. ``np.searchsorted(a[lo:hi], x, side="right") + lo``."""
    while lo < hi:
        mid = (lo + hi) >> 1
        if a[mid] <= x:
            lo = mid + 1
        else:
            hi = mid
    return lo


@kernel
def search_right_column(box, lo, hi, x):
    """:func:`search_right` over column 0 of the rows ``box[lo:hi]``."""
    while lo < hi:
        mid = (lo + hi) >> 1
        if box[mid, 0] <= x:
            lo = mid + 1
        else:
            hi = mid
    return lo


@kernel
def argsort_range(keys, lo, hi):
    """The stable ascending order of ``keys[lo:hi]``, as indices from 0 (a bottom-up
    merge sort over insertion-sorted runs); ``np.argsort(keys[lo:hi], kind="stable")``
    for keys without NaN."""
    n = hi - lo
    order = np.empty(n, dtype=np.intp)
    for i in range(n):
        order[i] = i
    for start in range(0, n, RUN):
        end = min(start + RUN, n)
        for p in range(start + 1, end):
            v = order[p]
            key = keys[lo + v]
            q = p - 1
            while q >= start and keys[lo + order[q]] > key:
                order[q + 1] = order[q]
                q -= 1
            order[q + 1] = v
    if n <= RUN:
        return order
    spare = np.empty(n, dtype=np.intp)
    src = order
    dst = spare
    width = RUN
    while width < n:
        for left in range(0, n, 2 * width):
            mid = min(left + width, n)
            right = min(left + 2 * width, n)
            i = left
            j = mid
            k = left
            while i < mid and j < right:
                if keys[lo + src[j]] < keys[lo + src[i]]:
                    dst[k] = src[j]
                    j += 1
                else:
                    dst[k] = src[i]
                    i += 1
                k += 1
            while i < mid:
                dst[k] = src[i]
                i += 1
                k += 1
            while j < right:
                dst[k] = src[j]
                j += 1
                k += 1
        src, dst = dst, src
        width *= 2
    return src


@kernel
def sort_range(values, lo, hi):
    """Sort ``values[lo:hi]`` ascending in place."""
    order = argsort_range(values, lo, hi)
    copy = np.empty(hi - lo, dtype=values.dtype)
    for t in range(hi - lo):
        copy[t] = values[lo + order[t]]
    for t in range(hi - lo):
        values[lo + t] = copy[t]
