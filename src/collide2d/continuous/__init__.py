"""Continuous tests of rectangles and circles: ray casts and sweeps of moving shapes.

The public entry points are :func:`collide2d.sweep` and :func:`collide2d.raycast`
(``collide2d.shapes``), which also take masks; this package holds the per-shape
code and the result records.
"""

from collide2d.continuous.hit import Hit, RayHit

__all__ = ["Hit", "RayHit"]
