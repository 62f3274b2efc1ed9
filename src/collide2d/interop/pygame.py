"""pygame-ce conversions: surfaces and ``pygame.mask.Mask`` to and from ``Mask``.

The only module of the library, besides the demos, that imports pygame.
"""

from __future__ import annotations

import numpy as np
import pygame

from collide2d.mask.mask import Mask


def mask_from_surface(surface: pygame.Surface, threshold: int = 127) -> Mask:
    """A mask of a surface's solid pixels: alpha above ``threshold``, or, for a surface
    with a colour key and no per-pixel alpha, every pixel not of that colour (the
    rule of ``pygame.mask.from_surface``).

    Examples
    --------
    >>> surface = pygame.Surface((3, 2), pygame.SRCALPHA)
    >>> surface.set_at((1, 0), (255, 255, 255, 255))
    >>> mask_from_surface(surface).to_array().astype(int).tolist()
    [[0, 1, 0], [0, 0, 0]]
    """
    if isinstance(threshold, bool) or not isinstance(threshold, int) or not 0 <= threshold <= 255:
        raise ValueError(f"threshold must be an int from 0 to 255, got {threshold!r}")
    key = surface.get_colorkey()
    if surface.get_flags() & pygame.SRCALPHA or key is None:
        if surface.get_flags() & pygame.SRCALPHA:
            alpha = pygame.surfarray.pixels_alpha(surface)
            solid = threshold < np.array(alpha).T
            del alpha  # release the surface lock
        else:
            solid = np.ones((surface.get_height(), surface.get_width()), dtype=bool)
        return Mask.from_array(solid)
    rgb = pygame.surfarray.array3d(surface).transpose(1, 0, 2)
    return Mask.from_array(~np.all(rgb == np.array(key[:3]), axis=-1))


def mask_from_pygame(mask: pygame.mask.Mask) -> Mask:
    """The same pixels as a ``pygame.mask.Mask``."""
    w, h = mask.get_size()
    if w == 0 or h == 0:
        return Mask((w, h))
    surface = mask.to_surface(setcolor=(255, 255, 255, 255), unsetcolor=(0, 0, 0, 255))
    red = pygame.surfarray.array_red(surface).T
    return Mask.from_array(red > 127)


def to_pygame_mask(mask: Mask) -> pygame.mask.Mask:
    """A ``pygame.mask.Mask`` with the same pixels."""
    w, h = mask.size
    result = pygame.mask.Mask((w, h))
    if w and h and mask.count():
        surface = pygame.Surface((w, h), pygame.SRCALPHA)
        alpha = pygame.surfarray.pixels_alpha(surface)
        alpha[:] = np.where(mask.bits.T, 255, 0).astype(np.uint8)
        del alpha
        result = pygame.mask.from_surface(surface, 127)
    return result
