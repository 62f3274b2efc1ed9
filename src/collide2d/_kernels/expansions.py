"""Exact arithmetic on floats: error-free sums and products and floating-point
expansions (sums of floats held exactly), for the exact polygon predicates.

Knuth's two-sum, Dekker's two-product (Veltkamp's split), and Shewchuk's
expansions ("Adaptive precision floating-point arithmetic and fast robust geometric
predicates", 1997): grow-expansion with zero elimination, compress. An expansion
``h[:n]`` holds nonoverlapping floats in increasing magnitude whose exact sum is its
value; its sign is the sign of its last float. Every operation is exact while no
product overflows and every value is a multiple of ``2**-1074`` (see the callers'
ranges in ``collide2d.tolerances``).
"""

from __future__ import annotations

import numpy as np

from collide2d._kernels.jit import helper_kernel, inlined_helper

EPS = 2.0**-53
CCW_BOUND = (3.0 + 16.0 * EPS) * EPS
"""Shewchuk's ``ccwerrboundA``: the float orientation ``(a - b)(c - d) - (e - f)(g - h)``
is within ``CCW_BOUND * (|left| + |right|)`` of the exact value."""
SPLITTER = 134217729.0  # 2**27 + 1
STEPS = 64
"""Float steps from an estimate to the float wanted, at most (it is a few off)."""


@helper_kernel
def two_sum(a: float, b: float) -> tuple[float, float]:
    """``a + b`` as a float and its exact rounding error (Knuth)."""
    s = a + b
    bb = s - a
    return s, (a - (s - bb)) + (b - bb)


@helper_kernel
def two_product(a: float, b: float) -> tuple[float, float]:
    """``a * b`` as a float and its exact rounding error (Dekker, Veltkamp's split)."""
    p = a * b
    c = SPLITTER * a
    ah = c - (c - a)
    al = a - ah
    c = SPLITTER * b
    bh = c - (c - b)
    bl = b - bh
    return p, al * bl - (((p - ah * bh) - al * bh) - ah * bl)


@helper_kernel
def grow(h: np.ndarray, length: int, x: float) -> int:
    """Add ``x`` to the nonoverlapping expansion ``h[:length]`` (increasing
    magnitude), dropping zeros; return the new length (Shewchuk's
    GROW-EXPANSION-ZEROELIM)."""
    q = x
    count = 0
    for i in range(length):
        q, err = two_sum(q, h[i])
        if err != 0.0:
            h[count] = err
            count += 1
    if q != 0.0:
        h[count] = q
        count += 1
    return count


@inlined_helper
def grow_scaled(h: np.ndarray, length: int, x: float, factor: float) -> int:
    """Add ``factor * x`` to the expansion ``h[:length]`` exactly."""
    if x == 0.0:  # (differences of nearby coordinates are exact: their errors are zero)
        return length
    if factor == 1.0:
        return grow(h, length, x)
    if factor == -1.0:
        return grow(h, length, -x)
    hi, lo = two_product(factor, x)
    length = grow(h, length, lo)
    return grow(h, length, hi)


@inlined_helper
def grow_cross(
    h: np.ndarray, length: int, ux1: float, ux0: float, uy1: float, uy0: float,
    vx1: float, vx0: float, vy1: float, vy0: float, factor: float,
) -> int:  # fmt: skip
    """Add ``factor * (u x v)`` exactly, ``u = u1 - u0`` and ``v = v1 - v0``."""
    a1, a0 = two_sum(ux1, -ux0)
    b1, b0 = two_sum(vy1, -vy0)
    c1, c0 = two_sum(uy1, -uy0)
    d1, d0 = two_sum(vx1, -vx0)
    for u, v, sign in (
        (a1, b1, 1.0), (a1, b0, 1.0), (a0, b1, 1.0), (a0, b0, 1.0),
        (c1, d1, -1.0), (c1, d0, -1.0), (c0, d1, -1.0), (c0, d0, -1.0),
    ):  # fmt: skip
        if u != 0.0 and v != 0.0:
            p, e = two_product(u, v)
            length = grow_scaled(h, length, sign * e, factor)
            length = grow_scaled(h, length, sign * p, factor)
    return length


@inlined_helper
def sign_of(h: np.ndarray, length: int) -> int:
    if length == 0:
        return 0
    return 1 if h[length - 1] > 0.0 else -1


@inlined_helper
def times(
    x: np.ndarray, nx: int, y: np.ndarray, ny: int, sign: float, h: np.ndarray, length: int
) -> int:
    """Add ``sign * x * y`` (two expansions) to ``h[:length]`` exactly."""
    for i in range(nx):
        for j in range(ny):
            p, e = two_product(x[i], y[j])
            if e != 0.0:
                length = grow(h, length, sign * e)
            length = grow(h, length, sign * p)
    return length


@inlined_helper
def compress(e: np.ndarray, n: int, h: np.ndarray) -> int:
    """The expansion ``e[:n]`` in fewer terms into ``h`` (Shewchuk's COMPRESS, with
    Knuth's two-sum); return the new length."""
    if n == 0:
        return 0
    bottom = n - 1
    q = e[bottom]
    for i in range(n - 2, -1, -1):
        s, err = two_sum(q, e[i])
        if err != 0.0:
            h[bottom] = s
            bottom -= 1
            q = err
        else:
            q = s
    top = 0
    for i in range(bottom + 1, n):
        s, err = two_sum(h[i], q)
        if err != 0.0:
            h[top] = err
            top += 1
        q = s
    h[top] = q
    return top + 1


@inlined_helper
def minus(e: np.ndarray, n: int, x: float, h: np.ndarray) -> int:
    """The exact sign of ``e[:n] - x``."""
    for i in range(n):
        h[i] = e[i]
    return sign_of(h, grow(h, n, -x))


@inlined_helper
def floor_value(e: np.ndarray, n: int, h: np.ndarray) -> float:
    """The largest float not above the expansion ``e[:n]`` (NaN if not found)."""
    if n <= 1:  # zero, or one float
        return e[0] + 0.0 if n == 1 else 0.0
    x = 0.0
    for i in range(n):
        x += e[i]
    for _ in range(STEPS):
        if minus(e, n, x, h) < 0:
            x = np.nextafter(x, -np.inf)
            continue
        up = np.nextafter(x, np.inf)
        if minus(e, n, up, h) >= 0:
            x = up
            continue
        return x + 0.0
    return np.nan
