"""Ray casts against rectangles and circles: where a segment
``origin + delta * fraction`` enters a shape."""

from __future__ import annotations

from collide2d.continuous._intervals import axis_interval, disc_interval
from collide2d.continuous.circle import direction
from collide2d.continuous.hit import RayHit
from collide2d.continuous.penetration import least_penetration
from collide2d.continuous.polygon import raycast_outline
from collide2d.continuous.rect_exact import raycast_rect_exact, sizes_kept
from collide2d.geometry import _checks
from collide2d.geometry.circle import Circle
from collide2d.geometry.convex import outline
from collide2d.geometry.overlap import Shape, as_shape
from collide2d.geometry.polygon import Polygon
from collide2d.geometry.rect import Rect
from collide2d.geometry.segment import Segment
from collide2d.geometry.vec2 import Vec2


def raycast(
    origin: tuple[float, float], delta: tuple[float, float], shape: Shape | Polygon | Segment
) -> RayHit | None:
    """The ray cast of :func:`collide2d.raycast` for a rectangle (the slab method,
    Ericson 5.3.3, with motion parallel to an axis handled explicitly) or a circle
    (the stable quadratic formula, Ericson 5.3.2); the public docstring holds the
    semantics.

    >>> raycast((0, 5), (20, 0), Rect(10, 0, 10, 10)).fraction
    0.5
    """
    ox, oy = _checks.xy(origin, "origin")
    dx, dy = _checks.xy(delta, "delta")
    if type(shape) is Rect:
        left, top, w, h = shape
        right = left + w
        bottom = top + h
        if (right - left != w or bottom - top != h) and not sizes_kept(
            left, w, right, top, h, bottom
        ):  # far out, where x + w loses part of w: exact (a tunnel otherwise)
            return raycast_rect_exact(ox, oy, dx, dy, shape)
        enter_x, exit_x = axis_interval(ox, ox, dx, left, right)
        enter_y, exit_y = axis_interval(oy, oy, dy, top, bottom)
        enter = enter_x if enter_x >= enter_y else enter_y
        leave = exit_x if exit_x <= exit_y else exit_y
        if not (enter < leave and enter < 1.0 and leave > 0.0):
            return None
        if enter < 0.0:
            normal = least_penetration(ox, oy, ox, oy, left, top, right, bottom)
            return RayHit(0.0, leave, normal, Vec2(ox, oy), True)
        fraction = enter + 0.0
        if enter_x >= enter_y:
            normal = Vec2(-1.0, 0.0) if dx > 0.0 else Vec2(1.0, 0.0)
            point = Vec2(left if dx > 0.0 else right, oy + dy * fraction)
        else:
            normal = Vec2(0.0, -1.0) if dy > 0.0 else Vec2(0.0, 1.0)
            point = Vec2(ox + dx * fraction, top if dy > 0.0 else bottom)
        return RayHit(fraction, leave, normal, point, False)
    if type(shape) is Circle:
        cx, cy, r = shape
        enter, leave = disc_interval(ox - cx, oy - cy, dx, dy, r)
        if not (enter < leave and enter < 1.0 and leave > 0.0):
            return None
        if enter < 0.0:
            return RayHit(0.0, leave, direction(ox - cx, oy - cy), Vec2(ox, oy), True)
        fraction = enter + 0.0
        x = ox + dx * fraction
        y = oy + dy * fraction
        return RayHit(fraction, leave, direction(x - cx, y - cy), Vec2(x, y), False)
    if isinstance(shape, (Polygon, Segment)):
        return raycast_outline((ox, oy), (dx, dy), outline(shape))
    return raycast((ox, oy), (dx, dy), as_shape(shape, "shape"))
