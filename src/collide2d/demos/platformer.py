"""The ``platformer`` demo: a World with tiles, one-way platforms, a pixel-mask hill,
coins, bouncing balls and a player, each move's contacts drawn as they happen.

The player walks (arrows or A/D) and jumps (Up, W or Space). Tiles are ``slide``;
one-way platforms are ``slide`` only for an item coming from above (a filter);
coins are ``cross`` and are picked up; balls are circles that ``bounce`` off the
level. The hill is a pixel mask with a hole dug out of it (G digs another under
the player). The HUD lists the contacts of the player's last move, and each is drawn
at its touch point with its normal.

S switches between two ways of running the same level: ``World.move`` for the
player and each ball, one after the other (bump.lua's way), and one
``World.step(dt, gravity=..., filter=...)`` for everything at once, with the same
filter asked per pair (the one-way platforms work for the balls too) and each
contact's normal taken as the player sees it (``Contact.normal_for``).

L switches to the second level (``collide2d.demos.slopes``): ramps of several
polygon pieces, a plateau, a smooth pixel hill and a bar that turns, walked with
``collide2d.walk``; S steps it too (the ramps and the turning bar are polygons
among the step's bodies, the ball a circle among them; the player walks with the
step's slides, without ``walk``'s snap and step up).
"""

from __future__ import annotations

import math
from typing import Any, cast

import numpy as np
import pygame

from collide2d import Circle, Mask, PlacedMask, Rect, Vec2, World
from collide2d.demos._app import Demo, Input
from collide2d.demos.slopes import SlopesLevel
from collide2d.world import Collision

TILE = 16.0
GRAVITY = 1100.0
WALK = 150.0
JUMP = 430.0
TILE_COLOUR = (90, 110, 150)
ONE_WAY_COLOUR = (150, 120, 80)
HILL_COLOUR = (90, 150, 90)
PLAYER_COLOUR = (80, 170, 255)
COIN_COLOUR = (250, 210, 60)
BALL_COLOUR = (235, 110, 170)
CONTACT = (255, 60, 60)
"""Touch points and normals of the player's last move (the smoke test looks for it)."""


def _short(value: float) -> str:
    """A normal's coordinate for the HUD: ``+0``, ``-1``, or two decimals on a slope."""
    value += 0.0  # (-0.0 shows as +0)
    return f"{value:+.0f}" if value == round(value) else f"{value:+.2f}"


def hill_mask(width: int, height: int) -> Mask:
    """A round hill with a cave dug out of it."""
    y, x = np.mgrid[0:height, 0:width]
    top = height - height * np.sin(np.pi * (x + 0.5) / width) ** 0.7
    hill = Mask.from_array(y >= top)
    cave = Mask.from_array((x - width * 0.55) ** 2 / 900 + (y - height * 0.7) ** 2 / 150 < 1)
    hill.erase(cave, (0, 0))
    return hill


class PlatformerDemo(Demo):
    """A player in a small level made of tiles, platforms, a mask hill, coins and balls."""

    name = "platformer"
    title = "platformer: the World (slide, cross, bounce; one-way platforms, a mask hill)"
    help = (
        "arrows / A D: walk   Up / W / Space: jump   G: dig a hole in the hill under the "
        "player   S: move or step   L: the slopes level or the tiles   R: reset",
    )

    def __init__(self, size: tuple[int, int] = (960, 640)) -> None:
        super().__init__(size)
        self.stepping = False
        self.slopes: SlopesLevel | None = None
        self.level = "tiles"
        self.reset()

    # -- the level -------------------------------------------------------------------------
    def reset(self) -> None:
        """Build the level."""
        self.world = World(cell_size=64)
        self.kinds: dict[Any, str] = {}
        self.balls: dict[Any, Vec2] = {}
        if self.level == "slopes":
            self.slopes = SlopesLevel(self.world, self.kinds, self.size)
            self.hill = self.slopes.hill
            self.balls[("ball", 0)] = Vec2(120.0, 0.0)
        else:
            self.slopes = None
            self._tiles()
        if self.stepping:  # (a level built while stepping: its velocities in the world)
            for ball, velocity in self.balls.items():
                self.world.set_velocity(ball, velocity)
        self.velocity = Vec2(0.0, 0.0)
        self.on_ground = False
        self.collected = 0
        self.landings = 0
        self.contacts: list[Collision] = []
        self.marks: list[tuple[Vec2, Vec2]] = []  # contact points and normals drawn
        self.lines: list[str] = []  # the HUD's lines on them
        self.jump = False
        self.seams_crossed = 0
        self.tests = 0

    def _tiles(self) -> None:
        """The first level: tiles, a one-way platform, the hill, coins, balls."""
        w, h = self.size
        floor_y = h - 96.0
        for i in range(int(w // TILE)):
            self._add(("tile", i), Rect(i * TILE, floor_y, TILE, TILE), "tile")
        for i in range(8):  # a wall of tiles on the right
            self._add(("wall", i), Rect(w - 3 * TILE, floor_y - (i + 1) * TILE, TILE, TILE), "tile")
        for side, x in (("left", -TILE), ("right", w)):  # walls past the edges
            self._add(("edge", side), Rect(x, 0.0, TILE, floor_y), "tile")
        for i in range(10):  # a one-way platform, within a jump of the floor
            self._add(("ledge", i), Rect(420 + i * TILE, floor_y - 70, TILE, TILE), "one-way")
        self.hill = PlacedMask(hill_mask(260, 90), 560, floor_y - 90)
        self._add("hill", self.hill, "hill")
        for k, x in enumerate((260.0, 470.0, 700.0)):
            self._add(("coin", k), Rect(x, floor_y - 30 - (70 if k == 1 else 0), 10, 10), "coin")
        for k, (x, vx) in enumerate(((120.0, 180.0), (330.0, -140.0), (800.0, 90.0))):
            self._add(("ball", k), Circle(x, 120 + 40 * k, 9), "ball")
            self.balls[("ball", k)] = Vec2(vx, 0.0)
        self._add("player", Rect(60, floor_y - 200, 14, 24), "player")

    def player(self) -> Rect:
        """The player's rectangle."""
        return cast(Rect, self.world.shape("player"))

    def _add(self, item: Any, shape: Any, kind: str) -> None:
        movable = kind in ("player", "ball")  # the level is of infinite mass (for step)
        self.world.add(item, shape, mass=1.0 if movable else math.inf)
        self.kinds[item] = kind

    def _filter(self, item: Any, other: Any) -> str | None:
        """Responses by kind; a one-way platform stops only an item that is above it."""
        kind = self.kinds[other]
        if kind == "coin":
            return "cross" if item == "player" else None
        if kind in ("player", "ball"):
            return None
        if kind == "one-way":
            bottom = self.world.shape(item)
            below = bottom.y + bottom.h if isinstance(bottom, Rect) else bottom.y + bottom[2]
            return "slide" if below <= self.world.shape(other).y else None
        return "bounce" if self.kinds[item] == "ball" else "slide"

    def _pair_filter(self, a: Any, b: Any) -> str | None:
        """``step``'s filter: the pair asked as ``move`` asks it, the mover first."""
        if self.kinds[a] in ("player", "ball"):
            return self._filter(a, b)
        return self._filter(b, a)

    # -- stepping ----------------------------------------------------------------------------
    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN:
            if event.key in (pygame.K_UP, pygame.K_w, pygame.K_SPACE) and self.on_ground:
                self.jump = True
                self.on_ground = False
            elif event.key == pygame.K_s:
                self.switch()
            elif event.key == pygame.K_g:
                self.dig()
            elif event.key == pygame.K_r:
                self.reset()
            elif event.key == pygame.K_l:
                self.level = "tiles" if self.level == "slopes" else "slopes"
                self.reset()

    def dig(self) -> None:
        """Erase a hole in the hill under the player and update it in the world."""
        player = self.player()
        hole = Mask((24, 30), fill=True)
        self.hill.mask.erase(
            hole, (int(player.x - self.hill.x) - 5, int(player.y + player.h - self.hill.y) - 6)
        )
        self.world.update("hill", self.hill)

    def switch(self) -> None:
        """From ``move`` to ``step`` or back, keeping every velocity."""
        self.stepping = not self.stepping
        world = self.world
        if self.stepping:  # the velocities move into the world
            world.set_velocity("player", self.velocity)
            for ball, velocity in self.balls.items():
                world.set_velocity(ball, velocity)
        else:
            self.velocity = world.velocity("player")
            for ball in self.balls:
                self.balls[ball] = world.velocity(ball)

    def update(self, dt: float, keys: Input) -> None:
        direction = (keys.pressed(pygame.K_RIGHT) or keys.pressed(pygame.K_d)) - (
            keys.pressed(pygame.K_LEFT) or keys.pressed(pygame.K_a)
        )
        vx = WALK * direction
        if self.stepping:
            self._step(dt, vx)
            return
        vy = -JUMP if self.jump else min(self.velocity.y + GRAVITY * dt, 900.0)
        self.jump = False
        player = self.player()
        before = math.floor((player.x + player.w) / TILE)
        goal = (player.x + vx * dt, player.y + vy * dt)
        if self.slopes is not None:
            self.slopes.turn_bar(dt)
            (x, _), cols, landed = self.slopes.move_player(goal, self._filter)
        else:
            (x, _), cols = self.world.move("player", goal, self._filter)
            landed = any(c.normal.y < 0 and c.response == "slide" for c in cols)
        self.tests = self.world.stats.tests
        self.on_ground = False
        if landed:
            self.landings += 1
            self.on_ground = True
            vy = 0.0
        if any(c.normal.y > 0 and c.response == "slide" for c in cols):
            vy = max(vy, 0.0)  # bumped a ceiling
        for col in cols:
            if col.response == "cross" and col.other in self.world:
                self.world.remove(col.other)
                self.collected += 1
        self.contacts = [c for c in cols if c.response != "cross"] or self.contacts
        if self.contacts:
            self.marks = [(self._touch_point(c), c.normal) for c in self.contacts]
            self.lines = [
                f"  {c.other}: {c.response} at fraction {c.fraction:.3f}, "
                f"normal ({_short(c.normal.x)}, {_short(c.normal.y)})"
                for c in self.contacts[:4]
            ]
        self.velocity = Vec2(vx, vy)
        self.seams_crossed += abs(math.floor((x + player.w) / TILE) - before) if landed else 0
        self._move_balls(dt)

    def _step(self, dt: float, vx: float) -> None:
        """Everything at once: one ``World.step`` with gravity and the pair filter."""
        world = self.world
        if self.slopes is not None:
            self.slopes.turn_bar(dt)
        vy = -JUMP if self.jump else min(world.velocity("player").y, 900.0)
        self.jump = False
        world.set_velocity("player", (vx, vy))
        player = self.player()
        before = math.floor((player.x + player.w) / TILE)
        contacts, stats = world.step(dt, gravity=(0.0, GRAVITY), filter=self._pair_filter)
        self.tests = stats.predictions
        mine = [c for c in contacts if "player" in (c.a, c.b)]
        self.on_ground = False
        for contact in mine:
            other = contact.other("player")
            if contact.response == "cross" and self.kinds.get(other) == "coin":
                if other in world:
                    world.remove(other)
                    self.collected += 1
            elif contact.response == "slide" and contact.normal_for("player").y < 0:
                self.on_ground = True
        if self.on_ground:
            self.landings += 1
            after = math.floor((self.player().x + player.w) / TILE)
            self.seams_crossed += abs(after - before)
        stops = [c for c in mine if c.response != "cross"]
        if stops:
            self.marks = [(c.point, c.normal_for("player")) for c in stops]
            self.lines = [
                f"  {c.other('player')}: {c.response} at time {c.time:.4f}, normal for the "
                f"player ({_short(c.normal_for('player').x)}, {_short(c.normal_for('player').y)})"
                for c in stops[:4]
            ]
        w, _ = self.size
        for ball in self.balls:  # back in from the left and right edges
            circle = world.shape(ball)
            if not 0 < circle.x < w:
                world.update(ball, (min(max(circle.x, 10.0), w - 10.0), circle.y))
                velocity = world.velocity(ball)
                world.set_velocity(ball, (-velocity.x, velocity.y))

    def _touch_point(self, col: Collision) -> Vec2:
        """Where the player touches at a move's contact (the middle of its side)."""
        x, y = col.touch
        shape = self.player()
        centre = Vec2(x + shape.w / 2, y + shape.h / 2)
        return centre - Vec2(col.normal.x * shape.w / 2, col.normal.y * shape.h / 2)

    def _move_balls(self, dt: float) -> None:
        w, _ = self.size
        for ball, velocity in self.balls.items():
            circle = self.world.shape(ball)
            vx, vy = velocity.x, velocity.y + GRAVITY * 0.5 * dt
            goal = (circle.x + vx * dt, circle.y + vy * dt)
            (x, y), cols = self.world.move(ball, goal, self._filter)
            for col in cols:  # reflect the velocity as the move reflected the motion
                along = vx * col.normal.x + vy * col.normal.y
                if along < 0:
                    vx, vy = vx - 2 * along * col.normal.x, vy - 2 * along * col.normal.y
            if not 0 < x < w:
                self.world.update(ball, (min(max(x, 10.0), w - 10.0), y))
                vx = -vx
            self.balls[ball] = Vec2(vx, vy * 0.999)

    # -- drawing ------------------------------------------------------------------------------
    def draw(self, surface: pygame.Surface) -> None:
        colours = {"tile": TILE_COLOUR, "one-way": ONE_WAY_COLOUR, "coin": COIN_COLOUR,
                   "player": PLAYER_COLOUR}  # fmt: skip
        for item in self.world:
            shape = self.world.shape(item)
            kind = self.kinds[item]
            if self.slopes is not None and self.slopes.draw(surface, item, shape):
                continue
            if isinstance(shape, PlacedMask):
                self._draw_mask(surface, shape)
            elif isinstance(shape, Circle):
                pygame.draw.circle(surface, BALL_COLOUR, (shape.x, shape.y), shape.r)
            else:
                width = 1 if kind == "one-way" else 0
                pygame.draw.rect(surface, colours[kind], pygame.FRect(*shape), width)
        for point, normal in self.marks:
            pygame.draw.circle(surface, CONTACT, point, 4)
            pygame.draw.line(surface, CONTACT, point, point + normal * 18, 2)

    def _draw_mask(self, surface: pygame.Surface, placed: PlacedMask) -> None:
        bits = placed.mask.bits
        image = np.zeros((*bits.T.shape, 3), dtype=np.uint8)
        image[bits.T] = HILL_COLOUR
        picture = pygame.surfarray.make_surface(image)
        picture.set_colorkey((0, 0, 0))
        surface.blit(picture, (placed.x, placed.y))

    def hud(self) -> list[str]:
        how = (
            f"World.step: everything at once, {self.tests} pair predictions"
            if self.stepping
            else f"World.move: one item after another; the player's made {self.tests} exact tests"
        )
        if self.slopes is not None and not self.stepping:
            how = f"walk (snap and step up) on World.move; {self.tests} exact tests"
        return [
            f"{self.level}: coins: {self.collected}   on the ground: {self.on_ground}   "
            f"world: {len(self.world)} items   {how}",
            "last contacts of the player (red: touch point and normal):",
            *self.lines,
        ]

    def script(self, frame: int) -> tuple[list[pygame.event.Event], Input]:
        # Fall onto the floor, walk right across the tile seams to a coin, jump once.
        events = []
        if frame == 150:
            events.append(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_SPACE))
        held = [pygame.K_RIGHT] if 40 <= frame < 190 else []
        return events, Input(held)


class SlopesDemo(PlatformerDemo):
    """The platformer's slopes level run by ``World.step``: the player, a ball, ramps of
    polygon pieces, a pixel hill and a turning bar in one step a frame."""

    name = "slopes"
    title = "slopes: ramps, a pixel hill, a turning bar and a ball in one World.step a frame"

    def __init__(self, size: tuple[int, int] = (960, 640)) -> None:
        super().__init__(size)
        self.level = "slopes"
        self.stepping = True
        self.reset()

    def script(self, frame: int) -> tuple[list[pygame.event.Event], Input]:
        # Walk right from the floor onto the ramp's foot, up its pieces to the plateau.
        return [], Input([pygame.K_RIGHT] if frame >= 10 else [])
