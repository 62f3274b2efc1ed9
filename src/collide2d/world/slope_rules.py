"""Two of the rules that make slopes behave in the World's check loop (the others
live where they act: ``responses.off_the_face``, ``contact.corner_normal``); see
docs/world.md, "Slopes and rotated bodies"."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from collide2d._kernels.codes import ROUNDING_STEPS
from collide2d.geometry.placed_polygon import PlacedPolygon
from collide2d.geometry.rect import Rect
from collide2d.geometry.vec2 import Vec2
from collide2d.shapes import AnyShape, overlaps
from collide2d.world.collision import Collision, Item
from collide2d.world.contact import at, bounds, position, snap


def wedged(collisions: list[Collision], col: Collision, goal: Vec2) -> bool:
    """Whether a slide at ``col`` is caught in a wedge: the slide before it stopped on
    another face, this contact came at once (fraction 0: the item touches both), and
    the slid motion goes back into that face. In 2D two faces that both hold the item
    leave it no way along either: it stops there. (Sliding on, it would zig-zag
    between them, each slide shorter, to the response cap; faces along the axes never
    come here, their slides zero a coordinate exactly.)"""
    if not collisions or col.fraction != 0.0 or col.started_overlapping:
        return False
    last = collisions[-1]
    if last.response != "slide" or last.normal == col.normal:
        return False
    nx, ny = last.normal
    return (goal[0] - col.touch[0]) * nx + (goal[1] - col.touch[1]) * ny < 0.0


def clear_rounded_end(
    candidates: Callable[[Rect], list[Item]],
    shapes: Mapping[Item, AnyShape],
    stops_at: Callable[[Item | None, Item], bool],
    item: Item,
    shape: AnyShape,
    end: Vec2,
    collisions: list[Collision],
    rank: Callable[[Item], int],
) -> Vec2:
    """``end``, snapped clear of a polygon the item would stop at and overlaps by
    rounding alone: the item is placed at ``end`` with its edges rounded there (a
    Rect's ``x + w``, a placed polygon's vertices), which can differ by an ulp from
    the outline the last leg swept exactly, and a sloped face next to the path (the
    next piece of a ramp) is then entered by an ulp. Only a few units in the last
    place are tried, along the last stop's normal (or back along the motion): a
    deeper overlap is not rounding and is left as it is. The candidates are taken
    in the order they were added (``rank``: an item's place in it), as the compiled
    moves take them."""
    there = at(shape, end[0], end[1])
    if collisions:
        normal = collisions[-1].normal
    else:
        x0, y0 = position(shape)
        normal = Vec2(_sign(x0 - end[0]), _sign(y0 - end[1]))
    if normal == (0.0, 0.0):
        return end
    for other in sorted(candidates(bounds(there)), key=rank):
        other_shape = shapes[other]
        if other == item or (
            type(other_shape) is not PlacedPolygon and type(shape) is not PlacedPolygon
        ):
            continue
        if not overlaps(there, other_shape) or not stops_at(item, other):
            continue
        moved = snap(shape, end, other_shape, normal, steps=ROUNDING_STEPS)
        if not overlaps(at(shape, moved[0], moved[1]), other_shape):
            end, there = moved, at(shape, moved[0], moved[1])
    return end


def _sign(value: float) -> float:
    return 1.0 if value > 0.0 else -1.0 if value < 0.0 else 0.0
