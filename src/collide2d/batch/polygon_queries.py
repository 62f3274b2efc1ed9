"""Many query polygons (or rotated boxes) against many indexed ones: every
overlapping ``(query, polygon)`` row at once.

Candidates come from the bounding boxes through the engine of
:func:`~collide2d.query_pairs` (the indexed polygons in sorted strips); each is then
decided by the exact separating-axis test of :func:`~collide2d.overlapping_polygon_pairs`,
on the two sets laid end to end in one array. The answers are those of
:func:`collide2d.overlaps` on the ``Polygon`` of each row, pair for pair.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from collide2d._kernels.pairs.search import QUERY_METHODS, find_query_pairs
from collide2d._typing import FloatArray, IndexArray
from collide2d.batch.arrays import check_method
from collide2d.batch.polygons import (
    as_polygons,
    box_corners,
    box_frames,
    box_outlines,
    overlapping_candidates,
)
from collide2d.stats import Stats, check_stats


def query_polygon_pairs(
    vertices: ArrayLike,
    queries: ArrayLike,
    counts: ArrayLike | None = None,
    query_counts: ArrayLike | None = None,
    *,
    method: str = "auto",
    stats: Stats | None = None,
) -> IndexArray:
    """Find, for every query polygon, the indexed convex polygons it overlaps.

    Parameters
    ----------
    vertices : array_like of shape (N, K, 2)
        The indexed polygons, padded rows as for
        :func:`~collide2d.overlapping_polygon_pairs`.
    queries : array_like of shape (M, L, 2)
        The query polygons, padded rows the same way.
    counts, query_counts : array_like of shape (N,) and (M,), optional
        How many vertices each row uses; all of them by default.
    method : {"auto", "strips", "brute_force"}
        How candidates are found from the bounding boxes, as for
        :func:`collide2d.query_pairs`; both return the same array.
    stats : Stats, optional
        Filled in with the method used and the tests made.

    Returns
    -------
    pairs : ndarray of shape (R, 2), dtype intp
        Rows ``(query, polygon)`` whose interiors overlap, sorted lexicographically.

    Raises
    ------
    ValueError
        If a shape is wrong, a coordinate is not finite, or a row is not a convex
        polygon; the message names the argument and the row.

    Examples
    --------
    >>> square = [[0, 0], [4, 0], [4, 4], [0, 4]]
    >>> far = [[10, 0], [14, 0], [14, 4], [10, 4]]
    >>> triangle = [[3, 3], [12, 1], [12, 3]]  # reaches both squares
    >>> query_polygon_pairs([square, far], [triangle, [[5, 5], [6, 5], [5, 6]]])
    array([[0, 0],
           [0, 1]])
    """
    method = check_method(method, QUERY_METHODS)
    stats = check_stats(stats)
    array, sizes, box, tame = as_polygons(vertices, counts)
    q_array, q_sizes, q_box, q_tame = as_polygons(queries, query_counts, "queries", "query_counts")
    return _query_polygons(
        (array, sizes, box, tame), (q_array, q_sizes, q_box, q_tame), method, stats
    )


def query_box_pairs(
    boxes: ArrayLike, queries: ArrayLike, *, method: str = "auto", stats: Stats | None = None
) -> IndexArray:
    """Find, for every query rotated box, the indexed rotated boxes it overlaps:
    :func:`query_polygon_pairs` on :func:`~collide2d.box_polygons` of each.

    Parameters
    ----------
    boxes, queries : array_like of shape (N, 5) and (M, 5)
        Rows of ``cx, cy, w, h, angle`` (see :func:`~collide2d.box_polygons`).
    method, stats
        As for :func:`query_polygon_pairs`.

    Returns
    -------
    pairs : ndarray of shape (R, 2), dtype intp
        Rows ``(query, box)``, equal to ``overlaps(Polygon.box(*queries[q]),
        Polygon.box(*boxes[i]))`` for every pair, sorted lexicographically.

    Examples
    --------
    >>> import math
    >>> query_box_pairs([[0, 0, 4, 4, 0], [8, 0, 2, 2, 0]], [[4.5, 0, 4, 4, math.pi / 4]])
    array([[0, 0],
           [0, 1]])
    """
    method = check_method(method, QUERY_METHODS)
    stats = check_stats(stats)
    sets = []
    for name, rows in (("boxes", boxes), ("queries", queries)):
        array = box_corners(rows, name)
        sizes = np.full(array.shape[0], 4, dtype=np.intp)
        box, tame = box_outlines(array, sizes, rows, name)
        sets.append((array, sizes, box, tame))
    return _query_polygons(sets[0], sets[1], method, stats, boxes=True)


Outlines = tuple[FloatArray, IndexArray, FloatArray, np.ndarray]
"""Checked outlines: vertices, counts, bounds and tameness (``as_polygons``)."""


def _query_polygons(
    indexed: Outlines, queries: Outlines, method: str, stats: Stats | None, boxes: bool = False
) -> IndexArray:
    """The pairs of ``indexed`` and ``queries`` outlines that overlap; rotated boxes
    (``boxes``) are decided by their frames first (``polygons.box_frames``)."""
    vertices, counts, box, tame = indexed
    q_vertices, q_counts, q_box, q_tame = queries
    rows, counters, used = find_query_pairs(box, q_box, method)
    n, m = vertices.shape[0], q_vertices.shape[0]
    k = max(vertices.shape[1], q_vertices.shape[1])
    both = np.zeros((n + m, k, 2))  # the two sets end to end: queries after the polygons
    both[:n, : vertices.shape[1]] = vertices
    both[n:, : q_vertices.shape[1]] = q_vertices
    candidates = np.column_stack([rows[:, 0] + n, rows[:, 1]])
    all_tame = np.concatenate([tame, q_tame])
    frames = box_frames(both, all_tame) if boxes else None
    keep = overlapping_candidates(
        both, np.concatenate([counts, q_counts]), all_tame, candidates, frames
    )
    if stats is not None:
        stats.begin(used, n * m)
        stats.count(int(counters[0]) + rows.shape[0], int(counters[1]))
    result: IndexArray = rows[keep]
    return result
