"""Exact separating-axis tests of convex outlines: points, segments, boxes, polygons.

A convex outline is its vertex list: one vertex (a point), two (a segment, or a
zero-height rectangle) or three and more (a polygon in the stored order, positive
area). Everything here is exact: coordinates are scaled to integers
(:mod:`collide2d.geometry._exact`) and the tests are integer sign tests.

**Overlap** (strict, of the open shapes). Two convex shapes have disjoint interiors
exactly when some line separates them, and in the plane that line can be taken
along an edge of one of them (the separating axis theorem; Ericson, Real-Time
Collision Detection, 4.4 and 5.2.1). An edge from ``p`` along ``e`` separates when
every vertex ``v`` of the other shape has ``orient = e x (v - p) <= 0`` (on the
edge's line or outside). A segment offers its line, both ways; a point offers
nothing (it overlaps only what it lies strictly inside, as a zero-size ``Rect``).

**Sweep.** When ``a`` moves by ``d`` relative to ``b``, every vertex of the other
shape moves by the same vector, so against one edge ``orient`` changes at one rate
``c = +-(e x d)``: the edge separates while ``O + t c <= 0``, ``O`` the largest
``orient`` at ``t = 0``. Each edge so gives a half-line of separated times, and
the shapes overlap on the open interval ``(lo, hi)`` with ``lo`` the latest
``-O / c`` of the edges with ``c > 0`` and ``hi`` the earliest of those with
``c < 0``. These are exact rationals; the first contact is ``lo`` rounded down to a
float, its normal the edge that gives ``lo``. The method is the swept separating
axis test (Ericson 5.5.8 for boxes; Eberly, "Intersection of convex objects: the
method of separating axes").
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import NamedTuple

from collide2d.geometry._exact import ratio_floor, scale
from collide2d.geometry.circle import Circle
from collide2d.geometry.polygon import Polygon
from collide2d.geometry.rect import Rect
from collide2d.geometry.rect_like import RECT_LIKE, described, rect_like
from collide2d.geometry.segment import Segment
from collide2d.geometry.vec2 import Vec2

Outline = Sequence[tuple[float, float]]
"""Vertices of a convex shape, floats, in the stored order."""


def outline(shape: Polygon | Rect | Segment | Vec2) -> tuple[tuple[float, float], ...]:
    """The convex outline of a polygon, a rectangle (its corners ``x``, ``x + w`` as
    floats; fewer for a zero size), a segment or a point.

    >>> outline(Rect(0, 0, 2, 1))
    ((0.0, 0.0), (2.0, 0.0), (2.0, 1.0), (0.0, 1.0))
    >>> outline(Rect(3, 4, 0, 2))
    ((3.0, 4.0), (3.0, 6.0))
    """
    if isinstance(shape, Polygon):
        return shape.vertices
    if isinstance(shape, Rect):
        left, top, w, h = shape
        right = left + w
        bottom = top + h
        if not (math.isfinite(right) and math.isfinite(bottom)):
            raise ValueError(
                f"{shape!r} has an edge beyond the floats (x + w or y + h overflows): "
                "tests with polygons and segments need its edges finite"
            )
        if right == left:
            return ((left, top),) if bottom == top else ((left, top), (left, bottom))
        if bottom == top:
            return ((left, top), (right, top))
        return ((left, top), (right, top), (right, bottom), (left, bottom))
    if isinstance(shape, Segment):
        start, end = shape
        return (tuple(start),) if start == end else (tuple(start), tuple(end))  # type: ignore[return-value]
    if isinstance(shape, Vec2):
        return (tuple(shape),)  # type: ignore[return-value]
    raise TypeError(f"expected a Polygon, Rect, Segment or point, got {shape!r}")


class Axis(NamedTuple):
    """One separating-axis candidate: the line through ``(px, py)`` along ``(ex, ey)``
    (integers of the call's scale), with the owner's shape on its left
    (``orient >= 0``); ``owner`` is 0 for the mover ``a`` and 1 for ``b``; ``edge`` is
    the edge's number in its outline (``i`` for the edge from vertex ``i``)."""

    px: int
    py: int
    ex: int
    ey: int
    owner: int
    edge: int


class Interval(NamedTuple):
    """The exact open interval of times ``(lo, hi)`` in which two convex shapes
    overlap during a relative translation, each end a ratio of integers with a
    positive denominator, ``None`` for an infinite end; ``lo_axis`` the axis that
    gives ``lo`` (None when ``lo`` is infinite)."""

    lo: tuple[int, int] | None
    hi: tuple[int, int] | None
    lo_axis: Axis | None


def integers(
    outlines: Sequence[Outline], extras: Sequence[float] = ()
) -> tuple[list[tuple[list[int], list[int]]], list[int], int]:
    """Scale every outline's coordinates and the extra values to one power of two.

    Returns each outline as ``(xs, ys)`` integer lists, the extras as integers, and
    the exponent ``e`` of the scale (a value is its integer times ``2**e``).
    """
    flat = [c for outline in outlines for v in outline for c in v]
    ints, e = scale([*flat, *extras])
    out = []
    at = 0
    for outline in outlines:
        n = len(outline)
        chunk = ints[at : at + 2 * n]
        out.append((chunk[0::2], chunk[1::2]))
        at += 2 * n
    return out, ints[at:], e


def axes(xs: list[int], ys: list[int], owner: int) -> list[Axis]:
    """The separating-axis candidates a convex outline offers (see the module)."""
    n = len(xs)
    if n >= 3:
        return [
            Axis(xs[i], ys[i], xs[(i + 1) % n] - xs[i], ys[(i + 1) % n] - ys[i], owner, i)
            for i in range(n)
        ]
    if n == 2:
        ex, ey = xs[1] - xs[0], ys[1] - ys[0]
        return [Axis(xs[0], ys[0], ex, ey, owner, 0), Axis(xs[1], ys[1], -ex, -ey, owner, 1)]
    return []


def support(axis: Axis, xs: list[int], ys: list[int]) -> int:
    """The largest ``orient`` of the vertices ``(xs, ys)`` against ``axis``."""
    px, py, ex, ey = axis[0], axis[1], axis[2], axis[3]
    return max(ex * (y - py) - ey * (x - px) for x, y in zip(xs, ys, strict=True))


def overlaps_outlines(a: tuple[list[int], list[int]], b: tuple[list[int], list[int]]) -> bool:
    """Whether two convex outlines (integers of one scale) overlap, strictly."""
    axs, ays = a
    bxs, bys = b
    if len(axs) == 1 and len(bxs) == 1:
        return False
    for axis in axes(axs, ays, 0):
        if support(axis, bxs, bys) <= 0:
            return False
    return all(support(axis, axs, ays) > 0 for axis in axes(bxs, bys, 1))


def interval(
    a: tuple[list[int], list[int]], b: tuple[list[int], list[int]], dx: int, dy: int
) -> Interval | None:
    """The exact open interval of times in which ``a``, moving by ``(dx, dy)`` per unit
    of time relative to ``b``, overlaps ``b``; ``None`` when it never does."""
    axs, ays = a
    bxs, bys = b
    if len(axs) == 1 and len(bxs) == 1:
        return None
    lo: tuple[int, int] | None = None
    lo_axis: Axis | None = None
    hi: tuple[int, int] | None = None
    for owner, (own_x, own_y, other_x, other_y) in enumerate(
        ((axs, ays, bxs, bys), (bxs, bys, axs, ays))
    ):
        for axis in axes(own_x, own_y, owner):
            o = support(axis, other_x, other_y)
            rate = axis.ex * dy - axis.ey * dx
            if owner == 0:
                rate = -rate  # the other shape (b) moves by -d relative to a
            if rate == 0:
                if o <= 0:
                    return None
            elif rate > 0:  # separated while t <= -o / rate
                if lo is None or (-o) * lo[1] > lo[0] * rate:
                    lo = (-o, rate)
                    lo_axis = axis
                elif (-o) * lo[1] == lo[0] * rate and _prefer(axis, lo_axis, dx, dy):
                    lo_axis = axis
            else:  # separated while t >= o / -rate
                if hi is None or o * hi[1] < hi[0] * -rate:
                    hi = (o, -rate)
    if lo is not None and hi is not None and lo[0] * hi[1] >= hi[0] * lo[1]:
        return None
    return Interval(lo, hi, lo_axis)


def corner_axis(
    a: tuple[list[int], list[int]], b: tuple[list[int], list[int]], dx: int, dy: int
) -> Axis | None:
    """Where ``a``, moving by ``(dx, dy)`` relative to ``b``, first meets it corner to
    corner (two axes that are not parallel give the first contact at once: a vertex
    meets a vertex), the axis of least penetration an instant later: of the tied
    axes, the one the motion faces least squarely (``|e x d| / |e|``, compared
    exactly), then the obstacle's, then the one nearer the x axis, then the lower
    edge. None when the first contact is a face's, or there is none, or they
    already overlap."""
    span = interval(a, b, dx, dy)
    if span is None or span.lo is None or span.lo[0] < 0:
        return None
    first = span.lo
    lo_axis = span.lo_axis
    assert lo_axis is not None
    tied: list[tuple[Axis, int]] = []
    for owner, (own_x, own_y, other_x, other_y) in enumerate(
        ((a[0], a[1], b[0], b[1]), (b[0], b[1], a[0], a[1]))
    ):
        for axis in axes(own_x, own_y, owner):
            rate = axis.ex * dy - axis.ey * dx
            if owner == 0:
                rate = -rate
            if rate > 0 and -support(axis, other_x, other_y) * first[1] == first[0] * rate:
                tied.append((axis, rate))
    if all(axis.ex * lo_axis.ey == axis.ey * lo_axis.ex for axis, _ in tied):
        return None  # faces meet (parallel edges): no corner
    best, best_rate = tied[0]
    for axis, rate in tied[1:]:
        less = rate * rate * _length2(best) - best_rate * best_rate * _length2(axis)
        if less < 0 or (less == 0 and _prefer(axis, best, dx, dy)):
            best, best_rate = axis, rate
    return best


def _prefer(axis: Axis, best: Axis | None, dx: int, dy: int) -> bool:
    """Between two axes that give the same first contact (a vertex meets a vertex, or
    faces meet exactly at a corner): the obstacle's edge first, then the one that
    faces the motion more squarely, then the x axis, then the lower edge number."""
    if best is None:
        return True
    if axis.owner != best.owner:
        return axis.owner > best.owner
    # how squarely the motion meets each edge, |e x d| / |e|, compared squared
    facing = (axis.ex * dy - axis.ey * dx) ** 2 * _length2(best)
    best_facing = (best.ex * dy - best.ey * dx) ** 2 * _length2(axis)
    if facing != best_facing:
        return facing > best_facing
    along_x = axis.ey * axis.ey * _length2(best)  # normal (ey, -ex): its x share, squared
    best_along_x = best.ey * best.ey * _length2(axis)
    if along_x != best_along_x:
        return along_x > best_along_x
    return axis.edge < best.edge


def _length2(axis: Axis) -> int:
    return axis.ex * axis.ex + axis.ey * axis.ey


def first_fraction(span: Interval) -> float:
    """``lo`` rounded down to a float (``0.0`` for an infinite ``lo``)."""
    if span.lo is None:
        return 0.0
    return ratio_floor(*span.lo)


def in_frame(span: Interval) -> bool:
    """Whether the interval meets the frame ``[0, 1)``: ``lo < 1`` and ``hi > 0``."""
    lo, hi = span.lo, span.hi
    if lo is not None and lo[0] >= lo[1]:
        return False
    return hi is None or hi[0] > 0


def started(span: Interval) -> bool:
    """Whether the shapes overlap at ``t = 0`` (``lo < 0 < hi``)."""
    return (span.lo is None or span.lo[0] < 0) and (span.hi is None or span.hi[0] > 0)


def least_penetration(
    a: tuple[list[int], list[int]], b: tuple[list[int], list[int]]
) -> tuple[Axis, int]:
    """For overlapping outlines, the axis along which the shortest push separates
    them and that push's ``orient`` (divide by the edge's length for the depth).

    Depths ``O / |e|`` are compared exactly (``O1^2 |e2|^2 < O2^2 |e1|^2``); ties go
    to the obstacle's edge (``b``), then the lower edge number.
    """
    axs, ays = a
    bxs, bys = b
    best: tuple[Axis, int] | None = None
    for owner, own_x, own_y, other_x, other_y in ((1, bxs, bys, axs, ays), (0, axs, ays, bxs, bys)):
        for axis in axes(own_x, own_y, owner):
            o = support(axis, other_x, other_y)
            if best is None or o * o * _length2(best[0]) < best[1] ** 2 * _length2(axis):
                best = (axis, o)
    if best is None:
        raise ValueError("two points cannot overlap")
    return best


def overlaps_circle_outline(outline: tuple[list[int], list[int]], cx: int, cy: int, r: int) -> bool:
    """Whether the open disc about ``(cx, cy)`` of radius ``r`` overlaps the convex
    outline (integers of one scale): the centre's distance to the closed outline is
    below ``r``. A zero radius is a point, which overlaps only what it lies strictly
    inside."""
    xs, ys = outline
    n = len(xs)
    if n >= 3:
        inside = True
        strictly = True
        for axis in axes(xs, ys, 1):
            o = axis.ex * (cy - axis.py) - axis.ey * (cx - axis.px)
            if o < 0:
                inside = strictly = False
                break
            if o == 0:
                strictly = False
        if strictly or (inside and r > 0):
            return True
    if r == 0:
        return False
    rr = r * r
    if n == 1:
        return (cx - xs[0]) ** 2 + (cy - ys[0]) ** 2 < rr
    for i in range(n if n >= 3 else 1):
        px, py = xs[i], ys[i]
        ex, ey = xs[(i + 1) % n] - px, ys[(i + 1) % n] - py
        wx, wy = cx - px, cy - py
        along = wx * ex + wy * ey
        length2 = ex * ex + ey * ey
        if along <= 0:
            near = wx * wx + wy * wy < rr
        elif along >= length2:
            near = (wx - ex) ** 2 + (wy - ey) ** 2 < rr
        else:
            cross = ex * wy - ey * wx
            near = cross * cross < rr * length2
        if near:
            return True
    return False


def as_outline(shape: object, name: str) -> tuple[tuple[float, float], ...]:
    """The convex outline of a polygon, segment or rectangle, or a ``TypeError`` that
    names the argument."""
    if isinstance(shape, (Polygon, Segment, Rect)):
        return outline(shape)
    rect = rect_like(shape, name)
    if rect is not None:
        return outline(rect)
    raise TypeError(
        f"{name} must be a Rect, a Circle, a Polygon, a Segment, a PlacedMask or {RECT_LIKE},"
        f" got {described(shape)}"
    )


def extent(points: Outline) -> tuple[float, float, float, float]:
    xs = [p[0] for p in points]
    ys = [p[1] for p in points]
    return min(xs), min(ys), max(xs), max(ys)


def overlaps_convex(a: object, b: object) -> bool:
    """Strict overlap of two shapes among polygons, segments, rectangles and circles,
    at least one of them a polygon or a segment: exact.

    >>> overlaps_convex(Polygon.box(0, 0, 2, 2, 0.5), Circle(2, 0, 0.8))
    True
    """
    if isinstance(a, Circle) or isinstance(b, Circle):
        circle: Circle = a if isinstance(a, Circle) else b  # type: ignore[assignment]
        other, name = (b, "b") if isinstance(a, Circle) else (a, "a")
        shape = as_outline(other, name)
        cx, cy, r = circle
        (si,), (icx, icy, ir), _ = integers((shape,), (cx, cy, r))
        return overlaps_circle_outline(si, icx, icy, ir)
    oa = as_outline(a, "a")
    ob = as_outline(b, "b")
    al, at, ar, ab = extent(oa)
    bl, bt, br, bb = extent(ob)
    if ar < bl or br < al or ab < bt or bb < at:  # apart even with their boxes
        return False
    (ai, bi), _, _ = integers((oa, ob))
    return overlaps_outlines(ai, bi)
