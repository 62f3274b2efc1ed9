"""Pixel masks and their quadtrees."""

from collide2d import _deprecation
from collide2d.continuous.hit import Hit
from collide2d.mask.mask import Mask
from collide2d.mask.placed import PlacedMask
from collide2d.mask.quadtree import MaskQuadtree
from collide2d.mask.queries import NodePairs

__all__ = ["Mask", "MaskQuadtree", "NodePairs", "PlacedMask"]

_RENAMED = {"MaskHit": ("collide2d.Hit (mask sweeps return a Hit with pixel fields)", Hit)}


def __getattr__(name: str) -> object:
    return _deprecation.resolve(__name__, name, _RENAMED)
