"""The event queue of ``World.step``'s compiled core: a binary min-heap of predicted
events on flat arrays, with lazy invalidation.

An event is ``(time, key, c0, c1, aux)``. ``key`` packs what orders events of the
same moment: ``order << 60 | lo << 30 | hi`` (a crossing before an overlap before a
face before a corner contact, then by the two bodies' numbers, which follow the
order the items were added). ``c0, c1`` are the two bodies' event counters when the
event was predicted: an event whose bodies have changed since is stale, and is
dropped when it comes to the top instead of being searched for and removed.
"""

from __future__ import annotations

import numpy as np

from collide2d._kernels.jit import inline_kernel, kernel

BODY_BITS = 30
BODY_LIMIT = 1 << BODY_BITS
"""Bodies a step may hold (numbers must fit their 30 bits of the key)."""


@kernel
def pack(order, lo, hi):
    return (order << 60) | (lo << BODY_BITS) | hi


@kernel
def unpack(key):
    return key >> 60, (key >> BODY_BITS) & (BODY_LIMIT - 1), key & (BODY_LIMIT - 1)


@kernel
def grown(ht, hk, hc):
    """The heap's arrays with twice the room."""
    size = ht.shape[0]
    nt = np.empty(2 * size)
    nk = np.empty(2 * size, dtype=np.int64)
    nc = np.empty((2 * size, 3), dtype=np.int64)
    nt[:size] = ht
    nk[:size] = hk
    nc[:size] = hc
    return nt, nk, nc


@inline_kernel
def _move(ht, hk, hc, to, source):
    """Copy heap slot ``source`` to slot ``to``."""
    ht[to] = ht[source]
    hk[to] = hk[source]
    hc[to, 0] = hc[source, 0]
    hc[to, 1] = hc[source, 1]
    hc[to, 2] = hc[source, 2]


@kernel
def push(ht, hk, hc, size, time, key, c0, c1, aux):
    """Add an event (the arrays have room for it); return the new size. The parents
    it passes move down one place each and the event is written once, where it stops
    (the same places as swapping it up, in half the writes)."""
    k = size
    while k > 0:
        parent = (k - 1) >> 1
        pt = ht[parent]
        if not (time < pt or (time == pt and key < hk[parent])):
            break
        _move(ht, hk, hc, k, parent)
        k = parent
    ht[k] = time
    hk[k] = key
    hc[k, 0] = c0
    hc[k, 1] = c1
    hc[k, 2] = aux
    return size + 1


@kernel
def pop(ht, hk, hc, size):
    """Move the earliest event to the end of the heap (index ``size - 1``, where the
    caller reads it); return the new size. The last event sifts down from the top
    as a hole: the children it passes move up, and it is written once."""
    size -= 1
    rt = ht[0]
    rk = hk[0]
    r0 = hc[0, 0]
    r1 = hc[0, 1]
    r2 = hc[0, 2]
    lt = ht[size]
    lk = hk[size]
    l0 = hc[size, 0]
    l1 = hc[size, 1]
    l2 = hc[size, 2]
    k = 0
    while True:
        left = 2 * k + 1
        if left >= size:
            break
        child = left
        right = left + 1
        if right < size and (
            ht[right] < ht[left] or (ht[right] == ht[left] and hk[right] < hk[left])
        ):
            child = right
        ct = ht[child]
        if not (ct < lt or (ct == lt and hk[child] < lk)):
            break
        _move(ht, hk, hc, k, child)
        k = child
    ht[k] = lt
    hk[k] = lk
    hc[k, 0] = l0
    hc[k, 1] = l1
    hc[k, 2] = l2
    ht[size] = rt
    hk[size] = rk
    hc[size, 0] = r0
    hc[size, 1] = r1
    hc[size, 2] = r2
    return size


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
