"""A convex polygon with a position: what the World adds, moves and turns.

A :class:`PlacedPolygon` is a polygon given in its own coordinates (about an
anchor at its origin) and the point ``(x, y)`` where that anchor stands. Its
*position* is ``(x, y)``, as a ``Rect``'s is its top-left corner and a
``PlacedMask``'s its offset: a move's goal names it and stays exact (moving to
``(x, y)`` puts the anchor at ``(x, y)``, not near it). The outline in the world is
each vertex plus ``(x, y)``, rounded once; every test on a placed polygon is the
exact test on that outline.
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

from collide2d.geometry import _checks
from collide2d.geometry.polygon import Polygon
from collide2d.geometry.rect import Rect
from collide2d.geometry.vec2 import Vec2


class _PlacedFields(NamedTuple):
    polygon: Polygon
    x: float
    y: float


class PlacedPolygon(_PlacedFields):
    """``polygon`` with its origin (its anchor) at ``(x, y)`` in the world.

    Attributes
    ----------
    polygon : Polygon
        The outline about the anchor (shared, not copied): ``Polygon.box(0, 0, w,
        h, angle)`` anchors a box at its centre.
    x, y : float
        Where the anchor stands: the position a ``World.move`` goal names.

    Raises
    ------
    TypeError
        If ``polygon`` is not a :class:`~collide2d.Polygon`.
    ValueError
        If ``x`` or ``y`` is not finite, or the outline at ``(x, y)``, rounded,
        is no longer a convex polygon (a polygon a few units in the last place
        across, placed far out).

    Examples
    --------
    >>> crate = PlacedPolygon(Polygon.box(0, 0, 4, 2), 10, 5)   # centred at (10, 5)
    >>> crate.outline.vertices[:2]
    (Vec2(x=8.0, y=4.0), Vec2(x=12.0, y=4.0))
    >>> crate.bounding_rect
    Rect(x=8.0, y=4.0, w=4.0, h=2.0)
    >>> crate.moved((1, 0)).x
    11.0
    >>> PlacedPolygon.box(10, 5, 4, 2) == crate
    True
    >>> import math
    >>> crate.turned(math.pi / 2).bounding_rect      # a quarter turn about (10, 5)
    Rect(x=9.0, y=3.0, w=2.0, h=4.0)
    """

    __slots__ = ()

    def __new__(cls, polygon: Polygon, x: float = 0.0, y: float = 0.0) -> PlacedPolygon:
        if not isinstance(polygon, Polygon):
            raise TypeError(f"polygon must be a Polygon, got {polygon!r}")
        placed = tuple.__new__(cls, (polygon, _checks.real(x, "x"), _checks.real(y, "y")))
        placed_outline(placed)  # checked once, here, and kept
        return placed

    @classmethod
    def box(cls, cx: float, cy: float, w: float, h: float, angle: float = 0.0) -> PlacedPolygon:
        """A ``w`` by ``h`` box turned by ``angle``, anchored at its centre ``(cx, cy)``:
        ``PlacedPolygon(Polygon.box(0, 0, w, h, angle), cx, cy)``."""
        cx = _checks.real(cx, "cx")
        cy = _checks.real(cy, "cy")
        return cls(Polygon.box(0.0, 0.0, w, h, angle), cx, cy)

    def turned(self, angle: float) -> PlacedPolygon:
        """The polygon turned by ``angle`` radians (x toward y) about its anchor, the
        anchor where it is. Each turn rounds the vertices: a body that turns every
        frame keeps its first polygon and turns that by the angle so far."""
        return PlacedPolygon(self.polygon.rotated(angle, about=(0.0, 0.0)), self.x, self.y)

    @property
    def outline(self) -> Polygon:
        """The polygon in world coordinates (each vertex plus ``(x, y)``, rounded
        once; made on first use and kept for the last few thousand placements)."""
        return placed_outline(self)

    @property
    def vertices(self) -> tuple[Vec2, ...]:
        """The outline's vertices in world coordinates."""
        return placed_outline(self).vertices

    @property
    def bounding_rect(self) -> Rect:
        """The smallest ``Rect`` that contains the outline."""
        return placed_outline(self).bounding_rect

    def moved(self, delta: tuple[float, float]) -> PlacedPolygon:
        """The same polygon with its anchor moved by ``delta`` (rounded once)."""
        dx, dy = _checks.point(delta, "delta")
        return PlacedPolygon(self.polygon, self.x + dx, self.y + dy)


@lru_cache(maxsize=4096)
def placed_outline(placed: PlacedPolygon) -> Polygon:
    """``placed``'s outline in world coordinates, or a ``ValueError`` when rounding
    the placed vertices leaves no convex polygon."""
    polygon, x, y = placed
    if x == 0.0 and y == 0.0:
        return polygon
    try:
        return Polygon([(vx + x, vy + y) for vx, vy in polygon.vertices])
    except ValueError as error:
        raise ValueError(
            f"the polygon placed at ({x!r}, {y!r}) is no longer convex once its vertices"
            f" are rounded there ({error}): it is too small for coordinates this large"
        ) from None
