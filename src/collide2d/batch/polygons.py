"""Rotated boxes and convex polygons as arrays: every overlapping pair at once.

Candidates come from the polygons' bounding boxes through the same engine as
:func:`~collide2d.overlapping_pairs`; each candidate is then decided by the exact
separating-axis test, compiled (``collide2d._kernels.pairs.polygons``). The answers are
those of :func:`collide2d.overlaps` on the ``Polygon`` of each row, pair for pair.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from numpy.typing import ArrayLike

from collide2d import _threads as threads
from collide2d._kernels import lazy
from collide2d._kernels.pairs.search import PAIR_METHODS, PARALLEL_MIN_ITEMS, THREADS, find_pairs
from collide2d._typing import FloatArray, IndexArray
from collide2d.batch.arrays import _as_rows, check_method
from collide2d.geometry.convex import integers, overlaps_outlines
from collide2d.geometry.polygon import Polygon
from collide2d.stats import Stats, check_stats
from collide2d.tolerances import EXACT_ORIENT_RANGE

TAME_LOW, TAME_HIGH = EXACT_ORIENT_RANGE


def box_polygons(boxes: ArrayLike) -> FloatArray:
    """The corners of rotated boxes, as :meth:`collide2d.Polygon.box` makes them.

    Parameters
    ----------
    boxes : array_like of shape (N, 5)
        Rows of ``cx, cy, w, h, angle``: centre, positive size, and the angle in
        radians (x toward y, clockwise on a y-down screen; whole quarter turns exact).

    Returns
    -------
    vertices : ndarray of shape (N, 4, 2)
        Each row's four corners, bit for bit those of ``Polygon.box(*row).vertices``.

    Examples
    --------
    >>> import math
    >>> box_polygons([[0, 0, 4, 2, math.pi / 2]])[0].tolist()
    [[1.0, -2.0], [1.0, 2.0], [-1.0, 2.0], [-1.0, -2.0]]
    """
    return box_corners(boxes, "boxes")


def box_corners(boxes: ArrayLike, name: str) -> FloatArray:
    """:func:`box_polygons`, its errors naming the argument ``name``."""
    rows = _as_rows(boxes, name, 5, "cx, cy, w, h, angle")
    if (rows[:, 2] <= 0.0).any() or (rows[:, 3] <= 0.0).any():  # (see arrays.as_boxes)
        row = int(np.flatnonzero((rows[:, 2] <= 0.0) | (rows[:, 3] <= 0.0))[0])
        raise ValueError(f"{name} sizes must be > 0; row {row} is {rows[row].tolist()}")
    out = np.empty((rows.shape[0], 4, 2))
    kernel = lazy("pairs.polygons").box_vertices
    in_parts(rows.shape[0], lambda lo, hi: kernel(rows[lo:hi], out[lo:hi]))
    return out


def overlapping_box_pairs(
    boxes: ArrayLike, *, method: str = "auto", stats: Stats | None = None
) -> IndexArray:
    """Find every pair of rotated boxes whose interiors overlap.

    Parameters
    ----------
    boxes : array_like of shape (N, 5)
        Rows of ``cx, cy, w, h, angle`` (see :func:`box_polygons`).
    method : {"auto", "strips", "sort_and_sweep", "brute_force"}
        How candidates are found from the bounding boxes, as for
        :func:`collide2d.overlapping_pairs`; every method returns the same array.
    stats : Stats, optional
        Filled in with the method used and the tests made (bounding-box tests and
        exact polygon tests).

    Returns
    -------
    pairs : ndarray of shape (K, 2), dtype intp
        ``(i, j)`` with ``i < j``, sorted lexicographically; equal to
        ``overlaps(Polygon.box(*boxes[i]), Polygon.box(*boxes[j]))`` for every pair.

    Raises
    ------
    ValueError
        If the shape is wrong, a value is not finite, a size is not positive, or a
        box is so thin beside its coordinates that its rounded corners are not a
        convex box (``Polygon.box`` refuses those too).

    Examples
    --------
    >>> import math
    >>> overlapping_box_pairs([[0, 0, 4, 4, 0], [4.5, 0, 4, 4, math.pi / 4], [8, 0, 2, 2, 0]])
    array([[0, 1],
           [1, 2]])
    """
    method = check_method(method, PAIR_METHODS)
    stats = check_stats(stats)
    vertices = box_polygons(boxes)
    counts = np.full(vertices.shape[0], 4, dtype=np.intp)
    box, tame = box_outlines(vertices, counts, boxes)
    return _polygon_pairs(vertices, counts, box, tame, method, stats, box_frames(vertices, tame))


def box_frames(vertices: FloatArray, tame: np.ndarray) -> FloatArray:
    """Rotated boxes' frames (``_kernels.pairs.box_frames``), which decide most
    candidate pairs before the exact test."""
    frames = np.empty((vertices.shape[0], 8))  # (box_frames.WIDTH columns)
    kernel = lazy("pairs.box_frames").box_frames

    def part(lo: int, hi: int) -> None:
        kernel(vertices[lo:hi], tame[lo:hi], frames[lo:hi])

    in_parts(vertices.shape[0], part)
    return frames


def box_outlines(
    vertices: FloatArray, counts: IndexArray, boxes: ArrayLike, name: str = "boxes"
) -> tuple[FloatArray, np.ndarray]:
    """The bounds and tameness of rotated boxes' corners (see :func:`as_polygons`),
    or a ``ValueError`` naming the first box whose rounded corners are not convex."""
    box, tame = _bounds_and_tame(vertices, counts)
    bad = _outline_problems(vertices, counts, tame)
    if bad >= 0:
        row = np.asarray(boxes, dtype=np.float64)[bad].tolist()
        raise ValueError(
            f"{name} row {bad} is {row}: too thin beside its coordinates, its rounded "
            "corners are not a convex box"
        )
    return box, tame


EXACT_PARALLEL_MIN = 16_384
"""From this many candidate pairs on, their exact tests run in threads (about
0.1 us each: fewer are done before two threads start)."""


def in_parts(m: int, part: Callable[[int, int], None], least: int | None = None) -> None:
    """Call ``part(lo, hi)`` over ``range(m)`` in one piece, or in one piece per
    thread when ``m`` is ``least`` (``PARALLEL_MIN_ITEMS`` by default) or more (the
    kernels release the GIL)."""
    parallel = m >= (PARALLEL_MIN_ITEMS if least is None else least) and THREADS > 1
    threads.in_parts(lambda _, lo, hi: part(lo, hi), m, THREADS if parallel else 1)


def _bounds_and_tame(vertices: FloatArray, counts: IndexArray) -> tuple[FloatArray, np.ndarray]:
    """Each row's closed bounding box, and whether its coordinates are zero or of
    magnitude in ``[TAME_LOW, TAME_HIGH]`` (the compiled exact test's range)."""
    box = np.empty((vertices.shape[0], 4))
    tame = np.empty(vertices.shape[0], dtype=bool)
    kernel = lazy("pairs.polygons").bounds_and_tame

    def part(lo: int, hi: int) -> None:
        kernel(vertices[lo:hi], counts[lo:hi], TAME_LOW, TAME_HIGH, box[lo:hi], tame[lo:hi])

    in_parts(vertices.shape[0], part)
    return box, tame


def _outline_problems(vertices: FloatArray, counts: IndexArray, tame: np.ndarray) -> int:
    """The first row that is not a convex outline, or -1; rows are put in the stored
    order in place (the compiled check for tame rows, ``Polygon`` for the others)."""
    kernel = lazy("pairs.polygons").outline_problems
    found: list[int] = []

    def part(lo: int, hi: int) -> None:  # (each part's first bad row, or -1)
        first = int(kernel(vertices[lo:hi], counts[lo:hi], tame[lo:hi]))
        found.append(lo + first if first >= 0 else -1)

    in_parts(vertices.shape[0], part)
    bad = min((row for row in found if row >= 0), default=-1)
    for row in np.flatnonzero(~tame).tolist():
        if 0 <= bad < row:
            break
        try:
            polygon = Polygon(vertices[row, : counts[row]].tolist())
        except ValueError:
            return row
        vertices[row, : counts[row]] = polygon.vertices
    return bad


def as_polygons(
    vertices: ArrayLike,
    counts: ArrayLike | None = None,
    name: str = "vertices",
    counts_name: str = "counts",
) -> tuple[FloatArray, IndexArray, FloatArray, np.ndarray]:
    """Check ``(N, K, 2)`` outlines (the first ``counts[i]`` vertices of row ``i``)
    and return them C-contiguous with positive orientation, with the counts, their
    bounds and which rows are tame (see ``tolerances.EXACT_ORIENT_RANGE``)."""
    raw = np.asarray(vertices, dtype=np.float64)
    if raw.ndim == 1 and raw.shape[0] == 0:
        raw = raw.reshape(0, 3, 2)
    if raw.ndim != 3 or raw.shape[2] != 2 or raw.shape[1] < 3:
        raise ValueError(
            f"{name} must have shape (N, K, 2) with K >= 3 vertices a row, got shape {raw.shape}"
        )
    n, k, _ = raw.shape
    if counts is None:
        sizes = np.full(n, k, dtype=np.intp)
    else:
        sizes = np.asarray(counts)
        if sizes.size == 0:
            sizes = sizes.astype(np.intp)
        if sizes.shape != (n,) or sizes.dtype.kind not in "iu":
            raise ValueError(f"{counts_name} must be N integers, one a row; got {counts!r}")
        sizes = sizes.astype(np.intp)
        wrong = (sizes < 3) | (sizes > k)
        if wrong.any():
            row = int(np.flatnonzero(wrong)[0])
            raise ValueError(f"{counts_name} must lie in 3..{k}; row {row} has {int(sizes[row])}")
    used = np.arange(k)[None, :] < sizes[:, None]
    finite = np.isfinite(raw).all(axis=2) | ~used
    if not finite.all():
        row = int(np.flatnonzero(~finite.all(axis=1))[0])
        raise ValueError(f"{name} must be finite; row {row} is {raw[row].tolist()}")
    array = np.ascontiguousarray(raw).copy()
    array[~used] = 0.0
    box, tame = _bounds_and_tame(array, sizes)
    bad = _outline_problems(array, sizes, tame)
    if bad >= 0:
        raise ValueError(
            f"{name} row {bad} is not a convex polygon (repeated or collinear vertices, "
            f"a turn the other way, or more than one winding): {raw[bad, : sizes[bad]].tolist()}"
        )
    return array, sizes, box, tame


def overlapping_polygon_pairs(
    vertices: ArrayLike,
    counts: ArrayLike | None = None,
    *,
    method: str = "auto",
    stats: Stats | None = None,
) -> IndexArray:
    """Find every pair of convex polygons whose interiors overlap.

    Parameters
    ----------
    vertices : array_like of shape (N, K, 2)
        Row ``i`` holds polygon ``i``'s vertices in order, either winding; rows with
        fewer than ``K`` vertices are padded (the padding is ignored).
    counts : array_like of shape (N,), optional
        How many vertices each row uses (3 to ``K``); all ``K`` by default.
    method : {"auto", "strips", "sort_and_sweep", "brute_force"}
        How candidates are found from the bounding boxes.
    stats : Stats, optional
        Filled in with the method used and the tests made.

    Returns
    -------
    pairs : ndarray of shape (K, 2), dtype intp
        ``(i, j)`` with ``i < j``, sorted lexicographically; equal to
        :func:`collide2d.overlaps` on the ``Polygon`` of each row.

    Raises
    ------
    ValueError
        If the shapes are wrong, a coordinate is not finite, or a row is not a
        convex polygon; the message names the row.

    Examples
    --------
    >>> tri = [[0, 0], [4, 0], [0, 4], [0, 0]]
    >>> far = [[2, 2], [9, 2], [9, 9], [2, 9]]  # touches tri at (2, 2): no pair
    >>> near = [[1, 1], [3, 1], [3, 3], [1, 3]]
    >>> overlapping_polygon_pairs([tri, far, near], counts=[3, 4, 4])
    array([[0, 2],
           [1, 2]])
    """
    method = check_method(method, PAIR_METHODS)
    stats = check_stats(stats)
    array, sizes, box, tame = as_polygons(vertices, counts)
    return _polygon_pairs(array, sizes, box, tame, method, stats)


def _polygon_pairs(
    vertices: FloatArray,
    counts: IndexArray,
    box: FloatArray,
    tame: np.ndarray,
    method: str,
    stats: Stats | None,
    frames: FloatArray | None = None,
) -> IndexArray:
    n = vertices.shape[0]
    candidates, counters, used_method = find_pairs(box, np.zeros((0, 3)), 0, method)
    keep = overlapping_candidates(vertices, counts, tame, candidates, frames)
    if stats is not None:
        stats.begin(used_method, n * (n - 1) // 2)
        stats.count(int(counters[0]) + candidates.shape[0], int(counters[1]))
    result: IndexArray = candidates[keep]
    return result


def overlapping_candidates(
    vertices: FloatArray,
    counts: IndexArray,
    tame: np.ndarray,
    candidates: IndexArray,
    frames: FloatArray | None = None,
) -> np.ndarray:
    """For each candidate pair of rows ``(i, j)``, whether the two outlines overlap
    strictly: the compiled exact test (after the frames of rotated boxes, where
    given: :func:`box_frames`), and the Python route for untamed rows."""
    keep = np.zeros(candidates.shape[0], dtype=bool)
    unsure = np.zeros(candidates.shape[0], dtype=bool)
    if frames is None:
        kernel = lazy("pairs.polygons").keep_overlapping

        def part(lo: int, hi: int) -> None:
            kernel(vertices, counts, tame, candidates[lo:hi], keep[lo:hi], unsure[lo:hi])
    else:
        framed = lazy("pairs.box_frames").keep_box_overlapping

        def part(lo: int, hi: int) -> None:
            framed(frames, vertices, counts, tame, candidates[lo:hi], keep[lo:hi], unsure[lo:hi])

    in_parts(candidates.shape[0], part, EXACT_PARALLEL_MIN)
    for row in np.flatnonzero(unsure).tolist():
        i, j = candidates[row]
        a = [tuple(v) for v in vertices[i, : counts[i]].tolist()]
        b = [tuple(v) for v in vertices[j, : counts[j]].tolist()]
        (ai, bi), _, _ = integers((a, b))
        keep[row] = overlaps_outlines(ai, bi)
    return keep
