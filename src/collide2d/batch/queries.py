"""``query_pairs`` and ``points_in_boxes``: many queries against many boxes."""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from collide2d.batch import _grid
from collide2d.batch.arrays import IndexArray, as_boxes, as_points, bounds
from collide2d.batch.pairs import _finite_span
from collide2d.batch.stats import BatchStats

METHODS = ("auto", "grid", "brute_force")


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
        ``grid`` indexes ``boxes`` in a hierarchical grid; ``brute_force`` tests every
        query against every box. Both return the same array.
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


def _query(boxes: IndexArray, queries: IndexArray, method: str, stats: BatchStats | None) -> IndexArray:
    from collide2d._kernels import grid

    if method not in METHODS:
        raise ValueError(f"method must be one of {', '.join(METHODS)}; got {method!r}")
    n = boxes.shape[0]
    m = queries.shape[0]
    lo_x, lo_y, hi_x, hi_y = bounds(boxes)
    q_lo_x, q_lo_y, q_hi_x, q_hi_y = bounds(queries)
    if method == "auto":
        method = "grid"
    if method == "grid" and n and not _finite_span(lo_x, lo_y, hi_x, hi_y):
        method = "brute_force"
    if method == "grid":
        flat = _grid.build(lo_x, lo_y, hi_x, hi_y)
    else:  # one level whose single cell holds every box: every query scans them all
        flat = _grid.single_cell(n)
    counters = np.zeros(2, dtype=np.int64)
    capacity = 4 * max(n, m) + 64
    out = np.empty((capacity, 2), dtype=np.intp)
    args = (q_lo_x, q_lo_y, q_hi_x, q_hi_y, *flat, lo_x, lo_y, hi_x, hi_y)
    found = int(grid.grid_query_pairs(*args, out, counters))
    if found > capacity:
        counters[:] = 0
        out = np.empty((found, 2), dtype=np.intp)
        found = int(grid.grid_query_pairs(*args, out, counters))
    if stats is not None:
        stats.method = method
        stats.tests = int(counters[0])
        stats.visits = int(counters[1])
        stats.brute_force_tests = n * m
    return out[:found].copy()
