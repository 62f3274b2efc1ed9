"""collide2d: exact 2D collision detection for games and simulations.

The public surface is listed in ``__all__``; everything else is private.

The map of the library, one line each:

- shapes: ``Rect(x, y, w, h)``, ``Circle(x, y, r)``, ``Vec2``, ``Segment``, and a pixel
  ``Mask`` placed in the world as ``PlacedMask(mask, x, y)``;
- any two shapes: ``overlaps(a, b)``, ``sweep(a, a_delta, b, b_delta)`` (the first
  moment of contact, a ``Hit``), ``raycast(origin, delta, shape)`` (a ``RayHit``);
- masks on their own: ``Mask.overlaps``, ``overlap_area``, ``overlap_mask``,
  ``sweep``, level-of-detail tests through ``Mask.quadtree()``;
- many shapes kept between frames: ``UniformGrid``, ``Quadtree``, ``SortAndSweep``,
  ``BruteForce`` (one ``Broadphase`` interface, ``stats`` on each);
- many shapes at once, as numpy arrays: ``overlapping_pairs``,
  ``overlapping_circle_pairs``, ``query_pairs``, ``query_points``.

Examples
--------
>>> from collide2d import Rect, Circle, overlaps, sweep
>>> overlaps(Rect(0, 0, 10, 10), Rect(5, 5, 10, 10))
True
>>> sweep(Circle(0, 0, 5), (20, 0), Rect(15, -5, 10, 10)).fraction
0.5
"""

from collide2d import _deprecation
from collide2d.batch import overlapping_circle_pairs, overlapping_pairs, query_pairs, query_points
from collide2d.batch.queries import deprecated_points_in_boxes
from collide2d.broadphase import (
    Broadphase,
    BruteForce,
    DuplicateKeyError,
    Quadtree,
    SortAndSweep,
    SortedStrips,
    UniformGrid,
    UnknownKeyError,
)
from collide2d.continuous.hit import Hit, RayHit
from collide2d.geometry import (
    Circle,
    Rect,
    Segment,
    Vec2,
    overlaps_circle_circle,
    overlaps_circle_rect,
    overlaps_rect_rect,
)
from collide2d.mask import Mask, PlacedMask
from collide2d.shapes import overlaps, raycast, sweep
from collide2d.stats import Stats
from collide2d.world import Collision, Contact, Movement, SegmentHit, StepResult, StepStats, World

__version__ = "0.1.0"

__all__ = [
    "Broadphase",
    "BruteForce",
    "Circle",
    "Collision",
    "Contact",
    "DuplicateKeyError",
    "Hit",
    "Mask",
    "Movement",
    "PlacedMask",
    "Quadtree",
    "RayHit",
    "Rect",
    "Segment",
    "SegmentHit",
    "SortAndSweep",
    "SortedStrips",
    "Stats",
    "StepResult",
    "StepStats",
    "UniformGrid",
    "UnknownKeyError",
    "Vec2",
    "World",
    "__version__",
    "overlapping_circle_pairs",
    "overlapping_pairs",
    "overlaps",
    "query_pairs",
    "query_points",
    "raycast",
    "sweep",
]

_RENAMED: dict[str, tuple[str, object]] = {
    "BatchStats": ("collide2d.Stats", Stats),
    "BroadphaseStats": ("collide2d.Stats", Stats),
    "MaskHit": ("collide2d.Hit (mask sweeps return a Hit with pixel fields)", Hit),
    "points_in_boxes": ("collide2d.query_points(boxes, points)", deprecated_points_in_boxes),
    "rects_overlap": ("collide2d.overlaps", overlaps_rect_rect),
    "circles_overlap": ("collide2d.overlaps", overlaps_circle_circle),
    "circle_rect_overlap": ("collide2d.overlaps", overlaps_circle_rect),
}


def __getattr__(name: str) -> object:
    return _deprecation.resolve(__name__, name, _RENAMED)
