"""The first predictions of ``World.step``'s compiled core: every moving body against
every body near it at the step's start, each body's events in its own list of the
queue.

A body's first predictions read the bodies near it and write only its own list, its
own heap place and the ``near`` flags (set, never cleared): the moving bodies are
split into consecutive parts, each predicted by :func:`first_predictions` in a
thread of its own (the kernel releases the GIL), with its own candidates, event
buffers and stamps. Every body's list and key are the same whichever part, thread or
order computed them, so the step is the same with one thread or several. A body
whose events do not fit its list's first room is left to :func:`first_overflow`,
after the parts, which grows lists (the pool is one array, grown by one thread).
In the swarm scene these predictions are half of the core's time.
"""

from __future__ import annotations

from collide2d._kernels.codes import IGNORE
from collide2d._kernels.jit import borrowing_kernel, inlined_helper, kernel
from collide2d._kernels.step.step_grid import (
    gather_near,
    prefetch_bodies,
    prefetch_cells,
    prefetch_lists,
)
from collide2d._kernels.step.step_predict import pend_contact, pend_crossing
from collide2d._kernels.step.step_queue import CAP, first_key, flush, row_grown
from collide2d._kernels.step.step_shapes import (
    FIXED,
    GROUP,
    keep_meeting,
    swept,
)


@inlined_helper
def predict_first(fb, ib, responses, dt, grid, i, fstart, fbody, head, nbody, nnext, first,
                  marks, stamp, cand, qt, qk, qx, near):  # fmt: skip
    """Body ``i``'s first predictions into the buffers ``qt, qk, qx`` (``pend``):
    against every body near it, a pair of moving bodies once (of one group, from the
    smaller number; of two, from one group's side, ``first``:
    ``step_grid.first_lanes``), and its next cell crossing. Gathers with stamp
    ``stamp`` in ``marks``. Returns the events kept and the predictions made.
    (Inlined: called, every call counted a reference to each of its arrays, atomic
    counts that two threads made slower still, the swarm's predictions 40 % slower.)"""
    cols = grid[4]
    one_lane = head.shape[0] == 1
    count = gather_near(ib, marks, fstart, fbody, head, nbody, nnext, first, cols, i, stamp, cand)
    npend = 0
    made = 0
    ax0, ay0, ax1, ay1 = swept(fb, ib, i, 0.0, dt)
    count = keep_meeting(fb, ib, cand, count, 0.0, dt, ax0, ay0, ax1, ay1)
    for k in range(count):
        j = cand[k]
        if ib[j, FIXED] == 0 and j < i and (one_lane or ib[j, GROUP] == ib[i, GROUP]):
            continue
        lo, hi = (i, j) if i < j else (j, i)
        if responses[ib[lo, GROUP], ib[hi, GROUP]] == IGNORE:
            continue
        made += 1
        npend = pend_contact(fb, ib, lo, hi, j, 0.0, dt, qt, qk, qx, npend, near, False)
    return pend_crossing(fb, ib, i, 0.0, dt, grid, qt, qk, qx, npend), made


@borrowing_kernel
def first_predictions(fb, ib, responses, dt, grid, moving, work, p, start, stop):
    """The first predictions of the moving bodies ``moving[start:stop]`` (rows
    ``start`` to ``stop`` of the queue), with part ``p``'s own ``marks`` (zero or
    below every stamp it uses here), ``cand``, ``qt, qk, qx`` of ``work`` (the
    step's ``step_work.Work``). A body whose events fit its list's room has them
    listed and its heap key set (``first_key``); the others' rows go to part ``p``'s
    ``over``. Its ``counts`` are told the predictions made (of the bodies listed),
    the bodies left over and the last stamp used."""
    fstart, fbody, head, nbody, nnext = work.fstart, work.fbody, work.head, work.nbody, work.nnext
    first, near = work.first_meets, work.near
    et, ek, eh, ht, hk = work.et, work.ek, work.eh, work.ht, work.hk
    marks, cand, qt, qk, qx = work.marks[p], work.cand[p], work.qt[p], work.qk[p], work.qx[p]
    over, counts = work.over[p], work.counts[p]
    cols = grid[4]
    made = 0
    nover = 0
    stamp = 0
    for r in range(start, stop):
        i = moving[r]
        # What the bodies a few places on will read, fetched while this one is
        # predicted: their cells' list starts (four on), their lists' entries (two on),
        # the rows of the bodies in them (next).
        if r + 4 < stop:
            prefetch_cells(ib, fstart, head, first, cols, moving[r + 4])
        if r + 2 < stop:
            prefetch_lists(ib, fstart, fbody, head, nbody, nnext, first, cols, moving[r + 2])
        if r + 1 < stop:
            prefetch_bodies(fb, ib, fstart, fbody, head, nbody, first, cols, moving[r + 1])
        stamp += 1
        npend, m = predict_first(fb, ib, responses, dt, grid, i, fstart, fbody, head, nbody,
                                 nnext, first, marks, stamp, cand, qt, qk, qx, near)  # fmt: skip
        if npend > eh[r, CAP]:
            over[nover] = r
            nover += 1
            continue
        made += m
        flush(et, ek, eh, r, qt, qk, qx, npend)
        first_key(et, ek, eh, ht, hk, r)
    counts[0], counts[1], counts[2] = made, nover, stamp


@kernel
def first_overflow(fb, ib, responses, dt, grid, moving, fstart, fbody, head, nbody, nnext,
                   first, et, ek, eh, ht, hk, near, marks, stamp, cand, qt, qk, qx, over,
                   nover):  # fmt: skip
    """The first predictions of the bodies in rows ``over[:nover]`` (left over by
    :func:`first_predictions`: more events than their lists' first room), their
    lists grown; stamps above ``stamp`` in ``marks``. Returns the queue's pool
    ``et, ek`` (grown), the predictions made and the last stamp used."""
    made = 0
    for k in range(nover):
        r = over[k]
        stamp += 1
        npend, m = predict_first(fb, ib, responses, dt, grid, moving[r], fstart, fbody, head,
                                 nbody, nnext, first, marks, stamp, cand, qt, qk, qx,
                                 near)  # fmt: skip
        made += m
        if npend > eh[r, CAP]:
            et, ek = row_grown(et, ek, eh, r, npend)
        flush(et, ek, eh, r, qt, qk, qx, npend)
        first_key(et, ek, eh, ht, hk, r)
    return et, ek, made, stamp
