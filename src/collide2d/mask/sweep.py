"""Exact sweeps of masks: against another mask, and a rectangle against a mask.

The first moment two pixel sets overlap is the earliest first moment of any pair
of their pixel squares, each pair a rectangle sweep with the semantics of
:func:`collide2d.sweep` (touching and moving in hits at 0, sliding along does not
hit, starting overlapped hits at 0). The quadtrees prune it: a pair of nodes
whose rectangles meet later than the best pair found so far holds no earlier pair.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from collide2d.geometry.circle import Circle
from collide2d.geometry.rect import Rect
from collide2d.geometry.vec2 import Vec2
from collide2d.sweep.rect import least_penetration, sweep_rect_rect

if TYPE_CHECKING:
    from collide2d.mask.mask import Mask


class MaskHit(NamedTuple):
    """The first contact of a mask sweep.

    Attributes
    ----------
    fraction : float
        In ``[0, 1)``: the first moment of the frame from which the pixel sets overlap.
    normal : Vec2
        Unit axis of first contact, pointing from the obstacle back toward the mover.
    point : Vec2
        A point of contact at that moment: for :meth:`Mask.sweep`, in the mover's
        frame at the start of the frame (its top-left corner is ``(0, 0)``); for
        ``sweep_rect`` / ``sweep_circle``, in mask coordinates; through the
        module-level ``sweep``, in world coordinates.
    started_overlapping : bool
        Whether they overlapped at the start (then ``fraction == 0``).
    pixel : tuple of int
        The mover's pixel (or, at a coarse level, node corner) that met; ``(0, 0)``
        when the mover is a rectangle or circle.
    other_pixel : tuple of int
        The obstacle's pixel (or node corner) that met, in its own coordinates;
        ``(0, 0)`` when the obstacle is a rectangle or circle.
    """

    fraction: float
    normal: Vec2
    point: Vec2
    started_overlapping: bool
    pixel: tuple[int, int]
    other_pixel: tuple[int, int]


def sweep_masks(
    a: Mask,
    b: Mask,
    offset: tuple[float, float],
    delta: tuple[float, float],
    other_delta: tuple[float, float],
    max_level: int | None,
    other_max_level: int | None,
) -> MaskHit | None:
    from collide2d._kernels.mask_tree import tree_sweep
    from collide2d.mask import queries

    if not (a.width and a.height and b.width and b.height):
        return None
    ox, oy = offset
    dx, dy = delta[0] - other_delta[0], delta[1] - other_delta[1]
    la, lb = queries._limits(a, b, max_level, other_max_level)
    full_detail = la == a.quadtree().max_level and lb == b.quadtree().max_level
    if full_detail and a.overlaps(b, offset):
        return _started(a, b, offset)
    result = np.empty(6)
    tree_sweep(*queries._tree_args(a, la), *queries._tree_args(b, lb), ox, oy, dx, dy, result)  # type: ignore[call-arg]
    if not math.isfinite(result[0]):
        return None
    ta, tb = a.quadtree(), b.quadtree()
    a_rect = _leaf_rect(ta, la, int(result[1]), int(result[2]))
    b_rect = _leaf_rect(tb, lb, int(result[3]), int(result[4]))
    hit = sweep_rect_rect(a_rect, dx, dy, b_rect.moved((ox, oy)), other_delta[0], other_delta[1])
    if hit is None:  # pragma: no cover - the kernel and the scalar sweep share their arithmetic
        raise RuntimeError("mask sweep found a contact the rectangle sweep does not")
    return MaskHit(
        hit.fraction,
        hit.normal,
        hit.point,
        hit.started_overlapping,
        (int(a_rect.x), int(a_rect.y)),
        (int(b_rect.x), int(b_rect.y)),
    )


def sweep_shape(
    mask: Mask,
    shape: Rect | Circle,
    delta: tuple[float, float],
    mask_delta: tuple[float, float],
    max_level: int | None,
) -> MaskHit | None:
    """``shape`` (mask coordinates) moving by ``delta`` against the mask moving by
    ``mask_delta``; the normal points from the mask toward the shape. The tree finds
    the first pixel (circles with float roots); the reported hit is the scalar sweep
    of the shape against that pixel, so it follows the scalar rules exactly."""
    from collide2d._kernels.mask_tree import tree_box_sweep
    from collide2d.mask import queries
    from collide2d.sweep.circle import sweep_circle_rect

    if not (mask.width and mask.height):
        return None
    limit = queries._level(max_level, mask.quadtree().max_level, "max_level")
    dx, dy = delta[0] - mask_delta[0], delta[1] - mask_delta[1]
    args = queries._tree_args(mask, limit)
    result = np.empty(4)
    if isinstance(shape, Rect):
        box = (shape.left, shape.top, shape.right, shape.bottom)
        tree_box_sweep(*args, *box, dx, dy, False, result)  # type: ignore[call-arg]
    else:
        tree_box_sweep(*args, shape.x, shape.y, shape.r, 0.0, dx, dy, True, result)  # type: ignore[call-arg]
    if not math.isfinite(result[0]):
        return None
    leaf = _leaf_rect(mask.quadtree(), limit, int(result[1]), int(result[2]))
    if isinstance(shape, Rect):
        hit = sweep_rect_rect(shape, dx, dy, leaf, mask_delta[0], mask_delta[1])
    else:
        hit = sweep_circle_rect(shape, dx, dy, leaf, mask_delta[0], mask_delta[1])
    if hit is None:  # pragma: no cover - float and exact roots disagree only at grazes
        return None
    pixel = (int(leaf.x), int(leaf.y))
    return MaskHit(hit.fraction, hit.normal, hit.point, hit.started_overlapping, (0, 0), pixel)


def _leaf_rect(tree: object, level: int, x0: int, y0: int) -> Rect:
    """The rectangle of the node of ``level`` whose corner is ``(x0, y0)``."""
    side = (8 << tree.depth) >> level  # type: ignore[attr-defined]
    return tree.node_rect(level, y0 // side, x0 // side)  # type: ignore[attr-defined, no-any-return]


def _started(a: Mask, b: Mask, offset: tuple[float, float]) -> MaskHit:
    """The pre-collision record: the first overlapping pixel of ``a`` and a pixel of
    ``b`` it overlaps, with the normal of least penetration between the two."""
    x, y = a.overlap(b, offset)  # type: ignore[misc]
    ox, oy = offset
    bits = b.bits
    for v in range(math.floor(y - oy), math.floor(y - oy) + 2):
        for u in range(math.floor(x - ox), math.floor(x - ox) + 2):
            inside = 0 <= v < b.height and 0 <= u < b.width
            if inside and bits[v, u] and abs(x - (u + ox)) < 1 and abs(y - (v + oy)) < 1:
                bx, by = u + ox, v + oy
                normal = least_penetration(x, y, x + 1, y + 1, bx, by, bx + 1, by + 1)
                point = Vec2(
                    (max(x, bx) + min(x + 1, bx + 1)) / 2, (max(y, by) + min(y + 1, by + 1)) / 2
                )
                return MaskHit(0.0, normal, point, True, (x, y), (u, v))
    raise RuntimeError("no overlapping pixel of b found")  # pragma: no cover


def sweep_placed(
    a: object, a_delta: tuple[float, float], b: object, b_delta: tuple[float, float]
) -> MaskHit | None:
    """The module-level ``sweep`` when a side is a :class:`PlacedMask` (world
    coordinates in and out; the normal points from ``b`` toward ``a``)."""
    from collide2d.geometry.overlap import as_shape
    from collide2d.mask.placed import PlacedMask

    if isinstance(a, PlacedMask) and isinstance(b, PlacedMask):
        hit = a.mask.sweep(b.mask, (b.x - a.x, b.y - a.y), a_delta, b_delta)
        return None if hit is None else hit._replace(point=hit.point + (a.x, a.y))
    if isinstance(b, PlacedMask):  # a shape moving against a mask
        shape = as_shape(a, "a").moved((-b.x, -b.y))
        hit = sweep_shape(b.mask, shape, a_delta, b_delta, None)
        return None if hit is None else hit._replace(point=hit.point + (b.x, b.y))
    if isinstance(a, PlacedMask):  # a mask moving against a shape: swap, flip the normal
        shape = as_shape(b, "b").moved((-a.x, -a.y))
        hit = sweep_shape(a.mask, shape, b_delta, a_delta, None)
        if hit is None:
            return None
        flipped = Vec2(0.0 - hit.normal.x, 0.0 - hit.normal.y)
        return MaskHit(
            hit.fraction, flipped, hit.point + (a.x, a.y), hit.started_overlapping,
            hit.other_pixel, hit.pixel,
        )  # fmt: skip
    raise TypeError("sweep_placed needs a PlacedMask")  # pragma: no cover
