"""The ``sweep`` demo: two shapes that both move during one frame.

Each shape has a start and a destination. The demo draws the area each sweeps,
a preview at a chosen fraction of the frame, and where both are at the moment of
first contact, with the fraction, the contact point and the normal.
"""

from __future__ import annotations

from dataclasses import dataclass

import pygame

from collide2d import Circle, Hit, Rect, Vec2, sweep
from collide2d.demos._app import TEXT, Demo, Input

A_COLOUR = (80, 150, 255)
B_COLOUR = (255, 170, 60)
PREVIEW = (170, 175, 190)
COLLISION = (255, 60, 170)
"""Shapes at the moment of contact are drawn in this colour (the smoke test looks for it)."""
NORMAL = (250, 235, 80)
FAST, SLOW = 240.0, 40.0


@dataclass
class Body:
    """One shape of the demo: its kind, centre, half-size and motion for the frame."""

    kind: str  # "rect" or "circle"
    center: Vec2
    half: Vec2
    delta: Vec2

    def shape(self, fraction: float = 0.0) -> Rect | Circle:
        """The shape at ``fraction`` of its motion."""
        c = self.center + self.delta * fraction
        if self.kind == "circle":
            return Circle(c.x, c.y, min(self.half))
        return Rect.from_center(c, self.half)

    def toggle(self) -> None:
        """Switch between rectangle and circle."""
        self.kind = "circle" if self.kind == "rect" else "rect"


class SweepDemo(Demo):
    """Two moving shapes, their swept areas and their first contact."""

    name = "sweep"
    title = "sweep: exact time of impact of two moving shapes"
    help = (
        "WASD: A's destination   arrows: B's destination   Shift: move the shapes   "
        "Ctrl/Space: slow",
        "1/2: scrub the preview   Z/X: A/B rect <-> circle   R: reset   "
        "mouse: drag a start (left) or a destination (right)",
    )

    def __init__(self, size: tuple[int, int] = (960, 640)) -> None:
        super().__init__(size)
        self.reset()

    def reset(self) -> None:
        """The two shapes where the demo starts them."""
        self.a = Body("rect", Vec2(230.0, 300.0), Vec2(60.0, 40.0), Vec2(430.0, 70.0))
        self.b = Body("rect", Vec2(640.0, 330.0), Vec2(50.0, 75.0), Vec2(-160.0, -30.0))
        self.preview = 0.25
        self.hit: Hit | None = None
        self._drag: tuple[Body, str] | None = None
        self._solve()

    def _solve(self) -> None:
        self.hit = sweep(self.a.shape(), self.a.delta, self.b.shape(), self.b.delta)

    # -- input ---------------------------------------------------------------------
    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN and event.key in (pygame.K_z, pygame.K_x):
            (self.a if event.key == pygame.K_z else self.b).toggle()
        elif event.type == pygame.KEYDOWN and event.key == pygame.K_r:
            self.reset()
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button in (1, 3):
            part = "start" if event.button == 1 else "end"
            point = Vec2(*event.pos)

            def distance(body: Body) -> float:
                target = body.center if part == "start" else body.center + body.delta
                return (target - point).length()

            self._drag = (min((self.a, self.b), key=distance), part)
        elif event.type == pygame.MOUSEBUTTONUP:
            self._drag = None
        elif event.type == pygame.MOUSEMOTION and self._drag is not None:
            body, part = self._drag
            if part == "start":
                end = body.center + body.delta
                body.center = Vec2(*event.pos)
                body.delta = end - body.center
            else:
                body.delta = Vec2(*event.pos) - body.center
        self._solve()

    def update(self, dt: float, keys: Input) -> None:
        step = (SLOW if keys.ctrl or keys.pressed(pygame.K_SPACE) else FAST) * dt
        for body, (left, right, up, down) in (
            (self.a, (pygame.K_a, pygame.K_d, pygame.K_w, pygame.K_s)),
            (self.b, (pygame.K_LEFT, pygame.K_RIGHT, pygame.K_UP, pygame.K_DOWN)),
        ):
            move = Vec2(
                (keys.pressed(right) - keys.pressed(left)) * step,
                (keys.pressed(down) - keys.pressed(up)) * step,
            )
            if keys.shift:
                body.center = body.center + move
            else:
                body.delta = body.delta + move
            self._keep_on_screen(body)
        scrub = (keys.pressed(pygame.K_2) - keys.pressed(pygame.K_1)) * step / 400.0
        self.preview = min(max(self.preview + scrub, 0.0), 1.0)
        self._solve()

    def _keep_on_screen(self, body: Body) -> None:
        """Starts and destinations stay on the screen (the keys cannot lose a shape)."""
        w, h = self.size
        start = Vec2(min(max(body.center.x, 0.0), w), min(max(body.center.y, 0.0), h))
        end = body.center + body.delta
        end = Vec2(min(max(end.x, 0.0), w), min(max(end.y, 0.0), h))
        body.center, body.delta = start, end - start

    # -- drawing -------------------------------------------------------------------
    def draw(self, surface: pygame.Surface) -> None:
        font = pygame.font.Font(None, 20)
        for body, colour in ((self.a, A_COLOUR), (self.b, B_COLOUR)):
            _draw_swept_outline(surface, body, _dim(colour))
            _draw_shape(surface, body.shape(1.0), _dim(colour), 1)
            _draw_shape(surface, body.shape(0.0), colour, 0, fill=_dark(colour))
            _draw_shape(surface, body.shape(self.preview), PREVIEW, 1)
        for body, label in ((self.a, "A"), (self.b, "B")):
            surface.blit(font.render(label, True, TEXT), body.center - (4, 7))
        hit = self.hit
        if hit is None:
            return
        for body in (self.a, self.b):
            _draw_shape(surface, body.shape(hit.fraction), COLLISION, 3)
        at = self.a.shape(hit.fraction)
        label = f"fraction = {hit.fraction:.4f}"
        if hit.started_overlapping:
            label = "pre-collision: started overlapping"
        corner = at.bounds if isinstance(at, Circle) else at
        surface.blit(font.render(label, True, COLLISION), (corner.left, corner.bottom + 6))
        point = hit.point
        tip = point + hit.normal * 40.0
        pygame.draw.line(surface, NORMAL, point, tip, 2)
        pygame.draw.circle(surface, NORMAL, tip, 4)
        pygame.draw.circle(surface, COLLISION, point, 5)

    def hud(self) -> list[str]:
        lines = [
            f"A: {self.a.kind} at {_fmt(self.a.center)} moving {_fmt(self.a.delta)}",
            f"B: {self.b.kind} at {_fmt(self.b.center)} moving {_fmt(self.b.delta)}",
            f"preview fraction: {self.preview:.3f}   (filled: start, thin: destination, "
            "grey: preview, magenta: contact)",
        ]
        hit = self.hit
        if hit is None:
            lines.append("no contact during the frame")
        else:
            lines.append(
                f"contact at fraction {hit.fraction:.6f}, normal {_fmt(hit.normal)}, "
                f"point {_fmt(hit.point)}"
                + ("  [pre-collision]" if hit.started_overlapping else "")
            )
        return lines

    def script(self, frame: int) -> tuple[list[pygame.event.Event], Input]:
        # Drag A's destination down a little and scrub the preview forward.
        held = {pygame.K_s} if frame < 20 else set()
        if frame < 30:
            held.add(pygame.K_2)
        return [], Input(held)


def _fmt(v: Vec2) -> str:
    return f"({v.x:.1f}, {v.y:.1f})"


def _dim(colour: tuple[int, int, int]) -> tuple[int, int, int]:
    return (colour[0] * 3 // 5, colour[1] * 3 // 5, colour[2] * 3 // 5)


def _dark(colour: tuple[int, int, int]) -> tuple[int, int, int]:
    return (colour[0] // 4, colour[1] // 4, colour[2] // 4)


def _draw_shape(
    surface: pygame.Surface,
    shape: Rect | Circle,
    colour: tuple[int, int, int],
    width: int,
    fill: tuple[int, int, int] | None = None,
) -> None:
    if isinstance(shape, Circle):
        if fill is not None:
            pygame.draw.circle(surface, fill, shape.center, shape.r)
        pygame.draw.circle(surface, colour, shape.center, shape.r, max(width, 1))
        return
    box = pygame.FRect(shape.x, shape.y, shape.w, shape.h)
    if fill is not None:
        pygame.draw.rect(surface, fill, box)
    pygame.draw.rect(surface, colour, box, max(width, 1))


def _draw_swept_outline(surface: pygame.Surface, body: Body, colour: tuple[int, int, int]) -> None:
    """Outline the area the shape covers during its motion (hull or capsule)."""
    start = body.shape(0.0)
    end = body.shape(1.0)
    if isinstance(start, Circle):
        d = body.delta
        if d.length() > 0.0:
            side = Vec2(-d.y, d.x).normalized() * start.r
            for sign in (1.0, -1.0):
                offset = side * sign
                pygame.draw.line(surface, colour, start.center + offset, end.center + offset, 1)
        return
    if not isinstance(end, Rect):
        return
    corners = [
        Vec2(x, y)
        for r in (start, end)
        for x, y in ((r.left, r.top), (r.right, r.top), (r.right, r.bottom), (r.left, r.bottom))
    ]
    pygame.draw.polygon(surface, colour, _convex_hull(corners), 1)


def _convex_hull(points: list[Vec2]) -> list[Vec2]:
    """Andrew's monotone chain convex hull."""
    pts = sorted(set(points))
    if len(pts) <= 2:
        return pts

    def half(seq: list[Vec2]) -> list[Vec2]:
        out: list[Vec2] = []
        for p in seq:
            while len(out) >= 2 and (out[-1] - out[-2]).cross(p - out[-2]) <= 0:
                out.pop()
            out.append(p)
        return out

    lower = half(pts)
    upper = half(pts[::-1])
    return lower[:-1] + upper[:-1]
