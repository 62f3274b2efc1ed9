"""The event queue of ``World.step``'s compiled core: one short list of predicted
events per moving body, and a binary min-heap of the bodies by their earliest event
(as hard-disk codes keep one event per particle in their queue).

An event is ``(time, key, extra)``. ``key`` packs what orders events of the same
moment: ``order << 60 | lo << 30 | hi`` (a crossing before an overlap before a face
before a corner contact, then by the two bodies' numbers, which follow the order the
items were added). An event is listed under the body whose prediction found it;
``extra`` is the other body's event counter then, times two, plus the contact's axis.

A body that changes (a contact moved it) is predicted again from scratch: its list
is emptied and refilled. An event listed under another body that names it is then
stale, and is dropped when its list is next scanned (lazy invalidation, without the
global heap's pops of every stale prediction: the heap holds one place per moving
body, small enough to stay in the processor's cache).

The lists are the rows of one ``(bodies, 3 * room)`` integer array ``ek``, an event
in three columns side by side (time, key, extra; the time written and read through
``et``, the same memory seen as floats), with their lengths in ``elen`` and the
place of each row's earliest event in ``emin``. An event's three numbers share a
cache line, and a short row one line: in three arrays a row was three lines to
fetch, and the events come in time order, from all over the grid. The heap is
``hk``, a ``(bodies, 3)`` integer array of the earliest event's time, key and the
row, by heap place (the time through ``ht``, a float view; the two children of a
place on one cache line, not three), and ``hpos`` (a row's heap place).
A loop of predictions keeps its events in buffers (:func:`pend`) and appends them
once it ends (:func:`flush`), after making room: the lists are never grown
(reassigned) inside the core's hot loops, where numba would count references to
them at every turn.
"""

from __future__ import annotations

import numpy as np

from collide2d._kernels.jit import inline_kernel, kernel
from collide2d._kernels.step_arena import carve
from collide2d._kernels.step_shapes import COUNTER

BODY_BITS = 30
BODY_LIMIT = 1 << BODY_BITS
"""Bodies a step may hold (numbers must fit their 30 bits of the key)."""
ROOM = 8
"""Events a body's list holds at first (it grows, for every body, when one needs more)."""


@kernel
def pack(order, lo, hi):
    return (order << 60) | (lo << BODY_BITS) | hi


@kernel
def unpack(key):
    return key >> 60, (key >> BODY_BITS) & (BODY_LIMIT - 1), key & (BODY_LIMIT - 1)


@kernel
def _before(t, k, ot, ok):
    """Whether event ``(t, k)`` comes before ``(ot, ok)``."""
    return t < ot or (t == ot and k < ok)


@kernel
def new_queue(rows, room, ints, iused):
    """An empty queue of ``rows`` lists of ``room`` events:
    ``(et, ek, elen, emin, ht, hk, hpos)``, every row in the heap at time ``inf``,
    carved from the pool ``ints`` at ``iused`` (``step_arena``; the times are float
    views of the same memory); and the pool's new ``iused``."""
    flat, iused = carve(ints, iused, rows * room * 3)
    elen, iused = carve(ints, iused, rows)
    emin, iused = carve(ints, iused, rows)
    flat_h, iused = carve(ints, iused, 3 * rows)
    hpos, iused = carve(ints, iused, rows)
    hk = flat_h.reshape((rows, 3))
    ht = flat_h.view(np.float64).reshape((rows, 3))
    for r in range(rows):
        elen[r] = 0
        emin[r] = 0
        ht[r, 0] = np.inf
        hk[r, 1] = 0
        hk[r, 2] = r
        hpos[r] = r
    ek = flat.reshape((rows, 3 * room))
    et = flat.view(np.float64).reshape((rows, 3 * room))
    return et, ek, elen, emin, ht, hk, hpos, iused


@kernel
def room_of(ek):
    """How many events a row of the lists holds."""
    return ek.shape[1] // 3


@kernel
def lists_grown(ek, need):
    """The lists ``(et, ek)`` with room for ``need`` events a row (the room doubled
    until it fits)."""
    rows, width = ek.shape
    wider = 2 * (width // 3)
    while wider < need:
        wider *= 2
    flat = np.empty(rows * wider * 3, dtype=np.int64)
    nk = flat.reshape((rows, 3 * wider))
    nk[:, :width] = ek
    return flat.view(np.float64).reshape((rows, 3 * wider)), nk


@inline_kernel
def pend(pt, pk, px, npend, t, key, extra):
    """Keep an event for a row in the buffers ``pt, pk, px``; return their new count.

    A loop that predicts collects its events here and :func:`flush` appends them
    after it, once the row has room: the lists are never grown (reassigned) inside
    the loop, where numba would count references at every turn (two fifths of the
    gas scene's core), and grown only for events that are kept, not for every
    candidate."""
    pt[npend] = t
    pk[npend] = key
    px[npend] = extra
    return npend + 1


@kernel
def flush(et, ek, elen, r, pt, pk, px, npend):
    """Append the ``npend`` events kept by :func:`pend` to row ``r`` (the caller
    made room). A call, not inlined: inlined, the lists it writes (reassigned when
    grown) were counted again at every event (the gas scene's core 7% slower)."""
    c = 3 * elen[r]
    for m in range(npend):
        et[r, c] = pt[m]
        ek[r, c + 1] = pk[m]
        ek[r, c + 2] = px[m]
        c += 3
    elen[r] += npend


@inline_kernel
def heap_set(ht, hk, hpos, r, t, key):
    """Give row ``r``'s heap place the key ``(t, key)`` and restore the heap's order
    (the row sifts up or down as a hole: the places it passes move one place
    each)."""
    size = hk.shape[0]
    p = hpos[r]
    if _before(t, key, ht[p, 0], hk[p, 1]):
        while p > 0:
            parent = (p - 1) >> 1
            if not _before(t, key, ht[parent, 0], hk[parent, 1]):
                break
            hk[p, 0] = hk[parent, 0]
            hk[p, 1] = hk[parent, 1]
            hk[p, 2] = hk[parent, 2]
            hpos[hk[p, 2]] = p
            p = parent
    else:
        while True:
            child = 2 * p + 1
            if child >= size:
                break
            right = child + 1
            if right < size and _before(ht[right, 0], hk[right, 1], ht[child, 0], hk[child, 1]):
                child = right
            if not _before(ht[child, 0], hk[child, 1], t, key):
                break
            hk[p, 0] = hk[child, 0]
            hk[p, 1] = hk[child, 1]
            hk[p, 2] = hk[child, 2]
            hpos[hk[p, 2]] = p
            p = child
    ht[p, 0] = t
    hk[p, 1] = key
    hk[p, 2] = r
    hpos[r] = p


@inline_kernel
def refresh(et, ek, elen, emin, ht, hk, hpos, r, owner, ib):
    """Drop row ``r``'s stale events (the other body's counter in ``ib`` is no
    longer the one they were predicted with; ``owner`` is the row's body), find its
    earliest and give the row that heap key. Returns how many were dropped."""
    n = elen[r]
    k = 0
    best = -1
    bt = np.inf
    bk = 0
    dropped = 0
    while k < n:
        c = 3 * k
        key = ek[r, c + 1]
        lo = (key >> BODY_BITS) & (BODY_LIMIT - 1)
        hi = key & (BODY_LIMIT - 1)
        other = hi if lo == owner else lo
        if (key >> 60) != 0 and ib[other, COUNTER] != ek[r, c + 2] >> 1:
            n -= 1  # stale: the last event takes its place
            last = 3 * n
            ek[r, c] = ek[r, last]
            ek[r, c + 1] = ek[r, last + 1]
            ek[r, c + 2] = ek[r, last + 2]
            dropped += 1
            continue
        t = et[r, c]
        if best < 0 or _before(t, key, bt, bk):
            best, bt, bk = k, t, key
        k += 1
    elen[r] = n
    emin[r] = max(best, 0)
    heap_set(ht, hk, hpos, r, bt, bk)
    return dropped


@inline_kernel
def take(et, ek, elen, emin, r):
    """Remove row ``r``'s earliest event and return it ``(time, key, extra)``; the
    row's heap key is left as it was (the caller refreshes the row)."""
    c = 3 * emin[r]
    t, key, extra = et[r, c], ek[r, c + 1], ek[r, c + 2]
    last = 3 * (elen[r] - 1)
    ek[r, c] = ek[r, last]
    ek[r, c + 1] = ek[r, last + 1]
    ek[r, c + 2] = ek[r, last + 2]
    elen[r] -= 1
    return t, key, extra


GOLDEN = 0x9E3779B97F4A7C15 - (1 << 64)
"""Fibonacci hashing's multiplier, as a signed 64-bit integer (products wrap)."""


@kernel
def set_add(table, count, key):
    """Add ``key >= 0`` to the open-addressing set ``table`` (-1: empty; kept at most
    half full by the caller); return the new count, unchanged if it was there."""
    mask = table.shape[0] - 1
    k = (key * GOLDEN) & mask
    while table[k] >= 0:
        if table[k] == key:
            return count
        k = (k + 1) & mask
    table[k] = key
    return count + 1


@kernel
def set_has(table, key):
    """Whether ``key`` is in the set ``table``."""
    mask = table.shape[0] - 1
    k = (key * GOLDEN) & mask
    while table[k] >= 0:
        if table[k] == key:
            return True
        k = (k + 1) & mask
    return False


@kernel
def set_grown(table):
    """The set with twice the room."""
    bigger = np.full(2 * table.shape[0], -1, dtype=np.int64)
    for key in table:
        if key >= 0:
            set_add(bigger, 0, key)
    return bigger
