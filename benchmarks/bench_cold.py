"""The first call of each kind in a fresh environment: numba's compile, measured.

    python3 scripts/run.py bench bench_cold

Each call runs alone in a new process whose numba cache (``NUMBA_CACHE_DIR``) is an
empty folder, as on a machine that just installed collide2d, and then again in the
same process (compiled by then). Reported: the first call's seconds, the second's,
how many of collide2d's kernels the first one compiled, and the process's peak
resident memory. ``python benchmarks/bench_cold.py polygon`` runs only the calls
whose names contain a word given.
"""

from __future__ import annotations

import os
import platform
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _timing import table

SETUP = """
import time, numpy as np
from collide2d._kernels import jit
rng = np.random.default_rng(1)
n = 1_000_000
"""

CALLS = {
    "overlapping_pairs, 1e6 boxes (uniform)": (
        "boxes = np.hstack([rng.random((n, 2)) * 10000, rng.random((n, 2)) * 10 + 0.1])",
        "collide2d.overlapping_pairs(boxes)",
    ),
    "overlapping_pairs, 1e6 boxes (sizes 1 to 400)": (
        "boxes = np.hstack([rng.random((n, 2)) * 1e5, np.exp(rng.uniform(0, 6, (n, 2)))])",
        "collide2d.overlapping_pairs(boxes)",
    ),
    "SortAndSweep.pairs, 10,000 boxes": (
        "from collide2d.broadphase import SortAndSweep\n"
        "index = SortAndSweep()\n"
        "for k, (x, y) in enumerate((rng.random((10000, 2)) * 1000).tolist()):\n"
        "    index.add(k, collide2d.Rect(x, y, 5, 5))",
        "index.pairs()",
    ),
    "Quadtree.pairs, 10,000 boxes": (
        "index = collide2d.Quadtree()\n"
        "for k, (x, y) in enumerate((rng.random((10000, 2)) * 1000).tolist()):\n"
        "    index.add(k, collide2d.Rect(x, y, 5, 5))",
        "index.pairs()",
    ),
    "UniformGrid.pairs, 10,000 boxes (the compiled search)": (
        "index = collide2d.UniformGrid(16)\n"
        "for k, (x, y) in enumerate((rng.random((10000, 2)) * 1000).tolist()):\n"
        "    index.add(k, collide2d.Rect(x, y, 5, 5))",
        "index.pairs()",
    ),
    "Mask.overlaps, 512 px": (
        "a = collide2d.Mask.from_array(rng.random((512, 512)) < 0.5)",
        "a.overlaps(a, (100, 50))",
    ),
    "Mask.overlap_mask, 512 px": (
        "a = collide2d.Mask.from_array(rng.random((512, 512)) < 0.5)",
        "a.overlap_mask(a, (100, 50))",
    ),
    "Mask.sweep, 256 px sprites": (
        "yy, xx = np.mgrid[0:256, 0:256]\n"
        "a = collide2d.Mask.from_array((xx - 128) ** 2 + (yy - 128) ** 2 < 110 ** 2)",
        "a.sweep(a, (400.5, 3), (300, 1))",
    ),
    "Mask.connected_components, 512 px": (
        "a = collide2d.Mask.from_array(rng.random((512, 512)) < 0.45)",
        "a.connected_components()",
    ),
    "overlapping_box_pairs, 1e5 rotated boxes": (
        "boxes = np.hstack([rng.random((100_000, 2)) * 4000, rng.random((100_000, 2)) * 10 + 1,"
        " rng.uniform(-3, 3, (100_000, 1))])",
        "collide2d.overlapping_box_pairs(boxes)",
    ),
    "sweep_box_pairs, 1e5 moving rotated boxes": (
        "boxes = np.hstack([rng.random((100_000, 2)) * 4000, rng.random((100_000, 2)) * 10 + 1,"
        " rng.uniform(-3, 3, (100_000, 1))]); deltas = rng.uniform(-8, 8, (100_000, 2))",
        "collide2d.sweep_box_pairs(boxes, deltas)",
    ),
    "overlaps of two polygons": (  # (shallow: their inner discs do not decide it)
        "a, b = collide2d.Polygon.box(0, 0, 4, 2, 0.3), collide2d.Polygon.regular(4.5, 1, 3, 8)",
        "collide2d.overlaps(a, b)",
    ),
    "sweep of two polygons, 1,001 times (compiled after 1,000 on the Python route)": (
        "a, b = collide2d.Polygon.box(0, 0, 4, 2, 0.3), collide2d.Polygon.regular(9, 1, 3, 8)",
        "for _ in range(1001):\n    collide2d.sweep(a, (12.0, 0.5), b)",
    ),
    "World.move_all, 100 actors": (
        "world = collide2d.World()\n"
        "for k in range(400):\n"
        "    world.add(('tile', k), collide2d.Rect(16.0 * k, 64.0, 16.0, 16.0))\n"
        "for k in range(100):\n"
        "    world.add(k, collide2d.Rect(60.0 * k, 0.0, 12.0, 20.0))",
        "world.move_all({k: (60.0 * k + 3, 50.0) for k in range(100)})",
    ),
    "World.move of one actor (the cell lists compile in a process of their own)": (
        "world = collide2d.World()\n"
        "for k in range(400):\n"
        "    world.add(('tile', k), collide2d.Rect(16.0 * k, 64.0, 16.0, 16.0))\n"
        "world.add('actor', collide2d.Rect(0.0, 0.0, 12.0, 20.0))",
        "world.move('actor', (3.0, 50.0))",
    ),
    "World.move of one actor, the cell lists compiled where it stands": (
        "from collide2d.world import listed_move\n"
        "listed_move.READY_NOW = True\n"
        "world = collide2d.World()\n"
        "for k in range(400):\n"
        "    world.add(('tile', k), collide2d.Rect(16.0 * k, 64.0, 16.0, 16.0))\n"
        "world.add('actor', collide2d.Rect(0.0, 0.0, 12.0, 20.0))",
        "world.move('actor', (3.0, 50.0))",
    ),
    "World.move_all, 100 actors among slopes": (
        "world = collide2d.World()\n"
        "for k in range(400):\n"
        "    x = 16.0 * k\n"
        "    world.add(('tile', k), collide2d.Polygon([(x, 68.0), (x + 16, 64.0), (x + 16, 80.0),"
        " (x, 80.0)]))\n"
        "for k in range(100):\n"
        "    world.add(k, collide2d.Rect(60.0 * k, 0.0, 12.0, 20.0))",
        "world.move_all({k: (60.0 * k + 3, 50.0) for k in range(100)})",
    ),
    "World.step, 40 disks": (
        "world = collide2d.World()\n"
        "for k, (x, y) in enumerate((rng.random((40, 2)) * 100).tolist()):\n"
        "    world.add(k, collide2d.Circle(x * 3, y * 3, 1.0), velocity=(1.0, -2.0))\n"
        "world.set_response('default', 'default', 'bounce')",
        "world.step(1.0)",
    ),
    "World.step, 40 boxes and 10 balls on polygon slopes": (
        "world = collide2d.World()\n"
        "for k in range(20):\n"
        "    x = 16.0 * k\n"
        "    world.add(('tile', k), collide2d.Polygon([(x, 68.0), (x + 16, 64.0), (x + 16, 80.0),"
        " (x, 80.0)]), mass=float('inf'))\n"
        "for k in range(40):\n"
        "    world.add(k, collide2d.Rect(8.0 * k, 0.0, 6.0, 6.0), velocity=(1.0, 50.0))\n"
        "for k in range(10):\n"
        "    world.add(('ball', k), collide2d.Circle(32.0 * k + 4, 30.0, 3.0), velocity=(0, 40.0))",
        "world.step(1.0)",
    ),
}


def first_call(prepare: str, call: str) -> tuple[float, float, int, float]:
    code = (
        SETUP
        + "import collide2d\n"
        + prepare
        + f"""
start = time.perf_counter()
{call}
first = time.perf_counter() - start
start = time.perf_counter()
{call}
import resource
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # kB on Linux
print(first, time.perf_counter() - start, len(jit.COMPILED), peak)
"""
    )
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache)
        done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                              text=True, check=True)  # fmt: skip
    first, second, kernels, peak = done.stdout.split()
    return float(first), float(second), int(kernels), float(peak)


def main() -> None:
    import numba

    print(f"# bench_cold: CPython {platform.python_version()}, numba {numba.__version__}\n")
    wanted = sys.argv[1:]  # words of the names to run; all by default
    rows = []
    for name, (prepare, call) in CALLS.items():
        if wanted and not any(word in name for word in wanted):
            continue
        first, second, kernels, peak = first_call(prepare, call)
        rows.append([name, f"{first:.2f}", f"{second * 1e3:.1f}", kernels, f"{peak:.0f}"])
    header = ["first call, empty cache", "seconds", "second call ms", "kernels compiled",
              "peak RSS MB"]  # fmt: skip
    print(table(header, rows))


if __name__ == "__main__":
    main()
