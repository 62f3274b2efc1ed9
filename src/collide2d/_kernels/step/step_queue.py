"""The event queue of ``World.step``'s compiled core: one short list of predicted
events per moving body, and a 4-ary min-heap of the bodies by their earliest event
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

The lists live in one integer pool ``ek``, an event in three numbers side by side
(time, key, extra; the time written and read through ``et``, the same memory seen as
floats): an event's three numbers share a cache line, and a short list one line (in
three arrays a list was three lines to fetch, and the events come in time order, from
all over the grid). A list's header is a row of ``eh``: its length, the place of its
earliest event, where it starts in the pool and how many events it has room for
(``LEN, MIN, BASE, CAP``); ``eh[rows, BASE]`` is the pool's first free place. Every
list starts with room for ``ROOM`` events, in body order; a list that needs more
moves to the pool's end with twice the room (:func:`row_grown`), and the pool itself
doubles when full. (The lists were once rows of one ``(bodies, 3 * room)`` array,
every row as wide as the longest: in the bullets scene one box among the bullets
piled at a wall needed 256 events, and 20,000 bodies had room for 256 each, 123 MB,
faulted in and copied at every doubling.) The heap is ``hk``, a ``(bodies, 3)``
integer array of the earliest event's time, key and the row, by heap place (the time
through ``ht``, a float view: a place's key on one cache line, not three), and
``hpos`` (a row's heap place). A place has four children (``ARITY``): a popped body
whose list is then empty sinks through half the levels of a binary heap (the
bullets' 20,000 touches at time 0 a frame: ``ab_step.py`` best frame 5.84-6.26 ->
4.77-5.79 ms; gas +1 to 3 %). Only rows with an event are in the heap: its first
``hpos[rows]`` places (:func:`heap_size`); a row whose list empties leaves it (the
last place's row takes its place) and a row given an event again joins it at its
end, the places after the heap holding the rest, their keys infinite. The bullets
stopped at a wall (their keys infinite) once filled the heap's lower levels, and
every flying bullet's key, later at each of its cell crossings, sank through them
(a sixth of the event loop in its first frames, ``perf``).
A loop of predictions keeps its events in buffers (:func:`pend`) and appends them
once it ends (:func:`flush`), after making room: the pool is never grown
(reassigned) inside the core's hot loops, which allocate nothing. The event loop
moves a list within the pool (:func:`row_moved`) and, when the pool is full,
returns to its caller, which grows it (:func:`row_grown`) and calls it again.
"""

from __future__ import annotations

import numpy as np

from collide2d._kernels.jit import borrowing_kernel, inlined_helper, kernel
from collide2d._kernels.step.step_arena import carve
from collide2d._kernels.step.step_shapes import COUNTER

BODY_BITS = 30
BODY_LIMIT = 1 << BODY_BITS
"""Bodies a step may hold (numbers must fit their 30 bits of the key)."""
ROOM = 8
"""Events a body's list holds at first (a list that needs more moves: :func:`row_grown`)."""


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


ARITY_BITS = 2
ARITY = 1 << ARITY_BITS
"""The heap's children a place: 4 (half the levels of a binary heap to sift through)."""

LEN, MIN, BASE, CAP = range(4)
"""Columns of a list's header ``eh``: its length, the place of its earliest event,
where it starts in the pool (in integers), how many events it has room for."""


@inlined_helper
def home(r):
    """Where row ``r``'s list starts in the pool until it grows (the lists of
    :func:`new_queue`, ``ROOM`` events each in row order)."""
    return 3 * ROOM * r


@kernel
def new_queue(rows, size, ints, iused):
    """An empty queue of ``rows`` lists of ``ROOM`` events, their pool ``size``
    integers (at least what they need): ``(et, ek, eh, ht, hk, hpos)``, every row in
    the heap at time ``inf``, carved from the pool ``ints`` at ``iused``
    (``step_arena``; the times are float views of the same memory); and the pool's
    new ``iused``."""
    flat, iused = carve(ints, iused, max(size, home(rows)))
    flat_e, iused = carve(ints, iused, 4 * (rows + 1))
    flat_h, iused = carve(ints, iused, 3 * rows)
    hpos, iused = carve(ints, iused, rows + 1)
    eh = flat_e.reshape((rows + 1, 4))
    hk = flat_h.reshape((rows, 3))
    ht = flat_h.view(np.float64).reshape((rows, 3))
    for r in range(rows):
        eh[r, LEN] = 0
        eh[r, MIN] = 0
        eh[r, BASE] = home(r)
        eh[r, CAP] = ROOM
        ht[r, 0] = np.inf
        hk[r, 1] = 0
        hk[r, 2] = r
        hpos[r] = r
    hpos[rows] = 0  # the heap's size (heapify sets it)
    eh[rows, BASE] = home(rows)
    return flat.view(np.float64), flat, eh, ht, hk, hpos, iused


@inlined_helper
def _room(eh, r, need):
    """The room row ``r`` grows to for ``need`` events: its room doubled until it fits."""
    room = 2 * eh[r, CAP]
    while room < need:
        room *= 2
    return room


@borrowing_kernel
def row_moved(ek, eh, r, need):
    """Give row ``r`` room for ``need`` events (:func:`_room`) if the pool has it:
    the row moves, with its events, to the pool's end. Returns whether it did (if
    not, nothing changed: the pool is full, :func:`row_grown` grows it)."""
    room = _room(eh, r, need)
    top = eh[eh.shape[0] - 1, BASE]
    if top + 3 * room > ek.shape[0]:
        return False
    old = eh[r, BASE]
    for c in range(3 * eh[r, LEN]):
        ek[top + c] = ek[old + c]
    eh[r, BASE] = top
    eh[r, CAP] = room
    eh[eh.shape[0] - 1, BASE] = top + 3 * room
    return True


@kernel
def row_grown(et, ek, eh, r, need):
    """Give row ``r`` room for ``need`` events (:func:`row_moved`); the pool
    ``(et, ek)`` is returned, a new one twice as large (or as needed) when it was
    full."""
    top = eh[eh.shape[0] - 1, BASE]
    room = _room(eh, r, need)
    if top + 3 * room > ek.shape[0]:
        bigger = np.empty(max(2 * ek.shape[0], top + 3 * room), dtype=np.int64)
        bigger[:top] = ek[:top]
        ek = bigger
        et = bigger.view(np.float64)
    row_moved(ek, eh, r, need)
    return et, ek


@inlined_helper
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


@borrowing_kernel
def flush(et, ek, eh, r, pt, pk, px, npend):
    """Append the ``npend`` events kept by :func:`pend` to row ``r`` (the caller
    made room). A call, not inlined: inlined, the lists it writes (reassigned when
    grown) were counted again at every event (the gas scene's core 7% slower)."""
    c = eh[r, BASE] + 3 * eh[r, LEN]
    for m in range(npend):
        et[c] = pt[m]
        ek[c + 1] = pk[m]
        ek[c + 2] = px[m]
        c += 3
    eh[r, LEN] += npend


@inlined_helper
def heap_size(hpos):
    """How many rows are in the heap (its first places): those with an event."""
    return hpos[hpos.shape[0] - 1]


@inlined_helper
def _move(hk, hpos, to, place):
    """Move the row at heap place ``place`` (its time, key and number) to ``to``."""
    hk[to, 0] = hk[place, 0]
    hk[to, 1] = hk[place, 1]
    hk[to, 2] = hk[place, 2]
    hpos[hk[to, 2]] = to


@inlined_helper
def _place(ht, hk, hpos, p, r, t, key):
    """Put row ``r`` with key ``(t, key)`` at heap place ``p``."""
    ht[p, 0] = t
    hk[p, 1] = key
    hk[p, 2] = r
    hpos[r] = p


@inlined_helper
def _sift_up(ht, hk, hpos, p, r, t, key):
    """Put row ``r`` with key ``(t, key)`` into the hole at place ``p``, moving it up
    past the parents that come after it (each moves one place down)."""
    while p > 0:
        parent = (p - 1) >> ARITY_BITS
        if not _before(t, key, ht[parent, 0], hk[parent, 1]):
            break
        _move(hk, hpos, p, parent)
        p = parent
    _place(ht, hk, hpos, p, r, t, key)


@inlined_helper
def _sift_down(ht, hk, hpos, size, p, r, t, key):
    """Put row ``r`` with key ``(t, key)`` into the hole at place ``p`` of a heap of
    ``size`` places, moving it down past the children that come before it (the
    earliest of the four moves up each time)."""
    while True:
        first = (p << ARITY_BITS) + 1
        if first >= size:
            break
        child = first
        ct, ck = ht[first, 0], hk[first, 1]
        for c in range(first + 1, min(first + ARITY, size)):
            if _before(ht[c, 0], hk[c, 1], ct, ck):
                child, ct, ck = c, ht[c, 0], hk[c, 1]
        if not _before(ct, ck, t, key):
            break
        _move(hk, hpos, p, child)
        p = child
    _place(ht, hk, hpos, p, r, t, key)


@inlined_helper
def heap_set(ht, hk, hpos, r, t, key):
    """Give row ``r`` the key ``(t, key)`` and restore the heap's order: a row in the
    heap sifts up or down as a hole (the places it passes move one place each); a
    row whose key is now infinite leaves the heap (the heap's last row fills its
    place, sifting from there), a row out of the heap given a finite key joins it
    at its end and sifts up."""
    last = hpos.shape[0] - 1
    size = hpos[last]
    p = hpos[r]
    if p >= size:  # out of the heap
        if t == np.inf:
            ht[p, 0] = t
            hk[p, 1] = 0
            return
        # The row at the heap's end (out of it) takes r's place; r joins at the end.
        _move(hk, hpos, p, size)
        hpos[last] = size + 1
        _sift_up(ht, hk, hpos, size, r, t, key)
        return
    if t == np.inf:  # leaves the heap: its last row fills the hole at p
        size -= 1
        hpos[last] = size
        mt, mk, mr = ht[size, 0], hk[size, 1], hk[size, 2]
        _place(ht, hk, hpos, size, r, np.inf, 0)
        if p == size:
            return
        r, t, key = mr, mt, mk
    if p > 0 and _before(t, key, ht[(p - 1) >> ARITY_BITS, 0], hk[(p - 1) >> ARITY_BITS, 1]):
        _sift_up(ht, hk, hpos, p, r, t, key)
    else:
        _sift_down(ht, hk, hpos, size, p, r, t, key)


@inlined_helper
def refresh(et, ek, eh, ht, hk, hpos, r, owner, ib, sift):
    """Drop row ``r``'s stale events (the other body's counter in ``ib`` is no
    longer the one they were predicted with; ``owner`` is the row's body), find its
    earliest and give the row that heap key, restoring the heap's order if ``sift``
    (else the row keeps its place, as :func:`first_key` leaves it: before
    :func:`heapify`, a sift would only move rows the build moves again). Returns how
    many were dropped."""
    n = eh[r, LEN]
    base = eh[r, BASE]
    k = 0
    best = -1
    bt = np.inf
    bk = 0
    dropped = 0
    while k < n:
        c = base + 3 * k
        key = ek[c + 1]
        lo = (key >> BODY_BITS) & (BODY_LIMIT - 1)
        hi = key & (BODY_LIMIT - 1)
        other = hi if lo == owner else lo
        if (key >> 60) != 0 and ib[other, COUNTER] != ek[c + 2] >> 1:
            n -= 1  # stale: the last event takes its place
            last = base + 3 * n
            ek[c] = ek[last]
            ek[c + 1] = ek[last + 1]
            ek[c + 2] = ek[last + 2]
            dropped += 1
            continue
        t = et[c]
        if best < 0 or _before(t, key, bt, bk):
            best, bt, bk = k, t, key
        k += 1
    eh[r, LEN] = n
    eh[r, MIN] = max(best, 0)
    if sift:
        heap_set(ht, hk, hpos, r, bt, bk)
    else:
        p = hpos[r]
        ht[p, 0] = bt
        hk[p, 1] = bk
    return dropped


@inlined_helper
def first_key(et, ek, eh, ht, hk, r):
    """Give row ``r`` (at heap place ``r``, the queue's order before :func:`heapify`)
    the key of its earliest event, without restoring the heap's order: the first
    predictions fill every row so, and the heap is built once after them."""
    base = eh[r, BASE]
    best = -1
    bt = np.inf
    bk = 0
    for k in range(eh[r, LEN]):
        c = base + 3 * k
        if best < 0 or _before(et[c], ek[c + 1], bt, bk):
            best, bt, bk = k, et[c], ek[c + 1]
    eh[r, MIN] = max(best, 0)
    ht[r, 0] = bt
    hk[r, 1] = bk


@kernel
def heapify(ht, hk, hpos):
    """Build the heap over places whose keys were set in any order, each row at its
    own place: the rows with an event moved to the front, in their order (the rest,
    their keys infinite, after them: out of the heap), then Floyd's: each place from
    the last parent up sifts down (linear, and the places are read in order, where a
    sift up for each of the first predictions jumped about the heap)."""
    rows = hk.shape[0]
    size = 0
    for p in range(rows):
        if ht[p, 0] == np.inf:
            hk[p, 1] = 0
            continue
        if p != size:  # (place size holds a row out of the heap: they swap)
            t, key, r = ht[p, 0], hk[p, 1], hk[p, 2]
            _move(hk, hpos, p, size)
            _place(ht, hk, hpos, size, r, t, key)
        size += 1
    hpos[rows] = size
    for p in range((size - 2) >> ARITY_BITS, -1, -1):
        _sift_down(ht, hk, hpos, size, p, hk[p, 2], ht[p, 0], hk[p, 1])


@inlined_helper
def take(et, ek, eh, r):
    """Remove row ``r``'s earliest event and return it ``(time, key, extra)``; the
    row's heap key is left as it was (the caller refreshes the row)."""
    base = eh[r, BASE]
    c = base + 3 * eh[r, MIN]
    t, key, extra = et[c], ek[c + 1], ek[c + 2]
    last = base + 3 * (eh[r, LEN] - 1)
    ek[c] = ek[last]
    ek[c + 1] = ek[last + 1]
    ek[c + 2] = ek[last + 2]
    eh[r, LEN] -= 1
    return t, key, extra


GOLDEN = 0x9E3779B97F4A7C15 - (1 << 64)
"""Fibonacci hashing's multiplier, as a signed 64-bit integer (products wrap)."""


@borrowing_kernel
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


@borrowing_kernel
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
