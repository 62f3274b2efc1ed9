"""``collide2d warmup`` leaves nothing for a later first call to compile or load."""

from __future__ import annotations

import os
import subprocess
import sys

# In a process of its own (in the suite's, earlier tests have loaded every kernel):
# warmup, then the kernels' type signatures counted, then steps of the kinds a game
# makes and calls of every area; a kernel that gained a signature was compiled or
# loaded after warmup.
_AFTER_WARMUP = """
import io, math, sys
from numba.core.registry import CPUDispatcher
from collide2d.warmup import warmup

said = io.StringIO()
warmup(out=said)
step_line = [line for line in said.getvalue().splitlines() if "World.step" in line][0]


def loaded():
    return {
        f"{name}.{attr}": len(obj.overloads)
        for name, module in list(sys.modules.items()) if name.startswith("collide2d")
        for attr, obj in list(vars(module).items()) if isinstance(obj, CPUDispatcher)
    }


before = loaded()
from collide2d import Circle, Mask, PlacedMask, Rect, World

# Shots pressed against walls (touches at time 0, in the two threads' parts) and
# flying through boxes that bounce off the walls.
world = World()
world.set_response("shot", "wall", "touch")
world.set_response("shot", "box", "cross")
world.set_response("shot", "shot", "ignore")
world.set_response("box", "wall", "bounce")
world.add("wall", Rect(100.0, -1000.0, 1.0, 2000.0), mass=math.inf, group="wall")
for k in range(20):
    world.add(("box", k), Rect(60.0, 40.0 * k - 400.0, 10.0, 10.0), velocity=(30.0, 5.0),
              group="box")
for k in range(2400):
    x = 99.75 if k % 2 else 40.0  # (99.75: touching the wall)
    world.add(k, Circle(x, 0.8 * k - 960.0, 0.25), velocity=(400.0, 3.0), group="shot")
for _ in range(3):
    world.step(1.0 / 60.0)
# Bodies sliding on tiles and on a mask, pushing each other.
ground = World()
ground.add("mask", PlacedMask(Mask((64, 8), True), 0.0, 20.0), mass=math.inf)
ground.add("tile", Rect(64.0, 20.0, 16.0, 16.0), mass=math.inf)
for k in range(6):
    shape = Rect(8.0 * k, 10.0, 6.0, 6.0) if k % 2 else Circle(8.0 * k + 3.0, 13.0, 3.0)
    ground.add(k, shape, velocity=(4.0 - k, 5.0))
for _ in range(3):
    ground.step(1.0)
# A box, a turned crate and a ball among slopes (the kernels of a world with polygons).
from collide2d import PlacedPolygon, Polygon
slopes = World()
for k in range(8):
    slopes.add(("slope", k), Polygon([(16.0 * k, 40.0), (16.0 * k + 16, 36.0),
                                      (16.0 * k + 16, 48.0), (16.0 * k, 48.0)]), mass=math.inf)
slopes.add("box", Rect(10.0, 0.0, 6.0, 6.0), velocity=(3.0, 20.0))
slopes.add("crate", PlacedPolygon.box(40.0, 10.0, 6.0, 4.0, 0.3), velocity=(-2.0, 25.0))
slopes.add("ball", Circle(70.0, 10.0, 3.0), velocity=(-1.0, 25.0))
for _ in range(3):
    slopes.step(1.0)
# The other areas, at sizes of real use (the batch searches' threads).
import numpy as np
from collide2d import overlapping_circle_pairs, overlapping_pairs, query_pairs, query_points, sweep
from collide2d.broadphase import BruteForce, Quadtree, SortAndSweep, SortedStrips, UniformGrid

rng = np.random.default_rng(0)
boxes = np.column_stack([rng.uniform(0, 1000, (50000, 2)), rng.uniform(1, 5, (50000, 2))])
for method in ("strips", "sort_and_sweep"):
    overlapping_pairs(boxes, method=method)
    overlapping_circle_pairs(boxes[:, :3], method=method)
query_pairs(boxes[:1000], boxes)
from collide2d import overlapping_box_pairs, overlapping_polygon_pairs
turned = np.column_stack([boxes, rng.uniform(-3, 3, 50000)])
overlapping_box_pairs(turned)
sweep(Polygon.regular(0.0, 0.0, 5.0, 8), (30.0, 1.0), Polygon.box(20.0, 0.0, 4.0, 9.0, 0.2))
sweep(Polygon.box(0.0, 0.0, 4.0, 2.0, 0.3), (30.0, 1.0), Rect(20.0, -5.0, 16.0, 16.0))
overlapping_polygon_pairs(np.stack([turned[:, :2], turned[:, :2] + [4, 0], turned[:, :2] + [0, 4]], 1))
query_points(boxes, boxes[:100, :2])
for index in (SortAndSweep(), SortedStrips(), UniformGrid(16), Quadtree(), BruteForce()):
    for k in range(2000):
        x, y = rng.uniform(0, 500, 2)
        index.add(k, Rect(x, y, 4, 4) if k % 2 else Circle(x, y, 2))
    index.pairs()
    for k in range(0, 2000, 3):
        index.update(k, Rect(*rng.uniform(0, 500, 2), 4, 4))
    index.pairs()
    index.query_rect(Rect(0, 0, 50, 50))
    index.query_point((3, 3))
    index.query_segment((0, 0), (100, 100))
yy, xx = np.mgrid[0:300, 0:300]
big = Mask.from_array((xx - 150) ** 2 + (yy - 150) ** 2 < 140**2)
small = Mask.from_array((xx[:40, :40] - 20) ** 2 + (yy[:40, :40] - 20) ** 2 < 300)
for offset in ((100, 100), (100.5, 99.25)):
    big.overlaps(small, offset)
    big.overlap(small, offset)
    big.overlap_area(small, offset)
    big.overlap_mask(small, offset)
    big.overlap_pairs(small, offset)
    big.overlaps(small, offset, max_level=3, other_max_level=2)
sweep(PlacedMask(small, -60, 100), (400, 0), PlacedMask(big, 0, 0))
sweep(Rect(-20, 100, 4, 4), (400, 0), PlacedMask(big, 0, 0))
moves = World()
for k in range(200):
    moves.add(("tile", k), Rect(16.0 * k, 32.0, 16.0, 16.0))
for k in range(50):
    moves.add(k, Rect(16.0 * k + 2, 0.0, 12.0, 20.0) if k % 2 else Circle(16.0 * k + 8, 10, 6))
for f in range(3):
    moves.move_all({k: (16.0 * k + 5 + f, 30.0) for k in range(50)})
    moves.move(0, (40.0 + f, 40.0))
    moves.move(1, (21.0 + f, 30.0))  # a rectangle: through the cell lists
    moves.check(3, (53.0, 30.0 - f))
    moves.update(1, (18.0, 0.0))
    moves.query_rect(Rect(0, 0, 100, 100))
    moves.query_segment((0, 0), (300, 40))
print(sorted(name for name, count in loaded().items() if count != before.get(name, 0)))
print(step_line)
"""


def test_after_warmup_no_kernel_is_compiled_or_loaded():
    out = subprocess.run(
        [sys.executable, "-c", _AFTER_WARMUP], capture_output=True, text=True, check=True
    )
    changed, step_line = out.stdout.strip().splitlines()
    assert changed == "[]", out.stdout
    if (os.cpu_count() or 1) > 1:  # the step's kernels came from a background process
        assert "run in a background process meanwhile" in step_line, step_line
