"""Build the hierarchical grid of ``collide2d._kernels.grid`` from bounds arrays."""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from collide2d.batch.arrays import FloatArray, IndexArray

CELL_FACTOR = 1.0
"""The finest cell is this times the median item extent (or finer items' spacing)."""

MAX_CELLS_PER_AXIS = 2**30
"""Cell coordinates stay below this, so that ``cx * ny + cy`` fits in int64."""


class FlatGrid(NamedTuple):
    """The grid as flat arrays (see ``collide2d._kernels.grid``)."""

    cell: FloatArray  # (L,) cell size per level
    nx: IndexArray  # (L,) columns per level
    ny: IndexArray  # (L,) rows per level
    uniq_off: IndexArray  # (L + 1,) where each level's cells start in ``uniq``
    member_off: IndexArray  # (L + 1,) where each level's items start in ``members``
    uniq: IndexArray  # occupied cell ids, sorted within each level
    starts: IndexArray  # (len(uniq) + 1,) where each cell's items start in ``items``
    items: IndexArray  # item indices, grouped by cell
    members: IndexArray  # item indices, grouped by level
    ox: float
    oy: float


def build(lo_x: FloatArray, lo_y: FloatArray, hi_x: FloatArray, hi_y: FloatArray) -> FlatGrid:
    """File every item in the level that fits its size, and in the cells it touches."""
    from collide2d._kernels.grid import LEVEL_RATIO, build_level

    n = lo_x.shape[0]
    empty = np.zeros(0, dtype=np.int64)
    if n == 0:
        zero = np.zeros(1, dtype=np.int64)
        return FlatGrid(np.zeros(0), empty, empty, zero, zero, empty, zero, empty, empty, 0.0, 0.0)
    ox = float(lo_x.min())
    oy = float(lo_y.min())
    span = max(float(hi_x.max()) - ox, float(hi_y.max()) - oy)
    extent = np.maximum(hi_x - lo_x, hi_y - lo_y)
    typical = float(np.partition(extent, n // 2)[n // 2])
    base = max(CELL_FACTOR * typical, span / math.sqrt(n), span / MAX_CELLS_PER_AXIS)
    if not base > 0.0:
        base = 1.0
    level = np.zeros(n, dtype=np.int64)
    big = extent > base
    if big.any():
        level[big] = np.ceil(np.log(extent[big] / base) / math.log(LEVEL_RATIO)).astype(np.int64)
        while True:  # make sure rounding left no item bigger than its level's cell
            too_big = extent > base * LEVEL_RATIO ** level.astype(np.float64)
            if not too_big.any():
                break
            level[too_big] += 1
    cells, nxs, nys, uniqs, startss, itemss, memberss = [], [], [], [], [], [], []
    uniq_off = [0]
    member_off = [0]
    item_count = 0
    for lv in np.unique(level):
        members = np.flatnonzero(level == lv).astype(np.intp)
        cell = base * LEVEL_RATIO ** float(lv)
        nx = int(math.floor((float(hi_x[members].max()) - ox) / cell)) + 1
        ny = int(math.floor((float(hi_y[members].max()) - oy) / cell)) + 1
        uniq, starts, items = build_level(members, lo_x, lo_y, hi_x, hi_y, ox, oy, cell, nx, ny)
        cells.append(cell)
        nxs.append(nx)
        nys.append(ny)
        uniqs.append(uniq)
        startss.append(starts[:-1] + item_count)
        itemss.append(items)
        memberss.append(members)
        item_count += items.shape[0]
        uniq_off.append(uniq_off[-1] + uniq.shape[0])
        member_off.append(member_off[-1] + members.shape[0])
    return FlatGrid(
        np.array(cells, dtype=np.float64),
        np.array(nxs, dtype=np.int64),
        np.array(nys, dtype=np.int64),
        np.array(uniq_off, dtype=np.int64),
        np.array(member_off, dtype=np.int64),
        np.concatenate(uniqs),
        np.concatenate([*startss, np.array([item_count], dtype=np.int64)]),
        np.concatenate(itemss),
        np.concatenate(memberss),
        ox,
        oy,
    )


def single_cell(n: int) -> FlatGrid:
    """A grid of one infinite cell holding all ``n`` items: every search scans them all."""
    members = np.arange(n, dtype=np.intp)
    zero = np.zeros(1, dtype=np.int64)
    return FlatGrid(
        np.array([np.inf]),
        np.ones(1, dtype=np.int64),
        np.ones(1, dtype=np.int64),
        np.array([0, 1 if n else 0], dtype=np.int64),
        np.array([0, n], dtype=np.int64),
        zero if n else np.zeros(0, dtype=np.int64),
        np.array([0, n] if n else [0], dtype=np.int64),
        members,
        members,
        0.0,
        0.0,
    )
