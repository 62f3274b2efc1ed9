"""``World.step`` at two git revisions, side by side: each in a git worktree of its own
with its own numba cache, the two run alternately in fresh processes, each process
reporting the best and the median of many steps.

    python benchmarks/ab_step.py 6924fd6 HEAD --rounds 3 --scenes gas,swarm,bullets

On a shared machine the same code runs 10 to 50 % slower from one minute to the next:
one run of each side proves nothing. The noise only ever adds time, so the best step
of a process is its steadiest figure, and alternating the sides spreads the noise over
both (a revision against itself, ``HEAD HEAD``, shows how large the noise is: 10 %
between the two sides in one run of session 12). Results (the stats of the last step)
must be equal when a change is meant to keep them: a line says so.

Scenes (the ones of ``bench_step.py``): ``gas`` (10,000 disks at area fraction 0.4,
events a second in the core, best and median of 60 steps after 12), ``swarm`` (ms a
step, best and median of 60 after one), ``bullets`` (ms a frame: the best of frames 15 to 30,
the median of the first ten, and the mean of frames 30 to 90, where the bullets
piled at the walls make a few bodies' event lists long: a frame that grows memory
for them is in the mean, not in a best or a median).
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

from _timing import ab_arguments, table

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
from bench_step import swarm_world
world = swarm_world(10000, 50000)
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
from bench_step import bullet_world
world = bullet_world(20000, 500)
walls = []
for _ in range(90):
    start = time.perf_counter()
    r = world.step(1.0 / 60.0)
    walls.append(time.perf_counter() - start)
best, first = min(walls[15:30]) * 1e3, statistics.median(walls[:10]) * 1e3
print(f"{best:.2f} {first:.2f} {statistics.mean(walls[30:]) * 1e3:.2f} ms|{r.stats[:6]}")
""",
}
HEADER = {"gas": ("best", "median"), "swarm": ("best", "median"),
          "bullets": ("best of 15-30", "median of first 10", "mean of 30-90")}  # fmt: skip


def worktree(rev: str, path: Path) -> Path:
    """A detached git worktree of ``rev`` at ``path``."""
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
    args = ab_arguments(__doc__.splitlines()[0], SCENES, "a commit, a branch, HEAD~1")
    scenes = args.scenes
    sides = {f"a {args.a}": args.a, f"b {args.b}": args.b}  # (a revision against itself
    # measures the noise)
    with tempfile.TemporaryDirectory() as tmp:
        where = Path(tmp)
        trees: dict[str, Path] = {}
        try:
            for side, rev in sides.items():
                trees[side] = worktree(rev, where / side[0])
            for scene in scenes:
                rows, stats = [], {}
                for _ in range(args.rounds):
                    for side, tree in trees.items():
                        figures, stats[side] = measure(tree, where / f"cache-{side[0]}", scene)
                        rows.append([side, *figures.split()])
                rows.sort(key=lambda row: row[0])
                unit = rows[0][-1]
                print(f"\n{scene} ({unit}), {args.rounds} rounds, alternating")
                print(table(["revision", *HEADER[scene]], [row[:-1] for row in rows]))
                a, b = stats.values()
                print(f"last step's stats {'equal' if a == b else 'DIFFER'}: {b}")
        finally:
            for tree in trees.values():
                subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force",
                                str(tree)], check=False, capture_output=True)  # fmt: skip


if __name__ == "__main__":
    main()
