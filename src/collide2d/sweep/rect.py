"""Exact sweep of two moving axis-aligned rectangles.

Both rectangles move during the frame; we work in the frame of ``b`` (relative
motion ``d = a_delta - b_delta``), where the question becomes a ray cast of ``a``'s
corner against the Minkowski sum of the two boxes, done per axis with the slab
method (Ericson, Real-Time Collision Detection, 5.3.3 and 5.5.8).
"""

from __future__ import annotations

from collide2d.geometry.rect import Rect
from collide2d.geometry.vec2 import Vec2
from collide2d.sweep._intervals import axis_interval
from collide2d.sweep.hit import Hit

_LEFT = Vec2(-1.0, 0.0)
_RIGHT = Vec2(1.0, 0.0)
_UP = Vec2(0.0, -1.0)
_DOWN = Vec2(0.0, 1.0)


def least_penetration(
    ax: float, ay: float, ar: float, ab: float, bx: float, by: float, br: float, bb: float
) -> Vec2:
    """The unit axis along which box ``a`` leaves overlapping box ``b`` soonest.

    Ties prefer the x axis, then pushing ``a`` left (or up).
    """
    to_left = ar - bx
    to_right = br - ax
    to_top = ab - by
    to_bottom = bb - ay
    depth_x = to_left if to_left <= to_right else to_right
    depth_y = to_top if to_top <= to_bottom else to_bottom
    if depth_x <= depth_y:
        return _LEFT if to_left <= to_right else _RIGHT
    return _UP if to_top <= to_bottom else _DOWN


def sweep_rect_rect(a: Rect, dx: float, dy: float, b: Rect) -> Hit | None:
    """Sweep ``a`` by ``(dx, dy)`` against a still ``b``; the point is in ``b``'s frame."""
    ax, ay, aw, ah = a
    bx, by, bw, bh = b
    ar = ax + aw
    ab = ay + ah
    br = bx + bw
    bb = by + bh
    enter_x, exit_x = axis_interval(ax, ar, dx, bx, br)
    enter_y, exit_y = axis_interval(ay, ab, dy, by, bb)
    enter = enter_x if enter_x >= enter_y else enter_y
    leave = exit_x if exit_x <= exit_y else exit_y
    if not (enter < leave and enter < 1.0 and leave > 0.0):
        return None
    if enter < 0.0:
        normal = least_penetration(ax, ay, ar, ab, bx, by, br, bb)
        point = Vec2(
            (max(ax, bx) + min(ar, br)) * 0.5,
            (max(ay, by) + min(ab, bb)) * 0.5,
        )
        return Hit(0.0, normal, point, True)
    fraction = enter + 0.0  # turns -0.0 into 0.0
    if enter_x >= enter_y:
        top = ay + dy * fraction
        low = max(top, by)
        high = min(top + ah, bb)
        if dx > 0.0:
            return Hit(fraction, _LEFT, Vec2(bx, (low + high) * 0.5), False)
        return Hit(fraction, _RIGHT, Vec2(br, (low + high) * 0.5), False)
    left = ax + dx * fraction
    low = max(left, bx)
    high = min(left + aw, br)
    if dy > 0.0:
        return Hit(fraction, _UP, Vec2((low + high) * 0.5, by), False)
    return Hit(fraction, _DOWN, Vec2((low + high) * 0.5, bb), False)
