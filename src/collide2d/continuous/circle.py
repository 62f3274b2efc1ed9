"""Sweeps of moving circles against circles and rectangles.

Circle against circle is a ray cast of the centre against a disc of the summed
radii (Ericson 5.5.5). Circle against rectangle casts the centre against the
rectangle's Minkowski sum with the disc, a rounded rectangle, written as the union
of two open boxes (the rectangle widened by ``r`` in x, and in y) and four open
corner discs: the first moment inside the union is the earliest first moment
inside any of its parts (Ericson 5.5.7 does the same with capsules).
"""

from __future__ import annotations

import math

from collide2d.continuous._intervals import (
    axis_interval,
    disc_interval,
    exact_c,
    exact_discriminant,
)
from collide2d.continuous.hit import Hit
from collide2d.continuous.penetration import least_penetration
from collide2d.continuous.rect import sweep_rect_rect
from collide2d.continuous.rect_exact import sizes_kept
from collide2d.geometry.circle import Circle
from collide2d.geometry.overlap import overlaps_circle_rect
from collide2d.geometry.rect import Rect
from collide2d.geometry.vec2 import Vec2
from collide2d.tolerances import CIRCLE_EXACT_FALLBACK

_X_AXIS = Vec2(1.0, 0.0)
_SQUARES = 2.0**500
"""Below this, the squares and their products (``|d|^2 r^2``) stay finite; beyond,
the sweep is done on the inputs scaled by a power of two (exactly, the fraction
does not change) and the point scaled back."""
_new = tuple.__new__  # builds a NamedTuple without its Python-level __new__ (hot path)


def direction(x: float, y: float) -> Vec2:
    """``(x, y)`` normalized, or the x axis for the zero vector."""
    length = math.hypot(x, y)
    if length == 0.0:
        return _X_AXIS
    return Vec2(x / length, y / length)


def sweep_circle_circle(
    a: Circle, dx: float, dy: float, b: Circle, bdx: float = 0.0, bdy: float = 0.0
) -> Hit | None:
    """Sweep ``a`` by ``(dx, dy)`` against a still ``b``.

    ``(bdx, bdy)`` is how the frame itself moves (``b``'s own delta): only the
    contact point depends on it, which is reported in world coordinates.
    """
    ax, ay, ra = a
    bx, by, rb = b
    px = ax - bx
    py = ay - by
    reach = ra + rb
    if reach == 0.0:  # two points never overlap
        return None
    # |p + t d| = reach, as in disc_interval but only the entry is needed: they start
    # overlapping iff c < 0, and otherwise meet only while approaching (b < 0).
    pp = px * px + py * py
    rr = reach * reach
    if not (pp < _SQUARES and rr < _SQUARES and dx * dx + dy * dy < _SQUARES):
        return _scaled(sweep_circle_circle, a, dx, dy, b, bdx, bdy)
    c = pp - rr
    if abs(c) <= CIRCLE_EXACT_FALLBACK * pp:
        c = exact_c(px, py, reach)
    if c < 0.0:
        normal = direction(px, py)
        depth_mid = (rb - ra + math.hypot(px, py)) * 0.5
        return Hit(0.0, normal, Vec2(bx + normal.x * depth_mid, by + normal.y * depth_mid), True)
    b_half = px * dx + py * dy
    if b_half >= 0.0:
        return None
    cross = px * dy - py * dx
    ar = (dx * dx + dy * dy) * rr
    disc = ar - cross * cross
    if abs(disc) <= CIRCLE_EXACT_FALLBACK * ar:
        disc = exact_discriminant(px, py, dx, dy, reach)
    if disc <= 0.0:
        return None
    enter = c / (math.sqrt(disc) - b_half)
    if enter >= 1.0:
        return None
    fraction = enter + 0.0
    # At first contact the centres are exactly ``reach`` apart: no square root needed.
    nx = (px + dx * fraction) / reach
    ny = (py + dy * fraction) / reach
    if not 0.5 < nx * nx + ny * ny < 2.0:  # reach far below the float spacing of p
        nx, ny = (
            direction(px + dx * fraction, py + dy * fraction)
            if nx or ny
            else direction(0.0 - dx, 0.0 - dy)
        )
    cx = bx + bdx * fraction + nx * rb
    cy = by + bdy * fraction + ny * rb
    return _new(Hit, (fraction, _new(Vec2, (nx, ny)), _new(Vec2, (cx, cy)), False, None, None, 0.0))


def sweep_circle_rect(
    a: Circle, dx: float, dy: float, b: Rect, bdx: float = 0.0, bdy: float = 0.0
) -> Hit | None:
    """Sweep circle ``a`` by ``(dx, dy)`` against a still rectangle ``b``.

    ``(bdx, bdy)`` is how the frame itself moves (``b``'s own delta): only the
    contact point depends on it, which is reported in world coordinates.
    """
    cx, cy, r = a
    if r == 0.0:  # a point: the two widened boxes below would coincide and tie on x
        return sweep_rect_rect(_new(Rect, (cx, cy, 0.0, 0.0)), dx, dy, b, bdx, bdy)
    left, top, w, h = b
    right = left + w
    bottom = top + h
    far = _SQUARES**0.5
    if not (
        -far < left
        and right < far
        and -far < top
        and bottom < far
        and -far < cx < far
        and -far < cy < far
        and r < far
        and -far < dx < far
        and -far < dy < far
    ):
        return _scaled(sweep_circle_rect, a, dx, dy, b, bdx, bdy)
    lost = left - r == left or right + r == right or top - r == top or bottom + r == bottom
    if lost and overlaps_circle_rect(a, b):
        # r is below the spacing of the edges: the widened boxes below lose it, and a
        # disc centred on an edge would seem to enter at 0 instead of overlapping
        return _started_circle_rect(cx, cy, left, top, right, bottom)
    if lost or not sizes_kept(left, w, right, top, h, bottom):
        # far out, where the float edges lose r or the sizes: the circle's bounding
        # box decides, exactly (conservative: it may hit where the disc would not,
        # it never passes through)
        return sweep_rect_rect(_new(Rect, (cx - r, cy - r, 2.0 * r, 2.0 * r)), dx, dy, b, bdx, bdy)
    # Part 0: the rectangle widened in x; part 1: widened in y.
    ex, xx = axis_interval(cx, cx, dx, left - r, right + r)
    ey, xy = axis_interval(cy, cy, dy, top, bottom)
    best = max(ex, ey)
    best_exit = min(xx, xy)
    best_part = 0
    ex, xx = axis_interval(cx, cx, dx, left, right)
    ey, xy = axis_interval(cy, cy, dy, top - r, bottom + r)
    enter = max(ex, ey)
    leave = min(xx, xy)
    if _earlier(enter, leave, best, best_exit):
        best, best_exit, best_part = enter, leave, 1
    corners = ((left, top), (right, top), (left, bottom), (right, bottom))
    for index, (kx, ky) in enumerate(corners):
        enter, leave = disc_interval(cx - kx, cy - ky, dx, dy, r)
        if _earlier(enter, leave, best, best_exit):
            best, best_exit, best_part = enter, leave, 2 + index
    if not (best < best_exit and best < 1.0 and best_exit > 0.0):
        return None
    if best < 0.0:
        return _started_circle_rect(cx, cy, left, top, right, bottom)
    fraction = best + 0.0
    x = cx + dx * fraction
    y = cy + dy * fraction
    point = Vec2(min(max(x, left), right), min(max(y, top), bottom))
    if best_part == 0:
        normal = Vec2(-1.0, 0.0) if dx > 0.0 else Vec2(1.0, 0.0)
    elif best_part == 1:
        normal = Vec2(0.0, -1.0) if dy > 0.0 else Vec2(0.0, 1.0)
    else:
        normal = direction(x - point.x, y - point.y)
    if bdx != 0.0 or bdy != 0.0:
        point = Vec2(point.x + bdx * fraction, point.y + bdy * fraction)
    return _new(Hit, (fraction, normal, point, False, None, None, 0.0))


def _scaled(  # type: ignore[no-untyped-def]
    sweep, a: Circle, dx: float, dy: float, b: Circle | Rect, bdx: float, bdy: float
) -> Hit | None:
    """``sweep`` of inputs too large to square, done on them times ``2**-k`` (exact
    unless a value among them is more than ``2**1260`` times smaller than the largest:
    it falls below the normal floats) with the contact point scaled back: a uniform
    scaling changes neither the fraction nor the normal."""
    values = [*a, *b, dx, dy, bdx, bdy]
    k = math.frexp(max(abs(v) for v in values))[1] - 240  # the largest to about 2**240
    small = [math.ldexp(v, -k) for v in values]
    ta = Circle(*small[:3])
    tb = type(b)(*small[3:-4])
    hit: Hit | None = sweep(ta, *small[-4:-2], tb, *small[-2:])
    if hit is None:
        return None
    point = Vec2(math.ldexp(hit.point.x, k), math.ldexp(hit.point.y, k))
    return hit._replace(point=point)


def _earlier(enter: float, leave: float, best: float, best_exit: float) -> bool:
    """Whether the open interval ``(enter, leave)`` starts inside the frame before the best."""
    if not (enter < leave and leave > 0.0):
        return False
    if not best < best_exit or best_exit <= 0.0:
        return True
    return max(enter, 0.0) < max(best, 0.0) or (enter < 0.0 <= best)


def _started_circle_rect(
    cx: float, cy: float, left: float, top: float, right: float, bottom: float
) -> Hit:
    """The pre-collision record of a circle already overlapping a rectangle."""
    px = min(max(cx, left), right)
    py = min(max(cy, top), bottom)
    if px != cx or py != cy:
        return Hit(0.0, direction(cx - px, cy - py), Vec2(px, py), True)
    normal = least_penetration(cx, cy, cx, cy, left, top, right, bottom)
    if normal.x < 0.0:
        point = Vec2(left, cy)
    elif normal.x > 0.0:
        point = Vec2(right, cy)
    elif normal.y < 0.0:
        point = Vec2(cx, top)
    else:
        point = Vec2(cx, bottom)
    return Hit(0.0, normal, point, True)
