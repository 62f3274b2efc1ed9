"""The ``polygons`` demo: rotated shapes, exact.

Left: a ship flies at a turning crate while both move during the frame; the demo
draws where each starts and ends, and both at the exact moment of first contact
with the contact point and normal (``sweep`` of two polygons). Below them, a pair
that already overlaps and the shortest push that separates it (``Hit.depth``).
Right: a thousand small boxes turning and drifting at their own speeds; every
overlapping pair is found each frame by ``overlapping_box_pairs``, and every pair
that will meet within the next half second (with its exact first moment) by
``sweep_box_pairs``, their times shown.
"""

from __future__ import annotations

import math
import time

import numpy as np
import pygame

from collide2d import Hit, Polygon, Vec2, overlapping_box_pairs, sweep, sweep_box_pairs
from collide2d.demos._app import DIM, Demo, Input
from collide2d.demos.sweep import _dark, _dim, _fmt

SHIP = (80, 150, 255)
CRATE = (255, 170, 60)
CONTACT = (255, 60, 170)
"""Both shapes at the moment of first contact (the smoke test looks for it)."""
NORMAL = (250, 235, 80)
PUSHED = (90, 230, 140)
"""The overlapping shape pushed out by ``normal * depth``."""
BOX = (95, 105, 130)
HIT_BOX = (235, 70, 70)
"""A box of the field that overlaps another."""
MEET_BOX = (250, 235, 80)
"""A box of the field that will meet another within ``AHEAD`` seconds."""
AHEAD = 0.5
"""How far ahead the field's sweeps look, in seconds."""
FIELD = pygame.Rect(500, 110, 440, 430)
BOXES = 1000
TURN = 1.2  # radians a second for the ship's Q/E
FAST = 240.0


def _ship(x: float, y: float, angle: float) -> Polygon:
    """A five-sided ship pointing along ``angle`` (x toward y)."""
    c, s = math.cos(angle), math.sin(angle)
    outline = [(34.0, 0.0), (-14.0, 20.0), (-24.0, 9.0), (-24.0, -9.0), (-14.0, -20.0)]
    return Polygon([(x + c * px - s * py, y + s * px + c * py) for px, py in outline])


class PolygonsDemo(Demo):
    """Polygons swept against each other, a push-out, and a field of turning boxes."""

    name = "polygons"
    title = "polygons: rotated ships and crates, exact sweeps, 1,000 boxes a frame"
    warms = ("batch pairs of polygons",)
    help = (
        "arrows: the ship's move   Q/E: turn the ship   WASD: the crate's move   "
        "R/F: turn the crate",
        "mouse: drag the ship (left) or the crate (right)   Space: freeze the boxes   Home: reset",
    )

    def __init__(self, size: tuple[int, int] = (960, 640)) -> None:
        super().__init__(size)
        self._reset()
        rng = np.random.default_rng(7)
        n = BOXES
        self.boxes = np.column_stack([
            rng.uniform(FIELD.left + 8, FIELD.right - 8, n),
            rng.uniform(FIELD.top + 8, FIELD.bottom - 8, n),
            rng.uniform(3, 11, n), rng.uniform(2, 6, n), rng.uniform(-math.pi, math.pi, n),
        ])  # fmt: skip
        self.spin = rng.uniform(-1.5, 1.5, n)
        self.drift = rng.uniform(-25.0, 25.0, (n, 2))
        self.frozen = False
        self.pairs = np.zeros((0, 2), dtype=np.intp)
        self.meets = np.zeros((0, 2), dtype=np.intp)
        self.batch_ms = 0.0
        self.sweep_ms = 0.0
        self._drag: str | None = None
        self._field()

    def _reset(self) -> None:
        self.ship_at = Vec2(110.0, 190.0)
        self.ship_angle = 0.35
        self.ship_move = Vec2(330.0, 40.0)
        self.crate_at = Vec2(380.0, 230.0)
        self.crate_angle = 0.5
        self.crate_move = Vec2(-60.0, -10.0)
        self._solve()

    # -- the collision work ---------------------------------------------------------
    def ship(self, fraction: float = 0.0) -> Polygon:
        at = self.ship_at + self.ship_move * fraction
        return _ship(at.x, at.y, self.ship_angle)

    def crate(self, fraction: float = 0.0) -> Polygon:
        at = self.crate_at + self.crate_move * fraction
        return Polygon.box(at.x, at.y, 70.0, 50.0, self.crate_angle)

    def _solve(self) -> None:
        self.hit: Hit | None = sweep(self.ship(), self.ship_move, self.crate(), self.crate_move)
        self.lodged = Polygon.box(150.0, 470.0, 90.0, 40.0, 0.3)
        self.block = Polygon.regular(215.0, 470.0, 45.0, 6, 0.1)
        self.push = sweep(self.lodged, (0.0, 0.0), self.block)

    def _field(self) -> None:
        start = time.perf_counter()
        self.pairs = overlapping_box_pairs(self.boxes)
        self.batch_ms = (time.perf_counter() - start) * 1e3
        start = time.perf_counter()
        ahead = sweep_box_pairs(self.boxes, self.drift * AHEAD)
        self.meets = ahead.pairs[~ahead.started]
        self.sweep_ms = (time.perf_counter() - start) * 1e3

    # -- input ------------------------------------------------------------------------
    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN and event.key == pygame.K_SPACE:
            self.frozen = not self.frozen
        elif event.type == pygame.KEYDOWN and event.key == pygame.K_HOME:
            self._reset()
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button in (1, 3):
            self._drag = "ship" if event.button == 1 else "crate"
        elif event.type == pygame.MOUSEBUTTONUP:
            self._drag = None
        elif event.type == pygame.MOUSEMOTION and self._drag is not None:
            if self._drag == "ship":
                self.ship_at = Vec2(*event.pos)
            else:
                self.crate_at = Vec2(*event.pos)
            self._solve()

    def update(self, dt: float, keys: Input) -> None:
        step = FAST * dt
        self.ship_move = self.ship_move + Vec2(
            (keys.pressed(pygame.K_RIGHT) - keys.pressed(pygame.K_LEFT)) * step,
            (keys.pressed(pygame.K_DOWN) - keys.pressed(pygame.K_UP)) * step,
        )
        self.crate_move = self.crate_move + Vec2(
            (keys.pressed(pygame.K_d) - keys.pressed(pygame.K_a)) * step,
            (keys.pressed(pygame.K_s) - keys.pressed(pygame.K_w)) * step,
        )
        self.ship_angle += (keys.pressed(pygame.K_e) - keys.pressed(pygame.K_q)) * TURN * dt
        self.crate_angle += (keys.pressed(pygame.K_f) - keys.pressed(pygame.K_r)) * TURN * dt
        self.crate_angle += 0.25 * dt  # the crate turns on its own, slowly
        self._solve()
        if not self.frozen:
            self.boxes[:, 4] += self.spin * dt
            self.boxes[:, :2] += self.drift * dt
            low = np.array([FIELD.left + 8.0, FIELD.top + 8.0])
            span = np.array([FIELD.width - 16.0, FIELD.height - 16.0])
            self.boxes[:, :2] = low + np.mod(self.boxes[:, :2] - low, span)  # wrap around
        self._field()

    # -- drawing --------------------------------------------------------------------
    def draw(self, surface: pygame.Surface) -> None:
        font = pygame.font.Font(None, 20)
        for polygon, colour in ((self.ship(1.0), SHIP), (self.crate(1.0), CRATE)):
            pygame.draw.polygon(surface, _dim(colour), polygon.vertices, 1)
        for polygon, colour in ((self.ship(), SHIP), (self.crate(), CRATE)):
            pygame.draw.polygon(surface, _dark(colour), polygon.vertices)
            pygame.draw.polygon(surface, colour, polygon.vertices, 2)
        for start, move in ((self.ship_at, self.ship_move), (self.crate_at, self.crate_move)):
            pygame.draw.line(surface, DIM, start, start + move, 1)
        hit = self.hit
        if hit is not None:
            for polygon in (self.ship(hit.fraction), self.crate(hit.fraction)):
                pygame.draw.polygon(surface, CONTACT, polygon.vertices, 3)
            tip = hit.point + hit.normal * 40.0
            pygame.draw.line(surface, NORMAL, hit.point, tip, 2)
            pygame.draw.circle(surface, NORMAL, tip, 4)
            pygame.draw.circle(surface, CONTACT, hit.point, 5)
            label = (
                "started overlapping"
                if hit.started_overlapping
                else f"first contact at fraction {hit.fraction:.5f}"
            )
            surface.blit(font.render(label, True, CONTACT), (40, 330))
        # An overlap and its push: the shortest move that separates the two.
        pygame.draw.polygon(surface, _dark(CRATE), self.block.vertices)
        pygame.draw.polygon(surface, CRATE, self.block.vertices, 2)
        pygame.draw.polygon(surface, SHIP, self.lodged.vertices, 2)
        push = self.push
        if push is not None and push.started_overlapping:
            moved = self.lodged.translated(push.normal * push.depth)
            pygame.draw.polygon(surface, PUSHED, moved.vertices, 2)
            label = f"overlapping: push {push.depth:.2f} px along {_fmt(push.normal)}"
            surface.blit(font.render(label, True, PUSHED), (40, 540))
        # The field of boxes, overlapping ones in red.
        pygame.draw.rect(surface, DIM, FIELD, 1)
        corners = _corners(self.boxes)
        hit_rows = np.zeros(len(self.boxes), dtype=bool)
        hit_rows[self.pairs.ravel()] = True
        meet_rows = np.zeros(len(self.boxes), dtype=bool)
        meet_rows[self.meets.ravel()] = True
        for row, hit_flag, meet_flag in zip(
            corners.tolist(), hit_rows.tolist(), meet_rows.tolist(), strict=True
        ):
            if hit_flag:
                pygame.draw.polygon(surface, HIT_BOX, row, 0)
            else:
                pygame.draw.polygon(surface, MEET_BOX if meet_flag else BOX, row, 1)
        caption = (
            f"{len(self.boxes):,} boxes: {len(self.pairs):,} overlapping pairs "
            f"in {self.batch_ms:.1f} ms"
        )
        surface.blit(font.render(caption, True, HIT_BOX), (FIELD.left, FIELD.top - 20))
        caption = (
            f"{len(self.meets):,} pairs meet within {AHEAD} s (exact first moments) "
            f"in {self.sweep_ms:.1f} ms"
        )
        surface.blit(font.render(caption, True, MEET_BOX), (FIELD.left, FIELD.bottom + 6))

    def hud(self) -> list[str]:
        hit = self.hit
        contact = (
            "the ship misses the crate this frame"
            if hit is None
            else f"contact at fraction {hit.fraction:.6f}, normal {_fmt(hit.normal)}, "
            f"point {_fmt(hit.point)}"
            + ("  [started overlapping]" if hit.started_overlapping else "")
        )
        return [
            f"ship at {_fmt(self.ship_at)} turned {self.ship_angle:.2f} rad moving "
            f"{_fmt(self.ship_move)}; crate turned {self.crate_angle:.2f} rad moving "
            f"{_fmt(self.crate_move)}",
            contact,
            f"boxes: overlapping_box_pairs {self.batch_ms:.1f} ms, sweep_box_pairs "
            f"{self.sweep_ms:.1f} ms a frame" + ("  (frozen)" if self.frozen else ""),
        ]

    def script(self, frame: int) -> tuple[list[pygame.event.Event], Input]:
        # Turn the ship a little and lengthen its move; the boxes turn.
        held = {pygame.K_e} if frame < 10 else set()
        return [], Input(held)


def _corners(boxes: np.ndarray) -> np.ndarray:
    """The boxes' corners for drawing (floats rounded for pygame)."""
    c = np.cos(boxes[:, 4])[:, None]
    s = np.sin(boxes[:, 4])[:, None]
    hx = boxes[:, 2:3] * 0.5
    hy = boxes[:, 3:4] * 0.5
    ox = np.hstack([-hx, hx, hx, -hx])
    oy = np.hstack([-hy, -hy, hy, hy])
    xs = boxes[:, 0:1] + c * ox - s * oy
    ys = boxes[:, 1:2] + s * ox + c * oy
    return np.stack([xs, ys], axis=2)
