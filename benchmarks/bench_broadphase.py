"""Broadphases side by side with the spatial indexes a Python user would pick.

    python3 scripts/run.py bench bench_broadphase          # every table
    .venv/bin/python benchmarks/bench_broadphase.py --quick  # N up to 1e4

Each peer's answer is turned into our convention (strict overlap, pairs
``i < j``) and compared with ours; a difference is printed, not hidden. Peers
that loop in Python per query are run only up to the size at which they finish
in reasonable time; the table says so.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _timing import table

import collide2d
from collide2d import (
    BruteForce,
    Quadtree,
    Rect,
    SortAndSweep,
    SortedStrips,
    Stats,
    UniformGrid,
    overlapping_circle_pairs,
    overlapping_pairs,
    query_pairs,
)
from collide2d.scenes import SCENES, boxes_scene, circles_scene, world_side

Pairs = np.ndarray


def best_of(func: Callable[[], object], repeat: int) -> tuple[float, object]:
    """Best wall time of ``repeat`` calls, and the last result."""
    best = float("inf")
    result: object = None
    for _ in range(repeat):
        start = time.perf_counter()
        result = func()
        best = min(best, time.perf_counter() - start)
    return best, result


def strict(boxes: np.ndarray, i: np.ndarray, j: np.ndarray) -> Pairs:
    """Keep the candidate pairs whose boxes overlap strictly, as sorted ``i < j`` rows."""
    keep = i != j
    i, j = i[keep], j[keep]
    lo_i, lo_j = boxes[i, :2], boxes[j, :2]
    hi_i, hi_j = lo_i + boxes[i, 2:], lo_j + boxes[j, 2:]
    ok = (lo_i < hi_j).all(axis=1) & (lo_j < hi_i).all(axis=1)
    pairs = np.column_stack([np.minimum(i, j), np.maximum(i, j)])[ok]
    pairs = np.unique(pairs, axis=0)
    return pairs


# -- peers: pairs ----------------------------------------------------------------------
def shapely_pairs(boxes: np.ndarray) -> Pairs:
    import shapely

    geoms = shapely.box(
        boxes[:, 0], boxes[:, 1], boxes[:, 0] + boxes[:, 2], boxes[:, 1] + boxes[:, 3]
    )
    tree = shapely.STRtree(geoms)
    i, j = tree.query(geoms, predicate="intersects")
    return strict(boxes, i, j)


def rtree_pairs(boxes: np.ndarray) -> Pairs:
    from rtree import index

    lo = boxes[:, :2]
    hi = lo + boxes[:, 2:]
    stream = ((k, (lo[k, 0], lo[k, 1], hi[k, 0], hi[k, 1]), None) for k in range(len(boxes)))
    tree = index.Index(stream)
    ids, counts = tree.intersection_v(lo, hi)
    return strict(
        boxes, np.repeat(np.arange(len(boxes)), counts.astype(np.intp)), ids.astype(np.intp)
    )


def pyqtree_pairs(boxes: np.ndarray) -> Pairs:
    import pyqtree

    lo = boxes[:, :2]
    hi = lo + boxes[:, 2:]
    tree = pyqtree.Index(bbox=(lo[:, 0].min(), lo[:, 1].min(), hi[:, 0].max(), hi[:, 1].max()))
    rows = [tuple(r) for r in np.hstack([lo, hi]).tolist()]
    for k, r in enumerate(rows):
        tree.insert(k, r)
    i, j = [], []
    for k, r in enumerate(rows):
        found = tree.intersect(r)
        i.extend([k] * len(found))
        j.extend(found)
    return strict(boxes, np.array(i, dtype=np.intp), np.array(j, dtype=np.intp))


def fastquadtree_pairs(boxes: np.ndarray) -> Pairs:
    from fastquadtree import RectQuadTree

    lo = boxes[:, :2]
    hi = lo + boxes[:, 2:]
    rects = np.ascontiguousarray(np.hstack([lo, hi]))
    bounds = (lo[:, 0].min() - 1, lo[:, 1].min() - 1, hi[:, 0].max() + 1, hi[:, 1].max() + 1)
    tree = RectQuadTree(bounds, 16, dtype="f64")
    tree.insert_many_np(rects)
    i, j = [], []
    for k, r in enumerate(rects.tolist()):
        ids = tree.query_np(tuple(r))[0]
        i.append(np.full(len(ids), k))
        j.append(ids)
    return strict(boxes, np.concatenate(i).astype(np.intp), np.concatenate(j).astype(np.intp))


def pymunk_pairs(boxes: np.ndarray) -> Pairs:
    import pymunk

    space = pymunk.Space()
    body = space.static_body
    shapes = []
    for k, (x, y, w, h) in enumerate(boxes.tolist()):
        shape = pymunk.Poly(body, [(x, y), (x + w, y), (x + w, y + h), (x, y + h)])
        shape.index = k
        shapes.append(shape)
    space.add(*shapes)
    i, j = [], []
    for k, (x, y, w, h) in enumerate(boxes.tolist()):
        for info in space.bb_query(pymunk.BB(x, y, x + w, y + h), pymunk.ShapeFilter()):
            i.append(k)
            j.append(info.index)
    return strict(boxes, np.array(i, dtype=np.intp), np.array(j, dtype=np.intp))


def numpy_pairs(boxes: np.ndarray) -> Pairs:
    lo = boxes[:, :2]
    hi = lo + boxes[:, 2:]
    ok = (lo[:, None, :] < hi[None, :, :]).all(axis=2) & (lo[None, :, :] < hi[:, None, :]).all(
        axis=2
    )
    i, j = np.nonzero(np.triu(ok, 1))
    return np.column_stack([i, j]).astype(np.intp)


PAIR_PEERS: dict[str, tuple[Callable[[np.ndarray], Pairs], int]] = {
    # name: (function, largest N it is run at)
    "shapely STRtree": (shapely_pairs, 10**6),
    "rtree": (rtree_pairs, 10**6),
    "fastquadtree": (fastquadtree_pairs, 10**5),
    "pymunk bb_query": (pymunk_pairs, 10**4),
    "pyqtree": (pyqtree_pairs, 10**4),
    "numpy brute force": (numpy_pairs, 3 * 10**3),
}


def bench_pairs(sizes: list[int]) -> str:
    rows = []
    for n in sizes:
        repeat = 3 if n <= 10**5 else 1
        for scene in SCENES:
            boxes = boxes_scene(scene, n, seed=1)
            stats = Stats()
            ours_time, ours = best_of(lambda: overlapping_pairs(boxes, stats=stats), repeat)
            sort_time, _ = best_of(lambda: np.argsort(boxes[:, 0]), repeat)
            best_peer, best_name, notes = float("inf"), "", []
            for name, (peer, largest) in PAIR_PEERS.items():
                if n > largest:
                    continue
                peer_time, theirs = best_of(lambda: peer(boxes), 1 if n >= 10**5 else repeat)
                if not np.array_equal(theirs, ours):
                    notes.append(f"{name} differs ({len(theirs)} vs {len(ours)} pairs)")
                if peer_time < best_peer:
                    best_peer, best_name = peer_time, name
            rows.append(
                [
                    f"{n:,}",
                    scene,
                    f"{len(ours):,}",
                    f"{ours_time * 1e3:.1f}",
                    f"{ours_time / sort_time:.1f}x",
                    f"{best_name} {best_peer * 1e3:.1f}" if best_name else "-",
                    f"{best_peer / ours_time:.1f}x" if best_name else "-",
                    f"{stats.tests:,}",
                    "; ".join(notes) or "all peers agree",
                ]
            )
            print(" | ".join(rows[-1]), file=sys.stderr, flush=True)
    header = ["N", "scene", "pairs", "collide2d ms", "vs argsort", "fastest peer ms",
              "speed-up", "exact tests", "agreement"]  # fmt: skip
    return table(header, rows)


def bench_circles(sizes: list[int]) -> str:
    from scipy.spatial import cKDTree

    rows = []
    for n in sizes:
        circles = circles_scene(n, seed=2)
        ours_time, ours = best_of(lambda: overlapping_circle_pairs(circles), 3 if n <= 10**5 else 1)

        def kdtree() -> Pairs:
            reach = 2 * circles[0, 2]
            pairs = cKDTree(circles[:, :2]).query_pairs(reach, output_type="ndarray")
            d = circles[pairs[:, 0], :2] - circles[pairs[:, 1], :2]
            keep = (d * d).sum(axis=1) < reach * reach
            return np.unique(np.sort(pairs[keep], axis=1), axis=0).astype(np.intp)

        peer_time, theirs = best_of(kdtree, 3 if n <= 10**5 else 1)
        same = "agree" if np.array_equal(theirs, ours) else f"differ ({len(theirs)} vs {len(ours)})"
        rows.append([f"{n:,}", f"{len(ours):,}", f"{ours_time * 1e3:.1f}",
                     f"{peer_time * 1e3:.1f}", f"{peer_time / ours_time:.1f}x", same])  # fmt: skip
    return table(
        ["N", "pairs", "collide2d ms", "cKDTree.query_pairs ms", "speed-up", "answers"], rows
    )


def bench_queries(n: int, m: int) -> str:
    import shapely
    from rtree import index

    boxes = boxes_scene("uniform", n, seed=3)
    side = world_side(n)
    rng = np.random.default_rng(4)
    queries = np.column_stack([rng.uniform(0, side, (m, 2)), rng.uniform(5, 60, (m, 2))])
    ours_time, ours = best_of(lambda: query_pairs(boxes, queries), 3)
    lo, hi = boxes[:, :2], boxes[:, :2] + boxes[:, 2:]
    q_lo, q_hi = queries[:, :2], queries[:, :2] + queries[:, 2:]
    rows = [["collide2d query_pairs (build + query)", f"{ours_time * 1e3:.1f}", "1.0x", "-"]]

    def strict_rows(qi: np.ndarray, bi: np.ndarray) -> Pairs:
        ok = (q_lo[qi] < hi[bi]).all(axis=1) & (lo[bi] < q_hi[qi]).all(axis=1)
        return np.unique(np.column_stack([qi, bi])[ok], axis=0).astype(np.intp)

    def with_shapely() -> Pairs:
        tree = shapely.STRtree(shapely.box(lo[:, 0], lo[:, 1], hi[:, 0], hi[:, 1]))
        qi, bi = tree.query(shapely.box(q_lo[:, 0], q_lo[:, 1], q_hi[:, 0], q_hi[:, 1]))
        return strict_rows(qi, bi)

    def with_rtree() -> Pairs:
        stream = ((k, (lo[k, 0], lo[k, 1], hi[k, 0], hi[k, 1]), None) for k in range(n))
        tree = index.Index(stream)
        ids, counts = tree.intersection_v(q_lo, q_hi)
        return strict_rows(np.repeat(np.arange(m), counts.astype(np.intp)), ids.astype(np.intp))

    for name, peer in (("shapely STRtree (build + bulk query)", with_shapely),
                       ("rtree (stream load + intersection_v)", with_rtree)):  # fmt: skip
        peer_time, theirs = best_of(peer, 1)
        same = "agree" if np.array_equal(theirs, ours) else f"differ ({len(theirs)} vs {len(ours)})"
        rows.append([name, f"{peer_time * 1e3:.1f}", f"{peer_time / ours_time:.1f}x", same])
    return table(["method", "ms", "collide2d speed-up", "answers"], rows)


def bench_dynamic(n: int = 10_000, frames: int = 30, moving: float = 0.1) -> str:
    boxes = boxes_scene("uniform", n, seed=5)
    rng = np.random.default_rng(6)
    rows = []
    for name, factory in (("UniformGrid(16)", lambda: UniformGrid(16)),
                          ("Quadtree()", Quadtree), ("SortAndSweep()", SortAndSweep),
                          ("SortedStrips()", SortedStrips),
                          ("BruteForce()", BruteForce)):  # fmt: skip
        if name == "BruteForce()" and n > 2000:
            rows.append([name, "-", "-", "skipped: n^2 / 2 = 5e7 tests a frame"])
            continue
        index = factory()
        current = boxes.copy()
        for k, (x, y, w, h) in enumerate(current.tolist()):
            index.add(k, Rect(x, y, w, h))
        index.pairs()
        times = []
        for _ in range(frames):
            movers = rng.choice(n, int(n * moving), replace=False)
            current[movers, :2] += rng.uniform(-3, 3, (len(movers), 2))
            start = time.perf_counter()
            for k, (x, y, w, h) in zip(movers.tolist(), current[movers].tolist(), strict=True):
                index.update(k, Rect(x, y, w, h))
            pairs = index.pairs()
            times.append(time.perf_counter() - start)
        expected = overlapping_pairs(current)
        same = np.array_equal(np.array(pairs, dtype=np.intp).reshape(-1, 2), expected)
        rows.append([name, f"{statistics.median(times) * 1e3:.2f}", f"{index.stats.tests:,}",
                     "agrees with overlapping_pairs" if same else "DIFFERS"])  # fmt: skip
    start = time.perf_counter()
    for _ in range(frames):
        overlapping_pairs(current)
    rows.append(
        [
            "overlapping_pairs (from scratch)",
            f"{(time.perf_counter() - start) / frames * 1e3:.2f}",
            "-",
            "-",
        ]
    )
    return table(["structure", "median ms / frame", "exact tests (last frame)", "answers"], rows)


def moving_rects(n: int, frames: int, seed: int = 8) -> list[np.ndarray]:
    """``frames`` frames of ``n`` rectangles (rows ``x, y, w, h``, 4 to 20 px) moving
    at up to 90 px/s in a 960 x 640 window at 60 frames a second, bouncing off its
    edges: what the rects demo draws."""
    rng = np.random.default_rng(seed)
    size = rng.uniform(4, 20, (n, 2))
    pos = rng.uniform(0, 1, (n, 2)) * (np.array([960.0, 640.0]) - size)
    vel = rng.uniform(-90, 90, (n, 2))
    out = []
    for _ in range(frames):
        pos += vel / 60.0
        for axis, limit in ((0, 960.0), (1, 640.0)):
            off = (pos[:, axis] < 0) | (pos[:, axis] + size[:, axis] > limit)
            vel[off, axis] *= -1
            pos[:, axis] = np.clip(pos[:, axis], 0, limit - size[:, axis])
        out.append(np.hstack([pos, size]))
    return out


def _ours_moving(factory: Callable[[], object], scene: list[np.ndarray]) -> tuple[float, Pairs]:
    index = factory()
    for k, row in enumerate(scene[0].tolist()):
        index.add(k, Rect(*row))  # type: ignore[attr-defined]
    index.pairs()  # type: ignore[attr-defined]
    times = []
    for boxes in scene[1:]:
        start = time.perf_counter()
        update = index.update  # type: ignore[attr-defined]
        for k, row in enumerate(boxes.tolist()):
            update(k, Rect(*row))
        pairs = index.pairs()  # type: ignore[attr-defined]
        times.append(time.perf_counter() - start)
    return statistics.median(times), np.array(pairs, dtype=np.intp).reshape(-1, 2)


def _ours_moving_rects(
    factory: Callable[[], object], scene: list[np.ndarray]
) -> tuple[float, Pairs]:
    index = factory()
    keys = list(range(len(scene[0])))
    for k, row in enumerate(scene[0].tolist()):
        index.add(k, Rect(*row))  # type: ignore[attr-defined]
    index.pairs()  # type: ignore[attr-defined]
    times = []
    for boxes in scene[1:]:
        start = time.perf_counter()
        index.update_rects(keys, boxes)  # type: ignore[attr-defined]
        pairs = index.pairs()  # type: ignore[attr-defined]
        times.append(time.perf_counter() - start)
    return statistics.median(times), np.array(pairs, dtype=np.intp).reshape(-1, 2)


def _batch_moving(scene: list[np.ndarray]) -> tuple[float, Pairs]:
    times = []
    for boxes in scene[1:]:
        start = time.perf_counter()
        pairs = overlapping_pairs(boxes)
        times.append(time.perf_counter() - start)
    return statistics.median(times), pairs


def _fastquadtree_moving(scene: list[np.ndarray]) -> tuple[float, Pairs]:
    from fastquadtree import RectQuadTree

    def corners(boxes: np.ndarray) -> np.ndarray:
        return np.ascontiguousarray(np.hstack([boxes[:, :2], boxes[:, :2] + boxes[:, 2:]]))

    tree = RectQuadTree((-1.0, -1.0, 961.0, 641.0), 16, dtype="f64")
    tree.insert_many_np(corners(scene[0]))  # ids 0..n-1 in order
    old = corners(scene[0]).tolist()
    times = []
    for boxes in scene[1:]:
        start = time.perf_counter()
        new = corners(boxes).tolist()
        for k, (a, b) in enumerate(zip(old, new, strict=True)):
            tree.update(k, *a, *b)
        i, j = [], []
        for k, r in enumerate(new):
            ids = tree.query_np(tuple(r))[0]
            i.append(np.full(len(ids), k))
            j.append(ids)
        pairs = strict(boxes, np.concatenate(i).astype(np.intp), np.concatenate(j).astype(np.intp))
        times.append(time.perf_counter() - start)
        old = new
    return statistics.median(times), pairs


def _pyqtree_moving(scene: list[np.ndarray]) -> tuple[float, Pairs]:
    import pyqtree

    def corners(boxes: np.ndarray) -> list[tuple[float, ...]]:
        return [tuple(r) for r in np.hstack([boxes[:, :2], boxes[:, :2] + boxes[:, 2:]]).tolist()]

    tree = pyqtree.Index(bbox=(-1.0, -1.0, 961.0, 641.0))
    old = corners(scene[0])
    for k, r in enumerate(old):
        tree.insert(k, r)
    times = []
    for boxes in scene[1:]:
        start = time.perf_counter()
        new = corners(boxes)
        for k, (a, b) in enumerate(zip(old, new, strict=True)):
            tree.remove(k, a)
            tree.insert(k, b)
        i, j = [], []
        for k, r in enumerate(new):
            found = tree.intersect(r)
            i.extend([k] * len(found))
            j.extend(found)
        pairs = strict(boxes, np.array(i, dtype=np.intp), np.array(j, dtype=np.intp))
        times.append(time.perf_counter() - start)
        old = new
    return statistics.median(times), pairs


def bench_moving(n: int = 3000, frames: int = 30, rounds: int = 3) -> str:
    """Every rectangle moves every frame; each structure is told (``update`` one by
    one, as a game does, or ``update_rects`` with the frame's array) and asked for the
    overlapping pairs. Beside them, the batch function on the frame's arrays (nothing
    to tell), and the two quadtrees a Python user would pick (pyqtree, pure Python;
    fastquadtree, Rust, told one by one as it has no call for many): the same
    frames, in the same run. Each contender runs ``rounds`` times, the rounds taking
    turns (this machine's speed swings within a minute: one pass each put
    fastquadtree at 30 ms a frame in one run and 47 in the next); each figure is the
    best of its rounds' medians."""
    scene = moving_rects(n, frames + 1)
    expected = overlapping_pairs(scene[-1])
    contenders: list[tuple[str, Callable[[], tuple[float, Pairs]]]] = []
    for name, factory in (("Quadtree (update each, pairs)", lambda: Quadtree(Rect(0, 0, 960, 640))),
                          ("UniformGrid(48) (update each, pairs)", lambda: UniformGrid(48)),
                          ("SortedStrips (update each, pairs)", SortedStrips),
                          ("SortAndSweep (update each, pairs)", SortAndSweep)):  # fmt: skip
        contenders.append((name, partial(_ours_moving, factory, scene)))
    for name, factory in (("Quadtree (update_rects, pairs)", lambda: Quadtree(Rect(0, 0, 960, 640))),
                          ("UniformGrid(48) (update_rects, pairs)", lambda: UniformGrid(48)),
                          ("SortedStrips (update_rects, pairs)", SortedStrips)):  # fmt: skip
        contenders.append((name, partial(_ours_moving_rects, factory, scene)))
    contenders.append(("overlapping_pairs on the frame's arrays", partial(_batch_moving, scene)))
    for name, peer in (("fastquadtree (update each, a query each)", _fastquadtree_moving),
                       ("pyqtree (remove and insert each, a query each)", _pyqtree_moving)):  # fmt: skip
        contenders.append((name, partial(peer, scene)))
    results: dict[str, tuple[float, Pairs] | str] = {}
    for _ in range(rounds):
        for name, run in contenders:
            if isinstance(results.get(name), str):
                continue
            try:
                seconds, pairs = run()
            except ImportError as error:
                results[name] = f"not installed ({error})"
                continue
            kept = results.get(name)
            if not isinstance(kept, tuple) or seconds < kept[0]:
                results[name] = (seconds, pairs)
    runs = [(name, results[name]) for name, _ in contenders]
    peers = [
        r[1][0]
        for r in runs
        if not isinstance(r[1], str) and ("fastquadtree" in r[0] or "pyqtree" in r[0])
    ]
    best = min(peers) if peers else float("nan")
    rows = []
    for name, result in runs:
        if isinstance(result, str):
            rows.append([name, "-", "-", result])
            continue
        seconds, pairs = result
        same = np.array_equal(pairs, expected)
        rows.append([name, f"{seconds * 1e3:.2f}", f"{best / seconds:.2f}x",
                     "agrees" if same else "DIFFERS"])  # fmt: skip
    return table(
        [
            "every rectangle moves",
            "ms / frame (best round's median)",
            "vs the faster peer",
            "answers",
        ],
        rows,
    )


def compile_times() -> str:
    """Cold compile (empty cache) and warm start (cache filled) in fresh processes."""
    code = (
        "import time, numpy as np; t = time.perf_counter();"
        "from collide2d import overlapping_pairs, overlapping_circle_pairs, query_pairs;"
        "b = np.random.default_rng(0).uniform(0, 100, (2000, 4));"
        "overlapping_pairs(b); overlapping_pairs(b, method='sort_and_sweep');"
        "overlapping_pairs(b, method='brute_force'); overlapping_circle_pairs(b[:, :3]);"
        "query_pairs(b, b); print(time.perf_counter() - t)"
    )
    rows = []
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache}
        for label in ("cold: empty numba cache", "warm: cache from the previous run"):
            out = subprocess.run(
                [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
            )
            rows.append([label, f"{float(out.stdout):.2f}"])
    return table(["first calls of every batch function", "seconds"], rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="N up to 1e4 only")
    args = parser.parse_args()
    sizes = [10**3, 10**4] if args.quick else [10**3, 10**4, 10**5, 10**6]
    overlapping_pairs(boxes_scene("uniform", 500))  # compile before timing
    overlapping_circle_pairs(circles_scene(500))
    query_pairs(boxes_scene("uniform", 500), boxes_scene("uniform", 50))
    print(f"collide2d {collide2d.__version__}, python {platform.python_version()}, numpy {np.__version__}, "
          f"{os.cpu_count()} cores\n")  # fmt: skip
    print("## Numba compile time\n\n" + compile_times() + "\n")
    print("## 3,000 moving rectangles, update and pairs each frame\n\n" + bench_moving() + "\n")
    print("## overlapping_pairs\n\n" + bench_pairs(sizes) + "\n")
    print("## overlapping_circle_pairs (equal radii)\n\n" + bench_circles(sizes) + "\n")
    n = 10**4 if args.quick else 10**6
    print(
        f"## query_pairs: 10,000 queries against {n:,} boxes\n\n" + bench_queries(n, 10_000) + "\n"
    )
    print(
        "## Dynamic scene: 10,000 boxes, 10% move each frame, update + pairs()\n\n"
        + bench_dynamic()
        + "\n"
    )


if __name__ == "__main__":
    main()
