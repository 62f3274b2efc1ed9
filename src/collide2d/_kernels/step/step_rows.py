"""The step's body rows built from the World's item table in one compiled pass, and
the moved rows written back into it in another.

``world/step.py`` built them with a dozen numpy operations over every row (each
making its temporaries): about 4 ms a step for 60,000 items on the development
machine in a busy hour. This writes the rows of the items that are not masks; a
mask's pixel boxes (several rows each) are written by ``world/step.py``.
"""

from __future__ import annotations

import numpy as np

from collide2d._kernels.codes import CIRCLE, MASK, POLYGON, RECT
from collide2d._kernels.jit import kernel
from collide2d._kernels.step.step_shapes import (
    FIXED,
    FLOATS,
    GROUP,
    INV,
    KIND,
    MVX,
    MVY,
    OUTLINE,
    OWNER,
    PX0,
    PY0,
    TREF,
    VX,
    VY,
    H,
    W,
    X,
    Y,
)
from collide2d._kernels.step.step_sizing import body_bounds, least, most


@kernel
def body_rows(fb, ib, slots, at, owners, kind, box, origin, radius, velocity, mass, group, keep,
              dt, sized, k0, region):  # fmt: skip
    """Write row ``at[r]`` of ``fb``/``ib`` (whatever they held: rows kept from the
    step before) for the table's slot ``slots[r]``, owned by item ``owners[r]``: a
    rectangle's box, a circle's centre and radius, velocity, inverse mass (0 for
    ``inf``), group; a body at rest with infinite mass fixed; every other column 0.

    With ``keep``, the rows hold the last step's for the same items: a row that was
    fixed is left as it is (its cells are those of the kept cell lists) and checked
    against the table instead. Returns False, the rows half written, if one differs
    from its item now or a body became fixed (the caller writes them all again).
    One loop, no helper: the rows' writing as a helper, called or inlined, made
    this eight times slower (numba passes or counts every array at every row).

    Unless ``sized`` has no columns, each moving body's bounds, extent and travel
    over ``dt`` (``step_sizing.body_bounds``) are written to ``sized``'s six rows,
    from column ``k0`` on in row order, and the box they sweep to ``region`` (``left,
    top, right, bottom``): what ``step_sizing.moving_bounds`` would read back from
    the rows just written (another pass over every row, 0.23 ms of a 4.8 ms frame
    of 20,000 bullets stopped at the walls; read here, by the threads that write the
    rows)."""
    bounded = sized.shape[1] > 0
    k = k0
    left = top = np.inf
    right = bottom = -np.inf
    for r in range(slots.shape[0]):
        s = slots[r]
        row = at[r]
        circle = kind[s] == CIRCLE
        polygon = kind[s] == POLYGON  # (its anchor; its bounds' size: written by Python)
        shape = CIRCLE if circle else (POLYGON if polygon else RECT)
        x = origin[s, 0] if circle or polygon else box[s, 0]
        y = origin[s, 1] if circle or polygon else box[s, 1]
        w = radius[s] if circle else box[s, 2]
        h = radius[s] if circle else box[s, 3]
        vx = velocity[s, 0]
        vy = velocity[s, 1]
        inv = 0.0 if mass[s] == np.inf else 1.0 / mass[s]
        fixed = vx == 0.0 and vy == 0.0 and inv == 0.0
        if keep and ib[row, FIXED] != 0:
            if not (
                fixed and fb[row, X] == x and fb[row, Y] == y and fb[row, W] == w
                and fb[row, H] == h and ib[row, KIND] == shape
                and ib[row, GROUP] == group[s] and ib[row, OWNER] == owners[r]
            ):  # fmt: skip
                return False
            fb[row, TREF] = 0.0  # (a touch brings a fixed body "to" its moment)
            continue
        if keep and fixed:
            return False  # not in the kept cell lists
        for c in range(FLOATS):
            fb[row, c] = 0.0
        for c in range(OUTLINE):  # (a polygon's OUTLINE: written by the step's Python)
            ib[row, c] = 0
        fb[row, X] = x
        fb[row, Y] = y
        fb[row, W] = w
        fb[row, H] = h
        ib[row, KIND] = shape
        fb[row, VX] = vx
        fb[row, VY] = vy
        fb[row, MVX] = vx
        fb[row, MVY] = vy
        fb[row, INV] = inv
        ib[row, GROUP] = group[s]
        ib[row, OWNER] = owners[r]
        ib[row, FIXED] = 1 if fixed else 0
        if bounded and not fixed:
            bx = x + fb[ib[row, OUTLINE], PX0] if polygon else x
            by = y + fb[ib[row, OUTLINE], PY0] if polygon else y
            bx0, by0, bx1, by1, e, d, sx0, sy0, sx1, sy1 = body_bounds(
                bx, by, w, h, circle, vx, vy, dt
            )
            sized[0, k], sized[1, k], sized[2, k], sized[3, k] = bx0, by0, bx1, by1
            sized[4, k], sized[5, k] = e, d
            k += 1
            left = least(left, sx0)
            top = least(top, sy0)
            right = most(right, sx1)
            bottom = most(bottom, sy1)
    if bounded:
        region[0], region[1], region[2], region[3] = left, top, right, bottom
    return True


@kernel
def first_unfinite(fb, moving):
    """The first of the rows ``moving`` whose position or velocity is not finite (a
    step's end beyond the largest float), or -1."""
    for i in moving:
        if not (np.isfinite(fb[i, X]) and np.isfinite(fb[i, Y]) and np.isfinite(fb[i, VX])
                and np.isfinite(fb[i, VY])):  # fmt: skip
            return i
    return -1


@kernel
def write_back(fb, ib, moving, live, kind, box, origin, velocity, radius, pending):
    """Write the moving bodies' rows (at the step's end) back into the table's columns
    of their items (``live[owner]``), masks excepted: position, velocity, and the box's
    corner (a circle's centre less its radius); each slot marked pending. Returns how
    many were written. ``-0.0`` is written as ``0.0``."""
    count = 0
    for i in moving:
        s = live[ib[i, OWNER]]
        if kind[s] == MASK or kind[s] == POLYGON:  # (a polygon's shape: Python writes it)
            continue
        x = fb[i, X] + 0.0
        y = fb[i, Y] + 0.0
        origin[s, 0] = x
        origin[s, 1] = y
        velocity[s, 0] = fb[i, VX] + 0.0
        velocity[s, 1] = fb[i, VY] + 0.0
        r = radius[s] if kind[s] == CIRCLE else 0.0
        box[s, 0] = x - r
        box[s, 1] = y - r
        pending[s] = True
        count += 1
    return count
