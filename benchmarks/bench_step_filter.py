"""What ``World.step``'s ``gravity`` and per-pair ``filter`` cost, on the swarm scene.

    python3 scripts/run.py bench bench_step_filter
    python benchmarks/bench_step_filter.py --actors 2000 --tiles 10000

``collide2d.scenes.platformer_level``: fixed tiles in rows of platforms and actors
(half boxes, half circles) walking and falling; actors ``cross`` each other (their
group's response). Four ways to run the same steps, each in a world of its own:

- gravity: ``step(dt, gravity=...)``, the group table alone;
- same answers: with a ``filter`` that answers as the group table does (the filter's
  cost alone: it is asked, nothing changes);
- one-way: with a ``filter`` that makes every tile a one-way platform (an actor below
  a tile's top passes through it): pairs answered otherwise than the table get
  groups of their own for the step.

Reported: the median step, the pairs the filter was asked about a step, and what the
filter adds to a step (the swept boxes of every body and their search, the calls).
"""

from __future__ import annotations

import argparse
import math
import statistics
import time
from collections.abc import Callable

import numpy as np
from _timing import table

from collide2d import Circle, Rect, World
from collide2d.scenes import platformer_level
from collide2d.world.step_filter import filtered_table

GRAVITY = 0.05  # px per frame per frame: steps of dt = 1 frame


def world_of(actors: int, tiles: int) -> World:
    tile_boxes, actor_boxes, velocities = platformer_level(tiles, actors, seed=0)
    world = World(cell_size=64)
    world.set_response("actors", "actors", "cross")
    for k, row in enumerate(tile_boxes.tolist()):
        world.add(("tile", k), Rect(*row), mass=math.inf)
    for k, ((x, y, w, h), (vx, _)) in enumerate(
        zip(actor_boxes.tolist(), velocities.tolist(), strict=True)
    ):
        shape = Rect(x, y, w, h) if k % 2 == 0 else Circle(x + 6.0, y + 14.0, 6.0)
        world.add(("actor", k), shape, velocity=(vx, 0.5), group="actors")
    return world


def same_answers(a: object, b: object) -> str:
    return "cross" if a[0] == "actor" and b[0] == "actor" else "slide"  # type: ignore[index]


def one_way(world: World) -> Callable[[object, object], str | None]:
    def answer(a: object, b: object) -> str | None:
        if a[0] == "tile" and b[0] == "actor":  # type: ignore[index]
            actor, tile = world.shape(b), world.shape(a)
            bottom = actor.y + actor.h if isinstance(actor, Rect) else actor.y + actor.r
            return "slide" if bottom <= tile.y else None
        return same_answers(a, b)

    return answer


def run(actors: int, tiles: int, steps: int, way: str) -> tuple[float, float]:
    """The median step and the mean pairs asked a step."""
    world = world_of(actors, tiles)
    answer: Callable[[object, object], str | None] | None = {
        "same answers": same_answers,
        "one-way": one_way(world),
    }.get(way)
    asked = []
    times = []
    for _ in range(steps + 3):
        if answer is not None:  # the pairs asked, counted outside the timing
            live = world._table.live()
            responses, restitution = world._responses_table()
            asked.append(filtered_table(world._table, live, 1.0, answer, responses, restitution)[3])
        start = time.perf_counter()
        if answer is None:
            world.step(1.0, gravity=(0.0, GRAVITY))
        else:
            world.step(1.0, gravity=(0.0, GRAVITY), filter=answer)
        times.append(time.perf_counter() - start)
    return statistics.median(times[3:]), float(np.mean(asked)) if asked else 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--actors", type=int, default=2000)
    parser.add_argument("--tiles", type=int, default=10000)
    parser.add_argument("--steps", type=int, default=20)
    args = parser.parse_args()
    World().step(1.0)  # compile first
    rows = []
    base = None
    for way in ("gravity", "same answers", "one-way"):
        step, asked = run(args.actors, args.tiles, args.steps, way)
        base = base or step
        rows.append([way, f"{step * 1e3:.2f}", f"{step / base:.2f}x", f"{asked:.0f}",
                     f"{(step - base) * 1e3:.2f}"])  # fmt: skip
    print(f"{args.actors} actors, {args.tiles} tiles, median of {args.steps} steps (dt = 1 frame)")
    print(
        table(
            ["way", "ms / step", "vs gravity alone", "pairs asked / step", "ms more / step"], rows
        )
    )


if __name__ == "__main__":
    main()
