"""Sweeps of convex polygon pairs in arrays: the exact first contact, compiled.

The swept separating-axis test of :mod:`collide2d.geometry.convex`, decided the
same way with floats where an error bound proves the answer and with exact
expansions otherwise (see :mod:`collide2d._kernels.pairs.polygons`). Against an
edge from ``p`` to ``q``, a vertex ``v`` of the other shape has the value
``E(t) = (q - p) x (v - p) + t * rate`` at time ``t``, ``rate = +-(q - p) x d``
for the relative motion ``d``; the edge separates the shapes at ``t`` when
every vertex has ``E(t) <= 0``. Every decision below is the exact sign of such an
``E`` at a float time, or of ``O_j R_i - O_i R_j`` (which of two edges' times
``-O / R`` comes first, ``O`` the largest ``E(0)``), so no quotient is ever
rounded before it is compared:

- the shapes overlap at ``t = 0`` when no edge separates them then (started);
- an edge that separates them at ``0`` and does not approach means no contact;
- the first contact ``lo`` lies at or after a float ``f`` exactly when an
  approaching edge separates at ``f``, so the fraction is the last float at which
  one does (found by stepping from the float estimate), and ``lo >= 1`` when one
  separates at ``1``;
- the contact is real (``lo`` before the shapes part again) when they overlap at
  the float after ``f``, and otherwise by the exact comparison of the times.

A pair that starts overlapped reports the shortest push out, as
:func:`collide2d.geometry.convex.least_penetration` chooses it: the edge whose
``O / |e|`` is least, compared in floats where their error bounds part and
otherwise exactly (``O_i^2 |e_j|^2`` against ``O_j^2 |e_i|^2``), and its length
``floor(O) / sqrt(floor(|e|^2))`` (each exact value rounded down to a float, then
IEEE's correctly rounded root and quotient, as the Python route computes it).

Exactness holds when every coordinate and motion of the pair is zero or of
magnitude in ``SWEEP_EXACT_RANGE`` (products of up to six such values neither
overflow nor lose bits) and the fraction is zero or above ``2**-600``; other
pairs, and the few whose first contact two edges of one shape give at once (a
vertex meeting a vertex), are marked ``UNSURE`` for the plain Python route, which
is exact everywhere.
"""

from __future__ import annotations

import math

import numpy as np

from collide2d._kernels.jit import inlined_helper, kernel
from collide2d._kernels.pairs.polygons import _CCW_BOUND, _EPS, _grow, _two_product, _two_sum

NONE = 0
HIT = 1
STARTED = 2
UNSURE = 3

_STEPS = 64
"""Float steps from the estimate to the fraction, at most (it is a few off)."""

_LOWEST_TIME = 2.0**-600
"""Below this (and above zero), ``t * rate`` may lose bits: the Python route."""

_BEFORE_ONE = 1.0 - 2.0**-53

_SLACK = 1e-13
"""Relative width added to the float bounds of a squared push length (their own
error is a few units of 2**-53)."""

# columns of the per-axis float table
_PX, _PY, _QX, _QY, _RATE, _RATE_ERR, _O, _O_ERR = range(8)
# columns of the per-axis integer table
_OWNER, _EDGE, _SIGN, _RATE_LEN, _O_LEN, _O_VERTEX, _SUPPORT = range(7)


@inlined_helper
def _grow_scaled(h: np.ndarray, length: int, x: float, factor: float) -> int:
    """Add ``factor * x`` to the expansion ``h[:length]`` exactly."""
    if x == 0.0:  # (differences of nearby coordinates are exact: their errors are zero)
        return length
    if factor == 1.0:
        return _grow(h, length, x)
    if factor == -1.0:
        return _grow(h, length, -x)
    hi, lo = _two_product(factor, x)
    length = _grow(h, length, lo)
    return _grow(h, length, hi)


@inlined_helper
def _grow_cross(
    h: np.ndarray, length: int, ux1: float, ux0: float, uy1: float, uy0: float,
    vx1: float, vx0: float, vy1: float, vy0: float, factor: float,
) -> int:  # fmt: skip
    """Add ``factor * (u x v)`` exactly, ``u = u1 - u0`` and ``v = v1 - v0``."""
    a1, a0 = _two_sum(ux1, -ux0)
    b1, b0 = _two_sum(vy1, -vy0)
    c1, c0 = _two_sum(uy1, -uy0)
    d1, d0 = _two_sum(vx1, -vx0)
    for u, v, sign in (
        (a1, b1, 1.0), (a1, b0, 1.0), (a0, b1, 1.0), (a0, b0, 1.0),
        (c1, d1, -1.0), (c1, d0, -1.0), (c0, d1, -1.0), (c0, d0, -1.0),
    ):  # fmt: skip
        if u != 0.0 and v != 0.0:
            p, e = _two_product(u, v)
            length = _grow_scaled(h, length, sign * e, factor)
            length = _grow_scaled(h, length, sign * p, factor)
    return length


@inlined_helper
def _sign(h: np.ndarray, length: int) -> int:
    if length == 0:
        return 0
    return 1 if h[length - 1] > 0.0 else -1


@inlined_helper
def _axes(
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
        left_x = right_x = other[0, 0]
        top_y = bottom_y = other[0, 1]
        for v in range(1, nt):
            left_x = min(left_x, other[v, 0])
            right_x = max(right_x, other[v, 0])
            top_y = min(top_y, other[v, 1])
            bottom_y = max(bottom_y, other[v, 1])
        for k in range(no):
            k2 = k + 1 if k + 1 < no else 0
            px, py, qx, qy = own[k, 0], own[k, 1], own[k2, 0], own[k2, 1]
            ex = qx - px
            ey = qy - py
            left = ex * dy
            right = ey * dx
            rate = way * (left - right)
            err = _CCW_BOUND * (abs(left) + abs(right))
            if rate > err:
                sign = 1
            elif -rate > err:
                sign = -1
            else:
                length = _grow_cross(h, 0, qx, px, qy, py, d[0], d[2], d[1], d[3], way)
                sign = _sign(h, length)
            best = -np.inf
            support = 0
            for v in range(nt):
                o = ex * (other[v, 1] - py) - ey * (other[v, 0] - px)
                if o > best:
                    best = o
                    support = v
            reach_x = max(abs(right_x - px), abs(left_x - px))
            reach_y = max(abs(bottom_y - py), abs(top_y - py))
            best_err = _CCW_BOUND * (abs(ex) * reach_y + abs(ey) * reach_x)
            if sign <= 0 and -best > 1.0001 * best_err + 4.0 * _EPS * abs(best):
                return -1
            table[n, _PX] = px
            table[n, _PY] = py
            table[n, _QX] = qx
            table[n, _QY] = qy
            table[n, _RATE] = rate
            table[n, _RATE_ERR] = err
            table[n, _O] = best
            table[n, _O_ERR] = best_err
            ints[n, _OWNER] = owner
            ints[n, _EDGE] = k
            ints[n, _SIGN] = sign
            ints[n, _RATE_LEN] = -1
            ints[n, _O_LEN] = -1
            ints[n, _SUPPORT] = support
            n += 1
    return n


@inlined_helper
def _exact_value(
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
        way = -1.0 if ints[k, _OWNER] == 0 else 1.0
        length = _grow_cross(work, 0, qx, px, qy, py, d[0], d[2], d[1], d[3], way)
        ints[k, _RATE_LEN] = _compress(work, length, rate)
    if ints[k, _O_LEN] < 0 or ints[k, _O_VERTEX] != v:
        length = _grow_cross(work, 0, qx, px, qy, py, vx, px, vy, py, 1.0)
        ints[k, _O_LEN] = _compress(work, length, zero)
        ints[k, _O_VERTEX] = v
    out = cache[0, 0]
    length = ints[k, _O_LEN]
    for i in range(length):
        out[i] = zero[i]
    if t != 0.0:
        for i in range(ints[k, _RATE_LEN]):
            hi, lo = _two_product(t, rate[i])
            if lo != 0.0:
                length = _grow(out, length, lo)
            length = _grow(out, length, hi)
    return length


@inlined_helper
def _apart_at(
    k: int, t: float, a: np.ndarray, na: int, b: np.ndarray, nb: int, d: np.ndarray,
    table: np.ndarray, ints: np.ndarray, cache: np.ndarray, strict: bool,
) -> bool:  # fmt: skip
    """Whether axis ``k`` separates the shapes at time ``t``: every vertex of the
    other shape has ``E(t) <= 0`` (``< 0`` when ``strict``), exactly."""
    rate = table[k, _RATE]
    value = table[k, _O] + t * rate
    bound = 1.0001 * (table[k, _O_ERR] + t * table[k, _RATE_ERR]) + 4.0 * _EPS * (
        abs(table[k, _O]) + abs(t * rate)
    )
    if value > bound:
        return False
    if -value > bound:
        return True
    other, nt = (b, nb) if ints[k, _OWNER] == 0 else (a, na)
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
        eb = 1.0001 * (_CCW_BOUND * (abs(lo) + abs(ro)) + t * table[k, _RATE_ERR]) + 4.0 * _EPS * (
            abs(o) + abs(t * rate)
        )
        if e > eb:
            return False
        if -e > eb:
            continue
        length = _exact_value(k, v, t, vx, vy, d, table, ints, cache)
        sign = _sign(cache[0, 0], length)
        if sign > 0 or (strict and sign == 0):
            return False
    return True


@inlined_helper
def _any_apart(
    t: float, n: int, a: np.ndarray, na: int, b: np.ndarray, nb: int, d: np.ndarray,
    table: np.ndarray, ints: np.ndarray, cache: np.ndarray, strict: bool,
) -> bool:  # fmt: skip
    """Whether some approaching axis separates the shapes at ``t`` (``t <= lo``; with
    ``strict``, ``t < lo``)."""
    for k in range(n):
        if ints[k, _SIGN] > 0 and _apart_at(k, t, a, na, b, nb, d, table, ints, cache, strict):
            return True
    return False


@inlined_helper
def _expansions(
    k: int, a: np.ndarray, na: int, b: np.ndarray, nb: int, d: np.ndarray,
    table: np.ndarray, ints: np.ndarray, o: np.ndarray, r: np.ndarray, h: np.ndarray,
) -> tuple[int, int]:  # fmt: skip
    """Axis ``k``'s exact largest ``E(0)`` into ``o`` and its exact rate into ``r``
    (unless ``r`` is empty), compressed; return their lengths."""
    owner = ints[k, _OWNER]
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
        bound = _CCW_BOUND * (abs(lo) + abs(ro))
        if diff > bound or (
            diff >= -bound and _sign(h, _grow_cross(h, 0, qx, px, qy, py, vx, sx, vy, sy, 1.0)) > 0
        ):
            s = v
    no = _compress(h, _grow_cross(h, 0, qx, px, qy, py, other[s, 0], px, other[s, 1], py, 1.0), o)
    if r.shape[0] == 0:  # the rate is not wanted
        return no, 0
    way = -1.0 if owner == 0 else 1.0
    nr = _compress(h, _grow_cross(h, 0, qx, px, qy, py, d[0], d[2], d[1], d[3], way), r)
    return no, nr


@inlined_helper
def _times(
    x: np.ndarray, nx: int, y: np.ndarray, ny: int, sign: float, h: np.ndarray, length: int
) -> int:
    """Add ``sign * x * y`` (two expansions) to ``h[:length]`` exactly."""
    for i in range(nx):
        for j in range(ny):
            p, e = _two_product(x[i], y[j])
            if e != 0.0:
                length = _grow(h, length, sign * e)
            length = _grow(h, length, sign * p)
    return length


@inlined_helper
def _compress(e: np.ndarray, n: int, h: np.ndarray) -> int:
    """The expansion ``e[:n]`` in fewer terms into ``h`` (Shewchuk's COMPRESS, with
    Knuth's two-sum); return the new length."""
    if n == 0:
        return 0
    bottom = n - 1
    q = e[bottom]
    for i in range(n - 2, -1, -1):
        s, err = _two_sum(q, e[i])
        if err != 0.0:
            h[bottom] = s
            bottom -= 1
            q = err
        else:
            q = s
    top = 0
    for i in range(bottom + 1, n):
        s, err = _two_sum(h[i], q)
        if err != 0.0:
            h[top] = err
            top += 1
        q = s
    h[top] = q
    return top + 1


@inlined_helper
def _minus(e: np.ndarray, n: int, x: float, h: np.ndarray) -> int:
    """The exact sign of ``e[:n] - x``."""
    for i in range(n):
        h[i] = e[i]
    return _sign(h, _grow(h, n, -x))


@inlined_helper
def _floor_value(e: np.ndarray, n: int, h: np.ndarray) -> float:
    """The largest float not above the expansion ``e[:n]`` (NaN if not found)."""
    if n <= 1:  # zero, or one float
        return e[0] + 0.0 if n == 1 else 0.0
    x = 0.0
    for i in range(n):
        x += e[i]
    for _ in range(_STEPS):
        if _minus(e, n, x, h) < 0:
            x = np.nextafter(x, -np.inf)
            continue
        up = np.nextafter(x, np.inf)
        if _minus(e, n, up, h) >= 0:
            x = up
            continue
        return x + 0.0
    return np.nan


@inlined_helper
def _later(
    i: int, j: int, a: np.ndarray, na: int, b: np.ndarray, nb: int, d: np.ndarray,
    table: np.ndarray, ints: np.ndarray, scratch: np.ndarray,
) -> int:  # fmt: skip
    """The exact sign of ``O_j R_i - O_i R_j``: for two approaching axes, positive
    when ``i``'s time comes later; for ``i`` approaching and ``j`` leaving, positive
    when ``i``'s entry comes before ``j``'s exit."""
    oi, ri, oj, rj, h = scratch[0], scratch[1], scratch[2], scratch[3], scratch[4]
    noi, nri = _expansions(i, a, na, b, nb, d, table, ints, oi, ri, h)
    noj, nrj = _expansions(j, a, na, b, nb, d, table, ints, oj, rj, h)
    length = _times(oj, noj, ri, nri, 1.0, h, 0)
    length = _times(oi, noi, rj, nrj, -1.0, h, length)
    return _sign(h, length)


@inlined_helper
def _length2(table: np.ndarray, k: int, h: np.ndarray) -> int:
    """The exact squared length of axis ``k``'s edge into ``h``; its length."""
    length = 0
    for one, zero in ((_QX, _PX), (_QY, _PY)):
        u1, u0 = _two_sum(table[k, one], -table[k, zero])
        for x, y in ((u1, u1), (u1, 2.0 * u0), (u0, u0)):
            p, e = _two_product(x, y)
            length = _grow(h, length, e)
            length = _grow(h, length, p)
    return length


@inlined_helper
def _square_times(
    o: np.ndarray, no: int, l2: np.ndarray, nl: int, sign: float, scratch: np.ndarray, length: int
) -> int:
    """Add ``sign * o^2 * l2`` (expansions) to ``scratch[9][:length]`` exactly."""
    c, square, c2, cl = scratch[5], scratch[6], scratch[7], scratch[8]
    nc = _compress(o, no, c)
    ns = _compress(square, _times(c, nc, c, nc, 1.0, square, 0), c2)
    ncl = _compress(l2, nl, cl)
    return _times(c2, ns, cl, ncl, sign, scratch[9], length)


@inlined_helper
def _deeper(
    i: int, j: int, a: np.ndarray, na: int, b: np.ndarray, nb: int, d: np.ndarray,
    table: np.ndarray, ints: np.ndarray, scratch: np.ndarray,
) -> int:  # fmt: skip
    """The exact sign of ``O_i^2 |e_j|^2 - O_j^2 |e_i|^2``: positive when the push
    along axis ``i`` is longer than along ``j`` (both ``O`` positive)."""
    oi, oj, r, h = scratch[0], scratch[2], scratch[1][:0], scratch[4]
    noi, _ = _expansions(i, a, na, b, nb, d, table, ints, oi, r, h)
    noj, _ = _expansions(j, a, na, b, nb, d, table, ints, oj, r, h)
    li, lj = scratch[3], scratch[10]
    nli = _length2(table, i, li)
    nlj = _length2(table, j, lj)
    length = _square_times(oi, noi, lj, nlj, 1.0, scratch, 0)
    length = _square_times(oj, noj, li, nli, -1.0, scratch, length)
    return _sign(scratch[9], length)


@inlined_helper
def _shortest_push(
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
        if best < 0 or hi < best_lo or _deeper(k, best, a, na, b, nb, d, table, ints, scratch) < 0:
            best = k
            best_lo = lo
            best_hi = hi
    o, h = scratch[0], scratch[4]
    no, _ = _expansions(best, a, na, b, nb, d, table, ints, o, scratch[1][:0], h)
    o_floor = _floor_value(o, no, h)
    l2 = scratch[3]
    l_floor = _floor_value(l2, _compress(h, _length2(table, best, h), l2), scratch[5])
    if not (o_floor > 0.0 and l_floor > 0.0):
        return -1, 0.0
    return best, o_floor / math.sqrt(l_floor)


@inlined_helper
def _unit_normal(ex: float, ey: float) -> tuple[float, float]:
    """The unit right-hand normal ``(ey, -ex) / |e|`` of a finite nonzero edge
    vector, as :func:`collide2d.continuous.polygon.edge_normal` computes it: scaled
    by a power of two first, so that the squares neither overflow nor underflow."""
    _, k = math.frexp(max(abs(ex), abs(ey)))
    ux = math.ldexp(ex, -k)
    uy = math.ldexp(ey, -k)
    length = math.sqrt(ux * ux + uy * uy)
    return uy / length + 0.0, -ux / length + 0.0


@inlined_helper
def _estimate(
    n: int, a: np.ndarray, na: int, b: np.ndarray, nb: int, d: np.ndarray,
    table: np.ndarray, ints: np.ndarray, cache: np.ndarray,
) -> float:  # fmt: skip
    """The first contact ``lo`` to a float step or so (at least 0): the latest
    ``-O / R`` in floats picks the axis, whose exact ``O`` and ``R`` (kept for the
    exact tests that follow) then give the quotient to twice the precision."""
    estimate = 0.0
    chosen = -1
    for k in range(n):
        if ints[k, _SIGN] > 0 and table[k, _RATE] > 0.0:
            time = -table[k, _O] / table[k, _RATE]
            if chosen < 0 or time > estimate:
                estimate = time
                chosen = k
    if chosen < 0 or not estimate > 0.0:
        return 0.0
    other = b if ints[chosen, _OWNER] == 0 else a
    v = ints[chosen, _SUPPORT]
    _exact_value(chosen, v, 0.0, other[v, 0], other[v, 1], d, table, ints, cache)
    o, no = cache[2, chosen], ints[chosen, _O_LEN]
    r, nr = cache[1, chosen], ints[chosen, _RATE_LEN]
    if nr == 0:
        return estimate
    o1 = o[no - 1] if no > 0 else 0.0
    o0 = o[no - 2] if no > 1 else 0.0
    r1 = r[nr - 1]
    r0 = r[nr - 2] if nr > 1 else 0.0
    q = -o1 / r1
    p1, p0 = _two_product(q, r1)
    rest = ((-o1 - p1) - p0) + (-o0 - q * r0)
    refined = q + rest / r1
    return max(refined, 0.0) if math.isfinite(refined) else estimate


@inlined_helper
def _normal(table: np.ndarray, ints: np.ndarray, k: int) -> tuple[float, float]:
    """Axis ``k``'s unit normal from the obstacle toward the mover: the obstacle's
    edge's outward normal, or the mover's edge's reversed."""
    nx, ny = _unit_normal(table[k, _QX] - table[k, _PX], table[k, _QY] - table[k, _PY])
    if ints[k, _OWNER] == 0:
        return 0.0 - nx, 0.0 - ny
    return nx, ny


@inlined_helper
def _sweep_pair(
    a: np.ndarray, na: int, b: np.ndarray, nb: int, d: np.ndarray,
    table: np.ndarray, ints: np.ndarray, scratch: np.ndarray, cache: np.ndarray,
) -> tuple[int, float, float, float]:  # fmt: skip
    """One pair: ``(code, fraction, nx, ny)`` (see the module); for a started pair
    the push's length in place of the fraction."""
    h = scratch[4]
    n = _axes(a, na, b, nb, d, table, ints, h)
    if n < 0:
        return NONE, 0.0, 0.0, 0.0
    started = True
    for k in range(n):
        if _apart_at(k, 0.0, a, na, b, nb, d, table, ints, cache, False):
            started = False
            if ints[k, _SIGN] <= 0:
                return NONE, 0.0, 0.0, 0.0
    if started:
        best, depth = _shortest_push(n, a, na, b, nb, d, table, ints, scratch)
        if best < 0:
            return UNSURE, 0.0, 0.0, 0.0
        return STARTED, depth, *_normal(table, ints, best)
    if _any_apart(1.0, n, a, na, b, nb, d, table, ints, cache, False):
        return NONE, 0.0, 0.0, 0.0
    f = min(_estimate(n, a, na, b, nb, d, table, ints, cache), _BEFORE_ONE) + 0.0
    if 0.0 < f < _LOWEST_TIME:
        return UNSURE, 0.0, 0.0, 0.0
    steps = 0
    if _any_apart(f, n, a, na, b, nb, d, table, ints, cache, False):
        while True:  # the last float at which an approaching axis separates
            if f == 0.0 and not _any_apart(0.0, n, a, na, b, nb, d, table, ints, cache, True):
                break  # lo == 0: no approaching axis strictly apart at the start
            g = np.nextafter(f, np.inf)
            if g < _LOWEST_TIME:
                return UNSURE, 0.0, 0.0, 0.0
            if g >= 1.0 or not _any_apart(g, n, a, na, b, nb, d, table, ints, cache, False):
                break
            f = g
            steps += 1
            if steps > _STEPS:
                return UNSURE, 0.0, 0.0, 0.0
    else:
        while True:
            f = np.nextafter(f, -np.inf)
            steps += 1
            if steps > _STEPS or 0.0 < f < _LOWEST_TIME:
                return UNSURE, 0.0, 0.0, 0.0
            if _any_apart(f, n, a, na, b, nb, d, table, ints, cache, False):
                break
    g = np.nextafter(f, np.inf)
    # the axis of the first contact: the latest time among those at or after f
    best = -1
    ties = 0
    for k in range(n):
        if ints[k, _SIGN] > 0 and _apart_at(k, f, a, na, b, nb, d, table, ints, cache, False):
            if best < 0:
                best = k
                ties = 1
                continue
            later = _later(k, best, a, na, b, nb, d, table, ints, scratch)
            if later > 0:
                best = k
                ties = 1
            elif later == 0:
                ties += 1
    if ties > 1:  # several axes give the same time: the obstacle's edge, if one alone
        owners = 0
        for k in range(n):
            if (
                ints[k, _SIGN] > 0
                and ints[k, _OWNER] == 1
                and (k == best or _later(k, best, a, na, b, nb, d, table, ints, scratch) == 0)
            ):
                owners += 1
                chosen = k
        if owners != 1:  # two edges of one shape at once: the Python route decides
            return UNSURE, 0.0, 0.0, 0.0
        best = chosen
    # real contact: they overlap at g, or every leaving axis parts after lo
    # (at f = 0 every leaving axis parts after 0: checked at the start)
    for k in range(n if f > 0.0 else 0):
        if (
            ints[k, _SIGN] < 0
            and _apart_at(k, g, a, na, b, nb, d, table, ints, cache, False)
            and _later(best, k, a, na, b, nb, d, table, ints, scratch) <= 0
        ):
            return NONE, 0.0, 0.0, 0.0
    return HIT, f, *_normal(table, ints, best)


@kernel
def sweep_candidates(
    vertices: np.ndarray, counts: np.ndarray, deltas: np.ndarray, tame: np.ndarray,
    pairs: np.ndarray, codes: np.ndarray, fractions: np.ndarray, normals: np.ndarray,
    depths: np.ndarray,
) -> None:  # fmt: skip
    """Sweep each candidate pair ``(i, j)``: ``i`` moving by ``deltas[i]`` against
    ``j`` moving by ``deltas[j]``; write its code (``NONE``, ``HIT``, ``STARTED``,
    ``UNSURE``), and for a hit its fraction and the unit normal from ``j`` toward
    ``i``; for a started pair the direction and length of the shortest push of ``i``
    out of ``j``. Pairs with an untamed row (see the module) are ``UNSURE``."""
    most = 2 * vertices.shape[1]
    table = np.empty((most, 8))
    ints = np.empty((most, 7), dtype=np.intp)
    scratch = np.empty((11, 2048))
    cache = np.empty((3, most, 64))
    d = np.empty(4)
    for m in range(pairs.shape[0]):
        i = pairs[m, 0]
        j = pairs[m, 1]
        if not (tame[i] and tame[j]):
            codes[m] = UNSURE
            continue
        d[0] = deltas[i, 0]
        d[1] = deltas[i, 1]
        d[2] = deltas[j, 0]
        d[3] = deltas[j, 1]
        code, f, nx, ny = _sweep_pair(
            vertices[i], counts[i], vertices[j], counts[j], d, table, ints, scratch, cache
        )
        codes[m] = code
        if code == STARTED:
            fractions[m] = 0.0
            depths[m] = f
        else:
            fractions[m] = f
            depths[m] = 0.0
        normals[m, 0] = nx
        normals[m, 1] = ny
