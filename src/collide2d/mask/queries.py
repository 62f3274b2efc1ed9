"""MaskStorage-against-mask and mask-against-shape queries at any offset.

Other's pixel ``u`` sits at ``[u + ox, u + ox + 1)``. It overlaps our pixel ``x`` (the
open squares share area) exactly when ``x - 1 < u + ox < x + 1``: with
``ox = kx + fx``, ``0 <= fx < 1``, that is ``u = x - kx`` (sharing ``1 - fx``) and,
when ``fx > 0``, also ``u = x - kx - 1`` (sharing ``fx``). So a fractional offset
is two whole-pixel shifts per axis, and the packed-row kernels of
``collide2d._kernels.mask.bits`` answer every query exactly.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np
from numpy.typing import NDArray

from collide2d._kernels import lazy
from collide2d._typing import FloatArray, IndexArray, WordArray
from collide2d.mask.storage import MaskStorage
from collide2d.tolerances import SQUARE_UNDERFLOW, UNDERFLOW_SCALE

bits = lazy("mask.bits")
runs_kernels = lazy("mask.runs")
mask_tree = lazy("mask.mask_tree")


class NodePairs(NamedTuple):
    """Pairs of intersecting quadtree nodes of two masks.

    Attributes
    ----------
    a_rects, b_rects : ndarray of shape (K, 4)
        Rows ``x, y, w, h`` of each pair's node of ``self`` (in its coordinates) and of
        ``other`` (in its own coordinates).
    a_levels, b_levels : ndarray of shape (K,), dtype intp
        The nodes' levels.
    """

    a_rects: FloatArray
    b_rects: FloatArray
    a_levels: IndexArray
    b_levels: IndexArray


def shifts(offset: float) -> tuple[int, int, list[float]]:
    """The first whole-pixel shift of one axis, how many there are (1 or 2), and the
    share of a pixel each overlaps.

    >>> shifts(3.0), shifts(-1.25)
    ((3, 1, [1.0]), (-2, 2, [0.25, 0.75]))
    """
    whole = math.floor(offset)
    frac = offset - whole
    if frac == 0.0:
        return whole, 1, [1.0]
    return whole, 2, [1.0 - frac, frac]


def _meet(a: MaskStorage, b: MaskStorage, ox: float, oy: float) -> tuple[int, int, int, int] | None:
    """The shifts ``sx0, nsx, sy0, nsy``, or None when the masks cannot share a pixel."""
    sx0 = math.floor(ox)
    sy0 = math.floor(oy)
    nsx = 1 if ox == sx0 else 2
    nsy = 1 if oy == sy0 else 2
    aw, ah = a.size
    bw, bh = b.size
    if (
        aw
        and ah
        and bw
        and bh
        and sx0 < aw
        and sx0 + nsx - 1 + bw > 0
        and sy0 < ah
        and sy0 + nsy - 1 + bh > 0
    ):
        return sx0, nsx, sy0, nsy
    return None


def _word_pair(a: MaskStorage, b: MaskStorage) -> tuple[WordArray, WordArray] | None:
    """The packed words of both masks, or None when their runs are the cheaper
    representation (runs are built for large masks only, and chosen when few).

    Flat on purpose: it runs before every query, and at 512 x 512 a query's Python
    costs as much as the kernel's scan of the words.
    """
    pixels_a, runs_a, words_a = a.cached()
    pixels_b, runs_b, words_b = b.cached()
    if runs_a is not None or runs_b is not None or pixels_a + pixels_b >= SMALL_PIXELS:
        runs_a = runs_a if runs_a is not None else a.runs()
        runs_b = runs_b if runs_b is not None else b.runs()
        # Runs win on solid shapes, words on noisy content: compare their counts.
        if len(runs_a[1]) + len(runs_b[1]) < RUNS_PER_WORD / 64.0 * (pixels_a + pixels_b):
            return None
    return (
        words_a if words_a is not None else a.words(),
        words_b if words_b is not None else b.words(),
    )


def overlaps(a: MaskStorage, b: MaskStorage, ox: float, oy: float) -> bool:
    """The hot path of :meth:`MaskStorage.overlaps` (small sprites call it often)."""
    pair = _word_pair(a, b)
    if pair is None:
        return bool(
            runs_kernels.runs_overlap(*a.runs(), *b.runs(), float(ox), float(oy), True) > 0.0
        )
    return bool(bits.any_overlap(*pair, float(ox), float(oy)))


RUNS_PER_WORD = 0.25
"""Runs are used when the masks have fewer runs than this many per packed word: each
run costs a few more operations than a word."""


SMALL_PIXELS = 2 * 1024 * 1024
"""Below this many pixels in the two masks, runs are not built just to answer a
query (the words path is already fast there)."""


def overlap_point(a: MaskStorage, b: MaskStorage, ox: float, oy: float) -> tuple[int, int] | None:
    """The pixel ``Mask.overlap`` answers: at a whole offset the one pygame's
    ``Mask.overlap`` returns (the first in its scan of 64-pixel word columns, see
    :func:`collide2d._kernels.mask.bits.first_overlap_striped`), else the first row by row.
    Large solid shapes first ask their runs whether they meet at all (a near miss of
    two 8192-pixel disks is then decided without scanning their words)."""
    pair = _word_pair(a, b)
    if pair is None:
        if runs_kernels.runs_overlap(*a.runs(), *b.runs(), float(ox), float(oy), True) <= 0.0:
            return None
        pair = (a.words(), b.words())
    x, y = bits.overlap_point(*pair, float(ox), float(oy))
    return None if y < 0 else (int(x), int(y))


def overlap_area(a: MaskStorage, b: MaskStorage, ox: float, oy: float) -> float:
    """The area the two pixel sets share (an ``int`` at whole offsets)."""
    pair = _word_pair(a, b)
    whole = ox == math.floor(ox) and oy == math.floor(oy)
    if pair is None:
        if whole:
            spans_a, spans_b = a.spans(), b.spans()
            if spans_a is not None and spans_b is not None:  # one run a row: no merging
                return int(runs_kernels.spans_overlap(*spans_a, *spans_b, int(ox), int(oy)))
        area = float(runs_kernels.runs_overlap(*a.runs(), *b.runs(), float(ox), float(oy), False))
        return int(area) if whole else area
    counts = bits.overlap_counts(*pair, float(ox), float(oy))
    if whole:
        return int(counts[0])
    _, _, wx = shifts(ox)
    _, _, wy = shifts(oy)
    return math.fsum(
        float(counts[2 * i + j]) * wy[i] * wx[j] for i in range(len(wy)) for j in range(len(wx))
    )


def overlap_words(a: MaskStorage, b: MaskStorage, ox: float, oy: float) -> WordArray | None:
    """The packed words (as :meth:`MaskStorage.words`) of the pixels of ``a`` that share
    area with ``b``; None (an empty mask) when the runs found none."""
    pair = _word_pair(a, b)
    if pair is None:
        columns = max(1, -(-a.width // 64))
        words: WordArray = runs_kernels.runs_overlap_words(
            *a.runs(), *b.runs(), float(ox), float(oy), columns
        )
        return words if words.shape[0] else None
    out = np.empty(pair[0].shape, np.uint64)  # cheaper here than inside the kernel
    bits.overlap_words(*pair, float(ox), float(oy), out)
    return out


def overlaps_box(a: MaskStorage, left: float, top: float, right: float, bottom: float) -> bool:
    """Whether the box overlaps the mask's solid region, the interior of the union of
    its solid pixels' closed squares. For a box with area that is: a solid pixel's
    open square overlaps the open box (pixel ``x`` with ``x < right`` and
    ``left < x + 1``, likewise in y)."""
    x0 = max(0, math.floor(left))  # the first x with x + 1 > left
    x1 = min(a.width, math.ceil(right))  # past the last x with x < right
    y0 = max(0, math.floor(top))
    y1 = min(a.height, math.ceil(bottom))
    if x0 >= x1 or y0 >= y1 or not (left < right and top < bottom):
        return _point_box(a, left, top, right, bottom)
    return bool(a.bits[y0:y1, x0:x1].any())


def _point_box(a: MaskStorage, left: float, top: float, right: float, bottom: float) -> bool:
    """Degenerate boxes (zero width or height: a point or a segment, open along its
    length): whether they meet the interior of the union of the solid pixels. A point
    inside a pixel needs that pixel solid; on a seam, the two pixels beside it; on a
    pixel corner, all four. So a point on the seam between two solid pixels overlaps
    the mask and a point on its outline does not."""
    if not (left <= right and top <= bottom):
        return False
    pixels = a.bits
    w, h = a.size
    for columns in cell_groups(left, right, w):
        for rows in cell_groups(top, bottom, h):
            if all(0 <= u < w and 0 <= v < h and pixels[v, u] for u in columns for v in rows):
                return True
    return False


def cell_groups(lo: float, hi: float, size: int) -> list[range]:
    """Along one axis of ``size`` pixels, the groups of pixel indices an interval meets,
    any one of which may hold it: each cell the open interval ``(lo, hi)`` crosses, or,
    for a single coordinate, the one cell holding it (two when it lies on a seam)."""
    if lo < hi:
        first = max(0, math.floor(lo))
        return [range(v, v + 1) for v in range(first, min(size, math.ceil(hi)))]
    cell = math.floor(lo)
    return [range(cell - 1, cell + 1) if cell == lo else range(cell, cell + 1)]


def overlaps_disc(a: MaskStorage, cx: float, cy: float, r: float) -> bool:
    """Whether a solid pixel's closed square lies closer than ``r`` to ``(cx, cy)``."""
    if r == 0.0:
        return overlaps_box(a, cx, cy, cx, cy)
    x0 = max(0, math.floor(cx - r))
    x1 = min(a.width, math.ceil(cx + r) + 1)
    y0 = max(0, math.floor(cy - r))
    y1 = min(a.height, math.ceil(cy + r) + 1)
    if x0 >= x1 or y0 >= y1:
        return False
    xs = np.arange(x0, x1, dtype=np.float64)
    ys = np.arange(y0, y1, dtype=np.float64)
    dx = np.maximum(np.maximum(xs - cx, 0.0), cx - (xs + 1.0))
    dy = np.maximum(np.maximum(ys - cy, 0.0), cy - (ys + 1.0))
    if r < SQUARE_UNDERFLOW:  # exact scaling, as in collide2d.geometry.overlap
        dx, dy, r = dx * UNDERFLOW_SCALE, dy * UNDERFLOW_SCALE, r * UNDERFLOW_SCALE
    near = dy[:, None] ** 2 + dx[None, :] ** 2 < r * r
    return bool((near & a.bits[y0:y1, x0:x1]).any())


def _limits(
    a: MaskStorage, b: MaskStorage, max_level: int | None, other_max_level: int | None
) -> tuple[int, int]:
    ta, tb = a.quadtree(), b.quadtree()
    return _level(max_level, ta.max_level, "max_level"), _level(
        other_max_level, tb.max_level, "other_max_level"
    )


def _level(level: int | None, deepest: int, name: str) -> int:
    if level is None:
        return deepest
    if isinstance(level, bool) or not isinstance(level, int) or level < 0:
        raise ValueError(f"{name} must be an int >= 0 or None, got {level!r}")
    return min(level, deepest)


def _tree_args(mask: MaskStorage, limit: int) -> tuple[object, ...]:
    p = mask.quadtree().pyramid
    return (p.solid, p.full, p.offsets, p.blocks, p.depth, p.width, p.height, limit)


def count_traversal(trees: tuple[MaskStorage, ...], counters: NDArray[np.int64]) -> None:
    """Record a traversal's ``counters`` (tests, visits) in the stats of each tree."""
    for mask in trees:
        stats = mask.quadtree().stats
        stats.begin()
        stats.count(int(counters[0]), int(counters[1]))


def tree_overlaps(
    a: MaskStorage,
    b: MaskStorage,
    offset: tuple[float, float],
    max_level: int | None,
    other_max_level: int | None,
) -> bool:
    """The quadtree test: full nodes and nodes at the level limits count as solid."""
    la, lb = _limits(a, b, max_level, other_max_level)
    if not (a.width and a.height and b.width and b.height):
        return False
    none = np.zeros((0, 5), dtype=np.int64)
    counters = np.zeros(2, dtype=np.int64)
    found = mask_tree.tree_pairs(
        *_tree_args(a, la), *_tree_args(b, lb), offset[0], offset[1], True, none, none, counters
    )
    count_traversal((a, b), counters)
    return bool(found)


def tree_pairs(
    a: MaskStorage,
    b: MaskStorage,
    offset: tuple[float, float],
    max_level: int | None,
    other_max_level: int | None,
) -> NodePairs:
    """Every pair of intersecting nodes at the level limits."""
    la, lb = _limits(a, b, max_level, other_max_level)
    rows_a = np.zeros((0, 5), dtype=np.int64)
    rows_b = rows_a
    if a.width and a.height and b.width and b.height:
        capacity = 256
        while True:
            rows_a = np.empty((capacity, 5), dtype=np.int64)
            rows_b = np.empty((capacity, 5), dtype=np.int64)
            counters = np.zeros(2, dtype=np.int64)
            args = (*_tree_args(a, la), *_tree_args(b, lb), offset[0], offset[1], False)
            found = int(mask_tree.tree_pairs(*args, rows_a, rows_b, counters))
            if found <= capacity:
                rows_a, rows_b = rows_a[:found], rows_b[:found]
                break
            capacity = found
        count_traversal((a, b), counters)

    def rects(rows: NDArray[np.int64]) -> FloatArray:
        out = np.empty((rows.shape[0], 4))
        out[:, 0] = rows[:, 1]
        out[:, 1] = rows[:, 2]
        out[:, 2] = rows[:, 3] - rows[:, 1]
        out[:, 3] = rows[:, 4] - rows[:, 2]
        return out

    return NodePairs(
        rects(rows_a), rects(rows_b), rows_a[:, 0].astype(np.intp), rows_b[:, 0].astype(np.intp)
    )
