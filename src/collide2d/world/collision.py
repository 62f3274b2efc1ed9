"""The records the World returns: a ``Collision``, a ``Movement``, a ``SegmentHit``."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any, NamedTuple

from collide2d.geometry.vec2 import Vec2
from collide2d.shapes import AnyShape

Item = Hashable
"""Anything hashable can be an item."""
Filter = Callable[[Any, Any], Any]
"""``filter(item, other) -> response name | None | False``."""


class Collision(NamedTuple):
    """One contact found while projecting an item's shape toward a goal.

    Attributes
    ----------
    item : hashable or None
        The moving item (None for a projection of a shape not in the world).
    other : hashable
        The item it met.
    response : str
        The response the filter chose (``"slide"``, ``"touch"``, ``"cross"``,
        ``"bounce"`` or a custom one).
    fraction : float
        In ``[0, 1)``: how far along this projection's ``delta`` the contact is;
        ``0.0`` when the shapes already overlapped.
    normal : Vec2
        Unit normal of the surface met, from ``other`` toward ``item``; an axis for
        rectangles and pixels. A step's contact gives the same normal for each of its
        two bodies with :meth:`Contact.normal_for(item) <collide2d.Contact.normal_for>`.
    touch : Vec2
        Where the item's ``(x, y)`` is at the contact (a Rect's top-left corner, a
        Circle's centre, a PlacedMask's offset). For a contact that started
        overlapped, the position after the minimum translation out of ``other``.
        Snapped so that the item there does not overlap ``other``.
    delta : Vec2
        The projection's translation, goal minus start.
    item_shape : Rect, Circle, PlacedMask or PlacedPolygon
        The item's shape at the start of the projection that found the contact.
    other_shape : Rect, Circle, PlacedMask or PlacedPolygon
        ``other``'s shape.
    started_overlapping : bool
        Whether the two already overlapped at the start of the projection.
    slide : Vec2 or None
        With the ``slide`` response, the goal after sliding; else None.
    bounce : Vec2 or None
        With the ``bounce`` response, the goal after bouncing; else None.
    """

    item: Item | None
    other: Item
    response: str
    fraction: float
    normal: Vec2
    touch: Vec2
    delta: Vec2
    item_shape: AnyShape
    other_shape: AnyShape
    started_overlapping: bool
    slide: Vec2 | None = None
    bounce: Vec2 | None = None


class Movement(NamedTuple):
    """Where a move ends and what it met on the way; unpacks as ``position, collisions``.

    Attributes
    ----------
    position : Vec2
        The item's final ``(x, y)``.
    collisions : list of Collision
        The contacts the move responded to, in the order they happened (with the
        other contacts each one had at the same moment, see ``docs/world.md``).
    """

    position: Vec2
    collisions: list[Collision]


class SegmentHit(NamedTuple):
    """Where a segment crosses an item (``World.query_segment_hits``).

    Attributes
    ----------
    item : hashable
        The item crossed.
    fraction, exit_fraction : float
        Where the segment enters and leaves the item, as fractions of the segment
        clipped to ``[0, 1]`` (0 when it starts inside, 1 when it ends inside).
    point, exit_point : Vec2
        The points at those fractions.
    """

    item: Item
    fraction: float
    exit_fraction: float
    point: Vec2
    exit_point: Vec2
