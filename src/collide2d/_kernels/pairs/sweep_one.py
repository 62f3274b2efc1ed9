"""One sweep of two convex outlines for the scalar front (``collide2d.sweep`` of two
polygons, or a polygon and a rectangle): the batch sweep's exact stages
(:func:`.polygon_sweeps.sweep_axis`) on one pair, with what the front's record
needs besides: the axis of the contact and the other shape's vertices on it.

The Python route (:func:`collide2d.continuous.polygon.sweep_outlines`) scales the
floats to integers and decides every step on them: 60 to 150 us for two 8-gons.
This decides the same answer (the batch sweep equals it bit for bit) in a few
microseconds; pairs it cannot settle exactly come back ``UNSURE`` for the Python
route, as in the batch.
"""

from __future__ import annotations

import numpy as np

from collide2d._kernels.expansions import CCW_BOUND, grow_cross, sign_of
from collide2d._kernels.jit import inlined_helper, kernel, points_at, stack_array
from collide2d._kernels.pairs.polygon_axes import COLUMNS, OWNER
from collide2d._kernels.pairs.polygon_sweeps import HIT, NONE, STARTED, UNSURE, sweep_axis

__all__ = ["HIT", "NONE", "STARTED", "UNSURE"]

_ON_STACK = 8
"""Outlines of up to this many vertices get their working arrays on the stack
(``jit.stack_array``); larger ones on the heap. (The same choice as
``step.step_polygons._sweep`` makes, written out in each: a stack array lives in
the frame that makes it, so no helper can make them for both.)"""
_AXES = 2 * _ON_STACK
_SCRATCH = 2048


@kernel
def sweep_one(
    a_at: int, na: int, b_at: int, nb: int, adx: float, ady: float, bdx: float, bdy: float
) -> tuple[int, float, int, int, int, int]:
    """Outline ``a`` moving by ``(adx, ady)`` against outline ``b`` moving by ``(bdx,
    bdy)``, each given by its array's address and vertex count (``jit.points_at``;
    tame: every coordinate and motion zero or in ``SWEEP_EXACT_RANGE``): ``(code,
    fraction, owner, edge, first, second)``. ``code`` is ``NONE``, ``HIT``,
    ``STARTED`` (the push's length in place of the fraction) or ``UNSURE``; for the
    last two ``owner`` (0 for ``a``, 1 for ``b``) and ``edge`` name the contact's
    edge, and ``first`` and ``second`` the other shape's vertices on that edge's
    supporting line (``first`` the earliest in its order; ``second`` -1 when alone)."""
    a = points_at(a_at, na)
    b = points_at(b_at, nb)
    most = max(na, nb)
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
    d[0] = adx
    d[1] = ady
    d[2] = bdx
    d[3] = bdy
    code, f, best, _ = sweep_axis(a, na, b, nb, d, table, ints, scratch, cache, False)
    if code not in (HIT, STARTED):
        return code, f, -1, -1, -1, -1
    owner = ints[best, OWNER]
    edge = best if owner == 0 else best - na
    own, n_own, other, n_other = (a, na, b, nb) if owner == 0 else (b, nb, a, na)
    first, second = supporting(own, n_own, edge, other, n_other, scratch[4])
    return code, f, owner, edge, first, second


@inlined_helper
def supporting(
    own: np.ndarray, n_own: int, edge: int, other: np.ndarray, n_other: int, h: np.ndarray
) -> tuple[int, int]:
    """The vertices of ``other`` farthest along the inward side of ``own``'s edge
    (the largest ``(q - p) x (v - p)``), exactly: the earliest in order, and a second
    one level with it (-1 if none; no three vertices of a convex outline are in
    line, so there are at most two)."""
    k2 = edge + 1 if edge + 1 < n_own else 0
    px, py, qx, qy = own[edge, 0], own[edge, 1], own[k2, 0], own[k2, 1]
    ex = qx - px
    ey = qy - py
    s = 0
    for v in range(1, n_other):
        if (
            _above(ex, ey, qx, px, qy, py, other[v, 0], other[v, 1], other[s, 0], other[s, 1], h)
            > 0
        ):
            s = v
    second = -1
    for v in range(s + 1, n_other):
        if (
            _above(ex, ey, qx, px, qy, py, other[v, 0], other[v, 1], other[s, 0], other[s, 1], h)
            == 0
        ):
            second = v
            break
    return s, second


@inlined_helper
def _above(ex, ey, qx, px, qy, py, vx, vy, sx, sy, h):
    """The exact sign of ``(q - p) x (v - s)``: whether ``v`` lies farther along the
    edge's inward side than ``s`` (1), level (0) or not (-1)."""
    lo = ex * (vy - sy)
    ro = ey * (vx - sx)
    diff = lo - ro
    bound = CCW_BOUND * (abs(lo) + abs(ro))
    if diff > bound:
        return 1
    if -diff > bound:
        return -1
    return sign_of(h, grow_cross(h, 0, qx, px, qy, py, vx, sx, vy, sy, 1.0))
