"""Slow, obviously correct oracles for the fast paths.

Everything here is exact rational arithmetic (``fractions.Fraction``) or brute
force, written from the definitions in ``docs/concepts.md`` rather than from the
algorithms the library uses.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal, localcontext
from fractions import Fraction

Q = Fraction


@dataclass(frozen=True)
class ExactHit:
    """What a sweep must report, exactly."""

    fraction: Fraction
    exit_fraction: Fraction | None  # None stands for +infinity
    axis: str  # "x" or "y": the axis of the entry normal (meaningless if started)
    sign: int  # the sign of the normal along that axis
    started: bool
    corner: bool = False  # both axes enter at that moment (never when started)

    @property
    def rank(self) -> int:
        """How a tie at equal fractions breaks: started (0), face (1), corner (2)."""
        return 0 if self.started else (2 if self.corner else 1)


def boxes_overlap(a: tuple[Q, Q, Q, Q], b: tuple[Q, Q, Q, Q]) -> bool:
    """The strict overlap of two boxes ``(left, top, right, bottom)``."""
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _box_at(box: tuple[Q, Q, Q, Q], dx: Q, dy: Q, t: Q) -> tuple[Q, Q, Q, Q]:
    return (box[0] + dx * t, box[1] + dy * t, box[2] + dx * t, box[3] + dy * t)


def _overlap_interval(
    inside: Callable[[Q], bool], critical: list[Q]
) -> tuple[Q | None, Q | None] | None:
    """The open interval of times where ``inside`` holds, on the whole line.

    ``inside`` must hold on one open interval whose ends are among ``critical``.
    Returns ``(lo, hi)`` with ``None`` for an infinite end, or ``None`` if empty.
    """
    times = sorted(set(critical))
    if not times:
        return (None, None) if inside(Q(0)) else None
    probes: list[tuple[Q | None, Q | None, Q]] = [(None, times[0], times[0] - 1)]
    for lo, hi in itertools.pairwise(times):
        probes.append((lo, hi, (lo + hi) / 2))
    probes.append((times[-1], None, times[-1] + 1))
    hits = [(lo, hi) for lo, hi, t in probes if inside(t)]
    if not hits:
        return None
    return hits[0][0], hits[-1][1]


def sweep_boxes(a: tuple[Q, Q, Q, Q], delta: tuple[Q, Q], b: tuple[Q, Q, Q, Q]) -> ExactHit | None:
    """The exact sweep of box ``a`` (``left, top, right, bottom``) by ``delta`` against ``b``."""
    dx, dy = delta
    critical = []
    if dx:
        critical += [(b[0] - a[2]) / dx, (b[2] - a[0]) / dx]
    if dy:
        critical += [(b[1] - a[3]) / dy, (b[3] - a[1]) / dy]
    interval = _overlap_interval(lambda t: boxes_overlap(_box_at(a, dx, dy, t), b), critical)
    if interval is None:
        return None
    lo, hi = interval
    if hi is not None and hi <= 0:
        return None
    if lo is not None and lo >= 1:
        return None
    started = lo is None or lo < 0
    fraction = Q(0) if started else lo
    assert fraction is not None
    # The entry axis is the one whose intervals were not yet overlapping at that moment;
    # when neither was (an exact corner), the x axis.
    at = _box_at(a, dx, dy, fraction)
    x_open = at[0] < b[2] and b[0] < at[2]
    y_open = at[1] < b[3] and b[1] < at[3]
    axis = "y" if x_open else "x"
    sign = -1 if (dx if axis == "x" else dy) > 0 else 1
    return ExactHit(fraction, hi, axis, sign, started, not started and not x_open and not y_open)


def rect_box(x: int, y: int, w: int, h: int) -> tuple[Q, Q, Q, Q]:
    """``(x, y, w, h)`` as an exact ``(left, top, right, bottom)``."""
    return (Q(x), Q(y), Q(x) + Q(w), Q(y) + Q(h))


def sweep_rects(
    a: tuple[int, int, int, int],
    a_delta: tuple[int, int],
    b: tuple[int, int, int, int],
    b_delta: tuple[int, int] = (0, 0),
) -> ExactHit | None:
    """The exact sweep of two moving rects ``(x, y, w, h)``, in ``b``'s frame."""
    delta = (Q(a_delta[0]) - Q(b_delta[0]), Q(a_delta[1]) - Q(b_delta[1]))
    return sweep_boxes(rect_box(*a), delta, rect_box(*b))


def raycast_rect(
    origin: tuple[int, int], delta: tuple[int, int], rect: tuple[int, int, int, int]
) -> ExactHit | None:
    """The exact ray cast: a sweep of a zero-size box."""
    ox, oy = Q(origin[0]), Q(origin[1])
    return sweep_boxes((ox, oy, ox, oy), (Q(delta[0]), Q(delta[1])), rect_box(*rect))


def disc_entry(p: tuple[Q, Q], d: tuple[Q, Q], r: Q, digits: int = 60) -> Decimal | None:
    """First time ``t`` (any sign) when ``|p + t d| = r``, to ``digits`` digits, or None.

    None when the line misses or only touches the circle (no open overlap).
    """
    a = d[0] * d[0] + d[1] * d[1]
    b = p[0] * d[0] + p[1] * d[1]
    c = p[0] * p[0] + p[1] * p[1] - r * r
    if a == 0 or r == 0:
        return None
    disc = b * b - a * c
    if disc <= 0:
        return None
    with localcontext() as ctx:
        ctx.prec = digits
        root = Decimal(disc.numerator) / Decimal(disc.denominator)
        return (-_dec(b) - root.sqrt()) / _dec(a)


def _dec(value: Q) -> Decimal:
    return Decimal(value.numerator) / Decimal(value.denominator)


def circle_rect_overlap(cx: Q, cy: Q, r: Q, box: tuple[Q, Q, Q, Q]) -> bool:
    """Exact: the distance from the centre to the closed box is less than ``r``."""
    if r == 0:
        return box[0] < cx < box[2] and box[1] < cy < box[3]
    px = min(max(cx, box[0]), box[2])
    py = min(max(cy, box[1]), box[3])
    return (cx - px) ** 2 + (cy - py) ** 2 < r * r


def overlapping_pairs(shapes: list) -> list[tuple[int, int]]:
    """Every ``(i, j)``, ``i < j``, whose shapes overlap, by testing all pairs with the
    scalar :func:`collide2d.overlaps` (the executable specification)."""
    from collide2d import overlaps

    return [
        (i, j)
        for i in range(len(shapes))
        for j in range(i + 1, len(shapes))
        if overlaps(shapes[i], shapes[j])
    ]


def query_pairs(shapes: list, queries: list) -> list[tuple[int, int]]:
    """Every ``(q, i)`` whose query and shape overlap, by testing all of them."""
    from collide2d import overlaps

    return [
        (q, i)
        for q, query in enumerate(queries)
        for i, s in enumerate(shapes)
        if overlaps(query, s)
    ]


def mask_overlap_shares(a_bits, b_bits, offset) -> dict[tuple[int, int], Fraction]:
    """For each pixel ``(x, y)`` of ``a`` the exact area it shares with solid pixels of
    ``b`` placed at ``offset`` (pixel by pixel, with fractions)."""
    ox, oy = Q(offset[0]), Q(offset[1])
    shares: dict[tuple[int, int], Fraction] = {}
    for y, row in enumerate(a_bits):
        for x, solid in enumerate(row):
            if not solid:
                continue
            total = Q(0)
            for v, b_row in enumerate(b_bits):
                dy = 1 - abs(Q(y) - (v + oy))
                if dy <= 0:
                    continue
                for u, b_solid in enumerate(b_row):
                    if b_solid:
                        dx = 1 - abs(Q(x) - (u + ox))
                        if dx > 0:
                            total += dx * dy
            if total:
                shares[(x, y)] = total
    return shares


def mask_overlap_point(points, offset) -> tuple[int, int] | None:
    """The overlapping pixel ``Mask.overlap`` names among ``points`` (pixels ``(x, y)``
    of ``a`` that overlap ``b`` at ``offset``).

    At a whole offset, pygame-ce's: ``bitmask_overlap_pos`` (src_c/bitmask.c) scans
    64-pixel word columns of the mask placed to the right, and for each the two word
    columns of the other mask it lands in, each from the top, lowest bit first. So the
    order is by (word column of the right-hand mask, word column of the left-hand
    one, y, x). At a fractional offset, row by row.
    """
    if not points:
        return None
    ox, oy = offset
    if not (float(ox).is_integer() and float(oy).is_integer()):
        return min(points, key=lambda p: (p[1], p[0]))

    def key(p):
        x, y = p
        u = x - int(ox)  # the same pixel in b's columns
        return (u // 64, x // 64, y, x) if ox >= 0 else (x // 64, u // 64, y, x)

    return min(points, key=key)


def in_region(placed, px: float, py: float) -> bool:
    """Whether a point lies in the interior of the union of the solid pixels' closed
    squares: every pixel whose closed square holds it is solid."""
    bits = placed.mask.to_array()
    h, w = bits.shape
    x, y = px - placed.x, py - placed.y
    cols = [x - 1, x] if float(x).is_integer() else [math.floor(x)]
    rows = [y - 1, y] if float(y).is_integer() else [math.floor(y)]
    return all(0 <= u < w and 0 <= v < h and bits[int(v), int(u)] for u in cols for v in rows)


def degenerate_overlaps(placed, shape) -> bool:
    """A point or a segment (open along its length) against the region, by its points:
    between two crossings of the mask's pixel lines (integers from the mask's place)
    membership does not change, so midpoints decide."""
    if shape.w == 0 and shape.h == 0:
        return in_region(placed, shape.x, shape.y)
    lo, hi = (shape.top, shape.bottom) if shape.w == 0 else (shape.left, shape.right)
    at = placed.y if shape.w == 0 else placed.x  # (the lines are at k + at, not at k)
    lines = (k + at for k in range(math.floor(lo - at), math.ceil(hi - at) + 1))
    cuts = sorted({lo, hi, *lines})
    cuts = [c for c in cuts if lo <= c <= hi]
    for a, b in itertools.pairwise(cuts):
        mid = (a + b) / 2
        point = (shape.x, mid) if shape.w == 0 else (mid, shape.y)
        if in_region(placed, *point):
            return True
    return False


def degenerate_sweep(placed, shape, delta) -> tuple[Fraction, bool] | None:
    """The first fraction in ``[0, 1)`` at which a point or segment moving by ``delta``
    meets the mask's region, and whether it started there; None if never. Membership
    is constant on each open interval between the moments an end crosses an integer
    line (relative to the mask), so each interval's midpoint decides it."""
    dx, dy = Q(delta[0]), Q(delta[1])
    x0, y0 = Q(shape.x) - Q(placed.x), Q(shape.y) - Q(placed.y)
    w, h = Q(shape.w), Q(shape.h)
    times = {Q(0), Q(1)}
    for start, d, size, count in ((x0, dx, w, placed.mask.width), (y0, dy, h, placed.mask.height)):
        if d:
            for k in range(-2, count + 3):
                for edge in (start, start + size):
                    t = (k - edge) / d
                    if 0 < t < 1:
                        times.add(t)
    ordered = sorted(times)

    def inside(t):
        moved = type(shape)(float(shape.x + dx * t), float(shape.y + dy * t), shape.w, shape.h)
        return degenerate_overlaps(placed, moved)

    if inside(Q(0)):
        return Q(0), True
    for lo, hi in itertools.pairwise(ordered):
        if inside((lo + hi) / 2):
            return lo, False
    return None


# -- convex polygons: clipping in exact rationals (independent of the separating axes) --

Point = tuple[Fraction, Fraction]


def _cross(o: Point, a: Point, b: Point) -> Fraction:
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def clip_area(subject: list[Point], clipper: list[Point]) -> Fraction:
    """Area of ``subject`` clipped by the convex ``clipper`` (Sutherland-Hodgman, exact).

    Both are convex polygons of positive orientation (shoelace area > 0)."""
    out = list(subject)
    n = len(clipper)
    for i in range(n):
        p, q = clipper[i], clipper[(i + 1) % n]
        points, out = out, []
        for j in range(len(points)):
            cur, nxt = points[j], points[(j + 1) % len(points)]
            sc, sn = _cross(p, q, cur), _cross(p, q, nxt)
            if sc >= 0:
                out.append(cur)
            if (sc > 0 > sn) or (sc < 0 < sn):
                t = sc / (sc - sn)
                out.append((cur[0] + (nxt[0] - cur[0]) * t, cur[1] + (nxt[1] - cur[1]) * t))
        if not out:
            return Fraction(0)
    area = sum(out[k - 1][0] * out[k][1] - out[k][0] * out[k - 1][1] for k in range(len(out)))
    return area / 2


def exact_points(points) -> list[Point]:
    return [(Fraction(x), Fraction(y)) for x, y in points]


def polygons_overlap(a: list[Point], b: list[Point]) -> bool:
    """Whether two convex polygons' interiors meet: their intersection has area."""
    return clip_area(a, b) > 0


def _moved(points: list[Point], dx: Fraction, dy: Fraction, t: Fraction) -> list[Point]:
    return [(x + dx * t, y + dy * t) for x, y in points]


def polygon_sweep(
    a: list[Point], delta: tuple[Fraction, Fraction], b: list[Point]
) -> tuple[Fraction, bool] | None:
    """The exact first moment in ``[0, 1)`` from which ``a`` moving by ``delta`` overlaps
    ``b``, and whether it starts overlapping; None when it never does.

    Overlap can begin or end only when a vertex of one crosses an edge's line of the
    other, so the candidate moments are those crossings; between two of them overlap
    holds throughout or nowhere, tested at the midpoint by clipping."""
    dx, dy = delta
    if polygons_overlap(a, b):
        return Fraction(0), True
    moments = {Fraction(0)}
    for own, other, sign in ((b, a, 1), (a, b, -1)):
        for i in range(len(own)):
            p, q = own[i], own[(i + 1) % len(own)]
            rate = sign * ((q[0] - p[0]) * dy - (q[1] - p[1]) * dx)
            if rate == 0:
                continue
            for v in other:
                t = -_cross(p, q, v) / rate
                if 0 < t < 1:
                    moments.add(t)
    ordered = sorted(moments) + [Fraction(1)]
    for lo, hi in itertools.pairwise(ordered):
        if polygons_overlap(_moved(a, dx, dy, (lo + hi) / 2), b):
            return lo, False
    return None


def circle_overlaps_polygon(points: list[Point], x: Fraction, y: Fraction, r: Fraction) -> bool:
    """Whether the open disc overlaps the convex polygon: the centre's exact squared
    distance to the closed polygon below ``r^2`` (a zero radius: strictly inside)."""
    n = len(points)
    sides = [
        (points[(i + 1) % n][0] - points[i][0]) * (y - points[i][1])
        - (points[(i + 1) % n][1] - points[i][1]) * (x - points[i][0])
        for i in range(n)
    ]
    if all(side > 0 for side in sides) or (r > 0 and all(side >= 0 for side in sides)):
        return True
    best = None
    for i in range(n):
        (ax, ay), (bx, by) = points[i], points[(i + 1) % n]
        ex, ey = bx - ax, by - ay
        t = min(max(((x - ax) * ex + (y - ay) * ey) / (ex * ex + ey * ey), 0), 1)
        d2 = (ax + ex * t - x) ** 2 + (ay + ey * t - y) ** 2
        best = d2 if best is None else min(best, d2)
    return best is not None and best < r * r
