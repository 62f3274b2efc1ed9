"""The end of ``World.step``'s compiled core: every stopping pair that rounding left
overlapping at ``dt`` is taken apart (``step_core.finish`` calls it once the
moving bodies are at ``dt``)."""

from __future__ import annotations

import numpy as np

from collide2d._kernels.codes import CROSS, IGNORE
from collide2d._kernels.jit import kernel
from collide2d._kernels.step.step_grid import gather_near
from collide2d._kernels.step.step_respond import CRUSHED, apart_within, nudge_off_both
from collide2d._kernels.step.step_shapes import (
    FIXED,
    FROZEN,
    GROUP,
    INV,
    OWNER,
    TREF,
    X,
    Y,
    advance,
    bounds_at,
    overlap_at,
    position,
    separation,
)

CLEANUP_PASSES = 16
"""Passes over the bodies before the cleanup gives up (each pass moves only bodies
still overlapping; what is left is put back where the step began, :func:`put_back`)."""
SETTLE_MOVES = 4
"""Nudges a body takes in the cleanup before it holds still (:func:`settle`)."""
SHIFTS = 4
"""Times a body put back may be put back again, carried otherwise (:func:`put_back`)."""
SETTLE_DOUBLINGS = 36
"""How far the cleanup's nudges go: from an ulp, doubled at most this many times (a
few hundred-thousandths of the coordinates). An overlap they do not clear is put
back (:func:`put_back`). Nudged along a stale pin's normal, a box in a pile of
boxes and discs once went a whole unit up, out of a box beside it and into the
one above, and the pile's cleanup went on from there. At 24 doublings (a few
billionths) the swarm put 68 actors back in 40 steps: its cleanup takes apart
overlaps larger than rounding (none put back from 36 up)."""


@kernel
def settle(fb, ib, responses, dt, moving, near, marks, fstart, fbody, head, nbody, nnext, meets,
           cols, cand, stamp, pin_by, pin_nx, pin_ny, stuck):  # fmt: skip
    """Take apart, at ``dt``, every stopping pair left overlapping by rounding (the
    bodies at ``dt`` already), looking only at the bodies marked ``near``, then, pass
    after pass, only at the bodies the pass before moved (or pushed against): a pair
    of bodies neither of which moved cannot have come to overlap.

    A body nudged clear of one that cannot move is pinned for the rest of the
    cleanup: a later overlap with a movable body moves the other one, so a box
    squeezed between a wall and a pusher is not nudged back into the wall, pass
    after pass. Against something that cannot move it is still nudged. A body wedged
    between two that cannot move is pushed along the sum of the two normals, clear
    of both (off one alone, it went into the other), and so is a body pinned that
    way meeting another so pinned (a chain held at both ends), unless the other
    can leave it without going into its own pin (it moves then). Of two movable bodies, one
    already nudged by the cleanup and one not, the other yields: three bodies
    pushed along together went round a cycle otherwise, the middle one nudged
    off the last into the first and back, pass after pass (found by hypothesis).
    ``pin_by``, ``pin_nx`` and ``pin_ny`` are working rows of a body each (any
    values: set here for the moving bodies, the only ones they are read for).
    A body nudged ``SETTLE_MOVES`` times holds still for the rest of the cleanup:
    the others of its overlaps yield. A disc caged by a wall and two discs that
    press on it (a pile under gravity, all four capped at one moment) was nudged
    off each pair of them into the third, twice as far each time, 1e-15 to 2e-9 in
    a step and 0.07 three steps later, until discs were through the wall; held,
    the disc above it, free to go up, yields. The bodies that can be moved and still
    overlap after the last pass (or that two held bodies left) are marked in
    ``stuck`` (all False on entry), for :func:`put_back`. Returns how many nudges
    it made, how many bodies are stuck, and the last stamp it used.
    """
    n = ib.shape[0]
    nudged = 0
    nstuck = 0  # bodies stuck
    pinned = np.zeros(n, dtype=np.bool_)
    for i in moving:  # (read and written for moving bodies only)
        pin_by[i] = -1
        pin_nx[i] = 0.0
        pin_ny[i] = 0.0
    yielded = np.zeros(n, dtype=np.bool_)
    moves = np.zeros(n, dtype=np.uint8)
    seen = near.copy()  # every body checked (near, or moved since)
    due = near  # the first pass: bodies something came near; then those moved
    for _ in range(CLEANUP_PASSES):
        clean = True
        moved = np.zeros(n, dtype=np.bool_)
        for i in moving:
            if not due[i]:
                continue  # nothing came near it, or nothing near it has moved since
            stamp += 1
            count = gather_near(
                ib, marks, fstart, fbody, head, nbody, nnext, meets, cols, i, stamp, cand
            )
            for k in range(count):
                j = cand[k]
                rc = responses[ib[i, GROUP], ib[j, GROUP]]
                if rc in (IGNORE, CROSS) or CRUSHED in (ib[i, FROZEN], ib[j, FROZEN]):
                    continue  # (a crushed body's overlaps are left, to be named)
                xi, yi = fb[i, X], fb[i, Y]
                xj, yj = position(fb, j, dt)
                if not overlap_at(fb, ib, i, xi, yi, j, xj, yj):
                    continue
                inv_i = fb[i, INV]
                inv_j = 0.0 if ib[j, FIXED] != 0 else fb[j, INV]
                held_i, held_j = moves[i] >= SETTLE_MOVES, moves[j] >= SETTLE_MOVES
                if held_i or held_j:  # the one not held yields, if it can move
                    inv_i = 0.0 if held_i else inv_i
                    inv_j = 0.0 if held_j else inv_j
                elif inv_j > 0.0 and pinned[i] and pinned[j]:
                    nx, ny, _depth = separation(fb, ib, i, xi, yi, j, xj, yj)
                    if nx * pin_nx[i] + ny * pin_ny[i] < 0.0 <= -nx * pin_nx[j] - ny * pin_ny[j]:
                        inv_i = 0.0  # j can leave i without going into its pin
                    else:
                        inv_j = 0.0  # a chain held at both ends: i leaves j and its pin
                elif inv_j > 0.0 and (pinned[i] or pinned[j]):  # two movable bodies
                    inv_i = 0.0 if pinned[i] else inv_i
                    inv_j = 0.0 if pinned[j] else inv_j
                elif inv_i > 0.0 and inv_j > 0.0 and yielded[i] != yielded[j]:
                    inv_i = 0.0 if yielded[i] else inv_i  # the one not nudged yet
                    inv_j = 0.0 if yielded[j] else inv_j  # yields this time
                if inv_i + inv_j == 0.0:
                    if held_i or held_j:  # both held: neither moves again
                        nstuck = _mark(fb, ib, stuck, i, j, nstuck)
                    continue
                nx, ny, _depth = separation(fb, ib, i, xi, yi, j, xj, yj)
                if ib[j, FIXED] == 0:
                    advance(fb, j, dt)
                k2 = pin_by[i]
                wedged = inv_j == 0.0 and k2 >= 0 and k2 != j
                if wedged and (nx + pin_nx[i] != 0.0 or ny + pin_ny[i] != 0.0):
                    dx, dy = nx + pin_nx[i], ny + pin_ny[i]
                    freed = nudge_off_both(fb, ib, i, j, k2, dt, dx, dy, SETTLE_DOUBLINGS)
                else:
                    freed = apart_within(fb, ib, i, j, dt, nx, ny, inv_i, inv_j, SETTLE_DOUBLINGS)
                if not freed:  # not of rounding size: left to put_back
                    nstuck = _mark(fb, ib, stuck, i, j, nstuck)
                    continue
                if inv_i > 0.0 and inv_j > 0.0:  # the more mobile one moved
                    yielded[i if inv_i >= inv_j else j] = True
                moves[i if inv_i >= inv_j else j] += 1
                moved[i] = True  # checked again in the next pass (a pair that a
                moved[j] = True  # nudge made is found from either of its bodies)
                seen[i] = True
                seen[j] = True
                if inv_j == 0.0:
                    pinned[i] = True
                    pin_by[i] = j
                    pin_nx[i] = nx
                    pin_ny[i] = ny
                elif inv_i == 0.0:
                    pinned[j] = True
                nudged += 1
                clean = False
        if clean:
            return nudged, nstuck, stamp
        due = moved
    for i in moving:  # the passes ran out: the bodies still overlapping
        if not seen[i]:
            continue
        stamp += 1
        found = gather_near(
            ib, marks, fstart, fbody, head, nbody, nnext, meets, cols, i, stamp, cand
        )
        for k in range(found):
            j = cand[k]
            if responses[ib[i, GROUP], ib[j, GROUP]] in (IGNORE, CROSS):
                continue
            if CRUSHED in (ib[i, FROZEN], ib[j, FROZEN]):
                continue
            xj, yj = position(fb, j, dt)
            if overlap_at(fb, ib, i, fb[i, X], fb[i, Y], j, xj, yj):
                nstuck = _mark(fb, ib, stuck, i, j, nstuck)
    return nudged, nstuck, stamp


@kernel
def _mark(fb, ib, stuck, i, j, count):
    """Mark ``i`` and ``j`` stuck (those that can be moved and are not yet); return
    the new count."""
    for b in (i, j):
        if not stuck[b] and ib[b, FIXED] == 0 and fb[b, INV] > 0.0:
            stuck[b] = True
            count += 1
    return count


@kernel
def put_back(fb, ib, responses, dt, moving, stuck, start_x, start_y):
    """Put the bodies marked ``stuck`` back where the step began (``start_x``,
    ``start_y``; their rows at ``dt``, velocities kept), then every body that can be
    moved and overlaps one put back, and so on: where the step began no stopping
    pair overlapped (the step before left none), so this ends, at worst with every
    body where it began. The last resort of the cleanup (:func:`settle`), when its
    nudges cannot take a jam apart: a pile's bodies, capped at one moment, each
    pressed by the others into the walls, stay one step where they were (at rest,
    they would have). A body that cannot be moved but moves (a kinematic body: a
    lift) is never put back; a body it would overlap where it began is carried by
    it instead (put where it began, moved as far as the kinematic body moved in the
    step), and so are the bodies put back because they overlap one carried (a box
    on a lift, squeezed between it and a capped box above, the lift rising: the
    box was left inside the lift). A body put back again (carried otherwise: it
    overlaps one carried by another body) at most ``SHIFTS`` times. What rounding
    leaves overlapping (carried, a box's edge and the lift's rounded apart) is for
    the cleanup again (``step_core.finish``: the bodies put back listed in their
    cells again, :func:`settle` from them). Each body put back is compared
    with every other (a rare path, kept simple). Returns how many were put back."""
    n = ib.shape[0]
    queue = np.empty((SHIFTS + 1) * n, dtype=np.int64)
    shift = np.zeros((2, n))
    times = np.zeros(n, dtype=np.int64)  # how often a body was put back again
    count = 0
    for i in moving:
        if stuck[i]:
            queue[count] = i
            count += 1
    done = 0
    while done < count:
        b = queue[done]
        done += 1
        fb[b, X] = start_x[b] + shift[0, b]
        fb[b, Y] = start_y[b] + shift[1, b]
        fb[b, TREF] = dt
        for j in range(n):  # a kinematic body it overlaps there carries it
            if j == b or ib[j, FIXED] != 0 or fb[j, INV] > 0.0 or not _stops(responses, ib, b, j):
                continue
            xj, yj = position(fb, j, dt)
            if overlap_at(fb, ib, b, fb[b, X], fb[b, Y], j, xj, yj):
                shift[0, b] = xj - start_x[j]
                shift[1, b] = yj - start_y[j]
                fb[b, X] = start_x[b] + shift[0, b]
                fb[b, Y] = start_y[b] + shift[1, b]
                break
        x0, y0, x1, y1 = bounds_at(fb, ib, b, fb[b, X], fb[b, Y])
        for j in range(n):
            if j == b or ib[j, FIXED] != 0 or not fb[j, INV] > 0.0:
                continue
            same = shift[0, j] == shift[0, b] and shift[1, j] == shift[1, b]
            if (stuck[j] and same) or times[j] >= SHIFTS or not _stops(responses, ib, b, j):
                continue  # (placed with the same shift: nudged off it above)
            xj, yj = position(fb, j, dt)
            a0, b0, a1, b1 = bounds_at(fb, ib, j, xj, yj)
            if a0 > x1 or x0 > a1 or b0 > y1 or y0 > b1:
                continue
            if overlap_at(fb, ib, b, fb[b, X], fb[b, Y], j, xj, yj):
                stuck[j] = True
                times[j] += 1
                shift[0, j] = shift[0, b]  # (carried alike)
                shift[1, j] = shift[1, b]
                queue[count] = j
                count += 1
    return done


@kernel
def _stops(responses, ib, b, j):
    """Whether the pair's response stops them (not ``ignore`` nor ``cross``)."""
    return responses[ib[b, GROUP], ib[j, GROUP]] not in (IGNORE, CROSS)


@kernel
def overlaps_left(fb, ib, responses, dt, moving, stuck, work, cols, stamp):
    """The stopping pairs the end leaves overlapping, found from the bodies ``stuck``
    marks after the last round of :func:`put_back` and :func:`settle`, and the
    crushed ones (only these can be in one: every other overlap the cleanup found it
    took apart). A pair of two bodies of infinite mass passes as ``cross`` and is not
    one. Returns the pairs' owners (``ib[:, OWNER]``: a mask's pixel boxes name the mask), each
    ``(lower, higher)``, possibly repeated, and the last stamp used."""
    out = np.empty((16, 2), dtype=np.int64)
    count = 0
    cand, marks = work.cand[0], work.marks[0]
    for i in moving:
        if not stuck[i] and ib[i, FROZEN] != CRUSHED:
            continue
        stamp += 1
        found = gather_near(ib, marks, work.fstart, work.fbody, work.head, work.nbody, work.nnext,
                            work.meets, cols, i, stamp, cand)  # fmt: skip
        for k in range(found):
            j = cand[k]
            if not _stops(responses, ib, i, j) or ib[j, OWNER] == ib[i, OWNER]:
                continue
            if fb[i, INV] == 0.0 and (ib[j, FIXED] != 0 or fb[j, INV] == 0.0):
                continue  # (two bodies of infinite mass: they pass as cross)
            xj, yj = position(fb, j, dt)
            if not overlap_at(fb, ib, i, fb[i, X], fb[i, Y], j, xj, yj):
                continue
            if count == out.shape[0]:
                grown = np.empty((2 * count, 2), dtype=np.int64)
                grown[:count] = out
                out = grown
            a, b = ib[i, OWNER], ib[j, OWNER]
            out[count, 0] = min(a, b)
            out[count, 1] = max(a, b)
            count += 1
    return out[:count], stamp
