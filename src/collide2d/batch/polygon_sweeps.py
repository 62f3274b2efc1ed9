"""Moving rotated boxes and convex polygons as arrays: every pair that meets during
a frame, with its exact first contact.

Candidates are the pairs whose swept bounding boxes (each polygon's box grown by
its motion, rounded outward) overlap, found by the engine of
:func:`~collide2d.overlapping_pairs`; each is swept by the exact swept
separating-axis test, compiled (``collide2d._kernels.pairs.polygon_sweeps``). The
rare pairs the compiled test leaves to it (a vertex meeting a vertex, values
beyond ``SWEEP_EXACT_RANGE``) go to the plain Python route of
:func:`collide2d.sweep`. Every answer is that of
:func:`collide2d.sweep` on the ``Polygon`` of each row, bit for bit.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numpy.typing import ArrayLike

from collide2d._kernels import lazy
from collide2d._kernels.pairs.search import PAIR_METHODS, find_pairs
from collide2d._typing import FloatArray, IndexArray
from collide2d.batch.arrays import _as_rows, check_method
from collide2d.batch.polygons import as_polygons, box_outlines, box_polygons, in_parts
from collide2d.continuous.polygon import sweep_outlines
from collide2d.stats import Stats, check_stats
from collide2d.tolerances import SWEEP_EXACT_RANGE

SWEEP_PARALLEL_MIN = 2_048
"""From this many candidate pairs on, their sweeps run in threads (about a
microsecond each)."""


class PolygonSweeps(NamedTuple):
    """The pairs that meet during a frame, one row each, sorted by pair.

    Attributes
    ----------
    pairs : ndarray of shape (K, 2), dtype intp
        ``(i, j)`` with ``i < j``.
    fractions : ndarray of shape (K,)
        The first moment of the frame from which the pair overlaps (``0.0`` for a
        pair that starts overlapped), as :attr:`collide2d.Hit.fraction`.
    normals : ndarray of shape (K, 2)
        The unit normal of the contact, pointing from ``j`` toward ``i`` (``i``'s
        side: push ``i`` along it, ``j`` against it); for a started pair the
        direction of the shortest push of ``i`` out of ``j``.
    started : ndarray of shape (K,), dtype bool
        Whether the pair overlaps at the start of the frame.
    depths : ndarray of shape (K,)
        For a started pair, the length of that shortest push; ``0.0`` otherwise.
    """

    pairs: IndexArray
    fractions: FloatArray
    normals: FloatArray
    started: np.ndarray
    depths: FloatArray


def sweep_polygon_pairs(
    vertices: ArrayLike,
    deltas: ArrayLike,
    counts: ArrayLike | None = None,
    *,
    method: str = "auto",
    stats: Stats | None = None,
) -> PolygonSweeps:
    """Find every pair of moving convex polygons that overlaps during a frame, and
    when it first does.

    Polygon ``i`` moves by ``deltas[i]`` over the frame, every polygon at once,
    without turning. A pair is reported when the two overlap at some moment of the
    frame ``[0, 1)`` (touching is not overlapping), with the first such moment.

    Parameters
    ----------
    vertices : array_like of shape (N, K, 2)
        Row ``i`` holds polygon ``i``'s vertices in order, either winding; rows with
        fewer than ``K`` vertices are padded (see ``counts``).
    deltas : array_like of shape (N, 2)
        Each polygon's motion over the frame.
    counts : array_like of shape (N,), optional
        How many vertices each row uses (3 to ``K``); all ``K`` by default.
    method : {"auto", "strips", "sort_and_sweep", "brute_force"}
        How candidates are found from the swept bounding boxes, as for
        :func:`collide2d.overlapping_pairs`; every method returns the same answer.
    stats : Stats, optional
        Filled in with the method used and the tests made.

    Returns
    -------
    PolygonSweeps
        ``pairs``, ``fractions``, ``normals``, ``started`` and ``depths``, one row a
        pair; row ``k`` equals ``collide2d.sweep(Polygon(vertices[i]), deltas[i],
        Polygon(vertices[j]), deltas[j])`` for ``(i, j) = pairs[k]`` (its contact
        point is not computed here: call :func:`collide2d.sweep` for it).

    Raises
    ------
    ValueError
        If a shape is wrong, a value is not finite, a row is not a convex polygon,
        or a motion carries a polygon beyond the floats; the message names the row.

    Examples
    --------
    >>> square = [[0, 0], [2, 0], [2, 2], [0, 2]]
    >>> diamond = [[6, 1], [7, 0], [8, 1], [7, 2]]
    >>> found = sweep_polygon_pairs([square, diamond], [[8, 0], [0, 0]])
    >>> found.pairs.tolist(), found.fractions.tolist(), found.normals.tolist()
    ([[0, 1]], [0.5], [[-1.0, 0.0]])
    """
    method = check_method(method, PAIR_METHODS)
    stats = check_stats(stats)
    array, sizes, box, _ = as_polygons(vertices, counts)
    moves = _as_rows(deltas, "deltas", 2, "dx, dy")
    if moves.shape[0] != array.shape[0]:
        raise ValueError(
            f"deltas must have one row per polygon ({array.shape[0]}), got {moves.shape[0]}"
        )
    return _sweep_pairs(array, sizes, box, moves, method, stats)


def sweep_box_pairs(
    boxes: ArrayLike, deltas: ArrayLike, *, method: str = "auto", stats: Stats | None = None
) -> PolygonSweeps:
    """Find every pair of moving rotated boxes that overlaps during a frame, and when
    it first does: :func:`sweep_polygon_pairs` on :func:`box_polygons` of ``boxes``.

    Parameters
    ----------
    boxes : array_like of shape (N, 5)
        Rows of ``cx, cy, w, h, angle`` (see :func:`collide2d.box_polygons`).
    deltas : array_like of shape (N, 2)
        Each box's motion over the frame (it does not turn).
    method, stats
        As for :func:`sweep_polygon_pairs`.

    Returns
    -------
    PolygonSweeps
        Row ``k`` equals ``collide2d.sweep(Polygon.box(*boxes[i]), deltas[i],
        Polygon.box(*boxes[j]), deltas[j])`` for ``(i, j) = pairs[k]``.

    Examples
    --------
    >>> import math
    >>> found = sweep_box_pairs([[0, 0, 2, 2, 0], [5, 0, 2, 2, math.pi / 4]], [[4, 0], [0, 0]])
    >>> found.pairs.tolist(), round(float(found.fractions[0]), 6)
    ([[0, 1]], 0.646447)
    """
    method = check_method(method, PAIR_METHODS)
    stats = check_stats(stats)
    array = box_polygons(boxes)
    sizes = np.full(array.shape[0], 4, dtype=np.intp)
    box, _ = box_outlines(array, sizes, boxes)
    moves = _as_rows(deltas, "deltas", 2, "dx, dy")
    if moves.shape[0] != array.shape[0]:
        raise ValueError(
            f"deltas must have one row per box ({array.shape[0]}), got {moves.shape[0]}"
        )
    return _sweep_pairs(array, sizes, box, moves, method, stats)


def _swept(box: FloatArray, moves: FloatArray) -> FloatArray:
    """Each box grown by its motion, rounded outward (it holds every position)."""
    with np.errstate(over="ignore", invalid="ignore"):
        ends = box + np.concatenate([moves, moves], axis=1)
        low = np.nextafter(np.minimum(box[:, :2], ends[:, :2]), -np.inf)
        high = np.nextafter(np.maximum(box[:, 2:], ends[:, 2:]), np.inf)
    swept = np.concatenate([low, high], axis=1)
    finite = np.isfinite(swept).all(axis=1)
    if not finite.all():
        row = int(np.flatnonzero(~finite)[0])
        raise ValueError(
            f"deltas row {row} is {moves[row].tolist()}: it carries the polygon beyond the floats"
        )
    return swept


def _sweep_pairs(
    vertices: FloatArray,
    counts: IndexArray,
    box: FloatArray,
    moves: FloatArray,
    method: str,
    stats: Stats | None,
) -> PolygonSweeps:
    n = vertices.shape[0]
    candidates, counters, used_method = find_pairs(_swept(box, moves), np.zeros((0, 3)), 0, method)
    tame = _sweep_tame(vertices, counts, moves)
    m = candidates.shape[0]
    codes = np.zeros(m, dtype=np.int8)
    fractions = np.zeros(m)
    normals = np.zeros((m, 2))
    depths = np.zeros(m)
    kernels = lazy("pairs.polygon_sweeps")

    def part(lo: int, hi: int) -> None:
        kernels.sweep_candidates(
            vertices, counts, moves, tame, candidates[lo:hi],
            codes[lo:hi], fractions[lo:hi], normals[lo:hi], depths[lo:hi],
        )  # fmt: skip

    in_parts(m, part, SWEEP_PARALLEL_MIN)
    for row in np.flatnonzero(codes == kernels.UNSURE).tolist():
        i, j = candidates[row]
        a = [tuple(v) for v in vertices[i, : counts[i]].tolist()]
        b = [tuple(v) for v in vertices[j, : counts[j]].tolist()]
        hit = sweep_outlines(a, tuple(moves[i].tolist()), b, tuple(moves[j].tolist()))
        if hit is None:
            codes[row] = kernels.NONE
            continue
        codes[row] = kernels.STARTED if hit.started_overlapping else kernels.HIT
        fractions[row] = hit.fraction
        normals[row] = hit.normal
        depths[row] = hit.depth
    if stats is not None:
        stats.begin(used_method, n * (n - 1) // 2)
        stats.count(int(counters[0]) + m, int(counters[1]))
    keep = codes != kernels.NONE
    return PolygonSweeps(
        candidates[keep], fractions[keep], normals[keep], codes[keep] == kernels.STARTED,
        depths[keep],
    )  # fmt: skip


def _sweep_tame(vertices: FloatArray, counts: IndexArray, moves: FloatArray) -> np.ndarray:
    """Which rows the compiled sweep decides exactly: every coordinate and motion zero
    or of magnitude in ``SWEEP_EXACT_RANGE``."""
    low, high = SWEEP_EXACT_RANGE
    box = np.empty((vertices.shape[0], 4))
    tame = np.empty(vertices.shape[0], dtype=bool)
    lazy("pairs.polygons").bounds_and_tame(vertices, counts, low, high, box, tame)
    size = np.abs(moves)
    tame &= ((size == 0.0) | ((size >= low) & (size <= high))).all(axis=1)
    return tame
