"""Touches a step starts with, resolved before its event loop (``World.step``'s
compiled core).

A body pressed against a wall by a ``touch`` (a bullet stopped there keeps its
velocity) touches it again at time 0 of every step: 20,000 such events a frame in
the bullets scene, each popped from the heap in turn. When that touch is a body's
earliest event, the other body is fixed and every pair of the body's group with a
group of moving bodies is ``cross`` or ``ignore``, the touch changes only that body,
and no other event can change what it does: it commutes with every other event of
the step. It is then resolved here, before the heap is built, as the event loop
would resolve it; its contact waits in a log of its own, sorted by the event's key,
and the loop writes it in its place, before the first event it pops that comes
after it (``step_events.run_events``), so the contacts and their order are the
loop's.

Every such touch is resolved first (:func:`start_touches`), then every body it
changed is predicted again (:func:`later_predictions`), as after any contact
(``step_events.predict_changed``). Each touch changes only its own body, so the
touches are shared between threads like the first predictions
(``world/step_parts.py``), each part writing its contacts and changed rows at its
own places, joined after in the rows' order (:func:`touches_joined`). The
predictions again read rows no one writes any more (every freeze is done) and each
writes only its own list, so they are shared between threads too; a list that
outgrows its room is left to :func:`later_overflow`, which grows the pool. A frame
of the bullets scene predicted its 20,000 frozen bullets again in 0.75 ms of about
4.5, in the serial loop that froze them.
"""

from __future__ import annotations

import numpy as np

from collide2d._kernels.codes import CROSS, IGNORE, TOUCH
from collide2d._kernels.jit import borrowing_kernel, kernel
from collide2d._kernels.step.step_counts import mark_changed
from collide2d._kernels.step.step_events import (
    CAPPED,
    EVENTS,
    NUDGED,
    predict_changed,
)
from collide2d._kernels.step.step_log import log
from collide2d._kernels.step.step_queue import (
    BASE,
    LEN,
    MIN,
    flush,
    refresh,
    row_grown,
    take,
    unpack,
)
from collide2d._kernels.step.step_respond import (
    APPROACH_ULPS,
    apart,
    freeze,
    mobility,
)
from collide2d._kernels.step.step_shapes import (
    COUNTER,
    FIXED,
    GROUP,
    MVX,
    MVY,
    ORDER_CORNER,
    ORDER_FACE,
    OWNER,
    advance,
    contact_normal,
    contact_point,
    overlap_at,
    position,
)
from collide2d._kernels.step.step_work import STATE_STAMP

# ``tally``'s columns: a part's counts in :func:`start_touches`
TALLY_EVENTS, TALLY_NUDGED, TALLY_CAPPED, TALLY_LOGGED, TALLY_LATER = range(5)
TALLY_COLUMNS = 5


@kernel
def quiet_groups(responses, ib, moving):
    """Whether each group's pairs with every group of moving bodies are ``cross`` or
    ``ignore``."""
    groups = responses.shape[0]
    moves = np.zeros(groups, dtype=np.bool_)
    for i in moving:
        moves[ib[i, GROUP]] = True
    quiet = np.ones(groups, dtype=np.bool_)
    for g in range(groups):
        for h in range(groups):
            if moves[h] and responses[g, h] != CROSS and responses[g, h] != IGNORE:
                quiet[g] = False
    return quiet


@borrowing_kernel
def start_touches(fb, ib, responses, cap, moving, start, stop, et, ek, eh, near, quiet, pre_f,
                  pre_i, pre_k, later, tally):  # fmt: skip
    """Resolve the touches at time 0 that commute with every other event (module
    docstring) of the rows ``start`` to ``stop``, after the first predictions and
    before the heap is built: a part, run in a thread of its own beside the others
    (``world/step_parts.py``). A touch read and resolved here reads only its body's
    row and the fixed body's, and writes only its body's row and list: the parts
    share nothing but the ``near`` flags of fixed bodies, set, never cleared, and
    written only when not set. A touch that would be neither reported nor nudged
    (rounding: it does not approach), or is stale, is left in its list for the event
    loop, which drops it and finds the row's next event by the other bodies'
    counters, which other parts may still be changing here. Each row writes at
    most one entry at its part's own places, from ``start`` on: its contact to
    ``pre_f, pre_i`` (``step_events.log``'s columns) with its event's key in
    ``pre_k``, and its row to ``later``, to be predicted again
    (:func:`later_predictions`; :func:`touches_joined` joins the parts). ``tally`` is
    told this part's counts (``TALLY_EVENTS`` ...)."""
    count = 0
    nlater = 0
    events = nudged = capped = 0
    for r in range(start, stop):
        b = moving[r]
        if eh[r, LEN] == 0 or ib[b, FIXED] != 0 or not quiet[ib[b, GROUP]]:
            continue
        c = eh[r, BASE] + 3 * eh[r, MIN]
        order, i, j = unpack(ek[c + 1])
        w = j if i == b else i
        if et[c] != 0.0 or (order != ORDER_FACE and order != ORDER_CORNER):
            continue
        if ib[w, FIXED] == 0 or responses[ib[i, GROUP], ib[j, GROUP]] != TOUCH:
            continue
        t, key, extra = et[c], ek[c + 1], ek[c + 2]
        if ib[w, COUNTER] != extra >> 1:
            continue  # (stale: left to the event loop, which drops it)
        # As step_events.run_events resolves a touch at time 0 that did not start
        # overlapped (the same steps, in the same order; the fixed body at time 0 is
        # where its row says, and is not written).
        xi, yi = position(fb, i, t)
        xj, yj = position(fb, j, t)
        nx, ny = contact_normal(fb, ib, i, xi, yi, j, xj, yj, extra & 1)
        inv_i = mobility(fb, ib, i)
        inv_j = mobility(fb, ib, j)
        u = (fb[i, MVX] - fb[j, MVX]) * nx + (fb[i, MVY] - fb[j, MVY]) * ny
        speeds = abs(fb[i, MVX]) + abs(fb[i, MVY]) + abs(fb[j, MVX]) + abs(fb[j, MVY])
        report = u < -APPROACH_ULPS * speeds
        if not report:  # (nudged if it overlaps, as step_respond.apart asks)
            if inv_i + inv_j == 0.0:
                continue  # (neither reported nor nudged: left to the event loop)
            if inv_i >= inv_j:
                overlapping = overlap_at(fb, ib, i, xi, yi, j, xj, yj)
            else:
                overlapping = overlap_at(fb, ib, j, xj, yj, i, xi, yi)
            if not overlapping:
                continue
        take(et, ek, eh, r)
        events += 1
        advance(fb, b, t)
        if inv_i + inv_j > 0.0:
            apart(fb, ib, i, j, t, nx, ny, inv_i, inv_j)
        if not near[w]:
            near[w] = True
        if not report:
            nudged += 1
        else:
            freeze(fb, ib, b)
            xi, yi = position(fb, i, t)
            xj, yj = position(fb, j, t)
            px, py = contact_point(fb, ib, i, xi, yi, j, xj, yj, nx, ny)
            pre_k[start + count] = key
            count = log(pre_f, pre_i, start + count, t, ib[i, OWNER], ib[j, OWNER], nx, ny,
                        px, py, TOUCH, False) - start  # fmt: skip
        # The changed body (the other is fixed): a new counter, the event cap; its
        # predictions wait until every touch is resolved.
        if mark_changed(fb, ib, b, cap):
            capped += 1
        later[start + nlater] = r
        nlater += 1
    tally[TALLY_EVENTS], tally[TALLY_NUDGED], tally[TALLY_CAPPED] = events, nudged, capped
    tally[TALLY_LOGGED], tally[TALLY_LATER] = count, nlater


@kernel
def touches_joined(stats, pre_f, pre_i, pre_k, later, starts, tally):
    """After every part of :func:`start_touches` (part ``p`` from row ``starts[p]``,
    its counts in ``tally[p]``): ``stats`` told the counts, and each part's contacts,
    keys and rows to predict again moved up behind the part before's, in the order of
    the rows (the order one part would have written them in). Returns ``(contacts,
    rows to predict again)``."""
    count = 0
    nlater = 0
    for p in range(tally.shape[0]):
        stats[EVENTS] += tally[p, TALLY_EVENTS]
        stats[NUDGED] += tally[p, TALLY_NUDGED]
        stats[CAPPED] += tally[p, TALLY_CAPPED]
        start = starts[p]
        for k in range(start, start + tally[p, TALLY_LOGGED]):
            if k != count:  # (element by element: rows copied as arrays cost 0.3 ms)
                for c in range(pre_f.shape[1]):
                    pre_f[count, c] = pre_f[k, c]
                for c in range(pre_i.shape[1]):
                    pre_i[count, c] = pre_i[k, c]
                pre_k[count] = pre_k[k]
            count += 1
        for k in range(tally[p, TALLY_LATER]):
            later[nlater] = later[start + k]
            nlater += 1
    return count, nlater


@borrowing_kernel
def later_predictions(fb, ib, responses, dt, grid, moving, work, p, start, stop, changed):
    """Predict the bodies of rows ``work.later[start:stop]`` again from time 0 (after
    :func:`start_touches`), with part ``p``'s own ``marks`` (stamps above
    ``work.state[STATE_STAMP]``), ``cand``, ``qt, qk, qx`` of ``work`` (the step's
    ``step_work.Work``). A row whose events fit its list's room has them listed and
    its key set in its own place of the heap not yet built; the others' rows go to
    part ``p``'s ``over`` (:func:`later_overflow`). Its ``counts`` are told the
    predictions made (of the rows listed), the rows left over and the last stamp
    used. ``changed``: room for one body."""
    lists, heap = (work.et, work.ek, work.eh), (work.ht, work.hk, work.hpos)
    pending = (work.qt[p], work.qk[p], work.qx[p])
    cells = (work.fstart, work.fbody, work.head, work.nbody, work.nnext, work.meets)
    marks, cand, over, counts = work.marks[p], work.cand[p], work.over[p], work.counts[p]
    row, near, crossed, later = work.row, work.near, work.crossed, work.later
    owners = ib[ib.shape[0] - 1, OWNER] + 1
    stamp = work.state[STATE_STAMP]
    made = 0
    nover = 0
    for k in range(start, stop):
        changed[0] = moving[later[k]]
        paused, _npend, m, stamp, _ = predict_changed(
            fb, ib, responses, dt, grid, row, lists, heap, cells, marks, cand, pending, near,
            crossed, owners, changed, 1, 0, 0.0, (-1, -1), stamp, -1, False, False, False,
        )  # fmt: skip
        if paused >= 0:
            over[nover] = later[k]
            nover += 1
        else:
            made += m
    counts[0], counts[1], counts[2] = made, nover, stamp


@kernel
def later_overflow(fb, ib, responses, dt, grid, moving, row, et, ek, eh, ht, hk, hpos,
                   fstart, fbody, head, nbody, nnext, meets, near, crossed, owners, marks,
                   stamp, cand, qt, qk, qx, over, nover):  # fmt: skip
    """Predict the bodies of rows ``over[:nover]`` (left over by
    :func:`later_predictions`: more events than their lists' room) again from time 0,
    their lists grown; stamps above ``stamp`` in ``marks``. Returns the queue's pool
    ``et, ek`` (grown), the predictions made and the last stamp used."""
    heap, pending = (ht, hk, hpos), (qt, qk, qx)
    cells = (fstart, fbody, head, nbody, nnext, meets)
    changed = np.empty(1, dtype=np.int64)
    made = 0
    for k in range(nover):
        r = over[k]
        changed[0] = moving[r]
        paused, npend, m, stamp, _ = predict_changed(
            fb, ib, responses, dt, grid, row, (et, ek, eh), heap, cells, marks, cand, pending,
            near, crossed, owners, changed, 1, 0, 0.0, (-1, -1), stamp, -1, False, False, True,
        )  # fmt: skip
        made += m
        if paused >= 0:  # (no room at the pool's end: a larger pool)
            et, ek = row_grown(et, ek, eh, r, npend)
            flush(et, ek, eh, r, qt, qk, qx, npend)
            refresh(et, ek, eh, ht, hk, hpos, r, changed[0], ib, False)
    return et, ek, made, stamp
