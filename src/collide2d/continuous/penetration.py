"""The axis along which an overlapping box leaves another soonest."""

from __future__ import annotations

from collide2d.geometry.vec2 import Vec2

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
