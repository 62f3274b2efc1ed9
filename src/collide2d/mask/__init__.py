"""Pixel masks and their quadtrees."""

from collide2d.mask.mask import Mask, NodePairs
from collide2d.mask.placed import PlacedMask
from collide2d.mask.quadtree import MaskQuadtree
from collide2d.mask.sweep import MaskHit

__all__ = ["Mask", "MaskHit", "MaskQuadtree", "NodePairs", "PlacedMask"]
