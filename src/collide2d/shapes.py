"""The shape-generic front: ``overlaps``, ``sweep`` and ``raycast`` of any two shapes.

Every public pair test goes through here, for :class:`~collide2d.Rect`,
:class:`~collide2d.Circle` and :class:`~collide2d.PlacedMask` in every combination
and both orders, in world coordinates. Each function picks the per-shape code
below it (``collide2d.geometry`` for overlap, ``collide2d.continuous`` for rects and
circles in motion, ``collide2d.mask`` for masks) by the exact types, rect and
circle pairs first, so the common calls stay cheap. The World calls these.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from collide2d._kernels import lazy
from collide2d.continuous.circle import sweep_circle_circle, sweep_circle_rect
from collide2d.continuous.hit import Hit, RayHit
from collide2d.continuous.polygon import raycast_outline, sweep_circle_outline, sweep_outlines
from collide2d.continuous.polygon_compiled import UNSETTLED, Packed, packed, sweep_soon
from collide2d.continuous.ray import raycast as raycast_rect_or_circle
from collide2d.continuous.rect import sweep_rect_rect
from collide2d.geometry import _checks
from collide2d.geometry.circle import Circle
from collide2d.geometry.convex import as_outline, outline, overlaps_convex
from collide2d.geometry.overlap import (
    as_shape,
    overlaps_circle_circle,
    overlaps_circle_rect,
)
from collide2d.geometry.overlap import overlaps as overlaps_rect_or_circle
from collide2d.geometry.placed_polygon import PlacedPolygon, placed_outline
from collide2d.geometry.polygon import Polygon
from collide2d.geometry.rect import Rect
from collide2d.geometry.segment import Segment
from collide2d.geometry.vec2 import Vec2
from collide2d.mask.placed import PlacedMask
from collide2d.mask.polygon import overlaps_mask_outline, sweep_mask_outline
from collide2d.mask.sweep import raycast_mask, sweep_masks, sweep_shape
from collide2d.tolerances import EXACT_ORIENT_RANGE

AnyShape = Rect | Circle | PlacedMask | PlacedPolygon
"""Every shape the World takes as an item (it takes a plain ``Polygon`` as placed at
``(0, 0)``)."""

FrontShape = Rect | Circle | PlacedMask | Polygon | PlacedPolygon | Segment
"""Every shape the front accepts."""

_CONVEX = (Polygon, Segment)
"""The shapes that go through the exact separating-axis code (with a ``Rect`` or
each other)."""

_STILL = Vec2(0.0, 0.0)


def overlaps(a: FrontShape, b: FrontShape) -> bool:
    """Return whether two shapes overlap, strictly (touching is not overlapping).

    Parameters
    ----------
    a, b : Rect, Circle, Polygon, PlacedPolygon, Segment or PlacedMask
        The shapes, in any combination. A placed mask overlaps a shape when one of
        its solid pixels' open squares does.

    Raises
    ------
    TypeError
        If a shape is none of these.

    Examples
    --------
    >>> from collide2d import Mask
    >>> overlaps(Rect(0, 0, 10, 10), Circle(12, 5, 3))
    True
    >>> overlaps(Rect(0, 0, 10, 10), Rect(10, 0, 5, 5))
    False
    >>> overlaps(PlacedMask(Mask((4, 4), fill=True), 10, 0), Rect(13.5, 3.5, 1, 1))
    True
    """
    ta = type(a)
    tb = type(b)
    # Rects and circles first, by exact type: the calls a game makes most. This repeats
    # geometry.overlaps's dispatch on purpose: a call less on the hottest path.
    if ta is Rect:
        if tb is Rect:
            ax, ay, aw, ah = a  # type: ignore[misc]
            bx, by, bw, bh = b  # type: ignore[misc]
            return ax < bx + bw and bx < ax + aw and ay < by + bh and by < ay + ah  # type: ignore[operator]
        if tb is Circle:
            return overlaps_circle_rect(b, a)  # type: ignore[arg-type]
    elif ta is Circle:
        if tb is Rect:
            return overlaps_circle_rect(a, b)  # type: ignore[arg-type]
        if tb is Circle:
            return overlaps_circle_circle(a, b)  # type: ignore[arg-type]
    elif ta is Polygon:
        if tb is Polygon:  # (polygons_overlap written out, as rects are: a call less)
            pa: Packed = a._packed or packed(a)  # type: ignore[union-attr,arg-type]
            pb: Packed = b._packed or packed(b)  # type: ignore[union-attr,arg-type]
            if pa[6] <= pb[4] or pb[6] <= pa[4]:
                return False  # apart or touching along x (the test a far pair fails first)
            dx = pb[0] - pa[0]
            dy = pb[1] - pa[1]
            distance2 = dx * dx + dy * dy
            reach = pa[2] + pb[2]
            if distance2 < reach * reach:  # inner discs that meet (discs.inner_discs_meet)
                return True
            reach = pa[3] + pb[3]
            if distance2 >= reach * reach:  # outer discs apart (discs.outer_discs_apart)
                return False
            if pa[7] <= pb[5] or pb[7] <= pa[5]:
                return False  # apart or touching along y
            if pa[8] and pb[8]:
                return (_compiled[0] if _compiled else _overlap_kernels()[0])(
                    pa[8], pa[9], pb[8], pb[9]
                )  # fmt: skip
            return overlaps_convex(a, b)
        if tb is Rect:
            return polygons_overlap(a, b)  # type: ignore[arg-type]
    if tb is Polygon and ta is Rect:
        return polygons_overlap(b, a)  # type: ignore[arg-type]
    if isinstance(a, PlacedPolygon) or isinstance(b, PlacedPolygon):
        return overlaps(_unplaced(a), _unplaced(b))
    if isinstance(a, _CONVEX) or isinstance(b, _CONVEX):
        return _convex_overlaps(a, b)
    if isinstance(a, PlacedMask):
        return _mask_overlaps(a, b, "b")
    if isinstance(b, PlacedMask):
        return _mask_overlaps(b, a, "a")
    return overlaps_rect_or_circle(a, b)


_compiled: list[Callable[..., bool]] = []


def _overlap_kernels() -> list[Callable[..., bool]]:
    """The compiled pair tests (polygon and polygon, polygon and box), called through
    their compiled entry points: numba's dispatcher would spend longer choosing the
    overload than the test takes. They take each outline by its address (an integer
    unboxes in about a quarter of an array's time)."""
    if not _compiled:
        kernels = lazy("pairs.polygons")
        square = np.array([[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]])
        at = square.ctypes.data
        kernels.polygons_overlap(at, 4, at, 4)  # compiled (or loaded) for these types
        kernels.polygon_box_overlap(at, 4, 0.0, 0.0, 1.0, 1.0)
        for kernel in (kernels.polygons_overlap, kernels.polygon_box_overlap):
            try:
                entry = kernel.overloads[kernel.signatures[0]].entry_point
            except (AttributeError, IndexError, KeyError):  # pragma: no cover - numba changed
                entry = kernel
            _compiled.append(entry)
    return _compiled


def polygons_overlap(a: Polygon, b: Polygon | Rect) -> bool:
    """``overlaps`` of a polygon with a polygon or a rectangle: the bounds first, then
    the compiled exact separating-axis test (the exact Python one for coordinates
    beyond ``tolerances.EXACT_ORIENT_RANGE``, and for rectangles of zero size)."""
    _, _, _, _, al, at, ar, ab, a_at, na, _, _ = a._packed or packed(a)
    if type(b) is Rect:
        bl, bt, w, h = b
        br = bl + w
        bb = bt + h
        if not (bl < br and bt < bb):
            return overlaps_convex(a, b)
        if ar <= bl or br <= al or ab <= bt or bb <= at:
            return False
        low, high = EXACT_ORIENT_RANGE
        if not (
            a_at
            and (bl == 0.0 or low <= abs(bl) <= high)
            and (bt == 0.0 or low <= abs(bt) <= high)
            and (br == 0.0 or low <= abs(br) <= high)
            and (bb == 0.0 or low <= abs(bb) <= high)
        ):  # (written out: a generator over the four costs twice the rest of the call)
            return overlaps_convex(a, b)
        return (_compiled[1] if _compiled else _overlap_kernels()[1])(a_at, na, bl, bt, br, bb)
    _, _, _, _, bl, bt, br, bb, b_at, nb, _, _ = b._packed or packed(b)  # type: ignore[union-attr,arg-type]
    if ar <= bl or br <= al or ab <= bt or bb <= at:  # boxes apart or touching
        return False
    if a_at and b_at:
        return (_compiled[0] if _compiled else _overlap_kernels()[0])(a_at, na, b_at, nb)
    return overlaps_convex(a, b)


def _convex_overlaps(a: object, b: object) -> bool:
    """``overlaps`` when a side is a polygon or a segment: exact, see
    :mod:`collide2d.geometry.convex`."""
    if isinstance(a, PlacedMask):
        return overlaps_mask_outline(a.mask, a.x, a.y, as_outline(b, "b"))
    if isinstance(b, PlacedMask):
        return overlaps_mask_outline(b.mask, b.x, b.y, as_outline(a, "a"))
    return overlaps_convex(a, b)


def _mask_overlaps(placed: PlacedMask, other: object, name: str) -> bool:
    mask, x, y = placed
    if isinstance(other, PlacedMask):
        return mask.overlaps(other.mask, (other.x - x, other.y - y))
    shape = as_shape(other, name)
    if isinstance(shape, Rect):
        return mask.overlaps_rect(shape, (-x, -y))
    return mask.overlaps_circle(shape, (-x, -y))


def sweep(
    a: FrontShape,
    a_delta: tuple[float, float],
    b: FrontShape,
    b_delta: tuple[float, float] = _STILL,
) -> Hit | None:
    """Find the first moment of the frame at which two moving shapes overlap.

    ``a`` moves by ``a_delta`` and ``b`` by ``b_delta`` over the same frame. The
    test works in ``b``'s frame (relative motion ``a_delta - b_delta``), so nothing
    tunnels at any speed.

    Parameters
    ----------
    a : Rect, Circle, Polygon, PlacedPolygon, Segment or PlacedMask
        The mover.
    a_delta : Vec2 or 2-sequence of float
        ``a``'s translation over the frame.
    b : Rect, Circle, Polygon, PlacedPolygon, Segment or PlacedMask
        The obstacle. With a ``PlacedMask`` on either side the hit names the pixels
        that met (``pixel`` for ``a``, ``other_pixel`` for ``b``).
    b_delta : Vec2 or 2-sequence of float, optional
        ``b``'s translation over the frame; still by default.

    Returns
    -------
    Hit or None
        ``None`` when the shapes do not start to overlap during ``[0, 1)``. Touching
        and moving into each other hits at ``fraction == 0``; sliding along or moving
        apart does not hit; reaching contact exactly at the end of the frame does not
        hit; shapes that already overlap give ``fraction == 0`` and
        ``started_overlapping``. ``a`` may move by ``a_delta * hit.fraction``. The
        hit's ``point`` is in world coordinates.

    Raises
    ------
    TypeError
        If a shape is none of the above, or a delta is not a point.
    ValueError
        If a delta is NaN or infinite.

    Notes
    -----
    For rectangles with integer coordinates, sizes and deltas up to ``2**20`` every
    decision equals exact rational arithmetic and ``fraction`` is the correctly
    rounded exact value.

    Examples
    --------
    >>> hit = sweep(Rect(0, 0, 10, 10), (30, 0), Rect(25, 5, 10, 10))
    >>> hit.fraction, hit.normal, hit.point
    (0.5, Vec2(x=-1.0, y=0.0), Vec2(x=25.0, y=7.5))
    >>> sweep(Rect(0, 0, 10, 10), (10, 0), Rect(20, 0, 10, 10)) is None  # contact at 1
    True
    >>> sweep(Circle(0, 0, 1), (4, 0), Circle(6, 0, 1), (-4, 0)).fraction
    0.5
    """
    ax, ay = _checks.xy(a_delta, "a_delta")
    bx, by = _checks.xy(b_delta, "b_delta")
    dx = ax - bx
    dy = ay - by
    ta = type(a)
    tb = type(b)
    if ta is Rect and tb is Rect:
        return sweep_rect_rect(a, dx, dy, b, bx, by)  # type: ignore[arg-type]
    if ta is Circle and tb is Circle:
        return sweep_circle_circle(a, dx, dy, b, bx, by)  # type: ignore[arg-type]
    if ta is Circle and tb is Rect:
        return sweep_circle_rect(a, dx, dy, b, bx, by)  # type: ignore[arg-type]
    if ta is Rect and tb is Circle:
        # Swap roles: the circle moves by -d in the frame of the rectangle, which moves by
        # a_delta; the normal must point from b back toward a, so it flips.
        hit = sweep_circle_rect(b, -dx, -dy, a, ax, ay)  # type: ignore[arg-type]
        return None if hit is None else _flipped(hit)
    if ta is PlacedPolygon or tb is PlacedPolygon:
        return sweep(_unplaced(a), (ax, ay), _unplaced(b), (bx, by))
    if (ta is Polygon or ta is Rect) and (tb is Polygon or tb is Rect):  # not both Rect
        found = sweep_soon(a, (ax, ay), b, (bx, by))  # type: ignore[arg-type]
        if found is not UNSETTLED:
            return found  # type: ignore[return-value]
    if isinstance(a, _CONVEX) or isinstance(b, _CONVEX):
        return _convex_sweep(a, (ax, ay), b, (bx, by))
    if isinstance(a, PlacedMask) or isinstance(b, PlacedMask):
        return _sweep_placed(a, (ax, ay), b, (bx, by))
    return sweep(as_shape(a, "a"), (ax, ay), as_shape(b, "b"), (bx, by))


def _convex_sweep(
    a: object, a_delta: tuple[float, float], b: object, b_delta: tuple[float, float]
) -> Hit | None:
    """``sweep`` when a side is a polygon or a segment: exact, see
    :mod:`collide2d.continuous.polygon`."""
    if isinstance(b, PlacedMask):
        return sweep_mask_outline(b.mask, b.x, b.y, b_delta, as_outline(a, "a"), a_delta)
    if isinstance(a, PlacedMask):
        hit = sweep_mask_outline(a.mask, a.x, a.y, a_delta, as_outline(b, "b"), b_delta)
        return None if hit is None else _flipped(hit)
    if isinstance(a, Circle):
        return sweep_circle_outline(a, a_delta, as_outline(b, "b"), b_delta)
    if isinstance(b, Circle):
        hit = sweep_circle_outline(b, b_delta, as_outline(a, "a"), a_delta)
        return None if hit is None else _flipped(hit)
    return sweep_outlines(as_outline(a, "a"), a_delta, as_outline(b, "b"), b_delta)


def _unplaced(shape: FrontShape) -> FrontShape:
    """A placed polygon's outline in the world; any other shape as it is."""
    return placed_outline(shape) if type(shape) is PlacedPolygon else shape


def _flipped(hit: Hit) -> Hit:
    """The hit seen from the other side: normal reversed, pixel fields swapped."""
    fraction, normal, point, started, pixel, other_pixel, depth = hit
    flipped = Vec2(0.0 - normal[0], 0.0 - normal[1])  # no negative zeros
    return Hit(fraction, flipped, point, started, other_pixel, pixel, depth)


def _sweep_placed(
    a: object, a_delta: tuple[float, float], b: object, b_delta: tuple[float, float]
) -> Hit | None:
    """``sweep`` when a side is a :class:`PlacedMask`: the mask code works in the mask's
    own coordinates, so shapes go in moved by minus its corner and points come out
    moved back."""
    if isinstance(a, PlacedMask) and isinstance(b, PlacedMask):
        hit = sweep_masks(a.mask, b.mask, (b.x - a.x, b.y - a.y), a_delta, b_delta, None, None)
        corner = (a.x, a.y)
    elif isinstance(b, PlacedMask):  # a shape moving against a mask
        shape = as_shape(a, "a").moved((-b.x, -b.y))
        hit = sweep_shape(b.mask, shape, a_delta, b_delta, None)
        corner = (b.x, b.y)
    else:  # a mask moving against a shape: swap, then flip the normal
        placed: PlacedMask = a  # type: ignore[assignment]
        shape = as_shape(b, "b").moved((-placed.x, -placed.y))
        swapped = sweep_shape(placed.mask, shape, b_delta, a_delta, None)
        hit = None if swapped is None else _flipped(swapped)
        corner = (placed.x, placed.y)
    return None if hit is None else hit._replace(point=hit.point + corner)


def raycast(
    origin: tuple[float, float], delta: tuple[float, float], shape: FrontShape
) -> RayHit | None:
    """Cast the segment from ``origin`` to ``origin + delta`` against a shape.

    The segment hits when it enters the shape's open interior at a fraction in
    ``[0, 1)``: grazing along an edge or touching a corner is no hit, and reaching
    the boundary exactly at the end of the segment is no hit.

    Parameters
    ----------
    origin : Vec2 or 2-sequence of float
        Where the segment starts.
    delta : Vec2 or 2-sequence of float
        The segment's direction and length.
    shape : Rect, Circle, Polygon, PlacedPolygon, Segment or PlacedMask
        The target. Rectangles use the slab method (Ericson 5.3.3), with motion
        parallel to an axis handled explicitly; circles the stable quadratic
        formula (Ericson 5.3.2); masks enter at the first solid pixel's open square
        and leave where the line meets an empty pixel.

    Returns
    -------
    RayHit or None
        Entry ``fraction``, ``exit_fraction``, entry ``normal``, entry ``point`` (world
        coordinates) and whether the origin started inside; ``None`` when the
        segment misses.

    Examples
    --------
    >>> hit = raycast((0, 5), (20, 0), Rect(10, 0, 10, 10))
    >>> hit.fraction, hit.exit_fraction, hit.normal
    (0.5, 1.0, Vec2(x=-1.0, y=0.0))
    >>> raycast((0, 0), (20, 0), Rect(10, 0, 10, 10)) is None  # grazes the top edge
    True
    """
    if isinstance(shape, PlacedPolygon):
        shape = placed_outline(shape)
    if isinstance(shape, _CONVEX):
        return raycast_outline(
            _checks.xy(origin, "origin"), _checks.xy(delta, "delta"), outline(shape)
        )
    if not isinstance(shape, PlacedMask):
        return raycast_rect_or_circle(origin, delta, shape)
    ox, oy = _checks.xy(origin, "origin")
    dx, dy = _checks.xy(delta, "delta")
    hit = raycast_mask(shape.mask, ox - shape.x, oy - shape.y, dx, dy)
    if hit is None:
        return None
    return hit._replace(point=Vec2(ox + dx * hit.fraction, oy + dy * hit.fraction))
