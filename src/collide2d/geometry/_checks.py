"""Argument checks shared by the value types and the scalar functions.

Every public entry point checks its input here, once, and names the argument in
the error. Nothing in this module uses ``assert``: checks must survive ``python -O``.
"""

from __future__ import annotations

import math

from collide2d.geometry._real import real, size
from collide2d.geometry.vec2 import Vec2

__all__ = ["point", "real", "size", "xy"]


def xy(value: object, name: str) -> tuple[float, float]:
    """Return ``value`` (a ``Vec2`` or any 2-sequence of numbers) as finite ``(x, y)``.

    The fast path returns a ``Vec2`` or a 2-tuple of finite numbers as it is
    (``v * 0.0 == 0.0`` is false for NaN and infinities, and raises for strings);
    anything else is checked and converted by :func:`point`.
    """
    kind = type(value)
    if kind is Vec2 or kind is tuple:
        try:
            x: float
            y: float
            x, y = value  # type: ignore[misc]
            if x * 0.0 == 0.0 and y * 0.0 == 0.0:
                return value  # type: ignore[return-value]
        except (TypeError, ValueError):
            pass
    return point(value, name)


def point(value: object, name: str) -> Vec2:
    """Return ``value`` (a ``Vec2`` or any 2-sequence of numbers) as a finite ``Vec2``."""
    if type(value) is Vec2:
        x, y = value
        if math.isfinite(x) and math.isfinite(y):
            return value
    elif isinstance(value, (str, bytes)) or not _is_pair(value):
        raise TypeError(f"{name} must be a point (x, y), got {value!r}")
    x, y = value  # type: ignore[misc]
    return Vec2(real(x, f"{name}.x"), real(y, f"{name}.y"))


def _is_pair(value: object) -> bool:
    try:
        return len(value) == 2  # type: ignore[arg-type]
    except TypeError:
        return False
