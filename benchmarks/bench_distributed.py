"""collide2d.distributed against one machine and against dask-geopandas' sjoin.

    python3 scripts/run.py bench bench_distributed
    python benchmarks/bench_distributed.py --boxes 10000000 --huge 100000000

1. ``--boxes`` boxes (the ``uniform`` scene) written to Parquet, read back by
   ``collide2d.distributed.overlapping_pairs`` on a LocalCluster of 1 and of 2 worker
   processes: seconds and peak memory (RSS) per worker, against one-machine
   ``collide2d.overlapping_pairs`` on the same array (its process's peak growth),
   answers compared.
2. dask-geopandas ``sjoin(predicate="intersects")`` of the same boxes as polygons, if
   it is installed (``--sjoin`` boxes: it is far slower), pair counts compared after
   dropping pairs that only touch.
3. ``--huge`` boxes generated on the workers (a dask array, never on the client),
   pairs counted without collecting them: seconds and peak memory per worker, to
   show that memory follows a tile's data, not the number of boxes.
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import tempfile
import time
from pathlib import Path

import dask.array as da
import dask.dataframe as dd
import numpy as np
import pandas as pd
from _timing import table
from distributed import Client, LocalCluster

import collide2d
from collide2d.distributed import overlapping_pairs, sorted_pairs
from collide2d.scenes import MEAN_SIZE, boxes_scene, world_side


def peak_rss_mb() -> float:
    """This process's peak resident memory so far, in MB (Linux: kB units). Only for
    the client: a worker inherits its parent's peak across fork and exec."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


def start_sampling(dask_worker: object) -> None:
    """On a worker (``client.run`` passes it as ``dask_worker``): sample its resident
    memory every 20 ms in a thread, keep the max on the worker object."""
    import threading

    import psutil

    process = psutil.Process()
    state = {"peak": process.memory_info().rss}
    dask_worker.collide2d_memory = state  # type: ignore[attr-defined]

    def sample() -> None:
        while True:
            state["peak"] = max(state["peak"], process.memory_info().rss)
            time.sleep(0.02)

    threading.Thread(target=sample, daemon=True).start()


def sampled_peak_mb(dask_worker: object) -> float:
    """On a worker: the largest resident memory sampled since ``start_sampling``."""
    return dask_worker.collide2d_memory["peak"] / 1e6  # type: ignore[attr-defined]


def worker_peak(client: Client) -> float:
    return max(client.run(sampled_peak_mb).values())


def one_machine(boxes: np.ndarray) -> tuple[float, float, np.ndarray]:
    collide2d.overlapping_pairs(boxes[:1000])  # compiled before timing
    before = peak_rss_mb()
    start = time.perf_counter()
    pairs = collide2d.overlapping_pairs(boxes)
    return time.perf_counter() - start, peak_rss_mb() - before, pairs


def on_cluster(workers: int, path: Path, tiles: int | None) -> tuple[float, float, np.ndarray]:
    cluster = LocalCluster(n_workers=workers, threads_per_worker=1, memory_limit="8GB")
    with cluster, Client(cluster) as client:
        client.run(lambda: collide2d.overlapping_pairs(np.zeros((60, 4))))  # compile
        client.run(start_sampling)
        start = time.perf_counter()
        pairs = sorted_pairs(overlapping_pairs(str(path), tiles=tiles))
        seconds = time.perf_counter() - start
        peak = worker_peak(client)
    return seconds, peak, pairs


def huge(count: int, workers: int, tiles: int | None) -> tuple[float, float, int]:
    side = world_side(count)
    cluster = LocalCluster(n_workers=workers, threads_per_worker=1, memory_limit="10GB")
    with cluster, Client(cluster) as client:
        client.run(lambda: collide2d.overlapping_pairs(np.zeros((60, 4))))
        client.run(start_sampling)
        rng = da.random.default_rng(5)
        chunk = (1_000_000, 2)
        corners = rng.uniform(0.0, side, size=(count, 2), chunks=chunk)
        sizes = rng.uniform(0.5 * MEAN_SIZE, 1.5 * MEAN_SIZE, size=(count, 2), chunks=chunk)
        boxes = da.concatenate([corners, sizes], axis=1)
        start = time.perf_counter()
        pairs = overlapping_pairs(boxes, tiles=tiles)
        found = int(pairs.map_partitions(len).sum().compute())
        seconds = time.perf_counter() - start
        peak = worker_peak(client)
    return seconds, peak, found


def sjoin(boxes: np.ndarray) -> tuple[float, int] | str:
    try:
        import dask_geopandas
        import geopandas
        import shapely
    except ImportError as error:
        return f"dask-geopandas not installed ({error.name})"
    polygons = shapely.box(
        boxes[:, 0], boxes[:, 1], boxes[:, 0] + boxes[:, 2], boxes[:, 1] + boxes[:, 3]
    )
    frame = geopandas.GeoDataFrame({"n": np.arange(len(boxes))}, geometry=polygons)
    with LocalCluster(n_workers=2, threads_per_worker=1) as cluster, Client(cluster):
        parts = dask_geopandas.from_geopandas(frame, npartitions=8).spatial_shuffle()
        start = time.perf_counter()
        joined = parts.sjoin(parts, predicate="intersects").compute()
        seconds = time.perf_counter() - start
    left, right = joined["n_left"].to_numpy(), joined["n_right"].to_numpy()
    keep = left < right
    a, b = boxes[left[keep]], boxes[right[keep]]
    strict = (a[:, 0] < b[:, 0] + b[:, 2]) & (b[:, 0] < a[:, 0] + a[:, 2]) & (
        a[:, 1] < b[:, 1] + b[:, 3]) & (b[:, 1] < a[:, 1] + a[:, 3])  # fmt: skip
    return seconds, int(strict.sum())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boxes", type=int, default=10_000_000)
    parser.add_argument("--sjoin", type=int, default=200_000)
    parser.add_argument("--huge", type=int, default=100_000_000)
    parser.add_argument("--tiles", type=int, default=None)
    args = parser.parse_args()
    print(f"# bench_distributed: {platform.python_implementation()} {platform.python_version()}, "
          f"{os.cpu_count()} cores\n")  # fmt: skip
    boxes = boxes_scene("uniform", args.boxes, seed=3)
    rows = []
    seconds, grown, expected = one_machine(boxes)
    rows.append(["one machine: collide2d.overlapping_pairs (array in memory)", f"{seconds:.2f}",
                 f"{grown:.0f} (growth)", f"{len(expected):,}", "-"])  # fmt: skip
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "boxes"
        frame = pd.DataFrame(boxes, columns=["x", "y", "w", "h"])
        dd.from_pandas(frame, npartitions=max(1, args.boxes // 1_000_000)).to_parquet(path)
        for workers in (1, 2):
            seconds, peak, pairs = on_cluster(workers, path, args.tiles)
            same = "identical" if np.array_equal(pairs, expected) else "DIFFERENT"
            rows.append([f"distributed, {workers} worker(s), Parquet in", f"{seconds:.2f}",
                         f"{peak:.0f}", f"{len(pairs):,}", same])  # fmt: skip
    print(
        table(
            ["N = " + f"{args.boxes:,}", "seconds", "peak MB per worker", "pairs", "answer"], rows
        )
    )
    print()
    small = boxes[: args.sjoin]
    ours_start = time.perf_counter()
    ours = collide2d.overlapping_pairs(small)
    ours_seconds = time.perf_counter() - ours_start
    result = sjoin(small)
    sjoin_rows = [["collide2d.overlapping_pairs", f"{ours_seconds:.3f}", f"{len(ours):,}"]]
    if isinstance(result, str):
        sjoin_rows.append(["dask-geopandas sjoin", "-", result])
    else:
        sjoin_rows.append(
            ["dask-geopandas sjoin (2 workers)", f"{result[0]:.3f}", f"{result[1]:,}"]
        )
    print(table([f"N = {args.sjoin:,}", "seconds", "pairs (strict overlap)"], sjoin_rows))
    print()
    if args.huge:
        seconds, peak, found = huge(args.huge, 2, args.tiles)
        print(table(["generated on the workers", "seconds", "peak MB per worker", "pairs counted"],
                    [[f"{args.huge:,} boxes, 2 workers", f"{seconds:.1f}", f"{peak:.0f}", f"{found:,}"]]))  # fmt: skip


if __name__ == "__main__":
    main()
