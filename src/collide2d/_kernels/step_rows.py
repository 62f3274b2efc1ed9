"""The step's body rows built from the World's item table in one compiled pass.

``world/step.py`` built them with a dozen numpy operations over every row (each
making its temporaries): about 4 ms a step for 60,000 items on the development
machine in a busy hour. This is the same, row by row, for a table without masks
(a mask's pixel boxes are several rows each: ``world/step.py`` builds those).
"""

from __future__ import annotations

import numpy as np

from collide2d._kernels.jit import kernel
from collide2d._kernels.step_shapes import (
    CIRCLE,
    FIXED,
    FLOATS,
    GROUP,
    INTS,
    INV,
    KIND,
    MVX,
    MVY,
    OWNER,
    RECT,
    VX,
    VY,
    H,
    W,
    X,
    Y,
)

TABLE_CIRCLE = 1  # collide2d.world.table.CIRCLE


@kernel
def body_rows(live, kind, box, origin, radius, velocity, mass, group):
    """``(fb, ib)`` for the table's live slots ``live`` (no masks): a rectangle's box,
    a circle's centre and radius, velocity, inverse mass (0 for ``inf``), group;
    bodies at rest with infinite mass marked fixed."""
    n = live.shape[0]
    fb = np.zeros((n, FLOATS))
    ib = np.zeros((n, INTS), dtype=np.int64)
    for r in range(n):
        s = live[r]
        if kind[s] == TABLE_CIRCLE:
            fb[r, X] = origin[s, 0]
            fb[r, Y] = origin[s, 1]
            fb[r, W] = radius[s]
            fb[r, H] = radius[s]
            ib[r, KIND] = CIRCLE
        else:
            fb[r, X] = box[s, 0]
            fb[r, Y] = box[s, 1]
            fb[r, W] = box[s, 2]
            fb[r, H] = box[s, 3]
            ib[r, KIND] = RECT
        vx = velocity[s, 0]
        vy = velocity[s, 1]
        fb[r, VX] = vx
        fb[r, VY] = vy
        fb[r, MVX] = vx
        fb[r, MVY] = vy
        inv = 0.0 if mass[s] == np.inf else 1.0 / mass[s]
        fb[r, INV] = inv
        ib[r, GROUP] = group[s]
        ib[r, OWNER] = r
        ib[r, FIXED] = 1 if (vx == 0.0 and vy == 0.0 and inv == 0.0) else 0
    return fb, ib
