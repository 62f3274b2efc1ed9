"""``World.step`` on dense random scenes, the worst a game can throw at it: how often a
step ends with bodies stopped by the event cap or put back where it began, and
whether every stopping pair it leaves overlapping is reported.

    python3 scripts/run.py bench bench_jams
    python benchmarks/bench_jams.py --scenes 60 --steps 6

Each scene: 50 to 500 rectangles and circles on a grid of cells of 10 (sizes up to
the cell, none overlapping at the start), a third of infinite mass and half of those
kinematic (a velocity of their own), speeds drawn around 10 to 100,000 (a scene's
scale, log-uniform; each body's velocity normal around it), three groups whose pairs
answer ``slide``, ``touch``, ``bounce`` or ``cross`` (restitution 0, 0.5 or 1), a
``dt`` from 0.01 to 3.7 (log-uniform); each scene stepped ``--steps`` times. Seeded:
the same scenes every run.

Reported: steps with capped or put-back bodies (``StepStats.capped``,
``put_back``), the events, capped and put-back bodies in all, steps that leave a
stopping pair overlapping, such pairs not in ``StepResult.overlaps`` (checked against
every pair: must be 0), pairs listed three steps running (a body a kinematic body
keeps pressing is listed again each step), the crushed bodies, and the time a step.
"""

from __future__ import annotations

import argparse
import math
import time

import numpy as np
from _timing import table

from collide2d import Circle, Rect, World, overlaps

RESPONSES = ("slide", "touch", "bounce", "cross")
STOPPING = ("slide", "touch", "bounce")
CELL = 10.0


def scene(seed: int) -> tuple[World, float]:
    """Scene ``seed`` (module docstring) and its ``dt``."""
    rng = np.random.default_rng(seed)
    n = int(rng.integers(50, 501))
    side = math.isqrt(n - 1) + 1
    world = World()
    groups = "abc"
    for k, group_a in enumerate(groups):
        for group_b in groups[k:]:
            world.set_response(group_a, group_b, str(rng.choice(RESPONSES)),
                               restitution=float(rng.choice([0.0, 0.5, 1.0])))  # fmt: skip
    speed = 10 ** rng.uniform(1, 5)
    for index, slot in enumerate(rng.permutation(side * side)[:n].tolist()):
        x0, y0 = (slot % side) * CELL, (slot // side) * CELL
        immovable = rng.random() < 1 / 3
        kinematic = immovable and rng.random() < 0.5
        still = immovable and not kinematic
        vx, vy = (0.0, 0.0) if still else rng.normal(0.0, speed, 2).tolist()
        shape: Rect | Circle
        if rng.random() < 0.5:
            shape = Circle(x0 + 5, y0 + 5, float(rng.uniform(1, 4.9)))
        else:
            w, h = rng.uniform(1, 9.9, 2).tolist()
            shape = Rect(x0 + (CELL - w) / 2, y0 + (CELL - h) / 2, w, h)
        mass = math.inf if immovable else float(rng.choice([0.5, 1.0, 2.0]))
        world.add(index, shape, velocity=(vx, vy), mass=mass, group=str(rng.choice(list(groups))))
    return world, float(10 ** rng.uniform(-2, math.log10(3.7)))


def stopping_overlaps(world: World) -> set[tuple[object, object]]:
    """Every stopping pair that overlaps (not two of infinite mass: they pass as
    ``cross``), ``(a, b)`` with ``a`` added first."""
    items = list(world)
    shapes = [world.shape(item) for item in items]
    boxes = np.array([
        (s.x - s.r, s.y - s.r, s.x + s.r, s.y + s.r) if isinstance(s, Circle)
        else (s.x, s.y, s.x + s.w, s.y + s.h) for s in shapes  # type: ignore[union-attr]
    ])  # fmt: skip
    immovable = [world.mass(item) == math.inf for item in items]
    responses = world.group_filter
    found = set()
    for a in range(len(items)):
        rest = boxes[a + 1 :]
        near = (rest[:, 0] < boxes[a, 2]) & (boxes[a, 0] < rest[:, 2])
        near &= (rest[:, 1] < boxes[a, 3]) & (boxes[a, 1] < rest[:, 3])
        for b in (np.flatnonzero(near) + a + 1).tolist():
            if immovable[a] and immovable[b]:
                continue
            if responses(items[a], items[b]) in STOPPING and overlaps(shapes[a], shapes[b]):
                found.add((items[a], items[b]))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenes", type=int, default=60)
    parser.add_argument("--steps", type=int, default=6)
    args = parser.parse_args()
    counts = dict.fromkeys(
        ("steps", "capped or put back", "events", "capped", "put back", "left overlapping",
         "unreported", "listed 3 steps running", "crushed"), 0
    )  # fmt: skip
    seconds = 0.0
    World().step(1.0)  # (nothing to compile for an empty world; the first scene compiles)
    for seed in range(args.scenes):
        world, dt = scene(seed)
        listed: list[set[tuple[object, object]]] = []
        for _ in range(args.steps):
            start = time.perf_counter()
            result = world.step(dt)
            seconds += time.perf_counter() - start if seed else 0.0
            stats = result.stats
            left = stopping_overlaps(world)
            counts["steps"] += 1
            counts["capped or put back"] += bool(stats.capped or stats.put_back)
            counts["events"] += stats.events
            counts["capped"] += stats.capped
            counts["put back"] += stats.put_back
            counts["left overlapping"] += bool(left)
            counts["unreported"] += len(left - set(result.overlaps))
            counts["crushed"] += len(result.crushed)
            listed.append(set(result.overlaps))
        for k in range(len(listed) - 2):
            counts["listed 3 steps running"] += len(listed[k] & listed[k + 1] & listed[k + 2])
    steps = counts["steps"]
    rows = [(name, str(value)) for name, value in counts.items()]
    rows.insert(2, ("  share of steps", f"{counts['capped or put back'] / steps:.0%}"))
    timed = steps - args.steps  # (the first scene's steps compile)
    rows.append(("ms a step (after the first scene)", f"{1000 * seconds / max(1, timed):.2f}"))
    print(f"dense random scenes: {args.scenes} scenes, {args.steps} steps each")
    print(table(("figure", "value"), rows))


if __name__ == "__main__":
    main()
