"""``query_pairs`` and ``points_in_boxes``: many queries against many boxes."""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from collide2d.batch.arrays import FloatArray, IndexArray, as_boxes, as_points, bounds
from collide2d.batch.stats import BatchStats
from collide2d.broadphase.array_search import find_query_pairs


def query_pairs(
    boxes: ArrayLike,
    queries: ArrayLike,
    *,
    method: str = "auto",
    stats: BatchStats | None = None,
) -> IndexArray:
    """Find, for every query rectangle, the indexed boxes it overlaps.

    Parameters
    ----------
    boxes : array_like of shape (N, 4)
        The indexed boxes, rows of ``x, y, w, h``.
    queries : array_like of shape (M, 4)
        The query rectangles, rows of ``x, y, w, h``.
    method : {"auto", "grid", "brute_force"}
        ``grid`` indexes ``boxes`` in sorted strips (see :func:`overlapping_pairs`);
        ``brute_force`` tests every query against every box. Both return the same array.
    stats : BatchStats, optional
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
    array = as_boxes(boxes, "boxes")
    query = as_boxes(queries, "queries")
    return _query(array, query, method, stats)


def points_in_boxes(
    points: ArrayLike, boxes: ArrayLike, *, method: str = "auto", stats: BatchStats | None = None
) -> IndexArray:
    """Find, for every point, the boxes that contain it strictly (not on an edge).

    Parameters
    ----------
    points : array_like of shape (M, 2)
        Rows of ``x, y``.
    boxes : array_like of shape (N, 4)
        Rows of ``x, y, w, h``.
    method : {"auto", "grid", "brute_force"}
        As for :func:`query_pairs`.
    stats : BatchStats, optional
        Filled in with the method used and the tests made.

    Returns
    -------
    pairs : ndarray of shape (K, 2), dtype intp
        Rows ``(point, box)``, sorted lexicographically.

    Examples
    --------
    >>> points_in_boxes([[5, 5], [10, 5], [25, 5]], [[0, 0, 10, 10], [20, 0, 10, 10]])
    array([[0, 0],
           [2, 1]])
    """
    pts = as_points(points)
    array = as_boxes(boxes)
    query = np.zeros((pts.shape[0], 4))
    query[:, :2] = pts
    return _query(array, query, method, stats)


def _query(
    boxes: FloatArray, queries: FloatArray, method: str, stats: BatchStats | None
) -> IndexArray:
    rows, counters, used = find_query_pairs(bounds(boxes), bounds(queries), method)
    if stats is not None:
        stats.method = used
        stats.tests = int(counters[0])
        stats.visits = int(counters[1])
        stats.brute_force_tests = boxes.shape[0] * queries.shape[0]
    return rows
