"""The ``gas`` demo: a hard-disk gas moved by ``World.step``, every disk at once.

Disks bounce elastically off each other and the walls; the histogram of their
speeds, drawn beside the Maxwell-Boltzmann curve ``v exp(-v^2 / 2)`` of a 2D gas at
unit temperature, fills in as the lattice they start on melts. The mouse wheel (or
+ and -) speeds time up or down; P draws the step's grid cells and the contacts
predicted over the next frames; R starts again.
"""

from __future__ import annotations

import math
from collections import deque

import numpy as np
import pygame

from collide2d import overlapping_circle_pairs, sweep
from collide2d.demos._app import SIZE, Demo, Input
from collide2d.world.examples import disk_state, gas_world

DISKS = 1200
RADIUS = 4.0
AREA_FRACTION = 0.35
DISK = (110, 170, 240)
FAST = (250, 200, 90)
WALL = (90, 96, 120)
BAR = (80, 130, 200)
CURVE = (250, 120, 110)
PREDICTED = (240, 240, 120)
CELL = (60, 70, 96)
BINS = 24
TOP_SPEED = 4.0
BOX_LEFT, BOX_TOP = 20, 92
"""The box's corner on the screen: below the HUD's four lines of text."""
HELP_ROOM = 52
"""Room left under the box for the help's two lines."""
RATE_FRAMES = 30
"""The HUD's events a second are those of the last this many frames (the first step of
a fresh install compiles the kernels: counted for ever, it showed 1 k events/s)."""


class GasDemo(Demo):
    """A hard-disk gas in a box, its speed histogram and Maxwell-Boltzmann's curve."""

    name = "gas"
    title = "gas: every disk moves at once, the earliest collision first (World.step)"
    warms = ("World.step",)
    help = (
        "mouse wheel or +/-: time faster or slower   P: grid cells, predicted contacts   R: reset",
    )

    def __init__(self, size: tuple[int, int] = SIZE) -> None:
        super().__init__(size)
        self.speed = 1.0
        self.show_predicted = False
        self._reset()

    def _reset(self) -> None:
        self.world = gas_world(DISKS, AREA_FRACTION, seed=3, radius=RADIUS)
        self.side = float(self.world.shape("right").x)
        self.scale = (self.size[1] - HELP_ROOM - BOX_TOP) / self.side
        self.state = disk_state(self.world, DISKS)
        self.events = self.stale = 0
        self.recent: deque[tuple[int, float]] = deque(maxlen=RATE_FRAMES)  # events, seconds
        self.frame_events = 0
        self.cell_size = 0.0
        self.grid_origin = (0.0, 0.0)
        self.counts = np.zeros(BINS)

    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.MOUSEWHEEL:
            self.speed = min(16.0, max(0.125, self.speed * (1.25 if event.y > 0 else 0.8)))
        elif event.type == pygame.KEYDOWN:
            if event.key in (pygame.K_PLUS, pygame.K_EQUALS, pygame.K_KP_PLUS):
                self.speed = min(16.0, self.speed * 1.25)
            elif event.key in (pygame.K_MINUS, pygame.K_KP_MINUS):
                self.speed = max(0.125, self.speed * 0.8)
            elif event.key == pygame.K_p:
                self.show_predicted = not self.show_predicted
            elif event.key == pygame.K_r:
                self._reset()

    def update(self, dt: float, keys: Input) -> None:
        # Speeds are about 1.25 disk radii per time unit; a frame at speed 1 is 0.5 units.
        result = self.world.step(0.5 * self.speed * RADIUS)
        self.frame_events = result.stats.events
        self.cell_size, self.grid_origin = result.stats.cell_size, result.stats.grid_origin
        self.events += result.stats.events
        self.stale += result.stats.stale
        self.recent.append((result.stats.events, result.stats.seconds))
        self.state = disk_state(self.world, DISKS)
        speeds = np.hypot(self.state[:, 2], self.state[:, 3])
        self.counts += np.histogram(speeds, bins=BINS, range=(0.0, TOP_SPEED))[0]

    def predicted(self, horizon: float) -> list[tuple[tuple[float, float], tuple[float, float]]]:
        """Pairs of disks that will meet within ``horizon`` time units if nothing else
        happens first: candidates from the batch pairs of their swept circles, each
        confirmed by the exact ``sweep``."""
        x, y, vx, vy = self.state.T
        reach = RADIUS + np.hypot(vx, vy) * horizon
        circles = np.column_stack([x + vx * horizon / 2, y + vy * horizon / 2, reach])
        pairs = overlapping_circle_pairs(circles)
        found = []
        for a, b in pairs.tolist():
            hit = sweep(
                self.world.shape(a), (vx[a] * horizon, vy[a] * horizon),
                self.world.shape(b), (vx[b] * horizon, vy[b] * horizon),
            )  # fmt: skip
            if hit is not None and not hit.started_overlapping:
                found.append(((x[a], y[a]), (x[b], y[b])))
        return found

    def _to_screen(self, x: float, y: float) -> tuple[float, float]:
        return BOX_LEFT + x * self.scale, BOX_TOP + y * self.scale

    def draw(self, surface: pygame.Surface) -> None:
        side = self.side * self.scale
        pygame.draw.rect(surface, WALL, (BOX_LEFT, BOX_TOP, side, side), 2)
        if self.show_predicted:
            self._draw_cells(surface)
        r = max(1.0, RADIUS * self.scale)
        for x, y, vx, vy in self.state.tolist():
            fast = vx * vx + vy * vy > 9.0
            pygame.draw.circle(surface, FAST if fast else DISK, self._to_screen(x, y), r)
        if self.show_predicted:
            for a, b in self.predicted(RADIUS):
                pygame.draw.line(surface, PREDICTED, self._to_screen(*a), self._to_screen(*b), 2)
        left = int(2 * BOX_LEFT + side)
        self._draw_histogram(surface, left, BOX_TOP, self.size[0] - left - BOX_LEFT, 300)

    def _draw_cells(self, surface: pygame.Surface) -> None:
        """The lines of the grid the step's core sorted the disks into, in the box."""
        if self.cell_size <= 0.0:
            return
        ox, oy = self.grid_origin
        size, side = self.cell_size, self.side
        for x in np.arange(ox + math.ceil(-ox / size) * size, side, size).tolist():
            pygame.draw.line(surface, CELL, self._to_screen(x, 0.0), self._to_screen(x, side))
        for y in np.arange(oy + math.ceil(-oy / size) * size, side, size).tolist():
            pygame.draw.line(surface, CELL, self._to_screen(0.0, y), self._to_screen(side, y))

    def _draw_histogram(
        self, surface: pygame.Surface, left: int, top: int, width: int, height: int
    ) -> None:
        pygame.draw.rect(surface, WALL, (left, top, width, height), 1)
        total = self.counts.sum()
        if total == 0:
            return
        bin_width = TOP_SPEED / BINS
        density = self.counts / (total * bin_width)
        peak = 1.0 / math.sqrt(math.e) * 1.15  # the curve's maximum, at v = 1, and room
        bar = width / BINS
        for k, value in enumerate(density.tolist()):
            h = min(height, value / peak * height)
            pygame.draw.rect(surface, BAR, (left + k * bar + 1, top + height - h, bar - 2, h))
        points = []
        for step in range(101):
            v = TOP_SPEED * step / 100
            f = v * math.exp(-v * v / 2.0)
            points.append((left + v / TOP_SPEED * width, top + height - f / peak * height))
        pygame.draw.lines(surface, CURVE, False, points, 2)

    def rate(self) -> float:
        """Events a second in the step's compiled core over the last ``RATE_FRAMES``."""
        events = sum(count for count, _ in self.recent)
        return events / max(sum(seconds for _, seconds in self.recent), 1e-9)

    def hud(self) -> list[str]:
        return [
            f"{DISKS} disks, area fraction {AREA_FRACTION}, time x{self.speed:.2f}",
            f"events this frame {self.frame_events}, "
            f"{self.rate() / 1e3:.0f} k events/s in the core, stale pops {self.stale}, "
            f"cells {self.cell_size:.3g} px",
            "bars: speeds seen; red: Maxwell-Boltzmann v exp(-v^2/2)",
        ]

    def script(self, frame: int) -> tuple[list[pygame.event.Event], Input]:
        events = []
        if frame == 5:
            events.append(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=1))
            events.append(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_p))
        return events, Input()
