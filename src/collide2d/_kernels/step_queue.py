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

The lists are rows of three ``(bodies, room)`` arrays (``et`` times, ``ek`` keys,
``ex`` extras) with their lengths in ``elen`` and the place of each row's earliest
event in ``emin``; the heap is ``ht``/``hk`` (the earliest event's time and key, by
heap place), ``hrow`` (the row at a heap place) and ``hpos`` (a row's heap place).
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
def new_queue(rows, room, ints, iused, floats, fused):
    """An empty queue of ``rows`` lists of ``room`` events:
    ``(et, ek, ex, elen, emin, ht, hk, hrow, hpos)``, every row in the heap at time
    ``inf``, carved from the pools ``ints`` and ``floats`` at ``iused`` and ``fused``
    (``step_arena``); and the pools' new ``iused, fused``."""
    flat_t, fused = carve(floats, fused, rows * room)
    flat_k, iused = carve(ints, iused, rows * room)
    flat_x, iused = carve(ints, iused, rows * room)
    elen, iused = carve(ints, iused, rows)
    emin, iused = carve(ints, iused, rows)
    ht, fused = carve(floats, fused, rows)
    hk, iused = carve(ints, iused, rows)
    hrow, iused = carve(ints, iused, rows)
    hpos, iused = carve(ints, iused, rows)
    for r in range(rows):
        elen[r] = 0
        emin[r] = 0
        ht[r] = np.inf
        hk[r] = 0
        hrow[r] = r
        hpos[r] = r
    et = flat_t.reshape((rows, room))
    ek = flat_k.reshape((rows, room))
    ex = flat_x.reshape((rows, room))
    return et, ek, ex, elen, emin, ht, hk, hrow, hpos, iused, fused


@kernel
def lists_grown(et, ek, ex, need):
    """The lists with room for ``need`` events a row (the room doubled until it
    fits)."""
    rows, room = et.shape
    wider = 2 * room
    while wider < need:
        wider *= 2
    nt = np.empty((rows, wider))
    nk = np.empty((rows, wider), dtype=np.int64)
    nx = np.empty((rows, wider), dtype=np.int64)
    nt[:, :room] = et
    nk[:, :room] = ek
    nx[:, :room] = ex
    return nt, nk, nx


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
def flush(et, ek, ex, elen, r, pt, pk, px, npend):
    """Append the ``npend`` events kept by :func:`pend` to row ``r`` (the caller
    made room). A call, not inlined: inlined, the lists it writes (reassigned when
    grown) were counted again at every event (the gas scene's core 7% slower)."""
    k = elen[r]
    for m in range(npend):
        et[r, k + m] = pt[m]
        ek[r, k + m] = pk[m]
        ex[r, k + m] = px[m]
    elen[r] = k + npend


@inline_kernel
def heap_set(ht, hk, hrow, hpos, r, t, key):
    """Give row ``r`` the heap key ``(t, key)`` and restore the heap's order (the row
    sifts up or down as a hole: the rows it passes move one place each)."""
    size = ht.shape[0]
    p = hpos[r]
    if _before(t, key, ht[p], hk[p]):
        while p > 0:
            parent = (p - 1) >> 1
            if not _before(t, key, ht[parent], hk[parent]):
                break
            ht[p] = ht[parent]
            hk[p] = hk[parent]
            hrow[p] = hrow[parent]
            hpos[hrow[p]] = p
            p = parent
    else:
        while True:
            child = 2 * p + 1
            if child >= size:
                break
            right = child + 1
            if right < size and _before(ht[right], hk[right], ht[child], hk[child]):
                child = right
            if not _before(ht[child], hk[child], t, key):
                break
            ht[p] = ht[child]
            hk[p] = hk[child]
            hrow[p] = hrow[child]
            hpos[hrow[p]] = p
            p = child
    ht[p] = t
    hk[p] = key
    hrow[p] = r
    hpos[r] = p


@inline_kernel
def refresh(et, ek, ex, elen, emin, ht, hk, hrow, hpos, r, owner, ib):
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
        key = ek[r, k]
        lo = (key >> BODY_BITS) & (BODY_LIMIT - 1)
        hi = key & (BODY_LIMIT - 1)
        other = hi if lo == owner else lo
        if (key >> 60) != 0 and ib[other, COUNTER] != ex[r, k] >> 1:
            n -= 1  # stale: the last event takes its place
            et[r, k] = et[r, n]
            ek[r, k] = ek[r, n]
            ex[r, k] = ex[r, n]
            dropped += 1
            continue
        t = et[r, k]
        if best < 0 or _before(t, key, bt, bk):
            best, bt, bk = k, t, key
        k += 1
    elen[r] = n
    emin[r] = max(best, 0)
    heap_set(ht, hk, hrow, hpos, r, bt, bk)
    return dropped


@inline_kernel
def take(et, ek, ex, elen, emin, r):
    """Remove row ``r``'s earliest event and return it ``(time, key, extra)``; the
    row's heap key is left as it was (the caller refreshes the row)."""
    k = emin[r]
    t, key, extra = et[r, k], ek[r, k], ex[r, k]
    n = elen[r] - 1
    et[r, k] = et[r, n]
    ek[r, k] = ek[r, n]
    ex[r, k] = ex[r, n]
    elen[r] = n
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
