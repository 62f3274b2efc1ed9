"""How two bodies in ``World.step`` respond to a contact (``_kernels/step/step_core.py``):
who can move (inverse mass, 0 once frozen or fixed), the velocity change of a slide or
a bounce shared by inverse mass (exact when the normal is an axis), and the nudge by
units in the last place that leaves a stopping pair apart after rounding.
"""

from __future__ import annotations

import numpy as np

from collide2d._kernels.codes import RECT, SNAP_STEPS
from collide2d._kernels.jit import borrowing_kernel, inlined_helper
from collide2d._kernels.step.step_shapes import (
    FIXED,
    FROZEN,
    INV,
    KIND,
    MVX,
    MVY,
    H,
    W,
    X,
    Y,
    overlap_at,
    position,
)

APPROACH_ULPS = 64.0 * 2.0**-52
"""A pair approaching slower than this share of its bodies' speeds is not approaching:
that is what rounding leaves of a slide (two bodies a slide left moving together can
differ by a few ulps in velocity, and would meet again, an ulp apart, much later)."""
# What a body's slides of one moment leave, in three tables of a row a body
# (``step_core.begin`` makes them): ``held_t`` the moments, ``held_by`` bodies,
# ``held_n`` normals. Each part has its own moment, in ``held_t``.
OPPOSITE = 1e-12
"""How near ``-1`` the cosine between a push and the normal of what holds the body
(``1 - cos**2`` at most) for the body to be crushed (:func:`slide_held`): the normals
of boxes are axes, exactly opposite; a disc's meet at a slant and it is squeezed
out sideways instead."""
CRUSHED = 2
"""``FROZEN``'s value for a crushed body (:func:`crush`; 1 for one a touch froze)."""
CAPPED = 3
"""``FROZEN``'s value for a body the event cap stopped (:func:`mark_changed`)."""
HOLDER = 0
"""The body that cannot move holding this one (:func:`slide_held`): its moment in
``held_t``, the body in ``held_by``, the normal (from it) in ``held_n[:, 0:2]``."""
LINKS = 1
"""The moment of the body's row links in ``held_t`` (``step_chain``), the links in
``held_by[:, LINK_LO]`` (the body before it), ``LINK_HI`` (after) along ``LINK_AXIS``."""
LINK_LO, LINK_HI, LINK_AXIS = 1, 2, 3
PARTNERS_AT = 2
"""The moment of the body's slide partners in ``held_t`` (``step_moment``): how many in
``held_by[:, PARTNER_COUNT]``, which in ``held_by[:, PARTNER + k]``, the normal of
slide ``k`` (from the partner) in ``held_n[:, PARTNER_NORMAL + 2 k]``."""
PARTNERS = 4
"""Slides of one moment a body remembers (its partners then)."""
PARTNER, PARTNER_COUNT, PARTNER_NORMAL = 4, 4 + PARTNERS, 2
ROUNDED_AT, ROUNDED_COUNT = 3, 5 + PARTNERS
"""The moment of the body's contacts of rounding size in ``held_t``
(:func:`rounded_again`), how many at that moment in ``held_by``."""
YIELDED_AT, YIELD_COUNT = 4, 6 + PARTNERS
"""The moment a frozen body last yielded in ``held_t`` (:func:`yielding`), how often
at that moment in ``held_by``."""
HELD_TIMES, HELD_BODIES, HELD_NORMALS = 5, 7 + PARTNERS, 2 + 2 * PARTNERS
"""The tables' widths."""
SLACK = 1e-9
"""Slides this far apart in time (relative to the moment, at least 1) are of one
moment: a slide's nudges by units in the last place make the next contact of a
jam an ulp or so later, not at the same time."""
FACE_ULPS = 16.0
"""How deep (units in the last place of the faces' coordinates) two rectangles that
met along an axis may be inside each other along it, and still be taken as rounding
to be undone (:func:`face_apart`)."""


@inlined_helper
def mobility(fb, ib, i):
    """Body ``i``'s inverse mass for a contact now: 0 once frozen or fixed."""
    if ib[i, FIXED] != 0 or ib[i, FROZEN] != 0:
        return 0.0
    return fb[i, INV]


@borrowing_kernel
def nudge(fb, ib, m, other, xo, yo, nx, ny, doublings):
    """Move body ``m`` (its row brought to date) along ``(nx, ny)`` by one unit in the
    last place, then twice as far each time, until it no longer overlaps ``other`` at
    ``xo, yo``, at most ``doublings`` times; return whether it overlapped (and so
    moved, unless the doublings ran out first: it then stays, overlapping; with
    ``SNAP_STEPS`` they never do). If the doublings from an ulp of its own place run out,
    they start again from an ulp of the larger of the two bodies' places and sizes
    along each axis (the edges' ulp): an ulp of a place near 0, doubled, could not
    reach an overlap of an ulp of edges far from 0 (a disc's centre at -4e-16, its
    edge an ulp inside a box's at -2)."""
    x0 = fb[m, X]
    y0 = fb[m, Y]
    if not overlap_at(fb, ib, m, x0, y0, other, xo, yo):
        return False
    own_x = np.abs(np.spacing(x0))
    own_y = np.abs(np.spacing(y0))
    wide_x = max(own_x, np.abs(np.spacing(max(abs(xo), fb[m, W], fb[other, W]))))
    wide_y = max(own_y, np.abs(np.spacing(max(abs(yo), fb[m, H], fb[other, H]))))
    for attempt in range(2):
        if attempt == 1 and wide_x == own_x and wide_y == own_y:
            break  # (the same doublings again)
        x, y = x0, y0
        sx, sy = (own_x, own_y) if attempt == 0 else (wide_x, wide_y)
        for _ in range(doublings):
            if nx != 0.0:
                x += sx if nx > 0.0 else -sx
                sx *= 2.0
            if ny != 0.0:
                y += sy if ny > 0.0 else -sy
                sy *= 2.0
            if not overlap_at(fb, ib, m, x, y, other, xo, yo):
                fb[m, X] = x
                fb[m, Y] = y
                return True
    return True


@borrowing_kernel
def nudge_off_both(fb, ib, m, a, b, t, dx, dy, doublings):
    """Move body ``m`` (its row at ``t``) along ``(dx, dy)``, from an ulp of its
    coordinates and twice as far each time, until it overlaps neither ``a`` nor ``b``
    (both brought to ``t``): a body wedged between two that cannot move, pushed
    along the sum of the two normals, which leaves both (an ulp off one alone goes
    into the other). Moves at most twice as far as needed, and not at all if
    ``doublings`` are not enough (returns whether it moved)."""
    xa, ya = position(fb, a, t)
    xb, yb = position(fb, b, t)
    x0 = fb[m, X]
    y0 = fb[m, Y]
    step = np.abs(np.spacing(max(abs(x0), abs(y0), 1.0))) / max(abs(dx), abs(dy))
    x = x0
    y = y0
    for _ in range(doublings):
        if not overlap_at(fb, ib, m, x, y, a, xa, ya) and not overlap_at(
            fb, ib, m, x, y, b, xb, yb
        ):
            fb[m, X] = x
            fb[m, Y] = y
            return True
        x = x0 + dx * step
        y = y0 + dy * step
        step *= 2.0
    return False


@inlined_helper
def apart_within(fb, ib, i, j, t, nx, ny, inv_i, inv_j, doublings):
    """:func:`apart` by at most ``doublings`` doublings of an ulp (else nothing
    moves); return whether the pair is apart."""
    if inv_i >= inv_j:
        xj, yj = position(fb, j, t)
        nudge(fb, ib, i, j, xj, yj, nx, ny, doublings)
        return not overlap_at(fb, ib, i, fb[i, X], fb[i, Y], j, xj, yj)
    xi, yi = position(fb, i, t)
    nudge(fb, ib, j, i, xi, yi, -nx, -ny, doublings)
    return not overlap_at(fb, ib, j, fb[j, X], fb[j, Y], i, xi, yi)


@inlined_helper
def face_apart(fb, ib, m, other, xo, yo, nx, ny):
    """Two rectangles that met along an axis (normal ``(nx, ny)`` from ``other`` at
    ``xo, yo`` to ``m``, its row at the moment), not overlapping but inside each
    other along that axis by rounding (at most ``FACE_ULPS``): ``m`` moved back along
    it until its face is at ``other``'s, no further. Return whether it moved. Two
    boxes meeting corner to corner at 1/3 (no float) were an ulp inside each other
    along the normal and an ulp apart along the other axis; after their slide, they
    moved on together and met again along the other axis at once, where exactly the
    corners only touch and one slides past the other (found by a hunt against the
    exact reference)."""
    if ib[m, KIND] != RECT or ib[other, KIND] != RECT or (nx != 0.0 and ny != 0.0):
        return False
    axis, size_m, size_o, at_o, sign = X, fb[m, W], fb[other, W], xo, nx
    if nx == 0.0:
        axis, size_m, size_o, at_o, sign = Y, fb[m, H], fb[other, H], yo, ny
    at_m = fb[m, axis]
    if sign > 0.0:  # m beyond other's far face
        face = at_o + size_o
        depth = face - at_m
        goal = face
    else:  # m before other's near face
        face = at_o
        depth = at_m + size_m - face
        goal = face - size_m
    if not depth > 0.0:
        return False
    if depth > FACE_ULPS * np.spacing(max(abs(at_m) + size_m, abs(at_o) + size_o)):
        return False
    for _ in range(64):  # (goal + size_m may round beyond the face: back by ulps)
        if sign > 0.0 or goal + size_m <= face:
            fb[m, axis] = goal
            return True
        goal = np.nextafter(goal, -np.inf)
    return False


@inlined_helper
def apart(fb, ib, i, j, t, nx, ny, inv_i, inv_j):
    """Nudge the more mobile of ``i`` and ``j`` (normal from ``j`` to ``i``) clear of
    the other at time ``t``; the mover's row must be at ``t``. Whether they overlap
    is asked here, inlined: most contacts leave them touching, not overlapping, and
    the call of :func:`nudge`, its two tables passed on the stack, was a sixth of the
    bullets' touches at time 0 (``perf``). Two rectangles that do not overlap are
    left at most touching along the normal (:func:`face_apart`); returns what that
    or :func:`nudge` returns."""
    if inv_i >= inv_j:
        xj, yj = position(fb, j, t)
        if not overlap_at(fb, ib, i, fb[i, X], fb[i, Y], j, xj, yj):
            return face_apart(fb, ib, i, j, xj, yj, nx, ny)
        return nudge(fb, ib, i, j, xj, yj, nx, ny, SNAP_STEPS)
    xi, yi = position(fb, i, t)
    if not overlap_at(fb, ib, j, fb[j, X], fb[j, Y], i, xi, yi):
        return face_apart(fb, ib, j, i, xi, yi, -nx, -ny)
    return nudge(fb, ib, j, i, xi, yi, -nx, -ny, SNAP_STEPS)


@inlined_helper
def _set_normal_speed(fb, i, nx, ny, speed):
    """Give body ``i`` the normal speed ``speed`` along the unit ``(nx, ny)``, exactly
    when the normal is an axis, and exactly ``speed`` times the normal when what the
    velocity has across the normal is rounding (a head-on slide leaves no dust: a
    velocity of 1e-31 left by a slide into a wall, compared with itself, met the wall
    again)."""
    if ny == 0.0:
        fb[i, MVX] = speed * nx
    elif nx == 0.0:
        fb[i, MVY] = speed * ny
    else:
        vx = fb[i, MVX]
        vy = fb[i, MVY]
        now = vx * nx + vy * ny
        if abs(vx - now * nx) + abs(vy - now * ny) <= APPROACH_ULPS * (abs(vx) + abs(vy)):
            fb[i, MVX] = speed * nx
            fb[i, MVY] = speed * ny
        else:
            fb[i, MVX] = vx + (speed - now) * nx
            fb[i, MVY] = vy + (speed - now) * ny


@inlined_helper
def respond(fb, i, j, nx, ny, inv_i, inv_j, e):
    """The velocity change of a slide (``e == 0``) or a bounce with restitution ``e``;
    return which bodies' velocities changed (``i``, ``j``)."""
    ui = fb[i, MVX] * nx + fb[i, MVY] * ny
    uj = fb[j, MVX] * nx + fb[j, MVY] * ny
    u = ui - uj
    if not u < 0.0:
        return False, False
    if inv_j == 0.0:
        _set_normal_speed(fb, i, nx, ny, uj - e * u)
        return True, False
    if inv_i == 0.0:
        _set_normal_speed(fb, j, nx, ny, ui + e * u)
        return False, True
    total = inv_i + inv_j
    if e == 0.0:
        common = (ui * inv_j + uj * inv_i) / total
        _set_normal_speed(fb, i, nx, ny, common)
        _set_normal_speed(fb, j, nx, ny, common)
    else:
        k = (1.0 + e) * u / total
        _set_normal_speed(fb, i, nx, ny, ui - k * inv_i)
        _set_normal_speed(fb, j, nx, ny, uj + k * inv_j)
    return True, True


@inlined_helper
def freeze(fb, ib, i):
    ib[i, FROZEN] = 1
    fb[i, MVX] = 0.0
    fb[i, MVY] = 0.0


@borrowing_kernel
def _held(fb, ib, b, other, t, held_t, held_by, held_n):
    """The normal (from the holder to ``b``) of the body that cannot move holding ``b``
    at this moment ``t`` (``SLACK``), other than ``other``; ``(0, 0)`` if none."""
    k = held_by[b, HOLDER]
    if t - held_t[b, HOLDER] > SLACK * max(1.0, abs(t)):
        return 0.0, 0.0  # (not of this moment)
    if k == other or k < 0 or mobility(fb, ib, k) != 0.0:
        return 0.0, 0.0
    return held_n[b, 0], held_n[b, 1]


@borrowing_kernel
def held_shares(fb, ib, i, j, t, nx, ny, inv_i, inv_j, held_t, held_by, held_n):
    """The shares of a push apart of ``i`` and ``j`` (normal from ``j`` to ``i``),
    both able to move: their inverse masses, but none for the one whose push would
    go into the body that cannot move and holds it at this moment ``t``
    (``held_t``, ``held_by``, ``held_n``: :func:`slide_held`'s) when the other's
    would not. A disc between a wall disc and a disc pressing on it along one
    line, an ulp inside both, was shoved half off the disc into the wall, off the
    wall into the disc, to the event cap; and so were the nudges of a pile."""
    ax, ay = _held(fb, ib, i, j, t, held_t, held_by, held_n)
    bx, by = _held(fb, ib, j, i, t, held_t, held_by, held_n)
    into_i = nx * ax + ny * ay < 0.0  # i pushed along n goes into its holder
    into_j = nx * bx + ny * by > 0.0  # j pushed along -n goes into its holder
    if into_i and not into_j:
        return 0.0, inv_j
    if into_j and not into_i:
        return inv_i, 0.0
    return inv_i, inv_j


@borrowing_kernel
def apart_arriving(fb, ib, i, j, t, nx, ny, inv_i, inv_j, held_t, held_by, held_n):
    """:func:`apart` for a sliding pair of bodies that can both move (normal from
    ``j`` to ``i``): not the one held from the other side (:func:`held_shares`);
    else, of two as mobile, the one moving faster along the normal (the one
    arriving), else the more mobile. A disc in a pile, squeezed between a wall and
    a disc pressing on it, was nudged an ulp off the disc into the wall, off the
    wall into the disc, to the event cap (60 discs poured into a V of walls). Of
    two as mobile, nudging the first: a disc resting in a wedge of two walls,
    another landing on it, was nudged off that disc an ulp into the walls, shoved
    off one into the other, to the event cap."""
    si, sj = held_shares(fb, ib, i, j, t, nx, ny, inv_i, inv_j, held_t, held_by, held_n)
    if si == 0.0:
        return apart(fb, ib, j, i, t, -nx, -ny, 1.0, 0.0)
    if sj == 0.0:
        return apart(fb, ib, i, j, t, nx, ny, 1.0, 0.0)
    if inv_i == inv_j:
        ui = abs(fb[i, MVX] * nx + fb[i, MVY] * ny)
        uj = abs(fb[j, MVX] * nx + fb[j, MVY] * ny)
        if uj > ui:
            return apart(fb, ib, j, i, t, -nx, -ny, inv_j, inv_i)
    return apart(fb, ib, i, j, t, nx, ny, inv_i, inv_j)


@borrowing_kernel
def slide_held(fb, ib, i, j, nx, ny, inv_i, inv_j, t, held_t, held_by, held_n):
    """The velocity change of a slide between ``i`` and ``j`` (normal from ``j`` to
    ``i``) at time ``t``, with the bodies that cannot move and hold ``i`` or ``j`` at
    this moment (a disc on a tile pushed by another along a slanted normal): the
    push a held body takes is kept along its holder's surface, and the pair's
    approach removed in one go. One at a time, the slide pushed the disc into the
    tile, the tile's slide sent it back against the pusher, and so on, each leaving
    a smaller approach, until the event cap (about 1,700 of the swarm's 3,800
    events a step). Then remembers which body that cannot move holds ``i`` or
    ``j`` (``held_by``, ``held_n``, at ``held_t``).

    A held body pushed straight into its holder (the normals opposite) by a body,
    the two of infinite mass and closing on it, can go nowhere: it is *crushed* (a
    box between a rising lift and a ceiling); so are both bodies of a pair held so
    on their far sides (``j`` stopped here). Nothing changes then; returns the
    crushed body (else -1), for the caller to stop it (:func:`crush`)."""
    u = (fb[i, MVX] - fb[j, MVX]) * nx + (fb[i, MVY] - fb[j, MVY]) * ny
    ax, ay = _held(fb, ib, i, j, t, held_t, held_by, held_n)
    bx, by = _held(fb, ib, j, i, t, held_t, held_by, held_n)
    ci = nx * ax + ny * ay  # < 0: i pushed along n goes into its holder
    cj = nx * bx + ny * by  # > 0: j pushed along -n goes into its holder
    # A holder a touch froze yields to a body of infinite mass pushing into it
    # (free again, the slides that follow push it); one that yielded enough at this
    # moment is pinned (_yields)
    gi = _yields(fb, ib, held_by[i, HOLDER], j, t, held_t, held_by) if u < 0.0 and ci < 0.0 else 0
    gj = _yields(fb, ib, held_by[j, HOLDER], i, t, held_t, held_by) if u < 0.0 and cj > 0.0 else 0
    if gi > 0:
        ax = ay = ci = 0.0
    if gj > 0:
        bx = by = cj = 0.0
    pressed_i = inv_j == 0.0 and ci < 0.0 and 1.0 - ci * ci <= OPPOSITE
    if u < 0.0 and pressed_i and _closing(fb, held_by[i, HOLDER], j, nx, ny, gi < 0):
        return i
    pressed_j = inv_i == 0.0 and cj > 0.0 and 1.0 - cj * cj <= OPPOSITE
    if u < 0.0 and pressed_j and _closing(fb, held_by[j, HOLDER], i, -nx, -ny, gj < 0):
        return j
    # Both held on their far sides by bodies of infinite mass closing on the pair (two
    # boxes between a pusher and a wall): both crushed (one alone, the other went on
    # between the pusher and it to the event cap)
    pressed_i = ci < 0.0 and 1.0 - ci * ci <= OPPOSITE
    pressed_j = cj > 0.0 and 1.0 - cj * cj <= OPPOSITE
    hi, hj = held_by[i, HOLDER], held_by[j, HOLDER]
    if u < 0.0 and pressed_i and pressed_j and _closing(fb, hi, hj, nx, ny, gi < 0):
        crush(fb, ib, j)
        return i
    ci = ci if ci < 0.0 else 0.0
    cj = cj if cj > 0.0 else 0.0
    total = inv_i * (1.0 - ci * ci) + inv_j * (1.0 - cj * cj)
    if (ci == 0.0 and cj == 0.0) or not u < 0.0 or not total > 0.0:
        respond(fb, i, j, nx, ny, inv_i, inv_j, 0.0)
    else:
        p = -u / total
        fb[i, MVX] += p * inv_i * (nx - ci * ax)
        fb[i, MVY] += p * inv_i * (ny - ci * ay)
        fb[j, MVX] -= p * inv_j * (nx - cj * bx)
        fb[j, MVY] -= p * inv_j * (ny - cj * by)
    for b, other, sign, inv_other in ((i, j, 1.0, inv_j), (j, i, -1.0, inv_i)):
        if inv_other == 0.0:
            held_t[b, HOLDER] = t
            held_by[b, HOLDER] = other
            held_n[b, 0] = sign * nx
            held_n[b, 1] = sign * ny
    return -1


@borrowing_kernel
def _closing(fb, holder, pusher, nx, ny, pinned):
    """Whether ``pusher``, pushing along ``(nx, ny)`` (toward the body held by
    ``holder`` on its far side), approaches ``holder``, both of infinite mass (or
    the holder ``pinned``: a frozen body that yielded enough at this moment,
    :func:`_yields`): the body between them cannot be kept apart from both. (Another
    frozen body, of finite mass, is not one: a box on a rising lift under a body the
    event cap stopped is left to the events and the cleanup, which move that body.)"""
    if fb[pusher, INV] != 0.0 or (fb[holder, INV] != 0.0 and not pinned):
        return False
    u = (fb[pusher, MVX] - fb[holder, MVX]) * nx + (fb[pusher, MVY] - fb[holder, MVY]) * ny
    speeds = abs(fb[pusher, MVX]) + abs(fb[pusher, MVY])
    speeds += abs(fb[holder, MVX]) + abs(fb[holder, MVY])
    return u > APPROACH_ULPS * speeds


YIELDS_AT_ONCE = 2
"""Times a body a touch froze yields to a body of infinite mass at one moment
(:func:`yielding`, :func:`slide_held`); once more, it is pinned: crushed if that body
meets it, or the body between them crushed (:func:`_closing`'s ``pinned``)."""


@inlined_helper
def yielding(fb, ib, i, j, nx, ny, inv_i, inv_j, t, held_t, held_by, held_n):
    """The inverse masses of ``i`` and ``j`` (``inv_i``, ``inv_j`` now, one of them 0)
    for a slide or a bounce (normal from ``j`` to ``i``) at ``t``, once a body of
    finite mass a touch froze has yielded to one of infinite mass that moves (a
    kinematic body: a lift, a pusher): free again, it is pushed or bounced like any
    body. Met by the kinematic body itself (both "cannot move", they passed as
    ``cross``, and the end put it back where the step began, or left it inside), or
    by a body the kinematic body holds at this moment and pushes into it (it stood
    as a wall between the two, the body between them sent from one to the other to
    the event cap). A body that yields ``YIELDS_AT_ONCE`` times at one moment
    (``SLACK``) and is met by the kinematic body again is pinned between the two: it
    is crushed (:func:`crush`) and the pair passes."""
    if inv_i + inv_j == 0.0:
        for b, other in ((i, j), (j, i)):
            given = _yields(fb, ib, b, other, t, held_t, held_by)
            if given < 0:
                crush(fb, ib, b)
            elif given > 0:
                return (fb[i, INV], 0.0) if b == i else (0.0, fb[j, INV])
        return 0.0, 0.0
    b, mover, sign = (i, j, -1.0) if inv_i == 0.0 else (j, i, 1.0)
    if ib[b, FROZEN] != 1 or fb[b, INV] == 0.0:
        return inv_i, inv_j
    hx, hy = _held(fb, ib, mover, b, t, held_t, held_by, held_n)
    if not sign * (nx * hx + ny * hy) < 0.0:  # (pushed into its holder: the mover)
        return inv_i, inv_j
    if _yields(fb, ib, b, held_by[mover, HOLDER], t, held_t, held_by) <= 0:
        return inv_i, inv_j
    return (fb[i, INV], inv_j) if b == i else (inv_i, fb[j, INV])


@inlined_helper
def _yields(fb, ib, b, other, t, held_t, held_by):
    """Whether body ``b``, of finite mass and frozen by a touch, yields to ``other``,
    of infinite mass and moving: 1 if it does (free again, counted), -1 if it did
    ``YIELDS_AT_ONCE`` times at this moment already, 0 for any other pair."""
    if b < 0 or ib[b, FROZEN] != 1 or fb[b, INV] == 0.0:
        return 0
    if ib[other, FIXED] != 0 or ib[other, FROZEN] != 0 or fb[other, INV] != 0.0:
        return 0
    if fb[other, MVX] == 0.0 and fb[other, MVY] == 0.0:
        return 0
    if t - held_t[b, YIELDED_AT] > SLACK * max(1.0, abs(t)):
        held_t[b, YIELDED_AT] = t
        held_by[b, YIELD_COUNT] = 0
    held_by[b, YIELD_COUNT] += 1
    if held_by[b, YIELD_COUNT] > YIELDS_AT_ONCE:
        return -1
    ib[b, FROZEN] = 0
    return 1


@inlined_helper
def crush(fb, ib, b):
    """Stop body ``b`` where it is for the rest of the step, crushed (``FROZEN`` set to
    ``CRUSHED``): as a frozen body, it cannot be moved and keeps its velocity; the
    end's cleanup leaves its overlaps for ``StepResult.overlaps`` to name."""
    ib[b, FROZEN] = CRUSHED
    fb[b, MVX] = 0.0
    fb[b, MVY] = 0.0
