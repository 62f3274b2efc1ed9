"""Sweeps of convex polygon pairs in arrays: the exact first contact, compiled.

The swept separating-axis test of :mod:`collide2d.geometry.convex`, decided the
same way with floats where an error bound proves the answer and with exact
expansions otherwise (the axis table and its tests: :mod:`.polygon_axes`). Against an
edge from ``p`` to ``q``, a vertex ``v`` of the other shape has the value
``E(t) = (q - p) x (v - p) + t * rate`` at time ``t``, ``rate = +-(q - p) x d``
for the relative motion ``d``; the edge separates the shapes at ``t`` when
every vertex has ``E(t) <= 0``. Every decision below is the exact sign of such an
``E`` at a float time, or of ``O_j R_i - O_i R_j`` (which of two edges' times
``-O / R`` comes first, ``O`` the largest ``E(0)``), so no quotient is ever
rounded before it is compared:

- a pair whose bounding discs never come near (a float test with a wide margin)
  has no contact, and is done at once;
- the shapes overlap at ``t = 0`` when no edge separates them then (started);
- an edge that separates them at ``0`` and does not approach means no contact;
- the first contact ``lo`` lies at or after a float ``f`` exactly when an
  approaching edge separates at ``f``, so the fraction is the last float at which
  one does (found from an estimate to twice the precision, a step or two away),
  and ``lo >= 1`` when one separates at ``1``;
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

from collide2d._kernels.expansions import STEPS
from collide2d._kernels.jit import inlined_helper, kernel, prefetch
from collide2d._kernels.pairs.polygon_axes import (
    APART,
    COLUMNS,
    OWNER,
    SIGN,
    any_apart,
    apart_at,
    apart_flags,
    axes,
    estimate,
    facing,
    later,
    normal,
    outline_box,
    parallel,
    shortest_push,
)
from collide2d._kernels.pairs.polygons import AHEAD, ask_for_rows

NONE = 0
HIT = 1
STARTED = 2
UNSURE = 3

_LOWEST_TIME = 2.0**-600
"""Below this (and above zero), ``t * rate`` may lose bits: the Python route."""

_BEFORE_ONE = 1.0 - 2.0**-53


@inlined_helper
def _disc(a: np.ndarray, na: int) -> tuple[float, float, float]:
    """A disc holding the outline: its box's centre and the reach to its farthest
    vertex, widened by ``2**-20`` for the rounding of that reach."""
    left, top, right, bottom = outline_box(a, na)
    cx = (left + right) * 0.5
    cy = (top + bottom) * 0.5
    far = 0.0
    for k in range(na):
        dx = a[k, 0] - cx
        dy = a[k, 1] - cy
        far = max(far, dx * dx + dy * dy)
    return cx, cy, math.sqrt(far) * (1.0 + 2.0**-20)


@inlined_helper
def discs_apart(a: np.ndarray, na: int, b: np.ndarray, nb: int, d: np.ndarray) -> bool:
    """Whether the two outlines' discs (:func:`_disc`) never come near during the
    frame: no contact, certainly. The centres' relative path comes no nearer than
    its distance at the float nearest moment, and the answer is yes only when that
    distance exceeds the two reaches by ``2**-30`` of the largest magnitude in play
    (the rounding here is a few ``2**-53`` of it). A reach so small that its squares
    may have underflowed, and any overflow or NaN, give no."""
    ax, ay, ra = _disc(a, na)
    bx, by, rb = _disc(b, nb)
    if not (ra > _SMALLEST_REACH and rb > _SMALLEST_REACH):
        return False
    gx = ax - bx
    gy = ay - by
    mx = d[0] - d[2]
    my = d[1] - d[3]
    length2 = mx * mx + my * my
    moment = -(gx * mx + gy * my) / length2 if length2 > 0.0 else 0.0
    if not moment > 0.0:  # (NaN too)
        moment = 0.0
    moment = min(moment, 1.0)
    nx = gx + moment * mx
    ny = gy + moment * my
    reaches = ra + rb
    largest = (
        max(abs(ax), abs(ay)) + max(abs(bx), abs(by)) + max(abs(d[0]), abs(d[1]))
        + max(abs(d[2]), abs(d[3])) + reaches
    )  # fmt: skip
    limit = reaches + largest * 2.0**-30
    apart: bool = nx * nx + ny * ny > limit * limit
    return apart


_SMALLEST_REACH = 2.0**-400


_SAME_FACING = 1e-12
"""Tied axes whose :func:`~.polygon_axes.facing` differ by less than this share are
taken as facing the motion alike (floats cannot order them)."""


@inlined_helper
def _least_facing(best, n, a, na, b, nb, d, table, ints, scratch):
    """Of the approaching axes whose time is ``best``'s (a vertex meets a vertex, or
    faces meet): the face of least penetration an instant later, the one the motion
    meets least squarely; of those alike, the obstacle's edge, then the first in the
    table's order (``World.step``'s rule; the World's moves take the same face,
    :func:`collide2d.geometry.convex.corner_axis`)."""
    chosen = -1
    least = np.inf
    for owner in (1, 0):
        for k in range(n):
            if (
                ints[k, SIGN] > 0
                and ints[k, OWNER] == owner
                and (k == best or later(k, best, a, na, b, nb, d, table, ints, scratch) == 0)
            ):
                f = facing(table, k)
                if chosen < 0 or f < least * (1.0 - _SAME_FACING):
                    chosen = k
                    least = f
    return chosen


@inlined_helper
def _sweep_pair(
    a: np.ndarray, na: int, b: np.ndarray, nb: int, d: np.ndarray,
    table: np.ndarray, ints: np.ndarray, scratch: np.ndarray, cache: np.ndarray,
    settle_ties: bool,
) -> tuple[int, float, float, float, bool]:  # fmt: skip
    """One pair: ``(code, fraction, nx, ny, corner)`` (see the module); for a started
    pair the push's length in place of the fraction. ``corner``: a hit whose first
    contact two edges that are not parallel give at once (a vertex meets a vertex;
    the World takes another normal for it than the obstacle's edge's,
    :func:`collide2d.world.contact.corner_normal`). Where two edges of one shape give
    the first contact at once, the pair is ``UNSURE`` unless ``settle_ties``; with
    ``settle_ties`` every tie is settled by :func:`_least_facing` (``World.step``'s
    rule)."""
    code, f, best, corner = sweep_axis(a, na, b, nb, d, table, ints, scratch, cache, settle_ties)
    if code in (HIT, STARTED):
        nx, ny = normal(table, ints, best)
        return code, f, nx, ny, corner
    return code, 0.0, 0.0, 0.0, False


@inlined_helper
def sweep_axis(
    a: np.ndarray, na: int, b: np.ndarray, nb: int, d: np.ndarray,
    table: np.ndarray, ints: np.ndarray, scratch: np.ndarray, cache: np.ndarray,
    settle_ties: bool,
) -> tuple[int, float, int, bool]:  # fmt: skip
    """:func:`_sweep_pair` with the axis of the contact (its row of ``table``, -1
    for no contact) in place of its normal."""
    if discs_apart(a, na, b, nb, d):
        return NONE, 0.0, -1, False
    h = scratch[4]
    n = axes(a, na, b, nb, d, table, ints, h)
    if n < 0:
        return NONE, 0.0, -1, False
    started = True
    for k in range(n):
        if apart_at(k, 0.0, a, na, b, nb, d, table, ints, cache, False):
            started = False
            if ints[k, SIGN] <= 0:
                return NONE, 0.0, -1, False
    if started:
        best, depth = shortest_push(n, a, na, b, nb, d, table, ints, scratch)
        if best < 0:
            return UNSURE, 0.0, -1, False
        return STARTED, depth, best, False
    if any_apart(1.0, n, a, na, b, nb, d, table, ints, cache, False):
        return NONE, 0.0, -1, False
    f = min(estimate(n, a, na, b, nb, d, table, ints, cache), _BEFORE_ONE) + 0.0
    if 0.0 < f < _LOWEST_TIME:
        return UNSURE, 0.0, -1, False
    steps = 0
    if apart_flags(f, n, a, na, b, nb, d, table, ints, cache):
        while True:  # the last float at which an approaching axis separates
            if f == 0.0 and not any_apart(0.0, n, a, na, b, nb, d, table, ints, cache, True):
                break  # lo == 0: no approaching axis strictly apart at the start
            g = np.nextafter(f, np.inf)
            if g < _LOWEST_TIME:
                return UNSURE, 0.0, -1, False
            if g >= 1.0 or not any_apart(g, n, a, na, b, nb, d, table, ints, cache, False):
                break
            f = g
            steps += 1
            if steps > STEPS:
                return UNSURE, 0.0, -1, False
            apart_flags(f, n, a, na, b, nb, d, table, ints, cache)
    else:
        while True:
            f = np.nextafter(f, -np.inf)
            steps += 1
            if steps > STEPS or 0.0 < f < _LOWEST_TIME:
                return UNSURE, 0.0, -1, False
            if apart_flags(f, n, a, na, b, nb, d, table, ints, cache):
                break
    g = np.nextafter(f, np.inf)
    # the axis of the first contact: the latest time among those at or after f (the
    # approaching axes that separate at f, kept by apart_flags)
    best = -1
    ties = 0
    corner = False
    for k in range(n):
        if ints[k, APART] != 0:
            if best < 0:
                best = k
                ties = 1
                continue
            order = later(k, best, a, na, b, nb, d, table, ints, scratch)
            if order > 0:
                best = k
                ties = 1
            elif order == 0:
                ties += 1
    if ties > 1:  # several axes give the same time
        if settle_ties:  # World.step's rule
            chosen = _least_facing(best, n, a, na, b, nb, d, table, ints, scratch)
        else:  # the obstacle's edge, if one alone
            owners = 0
            for k in range(n):
                if (
                    ints[k, SIGN] > 0
                    and ints[k, OWNER] == 1
                    and (k == best or later(k, best, a, na, b, nb, d, table, ints, scratch) == 0)
                ):
                    owners += 1
                    chosen = k
            if owners != 1:  # two edges of one shape at once: the Python route decides
                return UNSURE, 0.0, -1, False
        for k in range(n):
            if (
                ints[k, APART] != 0
                and k != chosen
                and later(k, chosen, a, na, b, nb, d, table, ints, scratch) == 0
                and not parallel(k, chosen, table, scratch[4])
            ):
                corner = True
        best = chosen
    # real contact: they overlap at g, or every leaving axis parts after lo
    # (at f = 0 every leaving axis parts after 0: checked at the start)
    for k in range(n if f > 0.0 else 0):
        if (
            ints[k, SIGN] < 0
            and apart_at(k, g, a, na, b, nb, d, table, ints, cache, False)
            and later(best, k, a, na, b, nb, d, table, ints, scratch) <= 0
        ):
            return NONE, 0.0, -1, False
    return HIT, f, best, corner


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
    ints = np.empty((most, COLUMNS), dtype=np.intp)
    scratch = np.empty((11, 2048))
    cache = np.empty((3, most, 64))
    d = np.empty(4)
    for m in range(pairs.shape[0]):
        ask_for_rows(pairs, m + AHEAD, vertices, counts, tame)
        if m + AHEAD < pairs.shape[0]:
            prefetch(deltas, pairs[m + AHEAD, 0], 0)
            prefetch(deltas, pairs[m + AHEAD, 1], 0)
        i = pairs[m, 0]
        j = pairs[m, 1]
        if not (tame[i] and tame[j]):
            codes[m] = UNSURE
            continue
        d[0] = deltas[i, 0]
        d[1] = deltas[i, 1]
        d[2] = deltas[j, 0]
        d[3] = deltas[j, 1]
        code, f, nx, ny, _ = _sweep_pair(
            vertices[i], counts[i], vertices[j], counts[j], d, table, ints, scratch, cache, False
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
