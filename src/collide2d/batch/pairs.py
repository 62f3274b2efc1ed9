"""``overlapping_pairs`` and ``overlapping_circle_pairs``: all overlapping pairs at once."""

from __future__ import annotations

import math
import os
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

import numpy as np
from numpy.typing import ArrayLike

from collide2d.batch import _strips
from collide2d.batch.arrays import (
    FloatArray,
    IndexArray,
    as_boxes,
    as_circles,
    bounds,
    circle_bounds,
)
from collide2d.batch.stats import BatchStats

METHODS = ("auto", "grid", "sort_and_sweep", "brute_force")
THREADS = min(2, os.cpu_count() or 1)
"""Threads that share a large ``grid`` search (the kernels release the GIL)."""
PARALLEL_MIN_ITEMS = 100_000
"""Below this many items one thread is faster than starting a second."""
BRUTE_FORCE_BELOW = 48
"""``auto`` tests all pairs below this many items (cheaper than building anything)."""


def overlapping_pairs(
    boxes: ArrayLike, *, method: str = "auto", stats: BatchStats | None = None
) -> IndexArray:
    """Find every pair of boxes whose interiors overlap.

    Parameters
    ----------
    boxes : array_like of shape (N, 4)
        Rows of ``x, y, w, h``; converted to float64.
    method : {"auto", "grid", "sort_and_sweep", "brute_force"}
        How candidates are found; every method returns the same array. ``grid``
        sorts boxes into levels by size and into horizontal strips, each swept along
        x (robust to mixed sizes and clusters); ``sort_and_sweep`` sweeps along x
        only; ``brute_force`` tests all pairs. ``auto`` uses brute force for
        a few boxes and the grid otherwise.
    stats : BatchStats, optional
        Filled in with the method used and the tests made.

    Returns
    -------
    pairs : ndarray of shape (K, 2), dtype intp
        ``(i, j)`` with ``i < j``, sorted lexicographically. Overlap is strict, as
        in :func:`collide2d.overlaps`: boxes that only touch are not a pair.

    Examples
    --------
    >>> overlapping_pairs([[0, 0, 10, 10], [5, 5, 10, 10], [10, 0, 5, 7]])
    array([[0, 1],
           [1, 2]])
    """
    return _pairs(bounds(as_boxes(boxes)), np.zeros((0, 3)), 0, method, stats)


def overlapping_circle_pairs(
    circles: ArrayLike, *, method: str = "auto", stats: BatchStats | None = None
) -> IndexArray:
    """Find every pair of circles that overlap (centre distance ``< r1 + r2``).

    Parameters
    ----------
    circles : array_like of shape (N, 3)
        Rows of ``x, y, r``; converted to float64.
    method : {"auto", "grid", "sort_and_sweep", "brute_force"}
        As for :func:`overlapping_pairs`; candidates come from the circles' bounds.
    stats : BatchStats, optional
        Filled in with the method used and the tests made.

    Returns
    -------
    pairs : ndarray of shape (K, 2), dtype intp
        ``(i, j)`` with ``i < j``, sorted lexicographically.

    Examples
    --------
    >>> overlapping_circle_pairs([[0, 0, 1], [1.5, 0, 1], [3.5, 0, 1]])
    array([[0, 1]])
    """
    array = as_circles(circles)
    return _pairs(circle_bounds(array), array, 1, method, stats)


def _pairs(
    box: FloatArray,
    circles: FloatArray,
    mode: int,
    method: str,
    stats: BatchStats | None,
) -> IndexArray:
    from collide2d._kernels import pairs, strips

    if method not in METHODS:
        raise ValueError(f"method must be one of {', '.join(METHODS)}; got {method!r}")
    n = box.shape[0]
    if method == "auto":
        method = "brute_force" if n < BRUTE_FORCE_BELOW else "grid"
    if method == "grid" and n and not finite_span(box):
        method = "sort_and_sweep"  # coordinates so far apart that differences overflow
    parts = THREADS if method == "grid" and n >= PARALLEL_MIN_ITEMS else 1
    if method == "grid":
        built = _strips.build(box)
        ordered = circles[built.e_item] if mode == 1 else circles

        def run(out: IndexArray, counters: IndexArray, part: int) -> int:
            return int(strips.strip_pairs(*built, ordered, mode, out, counters, part, parts))

    elif method == "sort_and_sweep":
        order = np.argsort(box[:, 0])

        def run(out: IndexArray, counters: IndexArray, part: int) -> int:
            return int(pairs.sort_and_sweep_pairs(order, box, circles, mode, out, counters))

    else:

        def run(out: IndexArray, counters: IndexArray, part: int) -> int:
            return int(pairs.brute_force_pairs(box, circles, mode, out, counters))

    found, counters = run_parts(run, parts, 4 * n // parts + 64)
    result: IndexArray = pairs.sort_pairs(found, n)
    if stats is not None:
        stats.method = method
        stats.tests = int(counters[0])
        stats.visits = int(counters[1])
        stats.brute_force_tests = n * (n - 1) // 2
    return result


def finite_span(box: FloatArray) -> bool:
    """Whether differences of the bounds' coordinates stay finite (no overflow)."""
    return math.isfinite(float(box[:, 2].max()) - float(box[:, 0].min())) and math.isfinite(
        float(box[:, 3].max()) - float(box[:, 1].min())
    )


def run_parts(
    run: Callable[[IndexArray, IndexArray, int], int], parts: int, capacity: int
) -> tuple[IndexArray, IndexArray]:
    """Call ``run(out, counters, part)`` for each part (in threads if several), growing
    a part's output buffer and calling it again if it was too small.

    Returns the rows found by all parts, concatenated, and the summed counters.
    """

    def one(part: int) -> tuple[IndexArray, IndexArray]:
        counters = np.zeros(2, dtype=np.int64)
        out = np.empty((capacity, 2), dtype=np.intp)
        found = run(out, counters, part)
        if found > capacity:  # the buffer was too small: run again with the exact size
            counters[:] = 0
            out = np.empty((found, 2), dtype=np.intp)
            found = run(out, counters, part)
        return out[:found], counters

    if parts == 1:
        return one(0)
    with ThreadPoolExecutor(parts) as pool:
        results = list(pool.map(one, range(parts)))
    rows = np.concatenate([rows for rows, _ in results])
    return rows, sum((counters for _, counters in results), np.zeros(2, dtype=np.int64))
