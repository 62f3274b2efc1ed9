"""The ``masks`` demo: draw two pixel objects, see their quadtrees, sweep one at the other.

Left: two canvases (blocker on top, collider below) to draw on with the mouse.
Right: the main view, where each object is dragged by its centre. The quadtree
nodes of each object are drawn at the chosen level, the intersecting node pairs
are filled, and the collider's stopping place (the exact sweep toward the
blocker) is outlined. K shows pygame.mask's shape analysis of both objects (each
connected component's box, the centroid, the first component's outline); V shows
where the collider's centre must not go (``blocker.convolve(collider)``).
"""

from __future__ import annotations

import numpy as np
import pygame
from numpy.typing import NDArray

from collide2d import Hit, Rect, Vec2, sweep
from collide2d.demos._app import DIM, SIZE, Demo, Input
from collide2d.mask import Mask
from collide2d.mask.quadtree import BLOCK

CANVAS = 64
CANVAS_SCALE = 2
VIEW_SCALE = 3
BLOCKER_CANVAS = Rect(12, 130, CANVAS * CANVAS_SCALE, CANVAS * CANVAS_SCALE)
COLLIDER_CANVAS = Rect(12, 330, CANVAS * CANVAS_SCALE, CANVAS * CANVAS_SCALE)
VIEW = Rect(170, 110, 780, 440)
BLOCKER = (240, 160, 70)
COLLIDER = (90, 160, 250)
NODE = (80, 86, 110)
PAIR = (250, 90, 200)
STOP = (255, 60, 170)
"""The collider's stopping place is outlined in this colour (the smoke test looks for it)."""
COMPONENT = (120, 230, 120)
"""Component boxes, centroids and outlines (K) are drawn in this colour."""
FORBIDDEN = (230, 70, 70)
"""Where the collider's corner must not go (V): its border in this colour."""
MODES = ("masks", "collider as a rectangle", "both rectangles")
SPEED = 60.0


def _disc(size: int, cx: float, cy: float, r: float) -> NDArray[np.bool_]:
    y, x = np.mgrid[0:size, 0:size]
    inside: NDArray[np.bool_] = (x + 0.5 - cx) ** 2 + (y + 0.5 - cy) ** 2 < r * r
    return inside


class MasksDemo(Demo):
    """Two drawable pixel masks, their quadtrees and the exact sweep between them."""

    name = "masks"
    title = "masks: pixel quadtrees, all intersecting node pairs, exact sweeps"
    help = (
        "draw on the canvases (left)   E: eraser   A/S: pen size   drag objects in the view",
        "1/2 and 3/4: blocker and collider tree level   M: mode   R: run   C: clear",
        "K: components, centroids, outline   V: where the collider's centre must not go",
    )

    def __init__(self, size: tuple[int, int] = SIZE) -> None:
        super().__init__(size)
        ring = _disc(CANVAS, 32, 32, 28) & ~_disc(CANVAS, 32, 32, 14)
        ring[28:36, :32] = False  # a gap the collider can slip into
        self.blocker = Mask.from_array(ring)
        self.collider = Mask.from_array(_disc(CANVAS, 32, 32, 9) | _disc(CANVAS, 40, 26, 6))
        self.positions = {"blocker": Vec2(150.0, 20.0), "collider": Vec2(10.0, 60.0)}
        self.levels = {"blocker": 5, "collider": 5}
        self.mode = 0
        self.pen = 3
        self.erasing = False
        self.running = False
        self.drawing: str | None = None
        self.dragging: str | None = None
        self.hit: Hit | None = None
        self.stop: Vec2 | None = None
        self.analysis = False
        self.forbidden = False
        self._preview()  # the HUD names the contact from the first frame

    # -- geometry ------------------------------------------------------------------------
    def _mask(self, name: str) -> Mask:
        return self.blocker if name == "blocker" else self.collider

    def _offset(self) -> tuple[float, float]:
        a, b = self.positions["collider"], self.positions["blocker"]
        return (b.x - a.x, b.y - a.y)

    def _center(self, name: str) -> Vec2:
        box = self._mask(name).bounding_rect()
        return self.positions[name] + box.center

    def _toward(self) -> Vec2:
        """The collider's motion for the preview: through the blocker's centre."""
        return (self._center("blocker") - self._center("collider")) * 2.0

    def _solve(self, delta: Vec2) -> tuple[float, Vec2] | None:
        """Fraction and normal of the collider moving by ``delta``, in the current mode."""
        a, b = self.collider, self.blocker
        offset = self._offset()
        hit: Hit | None
        if MODES[self.mode] == "masks":
            hit = a.sweep(
                b,
                offset,
                delta,
                max_level=self.levels["collider"],
                other_max_level=self.levels["blocker"],
            )
        elif MODES[self.mode] == "collider as a rectangle":
            box = a.bounding_rect().moved((-offset[0], -offset[1]))
            hit = b.sweep_rect(box, delta, max_level=self.levels["blocker"])
        else:
            hit = sweep(a.bounding_rect(), delta, b.bounding_rect().moved(offset))
        self.hit = hit if hit is not None and hit.other_pixel is not None else None
        return None if hit is None else (hit.fraction, hit.normal)

    # -- input ---------------------------------------------------------------------------
    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN:
            self._key(event.key)
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            pos = Vec2(*event.pos)
            for name, canvas in (("blocker", BLOCKER_CANVAS), ("collider", COLLIDER_CANVAS)):
                if canvas.contains_point(pos):
                    self.drawing = name
                    self._paint(pos)
                    return
            if VIEW.contains_point(pos):
                world = (pos - VIEW.min) / VIEW_SCALE
                self.dragging = min(
                    self.positions, key=lambda n: (self._center(n) - world).length()
                )
        elif event.type == pygame.MOUSEMOTION:
            pos = Vec2(*event.pos)
            if self.drawing is not None:
                self._paint(pos)
            elif self.dragging is not None:
                world = (pos - VIEW.min) / VIEW_SCALE
                box = self._mask(self.dragging).bounding_rect()
                self.positions[self.dragging] = world - box.center
        elif event.type == pygame.MOUSEBUTTONUP:
            self.drawing = None
            self.dragging = None

    def _key(self, key: int) -> None:
        steps = {pygame.K_1: ("blocker", -1), pygame.K_2: ("blocker", 1),
                 pygame.K_3: ("collider", -1), pygame.K_4: ("collider", 1)}  # fmt: skip
        if key in steps:
            name, step = steps[key]
            deepest = self._mask(name).quadtree().max_level
            self.levels[name] = max(0, min(deepest, self.levels[name] + step))
        elif key == pygame.K_e:
            self.erasing = not self.erasing
        elif key == pygame.K_a:
            self.pen = max(1, self.pen - 1)
        elif key == pygame.K_s:
            self.pen = min(12, self.pen + 1)
        elif key == pygame.K_m:
            self.mode = (self.mode + 1) % len(MODES)
        elif key == pygame.K_r:
            self.running = not self.running
        elif key == pygame.K_c:
            self.blocker.clear()
            self.collider.clear()
        elif key == pygame.K_k:
            self.analysis = not self.analysis
        elif key == pygame.K_v:
            self.forbidden = not self.forbidden

    def _paint(self, pos: Vec2) -> None:
        name = self.drawing
        if name is None:
            return
        canvas = BLOCKER_CANVAS if name == "blocker" else COLLIDER_CANVAS
        x, y = (pos - canvas.min) / CANVAS_SCALE
        pen = Mask.from_array(_disc(2 * self.pen, self.pen, self.pen, self.pen))
        target = self._mask(name)
        at = (int(x) - self.pen, int(y) - self.pen)
        (target.erase if self.erasing else target.draw)(pen, at)

    # -- simulation ------------------------------------------------------------------------
    def update(self, dt: float, keys: Input) -> None:
        toward = self._toward()
        if self.running and toward.length() > 0:
            step = toward.normalized() * SPEED * dt
            solved = self._solve(step)
            if solved is None:
                self.positions["collider"] = self.positions["collider"] + step
            else:
                self.positions["collider"] = self.positions["collider"] + step * solved[0]
                self.running = False
        self._preview()

    def _preview(self) -> None:
        """Where the collider would stop moving through the blocker's centre."""
        toward = self._toward()
        solved = self._solve(toward)
        self.stop = None if solved is None else self.positions["collider"] + toward * solved[0]

    # -- drawing ---------------------------------------------------------------------------
    def draw(self, surface: pygame.Surface) -> None:
        font = pygame.font.Font(None, 18)
        for name, canvas, colour in (
            ("blocker", BLOCKER_CANVAS, BLOCKER),
            ("collider", COLLIDER_CANVAS, COLLIDER),
        ):
            pygame.draw.rect(surface, DIM, pygame.FRect(*canvas.expanded(2)), 1)
            surface.blit(_image(self._mask(name), colour, CANVAS_SCALE), canvas.min)
            surface.blit(
                font.render(f"{name} (level {self.levels[name]})", True, colour),
                (canvas.x, canvas.y - 16),
            )
        pygame.draw.rect(surface, DIM, pygame.FRect(*VIEW), 1)
        clip = surface.get_clip()
        surface.set_clip(pygame.Rect(*map(int, VIEW)))
        for name, colour in (("blocker", BLOCKER), ("collider", COLLIDER)):
            surface.blit(
                _image(self._mask(name), colour, VIEW_SCALE), self._screen(self.positions[name])
            )
            for rect, _, _ in self._mask(name).quadtree().nodes(self.levels[name]):
                self._outline(surface, rect.moved(self.positions[name]), NODE)
        if MODES[self.mode] == "masks":
            pairs = self.collider.overlap_pairs(
                self.blocker, self._offset(), self.levels["collider"], self.levels["blocker"]
            )
            for rows, name in ((pairs.a_rects, "collider"), (pairs.b_rects, "blocker")):
                for x, y, w, h in rows[:2000].tolist():
                    self._outline(surface, Rect(x, y, w, h).moved(self.positions[name]), PAIR, 2)
        if self.hit is not None and self.hit.other_pixel is not None:
            node = self._coarse_node("blocker", self.hit.other_pixel)
            if node is not None:  # the node the coarse sweep stopped at
                self._outline(surface, node.moved(self.positions["blocker"]), STOP, 2)
        if self.forbidden:
            self._draw_forbidden(surface)
        if self.analysis:
            for name in ("blocker", "collider"):
                self._draw_analysis(surface, name)
        for row, line in enumerate(reversed(self.legend())):
            text = font.render(line, True, FORBIDDEN if line.startswith("red") else COMPONENT)
            surface.blit(text, (VIEW.x + 8, VIEW.y + VIEW.h - 20 - 16 * row))
        if self.stop is not None:
            box = self.collider.bounding_rect().moved(self.stop)
            self._outline(surface, box, STOP, 3)
            if MODES[self.mode] == "masks":
                ghost = _image(self.collider, STOP, VIEW_SCALE)
                ghost.set_alpha(110)
                surface.blit(ghost, self._screen(self.stop))
        surface.set_clip(clip)

    def legend(self) -> list[str]:
        """What K and V show, written at the foot of the view."""
        lines = []
        if self.analysis:
            lines.append("   ".join(
                f"{name}: {len(mask.get_bounding_rects())} component(s), centroid "
                f"{mask.centroid()}, angle {mask.angle():.1f}"
                for name, mask in (("blocker", self.blocker), ("collider", self.collider))
            ))  # fmt: skip
        if self.forbidden:
            inside = self.collider.overlaps(self.blocker, self._offset())
            lines.append(
                "red: where the collider's centre (x) must not go: blocker.convolve(collider)"
                f" -- now {'inside: overlapping' if inside else 'outside: clear'}"
            )
        return lines

    def _draw_analysis(self, surface: pygame.Surface, name: str) -> None:
        """Each component's box, the centroid (a cross) and the first component's
        outline, as pygame.mask computes them (collide2d's counterparts)."""
        mask, at = self._mask(name), self.positions[name]
        for box in mask.get_bounding_rects():
            self._outline(surface, box.moved(at), COMPONENT, 1)
        if mask.count():
            cx, cy = self._screen(at + Vec2(*mask.centroid()) + (0.5, 0.5))
            pygame.draw.line(surface, COMPONENT, (cx - 6, cy), (cx + 6, cy), 2)
            pygame.draw.line(surface, COMPONENT, (cx, cy - 6), (cx, cy + 6), 2)
        points = [self._screen(at + Vec2(x + 0.5, y + 0.5)) for x, y in mask.outline()]
        if len(points) > 1:
            pygame.draw.lines(surface, COMPONENT, False, points, 1)

    def _draw_forbidden(self, surface: pygame.Surface) -> None:
        """``blocker.convolve(collider)``: pixel ``(x, y)`` is solid where the collider
        with its top-left corner at ``(x, y) - (w - 1, h - 1)`` (blocker coordinates)
        overlaps the blocker. Drawn moved by the collider's centre (its bounding box's)
        so that it shows where that centre must not go, with a cross at the centre now:
        inside the region means overlapping."""
        w, h = self.collider.size
        region = self.blocker.convolve(self.collider)
        centre = self.collider.bounding_rect().center
        at = self.positions["blocker"] - (w - 1, h - 1) + centre
        shade = _image(region, FORBIDDEN, VIEW_SCALE)
        shade.set_alpha(90)
        surface.blit(shade, self._screen(at))
        for box in region.get_bounding_rects():
            self._outline(surface, box.moved(at), FORBIDDEN, 1)
        x, y = self._screen(self.positions["collider"] + centre)
        pygame.draw.line(surface, FORBIDDEN, (x - 5, y - 5), (x + 5, y + 5), 2)
        pygame.draw.line(surface, FORBIDDEN, (x - 5, y + 5), (x + 5, y - 5), 2)

    def _screen(self, world: Vec2) -> tuple[float, float]:
        return (VIEW.x + world.x * VIEW_SCALE, VIEW.y + world.y * VIEW_SCALE)

    def _outline(
        self, surface: pygame.Surface, rect: Rect, colour: tuple[int, int, int], width: int = 1
    ) -> None:
        x, y = self._screen(rect.min)
        pygame.draw.rect(
            surface, colour, pygame.FRect(x, y, rect.w * VIEW_SCALE, rect.h * VIEW_SCALE), width
        )

    def hud(self) -> list[str]:
        hit = self.hit
        result = "no contact on the way to the blocker"
        if self.stop is not None:
            result = "stops at the outlined place"
            if hit is not None:
                pixels = [] if hit.pixel is None else [f"collider pixel {hit.pixel}"]
                pixels.append(f"blocker pixel {hit.other_pixel}")
                result += (
                    f": fraction {hit.fraction:.4f}, normal {tuple(hit.normal)}, "
                    + ", ".join(pixels)
                )
        lines = [
            f"mode: {MODES[self.mode]}   pen: {self.pen}{' (eraser)' if self.erasing else ''}   "
            f"running: {'yes' if self.running else 'no (R)'}",
            result,
        ]
        if hit is not None and hit.other_pixel is not None:
            node = self._coarse_node("blocker", hit.other_pixel)
            if node is not None:
                lines.append(
                    f"blocker at level {self.levels['blocker']}: stops at the first "
                    f"{int(node.w)}x{int(node.h)} node that is not empty (outlined); "
                    "the pixel named is in that node and may itself be empty"
                )
        return lines

    def _coarse_node(self, name: str, pixel: tuple[int, int]) -> Rect | None:
        """The node of ``name``'s tree at its chosen level holding ``pixel``, or None
        at full detail (where the pixel itself is what was hit)."""
        tree = self._mask(name).quadtree()
        level = self.levels[name]
        if level >= tree.max_level:
            return None
        side = BLOCK << tree.depth >> level
        return tree.node_rect(level, pixel[1] // side, pixel[0] // side)

    def script(self, frame: int) -> tuple[list[pygame.event.Event], Input]:
        # Draw a stroke on the collider canvas and coarsen the blocker's tree; the view
        # then shows where the collider would stop on its way to the blocker.
        events = []
        start = COLLIDER_CANVAS.min + (20, 100)
        if frame == 2:
            events.append(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=tuple(start), button=1))
        if 2 < frame < 8:
            events.append(
                pygame.event.Event(
                    pygame.MOUSEMOTION,
                    pos=tuple(start + (8 * (frame - 2), 0)),
                    rel=(8, 0),
                    buttons=(1, 0, 0),
                )
            )
        if frame == 8:
            events.append(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=tuple(start), button=1))
        if frame in (10, 11):
            events.append(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_1))
        return events, Input()


def _image(mask: Mask, colour: tuple[int, int, int], scale: int) -> pygame.Surface:
    """The mask's solid pixels in ``colour`` on a transparent surface, scaled."""
    w, h = mask.size
    surface = pygame.Surface((max(w, 1), max(h, 1)), pygame.SRCALPHA)
    if w and h:
        rgb = pygame.surfarray.pixels3d(surface)
        rgb[:] = colour
        del rgb
        alpha = pygame.surfarray.pixels_alpha(surface)
        alpha[:] = np.where(mask.bits.T, 255, 0).astype(np.uint8)
        del alpha
    return pygame.transform.scale(surface, (max(w, 1) * scale, max(h, 1) * scale))
