"""Exact sweep of two moving axis-aligned rectangles.

Both rectangles move during the frame; we work in the frame of ``b`` (relative
motion ``d = a_delta - b_delta``), where the question becomes a ray cast of ``a``'s
corner against the Minkowski sum of the two boxes, done per axis with the slab
method (Ericson, Real-Time Collision Detection, 5.3.3 and 5.5.8).
"""

from __future__ import annotations

import math

from collide2d.continuous.hit import Hit
from collide2d.continuous.penetration import least_penetration
from collide2d.continuous.rect_exact import KEPT, sweep_rect_rect_exact
from collide2d.geometry.rect import Rect
from collide2d.geometry.vec2 import Vec2

_LEFT = Vec2(-1.0, 0.0)
_RIGHT = Vec2(1.0, 0.0)
_UP = Vec2(0.0, -1.0)
_DOWN = Vec2(0.0, 1.0)
_INF = math.inf
_new = tuple.__new__  # builds a NamedTuple without its Python-level __new__ (hot path)


def sweep_rect_rect(
    a: Rect, dx: float, dy: float, b: Rect, bdx: float = 0.0, bdy: float = 0.0
) -> Hit | None:
    """Sweep ``a`` by ``(dx, dy)`` against a still ``b``.

    ``(bdx, bdy)`` is how the frame itself moves (``b``'s own delta): only the
    contact point depends on it, which is reported in world coordinates.

    The per-axis slabs are :func:`collide2d.continuous._intervals.axis_interval`, inlined
    here because this is the hottest scalar call; the tests hold both to the exact
    rational reference.
    """
    ax, ay, aw, ah = a
    bx, by, bw, bh = b
    ar = ax + aw
    ab = ay + ah
    br = bx + bw
    bb = by + bh
    if (  # far out, where x + w loses part of w: exact (a tunnel otherwise)
        (ar - ax != aw and abs(ar - ax - aw) > aw * KEPT)
        or (ab - ay != ah and abs(ab - ay - ah) > ah * KEPT)
        or (br - bx != bw and abs(br - bx - bw) > bw * KEPT)
        or (bb - by != bh and abs(bb - by - bh) > bh * KEPT)
    ):
        return sweep_rect_rect_exact(a, dx, dy, b, bdx, bdy)
    if dx > 0.0:
        enter_x = (bx - ar) / dx
        exit_x = (br - ax) / dx
    elif dx < 0.0:
        enter_x = (br - ax) / dx
        exit_x = (bx - ar) / dx
    elif ax < br and bx < ar:
        enter_x = -_INF
        exit_x = _INF
    else:
        return None
    if dy > 0.0:
        enter_y = (by - ab) / dy
        exit_y = (bb - ay) / dy
    elif dy < 0.0:
        enter_y = (bb - ay) / dy
        exit_y = (by - ab) / dy
    elif ay < bb and by < ab:
        enter_y = -_INF
        exit_y = _INF
    else:
        return None
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
    if bdx != 0.0 or bdy != 0.0:  # contact point where b is at that moment
        bx += bdx * fraction
        by += bdy * fraction
        br += bdx * fraction
        bb += bdy * fraction
        ax += bdx * fraction
        ay += bdy * fraction
    if enter_x >= enter_y:
        top = ay + dy * fraction
        bottom = top + ah
        low = top if top > by else by
        high = bottom if bottom < bb else bb
        if dx > 0.0:
            return _new(
                Hit, (fraction, _LEFT, _new(Vec2, (bx, (low + high) * 0.5)), False, None, None, 0.0)
            )
        return _new(
            Hit, (fraction, _RIGHT, _new(Vec2, (br, (low + high) * 0.5)), False, None, None, 0.0)
        )
    left = ax + dx * fraction
    right = left + aw
    low = left if left > bx else bx
    high = right if right < br else br
    if dy > 0.0:
        point = _new(Vec2, ((low + high) * 0.5, by))
        return _new(Hit, (fraction, _UP, point, False, None, None, 0.0))
    point = _new(Vec2, ((low + high) * 0.5, bb))
    return _new(Hit, (fraction, _DOWN, point, False, None, None, 0.0))
