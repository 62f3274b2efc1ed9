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
"""

from __future__ import annotations

import numpy as np

from collide2d._kernels.jit import borrowing_kernel, kernel
from collide2d._kernels.step_events import (
    CAPPED,
    EVENTS,
    NUDGED,
    POOL_FULL,
    PREDICTIONS,
    STALE,
    log,
    predict_changed,
)
from collide2d._kernels.step_queue import BASE, LEN, MIN, flush, refresh, take, unpack
from collide2d._kernels.step_respond import (
    APPROACH_ULPS,
    CROSS,
    IGNORE,
    TOUCH,
    apart,
    freeze,
    mark_changed,
    mobility,
)
from collide2d._kernels.step_shapes import (
    COUNTER,
    FIXED,
    FROZEN,
    GROUP,
    MVX,
    MVY,
    ORDER_CORNER,
    ORDER_FACE,
    OWNER,
    advance,
    contact_normal,
    contact_point,
    position,
)

# ``state`` of :func:`start_touches`: the next row, contacts logged, the last stamp,
# the row left waiting for the pool (-1: none) and its events' count
START_NEXT, START_COUNT, START_STAMP, START_WAITING, START_WAITING_COUNT = range(5)


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
def start_touches(fb, ib, responses, dt, cap, grid, moving, row, stats, et, ek, eh, ht, hk,
                  hpos, marks, fstart, fbody, head, nbody, nnext, meets, cand, qt, qk, qx,
                  near, crossed, owners, changed, quiet, pre_f, pre_i, pre_k,
                  state):  # fmt: skip
    """Resolve the touches at time 0 that commute with every other event (module
    docstring), rows ``state[START_NEXT]`` on, after the first predictions and before the
    heap is built; their contacts go to ``pre_f, pre_i`` (``step_events.log``'s
    columns) with their events' keys in ``pre_k``. Returns ``POOL_FULL`` when a
    list needs a place the pool has no room for (``state[START_WAITING]``: the caller
    grows the row, ``step_queue.row_grown``, and calls again), else 0."""
    lists, heap, pending = (et, ek, eh), (ht, hk, hpos), (qt, qk, qx)
    cells = (fstart, fbody, head, nbody, nnext, meets)
    count, stamp = state[START_COUNT], state[START_STAMP]
    if state[START_WAITING] >= 0:  # back from the caller, the waiting row grown
        r = state[START_WAITING]
        flush(et, ek, eh, r, qt, qk, qx, state[START_WAITING_COUNT])
        refresh(et, ek, eh, ht, hk, hpos, r, moving[r], ib, False)
        state[START_WAITING] = -1
    for r in range(state[START_NEXT], moving.shape[0]):
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
        t, key, extra = take(et, ek, eh, r)
        if ib[w, COUNTER] != extra >> 1:
            stats[STALE] += 1
            refresh(et, ek, eh, ht, hk, hpos, r, b, ib, False)
            continue
        # As step_events.run_events resolves a touch at time 0 that did not start
        # overlapped (the same steps, in the same order).
        stats[EVENTS] += 1
        xi, yi = position(fb, i, t)
        xj, yj = position(fb, j, t)
        nx, ny = contact_normal(fb, ib, i, xi, yi, j, xj, yj, extra & 1)
        inv_i = mobility(fb, ib, i)
        inv_j = mobility(fb, ib, j)
        u = (fb[i, MVX] - fb[j, MVX]) * nx + (fb[i, MVY] - fb[j, MVY]) * ny
        speeds = abs(fb[i, MVX]) + abs(fb[i, MVY]) + abs(fb[j, MVX]) + abs(fb[j, MVY])
        report = u < -APPROACH_ULPS * speeds
        moved_i = inv_i > 0.0 or ib[i, FROZEN] == 0
        moved_j = inv_j > 0.0 or ib[j, FROZEN] == 0
        if moved_i:
            advance(fb, i, t)
        if moved_j:
            advance(fb, j, t)
        nudged = apart(fb, ib, i, j, t, nx, ny, inv_i, inv_j) if inv_i + inv_j > 0.0 else False
        if not report:
            if not nudged:
                near[i] = True
                near[j] = True
                refresh(et, ek, eh, ht, hk, hpos, r, b, ib, False)
                continue
            stats[NUDGED] += 1
        else:
            if ib[i, FIXED] == 0:
                freeze(fb, ib, i)
            if ib[j, FIXED] == 0:
                freeze(fb, ib, j)
            xi, yi = position(fb, i, t)
            xj, yj = position(fb, j, t)
            px, py = contact_point(fb, ib, i, xi, yi, j, xj, yj)
            pre_k[count] = key
            count = log(pre_f, pre_i, count, t, ib[i, OWNER], ib[j, OWNER], nx, ny, px, py,
                        TOUCH, False)  # fmt: skip
        nchanged = 0
        for m in range(2):
            a = i if m == 0 else j
            if not (moved_i if m == 0 else moved_j) or ib[a, FIXED] != 0:
                near[a] = True
                continue
            if mark_changed(fb, ib, a, cap):
                stats[CAPPED] += 1
            changed[nchanged] = a
            nchanged += 1
        paused, npend, made, stamp, _ = predict_changed(
            fb, ib, responses, dt, grid, row, lists, heap, cells, marks, cand, pending, near,
            crossed, owners, changed, nchanged, 0, t, (-1, -1), stamp, -1, False, False,
        )  # fmt: skip
        stats[PREDICTIONS] += made
        if paused >= 0:
            state[START_NEXT], state[START_COUNT], state[START_STAMP] = r + 1, count, stamp
            state[START_WAITING], state[START_WAITING_COUNT] = r, npend
            return POOL_FULL
    state[START_NEXT], state[START_COUNT], state[START_STAMP] = moving.shape[0], count, stamp
    return 0
