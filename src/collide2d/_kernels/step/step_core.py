"""``World.step``'s compiled core: every body moves at once; the earliest contact is
resolved first, then the next, to the end of the step (event-driven simulation, as
hard-disk molecular dynamics has done since Alder and Wainwright).

Every pair of bodies that share a grid cell (``step_grid``) has its next contact
predicted (``step_shapes.predict``) and queued (``step_queue``). The earliest event
is taken; a stale one (a body changed since it was predicted) is dropped; a contact
changes the two bodies (response below), which are brought to that moment, given new
event counters and predicted again against the bodies near them; every other body
keeps its local time. A cell crossing changes which bodies are near. This module sets
the step up (:func:`begin`), has the touches at time 0 that commute with every
other event resolved when some group can have them (:func:`touches`, then
``step_start.start_touches`` in parts through :func:`touch_part`, joined by
:func:`touched`) and runs the rest (:func:`finish`); before :func:`touches`, the
first predictions are made in parts, a thread each (``step_first``,
``world/step_parts``), and after the touches, in parts again, the bodies they froze
are predicted again (``step_start.later_predictions``); the event loop is
``step_events.run_events``; the end's cleanup ``step_settle.settle``. Every phase
reads the step's arrays by name from its ``step_work.Work``.

Responses (``codes``): ``IGNORE``; ``CROSS`` reported once per pair per step;
``TOUCH`` freezes both bodies for the rest of the step; ``SLIDE`` removes the
approaching part of the relative normal velocity, shared by inverse mass; ``BOUNCE``
reverses it times the restitution. A pair found overlapping is first pushed apart
along its least-penetration normal, the push shared by inverse mass. Positions are
then nudged by units in the last place until the pair no longer overlaps, so
rounding never leaves two stopping bodies overlapped.
"""

from __future__ import annotations

import numpy as np

from collide2d._kernels.jit import helper_kernel, kernel
from collide2d._kernels.sorting import argsort_range
from collide2d._kernels.step.step_arena import (
    FLOATS_USED,
    INTS32_USED,
    INTS_USED,
    LISTS_USED,
    LOG_ROOM,
    QUEUE_SIZE,
    carve,
)
from collide2d._kernels.step.step_events import (
    DIRTY,
    EARLY_COUNT,
    LOG_FULL,
    LOGGED,
    NFREE,
    NUDGED,
    PAUSE_COUNT,
    PAUSE_ROW,
    POOL_FULL,
    PREDICTIONS,
    PUT_BACK,
    SET_FULL,
    STAMP,
    STATE_SLOTS,
    run_events,
    scratch,
)
from collide2d._kernels.step.step_first import first_overflow
from collide2d._kernels.step.step_grid import cover as set_cover
from collide2d._kernels.step.step_grid import (
    first_lanes,
    fixed_lists,
    lanes,
    list_cover,
    recover,
)
from collide2d._kernels.step.step_log import log_grown
from collide2d._kernels.step.step_queue import (
    BASE,
    heapify,
    new_queue,
    row_grown,
    set_grown,
)
from collide2d._kernels.step.step_respond import (
    CRUSHED,
    HELD_BODIES,
    HELD_NORMALS,
    HELD_TIMES,
)
from collide2d._kernels.step.step_settle import overlaps_left, put_back, settle
from collide2d._kernels.step.step_shapes import (
    FROZEN,
    OWNER,
    X,
    Y,
    advance,
)
from collide2d._kernels.step.step_start import (
    later_overflow,
    quiet_groups,
    start_touches,
    touches_joined,
)
from collide2d._kernels.step.step_work import (
    STATE_EARLY,
    STATE_FUSED,
    STATE_I32USED,
    STATE_IUSED,
    STATE_LATER,
    STATE_NFREE,
    STATE_STAMP,
    STATE_TOUCHED,
    Work,
    renewed,
)

PUT_BACK_ROUNDS = 4
"""Rounds of putting back what the cleanup cannot take apart and cleaning up again
(``step_settle.put_back``) before what is left stays."""


@kernel
def ascending(keys, n):
    """Whether ``keys[:n]`` are in ascending order. The touches resolved before the
    loop are, in the bullets scene's frames (20,000 of them): sorting and reordering
    them anyway took 0.3 to 0.4 ms of a 4.5 ms frame."""
    k = 1
    while k < n and keys[k - 1] <= keys[k]:
        k += 1
    return k >= n


@kernel
def begin(fb, ib, responses, dt, grid, moving, fixed, room, parts, memory):
    """Set a step of ``dt`` up over the bodies (rows of ``fb``/``ib``, numbered in the
    order their items were added): ``moving`` and ``fixed`` list the bodies that can and
    cannot move, ``room`` bounds the cells a moving body ever covers. Working arrays are
    carved from ``memory``'s pools (``step_work.Memory``: the moving bodies' cell lists,
    each body's queue row and the gathers' stamps in the ``int32`` pool, so a step's
    gathers must stay below ``2**31``; ``step_arena``); the queue's lists' pool starts
    ``memory.queue_size`` integers large. The fixed bodies' cell lists are built in
    the pool ``memory.lists`` (``step_grid.fixed_lists``), or, when ``memory.kept``,
    are there already, built by an earlier step over the same grid from the same fixed
    rows (covers set, rows untouched since). The contact log starts with room for
    ``memory.log_room`` contacts (what the last step needed). ``parts``: how many parts
    the first predictions are split into (``step_first``), each with its own
    candidates, event buffers and stamps.

    Returns the step's ``step_work.Work`` (its ``state``: ``STATE_NFREE`` ...)."""
    ints, floats, ints32, lists = memory.ints, memory.floats, memory.ints32, memory.lists
    used = memory.used
    n = ib.shape[0]
    _ox, _oy, _cell, _margin, cols, rows = grid
    # step_settle.settle's pins' normals (rows 0, 1) and where the moving bodies
    # began (rows 2, 3: step_settle.put_back's; written as their covers are set,
    # each row read once: a pass of its own was 1 % of the bullets' frames)
    iused, fused, i32used = 0, 0, 0
    flat_p, fused = carve(floats, fused, 4 * n)
    ends = flat_p.reshape((4, n))
    if memory.kept:
        for i in moving:
            set_cover(fb, ib, i, 0.0, grid)
            ends[2, i] = fb[i, X]
            ends[3, i] = fb[i, Y]
        fstart = lists[: cols * rows + 1]
        fbody = lists[cols * rows + 1 : cols * rows + 1 + fstart[cols * rows]]
    else:
        for i in range(n):
            set_cover(fb, ib, i, 0.0, grid)
            ends[2, i] = fb[i, X]  # (fixed bodies' too: never read)
            ends[3, i] = fb[i, Y]
        fstart, fbody, used[LISTS_USED] = fixed_lists(ib, fixed, cols, rows, lists, 0)
    head, meets, i32used = lanes(responses, cols * rows, ints32, i32used)
    nbody, i32used = carve(ints32, i32used, room)
    nnext, i32used = carve(ints32, i32used, room)
    free, i32used = carve(ints32, i32used, room)
    flat_links, i32used = carve(ints32, i32used, 3 * room)
    nlink = flat_links.reshape((room, 3))
    bfirst, i32used = carve(ints32, i32used, n)  # (only moving bodies are listed)
    for i in moving:
        bfirst[i] = -1
    for k in range(room):
        free[k] = room - 1 - k
    nfree = room
    for i in moving:
        nfree = list_cover(ib, head, nbody, nnext, nlink, bfirst, free, nfree, cols, i, True)
    row, i32used = carve(ints32, i32used, n)  # a moving body's list in the queue
    row[:] = -1
    for r in range(moving.shape[0]):
        row[moving[r]] = r
    et, ek, eh, ht, hk, hpos, iused = new_queue(moving.shape[0], memory.queue_size, ints, iused)
    log_room = max(16, memory.log_room)  # (the rooms the last step needed)
    lf = np.empty((log_room, 5))
    li = np.empty((log_room, 4), dtype=np.int64)
    crossed = np.full(64, -1, dtype=np.int64)  # (small: looked up at every crossing
    # pair; started as large as the last step's, its lookups missed the cache)
    # Each part's candidates, a loop's events until it ends (pend), a gather's stamps
    # by body (zero: below every stamp), the rows it left over and its counts.
    flat_c, iused = carve(ints, iused, parts * n)
    cand = flat_c.reshape((parts, n))
    flat_qt, fused = carve(floats, fused, parts * (n + 1))
    qt = flat_qt.reshape((parts, n + 1))
    flat_qk, iused = carve(ints, iused, parts * (n + 1))
    qk = flat_qk.reshape((parts, n + 1))
    flat_qx, iused = carve(ints, iused, parts * (n + 1))
    qx = flat_qx.reshape((parts, n + 1))
    flat_m, i32used = carve(ints32, i32used, parts * n)
    flat_m[:] = 0
    marks = flat_m.reshape((parts, n))
    flat_o, iused = carve(ints, iused, parts * moving.shape[0])
    over = flat_o.reshape((parts, moving.shape[0]))
    counts = np.zeros((parts, 3), dtype=np.int64)
    # The touches resolved before the loop (step_start): their contacts, keys, and
    # the rows they changed
    pre_f = np.empty((moving.shape[0], 5))
    pre_i = np.empty((moving.shape[0], 4), dtype=np.int64)
    pre_k = np.empty(moving.shape[0], dtype=np.int64)
    later = np.empty(moving.shape[0], dtype=np.int64)
    pins, iused = carve(ints, iused, n)  # step_settle.settle's
    # What a body's slides of one moment left (columns: step_respond.HOLDER, LINKS,
    # PARTNERS_AT): its holder, its row's links, its slide partners
    flat_t, fused = carve(floats, fused, HELD_TIMES * n)
    held_t = flat_t.reshape((n, HELD_TIMES))
    flat_t[:] = -1.0
    flat_b, iused = carve(ints, iused, HELD_BODIES * n)
    held_by = flat_b.reshape((n, HELD_BODIES))
    flat_n, fused = carve(floats, fused, HELD_NORMALS * n)
    held_n = flat_n.reshape((n, HELD_NORMALS))
    # Bodies that may end the step overlapping something: every pair predicted to
    # part or meet no earlier than the end is tested where the end leaves it (as
    # the end will compute it), and its bodies marked if it overlaps there (by
    # rounding); a body that changes later is predicted, and tested, again. Only
    # these are checked at the end.
    near = np.zeros(n, dtype=np.bool_)

    quiet = quiet_groups(responses, ib, moving).any()
    state = np.array([nfree, iused, fused, 0, 0, 0, quiet, 0, i32used], dtype=np.int64)
    return Work(
        head=head, meets=meets, first_meets=first_lanes(meets, ib, moving), nbody=nbody,
        nnext=nnext, nlink=nlink, bfirst=bfirst, free=free, fstart=fstart, fbody=fbody,
        row=row, et=et, ek=ek, eh=eh, ht=ht, hk=hk, hpos=hpos, near=near, held_t=held_t,
        held_by=held_by, held_n=held_n, lf=lf, li=li, crossed=crossed, cand=cand, qt=qt,
        qk=qk, qx=qx, marks=marks, over=over, counts=counts, pins=pins, ends=ends,
        pre_f=pre_f, pre_i=pre_i, pre_k=pre_k, later=later, state=state,
    )  # fmt: skip


@helper_kernel
def left_over(fb, ib, responses, dt, grid, moving, stats, work):
    """The bodies the parts of the first predictions left over
    (``step_first.first_predictions``), predicted with part 0's buffers and stamps
    (which the rest of the step then uses, stamps going on from the last); ``stats``
    told the predictions, ``work.counts`` zeroed. Returns the queue's pool ``et, ek``
    (grown) and the last stamp used."""
    counts, et, ek = work.counts, work.et, work.ek
    stamp = 0
    for p in range(counts.shape[0]):
        stats[PREDICTIONS] += counts[p, 0]
        stamp = max(stamp, counts[p, 2])
    for p in range(counts.shape[0]):
        et, ek, made, stamp = first_overflow(
            fb, ib, responses, dt, grid, moving, work.fstart, work.fbody, work.head, work.nbody,
            work.nnext, work.first_meets, et, ek, work.eh, work.ht, work.hk, work.near,
            work.marks[0], stamp, work.cand[0], work.qt[0], work.qk[0], work.qx[0],
            work.over[p], counts[p, 1],
        )  # fmt: skip
        stats[PREDICTIONS] += made
    counts[:] = 0  # (for the parts of step_start.later_predictions, if any run)
    return et, ek, stamp


@kernel
def touches(fb, ib, responses, dt, grid, moving, stats, work):
    """After the parts' first predictions (``step_first.first_predictions``), when a
    group is quiet (``STATE_QUIET``): the bodies they left over predicted
    (:func:`left_over`); ``work.state`` is told the last stamp used. Returns the
    queue's pool ``et, ek`` (grown: the caller puts them in ``work``) and which groups
    are quiet (``step_start.quiet_groups``), for the parts of
    ``step_start.start_touches`` that follow (:func:`touch_part`), and then
    :func:`touched`."""
    et, ek, stamp = left_over(fb, ib, responses, dt, grid, moving, stats, work)
    work.state[STATE_STAMP] = stamp
    return et, ek, quiet_groups(responses, ib, moving)


@kernel
def touch_part(fb, ib, responses, cap, moving, work, quiet, start, stop, tally):
    """``step_start.start_touches`` of rows ``start`` to ``stop``, called from Python
    in a part's thread: through a kernel of this library (see ``docs/step.md``,
    "Compiled in this process, or loaded from numba's cache": the helper called from
    Python directly ran in its own, slower copy)."""
    start_touches(fb, ib, responses, cap, moving, start, stop, work.et, work.ek, work.eh,
                  work.near, quiet, work.pre_f, work.pre_i, work.pre_k, work.later,
                  tally)  # fmt: skip


@kernel
def touched(stats, work, starts, tally):
    """After the parts of ``step_start.start_touches`` (part ``p`` from row
    ``starts[p]``, its counts in ``tally[p]``): their results joined
    (``step_start.touches_joined``); ``work.state`` is told how many touches were
    resolved and how many rows wait to be predicted again
    (``step_start.later_predictions``)."""
    count, nlater = touches_joined(stats, work.pre_f, work.pre_i, work.pre_k, work.later, starts,
                                   tally)  # fmt: skip
    work.state[STATE_EARLY] = count
    work.state[STATE_LATER] = nlater
    work.state[STATE_TOUCHED] = 1


@kernel
def finish(fb, ib, responses, restitution, dt, cap, grid, moving, stats, used, work):
    """Run the step :func:`begin` set up, after the parts' first predictions and, when
    a group is quiet, :func:`touches` and the parts' predictions of the bodies it
    changed (``step_start.later_predictions``): the rows those left over predicted
    (:func:`left_over`, or ``step_start.later_overflow``), the heap built, the events run
    (``step_events.run_events``), every moving body brought to ``dt`` and rounding
    undone (``step_settle.settle``; what it cannot take apart put back where the
    step began, ``step_settle.put_back``). Rows are left at ``dt`` with their new
    velocities; ``stats`` is told the counts, ``used`` how much of each pool the
    step used, how large the lists' pool grew and how many contacts it logged.
    Returns the contacts: ``(float rows time, nx, ny, px, py; int rows a, b,
    response, started)``, and the stopping pairs left overlapping
    (``step_settle.overlaps_left``: their owners, possibly repeated)."""
    n = ib.shape[0]
    owners = ib[n - 1, OWNER] + 1 if n else 1
    cols = grid[4]
    state, counts = work.state, work.counts
    nfree, iused, fused = state[STATE_NFREE], state[STATE_IUSED], state[STATE_FUSED]
    if state[STATE_TOUCHED] == 0:  # (no group quiet: no touch before the loop)
        et, ek, stamp = left_over(fb, ib, responses, dt, grid, moving, stats, work)
    else:
        et, ek, stamp = work.et, work.ek, state[STATE_STAMP]
    for p in range(counts.shape[0]):  # (zero for the parts that did not run)
        stats[PREDICTIONS] += counts[p, 0]
        stamp = max(stamp, counts[p, 2])
    for p in range(counts.shape[0]):
        et, ek, made, stamp = later_overflow(
            fb, ib, responses, dt, grid, moving, work.row, et, ek, work.eh, work.ht, work.hk,
            work.hpos, work.fstart, work.fbody, work.head, work.nbody, work.nnext, work.meets,
            work.near, work.crossed, owners, work.marks[0], stamp, work.cand[0], work.qt[0],
            work.qk[0], work.qx[0], work.over[p], counts[p, 1],
        )  # fmt: skip
        stats[PREDICTIONS] += made
    pre_f, pre_i, pre_k = work.pre_f, work.pre_i, work.pre_k
    npre = state[STATE_EARLY]
    if not ascending(pre_k, npre):  # (made in the bodies' order, they mostly are)
        by_key = argsort_range(pre_k, 0, npre)  # (numba's np.argsort: 2 s to compile)
        pre_f, pre_i, pre_k = pre_f[by_key], pre_i[by_key], pre_k[by_key]
    work = renewed(work, et, ek, work.lf, work.li, work.crossed, pre_f, pre_i, pre_k)
    heapify(work.ht, work.hk, work.hpos)
    iwork, fwork = scratch()

    # run_events' place (step_events.STATE_SLOTS): row to scan again, contacts logged,
    # crossed pairs, stamp, free entries, where it paused
    place = np.zeros(STATE_SLOTS, dtype=np.int64)
    place[DIRTY], place[STAMP], place[NFREE] = -1, stamp, nfree
    place[EARLY_COUNT] = npre
    while True:
        status = run_events(fb, ib, responses, restitution, dt, cap, grid, moving, stats, work,
                            place, iwork, fwork)  # fmt: skip
        if status == LOG_FULL:
            lf, li = log_grown(work.lf, work.li)
            work = renewed(work, work.et, work.ek, lf, li, work.crossed, pre_f, pre_i, pre_k)
        elif status == SET_FULL:
            work = renewed(work, work.et, work.ek, work.lf, work.li, set_grown(work.crossed),
                           pre_f, pre_i, pre_k)  # fmt: skip
        elif status == POOL_FULL:
            et, ek = row_grown(work.et, work.ek, work.eh, place[PAUSE_ROW], place[PAUSE_COUNT])
            work = renewed(work, et, ek, work.lf, work.li, work.crossed, pre_f, pre_i, pre_k)
        else:
            break
    logged, stamp = place[LOGGED], place[STAMP]

    # The end of the step: every moving body brought to dt, then rounding undone.
    for i in moving:
        advance(fb, i, dt)
    stuck = np.zeros(n, dtype=np.bool_)
    marks0, cand0, pins, ends = work.marks[0], work.cand[0], work.pins, work.ends
    cells = (work.fstart, work.fbody, work.head, work.nbody, work.nnext, work.meets)
    fstart, fbody, head, nbody, nnext, meets = cells
    cleaned, nstuck, stamp = settle(
        fb, ib, responses, dt, moving, work.near, marks0, fstart, fbody, head, nbody, nnext,
        meets, cols, cand0, stamp, pins, ends[0], ends[1], stuck,
    )  # fmt: skip
    stats[NUDGED] += cleaned
    nfree = place[NFREE]
    for _ in range(PUT_BACK_ROUNDS):
        if not nstuck:
            break
        # put back, listed in their cells there, and cleaned up again from them
        stats[PUT_BACK] += put_back(fb, ib, responses, dt, moving, stuck, ends[2], ends[3])
        for i in moving:
            if stuck[i]:
                nfree = recover(fb, ib, head, nbody, nnext, work.nlink, work.bfirst, work.free,
                                nfree, cols, i, dt, grid)  # fmt: skip
        left = np.zeros(n, dtype=np.bool_)
        cleaned, nstuck, stamp = settle(
            fb, ib, responses, dt, moving, stuck, marks0, fstart, fbody, head, nbody, nnext,
            meets, cols, cand0, stamp, pins, ends[0], ends[1], left,
        )  # fmt: skip
        stats[NUDGED] += cleaned
        stuck = left
    crushed = False
    for i in moving:
        crushed = crushed or ib[i, FROZEN] == CRUSHED
    if nstuck or crushed:
        left_over_pairs, stamp = overlaps_left(fb, ib, responses, dt, moving, stuck, work, cols,
                                               stamp)  # fmt: skip
    else:
        left_over_pairs = np.empty((0, 2), dtype=np.int64)
    used[INTS_USED] = iused
    used[FLOATS_USED] = fused
    used[INTS32_USED] = state[STATE_I32USED]
    used[QUEUE_SIZE] = work.eh[moving.shape[0], BASE]
    used[LOG_ROOM] = logged
    return work.lf[:logged], work.li[:logged], left_over_pairs
