"""Exact geometry in plain Python: the executable specification of collide2d."""

from collide2d.geometry.circle import Circle
from collide2d.geometry.overlap import circle_rect_overlap, circles_overlap, overlaps, rects_overlap
from collide2d.geometry.rect import Rect
from collide2d.geometry.segment import Segment
from collide2d.geometry.vec2 import Vec2

__all__ = [
    "Circle",
    "Rect",
    "Segment",
    "Vec2",
    "circle_rect_overlap",
    "circles_overlap",
    "overlaps",
    "rects_overlap",
]
