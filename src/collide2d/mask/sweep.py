"""Exact sweeps of masks: a mask against another, and a rectangle or circle against a mask.

The first moment two pixel sets overlap is the earliest first moment of any pair
of their pixel squares, each pair a rectangle sweep with the semantics of
:func:`collide2d.sweep` (touching and moving in hits at 0, sliding along does not
hit, starting overlapped hits at 0). The quadtrees prune it: a pair of nodes
whose rectangles meet later than the best pair found so far holds no earlier pair.
The winning pair is then swept again by the scalar code of
``collide2d.continuous``, so the reported hit follows the scalar rules exactly.

Every result's ``point`` is in the coordinates of the mask called ``a`` (or
``mask``), fixed at the start of the frame: its top-left corner is ``(0, 0)``.
"""

from __future__ import annotations

import math

import numpy as np

from collide2d._kernels import lazy
from collide2d._typing import BoolArray
from collide2d.continuous._intervals import axis_interval
from collide2d.continuous.circle import sweep_circle_rect
from collide2d.continuous.hit import Hit, RayHit
from collide2d.continuous.penetration import least_penetration
from collide2d.continuous.rect import sweep_rect_rect
from collide2d.geometry.circle import Circle
from collide2d.geometry.rect import Rect
from collide2d.geometry.vec2 import Vec2
from collide2d.mask.quadtree import MaskQuadtree
from collide2d.mask.queries import (
    _level,
    _limits,
    _tree_args,
    cell_groups,
    count_traversal,
    overlap_point,
    overlaps,
    overlaps_box,
)
from collide2d.mask.storage import MaskStorage

mask_tree = lazy("mask.mask_tree")


def sweep_masks(
    a: MaskStorage,
    b: MaskStorage,
    offset: tuple[float, float],
    delta: tuple[float, float],
    other_delta: tuple[float, float],
    max_level: int | None,
    other_max_level: int | None,
) -> Hit | None:
    """Mask ``a`` moving by ``delta`` against mask ``b`` placed at ``offset`` and moving
    by ``other_delta``; the normal points from ``b`` toward ``a``."""
    if not (a.width and a.height and b.width and b.height):
        return None
    ox, oy = offset
    dx, dy = delta[0] - other_delta[0], delta[1] - other_delta[1]
    la, lb = _limits(a, b, max_level, other_max_level)
    ta, tb = a.quadtree(), b.quadtree()
    full_detail = la == ta.max_level and lb == tb.max_level
    if full_detail and overlaps(a, b, ox, oy):
        return _started(a, b, offset)
    result = np.empty(6)
    counters = np.zeros(2, dtype=np.int64)
    mask_tree.tree_sweep(*_tree_args(a, la), *_tree_args(b, lb), ox, oy, dx, dy, result, counters)
    count_traversal((a, b), counters)
    if not math.isfinite(result[0]):
        return None
    a_rect = _leaf_rect(ta, la, int(result[1]), int(result[2]))
    b_rect = _leaf_rect(tb, lb, int(result[3]), int(result[4]))
    hit = sweep_rect_rect(a_rect, dx, dy, b_rect.moved((ox, oy)), other_delta[0], other_delta[1])
    if hit is None:  # pragma: no cover - the kernel and the scalar sweep share their arithmetic
        raise RuntimeError("mask sweep found a contact the rectangle sweep does not")
    return hit._replace(
        pixel=(int(a_rect.x), int(a_rect.y)), other_pixel=(int(b_rect.x), int(b_rect.y))
    )


def sweep_shape(
    mask: MaskStorage,
    shape: Rect | Circle,
    delta: tuple[float, float],
    other_delta: tuple[float, float],
    max_level: int | None,
) -> Hit | None:
    """``shape`` (mask coordinates) moving by ``delta`` against the mask moving by
    ``other_delta``; the normal points from the mask toward the shape. The tree finds
    the first pixel (circles with float roots); the reported hit is the scalar sweep
    of the shape against that pixel, so it follows the scalar rules exactly.

    A point or a segment (a zero-size rectangle, a zero-radius circle) is held to the
    mask's solid region, the interior of the union of its solid pixels: it also hits
    when it starts on, or travels along, a seam between solid pixels, where it never
    enters a single pixel's open square (:func:`_seam_sweep`)."""
    if not (mask.width and mask.height):
        return None
    if isinstance(shape, Circle) and shape.r == 0.0:
        shape = Rect(shape.x, shape.y, 0.0, 0.0)
    tree = mask.quadtree()
    limit = _level(max_level, tree.max_level, "max_level")
    dx, dy = delta[0] - other_delta[0], delta[1] - other_delta[1]
    args = _tree_args(mask, limit)
    result = np.empty(4)
    counters = np.zeros(2, dtype=np.int64)
    if isinstance(shape, Rect):
        box = (shape.left, shape.top, shape.right, shape.bottom)
        mask_tree.tree_box_sweep(*args, *box, dx, dy, False, result, counters)
    else:
        mask_tree.tree_box_sweep(
            *args, shape.x, shape.y, shape.r, 0.0, dx, dy, True, result, counters
        )
    count_traversal((mask,), counters)
    hit = None
    if math.isfinite(result[0]):
        leaf = _leaf_rect(tree, limit, int(result[1]), int(result[2]))
        if isinstance(shape, Rect):
            hit = sweep_rect_rect(shape, dx, dy, leaf, other_delta[0], other_delta[1])
        else:
            hit = sweep_circle_rect(shape, dx, dy, leaf, other_delta[0], other_delta[1])
        if hit is not None:
            hit = hit._replace(other_pixel=(int(leaf.x), int(leaf.y)))
    degenerate = isinstance(shape, Rect) and (shape.w == 0.0 or shape.h == 0.0)
    if degenerate and limit == tree.max_level:
        return _degenerate_hit(mask, shape, dx, dy, other_delta, hit)  # type: ignore[arg-type]
    return hit


def _degenerate_hit(
    mask: MaskStorage,
    shape: Rect,
    dx: float,
    dy: float,
    other_delta: tuple[float, float],
    hit: Hit | None,
) -> Hit | None:
    """The first contact of a point or segment with the mask's solid region, given the
    first contact ``hit`` with a single pixel's open square."""
    left, top, right, bottom = shape.left, shape.top, shape.right, shape.bottom
    if hit is not None and hit.started_overlapping:
        return hit
    if overlaps_box(mask, left, top, right, bottom):  # starts on a seam inside the region
        for columns in cell_groups(left, right, mask.width):
            for rows in cell_groups(top, bottom, mask.height):
                u, v = columns[0], rows[0]
                if 0 <= u < mask.width and 0 <= v < mask.height and mask.bits[v, u]:
                    normal = least_penetration(left, top, right, bottom, u, v, u + 1, v + 1)
                    return Hit(0.0, normal, shape.center, True, None, (u, v))
    seam = _seam_sweep(mask, left, top, right, bottom, dx, dy)
    if seam is None or (hit is not None and hit.fraction <= seam[0]):
        return hit
    fraction, normal, contact, pixel = seam
    point = Vec2(contact[0] + other_delta[0] * fraction, contact[1] + other_delta[1] * fraction)
    return Hit(fraction, normal, point, False, None, pixel)


def _seam_sweep(
    mask: MaskStorage, left: float, top: float, right: float, bottom: float, dx: float, dy: float
) -> tuple[float, Vec2, tuple[float, float], tuple[int, int]] | None:
    """A point or segment travelling exactly along the seam line between two pixel rows
    (or columns) is inside the solid region where both rows are solid: a 1-D sweep of
    its extent against the runs of the two rows' AND. Returns the fraction, normal,
    contact point and the pixel met, or None (also when it does not move along a seam)."""
    w, h = mask.size
    if top == bottom and dy == 0.0 and top.is_integer() and 0 < top < h:
        v = int(top)
        line = mask.bits[v - 1] & mask.bits[v]
        lo, hi, d, across = left, right, dx, top
    elif left == right and dx == 0.0 and left.is_integer() and 0 < left < w:
        u = int(left)
        line = mask.bits[:, u - 1] & mask.bits[:, u]
        lo, hi, d, across = top, bottom, dy, left
    else:
        return None
    best: tuple[float, int, int] | None = None
    for start, end in seam_runs(line):
        enter, leave = axis_interval(lo, hi, d, float(start), float(end))
        if enter < leave and 0.0 <= enter < 1.0 and (best is None or enter < best[0]):
            best = (enter + 0.0, start, end)
    if best is None:
        return None
    fraction, start, end = best
    along = float(start) if d > 0.0 else float(end)
    cell = start if d > 0.0 else end - 1
    sign = -1.0 if d > 0.0 else 1.0
    if top == bottom and dy == 0.0:
        return fraction, Vec2(sign, 0.0), (along, across), (cell, int(across))
    return fraction, Vec2(0.0, sign), (across, along), (int(across), cell)


def seam_runs(line: BoolArray) -> list[tuple[int, int]]:
    """The runs ``[start, end)`` of True in a bool row."""
    padded = np.concatenate(([False], line, [False])).astype(np.int8)
    edges = np.flatnonzero(np.diff(padded))
    return [(int(a), int(b)) for a, b in zip(edges[::2], edges[1::2], strict=True)]


def _leaf_rect(tree: MaskQuadtree, level: int, x0: int, y0: int) -> Rect:
    """The rectangle of the node of ``level`` whose corner is ``(x0, y0)``."""
    side = (8 << tree.depth) >> level
    return tree.node_rect(level, y0 // side, x0 // side)


def _started(a: MaskStorage, b: MaskStorage, offset: tuple[float, float]) -> Hit:
    """The pre-collision record: the overlapping pixel of ``a`` that ``Mask.overlap``
    names and a pixel of ``b`` it overlaps, with the normal of least penetration
    between the two."""
    ox, oy = offset
    found = overlap_point(a, b, ox, oy)
    if found is None:  # pragma: no cover - only called when the masks overlap
        raise RuntimeError("the masks do not overlap")
    x, y = found
    pixels = b.bits
    for v in range(math.floor(y - oy), math.floor(y - oy) + 2):
        for u in range(math.floor(x - ox), math.floor(x - ox) + 2):
            inside = 0 <= v < b.height and 0 <= u < b.width
            if inside and pixels[v, u] and abs(x - (u + ox)) < 1 and abs(y - (v + oy)) < 1:
                bx, by = u + ox, v + oy
                normal = least_penetration(x, y, x + 1, y + 1, bx, by, bx + 1, by + 1)
                point = Vec2(
                    (max(x, bx) + min(x + 1, bx + 1)) / 2, (max(y, by) + min(y + 1, by + 1)) / 2
                )
                return Hit(0.0, normal, point, True, (x, y), (u, v))
    raise RuntimeError("no overlapping pixel of b found")  # pragma: no cover


def raycast_mask(mask: MaskStorage, ox: float, oy: float, dx: float, dy: float) -> RayHit | None:
    """Where the segment ``(ox, oy) + (dx, dy) * fraction`` (mask coordinates) enters the
    mask's solid region (the interior of the union of its solid pixels), and where its
    line then leaves it.

    The entry is the sweep of a point (the semantics of :func:`collide2d.raycast`:
    running along the mask's outline, or touching a corner, is no hit). The exit walks
    the pixels along the line from the entry (Amanatides and Woo, "A Fast Voxel
    Traversal Algorithm", 1987) until a pixel that is empty or outside the mask; at
    an exact corner the line stays inside only if all four pixels around the corner
    are solid; along a seam, until the two rows beside it stop being both solid.
    ``exit_fraction`` may be ``>= 1`` (the segment ends inside) and is ``inf`` for a
    zero ``delta`` that starts inside.
    """
    hit = sweep_shape(mask, Rect(ox, oy, 0.0, 0.0), (dx, dy), (0.0, 0.0), None)
    if hit is None:
        return None
    fraction = hit.fraction
    point = Vec2(ox + dx * fraction, oy + dy * fraction)
    if hit.other_pixel is None:  # pragma: no cover - sweep_shape always names the pixel
        raise RuntimeError("mask sweep without a pixel")
    leave = _exit_fraction(mask, ox, oy, dx, dy, hit)
    return RayHit(fraction, leave, hit.normal, point, hit.started_overlapping)


def _exit_fraction(
    mask: MaskStorage, ox: float, oy: float, dx: float, dy: float, hit: Hit
) -> float:
    """The first fraction at which the line of a ray that ``hit`` the mask leaves the
    solid region."""
    if dx == 0.0 and dy == 0.0:
        return math.inf
    pixels = mask.bits
    w, h = mask.size
    entered = hit.other_pixel
    if entered is None:  # pragma: no cover - sweep_shape always names the pixel
        raise RuntimeError("mask sweep without a pixel")
    if dy == 0.0 and oy.is_integer() and 0 < oy < h:  # along a seam between two rows
        line, along, d, cell = pixels[int(oy) - 1] & pixels[int(oy)], ox, dx, entered[0]
    elif dx == 0.0 and ox.is_integer() and 0 < ox < w:  # along a seam between two columns
        line, along, d, cell = pixels[:, int(ox) - 1] & pixels[:, int(ox)], oy, dy, entered[1]
    else:
        line = None
    if line is not None:
        start, end = next((a, b) for a, b in seam_runs(line) if a <= cell < b)
        return ((end if d > 0.0 else start) - along) / d
    if hit.started_overlapping:  # the pixel the line moves into from the origin
        i, j = _cell(ox, dx), _cell(oy, dy)
    else:
        i, j = entered
    step_x = 1 if dx > 0.0 else -1
    step_y = 1 if dy > 0.0 else -1
    next_x = (i + (1 if dx > 0.0 else 0) - ox) / dx if dx != 0.0 else math.inf
    next_y = (j + (1 if dy > 0.0 else 0) - oy) / dy if dy != 0.0 else math.inf

    def solid(u: int, v: int) -> bool:
        return 0 <= u < w and 0 <= v < h and bool(pixels[v, u])

    while True:
        if next_x < next_y:
            leave, i = next_x, i + step_x
            next_x = (i + (1 if dx > 0.0 else 0) - ox) / dx
            if not solid(i, j):
                return leave
        elif next_y < next_x:
            leave, j = next_y, j + step_y
            next_y = (j + (1 if dy > 0.0 else 0) - oy) / dy
            if not solid(i, j):
                return leave
        else:  # through a corner: inside only if the four pixels around it are solid
            leave = next_x
            if not (
                solid(i + step_x, j) and solid(i, j + step_y) and solid(i + step_x, j + step_y)
            ):
                return leave
            i += step_x
            j += step_y
            next_x = (i + (1 if dx > 0.0 else 0) - ox) / dx
            next_y = (j + (1 if dy > 0.0 else 0) - oy) / dy


def _cell(coordinate: float, d: float) -> int:
    """The pixel a line at ``coordinate``, moving with component ``d``, is in just after."""
    if coordinate.is_integer() and d < 0.0:
        return int(coordinate) - 1
    return math.floor(coordinate)
