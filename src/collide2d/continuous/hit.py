"""Result records of continuous tests: sweeps (``Hit``) and ray casts (``RayHit``)."""

from __future__ import annotations

from typing import NamedTuple

from collide2d import _deprecation
from collide2d.geometry.vec2 import Vec2


class Hit(NamedTuple):
    """The first contact of a sweep, of any two shapes.

    Attributes
    ----------
    fraction : float
        In ``[0, 1)``: the first moment of the frame from which the shapes overlap.
        The mover's allowed motion is ``a_delta * fraction``.
    normal : Vec2
        Unit normal of the surface hit, pointing from the obstacle back toward the
        mover. For rectangles and pixels an axis; an exact corner hit reports the x
        axis.
    point : Vec2
        A point of contact at that moment. Through :func:`collide2d.sweep`, in world
        coordinates; through a :class:`~collide2d.Mask` method, in the coordinates of
        the mask whose method was called (its top-left corner is ``(0, 0)`` at the
        start of the frame).
    started_overlapping : bool
        True when the shapes already overlap at the start of the frame (then
        ``fraction == 0`` and ``normal`` is the direction of least penetration).
    pixel : tuple of int or None
        When the mover is a mask: its pixel (or, at a coarse level, node corner) that
        met, in its own coordinates; otherwise None.
    other_pixel : tuple of int or None
        When the obstacle is a mask: its pixel (or node corner) that met, in its own
        coordinates; otherwise None.
    depth : float
        When ``started_overlapping`` and a polygon is involved: how far the mover
        must move along ``normal`` to stop overlapping (the shortest such push is
        ``normal * depth``); otherwise ``0.0``.
    """

    fraction: float
    normal: Vec2
    point: Vec2
    started_overlapping: bool
    pixel: tuple[int, int] | None = None
    other_pixel: tuple[int, int] | None = None
    depth: float = 0.0


class RayHit(NamedTuple):
    """Where a segment ``origin + delta * fraction`` enters a shape.

    Attributes
    ----------
    fraction : float
        In ``[0, 1)``: where the segment enters the shape's interior.
    exit_fraction : float
        Where the line leaves the interior; may be ``>= 1`` when the segment ends
        inside, and is ``inf`` for a zero ``delta`` that starts inside.
    normal : Vec2
        Unit normal of the surface entered, pointing back toward the origin
        (for a rectangle an axis; an exact corner hit reports the x axis).
    point : Vec2
        ``origin + delta * fraction``.
    started_overlapping : bool
        True when the origin lies inside the shape (then ``fraction == 0`` and
        ``normal`` points out of the nearest side).
    """

    fraction: float
    exit_fraction: float
    normal: Vec2
    point: Vec2
    started_overlapping: bool

    @property
    def started_inside(self) -> bool:
        """Deprecated: ``started_overlapping``."""
        _deprecation.warn("RayHit.started_inside", "RayHit.started_overlapping", stacklevel=3)
        return self.started_overlapping
