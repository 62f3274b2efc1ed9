"""The shapes of ``World.step``'s compiled core: bodies as rows, their positions at a
moment, the pair overlap test, the pair prediction (the first moment two moving
bodies meet), and a contact's normal and point.

A body is a row of the float table ``fb`` (columns below) and of the integer table
``ib``. A rectangle is ``x, y, w, h``; a circle is its centre ``x, y`` and radius
``w`` (``h == w``). A body moves along ``mvx, mvy`` from where it was at its own
time ``tref`` (its *local time*): its position at ``t`` is ``x + mvx * (t - tref)``,
so an event only brings up to date the bodies it changes.

The overlap test is :func:`collide2d.geometry.overlap.overlaps`'s arithmetic
(strict, shapes open); the predictions are the slab and rounded-box sweeps of
``_kernels.intervals`` over the rest of the step.
"""

from __future__ import annotations

import numpy as np

from collide2d._kernels.codes import CIRCLE, POLYGON, RECT
from collide2d._kernels.intervals import (
    CORNER,
    FACE,
    STARTED,
    box_sweep,
    circle_box_fraction,
    disc_entry_inline,
    first_fraction,
)
from collide2d._kernels.jit import borrowing_kernel, inlined_helper, kernel
from collide2d._kernels.pairs.polygon_sweeps import HIT
from collide2d._kernels.step import step_columns as columns
from collide2d._kernels.step import step_polygons as polygons
from collide2d.tolerances import SQUARE_OVERFLOW, SQUARE_UNDERFLOW, UNDERFLOW_SCALE

# the rows' columns (``step_columns``), named here too: the step's modules import them
# from this one
X, Y, W, H, VX, VY, MVX, MVY, TREF, INV, FLOATS = (
    columns.X,
    columns.Y,
    columns.W,
    columns.H,
    columns.VX,
    columns.VY,
    columns.MVX,
    columns.MVY,
    columns.TREF,
    columns.INV,
    columns.FLOATS,
)
PX0, PY0, PX1, PY1, PN, PV = (
    columns.PX0,
    columns.PY0,
    columns.PX1,
    columns.PY1,
    columns.PN,
    columns.PV,
)
KIND, GROUP, OWNER, FIXED, FROZEN, COUNTER, NEVENTS, CX0, CX1, CY0, CY1, OUTLINE, INTS = (
    columns.KIND,
    columns.GROUP,
    columns.OWNER,
    columns.FIXED,
    columns.FROZEN,
    columns.COUNTER,
    columns.NEVENTS,
    columns.CX0,
    columns.CX1,
    columns.CY0,
    columns.CY1,
    columns.OUTLINE,
    columns.INTS,
)
outline_rows = columns.outline_rows

CROSSING = 0
"""Queue order of a cell crossing: before any contact at the same moment, so that
every contact of that moment is known before the first of them is resolved."""
ORDER_STARTED = 1 + STARTED
ORDER_FACE = 1 + FACE
ORDER_CORNER = 1 + CORNER
"""Queue orders of contacts: an overlap, then face to face, then corner to corner."""


@inlined_helper
def position(fb, i, t):
    """Body ``i``'s ``x, y`` at time ``t``."""
    dt = t - fb[i, TREF]
    return fb[i, X] + fb[i, MVX] * dt, fb[i, Y] + fb[i, MVY] * dt


@inlined_helper
def advance(fb, i, t):
    """Bring body ``i``'s row to time ``t`` (its position there, ``tref = t``)."""
    x, y = position(fb, i, t)
    fb[i, X] = x
    fb[i, Y] = y
    fb[i, TREF] = t


@inlined_helper
def bounds_at(fb, ib, i, x, y):
    """Body ``i``'s bounds ``x0, y0, x1, y1`` with its position at ``x, y``."""
    kind = ib[i, KIND]
    if kind == RECT:
        return x, y, x + fb[i, W], y + fb[i, H]
    if kind == POLYGON:  # (rounding keeps the order: the outline's own bounds)
        c = ib[i, OUTLINE]
        return x + fb[c, PX0], y + fb[c, PY0], x + fb[c, PX1], y + fb[c, PY1]
    r = fb[i, W]
    return x - r, y - r, x + r, y + r


@inlined_helper
def swept(fb, ib, i, now, end):
    """Body ``i``'s bounds swept over ``[now, end]``, padded outward by a billionth
    of their magnitude (far more than the rounding of any position computed in a
    prediction)."""
    x, y = position(fb, i, now)
    x0, y0, x1, y1 = bounds_at(fb, ib, i, x, y)
    dx = fb[i, MVX] * (end - now)
    dy = fb[i, MVY] * (end - now)
    if dx < 0.0:
        x0 += dx
    else:
        x1 += dx
    if dy < 0.0:
        y0 += dy
    else:
        y1 += dy
    px = 1e-9 * (abs(x0) + abs(x1)) + 1e-300
    py = 1e-9 * (abs(y0) + abs(y1)) + 1e-300
    return x0 - px, y0 - py, x1 + px, y1 + py


@inlined_helper
def meets_swept(fb, ib, j, now, end, ax0, ay0, ax1, ay1):
    """False when body ``j`` and a body ``i`` whose ``swept(fb, ib, i, now, end)`` is
    ``ax0, ay0, ax1, ay1`` cannot meet in ``[now, end)``: their swept bounds are
    apart. A few comparisons that spare most neighbours the full prediction (in the
    swarm, four out of five). ``i``'s bounds are computed once for the many
    neighbours it is tested against (numba recomputed them for each, not knowing
    that nothing in the loop writes its row)."""
    bx0, by0, bx1, by1 = swept(fb, ib, j, now, end)
    return ax0 <= bx1 and bx0 <= ax1 and ay0 <= by1 and by0 <= ay1


@inlined_helper
def swept_selecting(fb, ib, j, now, end):
    """:func:`swept`, the same numbers, computed with selects instead of branches
    (for :func:`keep_meeting`)."""
    x, y = position(fb, j, now)
    x0, y0, x1, y1 = bounds_at(fb, ib, j, x, y)
    dx = fb[j, MVX] * (end - now)
    dy = fb[j, MVY] * (end - now)
    x0 += min(dx, 0.0)
    x1 += max(dx, 0.0)
    y0 += min(dy, 0.0)
    y1 += max(dy, 0.0)
    px = 1e-9 * (abs(x0) + abs(x1)) + 1e-300
    py = 1e-9 * (abs(y0) + abs(y1)) + 1e-300
    return x0 - px, y0 - py, x1 + px, y1 + py


@inlined_helper
def keep_meeting(fb, ib, cand, count, now, end, ax0, ay0, ax1, ay1):
    """Keep in ``cand[:count]``, in order, the bodies that may meet a body whose
    ``swept(fb, ib, i, now, end)`` is ``ax0, ay0, ax1, ay1`` (those
    :func:`meets_swept` keeps); return how many.

    Without a branch: about half of a disc's neighbours are kept, which the
    processor cannot guess; the test in the prediction loop, mispredicted half the
    time, cost more than this pass (the gas, ``ab_step.py``: 0.76-0.87 to 0.83-0.96
    M events a second). Only the event loop's predictions and the first ones use
    it: :func:`swept` and :func:`meets_swept` themselves keep their branches (made
    branch-free, the bullets' touches at time 0, ``step_start``, ran 0.3 to 1.5 ms
    a frame slower, by the process: code they inline was laid out differently)."""
    m = 0
    for k in range(count):
        j = cand[k]
        cand[m] = j
        bx0, by0, bx1, by1 = swept_selecting(fb, ib, j, now, end)
        m += (ax0 <= bx1) & (bx0 <= ax1) & (ay0 <= by1) & (by0 <= ay1)
    return m


@inlined_helper
def overlap_at_end(fb, ib, i, j, end):
    """Whether bodies ``i`` and ``j``, moving as they move now, overlap at ``end`` (where
    the step's end will put them, bit for bit, unless one of them changes first)."""
    xi, yi = position(fb, i, end)
    xj, yj = position(fb, j, end)
    return overlap_at(fb, ib, i, xi, yi, j, xj, yj)


@inlined_helper
def circles_overlap(ax, ay, ar, bx, by, br):
    """``overlaps_circle_circle`` (inlined: a gas's every prediction asks it)."""
    dx = ax - bx
    dy = ay - by
    reach = ar + br
    if reach < SQUARE_UNDERFLOW:
        dx, dy, reach = dx * UNDERFLOW_SCALE, dy * UNDERFLOW_SCALE, reach * UNDERFLOW_SCALE
    return dx * dx + dy * dy < reach * reach


@kernel
def circle_rect_overlap(cx, cy, r, left, top, w, h):
    """``overlaps_circle_rect``."""
    right = left + w
    bottom = top + h
    if r == 0.0:
        return left < cx < right and top < cy < bottom
    dx = left - cx if cx < left else (cx - right if cx > right else 0.0)
    dy = top - cy if cy < top else (cy - bottom if cy > bottom else 0.0)
    if r < SQUARE_UNDERFLOW:
        dx, dy, r = dx * UNDERFLOW_SCALE, dy * UNDERFLOW_SCALE, r * UNDERFLOW_SCALE
    return dx * dx + dy * dy < r * r


@inlined_helper
def overlap_at(fb, ib, i, xi, yi, j, xj, yj):
    """Whether bodies ``i`` and ``j`` at these positions overlap (the public test)."""
    ki = ib[i, KIND]
    kj = ib[j, KIND]
    if ki == RECT and kj == RECT:
        return (
            xi < xj + fb[j, W] and xj < xi + fb[i, W] and yi < yj + fb[j, H] and yj < yi + fb[i, H]
        )
    if ki == CIRCLE and kj == CIRCLE:
        return circles_overlap(xi, yi, fb[i, W], xj, yj, fb[j, W])
    if ki == POLYGON or kj == POLYGON:
        ax0, ay0, ax1, ay1 = bounds_at(fb, ib, i, xi, yi)
        bx0, by0, bx1, by1 = bounds_at(fb, ib, j, xj, yj)
        if ki == CIRCLE or kj == CIRCLE:  # (a circle's x + r is rounded: padded)
            ax0, ay0, ax1, ay1 = _padded(ax0, ay0, ax1, ay1)
        if not (ax0 < bx1 and bx0 < ax1 and ay0 < by1 and by0 < ay1):
            return False  # (their bounds apart: the outlines too)
        return polygons.overlap(fb, ib, i, xi, yi, j, xj, yj)
    if ki == CIRCLE:
        return circle_rect_overlap(xi, yi, fb[i, W], xj, yj, fb[j, W], fb[j, H])
    return circle_rect_overlap(xj, yj, fb[j, W], xi, yi, fb[i, W], fb[i, H])


@kernel
def _box_fraction(ax0, ay0, ax1, ay1, dx, dy, bx0, by0, bx1, by1):
    """``box_sweep``'s first fraction and whether it is corner to corner (compiled
    once here: the interval helpers are inlined wherever they are called)."""
    enter, leave, axis, rank = box_sweep(ax0, ay0, ax1, ay1, dx, dy, bx0, by0, bx1, by1)
    return first_fraction(enter, leave), axis, rank == CORNER


@kernel
def _circle_box(cx, cy, r, dx, dy, x0, y0, x1, y1):
    return circle_box_fraction(cx, cy, r, dx, dy, x0, y0, x1, y1)


@inlined_helper
def predict(fb, ib, i, j, now, end):
    """The first moment in ``[now, end)`` at which bodies ``i`` and ``j`` overlap,
    moving as they move: ``(time, order, axis)``, ``time`` inf if never. Order is
    ``ORDER_STARTED`` when they overlap at ``now`` (by the public test), else
    ``ORDER_FACE`` or ``ORDER_CORNER``; ``axis`` is a rectangle pair's entry axis."""
    xi, yi = position(fb, i, now)
    xj, yj = position(fb, j, now)
    if overlap_at(fb, ib, i, xi, yi, j, xj, yj):
        return now, ORDER_STARTED, 0
    # Sweep from the last moment either body's motion was set (no later than now):
    # a pair that becomes near at a cell crossing is then predicted from the same
    # positions as if it had been near all along, not from positions rounded at the
    # crossing (an arrival exactly at the end came out an ulp early that way). A body
    # standing still is where it is whenever its row was last written (a wall a touch
    # brought to its moment): only a moving body's moment counts.
    base = max(_moment_set(fb, i), _moment_set(fb, j))
    if -np.inf < base < now:
        t, order, axis = _sweep_pair(fb, ib, i, j, base, end)
        if t >= now:
            return t, order, axis
    return _sweep_pair(fb, ib, i, j, now, end)


@inlined_helper
def _padded(x0, y0, x1, y1):
    """A box grown by a billionth of its coordinates' magnitude on every side."""
    px = 1e-9 * (abs(x0) + abs(x1)) + 1e-300
    py = 1e-9 * (abs(y0) + abs(y1)) + 1e-300
    return x0 - px, y0 - py, x1 + px, y1 + py


@inlined_helper
def _moment_set(fb, i):
    """The moment body ``i``'s motion was last set, or -inf if it stands still."""
    if fb[i, MVX] == 0.0 and fb[i, MVY] == 0.0:
        return -np.inf
    return fb[i, TREF]


@inlined_helper
def _sweep_pair(fb, ib, i, j, now, end):
    """The first moment in ``[now, end)`` at which ``i`` and ``j``, swept from their
    positions at ``now``, overlap: ``(time, order, axis)`` (see :func:`predict`)."""
    xi, yi = position(fb, i, now)
    xj, yj = position(fb, j, now)
    horizon = end - now
    dx = (fb[i, MVX] - fb[j, MVX]) * horizon
    dy = (fb[i, MVY] - fb[j, MVY]) * horizon
    if dx == 0.0 and dy == 0.0:
        return np.inf, 0, 0
    ki = ib[i, KIND]
    kj = ib[j, KIND]
    axis = 0
    order = ORDER_FACE
    if ki == RECT and kj == RECT:
        fraction, axis, corner = _box_fraction(
            xi, yi, xi + fb[i, W], yi + fb[i, H], dx, dy, xj, yj, xj + fb[j, W], yj + fb[j, H]
        )
        if corner:
            order = ORDER_CORNER
    elif ki == CIRCLE and kj == CIRCLE:
        fraction = disc_entry_inline(xi - xj, yi - yj, dx, dy, fb[i, W] + fb[j, W])
    elif ki == POLYGON or kj == POLYGON:
        # their bounds first, padded by a billionth (the outlines meet no sooner, and
        # the pad outgrows the sweep's rounding): most neighbours never meet, and
        # the exact sweep costs a microsecond
        ax0, ay0, ax1, ay1 = _padded(*bounds_at(fb, ib, i, xi, yi))
        bx0, by0, bx1, by1 = _padded(*bounds_at(fb, ib, j, xj, yj))
        fraction, _, _ = _box_fraction(ax0, ay0, ax1, ay1, dx, dy, bx0, by0, bx1, by1)
        if fraction == np.inf:
            return np.inf, 0, 0
        code, fraction, _, _, corner = polygons.sweep(
            fb, ib, i, xi, yi, fb[i, MVX] * horizon, fb[i, MVY] * horizon,
            j, xj, yj, fb[j, MVX] * horizon, fb[j, MVY] * horizon,
        )  # fmt: skip
        if code != HIT:  # (an overlap at now is found before this)
            return np.inf, 0, 0
        if corner:
            order = ORDER_CORNER
    elif ki == CIRCLE:
        fraction = _circle_box(xi, yi, fb[i, W], dx, dy, xj, yj, xj + fb[j, W], yj + fb[j, H])
    else:
        fraction = _circle_box(xj, yj, fb[j, W], -dx, -dy, xi, yi, xi + fb[i, W], yi + fb[i, H])
    if fraction == np.inf:
        return np.inf, 0, 0
    t = now + fraction * horizon
    if t >= end:  # an arrival at the end of the step is not a contact
        return np.inf, 0, 0
    return t, order, axis


@kernel
def _unit(x, y):
    """``(x, y)`` over its length: ``sqrt(x * x + y * y)`` where the squares can
    neither overflow nor lose bits to underflow (a gas's every contact, twice: its
    normal and its point), else ``hypot`` (a call into the C library, 3 % of the
    gas's core in a profile)."""
    square = x * x + y * y
    length = np.sqrt(square) if SQUARE_UNDERFLOW < square < SQUARE_OVERFLOW else np.hypot(x, y)
    if length == 0.0:
        return 0.0, -1.0  # coincident centres: push up
    return x / length, y / length


@kernel
def rect_push(ax0, ay0, ax1, ay1, bx0, by0, bx1, by1):
    """Least penetration of box ``a`` out of box ``b``: ``(nx, ny, depth)``, the
    normal pointing from ``b`` to ``a`` (``continuous.rect.least_penetration``'s
    rule: ties prefer x, then left, then up)."""
    to_left = ax1 - bx0
    to_right = bx1 - ax0
    to_top = ay1 - by0
    to_bottom = by1 - ay0
    depth_x = to_left if to_left <= to_right else to_right
    depth_y = to_top if to_top <= to_bottom else to_bottom
    if depth_x <= depth_y:
        if to_left <= to_right:
            return -1.0, 0.0, to_left
        return 1.0, 0.0, to_right
    if to_top <= to_bottom:
        return 0.0, -1.0, to_top
    return 0.0, 1.0, to_bottom


@kernel
def circle_rect_push(cx, cy, r, left, top, right, bottom):
    """Least penetration of a circle out of a box: ``(nx, ny, depth)`` from the box
    toward the circle. Centre outside the box: along the line from its nearest
    point; inside: out through the nearest face (``rect_push``'s ties)."""
    qx = min(max(cx, left), right)
    qy = min(max(cy, top), bottom)
    if qx != cx or qy != cy:
        nx, ny = _unit(cx - qx, cy - qy)
        return nx, ny, r - np.hypot(cx - qx, cy - qy)
    nx, ny, depth = rect_push(cx, cy, cx, cy, left, top, right, bottom)
    return nx, ny, depth + r


@borrowing_kernel
def separation(fb, ib, i, xi, yi, j, xj, yj):
    """How ``i`` leaves an overlap with ``j`` soonest: ``(nx, ny, depth)``, the
    normal from ``j`` to ``i``."""
    ki = ib[i, KIND]
    kj = ib[j, KIND]
    if ki == CIRCLE and kj == CIRCLE:
        nx, ny = _unit(xi - xj, yi - yj)
        return nx, ny, fb[i, W] + fb[j, W] - np.hypot(xi - xj, yi - yj)
    if ki == POLYGON or kj == POLYGON:
        return polygons.push(fb, ib, i, xi, yi, j, xj, yj)
    if ki == CIRCLE:
        return circle_rect_push(xi, yi, fb[i, W], xj, yj, xj + fb[j, W], yj + fb[j, H])
    if kj == CIRCLE:
        nx, ny, depth = circle_rect_push(xj, yj, fb[j, W], xi, yi, xi + fb[i, W], yi + fb[i, H])
        return -nx, -ny, depth
    return rect_push(xi, yi, xi + fb[i, W], yi + fb[i, H], xj, yj, xj + fb[j, W], yj + fb[j, H])


@inlined_helper
def contact_normal(fb, ib, i, xi, yi, j, xj, yj, axis):
    """The normal (from ``j`` to ``i``) of bodies meeting at these positions: a
    rectangle pair's entry axis, against the relative motion; the line of centres of
    two circles; from a rectangle's nearest point to a circle's centre."""
    ki = ib[i, KIND]
    kj = ib[j, KIND]
    if ki == RECT and kj == RECT:
        if axis == 0:
            return (-1.0 if fb[i, MVX] - fb[j, MVX] > 0.0 else 1.0), 0.0
        return 0.0, (-1.0 if fb[i, MVY] - fb[j, MVY] > 0.0 else 1.0)
    if ki == CIRCLE and kj == CIRCLE:
        return _unit(xi - xj, yi - yj)
    if ki == POLYGON or kj == POLYGON:
        return polygons.normal(fb, ib, i, xi, yi, fb[i, MVX], fb[i, MVY],
                               j, xj, yj, fb[j, MVX], fb[j, MVY])  # fmt: skip
    if ki == CIRCLE:
        nx, ny, _ = circle_rect_push(xi, yi, fb[i, W], xj, yj, xj + fb[j, W], yj + fb[j, H])
        return nx, ny
    nx, ny, _ = circle_rect_push(xj, yj, fb[j, W], xi, yi, xi + fb[i, W], yi + fb[i, H])
    return -nx, -ny


@inlined_helper
def contact_point(fb, ib, i, xi, yi, j, xj, yj, nx, ny):
    """Where bodies ``i`` and ``j`` touch (or overlap) at these positions, their
    normal ``(nx, ny)``: a circle's surface point toward the other body, the middle
    of the two boxes' shared extent, or of the stretch a polygon shares with the
    other body across the normal (``step_polygons.point``)."""
    ki = ib[i, KIND]
    kj = ib[j, KIND]
    if ki == POLYGON or kj == POLYGON:
        return polygons.point(fb, ib, i, xi, yi, j, xj, yj, nx, ny)
    if ki == CIRCLE and kj == CIRCLE:
        nx, ny = _unit(xi - xj, yi - yj)
        return xj + nx * fb[j, W], yj + ny * fb[j, W]
    if ki == CIRCLE:
        return min(max(xi, xj), xj + fb[j, W]), min(max(yi, yj), yj + fb[j, H])
    if kj == CIRCLE:
        return min(max(xj, xi), xi + fb[i, W]), min(max(yj, yi), yi + fb[i, H])
    x = (max(xi, xj) + min(xi + fb[i, W], xj + fb[j, W])) * 0.5
    y = (max(yi, yj) + min(yi + fb[i, H], yj + fb[j, H])) * 0.5
    return x, y
