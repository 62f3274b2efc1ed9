"""Pillow images to masks."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from collide2d._typing import BoolArray
from collide2d.mask.mask import Mask


def mask_from_image(
    image: str | Path | Any,
    threshold: int = 127,
    colorkey: tuple[int, int, int] | None = None,
) -> Mask:
    """A mask of an image's solid pixels (needs Pillow).

    Parameters
    ----------
    image : path or PIL.Image.Image
        The image, or a path to it.
    threshold : int, default 127
        A pixel is solid when its alpha is above this (0 to 255).
    colorkey : (r, g, b), optional
        For images without alpha (or to ignore it): pixels of this colour are
        empty and all others solid.

    Examples
    --------
    >>> from PIL import Image
    >>> picture = Image.new("RGBA", (3, 2))
    >>> picture.putpixel((1, 0), (255, 255, 255, 255))
    >>> mask_from_image(picture).to_array().astype(int).tolist()
    [[0, 1, 0], [0, 0, 0]]
    """
    if isinstance(threshold, bool) or not isinstance(threshold, int) or not 0 <= threshold <= 255:
        raise ValueError(f"threshold must be an int from 0 to 255, got {threshold!r}")
    return Mask.from_array(image_solid(image, threshold, colorkey))


def image_solid(
    image: str | Path | Any, threshold: int, colorkey: tuple[int, int, int] | None
) -> BoolArray:
    """The solid pixels of an image, ``[y, x]``: alpha above ``threshold``, or, with a
    ``colorkey``, every pixel not of that colour."""
    from PIL import Image

    if isinstance(image, (str, Path)):
        with Image.open(image) as opened:
            opened.load()
            picture = opened.copy()
    elif isinstance(image, Image.Image):
        picture = image
    else:
        raise TypeError(f"image must be a path or a PIL.Image.Image, got {image!r}")
    if colorkey is not None:
        rgb = np.asarray(picture.convert("RGB"))
        key = np.array(colorkey, dtype=rgb.dtype)
        result: BoolArray = ~np.all(rgb == key, axis=-1)
        return result
    alpha = np.asarray(picture.convert("RGBA"))[:, :, 3]
    solid: BoolArray = alpha > threshold
    return solid
