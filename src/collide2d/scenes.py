"""Seeded scene generators shared by the demos, the benchmarks and the tests.

Every generator takes a ``seed`` and returns the same arrays for the same
arguments on every platform (numpy's PCG64 generator).
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import NDArray

SCENES = ("uniform", "clustered", "mixed")
MEAN_SIZE = 10.0
MEAN_OVERLAPS = 3.0
"""Uniform scenes are spread so that a box overlaps about this many others."""


def world_side(n: int) -> float:
    """The side of the square world in which ``n`` boxes of mean size ``MEAN_SIZE``
    overlap about ``MEAN_OVERLAPS`` others each (two boxes of sizes ``a`` and ``b``
    overlap with probability ``(wa + wb) (ha + hb) / side**2``)."""
    return MEAN_SIZE * math.sqrt(4.0 * max(n, 1) / MEAN_OVERLAPS)


def boxes_scene(kind: str, n: int, seed: int = 0) -> NDArray[np.float64]:
    """``n`` boxes as an ``(n, 4)`` array of rows ``x, y, w, h``.

    Parameters
    ----------
    kind : {"uniform", "clustered", "mixed"}
        ``uniform``: spread evenly, each box overlapping about 3 others.
        ``clustered``: 90% of the boxes in 10 gaussian clusters, the rest uniform.
        ``mixed``: uniform, but 1% of the boxes are 50 times larger.
    n : int
        How many boxes.
    seed : int
        The random seed.

    Examples
    --------
    >>> boxes_scene("uniform", 3, seed=1).shape
    (3, 4)
    """
    if kind not in SCENES:
        raise ValueError(f"kind must be one of {', '.join(SCENES)}; got {kind!r}")
    rng = np.random.default_rng(seed)
    side = world_side(n)
    sizes = rng.uniform(0.5, 1.5, size=(n, 2)) * MEAN_SIZE
    if kind == "clustered":
        centres = rng.uniform(0.1 * side, 0.9 * side, size=(10, 2))
        which = rng.integers(0, 10, size=n)
        positions = centres[which] + rng.normal(0.0, side / 30.0, size=(n, 2))
        background = rng.random(n) < 0.1
        positions[background] = rng.uniform(0.0, side, size=(int(background.sum()), 2))
    else:
        positions = rng.uniform(0.0, side, size=(n, 2))
    if kind == "mixed":
        large = rng.random(n) < 0.01
        sizes[large] *= 50.0
    return np.ascontiguousarray(np.hstack([positions, sizes]))


def circles_scene(n: int, seed: int = 0, equal: bool = True) -> NDArray[np.float64]:
    """``n`` circles as an ``(n, 3)`` array of rows ``x, y, r``, spread like ``uniform``.

    With ``equal`` every radius is ``MEAN_SIZE / 2`` (the case ``cKDTree.query_pairs``
    answers); otherwise radii vary by a factor of 3.
    """
    rng = np.random.default_rng(seed)
    side = world_side(n)
    radii = np.full(n, MEAN_SIZE / 2) if equal else rng.uniform(0.25, 0.75, n) * MEAN_SIZE
    return np.ascontiguousarray(np.column_stack([rng.uniform(0.0, side, (n, 2)), radii]))


def moving_bodies(
    n: int, width: float, height: float, seed: int = 0, speed: float = 120.0, size: float = 10.0
) -> tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.float64]]:
    """Positions ``(n, 2)``, velocities ``(n, 2)`` and sizes ``(n,)`` for demos.

    Positions lie inside ``width x height``; speeds up to ``speed`` units per second;
    sizes vary from ``size / 2`` to ``size * 3 / 2``.
    """
    rng = np.random.default_rng(seed)
    positions = rng.uniform((0.0, 0.0), (width, height), size=(n, 2))
    angles = rng.uniform(0.0, 2.0 * math.pi, n)
    speeds = rng.uniform(0.3, 1.0, n) * speed
    velocities = np.column_stack([np.cos(angles), np.sin(angles)]) * speeds[:, None]
    sizes = rng.uniform(0.5, 1.5, n) * size
    return positions, velocities, sizes


TILE = 16.0
"""The side of a platformer tile."""


def platformer_level(
    tiles: int = 10_000, actors: int = 1_000, seed: int = 0
) -> tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.float64]]:
    """A platformer level: ``tiles`` square tiles in rows of platforms with gaps, and
    ``actors`` of 12 x 20 standing above them, each with a walking velocity.

    Returns tile boxes ``(T, 4)`` and actor boxes ``(A, 4)`` (rows ``x, y, w, h``) and
    actor velocities ``(A, 2)`` in units a frame. Shared by the ``platformer`` demo,
    ``benchmarks/bench_world.py`` (which feeds the same level to bump.lua) and tests.

    Examples
    --------
    >>> t, a, v = platformer_level(300, 20, seed=1)
    >>> t.shape, a.shape, v.shape
    ((300, 4), (20, 4), (20, 2))
    """
    rng = np.random.default_rng(seed)
    per_row = 200
    rows = max(1, -(-tiles // per_row))
    boxes: list[tuple[float, float, float, float]] = []
    for row in range(rows):
        y = 96.0 + 80.0 * row
        x = float(rng.integers(0, 8)) * TILE
        while len(boxes) < (row + 1) * per_row and len(boxes) < tiles:
            run = int(rng.integers(4, 30))  # a platform of `run` tiles, then a gap
            for _ in range(run):
                if len(boxes) >= min((row + 1) * per_row, tiles):
                    break
                boxes.append((x, y, TILE, TILE))
                x += TILE
            x += TILE * float(rng.integers(1, 4))
    tile_boxes = np.array(boxes, dtype=np.float64).reshape(-1, 4)
    on = rng.integers(0, tile_boxes.shape[0], size=actors)
    actor_boxes = np.column_stack(
        [
            tile_boxes[on, 0] + rng.uniform(0, 4, actors),
            tile_boxes[on, 1] - 20.0 - rng.uniform(0, 30, actors),
            np.full(actors, 12.0),
            np.full(actors, 20.0),
        ]
    )
    speeds = rng.choice([-2.0, -1.5, 1.5, 2.0], size=actors)
    velocities = np.column_stack([speeds, np.zeros(actors)])
    return tile_boxes, actor_boxes, velocities


def gas_scene(
    n: int, area_fraction: float, seed: int = 0, radius: float = 1.0
) -> tuple[NDArray[np.float64], NDArray[np.float64], float]:
    """A hard-disk gas: ``n`` equal disks of ``radius`` covering ``area_fraction`` of a
    square box, on a square lattice (so none overlap), with random velocities of mean
    square speed 2 (unit temperature, unit mass) and no net momentum.

    Returns centres ``(n, 2)``, velocities ``(n, 2)`` and the side of the box (from
    ``0`` to ``side`` on both axes). Shared by the ``gas`` demo,
    ``benchmarks/bench_step.py`` and the tests.

    Examples
    --------
    >>> centres, velocities, side = gas_scene(100, 0.4, seed=1)
    >>> centres.shape, velocities.shape, round(side, 3)
    ((100, 2), (100, 2), 28.025)
    >>> bool(abs(velocities.sum(axis=0)).max() < 1e-9)
    True
    """
    if not 0.0 < area_fraction < math.pi / 4:
        raise ValueError(f"area_fraction must lie in (0, pi/4), got {area_fraction!r}")
    rng = np.random.default_rng(seed)
    side = math.sqrt(n * math.pi * radius * radius / area_fraction)
    per_row = math.ceil(math.sqrt(n))
    spacing = side / per_row
    index = np.arange(n)
    centres = np.column_stack([index % per_row, index // per_row]) * spacing + spacing / 2.0
    velocities = rng.normal(0.0, 1.0, (n, 2))
    velocities -= velocities.mean(axis=0)
    velocities *= math.sqrt(2.0 * n / float((velocities**2).sum()))
    return np.ascontiguousarray(centres), np.ascontiguousarray(velocities), side
