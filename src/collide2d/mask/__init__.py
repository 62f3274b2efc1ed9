"""Pixel masks and their quadtrees."""

from collide2d.mask.mask import Mask

__all__ = ["Mask"]
