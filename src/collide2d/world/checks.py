"""Checking what the World is given: shapes, goals, filters."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from collide2d.geometry import _checks
from collide2d.geometry.circle import Circle
from collide2d.geometry.placed_polygon import PlacedPolygon
from collide2d.geometry.polygon import Polygon
from collide2d.geometry.rect import Rect
from collide2d.geometry.rect_like import RECT_LIKE, described, rect_like
from collide2d.geometry.vec2 import Vec2
from collide2d.mask.placed import PlacedMask
from collide2d.shapes import AnyShape
from collide2d.world.collision import Filter, Item
from collide2d.world.contact import bounds

QueryFilter = Callable[[Any], Any]
"""``filter(item) -> bool``."""


def slide_all(item: Any, other: Any) -> str:
    """The default filter: ``slide`` against everything."""
    return "slide"


def checked_shape(shape: object, name: str) -> AnyShape:
    """``shape`` re-checked by its constructor (a NamedTuple's ``_replace`` skips the
    checks), or a ``TypeError`` naming ``name``. A plain ``Polygon`` is taken as
    placed at ``(0, 0)``: its vertices where they are, its position ``(0, 0)``."""
    if isinstance(shape, Rect):
        return Rect(*shape)
    if isinstance(shape, Circle):
        return Circle(*shape)
    if isinstance(shape, PlacedMask):
        return PlacedMask(*shape)
    if isinstance(shape, PlacedPolygon):
        return PlacedPolygon(*shape)
    if isinstance(shape, Polygon):
        return PlacedPolygon(shape, 0.0, 0.0)
    rect = rect_like(shape, name)
    if rect is not None:
        return rect
    raise TypeError(
        f"{name} must be a Rect, a Circle, a PlacedMask, a Polygon, a PlacedPolygon or"
        f" {RECT_LIKE}, got {described(shape)}"
    )


def index_shape(shape: AnyShape) -> Rect | Circle:
    """What the broadphase holds for a shape: itself, or a mask's or a polygon's
    bounds."""
    if type(shape) is PlacedMask or type(shape) is PlacedPolygon:
        return bounds(shape)
    return shape  # type: ignore[return-value]


def outward(left: float, top: float, right: float, bottom: float) -> Rect:
    """A rectangle holding the box ``left, top, right, bottom`` for sure: each edge
    moved out by two units in the last place, past any rounding of ``x + w``."""
    left = math.nextafter(math.nextafter(left, -math.inf), -math.inf)
    top = math.nextafter(math.nextafter(top, -math.inf), -math.inf)
    right = math.nextafter(math.nextafter(right, math.inf), math.inf)
    bottom = math.nextafter(math.nextafter(bottom, math.inf), math.inf)
    return Rect(
        left, top, math.nextafter(right - left, math.inf), math.nextafter(bottom - top, math.inf)
    )


_INF = math.inf


def plain_goal(goal: object) -> Vec2 | None:
    """``goal`` as a ``Vec2`` where it is a ``Vec2`` or a tuple of two finite floats
    (what a frame loop makes), taken as it is at a tenth of the cost of the full
    check; else None."""
    kind = type(goal)
    if (kind is tuple or kind is Vec2) and len(goal) == 2:  # type: ignore[arg-type]
        x: object
        y: object
        x, y = goal  # type: ignore[misc]
        if type(x) is float and type(y) is float and -_INF < x < _INF and -_INF < y < _INF:
            return goal if kind is Vec2 else tuple.__new__(Vec2, goal)  # type: ignore[arg-type, return-value]
    return None


def checked_goal(goal: object) -> Vec2:
    """``goal`` as a ``Vec2`` of finite floats, or an error naming it."""
    return plain_goal(goal) or _checks.point(goal, "goal")


def checked_goals(goals: dict[Item, object]) -> dict[Item, tuple[float, float]]:
    """Every goal of a ``move_all`` checked, as :func:`checked_goal` does (a plain goal
    is kept as it is: a tuple or a ``Vec2``)."""
    return {
        item: goal if plain_goal(goal) is not None else _checks.point(goal, "goal")  # type: ignore[misc]
        for item, goal in goals.items()
    }


def checked_filter(filter: Filter | None) -> Filter:
    if filter is None:
        return slide_all
    if not callable(filter):
        raise TypeError(f"filter must be callable, got {filter!r}")
    return filter


def checked_query_filter(filter: QueryFilter | None) -> QueryFilter:
    if filter is None:
        return lambda item: True
    if not callable(filter):
        raise TypeError(f"filter must be callable, got {filter!r}")
    return filter
