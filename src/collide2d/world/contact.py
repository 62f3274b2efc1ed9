"""Where an item stands at a contact: positions of shapes, contact positions snapped
to the obstacle, and the minimum translation out of an overlap.

A shape's *position* is its ``(x, y)``: a Rect's top-left corner, a Circle's centre,
a PlacedMask's offset, a PlacedPolygon's anchor. Every position computed here is
checked with the front's exact :func:`collide2d.overlaps` and, when rounding left
the item overlapping, moved along the normal by units in the last place until it
does not: an item that slides, touches or bounces never ends overlapping what it
responded to.
"""

from __future__ import annotations

import math

import numpy as np

from collide2d._kernels.codes import SNAP_STEPS
from collide2d.continuous._intervals import axis_interval
from collide2d.continuous.hit import Hit
from collide2d.geometry.circle import Circle
from collide2d.geometry.convex import Outline, corner_axis, integers, outline
from collide2d.geometry.normals import edge_normal
from collide2d.geometry.placed_polygon import PlacedPolygon, placed_outline
from collide2d.geometry.rect import Rect
from collide2d.geometry.vec2 import Vec2
from collide2d.mask.placed import PlacedMask
from collide2d.shapes import AnyShape, overlaps, sweep
from collide2d.world.collision import Collision

_new = tuple.__new__
_STILL = (0.0, 0.0)

UP = Vec2(0.0, -1.0)
DOWN = Vec2(0.0, 1.0)
LEFT = Vec2(-1.0, 0.0)
RIGHT = Vec2(1.0, 0.0)
STOPPING = ("slide", "touch", "bounce")
"""Responses that stop the item at a contact: their simultaneous contacts are listed."""
PUSHES = (UP, DOWN, LEFT, RIGHT)
"""The four axis pushes, in the order that breaks ties (after distance and motion)."""


def position(shape: AnyShape) -> Vec2:
    """The shape's ``(x, y)``."""
    return _new(Vec2, (shape.x, shape.y))  # every shape names its position x, y


def at(shape: AnyShape, x: float, y: float) -> AnyShape:
    """``shape`` with its ``(x, y)`` at ``(x, y)`` (values already checked finite)."""
    if isinstance(shape, Rect):
        return _new(Rect, (x, y, shape.w, shape.h))
    if isinstance(shape, Circle):
        return _new(Circle, (x, y, shape.r))
    if isinstance(shape, PlacedPolygon):
        return _new(PlacedPolygon, (shape.polygon, x, y))
    return _new(PlacedMask, (shape.mask, x, y))


def bounds(shape: AnyShape) -> Rect:
    """The smallest rectangle holding the shape (a mask's whole pixel grid)."""
    if isinstance(shape, Rect):
        return shape
    if isinstance(shape, Circle):
        x, y, r = shape
        return _new(Rect, (x - r, y - r, 2.0 * r, 2.0 * r))
    if isinstance(shape, PlacedPolygon):
        return placed_outline(shape).bounding_rect
    return _new(Rect, (shape.x, shape.y, float(shape.mask.width), float(shape.mask.height)))


def centre_distance2(a: AnyShape, b: AnyShape) -> float:
    """The squared distance between the centres of the two shapes' bounds."""
    ra, rb = bounds(a), bounds(b)
    dx = (ra[0] + ra[2] * 0.5) - (rb[0] + rb[2] * 0.5)
    dy = (ra[1] + ra[3] * 0.5) - (rb[1] + rb[3] * 0.5)
    return dx * dx + dy * dy


def overlap_depth(a: AnyShape, b: AnyShape) -> float:
    """How deep two overlapping shapes are in each other, to order overlaps: the area
    of the intersection of their bounds (exact for two rectangles)."""
    ra, rb = bounds(a), bounds(b)
    w = min(ra[0] + ra[2], rb[0] + rb[2]) - max(ra[0], rb[0])
    h = min(ra[1] + ra[3], rb[1] + rb[3]) - max(ra[1], rb[1])
    return max(w, 0.0) * max(h, 0.0)


def contact_face(shape: AnyShape, delta: Vec2, hit: Hit, other: AnyShape) -> Rect | None:
    """The rectangle ``shape`` meets at ``hit`` with an axis normal (``other`` itself,
    or the pixel of a mask), when ``shape`` is a Rect; None otherwise."""
    if type(shape) is not Rect or (hit.normal[0] != 0.0 and hit.normal[1] != 0.0):
        return None
    if isinstance(other, Rect):
        return other
    if isinstance(other, PlacedMask) and hit.other_pixel is not None:
        u, v = hit.other_pixel
        return _new(Rect, (other.x + u, other.y + v, 1.0, 1.0))
    return None


def is_corner(shape: AnyShape, delta: Vec2, hit: Hit, other: AnyShape) -> bool:
    """Whether a contact meets ``other`` corner to corner: a rectangle's two axes
    enter at the same moment, or a polygon's vertex meets a vertex (such contacts
    lose ties to face contacts and are never simultaneous ones, see docs/world.md)."""
    if hit.started_overlapping:
        return False
    if type(shape) is PlacedPolygon or type(other) is PlacedPolygon:
        return corner_normal(shape, delta, other) is not None
    face = contact_face(shape, delta, hit, other)
    return face is not None and meets_at_corner(shape, delta, face)  # type: ignore[arg-type]


def corner_normal(shape: AnyShape, delta: tuple[float, float], other: AnyShape) -> Vec2 | None:
    """For a pair with a placed polygon (and a polygon or a rectangle: a circle meets
    one point, a mask is left to its pixels) whose first contact is a vertex meeting
    a vertex: the normal the World takes, the face of least penetration an instant
    later (:func:`collide2d.geometry.convex.corner_axis`), from ``other`` toward
    ``shape``; None for a face contact. A seam between two pieces of one slope or
    floor is such a corner, and its least-penetration face is the slope's."""
    outlines: list[Outline] = []
    for side in (shape, other):
        if type(side) is PlacedPolygon:
            outlines.append(placed_outline(side).vertices)
        elif type(side) is Rect and side.w > 0.0 and side.h > 0.0:
            outlines.append(outline(side))
        else:
            return None
    (a, b), (dx, dy), _ = integers(outlines, delta)
    axis = corner_axis(a, b, dx, dy)
    if axis is None:
        return None
    nx, ny, _ = edge_normal(outlines[axis.owner], axis.edge)
    if axis.owner == 0:  # the mover's own edge: the normal points back toward it
        nx, ny = 0.0 - nx, 0.0 - ny
    return Vec2(nx, ny)


def meets_at_corner(rect: Rect, delta: tuple[float, float], face: Rect) -> bool:
    """Whether ``rect`` moving by ``delta`` enters ``face`` on both axes at once."""
    x, y, w, h = rect
    ex, _ = axis_interval(x, x + w, delta[0], face[0], face[0] + face[2])
    ey, _ = axis_interval(y, y + h, delta[1], face[1], face[1] + face[3])
    return ex == ey


def contact(shape: AnyShape, delta: Vec2, hit: Hit, other: AnyShape) -> Vec2:
    """Where ``shape``'s position is when it first touches ``other`` along ``delta``.

    Along the normal's axis a rectangle's edge is put exactly on the face it met
    (``y + h == floor.top``, or one unit in the last place short of it when floats
    cannot hold the sum); the other coordinate follows the motion. Then snapped.
    """
    x0, y0 = position(shape)
    f = hit.fraction
    x = x0 + delta[0] * f
    y = y0 + delta[1] * f
    face = contact_face(shape, delta, hit, other)
    if face is not None and isinstance(shape, Rect):
        nx, ny = hit.normal
        w, h = shape.w, shape.h
        if nx < 0.0:
            x = below(face[0], w)
        elif nx > 0.0:
            x = face[0] + face[2]
        elif ny < 0.0:
            y = below(face[1], h)
        else:
            y = face[1] + face[3]
        if face is other:  # against a rectangle the edge inequality above is the test
            return Vec2(x, y)
    elif isinstance(shape, Circle) and isinstance(other, Rect) and hit.normal in PUSHES:
        nx, ny = hit.normal
        r = shape.r
        if nx < 0.0:
            x = other[0] - r
        elif nx > 0.0:
            x = other[0] + other[2] + r
        elif ny < 0.0:
            y = other[1] - r
        else:
            y = other[1] + other[3] + r
    return snap(shape, Vec2(x, y), other, hit.normal)


def below(edge: float, size: float) -> float:
    """``edge - size``, correctly rounded (the float nearest the exact contact), stepped
    down by units in the last place only while ``p + size`` rounds past ``edge``."""
    p = edge - size
    while p + size > edge:
        p = math.nextafter(p, -math.inf)
    return p


def clear_of(shape: AnyShape, other: AnyShape) -> bool:
    """Whether ``shape`` does not overlap ``other``, by both the public test and the
    sweep's test of a start overlapped (they round differently by an ulp near the
    tangent of a circle): a position clear by both stays clear in the next move. For
    two rectangles the two tests are one comparison, made once."""
    if type(shape) is Rect and type(other) is Rect:
        ax, ay, aw, ah = shape
        bx, by, bw, bh = other
        return not (ax < bx + bw and bx < ax + aw and ay < by + bh and by < ay + ah)
    if _OUTLINES[type(shape)] and _OUTLINES[type(other)]:  # one exact test: no circle
        return not overlaps(shape, other)
    return not overlaps(shape, other) and sweep(shape, _STILL, other) is None


_OUTLINES: dict[type, bool] = {Rect: True, PlacedPolygon: True, Circle: False, PlacedMask: False}
"""The shapes whose overlap and started sweep are the same exact separating-axis
test (polygons and rectangles): one of the two answers them."""


def snap(
    shape: AnyShape, pos: Vec2, other: AnyShape, normal: Vec2, steps: int = SNAP_STEPS
) -> Vec2:
    """``pos``, moved along ``normal`` as little as it takes for ``shape`` there to be
    clear of ``other``: one unit in the last place, then twice as far each time
    (rounding needs one or two; ``SNAP_STEPS`` doublings reach any distance)."""
    x, y = pos
    step_x, step_y = math.ulp(x), math.ulp(y)
    for _ in range(steps):
        if clear_of(at(shape, x, y), other):
            return Vec2(x, y)
        if normal[0]:
            x += math.copysign(step_x, normal[0])
            step_x *= 2.0
        if normal[1]:
            y += math.copysign(step_y, normal[1])
            step_y *= 2.0
    return Vec2(x, y)  # pragma: no cover - the doublings outgrow any overlap


def push_distance(shape: AnyShape, other: AnyShape, direction: Vec2) -> float:
    """How far ``shape`` must move along ``direction`` (an axis) to stop overlapping."""
    if isinstance(shape, PlacedPolygon) or isinstance(other, PlacedPolygon):
        return _swept_push(shape, other, direction)
    if isinstance(shape, Circle) and isinstance(other, Circle):
        return _round_push(shape, other.x, other.y, other.x, other.y, shape.r + other.r, direction)
    if isinstance(shape, Circle) and isinstance(other, Rect):
        return _round_push(
            shape, other.left, other.top, other.right, other.bottom, shape.r, direction
        )
    if isinstance(shape, Rect) and isinstance(other, Circle):  # the circle pushed the other way
        return push_distance(other, shape, Vec2(-direction[0], -direction[1]))
    if isinstance(other, PlacedMask) or isinstance(shape, PlacedMask):
        return _mask_push(shape, other, direction)
    return _bounds_push(shape, other, direction)


def _bounds_push(shape: AnyShape, other: AnyShape, direction: Vec2) -> float:
    """The push along ``direction`` that takes ``shape``'s bounds clear of ``other``'s
    (exact for two rectangles)."""
    a, b = bounds(shape), bounds(other)
    if direction[0] < 0.0:
        return a.right - b.left
    if direction[0] > 0.0:
        return b.right - a.left
    if direction[1] < 0.0:
        return a.bottom - b.top
    return b.bottom - a.top


def _swept_push(shape: AnyShape, other: AnyShape, direction: Vec2) -> float:
    """The push along ``direction`` that takes ``shape`` out of ``other``, found by
    the exact sweep coming back: ``shape`` put clear beyond ``other``'s bounds along
    ``direction``, then swept back to where it is; the push is how far from the end
    the sweep first meets ``other`` (rounded: the caller's snap clears what is left).
    For convex shapes the pushes that overlap form one interval, so this is its end;
    against a mask it is the last pixel's, which clears every pixel."""
    clear = _bounds_push(shape, other, direction)
    far = 2.0 * clear + 1.0
    if not math.isfinite(far):  # pragma: no cover - shapes this large cannot overlap
        return clear
    x, y = position(shape)
    start = at(shape, x + direction[0] * far, y + direction[1] * far)
    hit = sweep(start, (-direction[0] * far, -direction[1] * far), other)
    if hit is None or hit.started_overlapping:  # pragma: no cover - put clear above
        return clear
    return far * (1.0 - hit.fraction)


def _round_push(
    circle: Circle,
    left: float,
    top: float,
    right: float,
    bottom: float,
    radius: float,
    direction: Vec2,
) -> float:
    """Push of a disc (the centre of ``circle``, ``radius``) out of the box
    ``left, top, right, bottom`` widened by ``radius`` with rounded corners (a point
    box for two circles)."""
    cx, cy = circle.x, circle.y
    if direction[0]:
        across = 0.0 if top <= cy <= bottom else min(abs(cy - top), abs(cy - bottom))
        reach = math.sqrt(max(radius * radius - across * across, 0.0))
        return cx - (left - reach) if direction[0] < 0.0 else (right + reach) - cx
    across = 0.0 if left <= cx <= right else min(abs(cx - left), abs(cx - right))
    reach = math.sqrt(max(radius * radius - across * across, 0.0))
    return cy - (top - reach) if direction[1] < 0.0 else (bottom + reach) - cy


def _mask_push(shape: AnyShape, other: AnyShape, direction: Vec2) -> float:
    """The push along ``direction`` at which ``shape`` stops overlapping ``other`` when
    either is a mask. A rectangle or circle against a mask: the nearest position where
    the shape's bounds line up with one of the mask's pixel edges and the shape is
    clear. A moving mask: the push that clears its whole bounds (conservative)."""
    box, target = bounds(shape), bounds(other)
    axis = 0 if direction[0] else 1
    sign = direction[axis]
    lo, size = box[axis], box[axis + 2]
    clear = (lo + size) - target[axis] if sign < 0 else target[axis] + target[axis + 2] - lo
    if type(shape) is PlacedMask:
        return clear
    edges = target[axis] + np.arange(0.0, target[axis + 2] + 1.0)
    starts = np.concatenate([edges - size, edges])
    distances = np.unique((starts - lo) * sign)
    x, y = position(shape)
    for distance in distances[(distances > 0.0) & (distances < clear)].tolist():
        step = distance * sign
        moved = at(shape, x + step, y) if axis == 0 else at(shape, x, y + step)
        if not overlaps(moved, other):
            return float(distance)
    return clear


def simultaneous(projection: list[Collision], resolved: Collision) -> list[Collision]:
    """The other contacts of ``projection`` that the response ``resolved`` ran on stops
    as well: same moment, same normal, same response, not corner to corner."""
    if resolved.response not in STOPPING:
        return []
    found = []
    for col in projection[1:]:
        if (
            col.fraction != resolved.fraction
            or col.started_overlapping != resolved.started_overlapping
        ):
            break
        if (
            col.normal == resolved.normal
            and col.response == resolved.response
            and not is_corner_contact(col)
        ):
            found.append(col._replace(slide=resolved.slide, bounce=resolved.bounce))
    return found


def is_corner_contact(col: Collision) -> bool:
    """Whether a rectangle met a rectangle only at a corner (both axes at once), or
    a polygon's vertex met a vertex."""
    a, b = col.item_shape, col.other_shape
    if col.started_overlapping:
        return False
    if type(a) is PlacedPolygon or type(b) is PlacedPolygon:
        return corner_normal(a, col.delta, b) is not None
    if not isinstance(a, Rect) or not isinstance(b, Rect):
        return False
    return meets_at_corner(a, col.delta, b)
