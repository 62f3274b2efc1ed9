"""Mask-against-mask and mask-against-shape queries at any offset.

Other's pixel ``u`` sits at ``[u + ox, u + ox + 1)``. It overlaps our pixel ``x`` (the
open squares share area) exactly when ``x - 1 < u + ox < x + 1``: with
``ox = kx + fx``, ``0 <= fx < 1``, that is ``u = x - kx`` (sharing ``1 - fx``) and,
when ``fx > 0``, also ``u = x - kx - 1`` (sharing ``fx``). So a fractional offset
is two whole-pixel shifts per axis, and the packed-row kernels of
``collide2d._kernels.bits`` answer every query exactly.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import NDArray

if TYPE_CHECKING:
    from collide2d.mask.mask import Mask, NodePairs


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


def _meet(a: Mask, b: Mask, ox: float, oy: float) -> tuple[int, int, int, int] | None:
    """The shifts ``sx0, nsx, sy0, nsy``, or None when the masks cannot share a pixel."""
    sx0 = math.floor(ox)
    sy0 = math.floor(oy)
    nsx = 1 if ox == sx0 else 2
    nsy = 1 if oy == sy0 else 2
    aw, ah = a._size
    bw, bh = b._size
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


def _word_pair(a: Mask, b: Mask) -> tuple[NDArray[np.uint64], NDArray[np.uint64]] | None:
    """The packed words of both masks, or None when their runs are the cheaper
    representation (runs are built for large masks only, and chosen when few).

    Flat on purpose: it runs before every query, and at 512 x 512 a query's Python
    costs as much as the kernel's scan of the words.
    """
    aw, ah = a._size
    bw, bh = b._size
    if (a._runs is not None or b._runs is not None or ah * aw + bh * bw >= SMALL_PIXELS) and (
        _few_runs(a, b)
    ):
        return None
    if _any_overlap is None:
        _import_kernels()
    return (
        a._words if a._words is not None else a.words(),
        b._words if b._words is not None else b.words(),
    )


def overlaps(a: Mask, b: Mask, ox: float, oy: float) -> bool:
    """The hot path of :meth:`Mask.overlaps` (small sprites call it often)."""
    pair = _word_pair(a, b)
    if pair is None:
        return _runs_kernel()(*a.runs(), *b.runs(), float(ox), float(oy), True) > 0.0
    return _any_overlap(*pair, float(ox), float(oy))  # type: ignore[misc]


RUNS_PER_WORD = 0.25
"""Runs are used when the masks have fewer runs than this many per packed word: each
run costs a few more operations than a word."""


SMALL_PIXELS = 2 * 1024 * 1024
"""Below this many pixels in the two masks, runs are not built just to answer a
query (the words path is already fast there)."""


def _few_runs(a: Mask, b: Mask) -> bool:
    """Whether the run representation is the cheaper one for this pair (the words
    path wins on noisy content, the runs path on solid shapes)."""
    runs_a = a._runs if a._runs is not None else a.runs()
    runs_b = b._runs if b._runs is not None else b.runs()
    aw, ah = a._size
    bw, bh = b._size
    words = ah * ((aw + 63) >> 6) + bh * ((bw + 63) >> 6)
    return len(runs_a[1]) + len(runs_b[1]) < RUNS_PER_WORD * words


_runs_overlap: Callable[..., float] | None = None  # the kernel, imported on first use


def _runs_kernel() -> Callable[..., float]:
    global _runs_overlap
    if _runs_overlap is None:
        from collide2d._kernels.runs import runs_overlap

        _runs_overlap = runs_overlap
    return _runs_overlap


_any_overlap: Callable[..., bool] | None = None  # the kernel, imported on first use


def _import_kernels() -> None:
    """Import the word kernels (numba compiles or loads them: not at package import)."""
    global _any_overlap, _overlap_counts, _overlap_words
    from collide2d._kernels.bits import any_overlap, overlap_counts, overlap_words

    _any_overlap = any_overlap
    _overlap_counts = overlap_counts
    _overlap_words = overlap_words


def first_overlap(a: Mask, b: Mask, ox: float, oy: float) -> tuple[int, int] | None:
    from collide2d._kernels.bits import first_overlap as first

    meet = _meet(a, b, ox, oy)
    if meet is None:
        return None
    x, y = first(a.words(), b.words(), *meet)
    return None if y < 0 else (int(x), int(y))


def overlap_area(a: Mask, b: Mask, ox: float, oy: float) -> float:
    pair = _word_pair(a, b)
    whole = ox == math.floor(ox) and oy == math.floor(oy)
    if pair is None:
        area = float(_runs_kernel()(*a.runs(), *b.runs(), float(ox), float(oy), False))
        return int(area) if whole else area
    counts = _overlap_counts(*pair, float(ox), float(oy))  # type: ignore[misc]
    if whole:
        return int(counts[0])
    _, _, wx = shifts(ox)
    _, _, wy = shifts(oy)
    return math.fsum(
        float(counts[2 * i + j]) * wy[i] * wx[j] for i in range(len(wy)) for j in range(len(wx))
    )


_overlap_counts: Callable[..., tuple[int, int, int, int]] | None = None  # likewise
_overlap_words: Callable[..., None] | None = None  # likewise


def overlap_words(a: Mask, b: Mask, ox: float, oy: float) -> NDArray[np.uint64] | None:
    """The packed words (as :meth:`Mask.words`) of the pixels of ``a`` that share
    area with ``b``; None (an empty mask) when the runs found none."""
    pair = _word_pair(a, b)
    if pair is None:
        from collide2d._kernels.runs import runs_overlap_words

        columns = max(1, -(-a._size[0] // 64))
        words = runs_overlap_words(*a.runs(), *b.runs(), float(ox), float(oy), columns)
        return words if words.shape[0] else None
    out = np.empty(pair[0].shape, np.uint64)  # cheaper here than inside the kernel
    _overlap_words(*pair, float(ox), float(oy), out)  # type: ignore[misc]
    return out


def overlaps_box(a: Mask, left: float, top: float, right: float, bottom: float) -> bool:
    """Whether a solid pixel's open square overlaps the open box: pixel ``x`` with
    ``x < right`` and ``left < x + 1``, likewise in y."""
    x0 = max(0, math.floor(left))  # the first x with x + 1 > left
    x1 = min(a.width, math.ceil(right))  # past the last x with x < right
    y0 = max(0, math.floor(top))
    y1 = min(a.height, math.ceil(bottom))
    if x0 >= x1 or y0 >= y1 or not (left < right and top < bottom):
        return _point_box(a, left, top, right, bottom)
    return bool(a.bits[y0:y1, x0:x1].any())


def _point_box(a: Mask, left: float, top: float, right: float, bottom: float) -> bool:
    """Degenerate boxes (zero width or height): a point or segment overlaps a pixel
    only when strictly inside its square, by the strict overlap formula."""
    if not (left <= right and top <= bottom):
        return False
    x0 = max(0, math.floor(left))
    x1 = min(a.width, math.ceil(right) if right > left else math.floor(left) + 1)
    y0 = max(0, math.floor(top))
    y1 = min(a.height, math.ceil(bottom) if bottom > top else math.floor(top) + 1)
    for y in range(y0, y1):
        for x in range(x0, x1):
            if a.bits[y, x] and x < right and left < x + 1 and y < bottom and top < y + 1:
                return True
    return False


def overlaps_disc(a: Mask, cx: float, cy: float, r: float) -> bool:
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
    near = dy[:, None] ** 2 + dx[None, :] ** 2 < r * r
    return bool((near & a.bits[y0:y1, x0:x1]).any())


def _limits(
    a: Mask, b: Mask, max_level: int | None, other_max_level: int | None
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


def _tree_args(mask: Mask, limit: int) -> tuple[object, ...]:
    p = mask.quadtree().pyramid
    return (p.solid, p.full, p.offsets, p.blocks, p.depth, p.width, p.height, limit)


def tree_overlaps(
    a: Mask,
    b: Mask,
    offset: tuple[float, float],
    max_level: int | None,
    other_max_level: int | None,
) -> bool:
    """The quadtree test: full nodes and nodes at the level limits count as solid."""
    from collide2d._kernels.mask_tree import tree_pairs as walk

    la, lb = _limits(a, b, max_level, other_max_level)
    if not (a.width and a.height and b.width and b.height):
        return False
    none = np.zeros((0, 5), dtype=np.int64)
    return bool(
        walk(*_tree_args(a, la), *_tree_args(b, lb), offset[0], offset[1], True, none, none)  # type: ignore[call-arg]
    )


def tree_pairs(
    a: Mask,
    b: Mask,
    offset: tuple[float, float],
    max_level: int | None,
    other_max_level: int | None,
) -> NodePairs:
    """Every pair of intersecting nodes at the level limits."""
    from collide2d._kernels.mask_tree import tree_pairs as walk
    from collide2d.mask.mask import NodePairs

    la, lb = _limits(a, b, max_level, other_max_level)
    rows_a = np.zeros((0, 5), dtype=np.int64)
    rows_b = rows_a
    if a.width and a.height and b.width and b.height:
        capacity = 256
        while True:
            rows_a = np.empty((capacity, 5), dtype=np.int64)
            rows_b = np.empty((capacity, 5), dtype=np.int64)
            args = (*_tree_args(a, la), *_tree_args(b, lb), offset[0], offset[1], False)
            found = int(walk(*args, rows_a, rows_b))  # type: ignore[call-arg]
            if found <= capacity:
                rows_a, rows_b = rows_a[:found], rows_b[:found]
                break
            capacity = found

    def rects(rows: NDArray[np.int64]) -> NDArray[np.float64]:
        out = np.empty((rows.shape[0], 4))
        out[:, 0] = rows[:, 1]
        out[:, 1] = rows[:, 2]
        out[:, 2] = rows[:, 3] - rows[:, 1]
        out[:, 3] = rows[:, 4] - rows[:, 2]
        return out

    return NodePairs(
        rects(rows_a), rects(rows_b), rows_a[:, 0].astype(np.intp), rows_b[:, 0].astype(np.intp)
    )
