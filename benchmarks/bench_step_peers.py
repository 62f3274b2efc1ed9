"""``World.step`` against the peers of its targets, as ratios in one run.

    python benchmarks/bench_step_peers.py
    python benchmarks/bench_step_peers.py --skip-edmd   # no C compiler here

- **Gas** (hard disks, 10,000 at area fraction 0.4, elastic): valid events a second
  in the step's compiled core, against the collisions a second of Smallenburg's
  event-driven hard-sphere C code (``../shared/anchors/edmd``: 3D spheres, N = 32,000,
  packing fraction 0.45, ``gcc -O3 -march=native``; run to times 2 and 10 and the
  difference taken, which leaves out its start and the crystal melting, as its README
  says). Target: at least 1.25x.
- **Swarm** (``bench_step.swarm_world``: 10,000 movers, half 6x6 boxes and half r=3
  discs, among 50,000 static 16x16 tiles, velocities ~N(0, 3), dt 1): the median
  step against pymunk 7 stepping the same scene (movers dynamic, tiles static boxes,
  no gravity). Target: at least 3x faster.
- **Small world** (20 discs and a wall, one step): the median ``World.step`` against
  pymunk's ``Space.step`` of the same bodies. Target: within 10x of pymunk.

Each figure is the median of repeated runs in this process; the three ratios are what
the targets name (absolute times move threefold with this machine's load). The gas
and Smallenburg's code run in turn, ``--rounds`` times, and the gas's ratio is the
median of the rounds' ratios.
"""

from __future__ import annotations

import argparse
import math
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _timing import table
from bench_step import swarm_world

from collide2d import Circle, Rect, World
from collide2d.scenes import platformer_level
from collide2d.world.examples import gas_world

EDMD = Path(__file__).resolve().parents[2] / "shared" / "anchors" / "edmd"


def gas() -> World:
    """The gas, stepped past its start (12 steps)."""
    world = gas_world(10_000, 0.4, seed=0)
    for _ in range(12):
        world.step(1.0)
    return world


def our_gas(world: World, steps: int = 10) -> float:
    """Valid events a second in the core, the median of ``steps`` steps of ``world``."""
    rates = []
    for _ in range(steps):
        stats = world.step(1.0).stats
        rates.append(stats.events / stats.seconds)
    return statistics.median(rates)


def edmd_build(work: Path) -> dict[int, Path] | None:
    """Smallenburg's code built in ``work`` for ``maxtime`` 2 and 10 (None without gcc
    or the anchor)."""
    if shutil.which("gcc") is None or not (EDMD / "mdSingle.c").exists():
        return None
    for name in ("mdSingle.c", "mdSingle.h", "mt19937ar.c"):
        shutil.copy(EDMD / name, work / name)
    source = (work / "mdSingle.c").read_text()
    for pattern, value in (
        (r"int initialconfig = \d+;", "int initialconfig = 1;"),
        (r"int N = \d+;", "int N = 32000;"),
        (r"double packfrac = [\d.]+;", "double packfrac = 0.45;"),
    ):
        source, count = re.subn(pattern, value, source)
        assert count == 1, pattern
    binaries = {}
    for maxtime in (2, 10):
        text = re.sub(r"double maxtime = [\d.]+;", f"double maxtime = {maxtime};", source)
        (work / "mdSingle.c").write_text(text)
        binary = work / f"md{maxtime}"
        subprocess.run(
            ["gcc", "-O3", "-march=native", "mdSingle.c", "-o", str(binary), "-lm"],
            cwd=work, check=True, capture_output=True,
        )  # fmt: skip
        binaries[maxtime] = binary
    return binaries


def edmd_rate(binaries: dict[int, Path]) -> float:
    """Smallenburg's collisions a second: its runs to times 2 and 10, the difference
    (which leaves out its start and the crystal melting)."""
    runs = {}
    for maxtime, binary in binaries.items():
        start = time.perf_counter()
        out = subprocess.run([str(binary)], cwd=binary.parent, check=True, capture_output=True,
                             text=True).stdout  # fmt: skip
        collisions = int(re.findall(r"Collisions: (\d+)", out)[-1])
        runs[maxtime] = (time.perf_counter() - start, collisions)
    (t2, c2), (t10, c10) = runs[2], runs[10]
    return (c10 - c2) / (t10 - t2)


def gas_rounds(rounds: int, skip_edmd: bool) -> tuple[float, float | None, list[float]]:
    """Our gas and Smallenburg's run in turn, ``rounds`` times (this machine's speed
    swings over minutes, and the two slow down unlike each other): the medians of
    each side and the rounds' ratios."""
    world = gas()
    ours, theirs, ratios = [], [], []
    with tempfile.TemporaryDirectory() as folder:
        binaries = None if skip_edmd else edmd_build(Path(folder))
        for _ in range(rounds):
            ours.append(our_gas(world))
            if binaries is not None:
                theirs.append(edmd_rate(binaries))
                ratios.append(ours[-1] / theirs[-1])
    return statistics.median(ours), statistics.median(theirs) if theirs else None, ratios


def median_step(world: World, dt: float, steps: int) -> float:
    times = []
    for _ in range(steps):
        start = time.perf_counter()
        world.step(dt)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def pymunk_swarm(actors: int, tiles: int, steps: int) -> float | None:
    """pymunk stepping ``bench_step.swarm_world``'s scene: the median step."""
    try:
        import pymunk
    except ImportError:
        return None
    tile_boxes, actor_boxes, velocities = platformer_level(tiles, actors, seed=0)
    space = pymunk.Space()
    for x, y, w, h in tile_boxes.tolist():
        space.add(pymunk.Poly(space.static_body, [(x, y), (x + w, y), (x + w, y + h), (x, y + h)]))
    rng = np.random.default_rng(1)
    fall = rng.uniform(0.5, 3.0, actors)
    for k, ((x, y, w, h), (vx, _)) in enumerate(
        zip(actor_boxes.tolist(), velocities.tolist(), strict=True)
    ):
        if k % 2 == 0:
            body = pymunk.Body(1.0, pymunk.moment_for_box(1.0, (w, h)))
            body.position = (x + w / 2, y + h / 2)
            shape = pymunk.Poly.create_box(body, (w, h))
        else:
            body = pymunk.Body(1.0, pymunk.moment_for_circle(1.0, 0, 6.0))
            body.position = (x + 6.0, y + 14.0)
            shape = pymunk.Circle(body, 6.0)
        body.velocity = (vx, float(fall[k]))
        space.add(body, shape)
    space.step(1.0)
    times = []
    for _ in range(steps):
        start = time.perf_counter()
        space.step(1.0)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def small_world() -> World:
    """20 discs in a row moving at a wall, and the wall."""
    world = World()
    world.add("wall", Rect(100.0, -50.0, 4.0, 100.0), mass=math.inf)
    for k in range(20):
        world.add(k, Circle(4.0 * k, 0.0, 1.0), velocity=(3.0, 0.5 * (k % 3 - 1)))
    world.set_response("default", "default", "bounce")
    return world


def pymunk_small(steps: int) -> float | None:
    try:
        import pymunk
    except ImportError:
        return None
    space = pymunk.Space()
    space.add(pymunk.Poly(space.static_body, [(100, -50), (104, -50), (104, 50), (100, 50)]))
    for k in range(20):
        body = pymunk.Body(1.0, pymunk.moment_for_circle(1.0, 0, 1.0))
        body.position, body.velocity = (4.0 * k, 0.0), (3.0, 0.5 * (k % 3 - 1))
        shape = pymunk.Circle(body, 1.0)
        shape.elasticity = 1.0
        space.add(body, shape)
    space.step(1e-3)
    times = []
    for _ in range(steps):
        start = time.perf_counter()
        space.step(1e-3)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--skip-edmd", action="store_true")
    parser.add_argument("--steps", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=3, help="gas rounds, each side in turn")
    args = parser.parse_args()
    rows = []
    ours, theirs, ratios = gas_rounds(args.rounds, args.skip_edmd)
    rows.append([
        "gas: events a second (core) / Smallenburg's collisions a second",
        f"{ours / 1e6:.3f} M", f"{theirs / 1e6:.3f} M" if theirs else "-",
        (f"{statistics.median(ratios):.2f}x (rounds: "
         f"{', '.join(f'{r:.2f}' for r in ratios)})") if ratios else "-",
        ">= 1.25x",
    ])  # fmt: skip
    world = swarm_world(10_000, 50_000)
    world.step(1.0)
    ours = median_step(world, 1.0, args.steps)
    theirs = pymunk_swarm(10_000, 50_000, args.steps // 4)
    rows.append([
        "swarm: a step (ms), pymunk 7 on the same scene",
        f"{ours * 1e3:.2f}", f"{theirs * 1e3:.2f}" if theirs else "-",
        f"{theirs / ours:.2f}x faster" if theirs else "-", ">= 3x faster",
    ])  # fmt: skip
    world = small_world()
    world.step(1e-3)
    ours = median_step(world, 1e-3, 50 * args.steps)
    theirs = pymunk_small(50 * args.steps)
    rows.append([
        "21 bodies: a step (us), pymunk 7",
        f"{ours * 1e6:.1f}", f"{theirs * 1e6:.1f}" if theirs else "-",
        f"{ours / theirs:.1f}x pymunk's time" if theirs else "-", "within 10x",
    ])  # fmt: skip
    print(table(["figure", "collide2d", "peer", "ratio", "target"], rows))


if __name__ == "__main__":
    main()
