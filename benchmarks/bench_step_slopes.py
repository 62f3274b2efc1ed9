"""``World.step`` among sloped polygons, against the same step among rectangles.

    python benchmarks/bench_step_slopes.py [--actors 10000 --tiles 50000 --steps 10]

The swarm of ``bench_step.py`` (``platformer_level``'s tiles, fixed; actors walking
and falling, half boxes and half circles, dt 1), once with rectangle tiles and once
with every third tile a sloped polygon in the same box (its top rising 4 px
across); ``--boxes`` makes every actor a box. The two worlds step in turn (the
machine's speed drifts); reported: the median step of each after the actors have
landed, and the ratio (the issue's target: 2x or less).
"""

from __future__ import annotations

import argparse
import math
import platform
import statistics
import time

import numpy as np
from _timing import table

from collide2d import Circle, Polygon, Rect, World
from collide2d.scenes import platformer_level


def build(actors: int, tiles: int, sloped: bool, boxes: bool = False) -> World:
    tile_boxes, actor_boxes, velocities = platformer_level(tiles, actors, seed=0)
    world = World(cell_size=64)
    for k, (x, y, w, h) in enumerate(tile_boxes.tolist()):
        if sloped and k % 3 == 0:
            shape: object = Polygon([(x, y + 4.0), (x + w, y), (x + w, y + h), (x, y + h)])
        else:
            shape = Rect(x, y, w, h)
        world.add(("tile", k), shape, mass=math.inf)
    rng = np.random.default_rng(1)
    fall = rng.uniform(0.5, 3.0, actors)
    for k, ((x, y, w, h), (vx, _)) in enumerate(
        zip(actor_boxes.tolist(), velocities.tolist(), strict=True)
    ):
        shape = Rect(x, y, w, h) if boxes or k % 2 == 0 else Circle(x + 6.0, y + 14.0, 6.0)
        world.add(("actor", k), shape, velocity=(vx, float(fall[k])))
    return world


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--actors", type=int, default=10_000)
    parser.add_argument("--tiles", type=int, default=50_000)
    parser.add_argument("--steps", type=int, default=10)
    parser.add_argument("--later", type=int, default=20)
    parser.add_argument("--boxes", action="store_true", help="every actor a box")
    args = parser.parse_args()
    actors = "boxes" if args.boxes else "actors (half circles)"
    print(f"# bench_step_slopes: CPython {platform.python_version()}, {args.actors:,} {actors}, "
          f"{args.tiles:,} tiles\n")  # fmt: skip
    worlds = {"rectangles": build(args.actors, args.tiles, False, args.boxes),
              "a third sloped": build(args.actors, args.tiles, True, args.boxes)}  # fmt: skip
    for world in worlds.values():  # (compiled, and the actors landed)
        for _ in range(args.later):
            world.step(1.0)
    times: dict[str, list[float]] = {name: [] for name in worlds}
    events: dict[str, list[int]] = {name: [] for name in worlds}
    for _ in range(args.steps):
        for name, world in worlds.items():
            start = time.perf_counter()
            result = world.step(1.0)
            times[name].append(time.perf_counter() - start)
            events[name].append(result.stats.events)
    base = statistics.median(times["rectangles"])
    rows = []
    for name in worlds:
        ms = statistics.median(times[name])
        rows.append([name, f"{ms * 1e3:.1f}", f"{statistics.mean(events[name]):.0f}",
                     f"{ms / base:.2f}x"])  # fmt: skip
    print(table(["tiles", "ms a step (median)", "events a step", "over rectangles"], rows))


if __name__ == "__main__":
    main()
