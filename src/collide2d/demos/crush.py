"""The ``crush`` demo: lifts (kinematic bodies: infinite mass, a velocity of their own)
carry boxes and discs up toward a ceiling, moved by ``World.step`` with gravity.

Where a lift stops far enough below the ceiling, what rides it comes down again;
where it rises closer than a body is tall, it drives the body into the ceiling. The
step cannot move a lift or a ceiling, so it reports the body in
``StepResult.crushed`` (and the pair in ``overlaps``): the demo marks the place in
red, as a game would kill its player there, takes the body out, and drops it again
over its lift once the lift is low.
Space pauses; R starts again.
"""

from __future__ import annotations

import math

import pygame

from collide2d import Circle, Rect, World
from collide2d.demos._app import SIZE, Demo, Input

CEILING = (150, 156, 180)
LIFT = (200, 170, 90)
BOX = (110, 170, 240)
BALL = (120, 220, 150)
CRUSHED = (240, 70, 70)
TOP = 80.0
"""The ceiling's top, below the HUD's lines."""
LIFTS = ((40, 70.0, 400.0), (230, 14.0, 250.0), (420, 44.0, 480.0), (610, 10.0, 290.0),
         (800, 60.0, 330.0))  # fmt: skip
"""Each lift's left edge, how far below the ceiling it stops (bodies are 24 tall, two
stacked 48) and where it starts (the crushes of the 14 and 10 come at about frames 90
and 115: the showcase's picture, at frame 120, has them marked)."""
LIFT_W, LIFT_H, LOWEST = 120.0, 14.0, 560.0
SPEED, GRAVITY = 1.5, 0.25
"""Lift speed (px a frame) and gravity (px a frame per frame)."""
BODIES = 40
MARK_FRAMES = 45


class CrushDemo(Demo):
    """Lifts pressing boxes and discs into a ceiling: every crush reported."""

    name = "crush"
    title = "crush: lifts drive boxes into a ceiling; World.step reports every crushed body"
    warms = ("World.step",)
    help = ("space: pause   R: reset",)

    def __init__(self, size: tuple[int, int] = SIZE) -> None:
        super().__init__(size)
        self.paused = False
        self._reset()

    def _reset(self) -> None:
        width = float(self.size[0])
        world = World()
        world.set_response("body", "body", "slide")
        world.add("ceiling", Rect(0.0, TOP, width, 16.0), mass=math.inf, group="wall")
        world.add("floor", Rect(0.0, LOWEST + 60.0, width, 16.0), mass=math.inf, group="wall")
        for k, (left, _gap, y) in enumerate(LIFTS):
            world.add(("lift", k), Rect(float(left), y, LIFT_W, LIFT_H), velocity=(0.0, -SPEED),
                      mass=math.inf, group="wall")  # fmt: skip
        for k in range(BODIES):  # two layers on each lift
            lift_y = LIFTS[k % len(LIFTS)][2]
            world.add(k, self._spawn(k, lift_y - 26.0 - 30.0 * (k // 20)), group="body")
        self.world = world
        self.marks: list[tuple[Rect | Circle, int]] = []  # (shape where crushed, frames left)
        self.waiting: list[int] = []  # crushed bodies, to be dropped again
        self.crushed_now = 0
        self.crushed_total = 0
        self.overlaps = 0
        self.stats = (0, 0)

    @staticmethod
    def _spawn(k: int, y: float) -> Rect | Circle:
        """Body ``k`` at height ``y``: over lift ``k % 5``, in the place ``k // 5 % 4``
        of four along it."""
        x = LIFTS[k % len(LIFTS)][0] + 4.0 + 29.0 * (k // len(LIFTS) % 4)
        return Rect(x, y, 24.0, 24.0) if k % 2 else Circle(x + 12.0, y + 12.0, 12.0)

    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN and event.key == pygame.K_SPACE:
            self.paused = not self.paused
        elif event.type == pygame.KEYDOWN and event.key == pygame.K_r:
            self._reset()

    def update(self, dt: float, keys: Input) -> None:
        if self.paused:
            return
        world = self.world
        for k, (_left, gap, _start) in enumerate(LIFTS):  # turn at the ends of their travel
            lift, (_vx, vy) = world.shape(("lift", k)), world.velocity(("lift", k))
            if vy < 0.0 and lift.y <= TOP + 16.0 + gap:
                world.set_velocity(("lift", k), (0.0, SPEED))
            elif vy > 0.0 and lift.y >= LOWEST:
                world.set_velocity(("lift", k), (0.0, -SPEED))
        result = world.step(1.0, gravity=(0.0, GRAVITY))
        self.marks = [(shape, age - 1) for shape, age in self.marks if age > 1]
        for body in result.crushed:  # marked where it was crushed, taken out
            shape = world.shape(body)
            assert isinstance(shape, (Rect, Circle))
            self.marks.append((shape, MARK_FRAMES))
            world.remove(body)
            self.waiting.append(int(body))  # type: ignore[call-overload]
        for body in list(self.waiting):  # dropped again once its lift is low
            lift = world.shape(("lift", body % len(LIFTS)))
            if lift.y > TOP + 140.0:
                world.add(body, self._spawn(body, lift.y - 60.0), group="body")
                self.waiting.remove(body)
        self.crushed_now = len(result.crushed)
        self.crushed_total += len(result.crushed)
        self.overlaps = len(result.overlaps)
        self.stats = (result.stats.capped, result.stats.put_back)

    def draw(self, surface: pygame.Surface) -> None:
        world = self.world
        for wall in ("ceiling", "floor"):
            pygame.draw.rect(surface, CEILING, tuple(world.shape(wall)))  # type: ignore[arg-type]
        for k in range(len(LIFTS)):
            pygame.draw.rect(surface, LIFT, tuple(world.shape(("lift", k))))  # type: ignore[arg-type]
        for k in range(BODIES):
            shape = world.shape(k) if k not in self.waiting else None
            if isinstance(shape, (Rect, Circle)):
                _draw(surface, shape, BALL if k % 2 == 0 else BOX, 0)
        for shape, _age in self.marks:
            _draw(surface, shape, CRUSHED, 3)
            x, y, w, h = shape.bounds if isinstance(shape, Circle) else shape
            pygame.draw.line(surface, CRUSHED, (x, y), (x + w, y + h), 3)
            pygame.draw.line(surface, CRUSHED, (x, y + h), (x + w, y), 3)

    def hud(self) -> list[str]:
        capped, put_back = self.stats
        return [
            f"{BODIES} bodies on {len(LIFTS)} lifts; lifts stop 70, 14, 44, 10, 60 px under"
            " the ceiling; bodies are 24 px tall",
            f"crushed this frame {self.crushed_now}, in all {self.crushed_total}; stopping"
            f" pairs left overlapping {self.overlaps}; capped {capped}, put back {put_back}"
            + ("   PAUSED (Space)" if self.paused else ""),
        ]


def _draw(
    surface: pygame.Surface, shape: Rect | Circle, colour: tuple[int, int, int], width: int
) -> None:
    if isinstance(shape, Circle):
        pygame.draw.circle(surface, colour, (shape.x, shape.y), shape.r, width)
    else:
        assert isinstance(shape, Rect)
        pygame.draw.rect(surface, colour, tuple(shape), width)
