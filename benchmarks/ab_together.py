"""``World.step`` at two git revisions in **one process**, stepped in turn: the two
builds share every minute of the machine, so a slower minute slows both.

    python benchmarks/ab_together.py 8953821 HEAD --scenes gas,bullets --rounds 3

``ab_step.py`` runs the two sides in separate processes, one after the other; on this
two-core VM the same code ran 10 to 50 % slower from one minute to the next, and its
rounds often disagreed about a 5 % change. Here each revision is exported
(``git archive``; ``WORK`` is the working tree, uncommitted changes included) as a
package of its own name, its ``collide2d`` renamed (``c2d_a``, ``c2d_b``), and one
process builds the same scene in both and steps them alternately (which goes first
alternating too). The two worlds compete for the caches, so the absolute figures are
lower than a world alone; the ratio is the measure. Each export keeps its numba cache
under ``.ab_together/<commit>`` (not for ``WORK``), so a revision compiles once.

Scenes (those of ``bench_step.py``): ``gas`` (10,000 disks at area fraction 0.4:
events a second in the core, best and median of ``60 * rounds`` steps after 12),
``gas6`` (the same at 0.6), ``swarm`` (ms a step, best and median of ``60 * rounds``
steps after one), ``bullets`` (ms a frame in ``rounds`` fresh worlds: the median of the
first ten frames, the best of frames 15 to 40). The stats of the last step must be equal
when a change is meant to keep them.
"""

from __future__ import annotations

import re
import shutil
import statistics
import subprocess
import sys
import tarfile
import time
import types
from io import BytesIO
from pathlib import Path

from _timing import ab_arguments, table

ROOT = Path(__file__).resolve().parent.parent
CACHE = ROOT / ".ab_together"
NAME = re.compile(r"\bcollide2d\b")


def export(rev: str, name: str) -> Path:
    """``src/collide2d`` at ``rev`` as the package ``name`` in a folder of its own
    (returned, for ``sys.path``): every ``collide2d`` of its sources renamed."""
    if rev == "WORK":
        folder = CACHE / "work"
        shutil.rmtree(folder, ignore_errors=True)
        shutil.copytree(ROOT / "src" / "collide2d", folder / "src" / "collide2d",
                        ignore=shutil.ignore_patterns("__pycache__"))  # fmt: skip
    else:
        commit = subprocess.run(["git", "-C", str(ROOT), "rev-parse", rev], check=True,
                                capture_output=True, text=True).stdout.strip()  # fmt: skip
        folder = CACHE / commit
        if (folder / name).is_dir():
            return folder  # (exported before: its compiled kernels kept)
        shutil.rmtree(folder, ignore_errors=True)
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", commit, "src/collide2d"],
                                 check=True, capture_output=True).stdout  # fmt: skip
        with tarfile.open(fileobj=BytesIO(archive)) as tar:
            tar.extractall(folder, filter="data")
    for path in (folder / "src" / "collide2d").rglob("*.py"):
        path.write_text(NAME.sub(name, path.read_text()))
    shutil.rmtree(folder / name, ignore_errors=True)
    (folder / "src" / "collide2d").rename(folder / name)
    return folder


def load(folder: Path, name: str) -> tuple[types.ModuleType, types.ModuleType]:
    """The package ``name`` from ``folder``, and ``bench_step`` built on it."""
    sys.path.insert(0, str(folder))
    package = __import__(name)
    bench = types.ModuleType(f"bench_step_{name}")
    source = (ROOT / "benchmarks" / "bench_step.py").read_text()
    exec(compile(NAME.sub(name, source), bench.__name__, "exec"), bench.__dict__)
    return package, bench


def in_turn(count: int, sides: list[str]) -> list[list[str]]:
    """``count`` turns of ``sides``, the first of each turn alternating."""
    return [sides if k % 2 == 0 else sides[::-1] for k in range(count)]


def gas(benches: dict[str, types.ModuleType], rounds: int, eta: float) -> dict[str, list[str]]:
    worlds = {side: bench.gas_world(10000, eta, seed=0) for side, bench in benches.items()}
    for world in worlds.values():
        for _ in range(12):
            world.step(1.0)
    rates: dict[str, list[float]] = {side: [] for side in worlds}
    stats = {}
    for turn in in_turn(60 * rounds, list(worlds)):
        for side in turn:
            result = worlds[side].step(1.0)
            rates[side].append(result.stats.events / result.stats.seconds / 1e6)
            stats[side] = str(tuple(result.stats[:6]))
    return {side: [f"{max(v):.3f}", f"{statistics.median(v):.3f}", stats[side]]
            for side, v in rates.items()}  # fmt: skip


def swarm(benches: dict[str, types.ModuleType], rounds: int) -> dict[str, list[str]]:
    worlds = {side: bench.swarm_world(10000, 50000) for side, bench in benches.items()}
    for world in worlds.values():
        world.step(1.0)
    walls: dict[str, list[float]] = {side: [] for side in worlds}
    stats = {}
    for turn in in_turn(60 * rounds, list(worlds)):
        for side in turn:
            start = time.perf_counter()
            result = worlds[side].step(1.0)
            walls[side].append(time.perf_counter() - start)
            stats[side] = str(tuple(result.stats[:6]))
    return {side: [f"{min(v) * 1e3:.2f}", f"{statistics.median(v) * 1e3:.2f}", stats[side]]
            for side, v in walls.items()}  # fmt: skip


def bullets(benches: dict[str, types.ModuleType], rounds: int) -> dict[str, list[str]]:
    first: dict[str, list[float]] = {side: [] for side in benches}
    stopped: dict[str, list[float]] = {side: [] for side in benches}
    stats = {}
    for k in range(rounds):
        worlds = {side: bench.bullet_world(20000, 500) for side, bench in benches.items()}
        frames: dict[str, list[float]] = {side: [] for side in worlds}
        for turn in in_turn(40, list(worlds) if k % 2 == 0 else list(worlds)[::-1]):
            for side in turn:
                start = time.perf_counter()
                result = worlds[side].step(1.0 / 60.0)
                frames[side].append(time.perf_counter() - start)
                stats[side] = str(tuple(result.stats[:6]))
        for side, v in frames.items():
            first[side].append(statistics.median(v[:10]) * 1e3)
            stopped[side].append(min(v[15:40]) * 1e3)
    return {side: [" ".join(f"{v:.2f}" for v in first[side]),
                   " ".join(f"{v:.2f}" for v in stopped[side]), stats[side]]
            for side in benches}  # fmt: skip


SCENES = {
    "gas": (lambda b, r: gas(b, r, 0.4), "M events/s", ("best", "median")),
    "gas6": (lambda b, r: gas(b, r, 0.6), "M events/s", ("best", "median")),
    "swarm": (swarm, "ms", ("best", "median")),
    "bullets": (bullets, "ms", ("median of first 10, each round", "best of 15-40, each round")),
}


def main() -> None:
    args = ab_arguments(__doc__.splitlines()[0], SCENES, "a commit, a branch, HEAD~1, WORK")
    benches = {}
    for side, rev in (("a", args.a), ("b", args.b)):
        name = f"c2d_{side}"
        _package, benches[f"{side} {rev}"] = load(export(rev, name), name)
    for scene in args.scenes:
        run, unit, header = SCENES[scene]
        rows = run(benches, args.rounds)
        print(f"\n{scene} ({unit}), both in one process, in turn")
        print(table(["revision", *header], [[side, *v[:-1]] for side, v in rows.items()]))
        a, b = (v[-1] for v in rows.values())
        print(f"last step's stats {'equal' if a == b else 'DIFFER'}: {b}")


if __name__ == "__main__":
    main()
