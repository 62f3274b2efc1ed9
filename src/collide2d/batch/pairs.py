"""``overlapping_pairs`` and ``overlapping_circle_pairs``: all overlapping pairs at once."""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from collide2d._kernels.pairs.search import PAIR_METHODS, find_pairs
from collide2d._typing import FloatArray, IndexArray
from collide2d.batch.arrays import as_boxes, as_circles, bounds, check_method, circle_bounds
from collide2d.geometry.circle import Circle
from collide2d.geometry.overlap import overlaps_circle_circle
from collide2d.stats import Stats, check_stats


def overlapping_pairs(
    boxes: ArrayLike, *, method: str = "auto", stats: Stats | None = None
) -> IndexArray:
    """Find every pair of boxes whose interiors overlap.

    Parameters
    ----------
    boxes : array_like of shape (N, 4)
        Rows of ``x, y, w, h``; converted to float64.
    method : {"auto", "strips", "sort_and_sweep", "brute_force"}
        How candidates are found; every method returns the same array. ``strips``
        sorts boxes into levels by size and into horizontal strips, each swept along
        x (robust to mixed sizes and clusters); ``sort_and_sweep`` sweeps along x
        only; ``brute_force`` tests all pairs. ``auto`` uses brute force for
        a few boxes and the strips otherwise. (``"grid"`` is the deprecated name
        of ``"strips"``.)
    stats : Stats, optional
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
    method = check_method(method, PAIR_METHODS)
    stats = check_stats(stats)
    return _pairs(bounds(as_boxes(boxes)), np.zeros((0, 3)), 0, method, stats)


def overlapping_circle_pairs(
    circles: ArrayLike, *, method: str = "auto", stats: Stats | None = None
) -> IndexArray:
    """Find every pair of circles that overlap (centre distance ``< r1 + r2``).

    Parameters
    ----------
    circles : array_like of shape (N, 3)
        Rows of ``x, y, r``; converted to float64.
    method : {"auto", "strips", "sort_and_sweep", "brute_force"}
        As for :func:`overlapping_pairs`; candidates come from the circles' bounds.
    stats : Stats, optional
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
    method = check_method(method, PAIR_METHODS)
    stats = check_stats(stats)
    array = as_circles(circles)
    if array.size and not np.abs(array).max() < HUGE:
        return _huge_circle_pairs(array, method, stats)
    return _pairs(circle_bounds(array), array, 1, method, stats)


HUGE = 2.0**509
"""Below this, differences and sums of two circles' numbers stay below
``SQUARE_OVERFLOW`` and the compiled test's squares are finite."""


def _huge_circle_pairs(circles: FloatArray, method: str, stats: Stats | None) -> IndexArray:
    """The pairs of circles some of which reach ``1e154`` and beyond: candidates from
    their bounds (an ulp wider, so touching or collapsed bounds still meet), each
    decided by :func:`collide2d.geometry.overlap.overlaps_circle_circle` (exact there)."""
    box = circle_bounds(circles)
    candidates = _pairs(box, np.zeros((0, 3)), 0, method, stats)
    rows = circles.tolist()
    keep = [
        overlaps_circle_circle(Circle(*rows[i]), Circle(*rows[j])) for i, j in candidates.tolist()
    ]
    return candidates[np.array(keep, dtype=bool)] if keep else candidates


def _pairs(
    box: FloatArray, circles: FloatArray, mode: int, method: str, stats: Stats | None
) -> IndexArray:
    pairs, counters, used = find_pairs(box, circles, mode, method)
    if stats is not None:
        n = box.shape[0]
        stats.begin(used, n * (n - 1) // 2)
        stats.count(int(counters[0]), int(counters[1]))
    return pairs
