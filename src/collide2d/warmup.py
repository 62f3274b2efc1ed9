"""``collide2d warmup``: compile every kernel ahead, so no later first call waits.

numba compiles each kernel the first time it is called on a machine and caches the
result on disk; after that a process only loads it. This module makes those first
calls on small inputs of the same types as real ones, one area at a time, and
reports how long each took (and, when they were compiled rather than loaded, which
kernels took the time).

>>> [name for name, _ in TASKS][:2]
['batch pairs of boxes', 'batch pairs of circles']
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from typing import TextIO

import numpy as np


def _box_pairs() -> None:
    from collide2d import overlapping_pairs, query_pairs, query_points

    boxes = np.array([[0.0, 0.0, 2.0, 2.0], [1.0, 1.0, 2.0, 2.0], [9.0, 0.0, 1.0, 50.0]])
    for method in ("strips", "sort_and_sweep", "brute_force"):
        overlapping_pairs(boxes, method=method)
    for method in ("strips", "brute_force"):
        query_pairs(boxes, boxes, method=method)
    query_points(boxes, np.array([[1.5, 1.5]]))


def _circle_pairs() -> None:
    from collide2d import overlapping_circle_pairs

    circles = np.array([[0.0, 0.0, 1.0], [1.5, 0.0, 1.0], [9.0, 0.0, 20.0]])
    for method in ("strips", "sort_and_sweep", "brute_force"):
        overlapping_circle_pairs(circles, method=method)


def _polygons() -> None:
    from collide2d import (
        Polygon,
        Rect,
        overlapping_box_pairs,
        overlapping_polygon_pairs,
        overlaps,
        sweep_box_pairs,
    )
    from collide2d.continuous.polygon_compiled import sweep_compiled

    boxes = np.array(
        [[0.0, 0.0, 2.0, 2.0, 0.3], [1.0, 1.0, 2.0, 2.0, 0.0], [9.0, 0.0, 1.0, 5.0, 1.5]]
    )
    overlapping_box_pairs(boxes)
    triangles = np.array(
        [[[0.0, 0.0], [4.0, 0.0], [0.0, 4.0]], [[1.0, 1.0], [5.0, 1.0], [1.0, 5.0]]]
    )
    overlapping_polygon_pairs(triangles, np.array([3, 3]))
    crate = Polygon.box(0.0, 0.0, 2.0, 2.0, 0.3)
    overlaps(crate, Polygon.box(1.0, 0.0, 2.0, 2.0, 0.0))
    overlaps(crate, Rect(1.0, 0.0, 2.0, 2.0))
    # the scalar sweep's kernel (the front waits COMPILE_AFTER sweeps before it)
    sweep_compiled(crate, (6.0, 0.0), Polygon.box(5.0, 0.0, 2.0, 2.0, 0.1), (0.0, 0.0))
    sweep_box_pairs(boxes, np.array([[3.0, 0.0], [0.0, 0.0], [-2.0, 0.0]]))


def _broadphases() -> None:
    from collide2d import Circle, Rect
    from collide2d.broadphase import Quadtree, SortAndSweep, SortedStrips, UniformGrid

    for index in (SortedStrips(), SortAndSweep(), UniformGrid(4), Quadtree(capacity=2)):
        for k in range(40):  # enough to split, to fill cells, to move many at once
            index.add(k, Rect(k % 8, k // 8, 2, 2) if k % 3 else Circle(k % 8, k // 8, 1))
        index.pairs()
        index.update_rects(range(0, 40, 2), [[k % 7, k // 7, 2, 2] for k in range(20)])
        index.pairs()
        index.query_rect(Rect(0, 0, 3, 3))
        index.update(1, Rect(0.5, 0, 2, 2))  # one moved: the kept structure's way
        index.pairs()
        index.query_rect(Rect(0, 0, 3, 3))


def _masks() -> None:
    from collide2d import Circle, Mask, PlacedMask, Rect, sweep

    yy, xx = np.mgrid[0:40, 0:40]
    disc = Mask.from_array((xx - 20) ** 2 + (yy - 20) ** 2 < 300)
    other = Mask.from_array((xx - 10) ** 2 + (yy - 30) ** 2 < 200)
    for offset in ((5, 3), (5.5, 3.25)):
        disc.overlaps(other, offset)
        disc.overlap(other, offset)
        disc.overlap_area(other, offset)
        disc.overlap_mask(other, offset)
        disc.overlaps(other, offset, max_level=2, other_max_level=2)
        disc.overlap_pairs(other, offset)
    disc.overlaps_rect(Rect(3, 3, 5, 5))
    disc.overlaps_circle(Circle(20, 20, 4))
    ground = PlacedMask(disc, 0, 0)
    sweep(PlacedMask(other, -60, 0), (80, 0), ground)
    sweep(Rect(-20, 18, 4, 4), (80, 0), ground)
    sweep(Circle(-20, 20, 2), (80, 0), ground)
    disc.connected_components()
    disc.connected_component()
    disc.get_bounding_rects()
    disc.outline()
    disc.convolve(other)
    disc.centroid()
    disc.scale((60, 30))


def _world_moves() -> None:
    from collide2d import PlacedPolygon, Polygon, Rect, World

    world = World()
    for k in range(8):
        world.add(("tile", k), Rect(16.0 * k, 32.0, 16.0, 16.0))
    world.add("actor", Rect(4.0, 0.0, 12.0, 20.0))
    world.move_all({"actor": (20.0, 30.0)})
    # among polygons: the same kernel compiled with its polygon code
    slope = Polygon([(128.0, 36.0), (144.0, 32.0), (144.0, 48.0), (128.0, 48.0)])
    world.add("slope", PlacedPolygon(slope, 0.0, 0.0))
    world.move_all({"actor": (140.0, 10.0)})


def _single_moves() -> None:
    from collide2d import World
    from collide2d.world.listed_move import load_kernels

    load_kernels(World)


def _world_step() -> None:
    import math

    from collide2d import Circle, Mask, PlacedMask, Rect, World

    world = World()
    world.add("a", Circle(0.0, 0.0, 1.0), velocity=(5.0, 0.0))
    world.add("b", Circle(4.0, 0.0, 1.0), velocity=(-5.0, 0.0))
    world.add("c", Rect(0.0, 5.0, 2.0, 2.0), velocity=(0.0, -4.0))
    world.add("wall", Rect(10.0, -10.0, 2.0, 30.0), mass=math.inf)
    world.add("ground", PlacedMask(Mask((16, 4), True), -8.0, 9.0), mass=math.inf)
    world.set_response("default", "default", "bounce")
    world.step(1.0)
    # Shots that cross or ignore every moving group, one touching a wall at time 0:
    # the touches a step resolves before its event loop (``step_start``), a path of
    # kernels of its own.
    shots = World()
    shots.set_response("shot", "wall", "touch")
    shots.set_response("shot", "shot", "ignore")
    shots.add("wall", Rect(3.0, -5.0, 1.0, 10.0), mass=math.inf, group="wall")
    shots.add("pressed", Circle(2.0, 0.0, 1.0), velocity=(5.0, 0.0), group="shot")
    shots.add("flying", Circle(0.0, 2.0, 1.0), velocity=(5.0, 0.0), group="shot")
    shots.step(1.0)


def _world_step_polygons() -> None:
    import math

    from collide2d import Circle, Mask, PlacedMask, PlacedPolygon, Polygon, Rect, World

    # a world with polygons steps with kernels of its own (``step.step_polygons``, a
    # circle among them ``step.step_circle_polygon``)
    world = World()
    ramp = Polygon([(0.0, 10.0), (20.0, 0.0), (20.0, 10.0)])
    world.add("ramp", PlacedPolygon(ramp, 0.0, 0.0), mass=math.inf)
    world.add("ground", PlacedMask(Mask((32, 4), True), -8.0, 10.0), mass=math.inf)
    world.add("box", Rect(2.0, 0.0, 2.0, 2.0), velocity=(0.0, 10.0))
    world.add("crate", PlacedPolygon.box(12.0, -6.0, 3.0, 2.0, 0.4), velocity=(-3.0, 9.0))
    world.add("ball", Circle(8.0, 0.0, 1.0), velocity=(0.0, 10.0))
    world.set_response("default", "default", "bounce")
    world.step(1.0)


TASKS: list[tuple[str, Callable[[], None]]] = [
    ("batch pairs of boxes", _box_pairs),
    ("batch pairs of circles", _circle_pairs),
    ("batch pairs of polygons", _polygons),
    ("broadphases over arrays", _broadphases),
    ("masks", _masks),
    ("World.move_all", _world_moves),
    ("World.move", _single_moves),
    ("World.step", _world_step),
    ("World.step among polygons", _world_step_polygons),
]
"""What ``collide2d warmup`` runs, in order: ``(name, function)``."""


BACKGROUND_TASKS = ("World.step", "World.step among polygons")
"""Tasks ``warmup`` runs in a process of its own while it runs the others (on a
machine of more than one core): ``World.step``'s kernels, for worlds without
polygons and with them, are more than half of the whole compile."""


def warmup(out: TextIO | None = None, kernels: bool = False) -> float:
    """Run every task of :data:`TASKS`, printing a progress line each to ``out``
    (standard output by default); with ``kernels``, then list each kernel compiled
    and its seconds. Returns the total seconds (wall time).

    On a machine of more than one core (and without ``kernels``, which lists what
    this process compiled), the tasks of :data:`BACKGROUND_TASKS` compile in a
    :class:`Background` process meanwhile, and are then loaded here from the cache.
    """
    from collide2d._kernels.jit import COMPILED

    out = out or sys.stdout
    began = time.perf_counter()
    first = len(COMPILED)
    aside = None
    if not kernels and (os.cpu_count() or 1) > 1:
        aside = Background(list(BACKGROUND_TASKS))
    try:
        for k, (name, task) in enumerate(TASKS, 1):
            print(f"[{k}/{len(TASKS)}] {name} ...", end=" ", file=out, flush=True)
            start = time.perf_counter()
            waited = False
            if aside is not None and name in aside.names:
                aside.wait([name])  # (compiled meanwhile in the other process)
                waited = True
            before = len(COMPILED)
            task()
            seconds = time.perf_counter() - start
            fresh = len(COMPILED) - before
            state = f"compiled {fresh} kernels" if fresh else "loaded from the cache"
            if waited and not fresh:
                state += "; run in a background process meanwhile"
            print(f"{seconds:.1f} s ({state})", file=out, flush=True)
    finally:
        if aside is not None:
            aside.stop()
    total = time.perf_counter() - began
    print(f"done in {total:.1f} s; later calls load the compiled kernels", file=out)
    if kernels and len(COMPILED) > first:
        print("\nkernel compile times (each includes the helpers compiled for it):", file=out)
        for name, seconds in sorted(COMPILED[first:], key=lambda row: -row[1]):
            print(f"  {seconds:6.2f} s  {name}", file=out)
    return total


class Background:
    """Tasks of :data:`TASKS` run in a process of their own: their kernels are compiled
    into numba's cache (or only loaded, when they are there already) while this
    process does something else. The demo showcase starts one for the demos after
    the first, so that ``World.step``'s kernels compile while the first demos run.

    The process names each task on its standard output when it is done; a task the
    process will not finish (it failed, or was stopped) is no longer pending, and
    whoever needs its kernels then compiles them itself.

    Parameters
    ----------
    names : sequence of str
        Names of :data:`TASKS`, run in this order (each once).

    Raises
    ------
    ValueError
        If a name is not a task's.
    """

    def __init__(self, names: Sequence[str]) -> None:
        known = dict(TASKS)
        unknown = [name for name in names if name not in known]
        if unknown:
            raise ValueError(f"unknown warmup task {unknown[0]!r}; choose from {list(known)}")
        self.names = list(dict.fromkeys(names))
        self._done: set[str] = set()
        self._process = subprocess.Popen(
            [sys.executable, "-m", "collide2d.warmup", *self.names],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )
        self._reader = threading.Thread(target=self._read, name="collide2d-warmup", daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self._process.stdout is not None
        for line in self._process.stdout:
            self._done.add(line.strip())
        self._process.wait()

    def pending(self, names: Iterable[str]) -> bool:
        """Whether a task of ``names`` is still being run in the background."""
        waiting = [name for name in names if name in self.names and name not in self._done]
        return bool(waiting) and self._reader.is_alive()

    def wait(self, names: Iterable[str], poll: float = 0.05) -> None:
        """Return when no task of ``names`` is pending."""
        names = list(names)
        while self.pending(names):
            time.sleep(poll)

    def stop(self) -> None:
        """Stop the process if it still runs (what it compiled so far stays cached)."""
        if self._process.poll() is None:
            self._process.terminate()
        self._process.wait()
        self._reader.join()


def _run_named(names: Sequence[str]) -> None:
    """Run the named tasks, printing each name when it is done (for :class:`Background`)."""
    known = dict(TASKS)
    for name in names:
        known[name]()
        print(name, flush=True)


if __name__ == "__main__":
    _run_named(sys.argv[1:])
