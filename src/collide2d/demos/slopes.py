"""The ``platformer`` demo's second level: ramps of several pieces, a plateau, a
pixel-mask hill, a bar that turns between frames, walls at the edges.

The player moves with :func:`collide2d.walk` (``World.move`` snapped to the ground
down slopes, stepping up the hill's pixel steps); the ramps are polygons placed in
the World, and their seams are no walls. With S (``World.step``) the player walks on
the step's slides instead, the ball a circle among the polygons.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pygame

from collide2d import Circle, Mask, PlacedMask, PlacedPolygon, Polygon, Rect, Vec2, World, walk
from collide2d.world import Collision
from collide2d.world.walking import on_ground

TILE = 16.0
RAMP_COLOUR = (120, 140, 190)
BAR_COLOUR = (200, 150, 90)
SEAM_COLOUR = (60, 70, 100)
SPIN = 0.45
"""The bar's turn, radians a second."""
SNAP = 6.0
"""How far below the player the ground is looked for going down (the ramps fall
1.25 px a frame under a walk)."""
STEP_UP = 4.0
"""The highest step the player climbs without jumping (the hill's pixel steps)."""


def gentle_hill(width: int, height: int) -> Mask:
    """A smooth bump, its slope at most ``pi * height / width`` (pixel steps of a
    pixel or so, which the player steps up)."""
    x = np.arange(width)
    top = height - height * 0.5 * (1.0 - np.cos(2.0 * np.pi * (x + 0.5) / width))
    y = np.arange(height)[:, None]
    return Mask.from_array(y >= top[None, :])


def ramp_pieces(
    x0: float, y0: float, x1: float, y1: float, pieces: int, base: float
) -> list[Polygon]:
    """The ramp from ``(x0, y0)`` to ``(x1, y1)`` down to ``y = base``, cut into
    ``pieces`` coplanar polygons (a triangle where the ramp meets the base)."""
    out = []
    for k in range(pieces):
        ax = x0 + (x1 - x0) * k / pieces
        bx = x0 + (x1 - x0) * (k + 1) / pieces
        ay = y0 + (y1 - y0) * k / pieces
        by = y0 + (y1 - y0) * (k + 1) / pieces
        points = [(ax, ay), (bx, by), (bx, base), (ax, base)]
        out.append(Polygon(list(dict.fromkeys(points))))
    return out


class SlopesLevel:
    """The level's items and their per-frame logic (the demo owns the World)."""

    def __init__(self, world: World, kinds: dict[Any, str], size: tuple[int, int]) -> None:
        self.world = world
        self.kinds = kinds
        w, h = size
        floor_y = h - 96.0
        self.floor_y = floor_y
        for i in range(int(w // TILE)):
            self._add(("tile", i), Rect(i * TILE, floor_y, TILE, TILE), "tile")
        for side, x in (("left", 0.0), ("right", w - TILE)):  # walls at the edges
            self._add(("edge", side), Rect(x, 0.0, TILE, floor_y), "tile")
        up = ramp_pieces(120.0, floor_y, 312.0, floor_y - 96.0, 3, floor_y)
        down = ramp_pieces(408.0, floor_y - 96.0, 600.0, floor_y, 3, floor_y)
        for k, piece in enumerate(up[:-1] + down[1:]):
            self._add(("ramp", k), piece, "ramp")
        # the plateau and the top piece of each ramp are one polygon (a trapezoid):
        # a box walking up the ramp rides over its top corner. As two pieces, the
        # box's corner met the plateau's a hair early or late in floats (its place on
        # the slope rounded), and the plateau's side was a wall to ``World.step``.
        top = floor_y - 96.0
        shoulder = floor_y - 64.0
        plateau = Polygon([(248.0, shoulder), (312.0, top), (408.0, top), (472.0, shoulder),
                           (472.0, floor_y), (248.0, floor_y)])  # fmt: skip
        self._add("plateau", plateau, "ramp")
        self.hill = PlacedMask(gentle_hill(240, 60), 640.0, floor_y - 60.0)
        self._add("hill", self.hill, "hill")
        self.bar = PlacedPolygon.box(360.0, floor_y - 196.0, 130.0, 10.0)
        self.angle = 0.0
        self._add("bar", self.bar, "bar")
        for k, (x, height) in enumerate(((200.0, 62.0), (500.0, 62.0), (760.0, 80.0))):
            self._add(("coin", k), Rect(x, floor_y - height, 10.0, 10.0), "coin")  # on the way
        self._add(("ball", 0), Circle(480.0, 120.0, 9.0), "ball")
        self._add("player", Rect(40.0, floor_y - 60.0, 14.0, 24.0), "player")

    def _add(self, item: Any, shape: Any, kind: str) -> None:
        self.world.add(item, shape, mass=1.0 if kind in ("player", "ball") else math.inf)
        self.kinds[item] = kind

    def turn_bar(self, dt: float) -> None:
        """Turn the bar about its centre (a new polygon each frame: ``update``)."""
        self.angle += SPIN * dt
        self.world.update("bar", self.bar.turned(self.angle))  # the first, by the angle so far

    def move_player(
        self, goal: tuple[float, float], filter: Any
    ) -> tuple[Vec2, list[Collision], bool]:
        """The player's move: a walk, snapped to the ground, stepping up pixel steps."""
        moved = walk(self.world, "player", goal, filter, snap=SNAP, step=STEP_UP)
        return moved.position, moved.collisions, on_ground(moved)

    def draw(self, surface: pygame.Surface, item: Any, shape: Any) -> bool:
        """Draw ``item`` if it is one of this level's polygons; whether it was."""
        if not isinstance(shape, PlacedPolygon):
            return False
        colour = BAR_COLOUR if self.kinds[item] == "bar" else RAMP_COLOUR
        points = [tuple(v) for v in shape.vertices]
        pygame.draw.polygon(surface, colour, points)
        pygame.draw.polygon(surface, SEAM_COLOUR, points, 1)  # the pieces' seams show
        return True
