"""The exact reference's circle against a polygon (``step_reference`` asks here), in
rational arithmetic: the rules of ``collide2d._kernels.step.step_circle_polygon``
written out from their definitions, sharing no code with it.

A circle overlaps a convex outline when its centre is nearer than its radius to the
closed outline (a point circle: strictly inside). It first overlaps it when its
centre first enters the outline grown by the radius: a capsule about each edge (an
open box along the edge and across it by the radius) or a disc about a vertex.
"""

from __future__ import annotations

from fractions import Fraction as Q
from typing import Any

INF = float("inf")
Point = tuple[Q, Q]


def sides(points: list[Point]) -> list[tuple[Q, Q, Q, Q]]:
    """The outline's edges ``(px, py, ex, ey)``; inside is to the left of each."""
    return [(px, py, qx - px, qy - py)
            for (px, py), (qx, qy) in zip(points, points[1:] + points[:1], strict=True)]  # fmt: skip


def inside(points: list[Point], x: Q, y: Q) -> tuple[bool, bool]:
    """Whether ``(x, y)`` is in the closed outline, and strictly inside it."""
    crosses = [ex * (y - py) - ey * (x - px) for px, py, ex, ey in sides(points)]
    return all(c >= 0 for c in crosses), all(c > 0 for c in crosses)


def foot(x: Q, y: Q, px: Q, py: Q, ex: Q, ey: Q) -> tuple[Q, Q, Q, bool]:
    """The point of the edge nearest ``(x, y)``, its squared distance, and whether it
    lies strictly between the edge's ends."""
    t = ((x - px) * ex + (y - py) * ey) / (ex * ex + ey * ey)
    face = 0 < t < 1
    t = min(max(t, Q(0)), Q(1))
    fx, fy = px + ex * t, py + ey * t
    return fx, fy, (x - fx) ** 2 + (y - fy) ** 2, face


def distance2(points: list[Point], x: Q, y: Q) -> Q:
    """The squared distance from ``(x, y)`` to the closed outline (0 inside)."""
    if inside(points, x, y)[0]:
        return Q(0)
    return min(foot(x, y, *side)[2] for side in sides(points))


def overlapping(points: list[Point], x: Q, y: Q, r: Q) -> bool:
    closed, strictly = inside(points, x, y)
    if strictly or (closed and r > 0):
        return True
    return r > 0 and distance2(points, x, y) < r * r


def entry(points: list[Point], x: Q, y: Q, r: Q, d: Point, ref: Any) -> Q | float:
    """The first moment from now the circle at ``(x, y)`` moving by ``d`` a second
    overlaps the still outline (not overlapping now), or inf; ``ref`` is the
    reference module (its square roots, intervals and discs)."""
    if r == 0:
        enter: Q | float = -INF
        leave: Q | float = INF
        for px, py, ex, ey in sides(points):
            o, rate = ex * (y - py) - ey * (x - px), ex * d[1] - ey * d[0]
            if rate > 0:
                enter = max(enter, -o / rate)
            elif rate < 0:
                leave = min(leave, -o / rate)
            elif o <= 0:
                return INF
        return max(enter, Q(0)) if enter < leave and leave > 0 else INF
    best: Q | float = INF
    for px, py, ex, ey in sides(points):
        length2 = ex * ex + ey * ey
        along = (x - px) * ex + (y - py) * ey
        across = ex * (y - py) - ey * (x - px)
        reach = r * ref.sqrt(length2)
        e1, l1 = ref.axis_times(along, along, d[0] * ex + d[1] * ey, Q(0), length2)
        e2, l2 = ref.axis_times(across, across, ex * d[1] - ey * d[0], -reach, reach)
        enter, leave = max(e1, e2), min(l1, l2)
        if enter < leave and leave > 0:
            best = min(best, ref.on_grid(max(enter, Q(0)), -1))
        best = min(best, ref.disc_entry(x - px, y - py, d[0], d[1], r))
    return best


def nearest(points: list[Point], x: Q, y: Q, ref: Any) -> tuple[Q, Q, Q, Q, Q]:
    """``(kx, ky, nx, ny, distance)`` as ``step_circle_polygon.nearest`` defines them:
    outside, the nearest point and the normal toward the centre (an edge's outward
    normal on a face, else from the vertex); inside, the foot on the edge nearest the
    centre (the first of equal), its outward normal and the negative depth."""
    closed, _ = inside(points, x, y)
    best: tuple[Q, int, Q, Q, bool] | None = None
    for k, (px, py, ex, ey) in enumerate(sides(points)):
        fx, fy, square, face = foot(x, y, px, py, ex, ey)
        if closed:  # (the nearest edge line: the least cross^2 / |e|^2)
            square = (ex * (y - py) - ey * (x - px)) ** 2 / (ex * ex + ey * ey)
        if best is None or square < best[0]:
            best = (square, k, fx, fy, face)
    assert best is not None
    _, k, fx, fy, face = best
    _, _, ex, ey = sides(points)[k]
    if closed or face:
        nx, ny = ref.unit(ey, -ex)
    else:
        nx, ny = ref.unit(x - fx, y - fy)
    distance = ref.sqrt(best[0]) if not closed else -ref.sqrt(best[0])
    return fx, fy, nx, ny, distance


def graze(points: list[Point], x: Q, y: Q, r: Q, d: Point) -> tuple[Q, Q | float] | None:
    """From when to when a circle that never overlaps the outline touches it (a
    moment or a while), or None: the zeros of its distance less its radius, a convex
    function of time whose least values lie among the moments listed here."""
    moments = {Q(0)}
    speed = d[0] * d[0] + d[1] * d[1]
    if speed:
        for px, py, ex, ey in sides(points):
            moments.add(((px - x) * d[0] + (py - y) * d[1]) / speed)  # nearest the vertex
            rate = d[0] * ex + d[1] * ey
            if rate:
                along = (x - px) * ex + (y - py) * ey
                moments |= {-along / rate, (ex * ex + ey * ey - along) / rate}
    moments = {t for t in moments if t >= 0}
    moments.add(max(moments) + 1)
    zeros = sorted(t for t in moments
                   if distance2(points, x + d[0] * t, y + d[1] * t) == r * r)  # fmt: skip
    if not zeros:
        return None
    return zeros[0], (INF if zeros[-1] == max(moments) else zeros[-1])
