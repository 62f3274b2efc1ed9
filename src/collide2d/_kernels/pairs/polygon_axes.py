"""One pair of convex polygons in relative motion, as the compiled sweeps see it: a
table of separating axes (one per edge of either shape) and the exact tests on it.

Against an edge from ``p`` to ``q``, a vertex ``v`` of the other shape has the value
``E(t) = (q - p) x (v - p) + t * R`` at time ``t``, ``R = +-(q - p) x d`` for the
relative motion ``d`` (``d`` moves the first shape; the second's vertices move by
``-d`` against the first's edges). The edge separates the shapes at ``t`` when every
vertex has ``E(t) <= 0``; ``O`` is the largest ``E(0)``. Every test here is the
exact sign of such an ``E`` at a float time, of ``O_j R_i - O_i R_j`` (which of two
edges' times ``-O / R`` comes first), or of ``O_i^2 |e_j|^2 - O_j^2 |e_i|^2`` (which
edge's push is shorter): in floats where an error bound proves it, otherwise as
exact expansions (:mod:`collide2d._kernels.expansions`). See
:mod:`collide2d._kernels.pairs.polygon_sweeps` for the ranges where they hold.

The float filters run on every pair and are inlined into the sweep
(:func:`~collide2d._kernels.jit.inlined_helper`); the exact stages, rarely reached,
are compiled once each and called (:func:`~collide2d._kernels.jit.borrowing_kernel`):
inlined everywhere, they made the first call of ``sweep_box_pairs`` take 42 s and
374 MB with an empty cache instead of 26 s and 295 MB, for no speed once compiled.
"""

from __future__ import annotations

import math

import numpy as np

from collide2d._kernels.expansions import (
    CCW_BOUND,
    EPS,
    compress,
    floor_value,
    grow,
    grow_cross,
    sign_of,
    times,
    two_product,
    two_sum,
)
from collide2d._kernels.jit import borrowing_kernel, inlined_helper

_SLACK = 1e-13
"""Relative width added to the float bounds of a squared push length (their own
error is a few units of 2**-53)."""

# columns of the per-axis float table (one row per edge of either shape)
_PX, _PY, _QX, _QY, _RATE, _RATE_ERR, _O, _O_ERR = range(8)
# columns of the per-axis integer table
OWNER, SIGN, _RATE_LEN, _O_LEN, _O_VERTEX, _SUPPORT, APART = range(7)
COLUMNS = 7
"""Columns of the integer table (``APART``: whether the axis separates the shapes at
the time last asked by :func:`apart_flags`)."""


@inlined_helper
def outline_box(a: np.ndarray, na: int) -> tuple[float, float, float, float]:
    """The bounding box ``left, top, right, bottom`` of the outline ``a[:na]``."""
    left = right = a[0, 0]
    top = bottom = a[0, 1]
    for k in range(1, na):
        left = min(left, a[k, 0])
        right = max(right, a[k, 0])
        top = min(top, a[k, 1])
        bottom = max(bottom, a[k, 1])
    return left, top, right, bottom


@inlined_helper
def axes(
    a: np.ndarray, na: int, b: np.ndarray, nb: int, d: np.ndarray,
    table: np.ndarray, ints: np.ndarray, h: np.ndarray,
) -> int:  # fmt: skip
    """Fill one row of ``table``/``ints`` per edge of ``a`` then of ``b``: the edge,
    its rate (float, error bound, exact sign), and the largest float ``E(0)`` of the
    other shape's vertices with an error bound for it (Shewchuk's, on the other
    shape's bounding box: larger than each vertex's). Returns the number of axes, or
    -1 as soon as an edge certainly separates the shapes at the start and does not
    approach (no contact)."""
    dx = d[0] - d[2]
    dy = d[1] - d[3]
    n = 0
    for owner in range(2):
        own, no, other, nt = (a, na, b, nb) if owner == 0 else (b, nb, a, na)
        way = -1.0 if owner == 0 else 1.0  # the other shape moves by -d against a's edges
        left_x, top_y, right_x, bottom_y = outline_box(other, nt)
        for k in range(no):
            k2 = k + 1 if k + 1 < no else 0
            px, py, qx, qy = own[k, 0], own[k, 1], own[k2, 0], own[k2, 1]
            ex = qx - px
            ey = qy - py
            left = ex * dy
            right = ey * dx
            rate = way * (left - right)
            err = CCW_BOUND * (abs(left) + abs(right))
            if rate > err:
                sign = 1
            elif -rate > err:
                sign = -1
            else:
                length = grow_cross(h, 0, qx, px, qy, py, d[0], d[2], d[1], d[3], way)
                sign = sign_of(h, length)
            best = -np.inf
            support = 0
            for v in range(nt):
                o = ex * (other[v, 1] - py) - ey * (other[v, 0] - px)
                if o > best:
                    best = o
                    support = v
            reach_x = max(abs(right_x - px), abs(left_x - px))
            reach_y = max(abs(bottom_y - py), abs(top_y - py))
            best_err = CCW_BOUND * (abs(ex) * reach_y + abs(ey) * reach_x)
            if sign <= 0 and -best > 1.0001 * best_err + 4.0 * EPS * abs(best):
                return -1
            table[n, _PX] = px
            table[n, _PY] = py
            table[n, _QX] = qx
            table[n, _QY] = qy
            table[n, _RATE] = rate
            table[n, _RATE_ERR] = err
            table[n, _O] = best
            table[n, _O_ERR] = best_err
            ints[n, OWNER] = owner
            ints[n, SIGN] = sign
            ints[n, _RATE_LEN] = -1
            ints[n, _O_LEN] = -1
            ints[n, _SUPPORT] = support
            n += 1
    return n


@borrowing_kernel
def exact_value(
    k: int, v: int, t: float, vx: float, vy: float, d: np.ndarray, table: np.ndarray,
    ints: np.ndarray, cache: np.ndarray,
) -> int:  # fmt: skip
    """``E(t)`` of vertex ``v`` (at ``(vx, vy)``) against axis ``k`` as an exact
    expansion in ``cache[0, 0]``; returns its length. Axis ``k``'s rate and the last
    vertex's ``E(0)`` are kept as expansions in ``cache[1, k]`` and ``cache[2, k]``."""
    px, py, qx, qy = table[k, _PX], table[k, _PY], table[k, _QX], table[k, _QY]
    rate = cache[1, k]
    zero = cache[2, k]
    work = cache[0, 1]
    if ints[k, _RATE_LEN] < 0:
        way = -1.0 if ints[k, OWNER] == 0 else 1.0
        length = grow_cross(work, 0, qx, px, qy, py, d[0], d[2], d[1], d[3], way)
        ints[k, _RATE_LEN] = compress(work, length, rate)
    if ints[k, _O_LEN] < 0 or ints[k, _O_VERTEX] != v:
        length = grow_cross(work, 0, qx, px, qy, py, vx, px, vy, py, 1.0)
        ints[k, _O_LEN] = compress(work, length, zero)
        ints[k, _O_VERTEX] = v
    out = cache[0, 0]
    length = ints[k, _O_LEN]
    for i in range(length):
        out[i] = zero[i]
    if t != 0.0:
        for i in range(ints[k, _RATE_LEN]):
            hi, lo = two_product(t, rate[i])
            if lo != 0.0:
                length = grow(out, length, lo)
            length = grow(out, length, hi)
    return length


@inlined_helper
def _bound(o: float, o_err: float, moved: float, moved_err: float) -> float:
    """An error bound for the float ``o + moved`` (``moved = t * rate``), given bounds
    on the errors of ``o`` and of ``moved``'s rate times ``t``: theirs, widened for
    the rounding of the product and the sum."""
    return 1.0001 * (o_err + moved_err) + 4.0 * EPS * (abs(o) + abs(moved))


@inlined_helper
def apart_at(
    k: int, t: float, a: np.ndarray, na: int, b: np.ndarray, nb: int, d: np.ndarray,
    table: np.ndarray, ints: np.ndarray, cache: np.ndarray, strict: bool,
) -> bool:  # fmt: skip
    """Whether axis ``k`` separates the shapes at time ``t``: every vertex of the
    other shape has ``E(t) <= 0`` (``< 0`` when ``strict``), exactly."""
    rate = table[k, _RATE]
    value = table[k, _O] + t * rate
    bound = _bound(table[k, _O], table[k, _O_ERR], t * rate, t * table[k, _RATE_ERR])
    if value > bound:
        return False
    if -value > bound:
        return True
    other, nt = (b, nb) if ints[k, OWNER] == 0 else (a, na)
    px, py, qx, qy = table[k, _PX], table[k, _PY], table[k, _QX], table[k, _QY]
    ex = qx - px
    ey = qy - py
    for v in range(nt):
        vx = other[v, 0]
        vy = other[v, 1]
        lo = ex * (vy - py)
        ro = ey * (vx - px)
        o = lo - ro
        e = o + t * rate
        eb = _bound(o, CCW_BOUND * (abs(lo) + abs(ro)), t * rate, t * table[k, _RATE_ERR])
        if e > eb:
            return False
        if -e > eb:
            continue
        length = exact_value(k, v, t, vx, vy, d, table, ints, cache)
        sign = sign_of(cache[0, 0], length)
        if sign > 0 or (strict and sign == 0):
            return False
    return True


@inlined_helper
def apart_flags(
    t: float, n: int, a: np.ndarray, na: int, b: np.ndarray, nb: int, d: np.ndarray,
    table: np.ndarray, ints: np.ndarray, cache: np.ndarray,
) -> bool:  # fmt: skip
    """Whether some approaching axis separates the shapes at ``t``: every approaching
    axis asked, its answer kept in ``ints[k, APART]``."""
    found = False
    for k in range(n):
        apart = ints[k, SIGN] > 0 and apart_at(k, t, a, na, b, nb, d, table, ints, cache, False)
        ints[k, APART] = 1 if apart else 0
        found = found or apart
    return found


@inlined_helper
def any_apart(
    t: float, n: int, a: np.ndarray, na: int, b: np.ndarray, nb: int, d: np.ndarray,
    table: np.ndarray, ints: np.ndarray, cache: np.ndarray, strict: bool,
) -> bool:  # fmt: skip
    """Whether some approaching axis separates the shapes at ``t`` (``t <= lo``; with
    ``strict``, ``t < lo``)."""
    for k in range(n):
        if ints[k, SIGN] > 0 and apart_at(k, t, a, na, b, nb, d, table, ints, cache, strict):
            return True
    return False


@borrowing_kernel
def exact_o_and_rate(
    k: int, a: np.ndarray, na: int, b: np.ndarray, nb: int, d: np.ndarray,
    table: np.ndarray, ints: np.ndarray, o: np.ndarray, r: np.ndarray, h: np.ndarray,
) -> tuple[int, int]:  # fmt: skip
    """Axis ``k``'s exact largest ``E(0)`` into ``o`` and its exact rate into ``r``
    (unless ``r`` is empty), compressed; return their lengths."""
    owner = ints[k, OWNER]
    other, nt = (b, nb) if owner == 0 else (a, na)
    px, py, qx, qy = table[k, _PX], table[k, _PY], table[k, _QX], table[k, _QY]
    ex = qx - px
    ey = qy - py
    s = 0
    for v in range(1, nt):  # the support: compare (q - p) x (v - s) with zero
        sx, sy = other[s, 0], other[s, 1]
        vx, vy = other[v, 0], other[v, 1]
        lo = ex * (vy - sy)
        ro = ey * (vx - sx)
        diff = lo - ro
        bound = CCW_BOUND * (abs(lo) + abs(ro))
        if diff > bound or (
            diff >= -bound and sign_of(h, grow_cross(h, 0, qx, px, qy, py, vx, sx, vy, sy, 1.0)) > 0
        ):
            s = v
    no = compress(h, grow_cross(h, 0, qx, px, qy, py, other[s, 0], px, other[s, 1], py, 1.0), o)
    if r.shape[0] == 0:  # the rate is not wanted
        return no, 0
    way = -1.0 if owner == 0 else 1.0
    nr = compress(h, grow_cross(h, 0, qx, px, qy, py, d[0], d[2], d[1], d[3], way), r)
    return no, nr


@borrowing_kernel
def later(
    i: int, j: int, a: np.ndarray, na: int, b: np.ndarray, nb: int, d: np.ndarray,
    table: np.ndarray, ints: np.ndarray, scratch: np.ndarray,
) -> int:  # fmt: skip
    """The exact sign of ``O_j R_i - O_i R_j``: for two approaching axes, positive
    when ``i``'s time comes later; for ``i`` approaching and ``j`` leaving, positive
    when ``i``'s entry comes before ``j``'s exit."""
    oi, ri, oj, rj, h = scratch[0], scratch[1], scratch[2], scratch[3], scratch[4]
    noi, nri = exact_o_and_rate(i, a, na, b, nb, d, table, ints, oi, ri, h)
    noj, nrj = exact_o_and_rate(j, a, na, b, nb, d, table, ints, oj, rj, h)
    length = times(oj, noj, ri, nri, 1.0, h, 0)
    length = times(oi, noi, rj, nrj, -1.0, h, length)
    return sign_of(h, length)


@borrowing_kernel
def parallel(i: int, j: int, table: np.ndarray, h: np.ndarray) -> bool:
    """Whether axes ``i`` and ``j``'s edges are parallel, exactly (their cross product
    is zero; ``h`` takes the expansion)."""
    left = (table[i, _QX] - table[i, _PX]) * (table[j, _QY] - table[j, _PY])
    right = (table[i, _QY] - table[i, _PY]) * (table[j, _QX] - table[j, _PX])
    if abs(left - right) > CCW_BOUND * (abs(left) + abs(right)):
        return False
    length = grow_cross(
        h, 0, table[i, _QX], table[i, _PX], table[i, _QY], table[i, _PY],
        table[j, _QX], table[j, _PX], table[j, _QY], table[j, _PY], 1.0,
    )  # fmt: skip
    return sign_of(h, length) == 0


@inlined_helper
def length2(table: np.ndarray, k: int, h: np.ndarray) -> int:
    """The exact squared length of axis ``k``'s edge into ``h``; its length."""
    length = 0
    for one, zero in ((_QX, _PX), (_QY, _PY)):
        u1, u0 = two_sum(table[k, one], -table[k, zero])
        for x, y in ((u1, u1), (u1, 2.0 * u0), (u0, u0)):
            p, e = two_product(x, y)
            length = grow(h, length, e)
            length = grow(h, length, p)
    return length


@inlined_helper
def square_times(
    o: np.ndarray, no: int, l2: np.ndarray, nl: int, sign: float, scratch: np.ndarray, length: int
) -> int:
    """Add ``sign * o^2 * l2`` (expansions) to ``scratch[9][:length]`` exactly."""
    c, square, c2, cl = scratch[5], scratch[6], scratch[7], scratch[8]
    nc = compress(o, no, c)
    ns = compress(square, times(c, nc, c, nc, 1.0, square, 0), c2)
    ncl = compress(l2, nl, cl)
    return times(c2, ns, cl, ncl, sign, scratch[9], length)


@borrowing_kernel
def deeper(
    i: int, j: int, a: np.ndarray, na: int, b: np.ndarray, nb: int, d: np.ndarray,
    table: np.ndarray, ints: np.ndarray, scratch: np.ndarray,
) -> int:  # fmt: skip
    """The exact sign of ``O_i^2 |e_j|^2 - O_j^2 |e_i|^2``: positive when the push
    along axis ``i`` is longer than along ``j`` (both ``O`` positive)."""
    oi, oj, r, h = scratch[0], scratch[2], scratch[1][:0], scratch[4]
    noi, _ = exact_o_and_rate(i, a, na, b, nb, d, table, ints, oi, r, h)
    noj, _ = exact_o_and_rate(j, a, na, b, nb, d, table, ints, oj, r, h)
    li, lj = scratch[3], scratch[10]
    nli = length2(table, i, li)
    nlj = length2(table, j, lj)
    length = square_times(oi, noi, lj, nlj, 1.0, scratch, 0)
    length = square_times(oj, noj, li, nli, -1.0, scratch, length)
    return sign_of(scratch[9], length)


@borrowing_kernel
def shortest_push(
    n: int, a: np.ndarray, na: int, b: np.ndarray, nb: int, d: np.ndarray,
    table: np.ndarray, ints: np.ndarray, scratch: np.ndarray,
) -> tuple[int, float]:  # fmt: skip
    """For overlapping shapes, the axis of the shortest push (the obstacle's edges
    first, then the mover's, the first of equal ones: as
    :func:`collide2d.geometry.convex.least_penetration`) and its length,
    ``floor(O) / sqrt(floor(|e|^2))``; ``(-1, 0.0)`` if not settled."""
    best = -1
    best_lo = 0.0
    best_hi = 0.0
    for m in range(n):
        k = na + m if m < n - na else m - (n - na)
        ex = table[k, _QX] - table[k, _PX]
        ey = table[k, _QY] - table[k, _PY]
        l2 = ex * ex + ey * ey
        o = table[k, _O]
        err = table[k, _O_ERR]
        low = max(o - err, 0.0)
        lo = low * low / l2 * (1.0 - _SLACK)
        hi = (o + err) * (o + err) / l2 * (1.0 + _SLACK)
        if best >= 0 and lo > best_hi:
            continue
        if best < 0 or hi < best_lo or deeper(k, best, a, na, b, nb, d, table, ints, scratch) < 0:
            best = k
            best_lo = lo
            best_hi = hi
    o, h = scratch[0], scratch[4]
    no, _ = exact_o_and_rate(best, a, na, b, nb, d, table, ints, o, scratch[1][:0], h)
    o_floor = floor_value(o, no, h)
    l2 = scratch[3]
    l_floor = floor_value(l2, compress(h, length2(table, best, h), l2), scratch[5])
    if not (o_floor > 0.0 and l_floor > 0.0):
        return -1, 0.0
    return best, o_floor / math.sqrt(l_floor)


@inlined_helper
def unit_normal(ex: float, ey: float) -> tuple[float, float]:
    """The unit right-hand normal ``(ey, -ex) / |e|`` of a finite nonzero edge
    vector, as :func:`collide2d.geometry.normals.unit_normal` computes it: divided
    by its larger coordinate's magnitude first (parallel edges, one normal), then by
    the root of its squared length."""
    if abs(ex) >= abs(ey):
        ux = math.copysign(1.0, ex)
        uy = ey / abs(ex)
    else:
        ux = ex / abs(ey)
        uy = math.copysign(1.0, ey)
    length = math.sqrt(ux * ux + uy * uy)
    return uy / length + 0.0, -ux / length + 0.0


@borrowing_kernel
def estimate(
    n: int, a: np.ndarray, na: int, b: np.ndarray, nb: int, d: np.ndarray,
    table: np.ndarray, ints: np.ndarray, cache: np.ndarray,
) -> float:  # fmt: skip
    """The first contact ``lo`` to a float step or so (at least 0): the latest
    ``-O / R`` in floats picks the axis, whose exact ``O`` and ``R`` (kept for the
    exact tests that follow) then give the quotient to twice the precision."""
    estimate = 0.0
    chosen = -1
    for k in range(n):
        if ints[k, SIGN] > 0 and table[k, _RATE] > 0.0:
            time = -table[k, _O] / table[k, _RATE]
            if chosen < 0 or time > estimate:
                estimate = time
                chosen = k
    if chosen < 0 or not estimate > 0.0:
        return 0.0
    other = b if ints[chosen, OWNER] == 0 else a
    v = ints[chosen, _SUPPORT]
    exact_value(chosen, v, 0.0, other[v, 0], other[v, 1], d, table, ints, cache)
    o, no = cache[2, chosen], ints[chosen, _O_LEN]
    r, nr = cache[1, chosen], ints[chosen, _RATE_LEN]
    if nr == 0:
        return estimate
    o1 = o[no - 1] if no > 0 else 0.0
    o0 = o[no - 2] if no > 1 else 0.0
    r1 = r[nr - 1]
    r0 = r[nr - 2] if nr > 1 else 0.0
    q = -o1 / r1
    p1, p0 = two_product(q, r1)
    rest = ((-o1 - p1) - p0) + (-o0 - q * r0)
    refined = q + rest / r1
    return max(refined, 0.0) if math.isfinite(refined) else estimate


@inlined_helper
def facing(table: np.ndarray, k: int) -> float:
    """How squarely the relative motion meets axis ``k``'s edge, ``|e x d| / |e|``
    (in floats: what ``World.step`` takes the face of least penetration by, where a
    vertex meets a vertex)."""
    rate: float = abs(table[k, _RATE])
    return rate / math.hypot(table[k, _QX] - table[k, _PX], table[k, _QY] - table[k, _PY])


@inlined_helper
def normal(table: np.ndarray, ints: np.ndarray, k: int) -> tuple[float, float]:
    """Axis ``k``'s unit normal from the obstacle toward the mover: the obstacle's
    edge's outward normal, or the mover's edge's reversed."""
    nx, ny = unit_normal(table[k, _QX] - table[k, _PX], table[k, _QY] - table[k, _PY])
    if ints[k, OWNER] == 0:
        return 0.0 - nx, 0.0 - ny
    return nx, ny
