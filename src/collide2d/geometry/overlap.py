"""Static overlap tests between rectangles and circles.

Overlap is strict: shapes are open sets, so shapes that only touch along an edge
or at a corner do not overlap. Both axes must overlap for two rectangles (a common
mistake joins the two axis tests with "or", which reports rectangles that merely
share an x or a y range).
"""

from __future__ import annotations

import math
from fractions import Fraction

from collide2d.geometry.circle import Circle
from collide2d.geometry.convex import overlaps_convex
from collide2d.geometry.polygon import Polygon
from collide2d.geometry.rect import Rect
from collide2d.geometry.rect_like import RECT_LIKE, described, rect_like
from collide2d.tolerances import SQUARE_OVERFLOW, SQUARE_UNDERFLOW, UNDERFLOW_SCALE

Shape = Rect | Circle
"""A rectangle or a circle: what the geometry, the broadphases and the batch API take."""


def overlaps_rect_rect(a: Rect, b: Rect) -> bool:
    """Return whether the interiors of two rectangles overlap.

    >>> overlaps_rect_rect(Rect(0, 0, 2, 2), Rect(1, 1, 2, 2))
    True
    >>> overlaps_rect_rect(Rect(0, 0, 2, 2), Rect(2, 0, 2, 2))  # touching edges
    False
    """
    ax, ay, aw, ah = a
    bx, by, bw, bh = b
    return ax < bx + bw and bx < ax + aw and ay < by + bh and by < ay + ah


def overlaps_circle_circle(a: Circle, b: Circle) -> bool:
    """Return whether two open discs overlap (centre distance ``< a.r + b.r``).

    >>> overlaps_circle_circle(Circle(0, 0, 1), Circle(1.5, 0, 1))
    True
    >>> overlaps_circle_circle(Circle(0, 0, 1), Circle(2, 0, 1))  # touching
    False
    """
    dx = a[0] - b[0]
    dy = a[1] - b[1]
    reach = a[2] + b[2]
    if not (reach < SQUARE_OVERFLOW and -SQUARE_OVERFLOW < dx < SQUARE_OVERFLOW
            and -SQUARE_OVERFLOW < dy < SQUARE_OVERFLOW):  # fmt: skip
        ex, ey = Fraction(a[0]) - Fraction(b[0]), Fraction(a[1]) - Fraction(b[1])
        return ex * ex + ey * ey < (Fraction(a[2]) + Fraction(b[2])) ** 2
    if reach < SQUARE_UNDERFLOW:  # tiny radii: scale exactly so the squares keep their bits
        dx, dy, reach = dx * UNDERFLOW_SCALE, dy * UNDERFLOW_SCALE, reach * UNDERFLOW_SCALE
    return dx * dx + dy * dy < reach * reach


def overlaps_circle_rect(circle: Circle, rect: Rect) -> bool:
    """Return whether a circle overlaps a rectangle.

    True when the distance from the circle's centre to the closed rectangle is
    less than the radius. A zero-radius circle (a point) overlaps only if it lies
    strictly inside the rectangle.

    >>> overlaps_circle_rect(Circle(3, 1, 1.5), Rect(0, 0, 2, 2))
    True
    >>> overlaps_circle_rect(Circle(3, 3, 1), Rect(0, 0, 2, 2))
    False
    """
    cx, cy, r = circle
    left, top, w, h = rect
    right = left + w
    bottom = top + h
    if r == 0.0:
        return left < cx < right and top < cy < bottom
    dx = left - cx if cx < left else (cx - right if cx > right else 0.0)
    dy = top - cy if cy < top else (cy - bottom if cy > bottom else 0.0)
    if not (r < SQUARE_OVERFLOW and dx < SQUARE_OVERFLOW and dy < SQUARE_OVERFLOW):
        return _circle_rect_exact(circle, rect)
    if r < SQUARE_UNDERFLOW:  # tiny radius: scale exactly so the squares keep their bits
        dx, dy, r = dx * UNDERFLOW_SCALE, dy * UNDERFLOW_SCALE, r * UNDERFLOW_SCALE
    return dx * dx + dy * dy < r * r


def _circle_rect_exact(circle: Circle, rect: Rect) -> bool:
    """``overlaps_circle_rect`` in rational arithmetic (no square overflows)."""
    cx, cy, r = (Fraction(v) for v in circle)
    left, top = Fraction(rect[0]), Fraction(rect[1])
    # The edges as the float path has them (x + w rounded), unless that overflows.
    right, bottom = (
        Fraction(e) if math.isfinite(e) else start + Fraction(size)
        for e, start, size in ((rect.right, left, rect[2]), (rect.bottom, top, rect[3]))
    )
    dx = left - cx if cx < left else (cx - right if cx > right else Fraction(0))
    dy = top - cy if cy < top else (cy - bottom if cy > bottom else Fraction(0))
    return dx * dx + dy * dy < r * r


def overlaps(a: Shape | Polygon, b: Shape | Polygon) -> bool:
    """Return whether two rectangles, circles or polygons overlap, strictly (touching
    is not overlapping). :func:`collide2d.overlaps` also takes masks and segments.

    Parameters
    ----------
    a, b : Rect, Circle or Polygon
        The shapes, in any combination.

    Raises
    ------
    TypeError
        If a shape is none of these.

    Examples
    --------
    >>> overlaps(Rect(0, 0, 10, 10), Circle(12, 5, 3))
    True
    >>> overlaps(Rect(0, 0, 10, 10), Rect(10, 0, 5, 5))
    False
    """
    ta = type(a)
    tb = type(b)
    if ta is Rect:
        if tb is Rect:
            ax, ay, aw, ah = a  # type: ignore[misc]
            bx, by, bw, bh = b  # type: ignore[misc]
            return ax < bx + bw and bx < ax + aw and ay < by + bh and by < ay + ah  # type: ignore[operator]
        if tb is Circle:
            return overlaps_circle_rect(b, a)  # type: ignore[arg-type]
    elif ta is Circle:
        if tb is Circle:
            return overlaps_circle_circle(a, b)  # type: ignore[arg-type]
        if tb is Rect:
            return overlaps_circle_rect(a, b)  # type: ignore[arg-type]
    if isinstance(a, Polygon) or isinstance(b, Polygon):
        return overlaps_convex(a, b)
    if ta is not Rect and ta is not Circle:
        return overlaps(as_shape(a, "a"), b)
    return overlaps(a, as_shape(b, "b"))


def as_shape(value: object, name: str) -> Shape:
    """Return ``value`` as an exact ``Rect`` or ``Circle`` (subclasses are copied).

    Raises ``TypeError`` naming ``name`` for anything else.
    """
    if type(value) is Rect or type(value) is Circle:
        return value
    if isinstance(value, Rect):
        return Rect(*value)
    if isinstance(value, Circle):
        return Circle(*value)
    rect = rect_like(value, name)
    if rect is not None:
        return rect
    raise TypeError(f"{name} must be a Rect, a Circle or {RECT_LIKE}, got {described(value)}")
