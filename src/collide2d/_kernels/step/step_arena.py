"""The working arrays of ``World.step``'s compiled core, carved from pools kept
between steps (an arena, as Box2D's step allocator keeps its memory).

A step's cell lists, queue rows and candidate buffers are a dozen arrays of half a
megabyte each in a scene of 60,000 bodies. Made fresh at every step, each was new
memory from the operating system (glibc maps a large block and unmaps it when it is
freed), every page of it faulted in and cleared at first touch: about a third of
the swarm scene's step (16 ms a step, 10 ms with the allocator told to keep its
memory). The World keeps an ``int64`` and a ``float64`` pool instead, an ``int32``
one (the moving bodies' cell lists, the queue's row of each body, the stamps: half
the bytes to fetch), and one for the fixed bodies' cell lists, ``int32`` too
(``world/step_scratch.py``); :func:`carve` hands out
consecutive pieces of them, or a new array when the pool is short, and the core
reports how much it used, so the pools are grown for the next step.
"""

from __future__ import annotations

import numpy as np

from collide2d._kernels.jit import kernel

INTS_USED, FLOATS_USED, QUEUE_SIZE, LISTS_USED, LOG_ROOM, INTS32_USED = range(6)
USED = 6
"""What the core reports in ``used`` (``step_core.begin``, ``finish``): how much of
each pool it used, how large its queue's lists' pool grew (the next step starts it
that large), how much of the fixed bodies' pool it used (0 when it kept the lists
there), the contacts it logged (the next step's
log starts a quarter larger: grown by doubling from 16 rows, the bullets scene's
log of 20,000 contacts a frame was copied eleven times a frame), and how much of
the ``int32`` pool it used."""


@kernel
def carve(pool, used, size):
    """``size`` elements of ``pool`` from ``used`` (a new array if the pool is short),
    and the new ``used``. The piece holds whatever was there: the caller sets it."""
    end = used + size
    if end <= pool.shape[0]:
        return pool[used:end], end
    return np.empty(size, dtype=pool.dtype), end
