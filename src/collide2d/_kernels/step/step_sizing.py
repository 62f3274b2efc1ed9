"""What ``world/step_cells.py`` sizes the step's grid from, in one compiled pass over
the moving bodies: their bounds, extents and travels, the region they sweep, and the
room their covers need.

The same arithmetic as the numpy expressions it replaced (bit for bit: a sweep
beyond floats gives the same infinities and NaNs), without their twenty temporaries
of every moving body: ``step_cells.grid`` took 0.43 ms a step of the swarm scene
(10,000 moving bodies), 0.22 ms with this pass. The cell-size cost model's sums by
group and its loop over the sizes are compiled too (:func:`group_means`,
:func:`fixed_sums`, :func:`cheapest_size`): its numpy took 0.35 to 0.44 ms of every
bullets frame (a dozen calls on 4 x 4 arrays for each of nine sizes), 0.09 to 0.10
now, choosing the same size.
"""

from __future__ import annotations

import numpy as np

from collide2d._kernels.codes import CIRCLE, POLYGON
from collide2d._kernels.jit import inlined_helper, kernel
from collide2d._kernels.step.step_shapes import (
    GROUP,
    KIND,
    OUTLINE,
    PX0,
    PY0,
    VX,
    VY,
    H,
    W,
    X,
    Y,
    bounds_at,
)


@kernel
def moving_bounds(fb, ib, moving, dt):
    """The bodies ``moving``'s bounds ``x0, y0, x1, y1``, extents ``max(x1 - x0, y1 -
    y0)`` and travels ``(|vx| + |vy|) dt`` (arrays, in ``moving``'s order), the region
    ``left, top, right, bottom`` they sweep in ``dt`` at their velocities (NaN when a
    sweep is not a number). (Their extents' median is numpy's, taken by the caller:
    numba's ``np.median`` was 2.7 s of the step's first call.)"""
    n = moving.shape[0]
    x0 = np.empty(n)
    y0 = np.empty(n)
    x1 = np.empty(n)
    y1 = np.empty(n)
    extent = np.empty(n)
    travel = np.empty(n)
    left = top = np.inf
    right = bottom = -np.inf
    for k in range(n):
        i = moving[k]
        x = fb[i, X]
        y = fb[i, Y]
        if ib[i, KIND] == POLYGON:  # (its bounds' corner: the anchor and its offset)
            x += fb[ib[i, OUTLINE], PX0]
            y += fb[ib[i, OUTLINE], PY0]
        bx0, by0, bx1, by1, e, d, sx0, sy0, sx1, sy1 = body_bounds(
            x, y, fb[i, W], fb[i, H], ib[i, KIND] == CIRCLE, fb[i, VX], fb[i, VY], dt
        )
        x0[k], y0[k], x1[k], y1[k], extent[k], travel[k] = bx0, by0, bx1, by1, e, d
        left = least(left, sx0)
        top = least(top, sy0)
        right = most(right, sx1)
        bottom = most(bottom, sy1)
    return x0, y0, x1, y1, extent, travel, left, top, right, bottom


@inlined_helper
def body_bounds(x, y, w, h, circle, vx, vy, dt):
    """One moving body's bounds ``x0, y0, x1, y1``, extent and travel (as
    :func:`moving_bounds` lists them), and the corners of the box it sweeps in ``dt``
    (``min(x0, x0 + vx dt)``, ..., NaN when one is not a number)."""
    if circle:
        bx0, by0, bx1, by1 = x - w, y - w, x + w, y + w
    else:
        bx0, by0, bx1, by1 = x, y, x + w, y + h
    ex = vx * dt
    ey = vy * dt
    return (
        bx0, by0, bx1, by1, most(bx1 - bx0, by1 - by0), abs(ex) + abs(ey),
        least(bx0, bx0 + ex), least(by0, by0 + ey), most(bx1, bx1 + ex), most(by1, by1 + ey),
    )  # fmt: skip


@kernel
def bounds_of_parts(sized, count, regions):
    """What :func:`moving_bounds` returns, from bounds written in parts (by
    ``step_rows.body_rows``): ``sized``'s rows are ``x0, y0, x1, y1, extent, travel``
    of the first ``count`` moving bodies, ``regions[p]`` the box part ``p`` swept
    (``left, top, right, bottom``), merged in order (the first of equal zeros kept,
    as one pass keeps it)."""
    left = top = np.inf
    right = bottom = -np.inf
    for p in range(regions.shape[0]):
        left = least(left, regions[p, 0])
        top = least(top, regions[p, 1])
        right = most(right, regions[p, 2])
        bottom = most(bottom, regions[p, 3])
    return (sized[0, :count], sized[1, :count], sized[2, :count], sized[3, :count],
            sized[4, :count], sized[5, :count], left, top, right, bottom)  # fmt: skip


@kernel
def least(a, b):
    """``np.minimum(a, b)``: NaN if either is."""
    if a != a or b != b:
        return np.nan
    return a if a <= b else b


@kernel
def most(a, b):
    """``np.maximum(a, b)``: NaN if either is."""
    if a != a or b != b:
        return np.nan
    return a if a >= b else b


@kernel
def cover_room(x0, y0, x1, y1, cell, margin, cells):
    """The cell-list entries the covers of bodies with these bounds need at most over
    a step (each widened by a cell on every side, and at most ``cells``)."""
    room = 0.0
    for k in range(x0.shape[0]):
        per = (np.ceil((x1[k] - x0[k] + 2 * margin) / cell) + 2) * (
            np.ceil((y1[k] - y0[k] + 2 * margin) / cell) + 2
        )
        room += min(per, cells)
    return room


@kernel
def group_means(ib, moving, extent, groups):
    """The moving bodies per group and their mean extent (``extent`` in ``moving``'s
    order): ``count, mean`` (floats), as ``np.bincount`` gives them (the same sums,
    in the same order)."""
    count = np.zeros(groups)
    total = np.zeros(groups)
    for k in range(moving.shape[0]):
        g = ib[moving[k], GROUP]
        count[g] += 1.0
        total[g] += extent[k]
    mean = np.empty(groups)
    for g in range(groups):
        mean[g] = total[g] / max(count[g], 1.0)
    return count, mean


@kernel
def cheapest_size(meets, count, mean, fcount, fsides, fareas, crossings, area, cell, most,
                  doublings, crossing_cost, gathers):  # fmt: skip
    """The size among ``cell`` and its doublings (at most ``doublings``, none past the
    first at least ``most``) of the least modelled cost (``world/step_cells.py``):
    ``crossing_cost * crossings / size`` plus ``gathers`` looks at every group each
    group meets, ``count[h] * (size + mean[g] + mean[h])^2`` moving and ``fcount[h] *
    near^2 + fsides[h] * near + fareas[h]`` fixed, ``near = size + mean[g]``, per
    moving body of group ``g``, over ``area``."""
    groups = count.shape[0]
    best, best_cost = cell, np.inf
    size = cell
    for _ in range(doublings + 1):
        looks = 0.0
        for g in range(groups):
            moving_looks = 0.0
            fixed_looks = 0.0
            near = size + mean[g]
            for h in range(groups):
                if meets[g, h]:
                    reach = size + mean[g] + mean[h]
                    moving_looks += count[h] * reach * reach
                    fixed_looks += fcount[h] * near * near + fsides[h] * near + fareas[h]
            looks += count[g] * (moving_looks + fixed_looks)
        cost = crossing_cost * crossings / size + gathers * looks / area
        if cost < best_cost:
            best, best_cost = size, cost
        if size >= most:
            break
        size *= 2.0
    return best


@kernel
def fixed_sums(fb, ib, fixed, left, top, right, bottom, groups):
    """Per group, the fixed bodies ``fixed`` whose bounds meet the region (open
    intervals), and the sums of their widths plus heights and of their areas, each
    clipped to the region's size: ``fcount, fsides, fareas`` (floats), as
    ``np.bincount`` gives them."""
    fcount = np.zeros(groups)
    fsides = np.zeros(groups)
    fareas = np.zeros(groups)
    width, height = right - left, bottom - top
    for i in fixed:
        x0, y0, x1, y1 = bounds_at(fb, ib, i, fb[i, X], fb[i, Y])
        if not (x1 > left and x0 < right and y1 > top and y0 < bottom):
            continue
        fw = least(x1 - x0, width)
        fh = least(y1 - y0, height)
        g = ib[i, GROUP]
        fcount[g] += 1.0
        fsides[g] += fw + fh
        fareas[g] += fw * fh
    return fcount, fsides, fareas
