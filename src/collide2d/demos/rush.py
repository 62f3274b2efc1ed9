"""The ``rush`` demo: rectangles and circles all moving at once, fast, through a
corridor of walls 2 px thick, moved by ``World.step``.

Bodies travel up to 40 px a frame (twenty times a wall's thickness), bounce off the
walls and each other and never pass through: every contact flashes where it
happened, and the HUD counts bodies found outside the corridor (always 0). Bodies
leaving at the right come back at the left. Space pauses; R starts again.
"""

from __future__ import annotations

import math

import numpy as np
import pygame

from collide2d import Circle, Rect, World, overlaps
from collide2d.demos._app import SIZE, Demo, Input

BODIES = 160
WALL = (150, 156, 180)
BOX = (110, 170, 240)
BALL = (120, 220, 150)
FLASH = (255, 230, 120)
THICK = 2.0
TOP, BOTTOM = 76.0, 588.0
"""The corridor: between the HUD's three lines of text and the help's two."""
FLASH_FRAMES = 12


class RushDemo(Demo):
    """Fast rectangles and circles through thin baffles, none passing through."""

    name = "rush"
    title = "rush: everything moves at once, fast, through walls 2 px thick (World.step)"
    warms = ("World.step",)
    help = ("space: pause   R: reset",)

    def __init__(self, size: tuple[int, int] = SIZE) -> None:
        super().__init__(size)
        self.paused = False
        self._reset()

    def _reset(self) -> None:
        width = float(self.size[0])
        world = World()
        world.set_response("body", "wall", "bounce")
        world.set_response("body", "body", "bounce", restitution=0.9)
        world.add(
            "top", Rect(-100.0, TOP - THICK, width + 200.0, THICK), mass=math.inf, group="wall"
        )
        world.add("bottom", Rect(-100.0, BOTTOM, width + 200.0, THICK), mass=math.inf, group="wall")
        # Baffles: thin walls from the top or the bottom, leaving a gap.
        self.walls: list[object] = ["top", "bottom"]
        for k, left in enumerate(range(200, int(width) - 100, 130)):
            top, h = (TOP, 330.0) if k % 2 == 0 else (BOTTOM - 330.0, 330.0)
            world.add(("baffle", k), Rect(float(left), top, THICK, h), mass=math.inf, group="wall")
            self.walls.append(("baffle", k))
        rng = np.random.default_rng(11)
        self.bodies = []
        for k in range(BODIES):
            x, y = 8.0 + (k % 8) * 22.0, TOP + 10.0 + (k // 8) * 25.0
            speed, angle = rng.uniform(8.0, 40.0), rng.uniform(-0.9, 0.9)
            velocity = (speed * math.cos(angle), speed * math.sin(angle))
            shape: Rect | Circle = Rect(x, y, 12.0, 8.0) if k % 2 else Circle(x + 7.0, y + 7.0, 6.0)
            world.add(k, shape, velocity=velocity, group="body")
            self.bodies.append(k)
        self.world = world
        self.flashes: list[tuple[float, float, int]] = []
        self.contacts = 0
        self.escaped = 0

    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN and event.key == pygame.K_SPACE:
            self.paused = not self.paused
        elif event.type == pygame.KEYDOWN and event.key == pygame.K_r:
            self._reset()

    def outside(self) -> int:
        """Bodies found outside the corridor or inside a wall (none, ever)."""
        count = 0
        walls = [self.world.shape(w) for w in self.walls]
        for k in self.bodies:
            shape = self.world.shape(k)
            _, y0, _, y1 = _box(shape)
            if y0 < TOP or y1 > BOTTOM or any(overlaps(shape, wall) for wall in walls):
                count += 1
        return count

    def update(self, dt: float, keys: Input) -> None:
        if self.paused:
            return
        result = self.world.step(1.0)
        self.contacts = len(result.contacts)
        self.flashes = [(x, y, age - 1) for x, y, age in self.flashes if age > 1]
        self.flashes += [(c.point.x, c.point.y, FLASH_FRAMES) for c in result.contacts]
        width = float(self.size[0])
        for k in self.bodies:
            shape = self.world.shape(k)
            left, _, right, _ = _box(shape)
            if left > width + 40.0 or right < -40.0:  # wrap round, to the other end
                shift = -(width + 60.0) if left > width else width + 60.0
                moved = _shifted(shape, shift)
                self.world.update(k, moved)
        self.escaped = max(self.escaped, self.outside())

    def draw(self, surface: pygame.Surface) -> None:
        for wall in self.walls:
            x, y, w, h = self.world.shape(wall)  # type: ignore[misc]
            pygame.draw.rect(surface, WALL, (x, y, max(w, 1.0), max(h, 1.0)))
        for k in self.bodies:
            shape = self.world.shape(k)
            if type(shape) is Circle:
                pygame.draw.circle(surface, BALL, (shape.x, shape.y), shape.r)
            else:
                pygame.draw.rect(surface, BOX, tuple(shape))  # type: ignore[arg-type]
        for x, y, age in self.flashes:
            pygame.draw.circle(surface, FLASH, (x, y), 2 + age // 2, 1)

    def hud(self) -> list[str]:
        return [
            f"{BODIES} bodies at up to 40 px a frame, walls {THICK:.0f} px thick",
            f"contacts this frame {self.contacts}, bodies ever found outside: {self.escaped}"
            + ("   PAUSED (Space)" if self.paused else ""),
        ]


def _box(shape: object) -> tuple[float, float, float, float]:
    if isinstance(shape, Circle):
        return shape.x - shape.r, shape.y - shape.r, shape.x + shape.r, shape.y + shape.r
    assert isinstance(shape, Rect)
    return shape.x, shape.y, shape.x + shape.w, shape.y + shape.h


def _shifted(shape: object, dx: float) -> Rect | Circle:
    if isinstance(shape, Circle):
        return Circle(shape.x + dx, shape.y, shape.r)
    assert isinstance(shape, Rect)
    return Rect(shape.x + dx, shape.y, shape.w, shape.h)
