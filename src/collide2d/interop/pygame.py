"""pygame-ce conversions: surfaces and ``pygame.mask.Mask`` to and from ``Mask``.

The only module of the library, besides the demos, that imports pygame.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pygame

from collide2d.mask.mask import Mask


def mask_from_surface(surface: pygame.Surface, threshold: int = 127) -> Mask:
    """A mask of a surface's solid pixels, by ``pygame.mask.from_surface``'s own rule.

    pygame decides (and this function asks it, so every surface format pygame takes
    gives pygame's answer: 8-bit palettes, 16, 24 and 32 bits, colour keys, per-pixel
    alpha): a surface with a colour key sets every pixel whose value differs from the
    key (on a palette surface, the palette index, not the colour); otherwise a pixel
    is set when its alpha is above ``threshold`` (a surface without per-pixel alpha
    has alpha 255 everywhere: every pixel at thresholds below 255, none at 255).
    ``threshold`` may be any int, as in pygame: -1 sets every pixel, 255 or more none.

    Examples
    --------
    >>> surface = pygame.Surface((3, 2), pygame.SRCALPHA)
    >>> surface.set_at((1, 0), (255, 255, 255, 255))
    >>> mask_from_surface(surface).to_array().astype(int).tolist()
    [[0, 1, 0], [0, 0, 0]]
    """
    if isinstance(threshold, bool) or not isinstance(threshold, int):
        raise TypeError(f"threshold must be an int, got {threshold!r}")
    if not isinstance(surface, pygame.Surface):
        raise TypeError(f"surface must be a pygame.Surface, got {surface!r}")
    return mask_from_pygame(pygame.mask.from_surface(surface, threshold))


def mask_from_threshold(
    surface: pygame.Surface,
    color: Any,
    threshold: Any = (0, 0, 0, 255),
    othersurface: pygame.Surface | None = None,
    palette_colors: int = 1,
) -> Mask:
    """``pygame.mask.from_threshold``'s mask (pixels within ``threshold`` of ``color``,
    or of ``othersurface``'s pixel), as a :class:`~collide2d.Mask`: pygame computes
    it, so its answer on every surface format is pygame's."""
    if othersurface is None:  # pygame takes no None for it
        made = pygame.mask.from_threshold(surface, color, threshold, palette_colors=palette_colors)
    else:
        made = pygame.mask.from_threshold(surface, color, threshold, othersurface, palette_colors)
    return mask_from_pygame(made)


def mask_to_surface(mask: Mask, *args: Any, **kwargs: Any) -> pygame.Surface:
    """``pygame.mask.Mask.to_surface`` of the same pixels, with all its arguments
    (``surface``, ``setsurface``, ``unsetsurface``, ``setcolor``, ``unsetcolor``,
    ``dest``): pygame draws it.

    >>> from collide2d import Mask
    >>> surface = mask_to_surface(Mask.from_array([[1, 0]]), setcolor=(255, 0, 0))
    >>> surface.get_at((0, 0)), surface.get_at((1, 0))
    (Color(255, 0, 0, 255), Color(0, 0, 0, 255))
    """
    return to_pygame_mask(mask).to_surface(*args, **kwargs)


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
