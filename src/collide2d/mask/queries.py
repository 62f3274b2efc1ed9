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
from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import NDArray

if TYPE_CHECKING:
    from collide2d.mask.mask import BoolArray, Mask, NodePairs


def shifts(offset: float) -> tuple[NDArray[np.int64], list[float]]:
    """The whole-pixel shifts of one axis and the share of a pixel each overlaps.

    >>> shifts(3.0), shifts(-1.25)
    ((array([3]), [1.0]), (array([-2, -1]), [0.25, 0.75]))
    """
    whole = math.floor(offset)
    frac = offset - whole
    if frac == 0.0:
        return np.array([whole], dtype=np.int64), [1.0]
    return np.array([whole, whole + 1], dtype=np.int64), [1.0 - frac, frac]


def overlaps(a: Mask, b: Mask, offset: tuple[float, float]) -> bool:
    from collide2d._kernels.bits import any_overlap

    sx, _ = shifts(offset[0])
    sy, _ = shifts(offset[1])
    if not _may_meet(a, b, sx, sy):
        return False
    return bool(any_overlap(a.rows(), b.rows(), sx, sy))


def first_overlap(a: Mask, b: Mask, offset: tuple[float, float]) -> tuple[int, int] | None:
    from collide2d._kernels.bits import first_overlap as first

    sx, _ = shifts(offset[0])
    sy, _ = shifts(offset[1])
    if not _may_meet(a, b, sx, sy):
        return None
    x, y = first(a.rows(), b.rows(), sx, sy)
    return None if y < 0 else (int(x), int(y))


def overlap_area(a: Mask, b: Mask, offset: tuple[float, float]) -> float:
    from collide2d._kernels.bits import overlap_counts

    sx, wx = shifts(offset[0])
    sy, wy = shifts(offset[1])
    if not _may_meet(a, b, sx, sy):
        return 0 if len(wx) == len(wy) == 1 else 0.0
    counts = np.zeros((len(sy), len(sx)), dtype=np.uint64)
    overlap_counts(a.rows(), b.rows(), sx, sy, counts)
    if len(wx) == len(wy) == 1:
        return int(counts[0, 0])
    return math.fsum(
        float(counts[i, j]) * wy[i] * wx[j] for i in range(len(wy)) for j in range(len(wx))
    )


def overlap_bits(a: Mask, b: Mask, offset: tuple[float, float]) -> BoolArray:
    from collide2d._kernels.bits import overlap_rows

    sx, _ = shifts(offset[0])
    sy, _ = shifts(offset[1])
    h, w = a.height, a.width
    if not _may_meet(a, b, sx, sy):
        return np.zeros((h, w), dtype=bool)
    words = overlap_rows(a.rows(), b.rows(), sx, sy)
    unpacked = np.unpackbits(words.view(np.uint8), axis=1, bitorder="little")
    return unpacked[:, :w].astype(bool)


def _may_meet(a: Mask, b: Mask, sx: NDArray[np.int64], sy: NDArray[np.int64]) -> bool:
    """Whether the shifted bounds can share a pixel at all (also guards empty masks)."""
    return bool(
        a.width and a.height and b.width and b.height
        and sx[0] < a.width and sx[-1] + b.width > 0
        and sy[0] < a.height and sy[-1] + b.height > 0
    )  # fmt: skip


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
