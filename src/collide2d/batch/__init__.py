"""The array API: many shapes per call, compiled kernels underneath.

Each function checks and converts its arrays once (``collide2d.batch.arrays``),
allocates its output and calls a numba kernel from ``collide2d._kernels``; the
kernels are imported, and compiled, on first use.
"""

from collide2d.batch.pairs import overlapping_circle_pairs, overlapping_pairs
from collide2d.batch.queries import points_in_boxes, query_pairs
from collide2d.batch.stats import BatchStats

__all__ = [
    "BatchStats",
    "overlapping_circle_pairs",
    "overlapping_pairs",
    "points_in_boxes",
    "query_pairs",
]
