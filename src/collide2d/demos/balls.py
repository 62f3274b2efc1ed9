"""The ``balls`` demo: bouncing balls, and the checks a broadphase saves.

The classic quadtree demonstration, with its count of the checks saved against
brute force (about 289 times fewer with 166 balls): hold the mouse button to add
balls; colliding balls turn red; B switches the broadphase, C shows its cells.
"""

from __future__ import annotations

import numpy as np
import pygame

from collide2d import Circle, Rect
from collide2d.broadphase.protocol import Key
from collide2d.demos._app import SIZE, Demo, Input
from collide2d.demos._broadphase_view import HIT, IDLE, BroadphaseView
from collide2d.scenes import moving_bodies

START_BALLS = 166


class BallsDemo(Demo):
    """Balls bouncing in the window, tested for overlap through a broadphase."""

    name = "balls"
    title = "balls: a quadtree (or grid, or sort and sweep) against brute force"
    help = ("hold the mouse button: add balls   B: switch broadphase   C: cells   R: reset",)

    def __init__(self, size: tuple[int, int] = SIZE) -> None:
        super().__init__(size)
        self.arena = Rect(0, 0, float(size[0]), float(size[1]))
        self.view = BroadphaseView("quadtree", self.arena)
        self.rng = np.random.default_rng(7)
        self._reset()
        self.mouse: tuple[int, int] | None = None

    def _reset(self) -> None:
        w, h = self.size
        self.pos, self.vel, sizes = moving_bodies(START_BALLS, w, h, seed=7, speed=90.0, size=8.0)
        self.radius = sizes
        self.view = BroadphaseView(self.view.kind, self.arena)
        self.hits: set[Key] = set()
        self.view.step(self.shapes())

    def shapes(self) -> list[tuple[int, Circle]]:
        """The balls (fewer for brute force) as keyed circles."""
        n = self.view.cap(len(self.pos))
        rows = np.column_stack([self.pos[:n], self.radius[:n]]).tolist()
        new = tuple.__new__  # finite, radii positive: Circle's own checks would pass
        return list(enumerate(new(Circle, row) for row in rows))

    def add_ball(self, x: float, y: float) -> None:
        """Add a ball at ``(x, y)`` with a random velocity."""
        angle = self.rng.uniform(0, 2 * np.pi)
        speed = self.rng.uniform(30, 90)
        self.pos = np.vstack([self.pos, [x, y]])
        self.vel = np.vstack([self.vel, [np.cos(angle) * speed, np.sin(angle) * speed]])
        self.radius = np.append(self.radius, self.rng.uniform(4, 12))

    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN:
            if event.key == pygame.K_r:
                self._reset()
            else:
                self.view.handle_key(event.key, self.shapes())
        elif event.type == pygame.MOUSEBUTTONDOWN or (
            event.type == pygame.MOUSEMOTION and self.mouse is not None
        ):
            self.mouse = event.pos
        elif event.type == pygame.MOUSEBUTTONUP:
            self.mouse = None

    def update(self, dt: float, keys: Input) -> None:
        if self.mouse is not None:
            self.add_ball(*self.mouse)
        self.pos += self.vel * dt
        w, h = self.size
        r = self.radius
        for axis, limit in ((0, w), (1, h)):
            low = self.pos[:, axis] < r
            high = self.pos[:, axis] > limit - r
            self.vel[low | high, axis] *= -1
            self.pos[:, axis] = np.clip(self.pos[:, axis], r, limit - r)
        self.hits = self.view.step(self.shapes())

    def draw(self, surface: pygame.Surface) -> None:
        self.view.draw_cells(surface)
        hits = self.hits
        circle = pygame.draw.circle
        n = self.view.cap(len(self.pos))
        for k, (x, y, r) in enumerate(np.column_stack([self.pos[:n], self.radius[:n]]).tolist()):
            circle(surface, HIT if k in hits else IDLE, (x, y), r)

    def hud(self) -> list[str]:
        return self.view.hud()

    def script(self, frame: int) -> tuple[list[pygame.event.Event], Input]:
        # Hold the mouse for a few frames in the middle, adding balls, then let go.
        events = []
        if frame == 10:
            events.append(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(480, 320), button=1))
        if frame == 40:
            events.append(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=(480, 320), button=1))
        return events, Input()
