"""collide2d: exact 2D collision detection for games and simulations.

The public surface is listed in ``__all__``; everything else is private.

Examples
--------
>>> from collide2d import Rect, Circle, overlaps, sweep
>>> overlaps(Rect(0, 0, 10, 10), Rect(5, 5, 10, 10))
True
>>> sweep(Circle(0, 0, 5), (20, 0), Rect(15, -5, 10, 10)).fraction
0.5
"""

from collide2d.geometry import (
    Circle,
    Rect,
    Segment,
    Vec2,
    circle_rect_overlap,
    circles_overlap,
    overlaps,
    rects_overlap,
)
from collide2d.sweep import Hit, RayHit, raycast, sweep

__version__ = "0.1.0"

__all__ = [
    "Circle",
    "Hit",
    "RayHit",
    "Rect",
    "Segment",
    "Vec2",
    "__version__",
    "circle_rect_overlap",
    "circles_overlap",
    "overlaps",
    "raycast",
    "rects_overlap",
    "sweep",
]
