"""Sweeps and ray casts of convex polygons (and of boxes, segments and points against
them), exact: the swept separating-axis test of :mod:`collide2d.geometry.convex`.

The fraction is the exact first moment of overlap rounded down to a float, the
normal is the edge that gives it (the obstacle's outward normal, or the mover's
reversed), the point is where the two shapes touch then (the middle of the shared
stretch when two faces meet). A sweep that starts overlapped reports the direction
and ``depth`` of the shortest push that separates the shapes.
"""

from __future__ import annotations

import math
import sys

from collide2d.continuous._intervals import axis_interval, disc_interval, last_outside
from collide2d.continuous.hit import Hit, RayHit
from collide2d.geometry._exact import ratio_floor
from collide2d.geometry.convex import (
    Axis,
    Interval,
    Outline,
    axes,
    extent,
    first_fraction,
    in_frame,
    integers,
    interval,
    least_penetration,
    overlaps_circle_outline,
    started,
    support,
)
from collide2d.geometry.normals import edge_normal
from collide2d.geometry.vec2 import Vec2
from collide2d.tolerances import CIRCLE_POLYGON_RANGE


def finite_point(x: float, y: float, fallback: tuple[float, float]) -> Vec2:
    """``Vec2(x, y)``, or ``fallback`` where the arithmetic that made ``(x, y)`` left
    the floats (coordinates near the largest float)."""
    if math.isfinite(x) and math.isfinite(y):
        return Vec2(x, y)
    return Vec2(float(fallback[0]), float(fallback[1]))


def _contact_point(
    axis: Axis,
    own: Outline,
    other: Outline,
    other_ints: tuple[list[int], list[int]],
    other_shift: tuple[float, float],
) -> Vec2:
    """Where the other shape's supporting vertices touch ``axis``'s edge at the
    contact, ``other_shift`` being how far the other shape has moved by then."""
    o = support(axis, *other_ints)
    xs, ys = other_ints
    px, py, ex, ey = axis[0], axis[1], axis[2], axis[3]
    touching = [
        i for i, (x, y) in enumerate(zip(xs, ys, strict=True)) if ex * (y - py) - ey * (x - px) == o
    ]
    return contact_point(own, axis.edge, other, touching, other_shift)


def contact_point(
    own: Outline, edge: int, other: Outline, touching: list[int], other_shift: tuple[float, float]
) -> Vec2:
    """Where ``other``'s vertices ``touching`` (those on the supporting line of
    ``own``'s edge ``edge``, in order) meet that edge, ``other_shift`` being how far
    ``other`` has moved by then: the vertex, or the middle of the stretch two share."""
    sx, sy = other_shift
    vertex = other[touching[0]]
    if len(touching) == 1:
        return finite_point(vertex[0] + sx, vertex[1] + sy, vertex)
    # Two faces meet: the middle of their shared stretch along the edge.
    n = len(own)
    if n == 2:
        p, q = (own[0], own[1]) if edge == 0 else (own[1], own[0])
    else:
        p, q = own[edge], own[(edge + 1) % n]
    fx, fy = q[0] - p[0], q[1] - p[1]
    length2 = fx * fx + fy * fy
    if length2 == 0.0 or not math.isfinite(length2):
        return finite_point(vertex[0] + sx, vertex[1] + sy, vertex)

    def along(point: tuple[float, float]) -> float:
        return ((point[0] - p[0]) * fx + (point[1] - p[1]) * fy) / length2

    ends = [along((other[i][0] + sx, other[i][1] + sy)) for i in touching]
    lo = max(0.0, min(ends))
    hi = min(1.0, max(ends))
    middle = (lo + hi) * 0.5 if lo <= hi else (min(ends) + max(ends)) * 0.5
    return finite_point(p[0] + fx * middle, p[1] + fy * middle, vertex)


def sweep_outlines(
    a: Outline,
    a_delta: tuple[float, float],
    b: Outline,
    b_delta: tuple[float, float],
) -> Hit | None:
    """Sweep convex outline ``a`` moving by ``a_delta`` against ``b`` moving by
    ``b_delta`` (world coordinates; see :func:`collide2d.sweep`)."""
    (ai, bi), (adx, ady, bdx, bdy), e = integers((a, b), (*a_delta, *b_delta))
    found = sweep_integers(a, ai, a_delta, b, bi, b_delta, adx - bdx, ady - bdy, e)
    return None if found is None else found[1]


def sweep_integers(
    a: Outline,
    ai: tuple[list[int], list[int]],
    a_delta: tuple[float, float],
    b: Outline,
    bi: tuple[list[int], list[int]],
    b_delta: tuple[float, float],
    dx: int,
    dy: int,
    e: int,
) -> tuple[Interval, Hit] | None:
    """:func:`sweep_outlines` on outlines already scaled to integers (``ai``, ``bi``,
    with the relative motion ``(dx, dy)``, all of the scale ``2**e``); the float
    outlines and deltas serve the reported normal and point only. Returns the exact
    interval with the hit, so that callers can compare first contacts exactly."""
    span = interval(ai, bi, dx, dy)
    if span is None or not in_frame(span):
        return None
    if started(span):
        return span, started_hit(a, ai, b, bi, e)
    fraction = first_fraction(span)
    axis = span.lo_axis
    if axis is None:  # pragma: no cover - a finite lo always has its axis
        raise AssertionError("a first contact without an axis")
    shift_a = (a_delta[0] * fraction, a_delta[1] * fraction)
    shift_b = (b_delta[0] * fraction, b_delta[1] * fraction)
    if axis.owner == 1:  # the obstacle's edge, a's vertices on it
        nx, ny, _ = edge_normal(b, axis.edge)
        point = _contact_point(axis, shifted(b, shift_b), a, ai, shift_a)
    else:  # the mover's edge, b's vertices on it: the normal points back toward a
        nx, ny, _ = edge_normal(a, axis.edge)
        nx, ny = 0.0 - nx, 0.0 - ny
        point = _contact_point(axis, shifted(a, shift_a), b, bi, shift_b)
    return span, Hit(fraction, Vec2(nx, ny), point, False)


def shifted(outline: Outline, shift: tuple[float, float]) -> list[tuple[float, float]]:
    """The outline moved by ``shift``."""
    sx, sy = shift
    return [(x + sx, y + sy) for x, y in outline]


def started_hit(
    a: Outline,
    ai: tuple[list[int], list[int]],
    b: Outline,
    bi: tuple[list[int], list[int]],
    e: int,
) -> Hit:
    """The pre-collision record: the direction and depth of the shortest push of ``a``
    out of ``b``, and the deepest point of the shape pushed against."""
    axis, o = least_penetration(ai, bi)
    if axis.owner == 1:
        nx, ny, _ = edge_normal(b, axis.edge)
        deepest = _deepest(axis, a, ai)
    else:
        nx, ny, _ = edge_normal(a, axis.edge)
        nx, ny = 0.0 - nx, 0.0 - ny
        deepest = _deepest(axis, b, bi)
    return Hit(0.0, Vec2(nx, ny), deepest, True, depth=_depth(o, axis, e))


def _deepest(axis: Axis, other: Outline, ints: tuple[list[int], list[int]]) -> Vec2:
    o = support(axis, *ints)
    xs, ys = ints
    for i, (x, y) in enumerate(zip(xs, ys, strict=True)):
        if axis.ex * (y - axis.py) - axis.ey * (x - axis.px) == o:
            return Vec2(float(other[i][0]), float(other[i][1]))
    raise AssertionError("no vertex attains the support")  # pragma: no cover


def _depth(o: int, axis: Axis, e: int) -> float:
    """``o / |edge|`` in world units: ``o`` is of the call's scale squared and the edge
    of the scale ``2**e``. Computed as ``floor(O) / sqrt(floor(|e|^2))``, both exact
    values rounded down to floats, so that the compiled batch sweeps (which hold them
    as exact expansions) give the same float; where those floats would leave the
    normal range (coordinates near ``1e154`` and beyond, or below ``1e-154``), taken
    on shortened integers instead so that no float overflows."""
    length2 = axis.ex * axis.ex + axis.ey * axis.ey
    unit = 1 << (-2 * e)  # e <= 0 (see geometry._exact.scale)
    try:
        o_floor = ratio_floor(o, unit)
        l_floor = ratio_floor(length2, unit)
    except OverflowError:
        o_floor = l_floor = math.inf
    if _NORMAL <= o_floor < math.inf and _NORMAL <= l_floor < math.inf:
        return o_floor / math.sqrt(l_floor)
    k = max(0, (length2.bit_length() - 100) // 2)
    j = max(0, o.bit_length() - 60)
    value = (o >> j) / math.sqrt(length2 >> (2 * k))
    try:
        return math.ldexp(value, e + j - k)
    except OverflowError:  # a push longer than the floats: the largest float
        return sys.float_info.max


_NORMAL = sys.float_info.min
"""The least positive normal float."""


def raycast_outline(
    origin: tuple[float, float], delta: tuple[float, float], shape: Outline
) -> RayHit | None:
    """Cast the segment ``origin + delta * fraction`` against a convex outline."""
    (_, si), (ox, oy, dx, dy), _ = integers(((), shape), (*origin, *delta))
    span = interval(([ox], [oy]), si, dx, dy)
    if span is None or not in_frame(span):
        return None
    hi = span.hi
    try:
        exit_fraction = math.inf if hi is None else hi[0] / hi[1]
    except OverflowError:  # beyond the floats: the line leaves far past the segment
        exit_fraction = math.inf
    if started(span):
        nearest, _ = least_penetration(([ox], [oy]), si)
        nx, ny, _ = edge_normal(shape, nearest.edge)
        return RayHit(0.0, exit_fraction, Vec2(nx, ny), Vec2(*origin), True)
    fraction = first_fraction(span)
    axis = span.lo_axis
    if axis is None:  # pragma: no cover
        raise AssertionError("a first contact without an axis")
    nx, ny, _ = edge_normal(shape, axis.edge)
    point = finite_point(origin[0] + delta[0] * fraction, origin[1] + delta[1] * fraction, origin)
    return RayHit(fraction, exit_fraction, Vec2(nx, ny), point, False)


def sweep_circle_outline(
    circle: tuple[float, float, float],
    c_delta: tuple[float, float],
    shape: Outline,
    s_delta: tuple[float, float],
) -> Hit | None:
    """Sweep a circle moving by ``c_delta`` against a convex outline moving by
    ``s_delta``; the normal points from the outline toward the circle.

    The centre is cast against the outline grown by the radius: one open capsule per
    edge (its box and the discs at its ends, Ericson 5.5.7), in floats for an
    estimate of the entry; the fraction is then settled exactly, by testing the
    exact overlap at the floats around it (:func:`overlaps_circle_outline` on the
    centre moved by a rational time), so it is the last float before the exact
    entry whenever the overlap lasts longer than a float step.
    """
    cx, cy, r = circle
    extras = (cx, cy, r, *c_delta, *s_delta)
    (si,), (icx, icy, ir, adx, ady, bdx, bdy), _ = integers((shape,), extras)
    idx, idy = adx - bdx, ady - bdy
    if overlaps_circle_outline(si, icx, icy, ir):
        return _started_circle(circle, shape, si, icx, icy)
    dx = c_delta[0] - s_delta[0]
    dy = c_delta[1] - s_delta[1]
    _check_circle_range(circle, (dx, dy), shape)
    if r == 0.0:
        ray = raycast_outline((cx, cy), (c_delta[0] - s_delta[0], c_delta[1] - s_delta[1]), shape)
        if ray is None:
            return None
        moved = (s_delta[0] * ray.fraction, s_delta[1] * ray.fraction)
        point = finite_point(ray.point[0] + moved[0], ray.point[1] + moved[1], ray.point)
        return Hit(ray.fraction, ray.normal, point, False)

    def inside(t: float) -> bool:
        num, den = t.as_integer_ratio()
        xs, ys = si
        return overlaps_circle_outline(
            ([x * den for x in xs], [y * den for y in ys]),
            icx * den + num * idx,
            icy * den + num * idy,
            ir * den,
        )

    estimate = _circle_entry_estimate(cx, cy, r, dx, dy, shape)
    if estimate is None:
        # The floats saw no entry; the exact test at the frame's end has the last word
        # where the floats cannot tell (a circle sliding along a face, ulps from the
        # next face of the same line).
        if not _near_at_end(cx + dx, cy + dy, r, shape) or not inside(_BEFORE_ONE):
            return None
        estimate = (last_outside(0.0, _BEFORE_ONE, inside), 1.0)
    enter_estimate, leave_estimate = estimate

    fraction = min(max(enter_estimate, 0.0), _BEFORE_ONE)
    steps = 0
    while inside(fraction) and fraction > 0.0 and steps < _SETTLE_STEPS:
        fraction = math.nextafter(fraction, -math.inf)
        steps += 1
    if inside(fraction):  # the estimate is more float steps late than that: near 0
        fraction = last_outside(0.0, fraction, inside)  # (0 is outside: not started)
    elif steps == 0:
        for _ in range(_SETTLE_STEPS):
            later = math.nextafter(fraction, math.inf)
            if later >= 1.0 or inside(later):
                break
            fraction = later
        else:  # a contact further on than that, or a graze the floats took for one
            middle = (fraction + min(leave_estimate, 1.0)) * 0.5
            if not inside(middle):
                return None
            fraction = last_outside(fraction, middle, inside)
    fraction += 0.0
    # The contact: the nearest point of the outline to the centre at that moment.
    x = cx + dx * fraction
    y = cy + dy * fraction
    kx, ky, normal = _nearest(x, y, shape)
    point = finite_point(kx + s_delta[0] * fraction, ky + s_delta[1] * fraction, (kx, ky))
    return Hit(fraction, normal, point, False)


def _near_at_end(x: float, y: float, r: float, shape: Outline) -> bool:
    """Whether the disc about ``(x, y)`` comes within a sliver of the outline's
    bounds (a float filter, wide by far more than rounding)."""
    left, top, right, bottom = extent(shape)
    margin = r * (1.0 + 2.0**-20) + 2.0**-20 * max(abs(x), abs(y), 1.0)
    return left - margin < x < right + margin and top - margin < y < bottom + margin


def _check_circle_range(
    circle: tuple[float, float, float], delta: tuple[float, float], shape: Outline
) -> None:
    """A clear ``ValueError`` where the float estimate cannot be trusted."""
    low, high = CIRCLE_POLYGON_RANGE
    cx, cy, r = circle
    large = [cx, cy, *delta, *(c for v in shape for c in v)]
    if not all(abs(value) <= high for value in large):  # (small ones are no risk)
        raise ValueError(
            "a circle's sweep against a polygon or segment takes coordinates and motions "
            f"of magnitude up to 2**450; got one of {large!r}"
        )
    values = [r]
    n = len(shape)
    for i in range(n if n >= 3 else n - 1):
        (px, py), (qx, qy) = shape[i], shape[(i + 1) % n]
        values.append(math.hypot(qx - px, qy - py))
    for value in values:
        if value != 0.0 and not low <= abs(value) <= high:
            raise ValueError(
                "a circle's sweep against a polygon or segment takes radii and edge "
                f"lengths of magnitude 2**-450 to 2**450 (or a zero radius); got {value!r}"
            )


_SETTLE_STEPS = 64
"""Float steps the exact settling of a circle's entry takes at most (the float
estimate is a few steps off at worst)."""

_BEFORE_ONE = math.nextafter(1.0, 0.0)


def _circle_entry_estimate(
    cx: float, cy: float, r: float, dx: float, dy: float, shape: Outline
) -> tuple[float, float] | None:
    """The float entry and exit times of the centre into the outline grown by ``r``
    (the exit of the part entered first), or None."""
    best = math.inf
    best_leave = math.inf
    n = len(shape)
    edges = n if n >= 3 else (1 if n == 2 else 0)
    for i in range(edges):
        px, py = shape[i]
        qx, qy = shape[(i + 1) % n]
        ex, ey = qx - px, qy - py
        length = math.hypot(ex, ey)
        u0 = ((cx - px) * ex + (cy - py) * ey) / (length * length)
        du = (dx * ex + dy * ey) / (length * length)
        h0 = (ex * (cy - py) - ey * (cx - px)) / length
        dh = (ex * dy - ey * dx) / length
        enter_u, exit_u = axis_interval(u0, u0, du, 0.0, 1.0)
        enter_h, exit_h = axis_interval(h0, h0, dh, -r, r)
        enter, leave = max(enter_u, enter_h), min(exit_u, exit_h)
        if enter < leave and leave > 0.0 and enter < best:
            best, best_leave = enter, leave
    for vx, vy in shape:
        enter, leave = disc_interval(cx - vx, cy - vy, dx, dy, r)
        if enter < leave and leave > 0.0 and enter < best:
            best, best_leave = enter, leave
    if best >= 1.0:
        return None
    return best, best_leave


def _nearest(x: float, y: float, shape: Outline) -> tuple[float, float, Vec2]:
    """The point of the outline nearest to ``(x, y)`` (outside it) and the unit
    normal from there toward ``(x, y)``: an edge's outward normal on a face, the
    direction from the vertex at a corner."""
    n = len(shape)
    best = (math.inf, shape[0][0], shape[0][1], -1)
    edges = n if n >= 3 else (1 if n == 2 else 0)
    for i in range(edges):
        px, py = shape[i]
        qx, qy = shape[(i + 1) % n]
        ex, ey = qx - px, qy - py
        length2 = ex * ex + ey * ey
        t = ((x - px) * ex + (y - py) * ey) / length2
        if 0.0 < t < 1.0:
            kx, ky = px + ex * t, py + ey * t
            dist = math.hypot(x - kx, y - ky)
            if dist < best[0]:
                best = (dist, kx, ky, i)
    for vx, vy in shape:
        dist = math.hypot(x - vx, y - vy)
        if dist < best[0]:
            best = (dist, vx, vy, -1)
    _, kx, ky, edge = best
    if edge >= 0 and n >= 3:
        nx, ny, _ = edge_normal(shape, edge)
        return kx, ky, Vec2(nx, ny)
    if edge >= 0:  # a segment: the side the centre is on
        nx, ny, _ = edge_normal(shape, 0)
        if (x - kx) * nx + (y - ky) * ny < 0.0:
            nx, ny = 0.0 - nx, 0.0 - ny
        return kx, ky, Vec2(nx, ny)
    length = math.hypot(x - kx, y - ky)
    if length == 0.0:
        return kx, ky, Vec2(1.0, 0.0)
    return kx, ky, Vec2((x - kx) / length, (y - ky) / length)


def _started_circle(
    circle: tuple[float, float, float],
    shape: Outline,
    si: tuple[list[int], list[int]],
    icx: int,
    icy: int,
) -> Hit:
    """The pre-collision record of a circle overlapping an outline: pushed away from
    the nearest point when its centre is outside, out through the nearest edge when
    inside."""
    cx, cy, r = circle
    xs, ys = si
    inside = len(xs) >= 3 and all(
        axis.ex * (icy - axis.py) - axis.ey * (icx - axis.px) >= 0 for axis in axes(xs, ys, 1)
    )
    if not inside:
        kx, ky, normal = _nearest(cx, cy, shape)
        depth = r - math.hypot(cx - kx, cy - ky)
        return Hit(0.0, normal, Vec2(kx, ky), True, depth=max(depth, 0.0))
    best = None
    for axis in axes(xs, ys, 1):
        o = axis.ex * (icy - axis.py) - axis.ey * (icx - axis.px)
        length2 = axis.ex * axis.ex + axis.ey * axis.ey
        if best is None or o * o * best[2] < best[1] ** 2 * length2:
            best = (axis, o, length2)
    axis = best[0]  # type: ignore[index]
    nx, ny, _ = edge_normal(shape, axis.edge)
    px, py = shape[axis.edge]
    distance = (cx - px) * -nx + (cy - py) * -ny
    point = finite_point(cx + nx * distance, cy + ny * distance, (cx, cy))
    return Hit(0.0, Vec2(nx, ny), point, True, depth=distance + r)
