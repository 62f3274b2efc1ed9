"""The ``rects`` demo: many moving rectangles, a count slider and the broadphase switch."""

from __future__ import annotations

import numpy as np
import pygame

from collide2d import Rect
from collide2d.broadphase.protocol import Key
from collide2d.demos._app import BACKGROUND, DIM, SIZE, TEXT, Demo, Input
from collide2d.demos._broadphase_view import HIT, IDLE, BroadphaseView
from collide2d.scenes import moving_bodies

MIN_COUNT, MAX_COUNT = 10, 3000
SLIDER = Rect(SIZE[0] - 330, 14, 300, 10)


class RectsDemo(Demo):
    """Moving rectangles tested for overlap through a switchable broadphase."""

    name = "rects"
    title = "rects: many moving rectangles through a broadphase"
    help = ("drag the slider or press -/+: count   B: switch broadphase   C: cells   "
            "Space: pause",)  # fmt: skip

    def __init__(self, size: tuple[int, int] = SIZE) -> None:
        super().__init__(size)
        self.arena = Rect(0, 0, float(size[0]), float(size[1]))
        # sorted strips: the fastest here at every count (the others are a B away)
        self.view = BroadphaseView("sorted strips", self.arena)
        w, h = size
        self.all_pos, self.all_vel, widths = moving_bodies(MAX_COUNT, w, h, seed=11, speed=80)
        self.all_size = np.column_stack([widths, widths[::-1] * 0.7 + 3])
        self.count = 300
        self.paused = False
        self.dragging = False
        self.hits: set[Key] = set()
        self.drawn: list[list[float]] = []

    def shapes(self) -> list[tuple[int, Rect]]:
        """The first ``count`` rectangles (fewer for brute force), keyed by index."""
        n = self.view.cap(self.count)
        rows = np.hstack([self.all_pos[:n], self.all_size[:n]]).tolist()
        new = tuple.__new__  # finite, sizes positive: Rect's own checks would pass
        return list(enumerate(new(Rect, row) for row in rows))

    def set_count(self, count: int) -> None:
        """Show ``count`` rectangles (clamped to the slider's range)."""
        count = max(MIN_COUNT, min(MAX_COUNT, count))
        for key in range(count, self.count):
            if key in self.view.index:
                self.view.index.remove(key)
        self.count = count

    def _slide(self, x: float) -> None:
        share = (x - SLIDER.left) / SLIDER.w
        self.set_count(round(MIN_COUNT + share * (MAX_COUNT - MIN_COUNT)))

    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN:
            if event.key in (pygame.K_PLUS, pygame.K_EQUALS, pygame.K_KP_PLUS):
                self.set_count(int(self.count * 1.25) + 1)
            elif event.key in (pygame.K_MINUS, pygame.K_KP_MINUS):
                self.set_count(int(self.count / 1.25))
            elif event.key == pygame.K_SPACE:
                self.paused = not self.paused
            else:
                self.view.handle_key(event.key, self.shapes())
        elif event.type == pygame.MOUSEBUTTONDOWN and SLIDER.expanded(8).contains_point(event.pos):
            self.dragging = True
            self._slide(event.pos[0])
        elif event.type == pygame.MOUSEMOTION and self.dragging:
            self._slide(event.pos[0])
        elif event.type == pygame.MOUSEBUTTONUP:
            self.dragging = False

    def update(self, dt: float, keys: Input) -> None:
        if not self.paused:
            n = self.count
            pos, vel, size = self.all_pos[:n], self.all_vel[:n], self.all_size[:n]
            pos += vel * dt
            w, h = self.size
            for axis, limit in ((0, w), (1, h)):
                out = (pos[:, axis] < 0) | (pos[:, axis] + size[:, axis] > limit)
                vel[out, axis] *= -1
                pos[:, axis] = np.clip(pos[:, axis], 0, limit - size[:, axis])
        n = self.view.cap(self.count)
        rows = np.hstack([self.all_pos[:n], self.all_size[:n]])
        self.drawn = rows.tolist()  # (a list of four numbers is a rect to pygame)
        self.hits = self.view.step_rects(rows)

    def draw(self, surface: pygame.Surface) -> None:
        self.view.draw_cells(surface)
        hits = self.hits
        rect = pygame.draw.rect
        for k, r in enumerate(self.drawn):  # (no FRect made)
            if k in hits:
                rect(surface, HIT, r, 0)
            else:
                rect(surface, IDLE, r, 1)
        # the slider on a panel of its own, over the rectangles: a filled track up to
        # the knob, so that it reads at any count
        panel = pygame.FRect(SLIDER.left - 70, SLIDER.top - 8, SLIDER.w + 82, SLIDER.h + 16)
        surface.fill(BACKGROUND, panel)
        pygame.draw.rect(surface, DIM, panel, 1)
        label = pygame.font.Font(None, 18).render(f"{self.count}", True, TEXT)
        surface.blit(label, (SLIDER.left - 62, SLIDER.top - 2))
        share = (self.count - MIN_COUNT) / (MAX_COUNT - MIN_COUNT)
        pygame.draw.rect(surface, DIM, pygame.FRect(*SLIDER), 0)
        pygame.draw.rect(
            surface, TEXT, pygame.FRect(SLIDER.left, SLIDER.top, share * SLIDER.w, SLIDER.h)
        )
        knob = pygame.FRect(SLIDER.left + share * SLIDER.w - 5, SLIDER.top - 5, 10, SLIDER.h + 10)
        pygame.draw.rect(surface, TEXT, knob)
        pygame.draw.rect(surface, BACKGROUND, knob, 2)

    def hud(self) -> list[str]:
        paused = "   PAUSED (Space)" if self.paused else ""
        return [f"rectangles: {self.count} (slider, top right){paused}", *self.view.hud()]

    def script(self, frame: int) -> tuple[list[pygame.event.Event], Input]:
        # Raise the count with the slider, then switch to the quadtree to show its nodes.
        events = []
        if frame == 5:
            events.append(
                pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(SLIDER.left + 60, 18), button=1)
            )
            events.append(
                pygame.event.Event(pygame.MOUSEBUTTONUP, pos=(SLIDER.left + 60, 18), button=1)
            )
        if frame == 20:
            for _ in ("to brute force", "to quadtree"):
                events.append(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_b))
        return events, Input()
