"""What the distributed functions take: numpy arrays, dask arrays, dask dataframes and
Parquet files, each turned into partitions of float64 rows, checked before any pair
is searched for."""

from __future__ import annotations

import os
from typing import Any, NamedTuple

import dask.array as da
import dask.dataframe as dd
import fsspec
import numpy as np
from dask.delayed import Delayed, delayed
from distributed import Client

from collide2d._typing import FloatArray
from collide2d.batch.arrays import as_boxes, as_circles

ROWS_PER_PARTITION = 1_000_000
"""A numpy input is cut into partitions of this many rows."""
SAMPLE_PER_PARTITION = 2_000
"""Points each partition gives to the sample the tiles are chosen from."""


class Survey(NamedTuple):
    """What one partition tells before the search: its length, a sample of its shapes'
    centres ``(m, 2)``, and its first bad row (local number, or -1) with the values."""

    rows: int
    sample: FloatArray
    bad: int
    bad_values: list[float]


def partitions(
    data: Any, columns: tuple[str, ...], name: str, client: Client
) -> list[Delayed | Any]:
    """``data`` as a list of partitions, each a float64 ``(n, len(columns))`` array or a
    delayed one. Shapes, column names and paths are checked here; values by ``survey``
    (a numpy input's values are checked here too)."""
    width = len(columns)
    if isinstance(data, (str, os.PathLike)):
        paths = fsspec.core.get_fs_token_paths(os.fspath(data))[2]
        if not paths:
            raise ValueError(f"{name}: no Parquet file matches {os.fspath(data)!r}")
        data = dd.read_parquet(os.fspath(data))
    if isinstance(data, dd.DataFrame):
        missing = [column for column in columns if column not in data.columns]
        if missing:
            raise ValueError(
                f"{name} has no column {missing[0]!r}; it has {list(data.columns)} "
                f"(pass columns=(...) to name the {width} columns to use)"
            )
        frame = data[list(columns)]
        return [delayed(_as_rows)(part) for part in frame.to_delayed()]
    if isinstance(data, da.Array):
        if data.ndim != 2 or data.shape[1] != width:
            raise ValueError(f"{name} must have shape (N, {width}), got {data.shape}")
        blocks = data.astype(np.float64).rechunk({1: width}).to_delayed()
        return list(blocks[:, 0])
    rows = as_boxes(data, name) if width == 4 else as_circles(data, name)
    # In the graph, not scattered: a worker lost mid-run is recomputed from the graph.
    starts = range(0, max(rows.shape[0], 1), ROWS_PER_PARTITION)
    return [delayed(rows[k : k + ROWS_PER_PARTITION], pure=True) for k in starts]


def _as_rows(frame: Any) -> FloatArray:
    rows: FloatArray = np.ascontiguousarray(frame.to_numpy(dtype=np.float64))
    return rows


def survey(rows: FloatArray, seed: int) -> Survey:
    """A partition's length, a seeded sample of its centres, its first bad row."""
    width = rows.shape[1]
    # column by column: numpy's all(axis=1) over a few columns is slow (batch.arrays)
    ok = np.isfinite(rows[:, 0])
    for column in range(1, width):
        ok &= np.isfinite(rows[:, column])
    for column in range(2, width):
        ok &= rows[:, column] >= 0.0
    bad_rows = np.flatnonzero(~ok)
    bad = int(bad_rows[0]) if bad_rows.shape[0] else -1
    good = rows if bad < 0 else rows[ok]
    centres = good[:, :2] + good[:, 2:] * 0.5 if width == 4 else good[:, :2]
    rng = np.random.default_rng(seed)
    take = min(SAMPLE_PER_PARTITION, centres.shape[0])
    sample = centres[rng.choice(centres.shape[0], take, replace=False)] if take else centres
    values = rows[bad].tolist() if bad >= 0 else []
    return Survey(int(rows.shape[0]), sample, bad, values)


def check_surveys(surveys: list[Survey], name: str, width: int) -> None:
    """Raise a ``ValueError`` naming ``name`` and the global row of the first bad row."""
    start = 0
    for part in surveys:
        if part.bad >= 0:
            what = "finite with sizes >= 0" if width == 4 else "finite with radii >= 0"
            raise ValueError(f"{name} must be {what}; row {start + part.bad} is {part.bad_values}")
        start += part.rows
