"""Worlds built from the seeded scenes of :mod:`collide2d.scenes`, shared by the
``gas`` and ``rush`` demos, ``benchmarks/bench_step.py`` and the tests."""

from __future__ import annotations

import math

import numpy as np

from collide2d.geometry.circle import Circle
from collide2d.geometry.rect import Rect
from collide2d.scenes import gas_scene
from collide2d.world.world import World


def gas_world(n: int, area_fraction: float, seed: int = 0, radius: float = 1.0) -> World:
    """A hard-disk gas in a box: items ``0 .. n-1`` are the disks (group ``"disk"``,
    elastic bounces between disks and off the walls), ``"left"``, ``"right"``,
    ``"top"`` and ``"bottom"`` the walls (infinite mass, group ``"wall"``), built from
    :func:`collide2d.scenes.gas_scene`.

    Examples
    --------
    >>> world = gas_world(50, 0.4, seed=3)
    >>> len(world), world.mass("left"), world.velocity(0) == world.velocity(0)
    (54, inf, True)
    >>> result = world.step(1.0)
    >>> all(c.response == "bounce" for c in result.contacts)
    True
    """
    centres, velocities, side = gas_scene(n, area_fraction, seed=seed, radius=radius)
    world = World()
    world.set_response("disk", "disk", "bounce")
    world.set_response("disk", "wall", "bounce")
    for index, ((x, y), velocity) in enumerate(
        zip(centres.tolist(), velocities.tolist(), strict=True)
    ):
        world.add(index, Circle(x, y, radius), velocity=velocity, group="disk")
    thick = max(side, 1.0)
    walls = {
        "left": Rect(-thick, -thick, thick, side + 2 * thick),
        "right": Rect(side, -thick, thick, side + 2 * thick),
        "top": Rect(0.0, -thick, side, thick),
        "bottom": Rect(0.0, side, side, thick),
    }
    for name, wall in walls.items():
        world.add(name, wall, mass=math.inf, group="wall")
    return world


def disk_state(world: World, n: int) -> np.ndarray:
    """Rows ``x, y, vx, vy`` of the items ``0 .. n-1`` (the disks of a gas world)."""
    rows = np.empty((n, 4))
    for index in range(n):
        shape = world.shape(index)
        rows[index, :2] = shape.x, shape.y
        rows[index, 2:] = world.velocity(index)
    return rows
