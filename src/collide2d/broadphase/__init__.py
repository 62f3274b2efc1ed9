"""Broadphases: find the pairs of many shapes that overlap without testing every pair.

All implementations follow :class:`Broadphase` and give identical answers; they
differ in cost. See ``docs/broadphase.md``.
"""

from collide2d import _deprecation
from collide2d.broadphase.brute_force import BruteForce
from collide2d.broadphase.protocol import Broadphase, DuplicateKeyError, UnknownKeyError
from collide2d.broadphase.quadtree import Quadtree
from collide2d.broadphase.sort_and_sweep import SortAndSweep
from collide2d.broadphase.sorted_strips import SortedStrips
from collide2d.broadphase.uniform_grid import UniformGrid
from collide2d.stats import Stats

__all__ = [
    "Broadphase",
    "BruteForce",
    "DuplicateKeyError",
    "Quadtree",
    "SortAndSweep",
    "SortedStrips",
    "UniformGrid",
    "UnknownKeyError",
]

_RENAMED = {"BroadphaseStats": ("collide2d.Stats", Stats)}


def __getattr__(name: str) -> object:
    return _deprecation.resolve(__name__, name, _RENAMED)
