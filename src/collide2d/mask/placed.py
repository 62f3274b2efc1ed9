"""A mask placed in the world, so that the module-level ``sweep`` can take it."""

from __future__ import annotations

from typing import NamedTuple

from collide2d.geometry import _checks
from collide2d.mask.mask import Mask


class _PlacedFields(NamedTuple):
    mask: Mask
    x: float
    y: float


class PlacedMask(_PlacedFields):
    """``mask`` with its top-left corner at ``(x, y)`` (world coordinates).

    Attributes
    ----------
    mask : Mask
        The pixels (shared, not copied).
    x, y : float
        The mask's top-left corner in the world; any finite float (sub-pixel
        offsets are exact).

    Examples
    --------
    >>> from collide2d import Rect, sweep
    >>> wall = PlacedMask(Mask((2, 50), fill=True), 100, 0)
    >>> sweep(Rect(0, 10, 10, 10), (200, 0), wall).fraction
    0.45
    """

    __slots__ = ()

    def __new__(cls, mask: Mask, x: float, y: float) -> PlacedMask:
        if not isinstance(mask, Mask):
            raise TypeError(f"mask must be a Mask, got {mask!r}")
        return tuple.__new__(cls, (mask, _checks.real(x, "x"), _checks.real(y, "y")))
