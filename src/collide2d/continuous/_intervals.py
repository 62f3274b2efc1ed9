"""The times at which a moving point or interval is inside an open set.

These are the building blocks of every continuous test. Each returns the open
interval of times ``(enter, exit)`` on the whole line of motion, or ``None`` when
the mover is never inside; callers clip it to the frame ``[0, 1)``.

Exactness: with integer inputs below about 2**50 every subtraction here is exact
and each time is one correctly rounded division, so comparing two times compares
the exact rationals whenever their denominators are below 2**26 (distinct such
rationals in ``[0, 1]`` differ by more than one unit in the last place).
"""

from __future__ import annotations

import math
import struct
from collections.abc import Callable
from fractions import Fraction

from collide2d.tolerances import CIRCLE_EXACT_FALLBACK

INF = math.inf


def axis_interval(lo: float, hi: float, d: float, blo: float, bhi: float) -> tuple[float, float]:
    """Times when the open interval ``(lo + t d, hi + t d)`` overlaps ``(blo, bhi)``.

    Follows the slab method (Ericson, Real-Time Collision Detection, 5.3.3), with
    motion parallel to the slab handled explicitly. An empty result is returned
    as ``(inf, -inf)``; a point (``lo == hi``) is inside when strictly between.
    """
    if d > 0.0:
        return (blo - hi) / d, (bhi - lo) / d
    if d < 0.0:
        return (bhi - lo) / d, (blo - hi) / d
    if lo < bhi and blo < hi:
        return -INF, INF
    return INF, -INF


def disc_interval(px: float, py: float, dx: float, dy: float, r: float) -> tuple[float, float]:
    """Times when ``p + t d`` lies in the open disc of radius ``r`` about the origin.

    Solves ``|p + t d|^2 = r^2`` with the numerically stable quadratic formula
    (Ericson 5.3.2; Press et al., Numerical Recipes 5.6), using
    ``b^2 - a c = a r^2 - (p x d)^2`` so that the discriminant has no squared dot
    product. When the start distance or the discriminant is ill-conditioned the
    coefficients are recomputed exactly with :class:`fractions.Fraction`. An
    empty result is ``(inf, -inf)``.
    """
    if r == 0.0:
        return INF, -INF
    a = dx * dx + dy * dy
    pp = px * px + py * py
    rr = r * r
    c = pp - rr
    if a == 0.0:
        return (-INF, INF) if c < 0.0 else (INF, -INF)
    b = px * dx + py * dy
    cross = px * dy - py * dx
    ar = a * rr
    disc = ar - cross * cross
    if abs(c) <= CIRCLE_EXACT_FALLBACK * pp:
        c = exact_c(px, py, r)
    if abs(disc) <= CIRCLE_EXACT_FALLBACK * ar:
        disc = exact_discriminant(px, py, dx, dy, r)
    if disc <= 0.0:
        return INF, -INF
    q = -(b + math.copysign(math.sqrt(disc), b))
    t1 = q / a
    t2 = c / q
    return (t1, t2) if t1 < t2 else (t2, t1)


def exact_c(px: float, py: float, r: float) -> float:
    """``|p|^2 - r^2`` computed exactly, then rounded once."""
    fpx, fpy, fr = Fraction(px), Fraction(py), Fraction(r)
    return float(fpx * fpx + fpy * fpy - fr * fr)


def exact_discriminant(px: float, py: float, dx: float, dy: float, r: float) -> float:
    """``|d|^2 r^2 - (p x d)^2`` (the quarter discriminant) computed exactly, then rounded."""
    fpx, fpy, fdx, fdy, fr = (Fraction(v) for v in (px, py, dx, dy, r))
    cross = fpx * fdy - fpy * fdx
    return float((fdx * fdx + fdy * fdy) * fr * fr - cross * cross)


def last_outside(outside: float, inside_at: float, inside: Callable[[float], bool]) -> float:
    """The last float time not ``inside``, between ``outside`` (not inside) and
    ``inside_at`` (inside), both ``>= 0``: bisection on the floats' order (a
    non-negative float's bits, read as an integer, count the floats below it), at
    most 64 exact tests. The overlap of two convex shapes in linear motion is one
    interval, so the test changes once between them."""
    low = _PACK.unpack(_PACK_FLOAT.pack(outside))[0]
    high = _PACK.unpack(_PACK_FLOAT.pack(inside_at))[0]
    while high - low > 1:
        middle = (low + high) // 2
        if inside(_PACK_FLOAT.unpack(_PACK.pack(middle))[0]):
            high = middle
        else:
            low = middle
    return float(_PACK_FLOAT.unpack(_PACK.pack(low))[0])


_PACK = struct.Struct("<q")
_PACK_FLOAT = struct.Struct("<d")
