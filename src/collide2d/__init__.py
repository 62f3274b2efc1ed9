"""collide2d: exact 2D collision detection for games and simulations.

The public surface is listed in ``__all__``; everything else is private.

The map of the library: what each part is for, and a line of code each.

Shapes (immutable values; screen space, y grows down):
    ``Rect(x, y, w, h)``, ``Circle(x, y, r)``, ``Vec2(x, y)``, ``Segment(start, end)``;
    convex polygons and rotated boxes: ``Polygon(points)``, ``Polygon.box(cx, cy, w, h, angle)``;
    a polygon with a position (its anchor), as the World moves it: ``PlacedPolygon(polygon, x, y)``;
    a pixel mask placed in the world: ``PlacedMask(Mask.from_array(pixels), x, y)``.

Any two shapes (rects, circles, polygons, segments, placed masks, in either order):
    ``overlaps(a, b)`` strict overlap; ``sweep(a, (dx, dy), b)`` the first moment of
    contact of a moving shape (both may move), a ``Hit`` with ``fraction`` and
    ``normal``; ``raycast((x, y), (dx, dy), shape)`` where a ray enters, a ``RayHit``.

Pixel masks (``collide2d.Mask``, pygame.mask's model, exact at fractional offsets):
    ``mask.overlaps(other, (ox, oy))``, ``overlap_area``, ``overlap_mask``,
    ``mask.sweep(other, offset, delta)``; coarse tests with ``max_level=``.

Many shapes kept between frames (one ``Broadphase`` interface, ``stats`` on each):
    ``grid = UniformGrid(64); grid.add(key, shape); grid.pairs()``; also
    ``Quadtree``, ``SortAndSweep``, ``SortedStrips``, ``BruteForce``.

Many shapes at once, as numpy arrays (compiled; millions of boxes):
    ``overlapping_pairs(boxes)`` with rows ``x, y, w, h``; ``overlapping_circle_pairs``,
    ``query_pairs(boxes, queries)``, ``query_points(boxes, points)``; rotated boxes
    (rows ``cx, cy, w, h, angle``) and polygons: ``overlapping_box_pairs``,
    ``overlapping_polygon_pairs``, ``query_box_pairs``, ``query_polygon_pairs``;
    moving ones with their exact first contacts: ``sweep_box_pairs``,
    ``sweep_polygon_pairs``.

A world of moving items, in bump.lua's model (``collide2d.World``):
    ``world.add("player", Rect(0, 0, 10, 20)); pos, cols = world.move("player", (5, 9))``
    with ``slide``, ``touch``, ``cross`` and ``bounce`` responses; polygons as
    ``PlacedPolygon`` items (slopes), ``walk(world, "player", goal, snap=4, step=6)``
    for a platformer's walker; ``world.step(dt)`` moves every body at once, earliest
    contact first, and never tunnels.

Beyond one machine (``collide2d.distributed``, needs dask):
    ``collide2d.distributed.overlapping_pairs("boxes/*.parquet")``, one machine's answer.

The command: ``collide2d demo`` (the pygame-ce demos), ``collide2d bench``,
``collide2d info``, ``collide2d warmup`` (compile every kernel ahead: numba compiles
each on its first call on a machine, then loads it from its cache).

Examples
--------
>>> from collide2d import Rect, Circle, World, overlaps, sweep
>>> overlaps(Rect(0, 0, 10, 10), Rect(5, 5, 10, 10))
True
>>> sweep(Circle(0, 0, 5), (20, 0), Rect(15, -5, 10, 10)).fraction
0.5
>>> world = World()
>>> world.add("floor", Rect(0, 20, 100, 10))
'floor'
>>> world.add("player", Rect(0, 0, 10, 10))
'player'
>>> world.move("player", (0, 30)).position   # lands on the floor
Vec2(x=0.0, y=10.0)
"""

from collide2d import _deprecation
from collide2d.batch import (
    PolygonSweeps,
    box_polygons,
    overlapping_box_pairs,
    overlapping_circle_pairs,
    overlapping_pairs,
    overlapping_polygon_pairs,
    query_box_pairs,
    query_pairs,
    query_points,
    query_polygon_pairs,
    sweep_box_pairs,
    sweep_polygon_pairs,
)
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
    PlacedPolygon,
    Polygon,
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
from collide2d.world import (
    Collision,
    Contact,
    ContactArrays,
    GroupFilter,
    MoveArrays,
    Movement,
    SegmentHit,
    StepResult,
    StepStats,
    World,
    walk,
)

__version__ = "0.1.0"

__all__ = [
    "Broadphase",
    "BruteForce",
    "Circle",
    "Collision",
    "Contact",
    "ContactArrays",
    "DuplicateKeyError",
    "GroupFilter",
    "Hit",
    "Mask",
    "MoveArrays",
    "Movement",
    "PlacedMask",
    "PlacedPolygon",
    "Polygon",
    "PolygonSweeps",
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
    "box_polygons",
    "overlapping_box_pairs",
    "overlapping_circle_pairs",
    "overlapping_pairs",
    "overlapping_polygon_pairs",
    "overlaps",
    "query_box_pairs",
    "query_pairs",
    "query_points",
    "query_polygon_pairs",
    "raycast",
    "sweep",
    "sweep_box_pairs",
    "sweep_polygon_pairs",
    "walk",
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
