"""Pillow images to pixel arrays."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray


def image_alpha(
    image: str | Path | Any, threshold: int, colorkey: tuple[int, int, int] | None
) -> NDArray[np.bool_]:
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
        result: NDArray[np.bool_] = ~np.all(rgb == key, axis=-1)
        return result
    alpha = np.asarray(picture.convert("RGBA"))[:, :, 3]
    solid: NDArray[np.bool_] = alpha > threshold
    return solid
