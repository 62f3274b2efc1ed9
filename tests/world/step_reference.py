"""A slow, obviously correct ``World.step``: after every event, every pair's next
contact is recomputed from scratch, in exact rational arithmetic.

Square roots (circles) are taken to ``2**-BITS``, a time found with one is rounded
to the same grid, and the places of an event's two bodies whose numbers grow beyond
that are rounded to it too, which is exact for every comparison a test can make of
float results; positions of modest denominators (every event between rectangles, a
body moving with a dyadic velocity through a disc's event) stay exact, so a tie (two
corners that only touch, an arrival exactly at ``dt``) stays a tie. Every other body
keeps its place and moment of its last event (as the step's "local time") and is
never rounded at events it takes no part in. The
rules are those of ``docs/step.md``; nothing here shares code with the compiled
core. Events at the same moment are ordered by (overlap, face, corner), then by the
two bodies' numbers (the order their items were added, a mask's pixel boxes in its
place).
"""

from __future__ import annotations

import math
import sys
from dataclasses import dataclass, field
from fractions import Fraction as Q
from typing import Any

from collide2d import Circle, PlacedMask, PlacedPolygon, Rect, World
from tests.world import step_reference_discs as discs

BITS = 200
ROUNDING = Q(1, 2**150)
"""Overlaps no deeper than this come from the rounding of square roots."""
FAINT = Q(1, 10**12)
"""An approach slower than this (units a second, along the normal) is rounding's: a
disc slid along a face with a normal of square roots moves off it at 1e-30, where
exactly it rides along it (``meets_a_faint_contact``)."""
INF = math.inf
NEAR_CORNER = Q(1, 10**9)
"""Edges of a polygon pair whose contact times are this close (relative) give it at
once: a corner (``polygon_contact``)."""
JAMMED = "overlaps of rounding size taken apart at one moment without end"
STARTED, FACE, CORNER = 0, 1, 2
RESPONSES = ("ignore", "cross", "touch", "slide", "bounce")


def sqrt(value: Q) -> Q:
    """``sqrt(value)`` to within ``2**-BITS`` (rounded down)."""
    return Q(math.isqrt(value.numerator * 4**BITS // value.denominator), 2**BITS)


def on_grid(value: Q, up: Q | int = 0) -> Q:
    """``value`` rounded to the grid of ``2**-BITS`` when its denominator is larger
    (bounds the size of the numbers; a rounding there broke exact ties): up if ``up``
    is positive, down if negative, else to the nearest."""
    if value.denominator <= 2**BITS:
        return value
    scaled = value * 2**BITS
    whole = math.ceil(scaled) if up > 0 else math.floor(scaled) if up < 0 else round(scaled)
    return Q(whole, 2**BITS)


@dataclass
class Body:
    kind: str  # "rect", "circle" or "polygon" (its vertices about x, y in extra["local"])
    x: Q
    y: Q
    w: Q  # a circle's radius
    h: Q
    v: list[Q]  # stored velocity
    mv: list[Q]  # the velocity it moves with in this step (0 once frozen)
    inv: Q | None  # inverse mass; None when fixed
    group: int
    owner: int
    fixed: bool
    frozen: bool = False
    events: int = 0
    x0: Q = Q(0)  # its place at t0, the moment of its last event (its "local time")
    y0: Q = Q(0)
    t0: Q = Q(0)
    extra: dict[str, Any] = field(default_factory=dict)

    def box(self) -> tuple[Q, Q, Q, Q]:
        if self.kind == "rect":
            return self.x, self.y, self.x + self.w, self.y + self.h
        if self.kind == "polygon":
            xs, ys = zip(*self.outline(), strict=True)
            return min(xs), min(ys), max(xs), max(ys)
        return self.x - self.w, self.y - self.w, self.x + self.w, self.y + self.w

    def outline(self) -> list[tuple[Q, Q]]:
        """A rectangle's or polygon's vertices in the stored order (positive area)."""
        if self.kind == "polygon":
            return [(self.x + lx, self.y + ly) for lx, ly in self.extra["local"]]
        left, top, right, bottom = self.x, self.y, self.x + self.w, self.y + self.h
        return [(left, top), (right, top), (right, bottom), (left, bottom)]

    def mobility(self) -> Q:
        return Q(0) if self.fixed or self.frozen or self.inv is None else self.inv


def bodies_of(world: World) -> tuple[list[Body], list[Any]]:
    """The world's items as bodies, numbered as the core numbers them."""
    bodies: list[Body] = []
    items = list(world)
    for owner, item in enumerate(items):
        shape = world.shape(item)
        vx, vy = (Q(c) for c in world.velocity(item))
        mass = world.mass(item)
        inv = Q(0) if mass == math.inf else 1 / Q(mass)
        group = world._table.group[world._table.slot[item]]
        if isinstance(shape, PlacedMask):
            for x0, y0, x1, y1 in shape.mask.boxes().tolist():
                bodies.append(Body("rect", Q(shape.x) + x0, Q(shape.y) + y0, Q(x1 - x0),
                                   Q(y1 - y0), [Q(0), Q(0)], [Q(0), Q(0)], Q(0), int(group),
                                   owner, True))  # fmt: skip
            continue
        fixed = inv == 0 and vx == 0 and vy == 0
        if isinstance(shape, Rect):
            body = Body("rect", Q(shape.x), Q(shape.y), Q(shape.w), Q(shape.h), [vx, vy],
                        [vx, vy], inv, int(group), owner, fixed)  # fmt: skip
        elif isinstance(shape, PlacedPolygon):
            body = Body("polygon", Q(shape.x), Q(shape.y), Q(0), Q(0), [vx, vy], [vx, vy],
                        inv, int(group), owner, fixed)  # fmt: skip
            body.extra["local"] = [(Q(vx_), Q(vy_)) for vx_, vy_ in shape.polygon.vertices]
        else:
            assert isinstance(shape, Circle)
            body = Body("circle", Q(shape.x), Q(shape.y), Q(shape.r), Q(shape.r), [vx, vy],
                        [vx, vy], inv, int(group), owner, fixed)  # fmt: skip
        if fixed:
            body.mv = [Q(0), Q(0)]
        bodies.append(body)
    return bodies, items


def edges(body: Body) -> list[tuple[Q, Q, Q, Q]]:
    """The outline's edges ``(px, py, ex, ey)``: from vertex ``p``, along ``e``."""
    points = body.outline()
    return [(px, py, qx - px, qy - py)
            for (px, py), (qx, qy) in zip(points, points[1:] + points[:1], strict=True)]  # fmt: skip


def polygon_axes(a: Body, b: Body) -> list[tuple[int, Q, Q, Q, Q]]:
    """The separating axes of a pair with a polygon, ``a``'s edges then ``b``'s (as
    ``pairs.polygon_axes.axes`` lists them): ``(owner, ex, ey, O, R)``, ``O`` the
    largest ``e x (v - p)`` over the other's vertices now, ``R`` its rate for the
    relative motion (the edge separates the shapes at ``t`` while ``O + t R <= 0``)."""
    d = (a.mv[0] - b.mv[0], a.mv[1] - b.mv[1])
    found = []
    for owner, (own, other) in enumerate(((a, b), (b, a))):
        way = -1 if owner == 0 else 1
        points = other.outline()
        for px, py, ex, ey in edges(own):
            o = max(ex * (vy - py) - ey * (vx - px) for vx, vy in points)
            found.append((owner, ex, ey, o, way * (ex * d[1] - ey * d[0])))
    return found


def disc_pair(a: Body, b: Body) -> tuple[Body, Body, int] | None:
    """``(circle, polygon, sign)`` of a circle and a polygon (``sign`` 1 if ``a`` is
    the circle, else -1), or None."""
    if a.kind == "circle" and b.kind == "polygon":
        return a, b, 1
    if a.kind == "polygon" and b.kind == "circle":
        return b, a, -1
    return None


def overlapping(a: Body, b: Body) -> bool:
    pair = disc_pair(a, b)
    if pair is not None:
        return discs.overlapping(pair[1].outline(), pair[0].x, pair[0].y, pair[0].w)
    if a.kind == "polygon" or b.kind == "polygon":
        return all(o > 0 for _, _, _, o, _ in polygon_axes(a, b))
    if a.kind == "rect" and b.kind == "rect":
        ba, bb = a.box(), b.box()
        return ba[0] < bb[2] and bb[0] < ba[2] and ba[1] < bb[3] and bb[1] < ba[3]
    if a.kind == "circle" and b.kind == "circle":
        return (a.x - b.x) ** 2 + (a.y - b.y) ** 2 < (a.w + b.w) ** 2
    c, r = (a, b) if a.kind == "circle" else (b, a)
    left, top, right, bottom = r.box()
    if c.w == 0:
        return left < c.x < right and top < c.y < bottom
    dx = max(left - c.x, Q(0), c.x - right)
    dy = max(top - c.y, Q(0), c.y - bottom)
    return dx * dx + dy * dy < c.w * c.w


def axis_times(lo: Q, hi: Q, d: Q, blo: Q, bhi: Q) -> tuple[Q | float, Q | float]:
    """When ``(lo, hi) + t d`` overlaps ``(blo, bhi)`` (open), on the whole line."""
    if d > 0:
        return (blo - hi) / d, (bhi - lo) / d
    if d < 0:
        return (bhi - lo) / d, (blo - hi) / d
    return (-INF, INF) if lo < bhi and blo < hi else (INF, -INF)


def box_entry(
    a: tuple[Q, Q, Q, Q], d: tuple[Q, Q], b: tuple[Q, Q, Q, Q]
) -> tuple[Q | float, Q | float, int, bool]:
    ex, lx = axis_times(a[0], a[2], d[0], b[0], b[2])
    ey, ly = axis_times(a[1], a[3], d[1], b[1], b[3])
    return max(ex, ey), min(lx, ly), (0 if ex >= ey else 1), ex == ey


def disc_entry(px: Q, py: Q, dx: Q, dy: Q, r: Q) -> Q | float:
    """First ``t`` with ``|p + t d| < r``, or inf (moving away, or only grazing)."""
    a = dx * dx + dy * dy
    b = px * dx + py * dy
    c = px * px + py * py - r * r
    if r == 0 or a == 0 or c < 0:
        return 0 if c < 0 and r > 0 else INF
    disc = b * b - a * c
    if disc <= 0 or b >= 0:
        return INF
    # (-b - sqrt(disc)) / a, in the form whose error does not grow as the speeds fall:
    # a disc jammed in a wedge at 1e-18 units a second, its entries divided by a =
    # 1e-36, met the discs 1e-43 deep, beyond the rounding an overlap may have.
    return on_grid(c / (-b + sqrt(disc)))


def first_contact(a: Body, b: Body) -> tuple[Q | float, int, int]:
    """``(t, rank, axis)`` of the first moment ``a`` and ``b`` overlap, from now."""
    if overlapping(a, b):
        return Q(0), STARTED, 0
    d = (a.mv[0] - b.mv[0], a.mv[1] - b.mv[1])
    if d == (0, 0):
        return INF, 0, 0
    if a.kind == "rect" and b.kind == "rect":
        enter, leave, axis, corner = box_entry(a.box(), d, b.box())
        if enter < leave and leave > 0:
            return max(enter, Q(0)), (CORNER if corner else FACE), axis
        return INF, 0, 0
    pair = disc_pair(a, b)
    if pair is not None:
        c, p, sign = pair
        found = discs.entry(p.outline(), c.x, c.y, c.w, (sign * d[0], sign * d[1]), _this())
        return found, FACE, 0
    if a.kind == "polygon" or b.kind == "polygon":
        return polygon_contact(a, b)
    if a.kind == "circle" and b.kind == "circle":
        return disc_entry(a.x - b.x, a.y - b.y, d[0], d[1], a.w + b.w), FACE, 0
    c, r, d = (a, b, d) if a.kind == "circle" else (b, a, (-d[0], -d[1]))
    left, top, right, bottom = r.box()
    point = (c.x, c.y, c.x, c.y)
    best: Q | float = INF
    for box in ((left - c.w, top, right + c.w, bottom), (left, top - c.w, right, bottom + c.w)):
        enter, leave, _, _ = box_entry(point, d, box)
        if enter < leave and leave > 0:
            best = min(best, max(enter, Q(0)))
    for cx, cy in ((left, top), (right, top), (left, bottom), (right, bottom)):
        best = min(best, disc_entry(c.x - cx, c.y - cy, d[0], d[1], c.w))
    return best, FACE, 0


def polygon_times(a: Body, b: Body) -> tuple[Q | float, Q | float, list[int]]:
    """The swept separating-axis test of a pair with a polygon: when the open shapes
    start and stop overlapping (``-inf`` / ``inf`` if not bounded; no overlap if the
    first is not before the second), and the axes whose start is the latest."""
    enter: Q | float = -INF
    leave: Q | float = INF
    latest: list[int] = []
    for k, (_, _, _, o, r) in enumerate(polygon_axes(a, b)):
        if r > 0:
            if -o / r > enter:
                enter, latest = -o / r, [k]
            elif -o / r == enter:
                latest.append(k)
        elif r < 0:
            leave = min(leave, -o / r)
        elif o <= 0:
            return INF, -INF, []
    return enter, leave, latest


def polygon_contact(a: Body, b: Body) -> tuple[Q | float, int, int]:
    """``first_contact`` of a pair with a polygon (not overlapping now): the axis is
    the edge that gives it (of several, the least facing the motion, then the
    obstacle ``b``'s, then the first in order); a corner when another edge not
    parallel to it gives it too."""
    enter, leave, latest = polygon_times(a, b)
    if not (enter < leave and leave > 0) or not latest:
        return INF, 0, 0
    axes = polygon_axes(a, b)
    # of the tied edges, the one the motion meets least squarely (|e x d| / |e|: the
    # face of least penetration an instant later), then the obstacle's, then the
    # first (alike within a trillionth, as floats can tell them)
    axis, least = -1, Q(0)
    for k in [k for k in latest if axes[k][0] == 1] + [k for k in latest if axes[k][0] == 0]:
        _, ex_, ey_, _, rate = axes[k]
        facing = rate * rate / (ex_ * ex_ + ey_ * ey_)
        if axis < 0 or facing < least * (1 - Q(1, 10**12)) ** 2:
            axis, least = k, facing
    ex, ey = axes[axis][1], axes[axis][2]
    # (another edge not parallel to it giving the contact within rounding of the
    # same moment is a corner too: after a slide off a slanted face, places and
    # times of square roots put one axis a hair before the other, either one in
    # floats; ``meets_a_rounded_corner``)
    slack = NEAR_CORNER * max(Q(1), abs(enter))  # type: ignore[arg-type]
    near = [k for k, (_, _, _, o, r) in enumerate(axes) if r > 0 and enter + o / r <= slack]
    corner = any(axes[k][1] * ey - axes[k][2] * ex != 0 for k in near if k != axis)
    return max(enter, Q(0)), (CORNER if corner else FACE), axis


def polygon_graze(a: Body, b: Body) -> tuple[Q, Q | float] | None:
    """``graze`` of a pair with a polygon that never overlaps: from when to when the
    closed shapes touch, by the same axes (an axis whose ``O`` stays at zero rides)."""
    enter: Q | float = -INF
    leave: Q | float = INF
    for _, _, _, o, r in polygon_axes(a, b):
        if r > 0:
            enter = max(enter, -o / r)
        elif r < 0:
            leave = min(leave, -o / r)
        elif o < 0:
            return None
    start = max(enter, Q(0))
    if start > leave or leave < 0:
        return None
    return start, leave  # type: ignore[return-value]


def gap(a: Body, b: Body, d: tuple[Q, Q], t: Q) -> Q:
    """How far from touching ``a`` is from ``b`` once it has moved by ``d * t`` (zero:
    touching; a circle's is its squared distance less its squared radius)."""
    if a.kind == "circle" and b.kind == "circle":
        x, y = a.x + d[0] * t - b.x, a.y + d[1] * t - b.y
        return x * x + y * y - (a.w + b.w) ** 2
    if a.kind == "rect" and b.kind == "rect":
        left, top, right, bottom = a.box()
        bl, bt, br, bb = b.box()
        gx = max(bl - right - d[0] * t, Q(0), left + d[0] * t - br)
        gy = max(bt - bottom - d[1] * t, Q(0), top + d[1] * t - bb)
        return gx * gx + gy * gy
    c, r, sign = (a, b, 1) if a.kind == "circle" else (b, a, -1)
    x, y = c.x + sign * d[0] * t, c.y + sign * d[1] * t
    left, top, right, bottom = r.box()
    gx, gy = max(left - x, Q(0), x - right), max(top - y, Q(0), y - bottom)
    return gx * gx + gy * gy - c.w * c.w


def graze(a: Body, b: Body, within: Q | float = INF) -> tuple[Q, Q | float] | None:
    """From when to when, from now, two bodies that never overlap touch (a moment:
    corners that pass, a tangency; or a while: riding along a face), or None; None too
    when their bounds do not touch ``within`` that time from now.

    How far from touching they are is convex in time (a distance to a convex set along
    a line), so its zeros are one interval whose ends are among the moments a
    coordinate meets an edge's, the closest approaches to a corner or a centre, now,
    and (a ride without end) a moment after all of them."""
    d = (a.mv[0] - b.mv[0], a.mv[1] - b.mv[1])
    if within != INF:  # (the bounds a's path sweeps, from b's frame)
        box, other = a.box(), b.box()
        dx, dy = d[0] * within, d[1] * within
        lo_x, hi_x = box[0] + min(dx, 0), box[2] + max(dx, 0)
        lo_y, hi_y = box[1] + min(dy, 0), box[3] + max(dy, 0)
        if hi_x < other[0] or other[2] < lo_x or hi_y < other[1] or other[3] < lo_y:
            return None
    if overlapping(a, b) or first_contact(a, b)[0] != INF:
        return None
    pair = disc_pair(a, b)
    if pair is not None:
        c, p, sign = pair
        return discs.graze(p.outline(), c.x, c.y, c.w, (sign * d[0], sign * d[1]))
    if a.kind == "polygon" or b.kind == "polygon":
        return polygon_graze(a, b)
    moments = {Q(0)}
    speed = d[0] * d[0] + d[1] * d[1]
    if speed:  # (in the frame of one body, the other, a circle if either is, moving)
        mover, still, sign = (a, b, 1) if a.kind == "circle" or b.kind != "circle" else (b, a, -1)
        mine, theirs = (body.box() if body.kind == "rect" else (body.x, body.y) * 2
                        for body in (mover, still))  # fmt: skip
        v = (sign * d[0], sign * d[1])
        for axis in (0, 1):
            for edge in (mine[axis], mine[axis + 2]) if v[axis] else ():
                moments |= {(other - edge) / v[axis] for other in theirs[axis::2]}
        for px in theirs[0::2]:
            for py in theirs[1::2]:
                moments.add(((px - mine[0]) * v[0] + (py - mine[1]) * v[1]) / speed)
    moments = {t for t in moments if t >= 0}
    moments.add(max(moments) + 1)
    zeros = sorted(t for t in moments if gap(a, b, d, t) == 0)
    if not zeros:
        return None
    return zeros[0], (INF if zeros[-1] == max(moments) else zeros[-1])


def unit(x: Q, y: Q) -> tuple[Q, Q]:
    length = sqrt(x * x + y * y)
    if length == 0:
        return Q(0), Q(-1)
    return x / length, y / length


def rect_push(a: tuple[Q, ...], b: tuple[Q, ...]) -> tuple[Q, Q, Q]:
    to_left, to_right = a[2] - b[0], b[2] - a[0]
    to_top, to_bottom = a[3] - b[1], b[3] - a[1]
    if min(to_left, to_right) <= min(to_top, to_bottom):
        return (Q(-1), Q(0), to_left) if to_left <= to_right else (Q(1), Q(0), to_right)
    return (Q(0), Q(-1), to_top) if to_top <= to_bottom else (Q(0), Q(1), to_bottom)


def circle_push(c: Body, r: Body) -> tuple[Q, Q, Q]:
    left, top, right, bottom = r.box()
    qx, qy = min(max(c.x, left), right), min(max(c.y, top), bottom)
    if (qx, qy) != (c.x, c.y):
        nx, ny = unit(c.x - qx, c.y - qy)
        return nx, ny, c.w - sqrt((c.x - qx) ** 2 + (c.y - qy) ** 2)
    nx, ny, depth = rect_push((c.x, c.y, c.x, c.y), (left, top, right, bottom))
    return nx, ny, depth + c.w


def axis_normal(axes: list[tuple[int, Q, Q, Q, Q]], k: int) -> tuple[Q, Q]:
    """Axis ``k``'s unit normal from ``b`` toward ``a``: ``b``'s edge's outward
    normal, or ``a``'s reversed."""
    owner, ex, ey = axes[k][:3]
    nx, ny = unit(ey, -ex)
    return (nx, ny) if owner == 1 else (-nx, -ny)


def polygon_push(a: Body, b: Body) -> tuple[Q, Q, Q]:
    """The shortest push of ``a`` out of ``b`` (a pair with a polygon): the edge whose
    ``O / |e|`` is least, ``b``'s edges first, then ``a``'s, the first of equal."""
    axes = polygon_axes(a, b)
    order = [k for k in range(len(axes)) if axes[k][0] == 1]
    order += [k for k in range(len(axes)) if axes[k][0] == 0]
    best, depth = order[0], None
    for k in order:
        _, ex, ey, o, _ = axes[k]
        square = o * o / (ex * ex + ey * ey)
        if depth is None or square < depth:
            best, depth = k, square
    nx, ny = axis_normal(axes, best)
    return nx, ny, sqrt(depth) if depth else Q(0)  # type: ignore[arg-type]


def separation(a: Body, b: Body) -> tuple[Q, Q, Q]:
    """Least penetration of ``a`` out of ``b``: normal from ``b`` to ``a`` and depth."""
    pair = disc_pair(a, b)
    if pair is not None:
        c, p, sign = pair
        _, _, nx, ny, distance = discs.nearest(p.outline(), c.x, c.y, _this())
        return sign * nx, sign * ny, c.w - distance
    if a.kind == "polygon" or b.kind == "polygon":
        return polygon_push(a, b)
    if a.kind == "circle" and b.kind == "circle":
        nx, ny = unit(a.x - b.x, a.y - b.y)
        return nx, ny, a.w + b.w - sqrt((a.x - b.x) ** 2 + (a.y - b.y) ** 2)
    if a.kind == "circle":
        return circle_push(a, b)
    if b.kind == "circle":
        nx, ny, depth = circle_push(b, a)
        return -nx, -ny, depth
    return rect_push(a.box(), b.box())


def contact_normal(a: Body, b: Body, axis: int) -> tuple[Q, Q]:
    if disc_pair(a, b) is not None:
        nx, ny, _ = separation(a, b)
        return nx, ny
    if a.kind == "polygon" or b.kind == "polygon":
        return axis_normal(polygon_axes(a, b), axis)
    if a.kind == "rect" and b.kind == "rect":
        if axis == 0:
            return (Q(-1) if a.mv[0] - b.mv[0] > 0 else Q(1)), Q(0)
        return Q(0), (Q(-1) if a.mv[1] - b.mv[1] > 0 else Q(1))
    nx, ny, _ = separation(a, b)
    return nx, ny


def polygon_point(a: Body, b: Body, nx: Q, ny: Q) -> tuple[Q, Q]:
    """Where a pair with a polygon touches along the normal ``(nx, ny)`` (from ``b``
    toward ``a``): the middle of the stretch, along the tangent ``(-ny, nx)``, that
    ``a``'s vertices least along the normal and ``b``'s most along it share, at
    ``b``'s."""

    def support(body: Body, sign: int) -> tuple[Q, Q, Q]:
        along = [(sign * (x * nx + y * ny), -x * ny + y * nx) for x, y in body.outline()]
        far = max(s for s, _ in along)
        size = max(abs(x) + abs(y) for x, y in body.outline())
        near = [t for s, t in along if s >= far - size / 10**9]
        return sign * far, max(near), min(near)

    _, a_hi, a_lo = support(a, -1)
    s, b_hi, b_lo = support(b, 1)
    lo, hi = max(a_lo, b_lo), min(a_hi, b_hi)
    if lo > hi:
        lo, hi = min(a_lo, b_lo), max(a_hi, b_hi)
    t = (lo + hi) / 2
    return s * nx - t * ny, s * ny + t * nx


def contact_point(a: Body, b: Body, nx: Q, ny: Q) -> tuple[Q, Q]:
    pair = disc_pair(a, b)
    if pair is not None:
        kx, ky, _, _, _ = discs.nearest(pair[1].outline(), pair[0].x, pair[0].y, _this())
        return kx, ky
    if a.kind == "polygon" or b.kind == "polygon":
        return polygon_point(a, b, nx, ny)
    if a.kind == "circle" and b.kind == "circle":
        nx, ny = unit(a.x - b.x, a.y - b.y)
        return b.x + nx * b.w, b.y + ny * b.w
    if a.kind == "circle" or b.kind == "circle":
        c, r = (a, b) if a.kind == "circle" else (b, a)
        left, top, right, bottom = r.box()
        return min(max(c.x, left), right), min(max(c.y, top), bottom)
    ba, bb = a.box(), b.box()
    return (max(ba[0], bb[0]) + min(ba[2], bb[2])) / 2, (max(ba[1], bb[1]) + min(ba[3], bb[3])) / 2


def set_normal_speed(body: Body, nx: Q, ny: Q, speed: Q, away: int) -> None:
    """``body``'s speed along ``(nx, ny)`` set to ``speed``, its velocity rounded to
    the grid as places are, each part towards the side that moves the body ``away``
    (+1 along the normal, -1 against it) from the other: rounded to the nearest, a
    slide left a pair approaching by 2**-200 and met again at once. Unrounded, a
    response along a normal of square roots gives each body a denominator of about
    the product of both bodies' ones, so their sizes can double from event to event
    (a hunt's first example stayed 16 minutes in a division of two such numbers;
    three discs jammed in a corner, 100 contacts, took 6.7 s, and 0.7 s rounded)."""
    now = body.mv[0] * nx + body.mv[1] * ny
    body.mv = [
        on_grid(body.mv[0] + (speed - now) * nx, away * nx),
        on_grid(body.mv[1] + (speed - now) * ny, away * ny),
    ]


def respond(a: Body, b: Body, nx: Q, ny: Q, inv_a: Q, inv_b: Q, e: Q) -> None:
    ua = a.mv[0] * nx + a.mv[1] * ny
    ub = b.mv[0] * nx + b.mv[1] * ny
    u = ua - ub
    if u >= 0:
        return
    if inv_b == 0:
        set_normal_speed(a, nx, ny, ub - e * u, 1)
    elif inv_a == 0:
        set_normal_speed(b, nx, ny, ua + e * u, -1)
    else:
        k = (1 + e) * u / (inv_a + inv_b)
        set_normal_speed(a, nx, ny, ua - k * inv_a, 1)
        set_normal_speed(b, nx, ny, ub + k * inv_b, -1)


@dataclass
class Outcome:
    contacts: list[tuple[Any, ...]]  # (time, a, b, nx, ny, px, py, response, started)
    positions: dict[Any, tuple[Q, Q]]
    velocities: dict[Any, tuple[Q, Q]]
    inexact: set[Any]  # items whose place or velocity after an event is no float
    ties: list[tuple[Q, Any, Any]]  # (time, a, b): pairs that met when another was taken
    grazes: list[tuple[Any, ...]]  # (from, until, a, b, made): pairs that only touch then,
    # and the times of the contacts the same two bodies made (a mask's pixels are one item)
    corners: list[tuple[Q, Any, Any]]  # (time, a, b): boxes met corner to corner
    faint: list[tuple[Q, Any, Any]]  # (time, a, b): contacts approaching at rounding's speed


def held_in_floats(body: Body) -> bool:
    """Whether ``body``'s place and velocity are numbers a float holds exactly."""
    return all(Q(float(value)) == value for value in (body.x, body.y, *body.mv))


def bring_to(bodies: list[Body], moment: Q) -> None:
    """Each body where its motion since its last event puts it at ``moment``."""
    for body in bodies:
        body.x = body.x0 + body.mv[0] * (moment - body.t0)
        body.y = body.y0 + body.mv[1] * (moment - body.t0)


def reference_step(world: World, dt: float, cap: int = 64) -> Outcome:
    """What ``world.step(dt, event_cap=cap)`` must do, without changing ``world``."""
    bodies, items = bodies_of(world)
    codes, restitution = world._responses_table()
    end = Q(dt)
    now = Q(0)
    crossed: set[tuple[int, int]] = set()
    inexact: set[int] = set()
    ties: list[tuple[Q, int, int]] = []
    grazes: set[tuple[Q, Q | float, int, int]] = set()
    corners: list[tuple[Q, int, int]] = []
    faint: list[tuple[Q, int, int]] = []
    met: list[tuple[Q, int, int]] = []  # (time, i, j) of each contact: bodies, not items
    apart: dict[Q, int] = {}  # overlaps of rounding size taken apart, by moment
    contacts: list[tuple[Any, ...]] = []
    for body in bodies:
        body.x0, body.y0 = body.x, body.y
    while True:
        bring_to(bodies, now)
        best = None
        found = []
        for i, a in enumerate(bodies):
            for j in range(i + 1, len(bodies)):
                b = bodies[j]
                code = int(codes[a.group, b.group])
                if (a.fixed and b.fixed) or code == 0:
                    continue
                if (a.owner, b.owner) in crossed:  # reported as crossing: once a step
                    continue
                t, rank, axis = first_contact(a, b)
                span = graze(a, b, end - now) if t == INF else None
                if span is not None and now + span[0] < end:
                    grazes.add((now + span[0], now + span[1], i, j))
                if t == INF or now + t >= end:
                    continue
                # (on the grid: the moments of contacts between moving boxes, from
                # places at earlier such moments, grew in size from event to event)
                at = on_grid(now + t)
                key = (at, rank, i, j, axis)
                found.append((at, a.owner, b.owner))
                if best is None or key < best:
                    best = key
        if best is None:
            break
        t, rank, i, j, axis = best
        ties += [(at, p, q) for at, p, q in found
                 if at == t and (p, q) != (bodies[i].owner, bodies[j].owner)]  # fmt: skip
        now = t
        a, b = bodies[i], bodies[j]
        if rank == CORNER:
            corners.append((t, a.owner, b.owner))
        # The event's two bodies are brought to it (rounded to the grid if their
        # numbers grow beyond it); every other body keeps its motion from its own last
        # event, as in the step: rounded at every event, a box slid past a tile's
        # corner at the moment two edges only touch met it 2**-200 deep.
        bring_to(bodies, now)
        for body in (a, b):
            body.x, body.y = on_grid(body.x), on_grid(body.y)
        code = int(codes[a.group, b.group])
        started = rank == STARTED
        if started:
            nx, ny, depth = separation(a, b)
        else:
            (nx, ny), depth = contact_normal(a, b, axis), Q(0)
        inv_a, inv_b = a.mobility(), b.mobility()
        if code != 1 and code != 2 and inv_a + inv_b == 0:
            code = 1
        if code == 1:
            crossed.add((a.owner, b.owner))
            contacts.append(
                (
                    t,
                    a.owner,
                    b.owner,
                    nx,
                    ny,
                    *contact_point(a, b, nx, ny),
                    "cross",
                    started and t == 0,
                )
            )
            met.append((t, i, j))
            continue
        u = (a.mv[0] - b.mv[0]) * nx + (a.mv[1] - b.mv[1]) * ny
        if -FAINT < u < 0 and not started:
            faint.append((t, a.owner, b.owner))
        if not (u < 0 or (started and t == 0)):
            # An overlap of rounding size (square roots are taken to 2**-BITS) between
            # bodies that no longer approach: only taken apart, not reported.
            if not started or depth > ROUNDING:
                raise AssertionError("an exact contact that neither approaches nor starts")
            if inv_a + inv_b == 0:
                crossed.add((a.owner, b.owner))
                continue
            # (a box wedged between a wall and a disc, taken out of one into the
            # other by 2**-200, for ever: the reference cannot decide such a jam)
            apart[now] = apart.get(now, 0) + 1
            if apart[now] > 16 * len(bodies):
                raise AssertionError(JAMMED)
            share = depth / (inv_a + inv_b)
            a.x, a.y = a.x + nx * share * inv_a, a.y + ny * share * inv_a
            b.x, b.y = b.x - nx * share * inv_b, b.y - ny * share * inv_b
            for body in (a, b):
                body.x0, body.y0, body.t0 = body.x, body.y, now
            continue
        if started and depth > 0 and inv_a + inv_b > 0:
            share = depth / (inv_a + inv_b)
            a.x, a.y = on_grid(a.x + nx * share * inv_a), on_grid(a.y + ny * share * inv_a)
            b.x, b.y = on_grid(b.x - nx * share * inv_b), on_grid(b.y - ny * share * inv_b)
        if code == 2:
            for body in (a, b):
                if not body.fixed:
                    body.frozen, body.mv = True, [Q(0), Q(0)]
        else:
            e = Q(float(restitution[a.group, b.group])) if code == 4 else Q(0)
            respond(a, b, nx, ny, inv_a, inv_b, e)
        inexact.update(body.owner for body in (a, b) if not held_in_floats(body))
        # started_overlapping: only a pair overlapping at the step's start (later, an
        # overlap at an event is one of rounding)
        contacts.append((t, a.owner, b.owner, nx, ny, *contact_point(a, b, nx, ny), RESPONSES[code],
                         started and t == 0))  # fmt: skip
        met.append((t, i, j))
        for body, mobile in ((a, inv_a > 0 or code == 2), (b, inv_b > 0 or code == 2)):
            if not mobile or body.fixed or body.frozen:
                continue
            body.v = list(body.mv)
            body.events += 1
            if body.events > cap:
                body.frozen, body.mv = True, [Q(0), Q(0)]
        for body in (a, b):
            body.x0, body.y0, body.t0 = body.x, body.y, now
    bring_to(bodies, end)
    positions, velocities = {}, {}
    for body in bodies:
        if body.kind == "rect" and isinstance(world.shape(items[body.owner]), PlacedMask):
            continue
        positions[items[body.owner]] = (body.x, body.y)
        velocities[items[body.owner]] = (body.v[0], body.v[1])
    named = [(c[0], items[c[1]], items[c[2]], *c[3:]) for c in contacts]
    tied = [(at, items[p], items[q]) for at, p, q in ties]
    grazed = []
    for start, stop, i, j in sorted(grazes):  # (foreseen until either body's next contact)
        p, q = bodies[i].owner, bodies[j].owner
        later = [c[0] for c in contacts if c[0] > start and {p, q} & {c[1], c[2]}]
        made = tuple(float(at) for at, k, m in met if (k, m) == (i, j))  # (not another pixel)
        grazed.append((start, min([stop, *later]), items[p], items[q], made))
    cornered = [(at, items[p], items[q]) for at, p, q in corners]
    fainter = [(at, items[p], items[q]) for at, p, q in faint]
    return Outcome(named, positions, velocities, {items[owner] for owner in inexact}, tied,
                   grazed, cornered, fainter)  # fmt: skip


def ends_in_rounding(outcome: Outcome, contacts: list[Any], dt: float) -> bool:
    """Whether the step's end is within rounding of an arrival the floats may place on
    either side of it: a contact within 1e-9 of ``dt`` (in the reference or in the
    step's ``contacts``) of a body whose place is rounded (``rounded_bodies``: a box
    slid off a wall at 7/6 met a disc at 2 - 2e-16 with ``dt`` 2). Any other body
    arrives at ``dt`` exactly."""
    rounded = rounded_bodies(outcome)
    late = [(c[1], c[2]) for c in outcome.contacts if float(c[0]) >= dt - 1e-9]
    late += [(c.a, c.b) for c in contacts if c.time >= dt - 1e-9]
    return any(a in rounded or b in rounded for a, b in late)


def rounded_bodies(outcome: Outcome) -> set[Any]:
    """The items that move on from an event at a moment a float cannot hold, or with
    a place or velocity after an event that a float cannot hold (a slide shared by
    masses 2 and 0.5 left a disc moving at 6.4): their places from then on are
    rounded in the step, so their later contacts' times are within rounding of the
    exact ones, not equal to them."""
    return outcome.inexact | {item for c in outcome.contacts if Q(float(c[0])) != c[0]
            for item in c[1:3] if any(outcome.velocities.get(item, (0, 0)))}  # fmt: skip


def in_tie_order(outcome: Outcome, contacts: list[Any]) -> tuple[list[Any], list[Any]]:
    """The reference's contacts and the step's, each run of the reference's contacts
    at one exact moment that names a rounded body (``rounded_bodies``) sorted, in both
    lists, by its two items. Such a tie (a box slid off another at 4/11 meets a disc
    and a box at 4/3) comes out of floats a few ulps apart, in either order; every
    other tie is ordered by the documented rule, in both."""
    rounded = rounded_bodies(outcome)
    want, got = list(outcome.contacts), list(contacts)
    start = 0
    while start < len(want):
        stop = start + 1
        while stop < len(want) and want[stop][0] == want[start][0]:
            stop += 1
        if stop - start > 1 and any(item in rounded for c in want[start:stop] for item in c[1:3]):
            want[start:stop] = sorted(want[start:stop], key=lambda c: (repr(c[1]), repr(c[2])))
            got[start:stop] = sorted(got[start:stop], key=lambda c: (repr(c.a), repr(c.b)))
        start = stop
    return want, got


def hides_a_rounded_tie(outcome: Outcome) -> bool:
    """Whether a pair that would have met at the moment of a contact taken before it,
    naming a rounded body (``rounded_bodies``), made no contact then (the one taken
    first changed it: a disc that touched a box at 5/6, frozen, never met the box it
    reached at the same moment). Floats may take either first."""
    rounded = rounded_bodies(outcome)
    made = {(c[0], c[1], c[2]) for c in outcome.contacts}
    return any(
        (at, a, b) not in made and (a in rounded or b in rounded) for at, a, b in outcome.ties
    )


GRAZE_TIME = 1e-6
"""How far a contact the step makes at a graze may be from it: a path tangent to a
circle or a corner's arc meets it ``sqrt(2 r d) / v`` from the exact moment for a
place off by ``d`` (an ulp, 1e-15, made it 2e-8 for a disc of radius 2)."""


def meets_a_rounded_graze(outcome: Outcome, contacts: list[Any]) -> bool:
    """Whether the step made a contact the reference does not (none of the two bodies'
    within 1e-9 of it), within ``GRAZE_TIME`` of a while its pair only touches in the
    reference, naming a rounded body (``rounded_bodies``): two boxes corner to corner
    at 1.5, one an ulp off its exact place since a bounce at 0.9, met in floats 4e-16
    before it; a disc riding on a box's corner, slid off another box at 0.882, crossed
    it in floats 2e-15 deep; a disc coming round a rounded box's corner onto its face
    at 1.75 met it 2e-8 before; a box rounded since 7/11 met a mask's pixel that it
    only touches exactly, not the pixel it met exactly at the same moment (one item,
    another point). Floats may take such a graze for a contact or not."""
    rounded = rounded_bodies(outcome)
    return any(
        (c.a, c.b) == (a, b)
        and start - GRAZE_TIME <= c.time <= stop + GRAZE_TIME
        and not any(abs(c.time - at) <= 1e-9 for at in made)
        for c in contacts
        for start, stop, a, b, made in outcome.grazes
        if a in rounded or b in rounded
    )


def meets_a_rounded_corner(outcome: Outcome) -> bool:
    """Whether two rectangles met corner to corner (both axes' overlaps began at one
    exact moment), one of them rounded (``rounded_bodies``): a box slid along a wall
    from 7/9 met another's corner at exactly 1. Floats see one axis begin first, either
    one, and the contact's normal (and so the slide or bounce) follows it; exactly,
    the rule's axis is x."""
    rounded = rounded_bodies(outcome)
    return any(a in rounded or b in rounded for _, a, b in outcome.corners)


def meets_a_faint_contact(outcome: Outcome) -> bool:
    """Whether the reference made a contact approaching slower than ``FAINT``, naming a
    rounded body (``rounded_bodies``): a disc slid off a pixel's corner at a moment no
    float holds, its normal (1, -1.6e-60) of square roots, rode up the pixel's face and
    met the next pixel's corner at 1e-30 units a second (exactly, a ride along the face
    and a graze of the corner); in floats it moved off at 1e-14 and stayed an ulp
    clear. Such a contact is the rounding's of either."""
    rounded = rounded_bodies(outcome)
    return any(a in rounded or b in rounded for _, a, b in outcome.faint)


def _this() -> Any:
    """This module (its square roots, intervals and discs, for ``step_reference_discs``)."""
    return sys.modules[__name__]
