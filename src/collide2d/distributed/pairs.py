"""Overlapping pairs of boxes (or circles) on a Dask cluster, identical to one machine."""

from __future__ import annotations

import atexit
import math
import os
from typing import Any

import dask.dataframe as dd
import numpy as np
import pandas as pd
from dask.delayed import delayed
from distributed import Client, LocalCluster, get_client

from collide2d import batch
from collide2d._typing import FloatArray, IndexArray
from collide2d.distributed.inputs import check_surveys, partitions, survey
from collide2d.distributed.tiles import Tiles, choose_tiles, spread, tile_of

BOXES_PER_TILE = 1_000_000
"""With ``tiles=None``, about this many boxes go to each tile."""

_OWN: list[Client] = []  # a local cluster started for want of a client, closed at exit


def overlapping_pairs(
    boxes: Any,
    *,
    tiles: int | None = None,
    client: Client | None = None,
    columns: tuple[str, str, str, str] = ("x", "y", "w", "h"),
) -> dd.DataFrame:
    """Every pair of boxes whose interiors overlap, found tile by tile on a Dask cluster.

    Parameters
    ----------
    boxes : array_like of shape (N, 4), dask array, dask dataframe or Parquet path
        Rows ``x, y, w, h`` (for dataframes and Parquet, the ``columns``). A path may
        be a glob (``"boxes/*.parquet"``) or a folder.
    tiles : int, optional
        How many tiles to cut the plane into; about one per million boxes by default.
    client : distributed.Client, optional
        The cluster to use; the current client by default, or else a local cluster the
        size of this machine, started once and kept.
    columns : 4 str
        The columns of a dataframe or Parquet input that hold ``x, y, w, h``.

    Returns
    -------
    dask.dataframe.DataFrame
        int64 columns ``i`` and ``j``, ``i < j``, global row numbers of the input: once
        computed and sorted, the very array :func:`collide2d.overlapping_pairs` gives
        (see :func:`sorted_pairs`). Each tile's pairs are one partition.

    Raises
    ------
    ValueError
        For NaN or infinite values, negative sizes, a wrong shape, a missing column, or
        a path that matches no file, before any pair is searched for.
    """
    return _pairs(boxes, columns, "boxes", tiles, client, round_=False)


def overlapping_circle_pairs(
    circles: Any,
    *,
    tiles: int | None = None,
    client: Client | None = None,
    columns: tuple[str, str, str] = ("x", "y", "r"),
) -> dd.DataFrame:
    """Every pair of circles that overlap (centre distance ``< r1 + r2``), as
    :func:`overlapping_pairs` finds pairs of boxes; rows ``x, y, r``."""
    return _pairs(circles, columns, "circles", tiles, client, round_=True)


def query_pairs(
    boxes: Any,
    queries: Any,
    *,
    tiles: int | None = None,
    client: Client | None = None,
    columns: tuple[str, str, str, str] = ("x", "y", "w", "h"),
) -> dd.DataFrame:
    """Every (query, box) pair whose rectangles overlap, as :func:`collide2d.query_pairs`
    finds them on one machine: int64 columns ``query`` and ``box``."""
    cluster = _client(client)
    box_parts = partitions(boxes, columns, "boxes", cluster)
    query_parts = partitions(queries, columns, "queries", cluster)
    surveys = cluster.compute(
        [delayed(survey)(part, k) for k, part in enumerate(box_parts + query_parts)], sync=True
    )
    check_surveys(surveys[: len(box_parts)], "boxes", 4)
    check_surveys(surveys[len(box_parts) :], "queries", 4)
    plan = _plan(surveys, tiles)
    cut = _cut_frames(box_parts, surveys[: len(box_parts)], plan, 4, kind=0)
    cut += _cut_frames(query_parts, surveys[len(box_parts) :], plan, 4, kind=1)
    meta = pd.DataFrame({"query": pd.Series(dtype="int64"), "box": pd.Series(dtype="int64")})
    return _by_tile(cut, plan, 4).map_partitions(_search_queries, plan, meta=meta)


def sorted_pairs(pairs: dd.DataFrame) -> IndexArray:
    """Compute a distributed result into the ``(K, 2)`` array the one-machine function
    returns: rows sorted lexicographically."""
    frame = pairs.compute()
    rows = frame.to_numpy(dtype=np.intp).reshape(-1, 2)
    order = np.lexsort((rows[:, 1], rows[:, 0]))
    result: IndexArray = rows[order]
    return result


def _pairs(
    data: Any, columns: tuple[str, ...], name: str, tiles: int | None, client: Client | None,
    round_: bool,
) -> dd.DataFrame:  # fmt: skip
    if tiles is not None and (isinstance(tiles, bool) or not isinstance(tiles, int) or tiles < 1):
        raise ValueError(f"tiles must be an int >= 1 or None, got {tiles!r}")
    cluster = _client(client)
    parts = partitions(data, columns, name, cluster)
    surveys = cluster.compute([delayed(survey)(part, k) for k, part in enumerate(parts)], sync=True)
    width = len(columns)
    check_surveys(surveys, name, width)
    plan = _plan(surveys, tiles)
    cut = _cut_frames(parts, surveys, plan, width, kind=0)
    meta = pd.DataFrame({"i": pd.Series(dtype="int64"), "j": pd.Series(dtype="int64")})
    return _by_tile(cut, plan, width).map_partitions(_search_pairs, plan, round_, meta=meta)


def _plan(surveys: list[Any], tiles: int | None) -> Tiles:
    total = sum(part.rows for part in surveys)
    count = tiles if tiles is not None else max(1, math.ceil(total / BOXES_PER_TILE))
    sample = np.concatenate([part.sample for part in surveys] or [np.zeros((0, 2))])
    return choose_tiles(sample, count)


FIELDS = ("tile", "kind", "row", "a", "b", "c", "d")
"""The columns of the shuffled rows: tile, kind (0 box, 1 query), global row number,
then the shape's values (``x, y, w, h``, or ``x, y, r`` and an unused ``d``)."""


def _cut_frames(
    parts: list[Any], surveys: list[Any], plan: Tiles, width: int, kind: int
) -> list[Any]:
    """Each partition as a delayed frame of one row per (shape, tile it meets)."""
    frames = []
    start = 0
    for part, info in zip(parts, surveys, strict=True):
        frames.append(delayed(_cut)(part, start, plan, width, kind))
        start += info.rows
    return frames


def _by_tile(frames: list[Any], plan: Tiles, width: int) -> dd.DataFrame:
    """The rows, shuffled so that all rows of a tile are in one partition (Dask's
    shuffle: buffered and spilled to disk, so no worker holds more than its share)."""
    meta = pd.DataFrame({field: pd.Series(dtype="int64" if k < 3 else "float64")
                         for k, field in enumerate(FIELDS)})  # fmt: skip
    rows = dd.from_delayed(frames, meta=meta, verify_meta=False)
    return rows.shuffle(on="tile", npartitions=max(1, min(plan.total, rows.npartitions * 4)))


def _bounds(rows: FloatArray, round_: bool) -> FloatArray:
    """Closed bounds ``lo_x, lo_y, hi_x, hi_y``, rounded as the one-machine search's."""
    if round_:
        return np.column_stack(
            [rows[:, 0] - rows[:, 2], rows[:, 1] - rows[:, 2],
             rows[:, 0] + rows[:, 2], rows[:, 1] + rows[:, 2]]
        )  # fmt: skip
    return np.column_stack(
        [rows[:, 0], rows[:, 1], rows[:, 0] + rows[:, 2], rows[:, 1] + rows[:, 3]]
    )


def _cut(rows: FloatArray, start: int, plan: Tiles, width: int, kind: int) -> pd.DataFrame:
    """One row per (shape, tile its closed bounds meet), with the global row number."""
    owners, where = spread(plan, _bounds(rows, width == 3))
    values = np.zeros((owners.shape[0], 4))
    values[:, :width] = rows[owners]
    frame: dict[str, np.ndarray] = {
        "tile": where.astype(np.int64),
        "kind": np.full(owners.shape[0], kind, dtype=np.int64),
        "row": (owners + start).astype(np.int64),
    }
    for k, field in enumerate(FIELDS[3:]):
        frame[field] = values[:, k]
    return pd.DataFrame(frame)


def _tiles_of(frame: pd.DataFrame) -> list[tuple[int, pd.DataFrame]]:
    """The rows of each tile in a shuffled partition."""
    if frame.shape[0] == 0:
        return []
    return [(int(tile), group) for tile, group in frame.groupby("tile", sort=True)]


def _search_pairs(frame: pd.DataFrame, plan: Tiles, round_: bool) -> pd.DataFrame:
    """Each tile of the partition: every overlapping pair whose reference point is in it."""
    width = 3 if round_ else 4
    found = [_empty_pairs()]
    for tile, group in _tiles_of(frame):
        rows = np.ascontiguousarray(group[list(FIELDS[3 : 3 + width])].to_numpy())
        index = group["row"].to_numpy()
        local = batch.overlapping_circle_pairs(rows) if round_ else batch.overlapping_pairs(rows)
        box = _bounds(rows, round_)
        a, b = local[:, 0], local[:, 1]
        mine = (
            tile_of(plan, np.maximum(box[a, 0], box[b, 0]), np.maximum(box[a, 1], box[b, 1]))
            == tile
        )
        i, j = index[a[mine]], index[b[mine]]
        found.append(pd.DataFrame({"i": np.minimum(i, j), "j": np.maximum(i, j)}))
    return pd.concat(found, ignore_index=True)


def _empty_pairs() -> pd.DataFrame:
    return pd.DataFrame({"i": pd.Series(dtype="int64"), "j": pd.Series(dtype="int64")})


def _search_queries(frame: pd.DataFrame, plan: Tiles) -> pd.DataFrame:
    """Each tile of the partition: every (query, box) pair whose reference point is in it."""
    found = [pd.DataFrame({"query": pd.Series(dtype="int64"), "box": pd.Series(dtype="int64")})]
    for tile, group in _tiles_of(frame):
        boxes_rows = group[group["kind"] == 0]
        query_rows = group[group["kind"] == 1]
        boxes = np.ascontiguousarray(boxes_rows[list(FIELDS[3:])].to_numpy())
        queries = np.ascontiguousarray(query_rows[list(FIELDS[3:])].to_numpy())
        local = batch.query_pairs(boxes, queries)
        qb, bb = _bounds(queries, False), _bounds(boxes, False)
        q, b = local[:, 0], local[:, 1]
        mine = tile_of(plan, np.maximum(qb[q, 0], bb[b, 0]), np.maximum(qb[q, 1], bb[b, 1])) == tile
        found.append(pd.DataFrame({"query": query_rows["row"].to_numpy()[q[mine]],
                                   "box": boxes_rows["row"].to_numpy()[b[mine]]}))  # fmt: skip
    return pd.concat(found, ignore_index=True)


def _client(client: Client | None) -> Client:
    """``client``, else the current one, else a local cluster started once and kept."""
    if client is not None:
        if not isinstance(client, Client):
            raise TypeError(f"client must be a distributed.Client or None, got {client!r}")
        return client
    try:
        found: Client = get_client()
        return found
    except ValueError:
        pass
    if not _OWN:
        cluster = LocalCluster(n_workers=os.cpu_count() or 1, threads_per_worker=1)
        own = Client(cluster)
        _OWN.append(own)
        atexit.register(own.close)
    return _OWN[0]
