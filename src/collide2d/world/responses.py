"""The four built-in responses: what a move does after a contact.

A response is a plain function ``fn(world, collision, shape, goal, filter) ->
(new_goal, collisions)``, as in bump.lua: ``shape`` is the item at the start of the
move, ``goal`` where it is heading, ``filter`` the move's filter (it skips what the
move already crossed); it returns the new goal and the sorted collisions of the
next projection, or ``[]`` to stop. ``World.add_response`` registers more.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Protocol

from collide2d._kernels.codes import SNAP_STEPS
from collide2d.geometry.vec2 import Vec2
from collide2d.shapes import AnyShape, sweep
from collide2d.world.collision import Collision, Filter, Item
from collide2d.world.contact import at, corner_normal


class Projector(Protocol):
    """What a response needs of the World: its projection."""

    def project(
        self,
        shape: AnyShape,
        goal: tuple[float, float] | None = None,
        filter: Filter | None = None,
        *,
        item: Item | None = None,
    ) -> list[Collision]: ...


Response = Callable[[Projector, Collision, AnyShape, Vec2, Filter], tuple[Vec2, list[Collision]]]


def touch(
    world: Projector, col: Collision, shape: AnyShape, goal: Vec2, filter: Filter
) -> tuple[Vec2, list[Collision]]:
    """Stop at the contact."""
    return col.touch, []


def cross(
    world: Projector, col: Collision, shape: AnyShape, goal: Vec2, filter: Filter
) -> tuple[Vec2, list[Collision]]:
    """Pass through: the leg in progress goes on (its fractions unchanged), without
    what was crossed."""
    return goal, world.project(col.item_shape, goal, filter, item=col.item)


def slide(
    world: Projector, col: Collision, shape: AnyShape, goal: Vec2, filter: Filter
) -> tuple[Vec2, list[Collision]]:
    """Keep going from the contact without the part of the remaining motion that goes
    into the surface: for an axis normal that coordinate stays at the contact (as in
    bump.lua); for any other normal (a slope, a round contact) the normal component
    is removed, and the new goal is moved off the surface by as many units in the
    last place as it takes for the new leg not to meet it again (see
    :func:`off_the_face`)."""
    new_goal = slid(col.touch, goal, col.normal)
    leg = at(col.item_shape, col.touch[0], col.touch[1])
    if col.normal[0] and col.normal[1] and new_goal != col.touch:
        new_goal = off_the_face(leg, new_goal, col.other_shape, col.normal)
    return new_goal, world.project(leg, new_goal, filter, item=col.item)


def bounce(
    world: Projector, col: Collision, shape: AnyShape, goal: Vec2, filter: Filter
) -> tuple[Vec2, list[Collision]]:
    """Keep going from the contact with the remaining motion reflected about the
    surface (the whole remainder, as in bump.lua). A still item pushed out of an
    overlap stops where it was pushed: there is no motion to reflect (bump.lua too)."""
    leg = at(col.item_shape, col.touch[0], col.touch[1])
    if col.delta[0] == 0.0 and col.delta[1] == 0.0:
        return col.touch, world.project(leg, col.touch, filter, item=col.item)
    new_goal = bounced(col.touch, goal, col.normal)
    return new_goal, world.project(leg, new_goal, filter, item=col.item)


def slid(touch: Vec2, goal: Vec2, normal: Vec2) -> Vec2:
    """The goal after sliding from ``touch`` along a surface of ``normal``."""
    rx, ry = goal[0] - touch[0], goal[1] - touch[1]
    into = rx * normal[0] + ry * normal[1]
    if into >= 0.0:  # parallel to the surface, or already leaving it
        return goal
    if normal[1] == 0.0:
        return Vec2(touch[0], goal[1])
    if normal[0] == 0.0:
        return Vec2(goal[0], touch[1])
    return Vec2(goal[0] - normal[0] * into, goal[1] - normal[1] * into)


def off_the_face(leg: AnyShape, goal: Vec2, other: AnyShape, normal: Vec2) -> Vec2:
    """``goal`` (where a slide along a face of ``other`` of ``normal`` heads from
    ``leg``), moved along ``normal`` by units in the last place, twice as far each
    time, until the leg toward it no longer meets ``other`` through that face.

    The slid goal removes the normal component in floats: the exact motion can keep
    a part into a sloped face as small as rounding, and the next projection would
    meet the same face at once, slide by nothing, and again, to the response cap.
    The exact sweep is the judge, as the exact overlap test is for ``snap``."""
    x0, y0 = leg.x, leg.y
    gx, gy = goal
    step_x, step_y = math.ulp(gx), math.ulp(gy)
    for _ in range(SNAP_STEPS):
        delta = (gx - x0, gy - y0)
        hit = sweep(leg, delta, other)
        if hit is None or hit.started_overlapping:
            break
        met = hit.normal
        if met != normal:  # a vertex meeting a vertex: the World's normal for it
            met = corner_normal(leg, delta, other) or met
        if met != normal:
            break
        gx += math.copysign(step_x, normal[0])
        gy += math.copysign(step_y, normal[1])
        step_x *= 2.0
        step_y *= 2.0
    return Vec2(gx, gy)


def bounced(touch: Vec2, goal: Vec2, normal: Vec2) -> Vec2:
    """The goal after bouncing at ``touch`` off a surface of ``normal``."""
    rx, ry = goal[0] - touch[0], goal[1] - touch[1]
    into = rx * normal[0] + ry * normal[1]
    if into >= 0.0:
        return goal
    if normal[1] == 0.0:
        return Vec2(touch[0] - rx, goal[1])
    if normal[0] == 0.0:
        return Vec2(goal[0], touch[1] - ry)
    return Vec2(goal[0] - 2.0 * normal[0] * into, goal[1] - 2.0 * normal[1] * into)


BUILT_IN: dict[str, Response] = {"touch": touch, "cross": cross, "slide": slide, "bounce": bounce}
"""The responses every World starts with."""
