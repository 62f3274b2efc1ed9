"""The layout of the sorted strips (``pairs.strips``), built from bounds arrays."""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from collide2d._kernels import lazy
from collide2d._typing import FloatArray, IndexArray
from collide2d.tolerances import MAX_STRIPS

strips = lazy("pairs.strips")

LEVEL_RATIO = 4.0
"""Each level's strips are this many times taller than the previous level's."""

BASE_QUANTILE = 0.9
"""The finest level fits this fraction of the items (by larger extent)..."""

SINGLE_LEVEL_SPREAD = 2.0
"""...unless the largest item is at most this many times that size: then one level
fits all, which is faster for scenes of similar sizes."""


PYTHON_SORT_MAX_STRIPS = 4096
"""Up to this many strips, each is sorted by a numpy call (faster per element than
the compiled sort); beyond it the per-call overhead would dominate."""


class Strips(NamedTuple):
    """The structure as flat arrays (see ``collide2d._kernels.pairs.strips``)."""

    level_h: FloatArray
    level_w: FloatArray
    level_strip_off: IndexArray
    strip_ids: IndexArray
    strip_starts: IndexArray
    e_item: IndexArray
    e_box: FloatArray
    oy: float


def build_strips(box: FloatArray) -> Strips:
    """See :func:`_build_strips`; edges at ``inf`` (accepted input, docs/concepts.md)
    make spans and level heights overflow, which the layout tolerates silently."""
    with np.errstate(over="ignore", invalid="ignore"):
        return _build_strips(box)


def _build_strips(box: FloatArray) -> Strips:
    """Sort the items (``(N, 4)`` closed bounds) into levels by size, strips by top
    edge, and by left edge."""
    n = box.shape[0]
    if n == 0:
        zero = np.zeros(1, dtype=np.int64)
        return Strips(
            np.zeros(0), np.zeros(0), zero, zero[:0], zero, zero[:0], np.zeros((0, 4)), 0.0
        )
    oy = float(box[:, 1].min())
    span = max(float(box[:, 2].max()) - float(box[:, 0].min()), float(box[:, 3].max()) - oy)
    extent = np.maximum(box[:, 2] - box[:, 0], box[:, 3] - box[:, 1])
    k = int(BASE_QUANTILE * (n - 1))
    base = float(np.partition(extent, k)[k])
    largest = float(extent.max())
    if largest <= SINGLE_LEVEL_SPREAD * base:
        base = largest
    base = max(base, span / MAX_STRIPS)
    if not base > 0.0:
        base = max(span, 1.0)  # only points: any height works
    level = np.zeros(n, dtype=np.int64)
    levels = 1
    if largest > base:
        big = extent > base
        level[big] = np.ceil(np.log(extent[big] / base) / math.log(LEVEL_RATIO)).astype(np.int64)
        while True:  # make sure rounding left no item taller or wider than its level
            too_big = extent > base * LEVEL_RATIO ** level.astype(np.float64)
            if not too_big.any():
                break
            level[too_big] += 1
        used = np.flatnonzero(np.bincount(level))  # drop empty levels
        remap = np.zeros(int(level.max()) + 1, dtype=np.int64)
        remap[used] = np.arange(used.shape[0])
        heights = base * LEVEL_RATIO ** used.astype(np.float64)
        level = remap[level]
        levels = used.shape[0]
    else:
        heights = np.array([base])
    e_item, e_box, level_w, strip_off, strip_ids, strip_starts = strips.group_entries(
        level, heights, box, oy
    )
    _sort_strips(e_item, e_box, strip_starts)
    if heights.shape[0] != levels:  # pragma: no cover - a bookkeeping guard
        raise RuntimeError("level bookkeeping went wrong")
    return Strips(heights, level_w, strip_off, strip_ids, strip_starts, e_item, e_box, oy)


def _sort_strips(e_item: IndexArray, e_box: FloatArray, strip_starts: IndexArray) -> None:
    """Sort each strip by left edge: numpy's sort per strip when strips are few and
    full, the compiled loop when they are many and small."""
    if strip_starts.shape[0] - 1 > PYTHON_SORT_MAX_STRIPS:
        strips.sort_strips(e_item, e_box, strip_starts)
        return
    perm = np.empty(e_item.shape[0], dtype=np.intp)
    lefts = e_box[:, 0].copy()
    for a, b in zip(strip_starts[:-1].tolist(), strip_starts[1:].tolist(), strict=True):
        perm[a:b] = np.argsort(lefts[a:b]) + a
    strips.permute_entries(e_item, e_box, perm)
