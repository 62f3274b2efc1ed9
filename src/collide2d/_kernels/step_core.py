"""``World.step``'s compiled core: every body moves at once; the earliest contact is
resolved first, then the next, to the end of the step (event-driven simulation, as
hard-disk molecular dynamics has done since Alder and Wainwright).

Every pair of bodies that share a grid cell (``step_grid``) has its next contact
predicted (``step_shapes.predict``) and queued (``step_queue``). The earliest event
is taken; a stale one (a body changed since it was predicted) is dropped; a contact
changes the two bodies (response below), which are brought to that moment, given new
event counters and predicted again against the bodies near them; every other body
keeps its local time. A cell crossing changes which bodies are near. This module sets
the step up and makes the first predictions; the event loop is
``step_events.run_events``; the end's cleanup ``step_settle.settle``.

Responses (codes): ``IGNORE``; ``CROSS`` reported once per pair per step;
``TOUCH`` freezes both bodies for the rest of the step; ``SLIDE`` removes the
approaching part of the relative normal velocity, shared by inverse mass; ``BOUNCE``
reverses it times the restitution. A pair found overlapping is first pushed apart
along its least-penetration normal, the push shared by inverse mass. Positions are
then nudged by units in the last place until the pair no longer overlaps, so
rounding never leaves two stopping bodies overlapped.
"""

from __future__ import annotations

import numpy as np

from collide2d._kernels.jit import kernel
from collide2d._kernels.step_arena import (
    FLOATS_USED,
    INTS_USED,
    LISTS_USED,
    LOG_ROOM,
    QUEUE_SIZE,
    STAMP_END,
    carve,
)
from collide2d._kernels.step_events import (
    LOG_FULL,
    NUDGED,
    PREDICTIONS,
    SET_FULL,
    log_grown,
    run_events,
)
from collide2d._kernels.step_grid import cover as set_cover
from collide2d._kernels.step_grid import (
    first_lanes,
    fixed_lists,
    gather_near,
    lanes,
    list_cover,
    next_crossing,
    prefetch_bodies,
    prefetch_cells,
    prefetch_lists,
)
from collide2d._kernels.step_queue import (
    BASE,
    CAP,
    first_key,
    flush,
    heapify,
    new_queue,
    pack,
    pend,
    row_grown,
    set_grown,
)
from collide2d._kernels.step_respond import (
    IGNORE,
)
from collide2d._kernels.step_settle import settle
from collide2d._kernels.step_shapes import (
    COUNTER,
    CROSSING,
    FIXED,
    GROUP,
    OWNER,
    advance,
    meets_swept,
    overlap_at_end,
    predict,
    swept,
)


@kernel
def run_step(fb, ib, responses, restitution, dt, cap, grid, moving, fixed, room, stats, ints,
             floats, queue_size, used, kept, lists, stamp, log_room):  # fmt: skip
    """Run one step of ``dt`` over the bodies (rows of ``fb``/``ib``, numbered in the
    order their items were added); ``moving`` and ``fixed`` list the bodies that can
    and cannot move, ``room`` bounds the cells a moving body ever covers. Rows are
    left at ``dt`` with their new velocities. Working arrays are carved from the
    pools ``ints`` and ``floats`` (``step_arena``); the queue's lists' pool starts
    ``queue_size`` integers large; ``used`` is told how much of each pool the step
    used and how large the lists' pool grew. The fixed bodies' cell lists are built
    in the pool ``lists`` (``step_grid.fixed_lists``), or, when ``kept``, are there
    already, built by an earlier step over the same grid from the same fixed rows
    (covers set, rows untouched since); ``stamp`` is where the gathers' stamps start (above every
    stamp a kept row may hold), and ``used`` is told where they ended. The contact
    log starts with room for ``log_room`` contacts (what the last step needed, told
    in ``used``). Returns the
    contacts:
    ``(float rows time, nx, ny, px, py; int rows a, b, response, started)``."""
    n = fb.shape[0]
    _ox, _oy, _cell, _margin, cols, rows = grid
    owners = ib[n - 1, OWNER] + 1 if n else 1
    if kept:
        for i in moving:
            set_cover(fb, ib, i, 0.0, grid)
        fstart = lists[: cols * rows + 1]
        fbody = lists[cols * rows + 1 : cols * rows + 1 + fstart[cols * rows]]
    else:
        for i in range(n):
            set_cover(fb, ib, i, 0.0, grid)
        fstart, fbody, used[LISTS_USED] = fixed_lists(ib, fixed, cols, rows, lists, 0)
    iused, fused = 0, 0
    head, meets, iused = lanes(responses, cols * rows, ints, iused)
    nbody, iused = carve(ints, iused, room)
    nnext, iused = carve(ints, iused, room)
    free, iused = carve(ints, iused, room)
    flat_links, iused = carve(ints, iused, 3 * room)
    nlink = flat_links.reshape((room, 3))
    bfirst, iused = carve(ints, iused, n)  # (only moving bodies are listed)
    for i in moving:
        bfirst[i] = -1
    for k in range(room):
        free[k] = room - 1 - k
    nfree = room
    for i in moving:
        nfree = list_cover(ib, head, nbody, nnext, nlink, bfirst, free, nfree, cols, i, True)
    row, iused = carve(ints, iused, n)  # a moving body's list in the queue
    row[:] = -1
    for r in range(moving.shape[0]):
        row[moving[r]] = r
    et, ek, eh, ht, hk, hpos, iused = new_queue(moving.shape[0], queue_size, ints, iused)
    lf = np.empty((max(16, log_room), 5))  # (the rooms the last step needed)
    li = np.empty((max(16, log_room), 4), dtype=np.int64)
    crossed = np.full(64, -1, dtype=np.int64)  # (small: looked up at every crossing
    # pair; started as large as the last step's, its lookups missed the cache)
    cand, iused = carve(ints, iused, n)
    marks, iused = carve(ints, iused, n)  # a gather's stamps, by body
    marks[:] = 0
    qt, fused = carve(floats, fused, n + 1)  # a loop's events, until it ends (pend)
    qk, iused = carve(ints, iused, n + 1)
    qx, iused = carve(ints, iused, n + 1)
    held_t, fused = carve(floats, fused, n)  # step_respond.slide_held's
    held_t[:] = -1.0
    held_by, iused = carve(ints, iused, n)
    flat_n, fused = carve(floats, fused, 2 * n)
    held_n = flat_n.reshape((n, 2))
    # Bodies that may end the step overlapping something: every pair predicted to
    # part or meet no earlier than the end is tested where the end leaves it (as
    # the end will compute it), and its bodies marked if it overlaps there (by
    # rounding); a body that changes later is predicted, and tested, again. Only
    # these are checked at the end.
    near = np.zeros(n, dtype=np.bool_)

    # The first predictions: each moving body against every body near it (a pair of
    # moving bodies once: of one group, from the smaller number; of two, from one
    # group's side, step_grid.first_lanes).
    first = first_lanes(meets, ib, moving)
    one_lane = head.shape[0] == 1
    ahead = moving.shape[0]
    for r in range(ahead):
        i = moving[r]
        # What the bodies a few places on will read, fetched while this one is
        # predicted: their cells' list starts (four on), their lists' entries (two on),
        # the rows of the bodies in them (next).
        if r + 4 < ahead:
            prefetch_cells(ib, fstart, head, first, cols, moving[r + 4])
        if r + 2 < ahead:
            prefetch_lists(ib, fstart, fbody, head, nbody, nnext, first, cols, moving[r + 2])
        if r + 1 < ahead:
            prefetch_bodies(fb, ib, fstart, fbody, head, nbody, first, cols, moving[r + 1])
        stamp += 1
        count = gather_near(
            ib, marks, fstart, fbody, head, nbody, nnext, first, cols, i, stamp, cand
        )
        npend = 0
        ax0, ay0, ax1, ay1 = swept(fb, ib, i, 0.0, dt)
        for k in range(count):
            j = cand[k]
            if ib[j, FIXED] == 0 and j < i and (one_lane or ib[j, GROUP] == ib[i, GROUP]):
                continue
            lo, hi = (i, j) if i < j else (j, i)
            code = responses[ib[lo, GROUP], ib[hi, GROUP]]
            if code == IGNORE:
                continue
            if not meets_swept(fb, ib, j, 0.0, dt, ax0, ay0, ax1, ay1):
                continue
            stats[PREDICTIONS] += 1
            t, order, axis = predict(fb, ib, lo, hi, 0.0, dt)
            if t < dt:
                npend = pend(qt, qk, qx, npend, t, pack(order, lo, hi), 2 * ib[j, COUNTER] + axis)
            elif overlap_at_end(fb, ib, lo, hi, dt):
                near[lo] = True
                near[hi] = True
        t, code = next_crossing(fb, ib, i, 0.0, grid)
        if t < dt:
            npend = pend(qt, qk, qx, npend, t, pack(CROSSING, i, code), 0)
        if npend > eh[r, CAP]:
            et, ek = row_grown(et, ek, eh, r, npend)
        flush(et, ek, eh, r, qt, qk, qx, npend)
        first_key(et, ek, eh, ht, hk, r)
    heapify(ht, hk, hpos)

    # run_events' place: row to scan again, contacts logged, crossed pairs, stamp, free
    state = np.array([-1, 0, 0, stamp, nfree], dtype=np.int64)
    while True:
        status, et, ek = run_events(
            fb, ib, responses, restitution, dt, cap, grid, moving, row, stats,
            et, ek, eh, ht, hk, hpos,
            marks, fstart, fbody, head, nbody, nnext, nlink, bfirst, free, meets,
            cand, qt, qk, qx, held_t, held_by, held_n, near,
            lf, li, crossed, owners, state,
        )  # fmt: skip
        if status == LOG_FULL:
            lf, li = log_grown(lf, li)
        elif status == SET_FULL:
            crossed = set_grown(crossed)
        else:
            break
    logged, stamp = state[1], state[3]

    # The end of the step: every moving body brought to dt, then rounding undone.
    for i in moving:
        advance(fb, i, dt)
    pin_by, iused = carve(ints, iused, n)
    pin_nx, fused = carve(floats, fused, n)
    pin_ny, fused = carve(floats, fused, n)
    cleaned, stamp = settle(
        fb, ib, responses, dt, moving, near, marks, fstart, fbody, head, nbody, nnext, meets, cols,
        cand, stamp, pin_by, pin_nx, pin_ny,
    )  # fmt: skip
    stats[NUDGED] += cleaned
    used[STAMP_END] = stamp
    used[INTS_USED] = iused
    used[FLOATS_USED] = fused
    used[QUEUE_SIZE] = eh[moving.shape[0], BASE]
    used[LOG_ROOM] = logged
    return lf[:logged], li[:logged]
