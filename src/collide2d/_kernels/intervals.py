"""The compiled twins of ``collide2d.continuous._intervals`` and of the slab and
rounded-box sweeps built on it (Ericson, Real-Time Collision Detection, 5.3.2,
5.3.3, 5.5.7), for the kernels that sweep many boxes and discs (the mask trees).

Each does the arithmetic of its Python twin in the same order, so both round the
same way; ``tests/continuous/test_intervals.py`` holds them equal.
"""

from __future__ import annotations

import numpy as np

from collide2d._kernels.jit import helper_kernel, inline_kernel
from collide2d.tolerances import SQUARE_UNDERFLOW, UNDERFLOW_SCALE


@helper_kernel
def axis_interval(lo, hi, d, blo, bhi):
    """Fractions ``t`` when ``(lo + t d, hi + t d)`` overlaps ``(blo, bhi)``: the compiled twin of
    ``collide2d.continuous._intervals.axis_interval``; empty as ``(inf, -inf)``."""
    if d > 0.0:
        return (blo - hi) / d, (bhi - lo) / d
    if d < 0.0:
        return (bhi - lo) / d, (blo - hi) / d
    if lo < bhi and blo < hi:
        return -np.inf, np.inf
    return np.inf, -np.inf


TANGENT = 2.0**-50
"""The rounding of :func:`disc_entry`'s discriminant ``a r^2 - (p x d)^2``, relative
to ``a r^2 + (|px dy| + |py dx|)^2``: at most about ``5 u a r^2 + 6 u S^2`` with
``u = 2**-53`` (each product and sum rounded once; ``|p x d| <= S``), taken as eight
units. From outside the disc or touching it (``c >= 0``), a discriminant at or below
it is no entry: the true one may be 0 (a tangency, no overlap ever) or a graze of a
depth below about ``TANGENT (r + |p|^2 / r)``, rounding."""
STARTED = 0
"""Contact ranks, for breaking ties between contacts at the same fraction: the boxes
already overlap (the pre-collision wins a tie)..."""
FACE = 1
"""...they meet face to face (one axis enters at that moment, the other already overlaps)..."""
CORNER = 2
"""...or corner to corner (both axes enter at that moment: loses a tie to a face, so that
a box sliding over a row of pixels or tiles is not stopped by a seam)."""


@helper_kernel
def box_sweep(ax0, ay0, ax1, ay1, dx, dy, bx0, by0, bx1, by1):
    """The slab sweep of box ``a`` moving by ``(dx, dy)`` against still box ``b`` (the
    arithmetic of ``collide2d.continuous.rect``): ``(enter, leave, axis, rank)`` of the
    open interval of overlap on the whole line, ``axis`` 0 (x) or 1 (y) being the entry
    axis (x on ties) and ``rank`` one of ``STARTED``, ``FACE``, ``CORNER``. Empty:
    ``enter >= leave``."""
    ex, xx = axis_interval(ax0, ax1, dx, bx0, bx1)
    ey, xy = axis_interval(ay0, ay1, dy, by0, by1)
    if ex >= ey:
        enter, axis = ex, 0
    else:
        enter, axis = ey, 1
    if enter < 0.0:
        rank = STARTED
    elif ex == ey:
        rank = CORNER
    else:
        rank = FACE
    return enter, min(xx, xy), axis, rank


@helper_kernel
def first_fraction(enter, leave):
    """The first moment in ``[0, 1)`` of the open interval, or ``inf``."""
    if enter < leave and enter < 1.0 and leave > 0.0:
        return max(enter, 0.0)
    return np.inf


@helper_kernel
def disc_entry(px, py, dx, dy, r):
    """First time in ``[0, 1)`` that ``p + t d`` is inside the open disc of radius ``r``
    about the origin (``collide2d.continuous._intervals.disc_interval`` in floats only,
    without its exact fallback: the trees use it only to order and prune nodes)."""
    return disc_entry_inline(px, py, dx, dy, r)


@inline_kernel
def disc_entry_inline(px, py, dx, dy, r):
    """:func:`disc_entry` inlined into its caller: ``World.step``'s prediction of two
    circles, made for every pair a gas's events bring near (inlined with the overlap
    test there, the gas ran 1 to 3 % faster, within this machine's noise)."""
    if r <= 0.0:
        return np.inf
    a = dx * dx + dy * dy
    c = px * px + py * py - r * r
    if a == 0.0:
        return 0.0 if c < 0.0 else np.inf
    b = px * dx + py * dy
    if b >= 0.0 and c > 0.0:  # outside and not approaching: both roots below 0,
        return np.inf  # what the lines below return, without the square root
    cross = px * dy - py * dx
    ar = a * r * r
    disc = ar - cross * cross
    if disc <= 0.0:
        return np.inf
    # Within its terms' rounding the discriminant cannot tell a graze from a miss: an
    # exact tangency (the path passing at exactly ``r``) comes out a few ulps above 0
    # as often as below, and its root is then off by the square root of an ulp. From
    # outside or touching, no entry there, as exact arithmetic says of a tangency; a
    # graze that shallow overlaps by rounding only (``TANGENT``).
    if c >= 0.0:
        span = abs(px * dy) + abs(py * dx)
        band = TANGENT * (ar + span * span)
        if disc <= band and band < np.inf:
            return np.inf
    q = -(b + np.copysign(np.sqrt(disc), b))
    t1 = q / a
    t2 = c / q
    enter = min(t1, t2)
    leave = max(t1, t2)
    return first_fraction(enter, leave)


@helper_kernel
def disc_overlaps_box(cx, cy, r, x0, y0, x1, y1):
    """Whether the open disc overlaps the open box (a point: strictly inside it)."""
    if r <= 0.0:
        return x0 < cx < x1 and y0 < cy < y1
    dx = cx - min(max(cx, x0), x1)
    dy = cy - min(max(cy, y0), y1)
    if r < SQUARE_UNDERFLOW:  # exact scaling, as in collide2d.geometry.overlap
        dx, dy, r = dx * UNDERFLOW_SCALE, dy * UNDERFLOW_SCALE, r * UNDERFLOW_SCALE
    return dx * dx + dy * dy < r * r


@helper_kernel
def circle_box_fraction(cx, cy, r, dx, dy, x0, y0, x1, y1):
    """First time in ``[0, 1)`` the moving circle overlaps the box: the earliest entry
    into the rounded box written as two widened boxes and four corner discs, as in
    ``collide2d.continuous.circle``; ``inf`` if never."""
    e1, l1, _, _ = box_sweep(cx, cy, cx, cy, dx, dy, x0 - r, y0, x1 + r, y1)
    best = first_fraction(e1, l1)
    e2, l2, _, _ = box_sweep(cx, cy, cx, cy, dx, dy, x0, y0 - r, x1, y1 + r)
    best = min(best, first_fraction(e2, l2))
    if r > 0.0:
        best = min(best, disc_entry(cx - x0, cy - y0, dx, dy, r))
        best = min(best, disc_entry(cx - x1, cy - y0, dx, dy, r))
        best = min(best, disc_entry(cx - x0, cy - y1, dx, dy, r))
        best = min(best, disc_entry(cx - x1, cy - y1, dx, dy, r))
    return best
