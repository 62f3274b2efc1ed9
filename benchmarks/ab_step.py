"""``World.step`` at two git revisions, side by side: each in a git worktree of its own
with its own numba cache, the two run alternately in fresh processes, each process
reporting the best and the median of many steps.

    python benchmarks/ab_step.py 6924fd6 HEAD --rounds 3 --scenes gas,swarm,bullets

On a shared machine the same code runs 10 to 50 % slower from one minute to the next:
one run of each side proves nothing. The noise only ever adds time, so the best step
of a process is its steadiest figure, and alternating the sides spreads the noise over
both. Results (the stats of the last step) must be equal when a change is meant to
keep them: a line says so.

Scenes (the ones of ``bench_step.py``): ``gas`` (10,000 disks at area fraction 0.4,
events a second in the core, best and median of 60 steps after 12), ``swarm`` (ms a
step, best and median of 60 after one), ``bullets`` (ms a frame: the median of the first
ten frames, as ``bench_step.py`` reports it, and the best of frames 15 to 30).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from _timing import table

ROOT = Path(__file__).resolve().parent.parent

SCENES = {
    "gas": """
from collide2d.world.examples import gas_world
world = gas_world(10000, 0.4, seed=0)
for _ in range(12):
    world.step(1.0)
rates = []
for _ in range(60):
    r = world.step(1.0)
    rates.append(r.stats.events / r.stats.seconds / 1e6)
rates.sort()
print(f"{rates[-1]:.3f} {rates[30]:.3f} M-events/s|{r.stats[:6]}")
""",
    "swarm": """
import sys
sys.path.insert(0, BENCH)
from bench_step import platformer_level, World, Rect, Circle, np, math
tiles, actors, velocities = platformer_level(50000, 10000, seed=0)
world = World(cell_size=64)
for k, row in enumerate(tiles.tolist()):
    world.add(("tile", k), Rect(*row), mass=math.inf)
fall = np.random.default_rng(1).uniform(0.5, 3.0, 10000)
for k, ((x, y, w, h), (vx, _)) in enumerate(zip(actors.tolist(), velocities.tolist())):
    shape = Rect(x, y, w, h) if k % 2 == 0 else Circle(x + 6.0, y + 14.0, 6.0)
    world.add(("actor", k), shape, velocity=(vx, float(fall[k])))
world.step(1.0)
walls = []
for _ in range(60):
    start = time.perf_counter()
    r = world.step(1.0)
    walls.append(time.perf_counter() - start)
walls.sort()
print(f"{walls[0] * 1e3:.2f} {walls[30] * 1e3:.2f} ms|{r.stats[:6]}")
""",
    "bullets": """
import sys, statistics
sys.path.insert(0, BENCH)
import bench_step as b
from collide2d import Circle, Rect, World
shots, shot_v, box_xy, box_v = b.bullet_scene(20000, 500)
world = World(cell_size=64)
world.set_response("bullet", "wall", "touch")
world.set_response("bullet", "box", "cross")
world.set_response("bullet", "bullet", "ignore")
world.set_response("box", "box", "bounce")
world.set_response("box", "wall", "bounce")
for k, x in enumerate(b.WALLS):
    world.add(("wall", k), Rect(x, b.WALL_TOP, 1.0, b.WALL_BOTTOM - b.WALL_TOP),
              mass=float("inf"), group="wall")
for k, ((x, y), v) in enumerate(zip(box_xy.tolist(), box_v.tolist())):
    world.add(("box", k), Rect(x, y, 20.0, 20.0), velocity=v, group="box")
for k, ((x, y), v) in enumerate(zip(shots.tolist(), shot_v.tolist())):
    world.add(k, Circle(x, y, 1.0), velocity=v, group="bullet")
walls = []
for _ in range(30):
    start = time.perf_counter()
    r = world.step(1.0 / 60.0)
    walls.append(time.perf_counter() - start)
print(f"{min(walls[15:]) * 1e3:.2f} {statistics.median(walls[:10]) * 1e3:.2f} ms|{r.stats[:6]}")
""",
}
HEADER = {"gas": ("best", "median"), "swarm": ("best", "median"),
          "bullets": ("best steady", "median of first 10")}  # fmt: skip


def worktree(rev: str, where: Path) -> Path:
    """A detached git worktree of ``rev`` under ``where``."""
    path = where / rev.replace("/", "_")
    subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "-f", str(path), rev],
                   check=True, capture_output=True)  # fmt: skip
    return path


def measure(tree: Path, cache: Path, scene: str) -> tuple[str, str]:
    """One process of ``scene`` at ``tree``: its figures and its last stats."""
    env = dict(os.environ, PYTHONPATH=str(tree / "src"), NUMBA_CACHE_DIR=str(cache))
    code = f"import time\nBENCH = {str(ROOT / 'benchmarks')!r}\n" + SCENES[scene]
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         check=True).stdout.strip().splitlines()[-1]  # fmt: skip
    figures, stats = out.split("|")
    return figures, stats


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("a", help="the revision before (a commit, a branch, HEAD~1)")
    parser.add_argument("b", help="the revision after")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--scenes", default="gas,swarm,bullets")
    args = parser.parse_args()
    scenes = args.scenes.split(",")
    for scene in scenes:
        if scene not in SCENES:
            parser.error(f"--scenes: unknown scene {scene!r} (known: {', '.join(SCENES)})")
    with tempfile.TemporaryDirectory() as tmp:
        where = Path(tmp)
        trees = {rev: worktree(rev, where) for rev in (args.a, args.b)}
        try:
            for scene in scenes:
                rows, stats = [], {}
                for _ in range(args.rounds):
                    for rev, tree in trees.items():
                        figures, stats[rev] = measure(tree, where / f"cache-{rev}", scene)
                        rows.append([rev, *figures.split()])
                rows.sort(key=lambda row: row[0] != args.a)
                unit = rows[0][-1]
                print(f"\n{scene} ({unit}), {args.rounds} rounds, alternating")
                print(table(["revision", *HEADER[scene]], [row[:-1] for row in rows]))
                same = stats[args.a] == stats[args.b]
                print(f"last step's stats {'equal' if same else 'DIFFER'}: {stats[args.b]}")
        finally:
            for tree in trees.values():
                subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force",
                                str(tree)], check=False, capture_output=True)  # fmt: skip


if __name__ == "__main__":
    main()
