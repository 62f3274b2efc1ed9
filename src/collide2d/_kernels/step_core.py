"""``World.step``'s compiled core: every body moves at once; the earliest contact is
resolved first, then the next, to the end of the step (event-driven simulation, as
hard-disk molecular dynamics has done since Alder and Wainwright).

Every pair of bodies that share a grid cell (``step_grid``) has its next contact
predicted (``step_shapes.predict``) and queued (``step_queue``). The earliest event
is taken; a stale one (a body changed since it was predicted) is dropped; a contact
changes the two bodies (response below), which are brought to that moment, given new
event counters and predicted again against the bodies near them; every other body
keeps its local time. A cell crossing changes which bodies are near.

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
    QUEUE_WIDTH,
    STAMP_END,
    carve,
)
from collide2d._kernels.step_grid import (
    GROW_DOWN,
    GROW_LEFT,
    GROW_RIGHT,
    GROW_UP,
    SHRINK_BOTTOM,
    SHRINK_LEFT,
    SHRINK_RIGHT,
    SHRINK_TOP,
    covers_meet,
    fixed_lists,
    gather,
    gather_near,
    lane_of,
    lanes,
    link,
    list_cover,
    next_crossing,
    recover,
    unlink,
)
from collide2d._kernels.step_grid import cover as set_cover
from collide2d._kernels.step_queue import (
    flush,
    lists_grown,
    new_queue,
    pack,
    pend,
    refresh,
    set_add,
    set_grown,
    set_has,
    take,
    unpack,
)
from collide2d._kernels.step_respond import (
    BOUNCE,
    CROSS,
    IGNORE,
    SLIDE,
    TOUCH,
    apart,
    freeze,
    mobility,
    respond,
    slide_held,
)
from collide2d._kernels.step_settle import settle
from collide2d._kernels.step_shapes import (
    COUNTER,
    CROSSING,
    CX0,
    CX1,
    CY0,
    CY1,
    FIXED,
    FROZEN,
    GROUP,
    MVX,
    MVY,
    NEVENTS,
    ORDER_STARTED,
    OWNER,
    STAMP,
    VX,
    VY,
    X,
    Y,
    advance,
    contact_normal,
    contact_point,
    may_meet,
    overlap_at_end,
    position,
    predict,
    separation,
)

APPROACH_ULPS = 64.0 * 2.0**-52
"""A pair approaching slower than this share of its bodies' speeds is not approaching:
that is what rounding leaves of a slide (two bodies a slide left moving together can
differ by a few ulps in velocity, and would meet again, an ulp apart, much later)."""
# stats
EVENTS, STALE, PREDICTIONS, CROSSINGS, CAPPED, NUDGED = range(6)


@kernel
def _log(lf, li, count, t, a, b, nx, ny, px, py, response, started):
    """Write contact ``count`` (the caller made room); return the new count."""
    lf[count, 0] = t
    lf[count, 1] = nx
    lf[count, 2] = ny
    lf[count, 3] = px
    lf[count, 4] = py
    li[count, 0] = a
    li[count, 1] = b
    li[count, 2] = response
    li[count, 3] = started
    return count + 1


@kernel
def _log_grown(lf, li):
    """The contact log with twice the room."""
    count = lf.shape[0]
    nf = np.empty((2 * count, 5))
    ni = np.empty((2 * count, 4), dtype=np.int64)
    nf[:count] = lf
    ni[:count] = li
    return nf, ni


@kernel
def _pair_key(ib, i, j, owners):
    return ib[i, OWNER] * owners + ib[j, OWNER]


@kernel
def run_step(fb, ib, responses, restitution, dt, cap, grid, moving, fixed, room, stats, ints,
             floats, width, used, kept, lists, stamp):  # fmt: skip
    """Run one step of ``dt`` over the bodies (rows of ``fb``/``ib``, numbered in the
    order their items were added); ``moving`` and ``fixed`` list the bodies that can
    and cannot move, ``room`` bounds the cells a moving body ever covers. Rows are
    left at ``dt`` with their new velocities. Working arrays are carved from the
    pools ``ints`` and ``floats`` (``step_arena``); the queue's lists start ``width``
    events wide; ``used`` is told how much of each pool the step used and how wide
    the lists grew. The fixed bodies' cell lists are built in the pool ``lists``
    (``step_grid.fixed_lists``), or, when ``kept``, are there already, built by an
    earlier step over the same grid from the same fixed rows (covers set, rows
    untouched since); ``stamp`` is where the gathers' stamps start (above every
    stamp a kept row may hold), and ``used`` is told where they ended. Returns the
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
    for k in range(room):
        free[k] = room - 1 - k
    nfree = room
    for i in moving:
        nfree = list_cover(ib, head, nbody, nnext, free, nfree, cols, i, True)
    row, iused = carve(ints, iused, n)  # a moving body's list in the queue
    row[:] = -1
    for r in range(moving.shape[0]):
        row[moving[r]] = r
    et, ek, ex, elen, emin, ht, hk, hrow, hpos, iused, fused = new_queue(
        moving.shape[0], width, ints, iused, floats, fused
    )
    lf = np.empty((16, 5))
    li = np.empty((16, 4), dtype=np.int64)
    logged = 0
    crossed = np.full(64, -1, dtype=np.int64)
    ncrossed = 0
    cand, iused = carve(ints, iused, n)
    qt, fused = carve(floats, fused, n + 1)  # a loop's events, until it ends (pend)
    qk, iused = carve(ints, iused, n + 1)
    qx, iused = carve(ints, iused, n + 1)
    changed = np.empty(2, dtype=np.int64)
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
    # moving bodies once, from the smaller number).
    for i in moving:
        r = row[i]
        stamp += 1
        count = gather_near(ib, fstart, fbody, head, nbody, nnext, meets, cols, i, stamp, cand)
        npend = 0
        for k in range(count):
            j = cand[k]
            if ib[j, FIXED] == 0 and j < i:
                continue
            lo, hi = (i, j) if i < j else (j, i)
            code = responses[ib[lo, GROUP], ib[hi, GROUP]]
            if code == IGNORE:
                continue
            if code == CROSS and set_has(crossed, _pair_key(ib, lo, hi, owners)):
                continue
            if not may_meet(fb, ib, lo, hi, 0.0, dt):
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
        if npend > et.shape[1]:
            et, ek, ex = lists_grown(et, ek, ex, npend)
        flush(et, ek, ex, elen, r, qt, qk, qx, npend)
        refresh(et, ek, ex, elen, emin, ht, hk, hrow, hpos, r, i, ib)

    # The earliest event is the earliest of the body at the heap's top. Its row is
    # scanned again (``dirty``) before the next, unless the body changed (predicted
    # again from scratch).
    dirty = -1
    while True:
        if dirty >= 0:
            stats[STALE] += refresh(et, ek, ex, elen, emin, ht, hk, hrow, hpos, dirty,
                                    moving[dirty], ib)  # fmt: skip
        if ht.shape[0] == 0 or ht[0] == np.inf:  # no moving body, or no event left
            break
        dirty = hrow[0]
        t, key, extra = take(et, ek, ex, elen, emin, dirty)
        order, lo, hi = unpack(key)
        if order == CROSSING:
            i = lo
            stats[CROSSINGS] += 1
            x0, x1, y0, y1 = ib[i, CX0], ib[i, CX1], ib[i, CY0], ib[i, CY1]
            nx0, nx1, ny0, ny1 = x0, x1, y0, y1
            code = hi
            if code == GROW_RIGHT:
                nx0, nx1 = x1 + 1, x1 + 1
            elif code == GROW_LEFT:
                nx0, nx1 = x0 - 1, x0 - 1
            elif code == GROW_DOWN:
                ny0, ny1 = y1 + 1, y1 + 1
            elif code == GROW_UP:
                ny0, ny1 = y0 - 1, y0 - 1
            elif code == SHRINK_LEFT:
                nx1 = x0
            elif code == SHRINK_RIGHT:
                nx0 = x1
            elif code == SHRINK_TOP:
                ny1 = y0
            else:  # SHRINK_BOTTOM
                ny0 = y1
            grow = code in (GROW_RIGHT, GROW_LEFT, GROW_DOWN, GROW_UP)
            count = 0
            if grow:
                stamp += 1
                count = gather(
                    ib, fstart, fbody, head, nbody, nnext, meets, cols,
                    nx0, nx1, ny0, ny1, i, stamp, cand, 0,
                )  # fmt: skip
            lane = lane_of(ib, head, i)
            for cy in range(ny0, ny1 + 1):
                for cx in range(nx0, nx1 + 1):
                    if grow:
                        nfree = link(head, nbody, nnext, free, nfree, cy * cols + cx, i, lane)
                    else:
                        nfree = unlink(head, nbody, nnext, free, nfree, cy * cols + cx, i, lane)
            if code in (GROW_RIGHT, SHRINK_RIGHT):
                ib[i, CX1] += 1 if code == GROW_RIGHT else -1
            elif code in (GROW_LEFT, SHRINK_LEFT):
                ib[i, CX0] += -1 if code == GROW_LEFT else 1
            elif code in (GROW_DOWN, SHRINK_BOTTOM):
                ib[i, CY1] += 1 if code == GROW_DOWN else -1
            else:
                ib[i, CY0] += -1 if code == GROW_UP else 1
            npend = 0
            for k in range(count):
                j = cand[k]
                if covers_meet(ib, j, x0, x1, y0, y1):
                    continue  # near before the crossing: predicted already
                a, b = (i, j) if i < j else (j, i)
                rc = responses[ib[a, GROUP], ib[b, GROUP]]
                if rc == IGNORE or (rc == CROSS and set_has(crossed, _pair_key(ib, a, b, owners))):
                    continue
                if not may_meet(fb, ib, a, b, t, dt):
                    continue
                stats[PREDICTIONS] += 1
                tp, op, axis = predict(fb, ib, a, b, t, dt)
                if tp < dt:
                    npend = pend(qt, qk, qx, npend, tp, pack(op, a, b), 2 * ib[j, COUNTER] + axis)
                elif overlap_at_end(fb, ib, a, b, dt):
                    near[a] = True
                    near[b] = True
            tc, code = next_crossing(fb, ib, i, t, grid)
            if t + tc < dt:
                npend = pend(qt, qk, qx, npend, t + tc, pack(CROSSING, i, code), 0)
            if elen[dirty] + npend > et.shape[1]:  # full: drop its stale events first
                stats[STALE] += refresh(et, ek, ex, elen, emin, ht, hk, hrow, hpos, dirty, i,
                                        ib)  # fmt: skip
                if elen[dirty] + npend > et.shape[1]:
                    et, ek, ex = lists_grown(et, ek, ex, elen[dirty] + npend)
            flush(et, ek, ex, elen, dirty, qt, qk, qx, npend)
            continue

        i, j = lo, hi
        if ib[i if moving[dirty] == j else j, COUNTER] != extra >> 1:
            stats[STALE] += 1
            continue
        stats[EVENTS] += 1
        if logged == lf.shape[0]:
            lf, li = _log_grown(lf, li)
        code = responses[ib[i, GROUP], ib[j, GROUP]]
        started = order == ORDER_STARTED
        # Reported as started only at the step's start: later, an overlap found at an
        # event is one of rounding (bodies left touching, moved on by an ulp apart)
        begun = started and t == 0.0
        xi, yi = position(fb, i, t)
        xj, yj = position(fb, j, t)
        if started:
            nx, ny, depth = separation(fb, ib, i, xi, yi, j, xj, yj)
        else:
            nx, ny = contact_normal(fb, ib, i, xi, yi, j, xj, yj, extra & 1)
            depth = 0.0
        inv_i = mobility(fb, ib, i)
        inv_j = mobility(fb, ib, j)
        if code != CROSS and inv_i + inv_j == 0.0 and code != TOUCH:
            code = CROSS  # two bodies that cannot be moved pass through each other
            near[i] = True  # (not predicted again: the end's cleanup, which moves a
            near[j] = True  # frozen body, takes apart those rounding left overlapping)
        if code == CROSS:
            key = _pair_key(ib, i, j, owners)
            if set_has(crossed, key):
                continue
            if 2 * ncrossed + 2 > crossed.shape[0]:
                crossed = set_grown(crossed)
            ncrossed = set_add(crossed, ncrossed, key)
            px, py = contact_point(fb, ib, i, xi, yi, j, xj, yj)
            logged = _log(
                lf, li, logged, t, ib[i, OWNER], ib[j, OWNER], nx, ny, px, py, CROSS, begun
            )
            continue
        u = (fb[i, MVX] - fb[j, MVX]) * nx + (fb[i, MVY] - fb[j, MVY]) * ny
        speeds = abs(fb[i, MVX]) + abs(fb[i, MVY]) + abs(fb[j, MVX]) + abs(fb[j, MVY])
        report = u < -APPROACH_ULPS * speeds or (started and t == 0.0)
        # A touch freezes both bodies; one frozen already is not changed by it (counted
        # as changed, two frozen bodies an ulp apart were predicted to meet again at
        # the same moment, for ever).
        moved_i = inv_i > 0.0 or (code == TOUCH and ib[i, FROZEN] == 0)
        moved_j = inv_j > 0.0 or (code == TOUCH and ib[j, FROZEN] == 0)
        if moved_i:
            advance(fb, i, t)
        if moved_j:
            advance(fb, j, t)
        shoved = started and depth > 0.0 and inv_i + inv_j > 0.0
        if shoved:
            share = depth / (inv_i + inv_j)
            fb[i, X] += nx * share * inv_i
            fb[i, Y] += ny * share * inv_i
            fb[j, X] -= nx * share * inv_j
            fb[j, Y] -= ny * share * inv_j
            # Pushed out, a body may leave the cells it covered: it is listed again,
            # or bodies near its new place would never be looked at.
            for b in (i, j):
                if ib[b, FIXED] == 0 and mobility(fb, ib, b) > 0.0:
                    nfree = recover(fb, ib, head, nbody, nnext, free, nfree, cols, b, t, grid)
        nudged = apart(fb, ib, i, j, t, nx, ny, inv_i, inv_j) if inv_i + inv_j > 0.0 else False
        if not report:
            # Not approaching: a contact of rounding size, only taken apart (if at all);
            # if nothing moved, predicting the pair again would find it again.
            if not nudged and not shoved:
                near[i] = True  # moved to t, not predicted again: checked at the end
                near[j] = True
                continue
            stats[NUDGED] += 1
        elif code == TOUCH:
            if ib[i, FIXED] == 0:
                freeze(fb, ib, i)
            if ib[j, FIXED] == 0:
                freeze(fb, ib, j)
        else:
            if code == SLIDE:  # with what holds either body at this moment
                slide_held(fb, ib, i, j, nx, ny, inv_i, inv_j, t, held_t, held_by, held_n)
            else:
                respond(fb, i, j, nx, ny, inv_i, inv_j, restitution[ib[i, GROUP], ib[j, GROUP]])
        if report:
            xi, yi = position(fb, i, t)
            xj, yj = position(fb, j, t)
            px, py = contact_point(fb, ib, i, xi, yi, j, xj, yj)
            logged = _log(
                lf, li, logged, t, ib[i, OWNER], ib[j, OWNER], nx, ny, px, py, code, begun
            )
        # A slide or bounce leaves the pair not approaching (exactly; by rounding it
        # may approach by an ulp, which must not make events without end).
        resolved = report and (code in (SLIDE, BOUNCE))
        # The changed bodies: new counters, the event cap, new predictions.
        nchanged = 0
        for b, moved in ((i, moved_i), (j, moved_j)):
            if not moved or ib[b, FIXED] != 0:
                near[b] = True  # not predicted again: checked at the end
                continue
            if ib[b, FROZEN] == 0:
                fb[b, VX] = fb[b, MVX]
                fb[b, VY] = fb[b, MVY]
                ib[b, NEVENTS] += 1
                if ib[b, NEVENTS] > cap:
                    freeze(fb, ib, b)
                    stats[CAPPED] += 1
                    resolved = False  # stopped: the other may now run into it
            ib[b, COUNTER] += 1
            changed[nchanged] = b
            nchanged += 1
        for m in range(nchanged):
            b = changed[m]
            stamp += 1
            if m == 1:
                ib[changed[0], STAMP] = stamp  # the pair was predicted from the first
            count = gather_near(ib, fstart, fbody, head, nbody, nnext, meets, cols, b, stamp, cand)
            rb = row[b]
            if rb == dirty:
                dirty = -1  # predicted again from scratch below
            elen[rb] = 0
            npend = 0
            for k in range(count):
                other = cand[k]
                a2, b2 = (b, other) if b < other else (other, b)
                rc = responses[ib[a2, GROUP], ib[b2, GROUP]]
                if rc == IGNORE or (
                    rc == CROSS and set_has(crossed, _pair_key(ib, a2, b2, owners))
                ):
                    continue
                if not may_meet(fb, ib, a2, b2, t, dt):
                    continue
                stats[PREDICTIONS] += 1
                tp, op, axis = predict(fb, ib, a2, b2, t, dt)
                # (the pair just resolved is met again at once only by rounding)
                if tp < dt and not (resolved and a2 == i and b2 == j and tp <= t):
                    key = pack(op, a2, b2)
                    npend = pend(qt, qk, qx, npend, tp, key, 2 * ib[other, COUNTER] + axis)
                elif overlap_at_end(fb, ib, a2, b2, dt):
                    near[a2] = True
                    near[b2] = True
            tc, ccode = next_crossing(fb, ib, b, t, grid)
            if t + tc < dt:
                npend = pend(qt, qk, qx, npend, t + tc, pack(CROSSING, b, ccode), 0)
            if npend > et.shape[1]:
                et, ek, ex = lists_grown(et, ek, ex, npend)
            flush(et, ek, ex, elen, rb, qt, qk, qx, npend)
            refresh(et, ek, ex, elen, emin, ht, hk, hrow, hpos, rb, b, ib)

    # The end of the step: every moving body brought to dt, then rounding undone.
    for i in moving:
        advance(fb, i, dt)
    pin_by, iused = carve(ints, iused, n)
    pin_nx, fused = carve(floats, fused, n)
    pin_ny, fused = carve(floats, fused, n)
    cleaned, stamp = settle(
        fb, ib, responses, dt, moving, near, fstart, fbody, head, nbody, nnext, meets, cols,
        cand, stamp, pin_by, pin_nx, pin_ny,
    )  # fmt: skip
    stats[NUDGED] += cleaned
    used[STAMP_END] = stamp
    used[INTS_USED] = iused
    used[FLOATS_USED] = fused
    used[QUEUE_WIDTH] = et.shape[1]
    return lf[:logged].copy(), li[:logged].copy()
