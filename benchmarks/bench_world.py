"""The World against bump.lua 3.1.7 itself, under LuaJIT and Lua 5.1, on one seeded scene.

    python3 scripts/run.py bench bench_world
    python benchmarks/bench_world.py --frames 60 --bump ../shared/anchors/bump
    python benchmarks/bench_world.py --single   # the single moves alone

Scene "platformer" (``collide2d.scenes.platformer_level``): 10,000 static 16 px
tiles in rows of platforms, 1,000 actors of 12 x 20 walking with gravity; every
frame each actor is moved once with ``slide`` against the tiles (actors ignore each
other); landing stops its fall, a wall turns it round, falling out of the level puts
it back at the top. bump.lua runs the same frames (``benchmarks/bump_driver.lua``)
under ``luajit`` and ``lua5.1`` when they are installed (Debian: ``apt-get install
luajit lua5.1``), else under the LuaJIT 2.1 and Lua 5.1 the ``lupa`` wheel carries (the
bench extra installs it), when the bump sources are found (``--bump`` or
``$BUMP_LUA_DIR``).

Reported: the median time of a frame and of one move, the ratios, and how many
actors end where bump's do (bump's 1e-10 membrane and backward push-out make some
differ by design; see docs/world.md).
"""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import lupa_lua
import numpy as np
from _timing import bar_chart, table

from collide2d import Rect, World, query_pairs
from collide2d.scenes import platformer_level
from collide2d.world import listed_move
from collide2d.world.collision import Filter

listed_move.READY_NOW = True  # (the steady state: compiled at the first move if need be)

HERE = Path(__file__).resolve().parent
DEFAULT_BUMP = HERE.parent.parent / "shared" / "anchors" / "bump"
GRAVITY, TERMINAL, BOTTOM, RESPAWN = 0.5, 12.0, 4200.0, 0.0
BULLET = 2.0  # a bullet's side (bump.lua takes no zero-size items)


def build(tiles: int, actors: int, seed: int) -> tuple[World, list[tuple[str, int]], np.ndarray]:
    tile_boxes, actor_boxes, velocities = platformer_level(tiles, actors, seed)
    world = World(cell_size=64)
    for k, row in enumerate(tile_boxes.tolist()):
        world.add(("tile", k), Rect(*row), group="tile")
    names = []
    for k, row in enumerate(actor_boxes.tolist()):
        names.append(world.add(("actor", k), Rect(*row), group="actor"))
    world.set_response("actor", "actor", "ignore")  # for world.group_filter: as tiles_only
    return world, names, velocities.copy()


def tiles_only(item: object, other: tuple[str, int]) -> str | None:
    return "slide" if other[0] == "tile" else None


def python_frames(
    world: World, names: list, velocities: np.ndarray, frames: int, all_at_once: bool,
    filter: Filter = tiles_only,
) -> tuple[list[float], list[float]]:  # fmt: skip
    """Run ``frames`` frames; return each frame's seconds and the seconds of its moves
    alone (the ``move_all`` call, or the ``move`` calls)."""
    vel = velocities.tolist()
    position = [tuple(world.shape(name)[:2]) for name in names]
    frame_times, move_times = [], []
    for _ in range(frames):
        start = time.perf_counter()
        goals = {}
        for k, name in enumerate(names):
            x, y = position[k]
            v = vel[k]
            v[1] = min(v[1] + GRAVITY, TERMINAL)
            goals[name] = (x + v[0], y + v[1])
        moves_start = time.perf_counter()
        if all_at_once:
            moved = world.move_all(goals, filter)
        else:
            moved = {name: world.move(name, goals[name], filter) for name in names}
        move_times.append(time.perf_counter() - moves_start)
        for k, name in enumerate(names):
            (nx, ny), cols = moved[name]
            for col in cols:
                if col.normal[1] < 0:
                    vel[k][1] = 0.0
                if col.normal[0] != 0:
                    vel[k][0] = -vel[k][0]
            if ny > BOTTOM:
                world.update(name, (nx, RESPAWN))
                ny = RESPAWN
            position[k] = (nx, ny)
        frame_times.append(time.perf_counter() - start)
    velocities[:] = vel
    return frame_times, move_times


def array_frames(
    world: World, names: list, velocities: np.ndarray, frames: int
) -> tuple[list[float], list[float]]:
    """``python_frames`` as a game keeping its actors in numpy arrays writes it: one
    ``move_arrays`` call with the World's group filter, the responses to the
    collisions as array operations."""
    position = np.array([world.shape(name)[:2] for name in names], dtype=np.float64)
    vel = velocities
    frame_times, move_times = [], []
    for _ in range(frames):
        start = time.perf_counter()
        vel[:, 1] = np.minimum(vel[:, 1] + GRAVITY, TERMINAL)
        goals = position + vel
        moves_start = time.perf_counter()
        moved = world.move_arrays(names, goals, world.group_filter)
        move_times.append(time.perf_counter() - moves_start)
        normal, mover = moved.normal, moved.mover
        vel[mover[normal[:, 1] < 0], 1] = 0.0
        turns = np.bincount(mover[normal[:, 0] != 0], minlength=len(names)) % 2 == 1
        vel[turns, 0] = -vel[turns, 0]
        position = moved.positions
        for k in np.flatnonzero(position[:, 1] > BOTTOM).tolist():
            world.update(names[k], (float(position[k, 0]), RESPAWN))
            position[k, 1] = RESPAWN
        frame_times.append(time.perf_counter() - start)
    return frame_times, move_times


def bullets_level(
    tiles: int, actors: int, bullets: int, seed: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, tuple[float, float, float, float]]:
    """The platformer's tiles and actors (standing still, targets), ``bullets`` small
    squares where nothing is, flying 16 to 40 px a frame in every direction, and the
    level's bounds."""
    tile_boxes, actor_boxes, _ = platformer_level(tiles, actors, seed)
    rng = np.random.default_rng(seed + 1)
    solid = np.vstack((tile_boxes, actor_boxes))
    lo = solid[:, :2].min(axis=0)
    hi = (solid[:, :2] + solid[:, 2:]).max(axis=0)
    found = np.empty((0, 4))
    while len(found) < bullets:
        xy = rng.uniform(lo, hi - BULLET, size=(2 * bullets, 2))
        boxes = np.column_stack((xy, np.full((len(xy), 2), BULLET)))
        clear = np.ones(len(boxes), dtype=bool)
        clear[query_pairs(solid, boxes)[:, 0]] = False
        found = np.vstack((found, boxes[clear]))[:bullets]
    angle = rng.uniform(0.0, 2.0 * np.pi, bullets)
    speed = rng.uniform(16.0, 40.0, bullets)
    velocities = np.column_stack((speed * np.cos(angle), speed * np.sin(angle)))
    bounds = (float(lo[0]), float(lo[1]), float(hi[0]), float(hi[1]))
    return tile_boxes, actor_boxes, found, velocities, bounds


def build_bullets(
    tiles: int, actors: int, bullets: int, seed: int
) -> tuple[World, list[tuple[str, int]], np.ndarray]:
    tile_boxes, actor_boxes, bullet_boxes, velocities, _ = bullets_level(
        tiles, actors, bullets, seed
    )
    world = World(cell_size=64)
    for k, row in enumerate(tile_boxes.tolist()):
        world.add(("tile", k), Rect(*row), group="tile")
    for k, row in enumerate(actor_boxes.tolist()):
        world.add(("actor", k), Rect(*row), group="actor")
    names = [world.add(("bullet", k), Rect(*row), group="bullet")
             for k, row in enumerate(bullet_boxes.tolist())]  # fmt: skip
    world.set_response("bullet", "tile", "touch")
    world.set_response("bullet", "actor", "cross")
    world.set_response("bullet", "bullet", "ignore")
    return world, names, velocities.copy()


def bullet_filter(item: object, other: tuple[str, int]) -> str | None:
    kind = other[0]
    return "touch" if kind == "tile" else "cross" if kind == "actor" else None


def bullet_frames(
    world: World, names: list, velocities: np.ndarray, bounds: tuple[float, ...],
    frames: int, how: str,
) -> tuple[list[float], list[float], int]:  # fmt: skip
    """Bullets' frames as ``bump_driver.lua`` runs them: a bullet turns back from a
    tile it touched (each axis once) and at the bounds, and crosses actors (hits
    counted). ``how``: "one" (``move`` after ``move``), "all" (``move_all``) or
    "arrays" (``move_arrays`` with the group filter, the turns as array operations).
    Returns each frame's seconds, its moves' seconds and the hits."""
    left, top, right, bottom = bounds
    position = np.array([world.shape(name)[:2] for name in names], dtype=np.float64)
    vel = velocities
    frame_times, move_times, hits = [], [], 0
    for _ in range(frames):
        start = time.perf_counter()
        goals = position + vel
        moves_start = time.perf_counter()
        if how == "arrays":
            moved = world.move_arrays(names, goals, world.group_filter)
            move_times.append(time.perf_counter() - moves_start)
            touched = moved.response == "touch"
            for axis in (0, 1):
                turned = np.zeros(len(names), dtype=bool)
                turned[moved.mover[touched & (moved.normal[:, axis] != 0)]] = True
                vel[turned, axis] = -vel[turned, axis]
            hits += int((moved.response == "cross").sum())
            position = moved.positions
        else:
            targets = dict(zip(names, map(tuple, goals.tolist()), strict=True))
            if how == "all":
                records = world.move_all(targets, bullet_filter)
            else:
                records = {name: world.move(name, targets[name], bullet_filter) for name in names}
            move_times.append(time.perf_counter() - moves_start)
            for k, name in enumerate(names):
                point, cols = records[name]
                touches = [c.normal for c in cols if c.response == "touch"]
                if any(n[0] for n in touches):
                    vel[k, 0] = -vel[k, 0]
                if any(n[1] for n in touches):
                    vel[k, 1] = -vel[k, 1]
                hits += sum(c.response == "cross" for c in cols)
                position[k] = point
        x, y = position[:, 0], position[:, 1]
        vel[((x < left) & (vel[:, 0] < 0)) | ((x > right) & (vel[:, 0] > 0)), 0] *= -1.0
        vel[((y < top) & (vel[:, 1] < 0)) | ((y > bottom) & (vel[:, 1] > 0)), 1] *= -1.0
        frame_times.append(time.perf_counter() - start)
    return frame_times, move_times, hits


def run_bump(lua: str, bump_dir: Path, scene: Path) -> tuple[list[float], np.ndarray, int] | str:
    """Times (seconds a frame), final positions and cross hits from bump.lua, or why
    not."""
    if shutil.which(lua) is not None:
        command = [lua]
    elif lupa_lua.available(lua):  # the interpreter the lupa wheel carries
        command = [sys.executable, str(HERE / "lupa_lua.py"), lua]
    else:
        return f"{lua} not installed (apt-get install {lua}, or pip install lupa)"
    if not (bump_dir / "bump.lua").exists():
        return f"bump.lua not found in {bump_dir} (--bump or $BUMP_LUA_DIR)"
    done = subprocess.run(
        [*command, str(HERE / "bump_driver.lua"), str(bump_dir), str(scene)],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        return f"{lua} failed: {done.stderr.strip()[:200]}"
    times: list[float] = []
    positions = []
    hits = 0
    for line in done.stdout.splitlines():
        kind, *rest = line.split()
        if kind == "times":
            times = [float(v) / 1e3 for v in rest]
        elif kind == "pos":
            positions.append([float(v) for v in rest])
        elif kind == "hits":
            hits = int(rest[0])
    return times, np.array(positions), hits


def write_scene(path: Path, tiles: int, actors: int, seed: int, warmup: int, frames: int) -> None:
    tile_boxes, actor_boxes, velocities = platformer_level(tiles, actors, seed)
    lines = [f"scene platformer {warmup} {frames}"]
    lines += ["tile " + " ".join(repr(v) for v in row) for row in tile_boxes.tolist()]
    for box, vel in zip(actor_boxes.tolist(), velocities.tolist(), strict=True):
        lines.append("actor " + " ".join(repr(v) for v in [*box, *vel]))
    path.write_text("\n".join(lines) + "\n")


def write_bullets_scene(
    path: Path, tiles: int, actors: int, bullets: int, seed: int, warmup: int, frames: int
) -> None:
    tile_boxes, actor_boxes, bullet_boxes, velocities, bounds = bullets_level(
        tiles, actors, bullets, seed
    )
    lines = [f"scene bullets {warmup} {frames}", "bounds " + " ".join(repr(v) for v in bounds)]
    lines += ["tile " + " ".join(repr(v) for v in row) for row in tile_boxes.tolist()]
    lines += [
        "actor " + " ".join(repr(v) for v in [*row, 0.0, 0.0]) for row in actor_boxes.tolist()
    ]
    for box, vel in zip(bullet_boxes.tolist(), velocities.tolist(), strict=True):
        lines.append("bullet " + " ".join(repr(v) for v in [*box, *vel]))
    path.write_text("\n".join(lines) + "\n")


def median_ms(times: list[float]) -> float:
    return statistics.median(times) * 1e3


BUMP_MOVE_US: dict[str, float] = {}
"""bump.lua's time a move in the platformer (its frame over its actors), by Lua, from
this run: what a single ``World.move`` is compared with."""


def platformer(tiles: int, actors: int, seed: int, warmup: int, frames: int, bump_dir: Path) -> str:
    ours: dict[str, tuple[float, np.ndarray, str]] = {}
    for label, how in (("collide2d World.move, one by one", "one"),
                       ("collide2d World.move_all", "all"),
                       ("collide2d World.move_all, group filter", "all groups"),
                       ("collide2d World.move_arrays, group filter", "arrays")):  # fmt: skip
        world, names, velocities = build(tiles, actors, seed)
        if how == "arrays":
            array_frames(world, names, velocities, warmup)
            times, move_times = array_frames(world, names, velocities, frames)
        else:
            use = world.group_filter if how == "all groups" else tiles_only
            python_frames(world, names, velocities, warmup, how != "one", use)
            times, move_times = python_frames(world, names, velocities, frames, how != "one", use)
        final = np.array([world.shape(n)[:2] for n in names])
        ours[label] = (median_ms(times), final, "")
        ours[label + ": the moves alone"] = (median_ms(move_times), final, "")
    with tempfile.TemporaryDirectory() as folder:
        scene = Path(folder) / "platformer.txt"
        write_scene(scene, tiles, actors, seed, warmup, frames)
        bumps = {lua: run_bump(lua, bump_dir, scene) for lua in ("luajit", "lua5.1")}
    for lua, result in bumps.items():
        if not isinstance(result, str):
            BUMP_MOVE_US[lua] = median_ms(result[0]) / actors * 1e3
    return report("platformer", ours, bumps, actors, "bench_world",
                  f"Platformer: {actors:,} actors, {tiles:,} tiles")  # fmt: skip


def bullets(
    tiles: int, actors: int, count: int, seed: int, warmup: int, frames: int, bump_dir: Path
) -> str:
    _, _, _, _, bounds = bullets_level(tiles, actors, count, seed)
    ours: dict[str, tuple[float, np.ndarray, str]] = {}
    for label, how in (("collide2d World.move, one by one", "one"),
                       ("collide2d World.move_all", "all"),
                       ("collide2d World.move_arrays, group filter", "arrays")):  # fmt: skip
        world, names, velocities = build_bullets(tiles, actors, count, seed)
        _, _, early = bullet_frames(world, names, velocities, bounds, warmup, how)
        times, move_times, hits = bullet_frames(world, names, velocities, bounds, frames, how)
        final = np.array([world.shape(n)[:2] for n in names])
        ours[label] = (median_ms(times), final, f"{early + hits} hits")
        ours[label + ": the moves alone"] = (median_ms(move_times), final, f"{early + hits} hits")
    with tempfile.TemporaryDirectory() as folder:
        scene = Path(folder) / "bullets.txt"
        write_bullets_scene(scene, tiles, actors, count, seed, warmup, frames)
        bumps = {lua: run_bump(lua, bump_dir, scene) for lua in ("luajit", "lua5.1")}
    return report("bullets", ours, bumps, count, "bench_world_bullets",
                  f"Bullets: {count:,} moved a frame")  # fmt: skip


def report(
    scene: str,
    ours: dict[str, tuple[float, np.ndarray, str]],
    bumps: dict[str, tuple[list[float], np.ndarray, int] | str],
    movers: int,
    chart_name: str,
    chart_title: str,
) -> str:
    """The table of a scene (ours and bump's, ratios to bump under LuaJIT, how many
    final positions agree with bump's within 1e-6) and its chart."""
    rows = []
    luajit = bumps["luajit"]
    for label, (ms, final, note) in ours.items():
        same, ratio = "", "-"
        if not isinstance(luajit, str):
            close = np.isclose(final, luajit[1], rtol=0, atol=1e-6).all(axis=1)
            same = f"{int(close.sum())} of {movers} where bump's are"
            ratio = f"{median_ms(luajit[0]) / ms:.2f}x"
        rows.append([label, f"{ms:.2f}", f"{ms / movers * 1e3:.2f}", ratio,
                     ", ".join(v for v in (same, note) if v)])  # fmt: skip
    for lua, result in bumps.items():
        if isinstance(result, str):
            rows.append([f"bump.lua under {lua}", "-", "-", "-", result])
            continue
        ms = median_ms(result[0])
        ratio = "-" if isinstance(luajit, str) else f"{median_ms(luajit[0]) / ms:.2f}x"
        note = f"{result[2]} hits" if scene == "bullets" else ""
        rows.append([f"bump.lua under {lua}", f"{ms:.2f}", f"{ms / movers * 1e3:.2f}", ratio, note])
    header = [scene, "ms a frame", "us a move", "speed vs bump (LuaJIT)", "final positions"]
    timed = [row for row in rows if row[1] != "-"]
    chart = bar_chart(
        chart_name, chart_title, [row[0] for row in timed], [float(row[1]) for row in timed],
        "milliseconds a frame", [row[0].startswith("collide2d") for row in timed],
    )  # fmt: skip
    return table(header, rows) + "\n" + chart


def single_moves(tiles: int, actors: int, seed: int, bump_dir: Path, rounds: int = 61) -> str:
    """Single ``World.move`` calls in the platformer, timed one by one (every actor in
    turn, the median), against bump.lua's time a move (its frame over its actors)
    under LuaJIT, run in this process by ``lupa``: three frames of bump's (their
    median: LuaJIT collects its garbage every other frame), then a round of ours,
    ``rounds`` times, so that both see the same swings of this machine's speed
    (twofold within a minute). The figure is the ratio of the two medians over the
    rounds; the rounds' own ratios are shown as a range."""
    world, names, velocities = build(tiles, actors, seed)
    python_frames(world, names, velocities, 10, False)  # a settled scene
    bump_frame = None
    ours, theirs, ratios = [], [], []
    with tempfile.TemporaryDirectory() as folder:
        scene = Path(folder) / "platformer.txt"
        write_scene(scene, tiles, actors, seed, 10, 0)
        if lupa_lua.available("luajit") and (bump_dir / "bump.lua").exists():
            bump_frame = lupa_lua.frame("luajit", str(HERE / "bump_driver.lua"), str(bump_dir),
                                        str(scene))  # fmt: skip
            for _ in range(10):
                bump_frame()
    for _ in range(rounds):
        if bump_frame is not None:  # three frames: LuaJIT collects every other one
            frames = []
            for _ in range(3):
                start = time.perf_counter()
                bump_frame()
                frames.append((time.perf_counter() - start) / actors * 1e6)
            theirs.append(statistics.median(frames))
        samples = []
        for name in names:
            x, y = world.shape(name)[:2]
            start = time.perf_counter()
            world.move(name, (x + 2.0, y + 1.0), tiles_only)
            samples.append(time.perf_counter() - start)
        ours.append(statistics.median(samples) * 1e6)
        if theirs:
            ratios.append(ours[-1] / theirs[-1])
    us = statistics.median(ours)
    rows = [["collide2d World.move, platformer actor", f"{us:.1f}", "-", "<= 1.5x bump"]]
    if ratios:
        rows.append([f"bump.lua under LuaJIT (lupa), a move of its frame, in turn ({rounds} rounds)",
                     f"{statistics.median(theirs):.1f}",
                     f"{us / statistics.median(theirs):.2f}x (rounds {min(ratios):.2f}-"
                     f"{max(ratios):.2f}x)",
                     ""])  # fmt: skip
    for lua, bump_us in BUMP_MOVE_US.items():
        rows.append([f"bump.lua under {lua}, a move of its frame (the platformer's run)",
                     f"{bump_us:.1f}", f"{us / bump_us:.2f}x", ""])  # fmt: skip
    return table(["single move", "median us", "collide2d's time over this", "target"], rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tiles", type=int, default=10_000)
    parser.add_argument("--actors", type=int, default=1_000)
    parser.add_argument("--warmup", type=int, default=10)
    parser.add_argument("--frames", type=int, default=30)
    parser.add_argument("--bullets", type=int, default=5_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--bump", type=Path, default=Path(os.environ.get("BUMP_LUA_DIR", DEFAULT_BUMP))
    )
    parser.add_argument("--single", action="store_true",
                        help="only the single moves against bump.lua under LuaJIT")  # fmt: skip
    args = parser.parse_args()
    if args.single:
        print(single_moves(args.tiles, args.actors, args.seed, args.bump))
        return
    print(f"# bench_world: {platform.python_implementation()} {platform.python_version()}, "
          f"{platform.machine()}, {os.cpu_count()} cores\n")  # fmt: skip
    print(platformer(args.tiles, args.actors, args.seed, args.warmup, args.frames, args.bump))
    print()
    print(bullets(args.tiles, args.actors, args.bullets, args.seed, args.warmup, args.frames,
                  args.bump))  # fmt: skip
    print()
    print(single_moves(args.tiles, args.actors, args.seed, args.bump))
    sys.stdout.flush()


if __name__ == "__main__":
    main()
