"""``World.step`` (every body moves at once, the earliest contact first) on three scenes,
with pymunk side by side on the bullets, and the compile times.

    python3 scripts/run.py bench bench_step
    python benchmarks/bench_step.py --gas 10000 --swarm 10000 --bullets 20000

Gas: ``n`` equal disks (radius 1) at area fraction 0.4 and 0.6 in a box, elastic,
started on a lattice and let melt for ``--melt`` time units, then measured for
``--measure`` units in steps of ``--dt``: valid events a second (in the compiled core
alone and in the whole ``step`` call with its contacts read), stale queue pops, and the equation of state
from the collision rate, ``Z = 1 + Gamma * sigma * sqrt(pi m / kT) / 4`` (Gamma:
disk-disk collisions per disk per unit time), against Henderson's
``(1 + eta^2 / 8) / (1 - eta)^2``. Beside it, the same scene in a textbook event-driven
loop for equal disks alone (``textbook_gas.py``: no exactness, no ordering of equal
times, no contacts written), the yardstick of what an events-a-second target means on
the machine that runs it, and the core's rate as a fraction of its rate.

Swarm: ``collide2d.scenes.platformer_level`` with 50,000 tiles (infinite mass) and
10,000 actors, half boxes and half circles, walking and falling (slide): time per
step and events per step.

Bullets: 20,000 circles of radius 1 at 5,000 to 20,000 px/s against 10 walls 1 px
thick and 500 boxes moving at 100 px/s, frames of 1/60 s; bullets ``touch`` walls
and ``cross`` boxes. The same scene in pymunk (what a Python user would pick: bullets
as dynamic circles, walls as static boxes, boxes kinematic, bullets not colliding
with each other): time per frame and bullets past the first wall (tunnelled). Ours
twice: the first frames, the bullets flying (many cell crossings), and frames 20
later, every bullet stopped at a wall and touching it at time 0 of each frame (a
``touch`` keeps velocities: 20,000 contacts a frame). The swarm and the bullets run
twice, in two worlds: their contacts never read, and read as records every step
(timed with it: reading 20,000 records leaves objects the collector walks during the
next steps, which a world that reads nothing never pays).

Compile: the first ``step`` in a new process with an empty numba cache (cold) and
with the cache filled (cached).
"""

from __future__ import annotations

import argparse
import math
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np
from _timing import table
from textbook_gas import gas as textbook_gas
from textbook_gas import gas_arguments

import collide2d
from collide2d import Circle, Rect, World
from collide2d.scenes import platformer_level
from collide2d.world.examples import gas_world


def henderson(eta: float) -> float:
    return (1.0 + eta * eta / 8.0) / (1.0 - eta) ** 2


def gas(n: int, eta: float, melt: float, measure: float, dt: float) -> dict[str, float]:
    world = gas_world(n, eta, seed=0)
    now = 0.0
    while now < melt:
        world.step(dt)
        now += dt
    events = stale = disk = 0
    core = wall = now = 0.0
    while now < measure:
        start = time.perf_counter()
        result = world.step(dt)
        contacts = result.contacts  # made when read: timed with the step, as before
        wall += time.perf_counter() - start
        core += result.stats.seconds
        events += result.stats.events
        stale += result.stats.stale
        disk += sum(1 for c in contacts if type(c.b) is int)
        now += dt
    rate = 2.0 * disk / (n * now)
    z = 1.0 + rate * 2.0 * math.sqrt(math.pi) / 4.0  # sigma 2, m 1, kT 1
    return {
        "events": events, "stale": stale, "core": events / core, "wall": events / wall,
        "z": z, "henderson": henderson(eta),
    }  # fmt: skip


Window = tuple[float, float, float]


def swarm_world(actors: int, tiles: int) -> World:
    """The swarm scene: ``tiles`` fixed tiles of ``platformer_level`` and ``actors``
    walking and falling, half boxes and half circles."""
    tile_boxes, actor_boxes, velocities = platformer_level(tiles, actors, seed=0)
    world = World(cell_size=64)
    for k, row in enumerate(tile_boxes.tolist()):
        world.add(("tile", k), Rect(*row), mass=math.inf)
    rng = np.random.default_rng(1)
    fall = rng.uniform(0.5, 3.0, actors)
    for k, ((x, y, w, h), (vx, _)) in enumerate(
        zip(actor_boxes.tolist(), velocities.tolist(), strict=True)
    ):
        shape = Rect(x, y, w, h) if k % 2 == 0 else Circle(x + 6.0, y + 14.0, 6.0)
        world.add(("actor", k), shape, velocity=(vx, float(fall[k])))
    return world


def timed(
    world: World, dt: float, steps: int, skips: tuple[int, ...], read: bool
) -> list[tuple[float, float]]:
    """The median step and mean events of ``steps`` steps after each of ``skips`` more
    untimed ones; with ``read``, each step's contacts read as records and timed with it
    (a game that needs them pays that, and the collector's passes over the records in
    the steps after: a separate world measures the steps that read nothing)."""
    out = []
    for skip in skips:
        for _ in range(skip):
            world.step(dt)
        times, events = [], []
        for _ in range(steps):
            start = time.perf_counter()
            result = world.step(dt)
            if read:
                _ = result.contacts  # the records, made when read
            times.append(time.perf_counter() - start)
            events.append(result.stats.events)
        out.append((statistics.median(times), statistics.mean(events)))
    return out


def windows(runs: list[list[tuple[float, float]]]) -> tuple[Window, Window]:
    """Two ``timed`` runs of the same windows, contacts unread and read, as windows of
    (median step unread, median step read, mean events unread)."""
    unread, read = runs
    first, again = (
        (step, read_step, events)
        for (step, events), (read_step, _) in zip(unread, read, strict=True)
    )
    return first, again


def swarm(actors: int, tiles: int, steps: int, later: int = 20) -> tuple[Window, Window]:
    """The median step (contacts unread, read) and mean events over the first ``steps``
    steps after one, and over ``steps`` more after ``later`` others (most actors have
    landed by then); unread and read in two worlds."""
    runs = []
    for read in (False, True):
        world = swarm_world(actors, tiles)
        world.step(1.0)
        runs.append(timed(world, 1.0, steps, (0, later), read))
    return windows(runs)


WALLS = [1000.0 + 200.0 * k for k in range(10)]
WALL_TOP, WALL_BOTTOM = -1.0e6, 1.0e6  # bullets never go round a wall
HEIGHT = 4000.0


def bullet_scene(bullets: int, boxes: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(2)
    shots = np.column_stack([rng.uniform(0, 900, bullets), rng.uniform(10, HEIGHT - 10, bullets)])
    speeds = rng.uniform(5_000, 20_000, bullets)
    angles = rng.uniform(-0.3, 0.3, bullets)
    shot_v = np.column_stack([speeds * np.cos(angles), speeds * np.sin(angles)])
    box_xy = np.column_stack([rng.uniform(0, 900, boxes), rng.uniform(0, HEIGHT - 20, boxes)])
    box_v = rng.uniform(-100, 100, (boxes, 2))
    return shots, shot_v, box_xy, box_v


def bullet_world(bullets: int, boxes: int) -> World:
    """The bullets scene as a World: walls, moving boxes, bullets, their responses."""
    shots, shot_v, box_xy, box_v = bullet_scene(bullets, boxes)
    world = World(cell_size=64)
    world.set_response("bullet", "wall", "touch")
    world.set_response("bullet", "box", "cross")
    world.set_response("bullet", "bullet", "ignore")
    world.set_response("box", "box", "bounce")
    world.set_response("box", "wall", "bounce")
    for k, x in enumerate(WALLS):
        world.add(
            ("wall", k), Rect(x, WALL_TOP, 1.0, WALL_BOTTOM - WALL_TOP), mass=math.inf, group="wall"
        )
    for k, ((x, y), v) in enumerate(zip(box_xy.tolist(), box_v.tolist(), strict=True)):
        world.add(("box", k), Rect(x, y, 20.0, 20.0), velocity=v, group="box")
    for k, ((x, y), v) in enumerate(zip(shots.tolist(), shot_v.tolist(), strict=True)):
        world.add(k, Circle(x, y, 1.0), velocity=v, group="bullet")
    return world


def bullets_collide2d(
    bullets: int, boxes: int, frames: int, later: int = 20
) -> tuple[Window, Window, int]:
    """The median frame (contacts unread, read) and mean events over the first
    ``frames`` frames (the bullets flying), and over ``frames`` more after ``later``
    others (every bullet stopped at a wall, touching it at time 0 of each frame),
    unread and read in two worlds; and the bullets past the first wall at the end."""
    runs = []
    for read in (False, True):
        world = bullet_world(bullets, boxes)
        runs.append(timed(world, 1.0 / 60.0, frames, (0, later), read))
    tunnelled = sum(1 for k in range(bullets) if world.shape(k).x - 1.0 > WALLS[0] + 1.0)  # type: ignore[union-attr]
    first, again = windows(runs)
    return first, again, tunnelled


def bullets_pymunk(bullets: int, boxes: int, frames: int) -> tuple[float, int] | None:
    try:
        import pymunk
    except ImportError:
        return None
    shots, shot_v, box_xy, box_v = bullet_scene(bullets, boxes)
    space = pymunk.Space()
    no_bullets = pymunk.ShapeFilter(categories=0b01, mask=0b10)
    for x in WALLS:
        wall = pymunk.Poly(
            space.static_body,
            [(x, WALL_TOP), (x + 1, WALL_TOP), (x + 1, WALL_BOTTOM), (x, WALL_BOTTOM)],
        )
        wall.filter = pymunk.ShapeFilter(categories=0b10)
        space.add(wall)
    for (x, y), v in zip(box_xy.tolist(), box_v.tolist(), strict=True):
        body = pymunk.Body(body_type=pymunk.Body.KINEMATIC)
        body.position, body.velocity = (x + 10.0, y + 10.0), v
        shape = pymunk.Poly.create_box(body, (20.0, 20.0))
        shape.filter = pymunk.ShapeFilter(categories=0b10)
        space.add(body, shape)
    bodies = []
    for (x, y), v in zip(shots.tolist(), shot_v.tolist(), strict=True):
        body = pymunk.Body(1.0, pymunk.moment_for_circle(1.0, 0, 1.0))
        body.position, body.velocity = (x, y), v
        shape = pymunk.Circle(body, 1.0)
        shape.filter = no_bullets
        space.add(body, shape)
        bodies.append(body)
    times = []
    for _ in range(frames):
        start = time.perf_counter()
        space.step(1.0 / 60.0)
        times.append(time.perf_counter() - start)
    tunnelled = sum(1 for body in bodies if body.position.x - 1.0 > WALLS[0] + 1.0)
    return statistics.median(times), tunnelled


COMPILE = """
import time
start = time.perf_counter()
from collide2d.world.examples import gas_world
world = gas_world(20, 0.4)
world.add("box", __import__("collide2d").Rect(-100, -100, 1, 1), velocity=(1, 0))
world.step(1.0)
print(time.perf_counter() - start)
"""


def compile_times() -> tuple[float, float]:
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache)
        runs = [
            float(subprocess.run([sys.executable, "-c", COMPILE], env=env, capture_output=True,
                                 text=True, check=True).stdout)
            for _ in range(2)
        ]  # fmt: skip
    return runs[0], runs[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    gas_arguments(parser)
    parser.add_argument("--swarm", type=int, default=10_000)
    parser.add_argument("--tiles", type=int, default=50_000)
    parser.add_argument("--bullets", type=int, default=20_000)
    parser.add_argument("--frames", type=int, default=10)
    parser.add_argument("--no-compile", action="store_true")
    args = parser.parse_args()
    print(f"collide2d {collide2d.__version__}, Python {platform.python_version()}, "
          f"{platform.machine()}, {os.cpu_count()} cpus")  # fmt: skip
    if not args.no_compile:
        cold, cached = compile_times()
        print(f"\ncompile: first step in a new process {cold:.1f} s cold, {cached:.1f} s cached\n")
    rows = []
    for eta in (0.4, 0.6):
        g = gas(args.gas, eta, args.melt, args.measure, args.dt)
        lean = textbook_gas(args.gas, eta, args.melt, args.measure, args.dt)
        rows.append([
            eta, f"{g['events']:,}", f"{g['stale']:,}", f"{g['core'] / 1e6:.3f} M",
            f"{g['wall'] / 1e6:.3f} M", f"{lean['rate'] / 1e6:.3f} M",
            f"{g['core'] / lean['rate']:.2f}", f"{g['z']:.3f}", f"{g['henderson']:.3f}",
            f"{100 * (g['z'] / g['henderson'] - 1):+.2f} %",
        ])  # fmt: skip
    print(
        f"gas: {args.gas:,} disks, melted {args.melt}, measured {args.measure} in steps of {args.dt}"
    )
    print(
        table(
            [
                "area fraction",
                "events",
                "stale",
                "events/s core",
                "events/s step",
                "textbook loop",
                "core / textbook",
                "Z",
                "Henderson",
                "Z vs Henderson",
            ],
            rows,
        )
    )
    first, later = swarm(args.swarm, args.tiles, args.frames)
    for label, (per_step, with_contacts, events) in (("", first), (", 20 steps later", later)):
        print(
            f"\nswarm{label}: {args.swarm:,} actors among {args.tiles:,} tiles: "
            f"{per_step * 1e3:.1f} ms a step ({with_contacts * 1e3:.1f} ms with its contacts "
            f"read), {events:.0f} events a step (target 4 ms)"
        )
    flying, stopped, tunnelled = bullets_collide2d(args.bullets, 500, args.frames)
    rows = []
    for label, (ours, with_contacts, events) in (
        (f"first {args.frames} frames", flying),
        (f"{args.frames} frames, 20 frames later", stopped),
    ):
        rows += [
            [f"collide2d World.step, {label}", f"{ours * 1e3:.1f}", tunnelled, f"{events:.0f}"],
            [f"collide2d World.step, {label}, its contacts read", f"{with_contacts * 1e3:.1f}",
             tunnelled, ""],
        ]  # fmt: skip
    theirs = bullets_pymunk(args.bullets, 500, args.frames)
    if theirs is not None:
        rows.append(
            [f"pymunk {__import__('pymunk').version}", f"{theirs[0] * 1e3:.1f}", theirs[1], ""]
        )
    print(
        f"\nbullets: {args.bullets:,} bullets, 500 boxes, 10 walls 1 px thick, frames of 1/60 s "
        f"(pymunk: the first {args.frames}; bullets past the first wall at the end)"
    )
    print(table(["", "ms a frame", "bullets past the first wall", "events a frame"], rows))


if __name__ == "__main__":
    main()
