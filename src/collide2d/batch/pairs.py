"""``overlapping_pairs`` and ``overlapping_circle_pairs``: all overlapping pairs at once."""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import ArrayLike

from collide2d.batch import _grid
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
        How candidates are found; every method returns the same array. ``grid`` is a
        hierarchical grid (robust to mixed sizes and clusters), ``sort_and_sweep``
        sorts along x, ``brute_force`` tests all pairs. ``auto`` uses brute force for
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
    >>> overlapping_pairs([[0, 0, 10, 10], [5, 5, 10, 10], [10, 0, 5, 5]])
    array([[0, 1],
           [1, 2]])
    """
    array = as_boxes(boxes)
    lo_x, lo_y, hi_x, hi_y = bounds(array)
    return _pairs(lo_x, lo_y, hi_x, hi_y, np.zeros((0, 3)), 0, method, stats)


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
    lo_x, lo_y, hi_x, hi_y = circle_bounds(array)
    return _pairs(lo_x, lo_y, hi_x, hi_y, array, 1, method, stats)


def _pairs(
    lo_x: FloatArray,
    lo_y: FloatArray,
    hi_x: FloatArray,
    hi_y: FloatArray,
    circles: FloatArray,
    mode: int,
    method: str,
    stats: BatchStats | None,
) -> IndexArray:
    from collide2d._kernels import grid, pairs

    if method not in METHODS:
        raise ValueError(f"method must be one of {', '.join(METHODS)}; got {method!r}")
    n = lo_x.shape[0]
    if method == "auto":
        method = "brute_force" if n < BRUTE_FORCE_BELOW else "grid"
    if method == "grid" and n and not _finite_span(lo_x, lo_y, hi_x, hi_y):
        method = "sort_and_sweep"  # coordinates so far apart that differences overflow
    counters = np.zeros(2, dtype=np.int64)
    capacity = 4 * n + 64
    if method == "grid":
        flat = _grid.build(lo_x, lo_y, hi_x, hi_y)

        def run(out: IndexArray) -> int:
            return int(grid.grid_pairs(*flat, lo_x, lo_y, hi_x, hi_y, circles, mode, out, counters))

    elif method == "sort_and_sweep":
        order = np.argsort(lo_x, kind="stable")

        def run(out: IndexArray) -> int:
            return int(
                pairs.sort_and_sweep_pairs(
                    order, lo_x, lo_y, hi_x, hi_y, circles, mode, out, counters
                )
            )

    else:

        def run(out: IndexArray) -> int:
            return int(pairs.brute_force_pairs(lo_x, lo_y, hi_x, hi_y, circles, mode, out, counters))

    out = np.empty((capacity, 2), dtype=np.intp)
    found = run(out)
    if found > capacity:  # the buffer was too small: run again with the exact size
        counters[:] = 0
        out = np.empty((found, 2), dtype=np.intp)
        found = run(out)
    result: IndexArray = pairs.sort_pairs(out[:found], n)
    if stats is not None:
        stats.method = method
        stats.tests = int(counters[0])
        stats.visits = int(counters[1])
        stats.brute_force_tests = n * (n - 1) // 2
    return result


def _finite_span(lo_x: FloatArray, lo_y: FloatArray, hi_x: FloatArray, hi_y: FloatArray) -> bool:
    return math.isfinite(float(hi_x.max()) - float(lo_x.min())) and math.isfinite(
        float(hi_y.max()) - float(lo_y.min())
    )
