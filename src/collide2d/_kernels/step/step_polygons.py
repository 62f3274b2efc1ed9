"""Polygons among ``World.step``'s bodies: a pair of which one or both are polygons
(the other a rectangle, a polygon or a circle), as ``step_shapes`` asks for it.

A polygon's row holds its anchor at ``X, Y`` (the position the World reports), and
rows of its own its vertices about the anchor (``step_columns.OUTLINE``); its outline
at a moment is each vertex plus the anchor there, rounded once, as
``PlacedPolygon.outline`` makes it. A
rectangle is its four corners in the stored order of its outline. Every answer is
the batch polygons' exact one on those outlines:

- the overlap test is the exact separating-axis test (``pairs.polygons``), strict;
- the first contact is the exact swept separating-axis test
  (``pairs.polygon_sweeps._sweep_pair``): the first moment they overlap, rounded
  down to a float; its normal the edge that gives it (the obstacle's outward normal,
  or the mover's reversed). Where two edges give it at once (a vertex meets a
  vertex) the face of least penetration an instant later is taken (the edge the
  motion meets least squarely, then the obstacle's, then the first in order), and
  the contact is ordered as a corner; where the exact stages cannot decide (coordinates beyond
  their range), the plain float sweep on the same axes answers;
- a start overlapped is pushed out along the shortest push of the exact test;
- a contact's point is the middle of the stretch the two outlines share along it.

A circle and a polygon go to :mod:`.step_circle_polygon`, with the polygon's outline
made here.

The arrays these work in are made by each call, on the stack for polygons of up to
eight vertices (:data:`_ON_STACK`).
"""

from __future__ import annotations

import math

import numpy as np

from collide2d._kernels.codes import CIRCLE, POLYGON
from collide2d._kernels.jit import (
    allocating_kernel,
    borrowing_kernel,
    by_layout,
    kernel,
    stack_array,
)
from collide2d._kernels.pairs.polygon_axes import COLUMNS
from collide2d._kernels.pairs.polygon_sweeps import HIT, NONE, STARTED, _sweep_pair
from collide2d._kernels.pairs.polygons import _separates, box_corners
from collide2d._kernels.step import step_circle_polygon as discs
from collide2d._kernels.step.step_columns import FLOATS, KIND, OUTLINE, PN, PV, H, W

_SCRATCH = 2048
"""The batch sweep's scratch width (``polygon_sweeps.sweep_candidates``)."""
_ON_STACK = 8
"""Up to this many vertices a side, a call's working arrays are made on the stack
(``jit.stack_array``: seven ``np.empty`` a sweep were a third of its cost); beyond,
on the heap."""
_AXES = 2 * _ON_STACK
"""The axes of two outlines of :data:`_ON_STACK` vertices (the stack tables' rows)."""


@kernel
def _most(fb, ib, i, j):
    """The most vertices of bodies ``i`` and ``j`` (a rectangle's four at least)."""
    most = 4
    for k in (i, j):
        if ib[k, KIND] == POLYGON:
            most = max(most, int(fb[ib[k, OUTLINE], PN]))
    return most


@kernel
def outline(fb, ib, i, x, y, out):
    """Body ``i``'s outline at ``x, y`` into ``out``; returns its number of vertices."""
    if ib[i, KIND] == POLYGON:
        c = ib[i, OUTLINE]
        n = int(fb[c, PN])
        for k in range(n):
            place = PV + 2 * k
            row = c + place // FLOATS
            column = place % FLOATS
            out[k, 0] = fb[row, column] + x
            out[k, 1] = fb[row, column + 1] + y
        return n
    box_corners(out, x, y, x + fb[i, W], y + fb[i, H])
    return 4


@allocating_kernel
def _overlap(fb, ib, i, xi, yi, j, xj, yj):
    """Whether bodies ``i`` and ``j`` at these places overlap (strictly, exactly)."""
    if ib[i, KIND] == CIRCLE:
        return _disc_overlap(fb, ib, i, xi, yi, j, xj, yj)
    if ib[j, KIND] == CIRCLE:
        return _disc_overlap(fb, ib, j, xj, yj, i, xi, yi)
    most = _most(fb, ib, i, j)
    ab = stack_array(np.float64, 2, _ON_STACK, 2) if most <= _ON_STACK else np.empty((2, most, 2))
    a, b = ab[0], ab[1]
    na = outline(fb, ib, i, xi, yi, a)
    nb = outline(fb, ib, j, xj, yj, b)
    return not (_separates(a, na, b, nb) or _separates(b, nb, a, na))


@allocating_kernel
def _sweep(fb, ib, i, xi, yi, dxi, dyi, j, xj, yj, dxj, dyj):
    """Bodies ``i`` at ``xi, yi`` moving by ``dxi, dyi`` and ``j`` at ``xj, yj`` by
    ``dxj, dyj``: ``(code, fraction, nx, ny, corner)``, ``code`` one of ``NONE``,
    ``HIT`` (``fraction`` of the motion to the first overlap, normal from ``j``
    toward ``i``) and ``STARTED`` (the push's length in place of the fraction)."""
    if ib[i, KIND] == CIRCLE:
        return _disc_sweep(fb, ib, i, xi, yi, dxi - dxj, dyi - dyj, j, xj, yj)
    if ib[j, KIND] == CIRCLE:
        code, f, nx, ny, corner = _disc_sweep(fb, ib, j, xj, yj, dxj - dxi, dyj - dyi, i, xi, yi)
        return code, f, 0.0 - nx, 0.0 - ny, corner
    most = _most(fb, ib, i, j)
    ab = stack_array(np.float64, 2, _ON_STACK, 2) if most <= _ON_STACK else np.empty((2, most, 2))
    a, b = ab[0], ab[1]
    na = outline(fb, ib, i, xi, yi, a)
    nb = outline(fb, ib, j, xj, yj, b)
    if most <= _ON_STACK:
        d = stack_array(np.float64, 4)
        table = stack_array(np.float64, _AXES, 8)
        ints = stack_array(np.intp, _AXES, COLUMNS)
        scratch = stack_array(np.float64, 11, _SCRATCH)
        cache = stack_array(np.float64, 3, _AXES, 64)
    else:
        d = np.empty(4)
        table = np.empty((2 * most, 8))
        ints = np.empty((2 * most, COLUMNS), dtype=np.intp)
        scratch = np.empty((11, _SCRATCH))
        cache = np.empty((3, 2 * most, 64))
    d[0] = dxi
    d[1] = dyi
    d[2] = dxj
    d[3] = dyj
    code, f, nx, ny, corner = _sweep_pair(a, na, b, nb, d, table, ints, scratch, cache, True)
    if code in (HIT, STARTED, NONE):
        return code, f, nx, ny, corner
    return _float_sweep(a, na, b, nb, d)  # beyond the exact stages' range


@kernel
def _float_sweep(a, na, b, nb, d):
    """The swept separating-axis test in plain floats (for what the exact one leaves
    undecided): the latest entry over the axes, if before the earliest exit."""
    dx = d[0] - d[2]
    dy = d[1] - d[3]
    enter = -np.inf
    leave = np.inf
    bx = 0.0
    by = 0.0
    for owner in range(2):
        own, no, other, nt = (a, na, b, nb) if owner == 0 else (b, nb, a, na)
        way = -1.0 if owner == 0 else 1.0
        for k in range(no):
            k2 = k + 1 if k + 1 < no else 0
            ex = own[k2, 0] - own[k, 0]
            ey = own[k2, 1] - own[k, 1]
            top = -np.inf
            for v in range(nt):
                top = max(top, ex * (other[v, 1] - own[k, 1]) - ey * (other[v, 0] - own[k, 0]))
            rate = way * (ex * dy - ey * dx)
            # the axis separates while top + t * rate <= 0
            if rate > 0.0:
                t = -top / rate
                if t > enter:
                    enter = t
                    length = math.hypot(ex, ey)
                    bx, by = ey / length, -ex / length
                    if owner == 0:
                        bx, by = -bx, -by
            elif rate < 0.0:
                leave = min(leave, -top / rate)
            elif top <= 0.0:
                return NONE, 0.0, 0.0, 0.0, False
    if enter < 0.0 or not (enter < leave) or enter >= 1.0:
        return NONE, 0.0, 0.0, 0.0, False
    return HIT, enter, bx + 0.0, by + 0.0, False


@allocating_kernel
def _push(fb, ib, i, xi, yi, j, xj, yj):
    """How ``i`` leaves an overlap with ``j`` soonest: ``(nx, ny, depth)``, the
    normal from ``j`` toward ``i`` (the shortest push of the exact test; ``(0, -1, 0)``
    if they do not overlap)."""
    code, depth, nx, ny, _ = _sweep(fb, ib, i, xi, yi, 0.0, 0.0, j, xj, yj, 0.0, 0.0)
    if code != STARTED:
        return 0.0, -1.0, 0.0
    return nx, ny, depth


@allocating_kernel
def _normal(fb, ib, i, xi, yi, mvxi, mvyi, j, xj, yj, mvxj, mvyj):
    """The normal (from ``j`` toward ``i``) of bodies meeting at these places, moving
    as they move: the edge their sweep meets first from here, or, if they overlap,
    their shortest push; if they only touch and do not approach, the edge they are
    nearest across (a circle: from the outline's point nearest its centre)."""
    if ib[i, KIND] == CIRCLE:
        _, _, nx, ny = _disc_nearest(fb, ib, i, xi, yi, j, xj, yj)
        return nx, ny
    if ib[j, KIND] == CIRCLE:
        _, _, nx, ny = _disc_nearest(fb, ib, j, xj, yj, i, xi, yi)
        return 0.0 - nx, 0.0 - ny
    code, _, nx, ny, _ = _sweep(fb, ib, i, xi, yi, mvxi, mvyi, j, xj, yj, mvxj, mvyj)
    if code in (HIT, STARTED):
        return nx, ny
    code, _, nx, ny, _ = _sweep(fb, ib, i, xi, yi, 0.0, 0.0, j, xj, yj, 0.0, 0.0)
    if code == STARTED:
        return nx, ny
    most = _most(fb, ib, i, j)
    ab = stack_array(np.float64, 2, _ON_STACK, 2) if most <= _ON_STACK else np.empty((2, most, 2))
    a, b = ab[0], ab[1]
    na = outline(fb, ib, i, xi, yi, a)
    nb = outline(fb, ib, j, xj, yj, b)
    return _nearest_edge(a, na, b, nb)


@kernel
def _nearest_edge(a, na, b, nb):
    """The outward normal of the edge of ``b`` (or, reversed, of ``a``) whose line
    the other outline is nearest to from outside: from ``b`` toward ``a``."""
    best = -np.inf
    nx = 0.0
    ny = -1.0
    for owner in range(2):
        own, no, other, nt = (b, nb, a, na) if owner == 0 else (a, na, b, nb)
        for k in range(no):
            k2 = k + 1 if k + 1 < no else 0
            ex = own[k2, 0] - own[k, 0]
            ey = own[k2, 1] - own[k, 1]
            length = math.hypot(ex, ey)
            top = -np.inf
            for v in range(nt):
                top = max(top, ex * (other[v, 1] - own[k, 1]) - ey * (other[v, 0] - own[k, 0]))
            gap = -top / length  # how far outside the edge the other outline is
            if gap > best:
                best = gap
                nx, ny = ey / length, -ex / length
                if owner == 1:
                    nx, ny = -nx, -ny
    return nx + 0.0, ny + 0.0


@allocating_kernel
def _point(fb, ib, i, xi, yi, j, xj, yj, nx, ny):
    """Where bodies ``i`` and ``j`` touch along the normal ``(nx, ny)`` (from ``j``
    toward ``i``): the middle of the stretch, across the normal, that ``i``'s
    vertices nearest ``j`` and ``j``'s nearest ``i`` share, on ``j``'s side (with a
    circle: the outline's point nearest its centre)."""
    if ib[i, KIND] == CIRCLE:
        kx, ky, _, _ = _disc_nearest(fb, ib, i, xi, yi, j, xj, yj)
        return kx, ky
    if ib[j, KIND] == CIRCLE:
        kx, ky, _, _ = _disc_nearest(fb, ib, j, xj, yj, i, xi, yi)
        return kx, ky
    most = _most(fb, ib, i, j)
    ab = stack_array(np.float64, 2, _ON_STACK, 2) if most <= _ON_STACK else np.empty((2, most, 2))
    a, b = ab[0], ab[1]
    na = outline(fb, ib, i, xi, yi, a)
    nb = outline(fb, ib, j, xj, yj, b)
    # i's vertices nearest j (least along the normal), j's nearest i (most along it),
    # each with its extent along the tangent (-ny, nx)
    _, ahi_t, alo_t = _support(a, na, -nx, -ny, -ny, nx)
    s, bhi_t, blo_t = _support(b, nb, nx, ny, -ny, nx)
    lo_t = max(alo_t, blo_t)
    hi_t = min(ahi_t, bhi_t)
    if lo_t > hi_t:  # (apart across the normal: rounding) the middle of both
        lo_t, hi_t = min(alo_t, blo_t), max(ahi_t, bhi_t)
    t = (lo_t + hi_t) * 0.5
    return s * nx - t * ny + 0.0, s * ny + t * nx + 0.0


@kernel
def _support(a, na, dx, dy, tx, ty):
    """The outline's vertices farthest along ``(dx, dy)`` (those within a billionth
    of the outline's reach from the origin of the farthest): that distance and
    their extent along ``(tx, ty)``, ``hi, lo``."""
    far = -np.inf
    size = 0.0
    for k in range(na):
        far = max(far, a[k, 0] * dx + a[k, 1] * dy)
        size = max(size, abs(a[k, 0]) + abs(a[k, 1]))
    near = far - 1e-9 * size
    hi = -np.inf
    lo = np.inf
    for k in range(na):
        if a[k, 0] * dx + a[k, 1] * dy >= near:
            t = a[k, 0] * tx + a[k, 1] * ty
            hi = max(hi, t)
            lo = min(lo, t)
    return far, hi, lo


@allocating_kernel
def _disc_overlap(fb, ib, c, xc, yc, o, xo, yo):
    """Whether circle ``c`` overlaps body ``o`` (a polygon) at these places."""
    most = _most(fb, ib, o, o)
    v = stack_array(np.float64, _ON_STACK, 2) if most <= _ON_STACK else np.empty((most, 2))
    n = outline(fb, ib, o, xo, yo, v)
    return discs.overlaps(xc, yc, fb[c, W], v, n)


@allocating_kernel
def _disc_sweep(fb, ib, c, xc, yc, dx, dy, o, xo, yo):
    """:func:`_sweep` of circle ``c`` moving by ``(dx, dy)`` relative to body ``o``: the
    normal from ``o`` toward ``c``; a contact of a circle is never a corner."""
    most = _most(fb, ib, o, o)
    v = stack_array(np.float64, _ON_STACK, 2) if most <= _ON_STACK else np.empty((most, 2))
    n = outline(fb, ib, o, xo, yo, v)
    r = fb[c, W]
    if discs.overlaps(xc, yc, r, v, n):
        _, _, nx, ny, distance = discs.nearest(xc, yc, v, n)
        return STARTED, r - distance, nx, ny, False
    f = discs.entry(xc, yc, r, dx, dy, v, n)
    if f == np.inf:
        return NONE, 0.0, 0.0, 0.0, False
    _, _, nx, ny, _ = discs.nearest(xc + dx * f, yc + dy * f, v, n)
    return HIT, f, nx, ny, False


@allocating_kernel
def _disc_nearest(fb, ib, c, xc, yc, o, xo, yo):
    """The point of body ``o``'s outline nearest circle ``c``'s centre and the normal
    there toward the centre (``step_circle_polygon.nearest``)."""
    most = _most(fb, ib, o, o)
    v = stack_array(np.float64, _ON_STACK, 2) if most <= _ON_STACK else np.empty((most, 2))
    n = outline(fb, ib, o, xo, yo, v)
    kx, ky, nx, ny, _ = discs.nearest(xc, yc, v, n)
    return kx, ky, nx, ny


# Rows without polygons (C-contiguous: ``world/step.py`` hands a world's rows over
# strided only when it holds polygons) never reach these: the kernels above are
# compiled only for a step of a world with polygons (``jit.by_layout``).


@borrowing_kernel
def _no_overlap(fb, ib, i, xi, yi, j, xj, yj):
    return False


@borrowing_kernel
def _no_sweep(fb, ib, i, xi, yi, dxi, dyi, j, xj, yj, dxj, dyj):
    return NONE, 0.0, 0.0, 0.0, False


@borrowing_kernel
def _no_push(fb, ib, i, xi, yi, j, xj, yj):
    return 0.0, -1.0, 0.0


@borrowing_kernel
def _no_normal(fb, ib, i, xi, yi, mvxi, mvyi, j, xj, yj, mvxj, mvyj):
    return 0.0, -1.0


@borrowing_kernel
def _no_point(fb, ib, i, xi, yi, j, xj, yj, nx, ny):
    return xi, yi


overlap = by_layout(_no_overlap, _overlap)
sweep = by_layout(_no_sweep, _sweep)
push = by_layout(_no_push, _push)
normal = by_layout(_no_normal, _normal)
point = by_layout(_no_point, _point)
