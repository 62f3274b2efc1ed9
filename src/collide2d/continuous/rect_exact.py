"""Rectangle sweeps and ray casts where floats lose the sizes: the exact route.

A rectangle is the set ``[x, x + w] x [y, y + h]`` of the stored numbers. The fast
route computes its right edge as the float ``x + w``; far from the origin that sum
rounds, and where the rounding is a sizeable part of ``w`` (``Rect(1e16, 0, 1, 1)``:
floats are 2 apart there, so ``x + w == x``) the box seen by the fast route is not
the box given: a mover could pass straight through a wall. :func:`sizes_kept` tells
when the fast route sees the boxes as given (every size kept to within
``2**-20`` of itself); otherwise the sweep is done here on integers (every float
scaled by one power of two, :mod:`collide2d.geometry._exact`), and the reported
``fraction`` is the exact first moment rounded down, so the mover may go as far as
``fraction`` without entering the other box.
"""

from __future__ import annotations

import math
from fractions import Fraction

from collide2d.continuous.hit import Hit, RayHit
from collide2d.continuous.penetration import least_penetration
from collide2d.geometry._exact import scale
from collide2d.geometry.vec2 import Vec2

KEPT = 2.0**-20
"""How much of a size the fast route may lose to the rounding of ``x + w``."""


def sizes_kept(*edges: float) -> bool:
    """Whether each ``(x, w, x + w)`` triple of ``edges`` (flattened) has its float
    sum within ``2**-20 * w`` of the exact one."""
    for k in range(0, len(edges), 3):
        x, w, right = edges[k], edges[k + 1], edges[k + 2]
        if right - x != w and abs((right - x) - w) > KEPT * w:
            return False
    return True


def _slab(
    lo: Fraction, hi: Fraction, d: Fraction, blo: Fraction, bhi: Fraction
) -> tuple[Fraction | float, Fraction | float] | None:
    """The open interval of times when ``(lo + t d, hi + t d)`` meets ``(blo, bhi)``
    (infinite ends for always), or ``None`` when never: the exact twin of
    ``_intervals.axis_interval``."""
    if d > 0:
        return (blo - hi) / d, (bhi - lo) / d
    if d < 0:
        return (bhi - lo) / d, (blo - hi) / d
    if lo < bhi and blo < hi:
        return -math.inf, math.inf
    return None


def _floor_float(value: Fraction | float) -> float:
    """The largest float not above ``value``."""
    result = float(value)
    if Fraction(result) > value:
        result = math.nextafter(result, -math.inf)
    return result + 0.0


def _times(
    a: tuple[float, float, float, float],
    d: tuple[float, float],
    b: tuple[float, float, float, float],
) -> tuple[Fraction | float, Fraction | float, bool] | None:
    """``(enter, leave, x_last)``: when box ``a`` moving by ``d`` is inside box ``b``
    (exact, unclipped, infinite for always; ``x_last`` whether the x slab is
    entered last), or ``None`` when never."""
    ints, _ = scale([*a, *d, *b])
    ax, ay, aw, ah, dx, dy, bx, by, bw, bh = (Fraction(v) for v in ints)
    x = _slab(ax, ax + aw, dx, bx, bx + bw)
    y = _slab(ay, ay + ah, dy, by, by + bh)
    if x is None or y is None:
        return None
    x_last = x[0] >= y[0]
    return (x[0] if x_last else y[0]), min(x[1], y[1]), x_last


def sweep_rect_rect_exact(
    a: tuple[float, float, float, float],
    dx: float,
    dy: float,
    b: tuple[float, float, float, float],
    bdx: float,
    bdy: float,
) -> Hit | None:
    """:func:`collide2d.continuous.rect.sweep_rect_rect` decided exactly."""
    times = _times(a, (dx, dy), b)
    if times is None:
        return None
    enter, leave, x_last = times
    if not (enter < leave and enter < 1 and leave > 0):
        return None
    ax, ay, aw, ah = a
    bx, by, bw, bh = b
    ar, ab, br, bb = ax + aw, ay + ah, bx + bw, by + bh
    if enter < 0:
        normal = least_penetration(ax, ay, ar, ab, bx, by, br, bb)
        point = Vec2((max(ax, bx) + min(ar, br)) * 0.5, (max(ay, by) + min(ab, bb)) * 0.5)
        return Hit(0.0, normal, point, True)
    fraction = _floor_float(enter)
    bx += bdx * fraction
    by += bdy * fraction
    br += bdx * fraction
    bb += bdy * fraction
    if x_last:
        top = ay + bdy * fraction + dy * fraction
        low, high = max(top, by), min(top + ah, bb)
        edge = bx if dx > 0.0 else br
        return Hit(
            fraction, Vec2(-1.0 if dx > 0.0 else 1.0, 0.0), Vec2(edge, (low + high) * 0.5), False
        )
    left = ax + bdx * fraction + dx * fraction
    low, high = max(left, bx), min(left + aw, br)
    edge = by if dy > 0.0 else bb
    return Hit(
        fraction, Vec2(0.0, -1.0 if dy > 0.0 else 1.0), Vec2((low + high) * 0.5, edge), False
    )


def raycast_rect_exact(
    ox: float, oy: float, dx: float, dy: float, rect: tuple[float, float, float, float]
) -> RayHit | None:
    """The ray cast of a rectangle decided exactly (``exit_fraction`` rounded to the
    nearest float, ``fraction`` down)."""
    times = _times((ox, oy, 0.0, 0.0), (dx, dy), rect)
    if times is None:
        return None
    enter, leave, x_last = times
    if not (enter < leave and enter < 1 and leave > 0):
        return None
    left, top, w, h = rect
    right, bottom = left + w, top + h
    exit_fraction = float(leave)
    if enter < 0:
        normal = least_penetration(ox, oy, ox, oy, left, top, right, bottom)
        return RayHit(0.0, exit_fraction, normal, Vec2(ox, oy), True)
    fraction = _floor_float(enter)
    if x_last:
        point = Vec2(left if dx > 0.0 else right, oy + dy * fraction)
        return RayHit(fraction, exit_fraction, Vec2(-1.0 if dx > 0.0 else 1.0, 0.0), point, False)
    point = Vec2(ox + dx * fraction, top if dy > 0.0 else bottom)
    return RayHit(fraction, exit_fraction, Vec2(0.0, -1.0 if dy > 0.0 else 1.0), point, False)
