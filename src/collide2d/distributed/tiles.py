"""Tiles of the plane, chosen from a sample so that each holds about as many boxes.

The plane is cut into columns at quantiles of the sample's x, then each column into
tiles at quantiles of the y of the sample's points in that column, so skewed and
clustered data give balanced tiles. Tiles are half-open, ``[x0, x1) x [y0, y1)``,
the outer ones reaching to infinity, so every point lies in exactly one tile.

A box goes to every tile its closed extent meets; a pair is kept only by the tile
that holds its *reference point*, the top-left corner of the two boxes'
intersection. That point lies in both boxes' closed extents, so both boxes reached
its tile: each pair is found once, by exactly one tile.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from collide2d._typing import FloatArray, IndexArray


class Tiles(NamedTuple):
    """A grid of ``columns`` x ``rows`` tiles: ``x_cuts`` (columns - 1,) and, for each
    column, ``y_cuts[c]`` (rows - 1,)."""

    x_cuts: FloatArray
    y_cuts: FloatArray

    @property
    def total(self) -> int:
        """How many tiles."""
        return (self.x_cuts.shape[0] + 1) * (self.y_cuts.shape[1] + 1)


def choose_tiles(points: FloatArray, count: int) -> Tiles:
    """About ``count`` tiles holding equal shares of ``points`` ``(n, 2)``.

    >>> tiles = choose_tiles(np.array([[0.0, 0.0], [1.0, 1.0], [2.0, 2.0], [3.0, 3.0]]), 4)
    >>> tiles.total, tiles.x_cuts.tolist()
    (4, [1.5])
    """
    columns = max(1, int(np.floor(np.sqrt(count))))
    rows = max(1, -(-count // columns))
    if points.shape[0] == 0:
        return Tiles(np.zeros(columns - 1), np.zeros((columns, rows - 1)))
    x_cuts = _cuts(points[:, 0], columns)
    column = np.searchsorted(x_cuts, points[:, 0], side="right")
    y_cuts = np.empty((columns, rows - 1))
    for c in range(columns):
        ys = points[column == c, 1]
        y_cuts[c] = _cuts(ys if ys.shape[0] else points[:, 1], rows)
    return Tiles(x_cuts, y_cuts)


def _cuts(values: FloatArray, parts: int) -> FloatArray:
    """``parts - 1`` increasing cuts at the quantiles of ``values``."""
    if parts == 1:
        return np.zeros(0)
    cuts = np.quantile(values, np.arange(1, parts) / parts)
    return np.maximum.accumulate(cuts)


def tile_of(tiles: Tiles, x: FloatArray, y: FloatArray) -> IndexArray:
    """The tile holding each point ``(x[k], y[k])``."""
    column = np.searchsorted(tiles.x_cuts, x, side="right")
    rows = tiles.y_cuts.shape[1] + 1
    row = np.empty(x.shape[0], dtype=np.intp)
    for c in np.unique(column).tolist():
        here = column == c
        row[here] = np.searchsorted(tiles.y_cuts[c], y[here], side="right")
    tile: IndexArray = column * rows + row
    return tile


def spread(tiles: Tiles, box: FloatArray) -> tuple[IndexArray, IndexArray]:
    """Every (box, tile) such that the closed box ``box[k]`` (rows ``lo_x, lo_y, hi_x,
    hi_y``) meets the tile: two arrays, box numbers and tile numbers."""
    rows = tiles.y_cuts.shape[1] + 1
    c0 = np.searchsorted(tiles.x_cuts, box[:, 0], side="right")
    c1 = np.searchsorted(tiles.x_cuts, box[:, 2], side="right")
    boxes_out: list[IndexArray] = []
    tiles_out: list[IndexArray] = []
    for c in range(tiles.x_cuts.shape[0] + 1):
        here = np.flatnonzero((c0 <= c) & (c <= c1))
        if here.shape[0] == 0:
            continue
        r0 = np.searchsorted(tiles.y_cuts[c], box[here, 1], side="right")
        r1 = np.searchsorted(tiles.y_cuts[c], box[here, 3], side="right")
        span = r1 - r0 + 1
        owners = np.repeat(here, span)
        starts = np.repeat(np.cumsum(span) - span, span)
        offsets = np.arange(owners.shape[0]) - starts
        boxes_out.append(owners)
        tiles_out.append(c * rows + np.repeat(r0, span) + offsets)
    if not boxes_out:
        empty = np.zeros(0, dtype=np.intp)
        return empty, empty
    return np.concatenate(boxes_out), np.concatenate(tiles_out)
