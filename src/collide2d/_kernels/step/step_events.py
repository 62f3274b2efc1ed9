"""The event loop of ``World.step``'s compiled core (``step_core.begin`` sets the
step up, ``step_first`` makes the first predictions, ``step_core.finish`` runs this
loop and cleans up).

The earliest event is the earliest of the body at the heap's top. Its row is scanned
again (``dirty``) before the next, unless the body changed (predicted again from
scratch). A cell crossing changes which bodies are near; a contact changes its two
bodies (``step_respond``), which are brought to that moment, given new event
counters and predicted again against the bodies near them.

The loop runs until no event is left, or until the contact log, the set of crossed
pairs or the queue's pool is full (a list must move to the pool's end and there is
no room): it then returns, its place kept in ``state`` (a list left waiting: its
events in the ``pend`` buffers, and for a contact, which of the changed bodies it
had reached), and the caller grows what was full and calls it again. The loop
allocates nothing and is compiled without reference counts
(``jit.borrowing_kernel``): counting every array passed to a helper, and every copy
of one in an inlined helper, was two fifths of the bullets' frames (``perf``); the
loop (and the helpers it calls) only borrows its caller's arrays.
"""

from __future__ import annotations

import numpy as np

from collide2d._kernels.codes import BOUNCE, CROSS, IGNORE, SLIDE, TOUCH
from collide2d._kernels.jit import borrowing_kernel, inlined_helper, kernel, prefetch
from collide2d._kernels.step.step_chain import CHAIN_MAX, slide_chain
from collide2d._kernels.step.step_counts import mark_changed, rounded_again
from collide2d._kernels.step.step_grid import (
    GROW_DOWN,
    GROW_LEFT,
    GROW_RIGHT,
    covers_meet,
    gather,
    gather_near,
    lane_of,
    link,
    recover,
    trim,
)
from collide2d._kernels.step.step_log import log, write_early
from collide2d._kernels.step.step_moment import (
    MOMENT_BODIES,
    SOLVE_CONTACTS,
    SOLVE_ROWS,
    moment_slide,
    remember,
)
from collide2d._kernels.step.step_predict import pend_contact, pend_crossing
from collide2d._kernels.step.step_queue import (
    ARITY,
    CAP,
    LEN,
    flush,
    heap_size,
    home,
    refresh,
    row_moved,
    set_add,
    set_has,
    take,
    unpack,
)
from collide2d._kernels.step.step_respond import (
    APPROACH_ULPS,
    apart,
    apart_arriving,
    crush,
    freeze,
    held_shares,
    mobility,
    respond,
    slide_held,
    yielding,
)
from collide2d._kernels.step.step_shapes import (
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
    ORDER_STARTED,
    OWNER,
    X,
    Y,
    advance,
    contact_normal,
    contact_point,
    keep_meeting,
    meets_swept,
    overlap_at,
    position,
    separation,
    swept,
)

# stats
EVENTS, STALE, PREDICTIONS, CROSSINGS, CAPPED, NUDGED, PUT_BACK = range(7)
# what run_events returns
DONE, LOG_FULL, SET_FULL, POOL_FULL = range(4)
# ``state``: the row to scan again, contacts logged, crossed pairs, the last gather
# stamp, the cell lists' free entries; then, when the loop paused with POOL_FULL,
# where (PAUSED_CROSSING, PAUSED_CHANGED), the row waiting for room and its events'
# count, and for a contact, the changed body it paused at, how many changed, and
# the pair if it was resolved (``predict_changed``; its time in ``fwork[PAUSED_AT, 0]``).
DIRTY, LOGGED, NCROSSED, STAMP, NFREE = range(5)
PAUSE, PAUSE_ROW, PAUSE_COUNT, PAUSE_M, PAUSE_CHANGED, PAUSE_I, PAUSE_J = range(5, 12)
# and the contacts resolved before the loop (step_start): how many were written, of how many
EARLY_WRITTEN, EARLY_COUNT = 12, 13
STATE_SLOTS = 14
RUNNING, PAUSED_CROSSING, PAUSED_CHANGED = range(3)
# rows of ``iwork`` and ``fwork`` (:func:`scratch`)
CHANGED, CHAINED, CHAIN_WORK, MOMENT_WORK, MOMENT_PAIRS = 0, 1, 2, 5, 6
CHAIN_VALUES, MOMENT_OLD, PAUSED_AT, MOMENT_SYSTEM = 0, 3, 5, 6
WORK = 2 + max(CHAIN_MAX + 1, MOMENT_BODIES, 2 * SOLVE_CONTACTS)


@kernel
def scratch():
    """The event loop's scratch ``(iwork, fwork)``: the bodies an event changed, the
    bodies a row or a moment changed, ``step_chain.slide_chain``'s and
    ``step_moment.moment_slide``'s working rows, the paused event's time (the loop
    allocates nothing: it is compiled without reference counts, ``jit.borrowing_kernel``)."""
    return (
        np.empty((MOMENT_PAIRS + 1, WORK), dtype=np.int64),
        np.empty((MOMENT_SYSTEM + SOLVE_ROWS, WORK)),
    )


@borrowing_kernel
def pair_key(ib, i, j, owners):
    """A pair's key in the set of crossed pairs (by the items' numbers)."""
    return ib[i, OWNER] * owners + ib[j, OWNER]


@inlined_helper
def predict_changed(fb, ib, responses, dt, grid, row, lists, heap, cells, marks, cand,
                    pending, near, crossed, owners, changed, nchanged, m0, t, pair, stamp,
                    dirty, compact, sift, grow):  # fmt: skip
    """Predict the bodies ``changed[m0:nchanged]`` again from ``t``, after a contact
    (``pair``: ``(i, j)`` if it was a slide or bounce that left them apart, else
    ``(-1, -1)``). The queue's ``lists`` (``et, ek, eh``) and ``heap`` (``ht, hk,
    hpos``), the grid's ``cells`` (``fstart, fbody, head, nbody, nnext, meets``) and
    the ``pending`` buffers (``qt, qk, qx``) are ``run_events``'. Returns
    ``(paused, npend, predictions, stamp, dirty)``: ``paused`` is -1, or the place in
    ``changed`` of the body whose ``npend`` events wait in the buffers for a row the
    pool has no room for. ``compact``: the neighbours whose swept bounds meet
    ``b``'s are picked in a pass of their own first (``step_shapes.keep_meeting``),
    else tested one by one in the loop (``step_start``'s touches: a frozen body's
    fixed and frozen neighbours are dropped before that test, and the pass made the
    bullets' stopped frames slower). ``sift``: the heap is built, and a row given a
    new key takes its place in it (``step_start``'s touches come before the heap is
    built: a row keeps its place, ``step_queue.refresh``). ``grow``: a list that
    outgrows its room may move to the pool's end (``step_queue.row_moved``; not in a
    thread of its own, ``step_start.later_predictions``: it pauses there). (Its
    arguments grouped: an inlined call takes at most 30.)"""
    et, ek, eh = lists
    ht, hk, hpos = heap
    fstart, fbody, head, nbody, nnext, meets = cells
    qt, qk, qx = pending
    i, j = pair
    made = 0
    cols = grid[4]
    for m in range(m0, nchanged):
        b = changed[m]
        stamp += 1
        for q in range(m):  # (their pairs with it were predicted from them)
            marks[changed[q]] = stamp
        count = gather_near(
            ib, marks, fstart, fbody, head, nbody, nnext, meets, cols, b, stamp, cand
        )
        rb = row[b]
        if rb == dirty:
            dirty = -1  # predicted again from scratch below
        eh[rb, LEN] = 0
        npend = 0
        ax0, ay0, ax1, ay1 = swept(fb, ib, b, t, dt)
        still = ib[b, FROZEN] != 0  # (it and a body that cannot move never meet
        xb, yb = fb[b, X], fb[b, Y]  # again in this step, unless they overlap now)
        if compact:
            count = keep_meeting(fb, ib, cand, count, t, dt, ax0, ay0, ax1, ay1)
        for k in range(count):
            other = cand[k]
            a2, b2 = (b, other) if b < other else (other, b)
            rc = responses[ib[a2, GROUP], ib[b2, GROUP]]
            if rc == IGNORE or (rc == CROSS and set_has(crossed, pair_key(ib, a2, b2, owners))):
                continue
            if still and (ib[other, FIXED] != 0 or ib[other, FROZEN] != 0):
                xo, yo = position(fb, other, t)
                if not overlap_at(fb, ib, b, xb, yb, other, xo, yo):
                    continue
            if not compact and not meets_swept(fb, ib, other, t, dt, ax0, ay0, ax1, ay1):
                continue
            made += 1
            again = a2 == i and b2 == j  # (the pair just resolved)
            npend = pend_contact(fb, ib, a2, b2, other, t, dt, qt, qk, qx, npend, near, again)
        npend = pend_crossing(fb, ib, b, t, dt, grid, qt, qk, qx, npend)
        if npend > eh[rb, CAP] and (not grow or not row_moved(ek, eh, rb, npend)):
            return m, npend, made, stamp, dirty
        flush(et, ek, eh, rb, qt, qk, qx, npend)
        refresh(et, ek, eh, ht, hk, hpos, rb, b, ib, sift)
    return -1, 0, made, stamp, dirty


@borrowing_kernel
def run_events(fb, ib, responses, restitution, dt, cap, grid, moving, stats, work, state, iwork,
               fwork):  # fmt: skip
    """Run the step's events from where ``state`` left them (see the module
    docstring) until none is left (returns ``DONE``), or the log ``work.lf``/``li``
    or the set ``work.crossed`` is full (``LOG_FULL``, ``SET_FULL``), or a list
    needs a place the pool has no room for (``POOL_FULL``: the row
    ``state[PAUSE_ROW]``, for ``state[PAUSE_COUNT]`` events; the caller grows it,
    ``step_queue.row_grown``, and calls again with the grown arrays in ``work``).
    ``work`` is the step's ``step_work.Work`` (part 0's candidates, buffers and
    stamps), ``iwork, fwork`` :func:`scratch`'s."""
    row, et, ek, eh, ht, hk, hpos = work.row, work.et, work.ek, work.eh, work.ht, work.hk, work.hpos
    marks, cand, qt, qk, qx = work.marks[0], work.cand[0], work.qt[0], work.qk[0], work.qx[0]
    fstart, fbody, head, meets = work.fstart, work.fbody, work.head, work.meets
    nbody, nnext, nlink, bfirst, free = work.nbody, work.nnext, work.nlink, work.bfirst, work.free
    held_t, held_by, held_n, near = work.held_t, work.held_by, work.held_n, work.near
    lf, li, crossed = work.lf, work.li, work.crossed
    pre_f, pre_i, pre_k = work.pre_f, work.pre_i, work.pre_k
    owners = ib[ib.shape[0] - 1, OWNER] + 1 if ib.shape[0] else 1
    dirty, logged, ncrossed = state[DIRTY], state[LOGGED], state[NCROSSED]
    stamp, nfree = state[STAMP], state[NFREE]
    pre, npre = state[EARLY_WRITTEN], state[EARLY_COUNT]
    cols = grid[4]
    changed, chained = iwork[CHANGED], iwork[CHAINED]
    chain_work, chain_values = iwork[CHAIN_WORK:MOMENT_WORK], fwork[CHAIN_VALUES:MOMENT_OLD]
    moment_bodies, moment_old = iwork[MOMENT_WORK], fwork[MOMENT_OLD:PAUSED_AT]
    moment_pairs, moment_system = iwork[MOMENT_PAIRS], fwork[MOMENT_SYSTEM:]
    lists, heap, pending = (et, ek, eh), (ht, hk, hpos), (qt, qk, qx)
    cells = (fstart, fbody, head, nbody, nnext, meets)
    status = DONE
    while True:
        if state[PAUSE] != RUNNING:  # back from the caller, the paused row grown
            r = state[PAUSE_ROW]
            flush(et, ek, eh, r, qt, qk, qx, state[PAUSE_COUNT])
            paused = -1
            if state[PAUSE] == PAUSED_CHANGED:
                m = state[PAUSE_M]
                refresh(et, ek, eh, ht, hk, hpos, r, changed[m], ib, True)
                paused, npend, made, stamp, dirty = predict_changed(
                    fb, ib, responses, dt, grid, row, lists, heap, cells, marks, cand, pending,
                    near, crossed, owners, changed, state[PAUSE_CHANGED], m + 1,
                    fwork[PAUSED_AT, 0], (state[PAUSE_I], state[PAUSE_J]), stamp, dirty, True, True,
                    True,
                )  # fmt: skip
                stats[PREDICTIONS] += made
            if paused >= 0:
                state[PAUSE_ROW] = row[changed[paused]]
                state[PAUSE_COUNT] = npend
                state[PAUSE_M] = paused
                status = POOL_FULL
                break
            state[PAUSE] = RUNNING
        # Room for one more contact (and those resolved before the loop) and one more
        # crossed pair, or back to the caller.
        if logged + npre - pre >= lf.shape[0]:
            status = LOG_FULL
            break
        if 2 * ncrossed + 2 > crossed.shape[0]:
            status = SET_FULL
            break
        if dirty >= 0:
            stats[STALE] += refresh(et, ek, eh, ht, hk, hpos, dirty, moving[dirty], ib, True)
        size = heap_size(hpos)
        if size == 0:  # no moving body, or no event left
            logged, pre = write_early(lf, li, logged, pre_f, pre_i, pre_k, pre, npre, np.inf, 0)
            break
        dirty = hk[0, 2]
        t, key, extra = take(et, ek, eh, dirty)
        logged, pre = write_early(lf, li, logged, pre_f, pre_i, pre_k, pre, npre, t, key)
        order, lo, hi = unpack(key)
        # The next event is most often the earliest of one of the top's children:
        # their rows and bodies are fetched while this one is resolved.
        for c in range(1, min(1 + ARITY, size)):
            r = hk[c, 2]
            prefetch(eh, r, 0)
            prefetch(ek, home(r))  # (where its list is, unless it grew)
            _o, plo, phi = unpack(hk[c, 1])
            prefetch(fb, plo, 0)
            prefetch(ib, plo, 0)
            prefetch(fb, phi, 0)
            prefetch(ib, phi, 0)
        if order == CROSSING:
            i = lo
            stats[CROSSINGS] += 1
            x0, x1, y0, y1 = ib[i, CX0], ib[i, CX1], ib[i, CY0], ib[i, CY1]
            # The lines its trailing edges left, dropped now; then the line entered.
            nfree = trim(fb, ib, head, nbody, nnext, nlink, bfirst, free, nfree, i, t, grid)
            nx0, nx1, ny0, ny1 = ib[i, CX0], ib[i, CX1], ib[i, CY0], ib[i, CY1]
            if hi == GROW_RIGHT:
                nx0 = nx1 = nx1 + 1
                ib[i, CX1] = nx1
            elif hi == GROW_LEFT:
                nx0 = nx1 = nx0 - 1
                ib[i, CX0] = nx0
            elif hi == GROW_DOWN:
                ny0 = ny1 = ny1 + 1
                ib[i, CY1] = ny1
            else:  # GROW_UP
                ny0 = ny1 = ny0 - 1
                ib[i, CY0] = ny0
            stamp += 1
            count = gather(
                ib, marks, fstart, fbody, head, nbody, nnext, meets, cols,
                nx0, nx1, ny0, ny1, i, stamp, cand, 0,
            )  # fmt: skip
            lane = lane_of(ib, head, i)
            for cy in range(ny0, ny1 + 1):
                for cx in range(nx0, nx1 + 1):
                    nfree = link(head, nbody, nnext, nlink, bfirst, free, nfree,
                                 cy * cols + cx, i, lane)  # fmt: skip
            npend = 0
            ax0, ay0, ax1, ay1 = swept(fb, ib, i, t, dt)
            count = keep_meeting(fb, ib, cand, count, t, dt, ax0, ay0, ax1, ay1)
            for k in range(count):
                j = cand[k]
                if covers_meet(ib, j, x0, x1, y0, y1):
                    continue  # near before the crossing: predicted already
                a, b = (i, j) if i < j else (j, i)
                rc = responses[ib[a, GROUP], ib[b, GROUP]]
                if rc == IGNORE or (rc == CROSS and set_has(crossed, pair_key(ib, a, b, owners))):
                    continue
                stats[PREDICTIONS] += 1
                npend = pend_contact(fb, ib, a, b, j, t, dt, qt, qk, qx, npend, near, False)
            npend = pend_crossing(fb, ib, i, t, dt, grid, qt, qk, qx, npend)
            if eh[dirty, LEN] + npend > eh[dirty, CAP]:  # full: drop its stale events first
                stats[STALE] += refresh(et, ek, eh, ht, hk, hpos, dirty, i, ib, True)
                need = eh[dirty, LEN] + npend
                if need > eh[dirty, CAP] and not row_moved(ek, eh, dirty, need):
                    state[PAUSE] = PAUSED_CROSSING
                    state[PAUSE_ROW] = dirty
                    state[PAUSE_COUNT] = npend
                    status = POOL_FULL
                    break
            flush(et, ek, eh, dirty, qt, qk, qx, npend)
            continue

        i, j = lo, hi
        if ib[i if moving[dirty] == j else j, COUNTER] != extra >> 1:
            stats[STALE] += 1
            continue
        stats[EVENTS] += 1
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
        if code in (SLIDE, BOUNCE) and (inv_i == 0.0 or inv_j == 0.0):  # (a touch's to a lift)
            inv_i, inv_j = yielding(fb, ib, i, j, nx, ny, inv_i, inv_j, t, held_t, held_by, held_n)
        if code != CROSS and inv_i + inv_j == 0.0 and code != TOUCH:
            code = CROSS  # two bodies that cannot be moved pass through each other
            near[i] = True  # (not predicted again: the end's cleanup, which moves a
            near[j] = True  # frozen body, takes apart those rounding left overlapping)
        if code == CROSS:
            key = pair_key(ib, i, j, owners)
            if set_has(crossed, key):
                continue
            ncrossed = set_add(crossed, ncrossed, key)
            px, py = contact_point(fb, ib, i, xi, yi, j, xj, yj, nx, ny)
            logged = log(
                lf, li, logged, t, ib[i, OWNER], ib[j, OWNER], nx, ny, px, py, CROSS, begun
            )
            continue
        u = (fb[i, MVX] - fb[j, MVX]) * nx + (fb[i, MVY] - fb[j, MVY]) * ny
        speeds = abs(fb[i, MVX]) + abs(fb[i, MVY]) + abs(fb[j, MVX]) + abs(fb[j, MVY])
        report = u < -APPROACH_ULPS * speeds or (started and t == 0.0)
        if not report and rounded_again(i, j, inv_i, inv_j, t, held_t, held_by):
            near[i] = near[j] = True  # (the end's: step_counts.ROUNDED_AT_ONCE)
            continue
        # A touch freezes both bodies; one frozen already is not changed by it (counted
        # as changed, two frozen an ulp apart were met again at one moment, for ever).
        moved_i = inv_i > 0.0 or (code == TOUCH and ib[i, FROZEN] == 0)
        moved_j = inv_j > 0.0 or (code == TOUCH and ib[j, FROZEN] == 0)
        if moved_i:
            advance(fb, i, t)
        if moved_j:
            advance(fb, j, t)
        shoved = started and depth > 0.0 and inv_i + inv_j > 0.0
        if shoved:
            si, sj = inv_i, inv_j
            if si > 0.0 and sj > 0.0:  # (not into what holds either)
                si, sj = held_shares(fb, ib, i, j, t, nx, ny, si, sj, held_t, held_by, held_n)
            share = depth / (si + sj)
            fb[i, X] += nx * share * si
            fb[i, Y] += ny * share * si
            fb[j, X] -= nx * share * sj
            fb[j, Y] -= ny * share * sj
            # Pushed out, a body may leave the cells it covered: it is listed again,
            # or bodies near its new place would never be looked at.
            for b in (i, j):
                if ib[b, FIXED] == 0 and mobility(fb, ib, b) > 0.0:
                    nfree = recover(fb, ib, head, nbody, nnext, nlink, bfirst, free, nfree,
                                    cols, b, t, grid)  # fmt: skip
        nudged = False
        if code == SLIDE and inv_i > 0.0 and inv_j > 0.0:
            nudged = apart_arriving(fb, ib, i, j, t, nx, ny, inv_i, inv_j, held_t, held_by, held_n)
        elif inv_i + inv_j > 0.0:
            nudged = apart(fb, ib, i, j, t, nx, ny, inv_i, inv_j)
        nchained = 0  # bodies other than i and j a row or a moment changed
        crushed = False  # one of them crushed (step_respond.slide_held)
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
            # A bounce is remembered as a slide is; a pair that bounces again at one
            # moment is in a jam (a body between a pusher and a wall, bouncing off
            # each in turn without end at that moment): it slides, with the moment's
            # other slides and bounces together (restitution is for impacts)
            again = code == BOUNCE and remember(held_t, held_by, held_n, i, j, nx, ny, t)
            if code == SLIDE or again:  # a row sliding into itself at once
                # (step_chain), or the pair with what holds either body now; then, if
                # the pair slid already at this moment, the moment's slides around it
                # (step_moment)
                again = again or remember(held_t, held_by, held_n, i, j, nx, ny, t)
                nchained = slide_chain(fb, ib, i, j, nx, ny, t, held_t, held_by, chained,
                                       chain_work, chain_values)  # fmt: skip
                if nchained < 0:
                    gone = slide_held(fb, ib, i, j, nx, ny, inv_i, inv_j, t, held_t, held_by,
                                      held_n)  # fmt: skip
                    nchained = 0
                    if gone >= 0:  # pushed into what holds it by what cannot move
                        crush(fb, ib, gone)
                        crushed = True
                    elif again:
                        nchained = moment_slide(fb, ib, i, j, t, held_t, held_by, held_n,
                                                chained, moment_bodies, moment_old,
                                                moment_pairs, moment_system)  # fmt: skip
            else:
                respond(fb, i, j, nx, ny, inv_i, inv_j, restitution[ib[i, GROUP], ib[j, GROUP]])
        if report:
            xi, yi = position(fb, i, t)
            xj, yj = position(fb, j, t)
            px, py = contact_point(fb, ib, i, xi, yi, j, xj, yj, nx, ny)
            logged = log(lf, li, logged, t, ib[i, OWNER], ib[j, OWNER], nx, ny, px, py, code, begun)
        # A slide or bounce leaves the pair not approaching (exactly; by rounding it
        # may approach by an ulp, which must not make events without end).
        resolved = report and (code in (SLIDE, BOUNCE)) and not crushed
        # The changed bodies: new counters, the event cap, new predictions.
        nchanged = 0
        for m in range(2 + nchained):  # the pair, then a row's or a moment's others
            b = i if m == 0 else (j if m == 1 else chained[m - 2])
            moved = moved_i if m == 0 else (moved_j if m == 1 else True)
            if not moved or ib[b, FIXED] != 0:
                near[b] = True  # not predicted again: checked at the end
                continue
            if mark_changed(fb, ib, b, cap):
                stats[CAPPED] += 1
                resolved = False  # stopped: the other may now run into it
            changed[nchanged] = b
            nchanged += 1
        paused, npend, made, stamp, dirty = predict_changed(
            fb, ib, responses, dt, grid, row, lists, heap, cells, marks, cand, pending, near,
            crossed, owners, changed, nchanged, 0, t, (i, j) if resolved else (-1, -1), stamp,
            dirty, True, True, True,
        )  # fmt: skip
        stats[PREDICTIONS] += made
        if paused >= 0:  # (its row moves where the pool has no room: back to the caller)
            state[PAUSE] = PAUSED_CHANGED
            state[PAUSE_ROW] = row[changed[paused]]
            state[PAUSE_COUNT] = npend
            state[PAUSE_M] = paused
            state[PAUSE_CHANGED] = nchanged
            state[PAUSE_I], state[PAUSE_J] = (i, j) if resolved else (-1, -1)
            fwork[PAUSED_AT, 0] = t
            status = POOL_FULL
            break

    state[DIRTY], state[LOGGED], state[NCROSSED] = dirty, logged, ncrossed
    state[STAMP], state[NFREE], state[EARLY_WRITTEN] = stamp, nfree, pre
    return status
