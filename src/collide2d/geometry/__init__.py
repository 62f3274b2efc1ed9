"""Exact geometry in plain Python: the executable specification of collide2d."""

from collide2d.geometry.circle import Circle
from collide2d.geometry.overlap import (
    Shape,
    overlaps,
    overlaps_circle_circle,
    overlaps_circle_rect,
    overlaps_rect_rect,
)
from collide2d.geometry.placed_polygon import PlacedPolygon
from collide2d.geometry.polygon import Polygon
from collide2d.geometry.rect import Rect
from collide2d.geometry.segment import Segment
from collide2d.geometry.vec2 import Vec2

__all__ = [
    "Circle",
    "PlacedPolygon",
    "Polygon",
    "Rect",
    "Segment",
    "Shape",
    "Vec2",
    "overlaps",
    "overlaps_circle_circle",
    "overlaps_circle_rect",
    "overlaps_rect_rect",
]
