"""The end of ``World.step``'s compiled core: every stopping pair that rounding left
overlapping at ``dt`` is taken apart (``step_core.finish`` calls it once the
moving bodies are at ``dt``)."""

from __future__ import annotations

import numpy as np

from collide2d._kernels.jit import kernel
from collide2d._kernels.step_grid import gather_near
from collide2d._kernels.step_respond import CROSS, IGNORE, apart, nudge_off_both
from collide2d._kernels.step_shapes import (
    FIXED,
    GROUP,
    INV,
    X,
    Y,
    advance,
    overlap_at,
    position,
    separation,
)

CLEANUP_PASSES = 8
"""Passes over the bodies before the cleanup gives up (each pass moves only bodies
still overlapping; a scene needing more is left for the next step)."""


@kernel
def settle(fb, ib, responses, dt, moving, near, marks, fstart, fbody, head, nbody, nnext, meets,
           cols, cand, stamp, pin_by, pin_nx, pin_ny):  # fmt: skip
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
    way meeting another so pinned (a chain held at both ends). Of two movable bodies, one
    already nudged by the cleanup and one not, the other yields: three bodies
    pushed along together went round a cycle otherwise, the middle one nudged
    off the last into the first and back, pass after pass (found by hypothesis).
    ``pin_by``, ``pin_nx`` and ``pin_ny`` are working rows of a body each (any
    values: set here for the moving bodies, the only ones they are read for).
    Returns how many nudges it made, and the last stamp it used.
    """
    n = fb.shape[0]
    nudged = 0
    pinned = np.zeros(n, dtype=np.bool_)
    for i in moving:  # (read and written for moving bodies only)
        pin_by[i] = -1
        pin_nx[i] = 0.0
        pin_ny[i] = 0.0
    yielded = np.zeros(n, dtype=np.bool_)
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
                if rc in (IGNORE, CROSS):
                    continue
                xi, yi = fb[i, X], fb[i, Y]
                xj, yj = position(fb, j, dt)
                if not overlap_at(fb, ib, i, xi, yi, j, xj, yj):
                    continue
                inv_i = fb[i, INV]
                inv_j = 0.0 if ib[j, FIXED] != 0 else fb[j, INV]
                if inv_j > 0.0 and pinned[i] and pinned[j]:
                    inv_j = 0.0  # a chain held at both ends: i leaves j and its pin
                elif inv_j > 0.0 and (pinned[i] or pinned[j]):  # two movable bodies
                    inv_i = 0.0 if pinned[i] else inv_i
                    inv_j = 0.0 if pinned[j] else inv_j
                elif inv_i > 0.0 and inv_j > 0.0 and yielded[i] != yielded[j]:
                    inv_i = 0.0 if yielded[i] else inv_i  # the one not nudged yet
                    inv_j = 0.0 if yielded[j] else inv_j  # yields this time
                if inv_i + inv_j == 0.0:
                    continue
                nx, ny, _depth = separation(fb, ib, i, xi, yi, j, xj, yj)
                if ib[j, FIXED] == 0:
                    advance(fb, j, dt)
                k2 = pin_by[i]
                wedged = inv_j == 0.0 and k2 >= 0 and k2 != j
                if wedged and (nx + pin_nx[i] != 0.0 or ny + pin_ny[i] != 0.0):
                    nudge_off_both(fb, ib, i, j, k2, dt, nx + pin_nx[i], ny + pin_ny[i])
                else:
                    apart(fb, ib, i, j, dt, nx, ny, inv_i, inv_j)
                    if inv_i > 0.0 and inv_j > 0.0:  # the more mobile one moved
                        yielded[i if inv_i >= inv_j else j] = True
                moved[i] = True  # checked again in the next pass (a pair that a
                moved[j] = True  # nudge made is found from either of its bodies)
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
            break
        due = moved
    return nudged, stamp
