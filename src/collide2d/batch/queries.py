"""``query_pairs`` and ``query_points``: many queries against many boxes."""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from collide2d._kernels.pairs.search import QUERY_METHODS, find_query_pairs
from collide2d._typing import FloatArray, IndexArray
from collide2d.batch.arrays import as_boxes, as_points, bounds, check_method
from collide2d.stats import Stats, check_stats


def query_pairs(
    boxes: ArrayLike,
    queries: ArrayLike,
    *,
    method: str = "auto",
    stats: Stats | None = None,
) -> IndexArray:
    """Find, for every query rectangle, the indexed boxes it overlaps.

    Parameters
    ----------
    boxes : array_like of shape (N, 4)
        The indexed boxes, rows of ``x, y, w, h``.
    queries : array_like of shape (M, 4)
        The query rectangles, rows of ``x, y, w, h``.
    method : {"auto", "strips", "brute_force"}
        ``strips`` indexes ``boxes`` in sorted strips (see :func:`overlapping_pairs`);
        ``brute_force`` tests every query against every box. Both return the same array.
    stats : Stats, optional
        Filled in with the method used and the tests made.

    Returns
    -------
    pairs : ndarray of shape (K, 2), dtype intp
        Rows ``(query, box)`` where the two overlap strictly, sorted lexicographically.

    Examples
    --------
    >>> query_pairs([[0, 0, 10, 10], [20, 0, 10, 10]], [[5, 5, 20, 1], [10, 0, 10, 10]])
    array([[0, 0],
           [0, 1]])
    """
    method = check_method(method, QUERY_METHODS)
    stats = check_stats(stats)
    return _query(as_boxes(boxes, "boxes"), as_boxes(queries, "queries"), method, stats)


def query_points(
    boxes: ArrayLike, points: ArrayLike, *, method: str = "auto", stats: Stats | None = None
) -> IndexArray:
    """Find, for every point, the boxes that contain it strictly (not on an edge).

    Parameters
    ----------
    boxes : array_like of shape (N, 4)
        The indexed boxes, rows of ``x, y, w, h``.
    points : array_like of shape (M, 2)
        The query points, rows of ``x, y``.
    method : {"auto", "strips", "brute_force"}
        As for :func:`query_pairs`.
    stats : Stats, optional
        Filled in with the method used and the tests made.

    Returns
    -------
    pairs : ndarray of shape (K, 2), dtype intp
        Rows ``(point, box)``, sorted lexicographically.

    Examples
    --------
    >>> query_points([[0, 0, 10, 10], [20, 0, 10, 10]], [[5, 5], [10, 5], [25, 5]])
    array([[0, 0],
           [2, 1]])
    """
    method = check_method(method, QUERY_METHODS)
    stats = check_stats(stats)
    array = as_boxes(boxes)
    pts = as_points(points)
    query = np.zeros((pts.shape[0], 4))
    query[:, :2] = pts
    return _query(array, query, method, stats)


def deprecated_points_in_boxes(
    points: ArrayLike, boxes: ArrayLike, *, method: str = "auto", stats: Stats | None = None
) -> IndexArray:
    """Deprecated (``collide2d.points_in_boxes`` warns when looked up):
    ``query_points(boxes, points)``, the boxes first as in :func:`query_pairs`."""
    return query_points(boxes, points, method=method, stats=stats)


def _query(boxes: FloatArray, queries: FloatArray, method: str, stats: Stats | None) -> IndexArray:
    rows, counters, used = find_query_pairs(bounds(boxes), bounds(queries), method)
    if stats is not None:
        stats.begin(used, boxes.shape[0] * queries.shape[0])
        stats.count(int(counters[0]), int(counters[1]))
    return rows
