"""A frame of many actors among sloped polygons, against the same frame among rectangles.

    python3 scripts/run.py bench bench_slopes
    python benchmarks/bench_slopes.py --frames 20

The platformer of ``bench_world.py`` (``collide2d.scenes.platformer_level``: 10,000
tiles of 16 px, 1,000 actors walking with gravity, ``move_arrays`` with the World's
group filter, the responses as array operations), once with rectangles only and once
with every fifth tile a sloped polygon in the same box (a quadrilateral whose top
rises 4 px across the tile). Reported: the median frame of each and their ratio
(the target is 2x or less). Rectangles among polygons move in the compiled moves;
the check loop in Python takes only the moves it alone decides (docs/world.md,
"Speed with polygons").
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics

import numpy as np
from _timing import table
from bench_world import array_frames

from collide2d import Polygon, Rect, World
from collide2d.scenes import platformer_level


def build(tiles: int, actors: int, seed: int, sloped: bool) -> tuple[World, list, np.ndarray]:
    """The platformer's world, every fifth tile a slope when ``sloped``."""
    tile_boxes, actor_boxes, velocities = platformer_level(tiles, actors, seed)
    world = World(cell_size=64)
    for k, (x, y, w, h) in enumerate(tile_boxes.tolist()):
        if sloped and k % 5 == 0:
            shape = Polygon([(x, y + 4.0), (x + w, y), (x + w, y + h), (x, y + h)])
            world.add(("tile", k), shape, group="tile")
        else:
            world.add(("tile", k), Rect(x, y, w, h), group="tile")
    names = [world.add(("actor", k), Rect(*row), group="actor")
             for k, row in enumerate(actor_boxes.tolist())]  # fmt: skip
    world.set_response("actor", "actor", "ignore")
    return world, names, velocities.copy()


def frames(tiles: int, actors: int, seed: int, warmup: int, count: int) -> str:
    rows = []
    medians = {}
    for sloped in (False, True):
        world, names, velocities = build(tiles, actors, seed, sloped)
        array_frames(world, names, velocities, warmup)
        frame_times, move_times = array_frames(world, names, velocities, count)
        medians[sloped] = statistics.median(frame_times) * 1e3
        label = "2,000 of them sloped polygons" if sloped else "rectangles only"
        rows.append([f"{tiles:,} tiles, {label}", f"{medians[sloped]:.2f}",
                     f"{statistics.median(move_times) * 1e3:.2f}"])  # fmt: skip
    ratio = medians[True] / medians[False]
    rows.append(["sloped over rectangles (target <= 2x)", f"{ratio:.2f}x", ""])
    return table(["a frame of 1,000 actors (move_arrays, group filter)", "median ms",
                  "moves ms"], rows)  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tiles", type=int, default=10_000)
    parser.add_argument("--actors", type=int, default=1_000)
    parser.add_argument("--warmup", type=int, default=5)
    parser.add_argument("--frames", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    print(f"# bench_slopes: {platform.python_implementation()} {platform.python_version()}, "
          f"{platform.machine()}, {os.cpu_count()} cores\n")  # fmt: skip
    print(frames(args.tiles, args.actors, args.seed, args.warmup, args.frames))


if __name__ == "__main__":
    main()
