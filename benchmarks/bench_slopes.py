"""A frame of many actors among sloped polygons, against the same frame among rectangles.

    python3 scripts/run.py bench bench_slopes
    python benchmarks/bench_slopes.py --frames 20

The platformer of ``bench_world.py`` (``collide2d.scenes.platformer_level``: 10,000
tiles of 16 px, 1,000 actors walking with gravity, ``move_arrays`` with the World's
group filter, the responses as array operations), once with rectangles only and once
with every fifth tile a sloped polygon in the same box (a quadrilateral whose top
rises 4 px across the tile). Reported: the median frame of each and their ratio
(the target is 2x or less); then the same with a ``World.move`` for each actor, as
a game ported from bump.lua moves them. Rectangles among polygons move in the compiled moves;
the check loop in Python takes only the moves it alone decides (docs/world.md,
"Speed with polygons").
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
from collections.abc import Callable

import numpy as np
from _timing import table
from bench_world import array_frames, python_frames

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
    """Both worlds built, then their frames taken in turn (one of each, ``count``
    times), so that a change of the machine's speed meets both alike."""
    rows = []
    for single in (False, True):
        runs = {}
        for sloped in (False, True):
            world, names, velocities = build(tiles, actors, seed, sloped)
            runs[sloped] = _runner(world, names, velocities, single)
            runs[sloped](warmup)
        times: dict[bool, tuple[list[float], list[float]]] = {False: ([], []), True: ([], [])}
        for _ in range(count):
            for sloped in (False, True):
                frame_times, move_times = runs[sloped](1)
                times[sloped][0].extend(frame_times)
                times[sloped][1].extend(move_times)
        how = "World.move each" if single else "move_arrays"
        medians = {}
        for sloped in (False, True):
            medians[sloped] = statistics.median(times[sloped][0]) * 1e3
            label = "2,000 of them sloped polygons" if sloped else "rectangles only"
            rows.append([f"{how}: {tiles:,} tiles, {label}", f"{medians[sloped]:.2f}",
                         f"{statistics.median(times[sloped][1]) * 1e3:.2f}"])  # fmt: skip
        target = "" if single else " (target <= 2x)"
        rows.append([f"sloped over rectangles{target}", f"{medians[True] / medians[False]:.2f}x",
                     ""])  # fmt: skip
    return table(["a frame of 1,000 actors (group filter)", "median ms", "moves ms"], rows)


def _runner(
    world: World, names: list, velocities: np.ndarray, single: bool
) -> Callable[[int], tuple[list[float], list[float]]]:
    """Runs ``n`` frames: ``move_arrays``, or a ``World.move`` for each actor (as a game
    ported from bump.lua moves them)."""
    if single:
        return lambda n: python_frames(world, names, velocities, n, False, world.group_filter)
    return lambda n: array_frames(world, names, velocities, n)


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
