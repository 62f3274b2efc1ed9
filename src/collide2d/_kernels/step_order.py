"""The order of ``World.step``'s body rows in memory: the order of their places
(Z-order, or Morton, of their centres), not of their items.

The core reads the rows of the bodies near the one an event changed: rows numbered
in the order their items were added lie all over the tables when the items were
added in any order, and every gather misses the cache. Rows in Z-order put bodies
near each other in space near each other in memory (the swarm scene, its actors
added in a random order: a step's core about 10 % faster, measured with the actors
added sorted). What ties and orientations follow is the rows' *rank* (column
``RANK``: the order of the items, ``world/step.py``), so the rows' order changes
nothing but the speed.
"""

from __future__ import annotations

import numpy as np

from collide2d._kernels.jit import kernel
from collide2d._kernels.step_shapes import CIRCLE, KIND, H, W, X, Y

DIGIT_BITS = 8
"""Bits a pass of the radix sort takes (four passes sort the 32-bit codes; counts of
256, so a small world's rows are ordered at once)."""


@kernel
def spread(v):
    """The 16 low bits of ``v`` spread to the even bits of a 32-bit integer."""
    v &= 0xFFFF
    v = (v | (v << 8)) & 0x00FF00FF
    v = (v | (v << 4)) & 0x0F0F0F0F
    v = (v | (v << 2)) & 0x33333333
    return (v | (v << 1)) & 0x55555555


@kernel
def place_codes(fb, ib):
    """Every row's Z-order code: its centre on a grid of 65,536 x 65,536 square cells
    over the rows' centres, the bits of the column and the line interleaved."""
    n = fb.shape[0]
    cx = np.empty(n)
    cy = np.empty(n)
    for i in range(n):
        circle = ib[i, KIND] == CIRCLE
        cx[i] = fb[i, X] if circle else fb[i, X] + 0.5 * fb[i, W]
        cy[i] = fb[i, Y] if circle else fb[i, Y] + 0.5 * fb[i, H]
    codes = np.zeros(n, dtype=np.int64)
    if n == 0:
        return codes
    x0, x1, y0, y1 = cx.min(), cx.max(), cy.min(), cy.max()
    extent = max(x1 - x0, y1 - y0)
    scale = 65535.0 / extent if extent > 0.0 else 0.0
    for i in range(n):
        qx = min(int((cx[i] - x0) * scale), 65535)
        qy = min(int((cy[i] - y0) * scale), 65535)
        codes[i] = spread(qx) | (spread(qy) << 1)
    return codes


@kernel
def place_order(fb, ib):
    """The rows in Z-order of their places: ``order[k]`` is the row to put at ``k``;
    rows of one code keep their order (a stable radix sort of the 32-bit codes, a
    byte a pass)."""
    codes = place_codes(fb, ib)
    n = codes.shape[0]
    order = np.arange(n)
    spare = np.empty(n, dtype=np.int64)
    counts = np.empty((1 << DIGIT_BITS) + 1, dtype=np.int64)
    mask = (1 << DIGIT_BITS) - 1
    for shift in range(0, 32, DIGIT_BITS):
        counts[:] = 0
        for k in range(n):
            counts[((codes[order[k]] >> shift) & mask) + 1] += 1
        for d in range(1, counts.shape[0]):
            counts[d] += counts[d - 1]
        for k in range(n):
            digit = (codes[order[k]] >> shift) & mask
            spare[counts[digit]] = order[k]
            counts[digit] += 1
        order, spare = spare, order
    return order
