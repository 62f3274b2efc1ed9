"""The array API: many shapes per call, compiled kernels underneath.

Each function checks and converts its arrays once (``collide2d.batch.arrays``),
then hands them to the array engine (``collide2d._kernels.pairs.search``), which
allocates the output and calls a numba kernel; the kernels are imported, and
compiled, on first use.
"""

from collide2d.batch.pairs import overlapping_circle_pairs, overlapping_pairs
from collide2d.batch.polygon_queries import query_box_pairs, query_polygon_pairs
from collide2d.batch.polygon_sweeps import PolygonSweeps, sweep_box_pairs, sweep_polygon_pairs
from collide2d.batch.polygons import box_polygons, overlapping_box_pairs, overlapping_polygon_pairs
from collide2d.batch.queries import query_pairs, query_points

__all__ = [
    "PolygonSweeps",
    "box_polygons",
    "overlapping_box_pairs",
    "overlapping_circle_pairs",
    "overlapping_pairs",
    "overlapping_polygon_pairs",
    "query_box_pairs",
    "query_pairs",
    "query_points",
    "query_polygon_pairs",
    "sweep_box_pairs",
    "sweep_polygon_pairs",
]
