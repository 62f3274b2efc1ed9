"""A circle meeting a polygon among ``World.step``'s bodies (``step_polygons`` hands
such a pair here, the polygon's outline made at the step's places).

- The overlap test is exact, as ``collide2d.overlaps`` decides it for a circle and a
  polygon (``geometry.convex.overlaps_circle_outline``): the open disc overlaps the
  outline when its centre is within the radius of the closed outline (a point circle:
  strictly inside). Floats decide where they are clearly right; within a band a
  trillion times the rounding, expansions of error-free products
  (:mod:`collide2d._kernels.expansions`) give the exact signs, for coordinates and
  radii that are zero or of a magnitude in ``collide2d.tolerances.SWEEP_EXACT_RANGE``
  (the compiled polygon tests' range: no product of four of them overflows or
  loses bits below the smallest float).
- The first contact is the float entry of the centre into the outline grown by the
  radius (a capsule about each edge, a disc about each vertex: Ericson 5.5.7), as
  the step sweeps a circle against a rectangle (``intervals.circle_box_fraction``):
  an arrival rounded late is found overlapping at its event and taken apart there,
  as for a circle and a box.
- The normal, the push and the contact point come from the outline's point nearest
  the centre (the normal from there toward the centre; the depth the radius less
  that distance), or, with the centre inside, from the edge nearest it (its outward
  normal; the first such edge in order on a tie).
"""

from __future__ import annotations

import math

import numpy as np

from collide2d._kernels.expansions import (
    compress,
    grow,
    grow_cross,
    sign_of,
    times,
    two_product,
    two_sum,
)
from collide2d._kernels.intervals import axis_interval, disc_entry, first_fraction
from collide2d._kernels.jit import allocating_kernel, inlined_helper, kernel
from collide2d._kernels.pairs.polygons import orient

_BAND = 1e-12
"""Float answers within this share of the coordinates' magnitude of the boundary are
settled exactly (rounding is about ten thousand times less)."""


@kernel
def _magnitude(cx, cy, r, v, n):
    """The largest magnitude among the centre, the radius and the vertices."""
    m = max(abs(cx), abs(cy), r)
    for k in range(n):
        m = max(m, abs(v[k, 0]), abs(v[k, 1]))
    return m


@allocating_kernel
def _sign_dot(ux1, ux0, uy1, uy0, px, py, qx, qy):
    """The exact sign of ``(u1 - u0) . (q - p)``."""
    h = np.empty(40)
    # u x (-(qy - py), qx - px) = ux (qx - px) + uy (qy - py)
    return sign_of(h, grow_cross(h, 0, ux1, ux0, uy1, uy0, py, qy, qx, px, 1.0))


@allocating_kernel
def _square_length(x1, x0, y1, y0, h, length):
    """Add ``(x1 - x0)^2 + (y1 - y0)^2`` to the expansion ``h[:length]`` exactly;
    return its new length."""
    a = np.empty(2)
    b = np.empty(2)
    a[1], a[0] = two_sum(x1, -x0)
    b[1], b[0] = two_sum(y1, -y0)
    length = times(a, 2, a, 2, 1.0, h, length)
    return times(b, 2, b, 2, 1.0, h, length)


@allocating_kernel
def _sign_vertex(cx, cy, r, vx, vy):
    """The exact sign of ``|c - v|^2 - r^2``."""
    h = np.empty(32)
    length = _square_length(cx, vx, cy, vy, h, 0)
    hi, lo = two_product(r, r)
    length = grow(h, length, -lo)
    length = grow(h, length, -hi)
    return sign_of(h, length)


@allocating_kernel
def _sign_line(cx, cy, r, px, py, qx, qy):
    """The exact sign of ``((q - p) x (c - p))^2 - r^2 |q - p|^2``."""
    work = np.empty(40)
    c = np.empty(40)
    nc = compress(work, grow_cross(work, 0, qx, px, qy, py, cx, px, cy, py, 1.0), c)
    length2 = np.empty(16)
    nl = _square_length(qx, px, qy, py, length2, 0)
    rr = np.empty(2)
    rr[1], rr[0] = two_product(r, r)
    h = np.empty(2 * nc * nc + 2 * 2 * nl + 2)
    length = times(c, nc, c, nc, 1.0, h, 0)
    length = times(rr, 2, length2, nl, -1.0, h, length)
    return sign_of(h, length)


@kernel
def _near_vertex(cx, cy, r, vx, vy, band):
    """Whether the centre is nearer than ``r`` to the vertex (exactly)."""
    wx = cx - vx
    wy = cy - vy
    d = math.sqrt(wx * wx + wy * wy)
    if abs(d - r) > band and math.isfinite(d):
        return d < r
    return _sign_vertex(cx, cy, r, vx, vy) < 0


@kernel
def _near_edge(cx, cy, r, px, py, qx, qy, band):
    """Whether the centre is nearer than ``r`` to the closed edge from ``p`` to ``q``."""
    ex = qx - px
    ey = qy - py
    length = math.hypot(ex, ey)
    wx = cx - px
    wy = cy - py
    along = wx * ex + wy * ey
    if abs(along) <= band * (length + abs(wx) + abs(wy)):
        before = _sign_dot(cx, px, cy, py, px, py, qx, qy) <= 0
    else:
        before = along <= 0.0
    if before:
        return _near_vertex(cx, cy, r, px, py, band)
    beyond = (cx - qx) * ex + (cy - qy) * ey
    if abs(beyond) <= band * (length + abs(cx - qx) + abs(cy - qy)):
        after = _sign_dot(cx, qx, cy, qy, px, py, qx, qy) >= 0
    else:
        after = beyond >= 0.0
    if after:
        return _near_vertex(cx, cy, r, qx, qy, band)
    cross = ex * wy - ey * wx
    gap = abs(cross) - r * length
    if abs(gap) > band * (length + abs(wx) + abs(wy) + r) and math.isfinite(gap):
        return gap < 0.0
    return _sign_line(cx, cy, r, px, py, qx, qy) < 0


@inlined_helper
def _edge(v, n, k):
    """Edge ``k`` of the outline ``v[:n]``: its first vertex and its run to the next,
    ``(px, py, ex, ey)``."""
    k2 = k + 1 if k + 1 < n else 0
    return v[k, 0], v[k, 1], v[k2, 0] - v[k, 0], v[k2, 1] - v[k, 1]


@kernel
def overlaps(cx, cy, r, v, n):
    """Whether the open disc about ``(cx, cy)`` of radius ``r`` overlaps the convex
    outline ``v[:n]`` (in the stored order: inside is to the left of every edge)."""
    inside = True
    strictly = True
    for k in range(n):
        k2 = k + 1 if k + 1 < n else 0
        o = orient(v[k, 0], v[k, 1], v[k2, 0], v[k2, 1], cx, cy)
        if o < 0:
            inside = False
            strictly = False
            break
        if o == 0:
            strictly = False
    if strictly or (inside and r > 0.0):
        return True
    if r <= 0.0:
        return False
    band = _BAND * _magnitude(cx, cy, r, v, n)
    for k in range(n):
        k2 = k + 1 if k + 1 < n else 0
        if _near_edge(cx, cy, r, v[k, 0], v[k, 1], v[k2, 0], v[k2, 1], band):
            return True
    return False


@kernel
def entry(cx, cy, r, dx, dy, v, n):
    """The first fraction in ``[0, 1)`` at which the circle moving by ``(dx, dy)``
    overlaps the still outline, in floats (``inf`` if never): the earliest entry of
    its centre into a capsule about an edge or a disc about a vertex (the float
    estimate of ``continuous.polygon.sweep_circle_outline``, compiled)."""
    if r <= 0.0:
        return _point_entry(cx, cy, dx, dy, v, n)
    best = np.inf
    for k in range(n):
        px, py, ex, ey = _edge(v, n, k)
        length = math.hypot(ex, ey)
        u0 = ((cx - px) * ex + (cy - py) * ey) / (length * length)
        du = (dx * ex + dy * ey) / (length * length)
        h0 = (ex * (cy - py) - ey * (cx - px)) / length
        dh = (ex * dy - ey * dx) / length
        enter_u, exit_u = axis_interval(u0, u0, du, 0.0, 1.0)
        enter_h, exit_h = axis_interval(h0, h0, dh, -r, r)
        best = min(best, first_fraction(max(enter_u, enter_h), min(exit_u, exit_h)))
        best = min(best, disc_entry(cx - px, cy - py, dx, dy, r))
    return best


@kernel
def _point_entry(cx, cy, dx, dy, v, n):
    """:func:`entry` of a circle of radius 0: the point's entry into the open
    outline (the latest moment it passes inside an edge's line, if before the first
    it passes out of one)."""
    enter = -np.inf
    leave = np.inf
    for k in range(n):
        px, py, ex, ey = _edge(v, n, k)
        o = ex * (cy - py) - ey * (cx - px)  # inside while o + t * rate > 0
        rate = ex * dy - ey * dx
        if rate > 0.0:
            enter = max(enter, -o / rate)
        elif rate < 0.0:
            leave = min(leave, -o / rate)
        elif o <= 0.0:
            return np.inf
    return first_fraction(enter, leave)


@kernel
def nearest(cx, cy, v, n):
    """The outline's point nearest the centre and the normal there toward it, with
    how far the centre is outside: ``(kx, ky, nx, ny, distance)``; the normal is the
    edge's outward normal where the point is inside an edge, else the direction from
    the vertex. With the centre inside (or on the outline), the edge it is nearest
    to: the centre's foot on it, the edge's outward normal, the distance as a
    negative depth."""
    outside = False
    for k in range(n):
        k2 = k + 1 if k + 1 < n else 0
        if orient(v[k, 0], v[k, 1], v[k2, 0], v[k2, 1], cx, cy) < 0:
            outside = True
            break
    best = np.inf
    kx = v[0, 0]
    ky = v[0, 1]
    nx = 0.0
    ny = -1.0
    on_face = False
    for k in range(n):
        px, py, ex, ey = _edge(v, n, k)
        length = math.hypot(ex, ey)
        wx = cx - px
        wy = cy - py
        t = (wx * ex + wy * ey) / (length * length)
        face = 0.0 < t < 1.0
        t = min(max(t, 0.0), 1.0)
        fx = px + ex * t
        fy = py + ey * t
        # (inside: how deep inside the edge's line)
        d = math.hypot(cx - fx, cy - fy) if outside else (ex * wy - ey * wx) / length
        if d < best:
            best = d
            kx, ky = fx, fy
            nx, ny = ey / length, -ex / length
            on_face = face
    if not outside:
        return kx, ky, nx + 0.0, ny + 0.0, -best
    if not on_face and best > 0.0:
        nx, ny = (cx - kx) / best, (cy - ky) / best
    return kx, ky, nx + 0.0, ny + 0.0, best
