"""``overlapping_pairs`` and ``overlapping_circle_pairs``: all overlapping pairs at once."""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from collide2d.batch.arrays import (
    FloatArray,
    IndexArray,
    as_boxes,
    as_circles,
    bounds,
    circle_bounds,
)
from collide2d.batch.stats import BatchStats
from collide2d.broadphase.array_search import find_pairs


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
    box: FloatArray, circles: FloatArray, mode: int, method: str, stats: BatchStats | None
) -> IndexArray:
    pairs, counters, used = find_pairs(box, circles, mode, method)
    if stats is not None:
        n = box.shape[0]
        stats.method = used
        stats.tests = int(counters[0])
        stats.visits = int(counters[1])
        stats.brute_force_tests = n * (n - 1) // 2
    return pairs
