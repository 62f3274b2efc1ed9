"""The distributed pairs on a real LocalCluster of two worker processes: the answers
of one machine, whatever the input, the tiles, or a worker killed mid-run."""

from __future__ import annotations

import os
import signal
import time

import dask.array as da
import dask.dataframe as dd
import numpy as np
import pandas as pd
import pytest
from distributed import Client, LocalCluster

import collide2d
from collide2d.distributed import (
    overlapping_circle_pairs,
    overlapping_pairs,
    query_pairs,
    sorted_pairs,
)
from collide2d.scenes import boxes_scene, circles_scene


@pytest.fixture(scope="module")
def client():
    cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True)
    with Client(cluster) as connected:
        yield connected
    cluster.close()


@pytest.mark.parametrize("scene", ["uniform", "clustered", "mixed"])
def test_equal_to_one_machine_on_100k_boxes(client, scene):
    boxes = boxes_scene(scene, 100_000, seed=11)
    expected = collide2d.overlapping_pairs(boxes)
    np.testing.assert_array_equal(sorted_pairs(overlapping_pairs(boxes, tiles=9)), expected)


def awkward_boxes():
    """Lattice boxes (edges and reference points on the integer cuts the quantiles of a
    lattice choose), zero-size boxes, duplicates, and boxes across every tile."""
    rng = np.random.default_rng(3)
    lattice = rng.integers(0, 40, size=(3000, 2)).astype(float)
    sizes = rng.choice([0.0, 1.0, 2.0, 5.0], size=(3000, 2))
    boxes = np.column_stack([lattice, sizes])
    boxes = np.vstack([boxes, boxes[:200], [[-10, -10, 100, 100], [5, -50, 0.5, 200]]])
    return boxes


@pytest.mark.parametrize("tiles", [1, 2, 9, 25])
def test_awkward_boxes_and_any_number_of_tiles(client, tiles):
    boxes = awkward_boxes()
    np.testing.assert_array_equal(
        sorted_pairs(overlapping_pairs(boxes, tiles=tiles)), collide2d.overlapping_pairs(boxes)
    )


def test_more_tiles_than_boxes_and_no_boxes(client):
    boxes = np.array([[0, 0, 2, 2], [1, 1, 2, 2], [5, 5, 1, 1], [1, 1, 2, 2]], dtype=float)
    got = sorted_pairs(overlapping_pairs(boxes, tiles=50))
    np.testing.assert_array_equal(got, collide2d.overlapping_pairs(boxes))
    assert sorted_pairs(overlapping_pairs(np.zeros((0, 4)), tiles=3)).shape == (0, 2)


def test_dask_array_and_dataframe_inputs_with_empty_partitions(client):
    boxes = boxes_scene("clustered", 20_000, seed=5)
    expected = collide2d.overlapping_pairs(boxes)
    pieces = [boxes[:7000], np.zeros((0, 4)), boxes[7000:15000], np.zeros((0, 4)), boxes[15000:]]
    array = da.concatenate([da.from_array(p, chunks=(max(len(p), 1), 4)) for p in pieces])
    np.testing.assert_array_equal(sorted_pairs(overlapping_pairs(array, tiles=4)), expected)
    frame = pd.DataFrame(boxes, columns=["left", "top", "width", "height"])
    parts = dd.from_pandas(frame, npartitions=5)
    got = overlapping_pairs(parts, tiles=4, columns=("left", "top", "width", "height"))
    np.testing.assert_array_equal(sorted_pairs(got), expected)


def test_parquet_in_and_out(client, tmp_path):
    boxes = boxes_scene("mixed", 30_000, seed=8)
    frame = pd.DataFrame(boxes, columns=["x", "y", "w", "h"])
    dd.from_pandas(frame, npartitions=4).to_parquet(tmp_path / "boxes")
    pairs = overlapping_pairs(str(tmp_path / "boxes" / "*.parquet"), tiles=6)
    pairs.to_parquet(tmp_path / "pairs")
    back = dd.read_parquet(tmp_path / "pairs").compute()
    assert list(back.columns) == ["i", "j"] and (back.dtypes == "int64").all()
    rows = back.to_numpy()
    rows = rows[np.lexsort((rows[:, 1], rows[:, 0]))]
    np.testing.assert_array_equal(rows, collide2d.overlapping_pairs(boxes))


def test_circles_and_queries(client):
    circles = circles_scene(20_000, seed=2, equal=False)
    np.testing.assert_array_equal(
        sorted_pairs(overlapping_circle_pairs(circles, tiles=6)),
        collide2d.overlapping_circle_pairs(circles),
    )
    boxes = boxes_scene("uniform", 20_000, seed=4)
    queries = boxes_scene("mixed", 3_000, seed=9)
    got = sorted_pairs(query_pairs(boxes, queries, tiles=5))
    np.testing.assert_array_equal(got, collide2d.query_pairs(boxes, queries))


def test_a_worker_killed_mid_run_does_not_change_the_answer(client, tmp_path):
    boxes = boxes_scene("clustered", 200_000, seed=21)
    frame = pd.DataFrame(boxes, columns=["x", "y", "w", "h"])
    dd.from_pandas(frame, npartitions=8).to_parquet(tmp_path / "boxes")
    pairs = overlapping_pairs(str(tmp_path / "boxes"), tiles=36)
    before = set(client.run(os.getpid).values())
    victim = sorted(before)[0]
    future = client.compute(pairs)
    deadline = time.monotonic() + 60
    while not any(client.processing().values()) and time.monotonic() < deadline:
        time.sleep(0.01)  # wait until tasks are running
    assert not future.done()
    os.kill(victim, signal.SIGKILL)  # the nanny starts a new worker; lost tasks rerun
    result = future.result(timeout=300)
    client.wait_for_workers(2, timeout=60)
    assert victim not in set(client.run(os.getpid).values())  # it really died
    rows = result.to_numpy()
    rows = rows[np.lexsort((rows[:, 1], rows[:, 0]))]
    np.testing.assert_array_equal(rows, collide2d.overlapping_pairs(boxes))


@pytest.mark.parametrize(
    ("data", "error", "message"),
    [
        (np.array([[0, 0, 1, 1], [0, np.nan, 1, 1]]), ValueError, "boxes must be finite"),
        (np.array([[0, 0, 1, 1], [0, 0, -1, 1]]), ValueError, "sizes must be >= 0"),
        (np.zeros((3, 3)), ValueError, r"shape \(N, 4\)"),
        ("/nonexistent/boxes/*.parquet", ValueError, "no Parquet file matches"),
    ],
)
def test_bad_input_is_refused_before_any_search(client, data, error, message):
    with pytest.raises(error, match=message):
        overlapping_pairs(data)


def test_bad_values_in_a_dask_input_name_the_global_row(client):
    boxes = np.ones((100, 4))
    boxes[73, 2] = -5.0
    array = da.from_array(boxes, chunks=(30, 4))
    with pytest.raises(ValueError, match=r"row 73 is \[1.0, 1.0, -5.0, 1.0\]"):
        overlapping_pairs(array)
    frame = dd.from_pandas(pd.DataFrame(boxes, columns=list("abcd")), npartitions=2)
    with pytest.raises(ValueError, match="no column 'x'"):
        overlapping_pairs(frame)
    with pytest.raises(ValueError, match="tiles"):
        overlapping_pairs(np.ones((3, 4)), tiles=0)
    with pytest.raises(TypeError, match="client"):
        overlapping_pairs(np.ones((3, 4)), client="local")
