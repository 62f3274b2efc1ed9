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

from collide2d.batch import (
    BatchStats,
    overlapping_circle_pairs,
    overlapping_pairs,
    points_in_boxes,
    query_pairs,
)
from collide2d.broadphase import (
    Broadphase,
    BroadphaseStats,
    BruteForce,
    DuplicateKeyError,
    Quadtree,
    SortAndSweep,
    UniformGrid,
    UnknownKeyError,
)
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
from collide2d.mask import Mask, MaskHit, PlacedMask
from collide2d.sweep import Hit, RayHit, raycast, sweep

__version__ = "0.1.0"

__all__ = [
    "BatchStats",
    "Broadphase",
    "BroadphaseStats",
    "BruteForce",
    "Circle",
    "DuplicateKeyError",
    "Hit",
    "Mask",
    "MaskHit",
    "PlacedMask",
    "Quadtree",
    "RayHit",
    "Rect",
    "Segment",
    "SortAndSweep",
    "UniformGrid",
    "UnknownKeyError",
    "Vec2",
    "__version__",
    "circle_rect_overlap",
    "circles_overlap",
    "overlapping_circle_pairs",
    "overlapping_pairs",
    "overlaps",
    "points_in_boxes",
    "query_pairs",
    "raycast",
    "rects_overlap",
    "sweep",
]
