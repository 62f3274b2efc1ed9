"""Polygons and rotated boxes, side by side with shapely and pymunk, in one run.

    python3 scripts/run.py bench bench_polygons          (add --quick for 1e5 boxes only)

Scalar: one pair per call through the public ``overlaps`` / ``sweep`` / ``raycast``,
against shapely 2's ``intersects`` on prepared-free geometries (it counts touching as
intersecting) and pymunk's ``Shape.shapes_collide`` (the pair must touch). Batch:
``overlapping_box_pairs`` on random rotated boxes against shapely's ``STRtree.query``
with ``predicate="intersects"`` on the same boxes (the pairs are compared), and the
compiled exact test's own cost per candidate pair. Targets are ratios in this run
(issue 46): >= 3x shapely's scalar ``intersects``; >= 20x its STRtree on 1e5 and
1e6 boxes; <= 20 ns a pair for the batch's exact test.
"""

from __future__ import annotations

import math
import platform
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _timing import per_call, table

import collide2d
from collide2d import Polygon, Rect, overlapping_box_pairs, overlaps, raycast, sweep
from collide2d._kernels import lazy
from collide2d._kernels.pairs.search import find_pairs
from collide2d.batch.polygons import box_polygons


def scalar() -> str:
    import pymunk
    import shapely
    from shapely.geometry import Polygon as ShapelyPolygon

    a = Polygon.regular(0, 0, 10, 8, 0.1)
    b = Polygon.regular(5, 3, 10, 8, 0.3)
    far = Polygon.regular(25, 3, 10, 8, 0.3)
    box_a = Polygon.box(0, 0, 8, 4, 0.3)
    box_b = Polygon.box(5, 2, 8, 4, -0.6)
    tile = Rect(3, 1, 16, 16)
    overlaps(a, b), sweep(a, (30, 3), far), overlaps(box_a, tile)  # compile or load first
    sa, sb, sfar = (ShapelyPolygon(p.vertices) for p in (a, b, far))
    sbox_a, sbox_b = ShapelyPolygon(box_a.vertices), ShapelyPolygon(box_b.vertices)
    shapely.prepare(sfar)  # not used by intersects below; kept honest: plain geometries
    space = pymunk.Space()
    shapes = []
    for polygon in (a, b, box_a, box_b):
        body = pymunk.Body(body_type=pymunk.Body.STATIC)
        shape = pymunk.Poly(body, [tuple(v) for v in polygon.vertices])
        space.add(body, shape)
        shapes.append(shape)
    pa, pb, pbox_a, pbox_b = shapes
    shapely_8 = per_call(lambda: sa.intersects(sb))
    cases = [
        ("overlaps(8-gon, 8-gon), overlapping", lambda: overlaps(a, b), shapely_8),
        ("shapely intersects, same 8-gons", lambda: sa.intersects(sb), None),
        ("pymunk shapes_collide, same 8-gons", lambda: pa.shapes_collide(pb), None),
        ("overlaps(8-gon, 8-gon), apart", lambda: overlaps(a, far), None),
        ("shapely intersects, apart", lambda: sa.intersects(sfar), None),
        ("overlaps(box, box), rotated", lambda: overlaps(box_a, box_b), None),
        ("shapely intersects, rotated boxes", lambda: sbox_a.intersects(sbox_b), None),
        ("pymunk shapes_collide, rotated boxes", lambda: pbox_a.shapes_collide(pbox_b), None),
        ("overlaps(rotated box, Rect tile)", lambda: overlaps(box_a, tile), None),
        ("sweep(8-gon, d, 8-gon), exact time of impact", lambda: sweep(a, (30, 3), far), None),
        ("sweep(box, d, box, d), both moving", lambda: sweep(box_a, (20, 1), box_b, (-3, 0)), None),
        ("raycast(8-gon)", lambda: raycast((-20, 1), (40, 0), a), None),
    ]
    rows = []
    for name, func, versus in cases:
        cost = per_call(func)
        ratio = ""
        if versus is not None:
            ratio = f"{versus / cost:.1f}x faster than shapely (target >= 3x)"
        rows.append([name, f"{cost * 1e6:.2f}", ratio])
    return table(["call", "us per call", "ratio in this run"], rows)


def random_boxes(n: int, seed: int = 1) -> np.ndarray:
    """``n`` rotated boxes of sides 1 to 10 at a density of about one box per 144
    square units, angles uniform (a seventh at an exact quarter turn)."""
    rng = np.random.default_rng(seed)
    side = math.sqrt(n) * 12.0
    rows = np.column_stack([
        rng.uniform(0, side, n), rng.uniform(0, side, n),
        rng.uniform(1, 10, n), rng.uniform(1, 10, n), rng.uniform(-math.pi, math.pi, n),
    ])  # fmt: skip
    rows[::7, 4] = math.pi / 2
    return rows


def shapely_pairs(corners: np.ndarray) -> np.ndarray:
    import shapely

    geoms = shapely.polygons(corners)
    tree = shapely.STRtree(geoms)
    i, j = tree.query(geoms, predicate="intersects")
    keep = i < j
    pairs = np.column_stack([i[keep], j[keep]]).astype(np.intp)
    return pairs[np.lexsort((pairs[:, 1], pairs[:, 0]))]


def batch(sizes: list[int]) -> str:
    rows = []
    for n in sizes:
        boxes = random_boxes(n)
        overlapping_box_pairs(boxes[:100])  # compile or load first
        start = time.perf_counter()
        ours = overlapping_box_pairs(boxes)
        mine = time.perf_counter() - start
        corners = box_polygons(boxes)
        start = time.perf_counter()
        theirs = shapely_pairs(corners)
        peer = time.perf_counter() - start
        same = "same pairs" if np.array_equal(ours, theirs) else (
            f"{len(ours)} vs {len(theirs)} (shapely counts touching)"
        )  # fmt: skip
        rows.append([
            f"{n:,}", f"{mine * 1e3:.0f} ms", f"{peer * 1e3:.0f} ms",
            f"{peer / mine:.1f}x (target >= 20x)", f"{len(ours):,}", same,
        ])  # fmt: skip
    return table(
        ["boxes", "overlapping_box_pairs", "shapely STRtree", "ratio", "pairs", "agree"], rows
    )


def per_pair(n: int = 200_000) -> str:
    """The compiled exact test alone, on the candidate pairs of ``n`` boxes."""
    boxes = random_boxes(n, seed=2)
    corners = box_polygons(boxes)
    box = np.column_stack([corners[:, :, 0].min(1), corners[:, :, 1].min(1),
                           corners[:, :, 0].max(1), corners[:, :, 1].max(1)])  # fmt: skip
    candidates, _, _ = find_pairs(box, np.zeros((0, 3)), 0, "auto")
    counts = np.full(n, 4, dtype=np.intp)
    tame = np.ones(n, dtype=bool)
    keep = np.zeros(len(candidates), dtype=bool)
    unsure = np.zeros(len(candidates), dtype=bool)
    kernel = lazy("pairs.polygons").keep_overlapping
    kernel(corners, counts, tame, candidates[:10], keep[:10], unsure[:10])
    best = math.inf
    for _ in range(5):
        start = time.perf_counter()
        kernel(corners, counts, tame, candidates, keep, unsure)
        best = min(best, time.perf_counter() - start)
    ns = best / len(candidates) * 1e9
    return (
        f"exact rotated-box test: {ns:.1f} ns a candidate pair ({len(candidates):,} candidates, "
        f"{int(keep.sum()):,} overlapping; target <= 20 ns; Box2D's b2CollidePolygons: 80 ns in C)"
    )


def main() -> None:
    import shapely

    quick = "--quick" in sys.argv
    print(f"python {platform.python_version()}, collide2d {collide2d.__version__}, "
          f"shapely {shapely.__version__}")  # fmt: skip
    print("\n## One pair per call\n")
    print(scalar())
    print("\n## Every overlapping pair of rotated boxes\n")
    print(batch([10**5] if quick else [10**5, 10**6]))
    print("\n## The batch's exact test\n")
    print(per_pair())
    print("\nBatch sweeps of polygons (sweep_pairs): not built yet.")


if __name__ == "__main__":
    main()
