"""Two-dimensional vectors and points."""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any, NamedTuple

from collide2d.geometry._real import real, replaced

_INF = float("inf")


class _Vec2Fields(NamedTuple):
    x: float
    y: float


class Vec2(_Vec2Fields):
    """An immutable 2D vector or point.

    A ``Vec2`` is a tuple ``(x, y)``, so it unpacks and compares like one; the
    arithmetic operators are the vector ones (``+``, ``-``, scalar ``*`` and ``/``),
    not tuple concatenation or repetition.

    Parameters
    ----------
    x, y : float
        The components, finite real numbers (stored as floats). Screen space: x
        grows to the right, y grows downward.

    Raises
    ------
    TypeError
        If a component is not a real number (a string, None, a complex).
    ValueError
        If a component is NaN or infinite, including a result of the arithmetic
        that overflows.

    Examples
    --------
    >>> v = Vec2(3, 4)
    >>> v + (1, 1), v * 2, v.length()
    (Vec2(x=4.0, y=5.0), Vec2(x=6.0, y=8.0), 5.0)
    >>> x, y = v
    >>> v.dot(Vec2(1, 0))
    3.0
    >>> Vec2(float("nan"), 0)
    Traceback (most recent call last):
    ...
    ValueError: x must be finite, got nan
    """

    __slots__ = ()

    def __new__(cls, x: float, y: float) -> Vec2:
        if type(x) is float and type(y) is float and -_INF < x < _INF and -_INF < y < _INF:
            return tuple.__new__(cls, (x, y))
        return tuple.__new__(cls, (real(x, "x"), real(y, "y")))

    def _replace(self, **changes: Any) -> Vec2:
        """A copy with the named fields changed, checked as the constructor checks."""
        return replaced(self, changes)  # type: ignore[no-any-return]

    @classmethod
    def _make(cls, iterable: Iterable[Any]) -> Vec2:  # type: ignore[override]
        """A new value from an iterable of its fields, checked as the constructor checks."""
        return cls(*iterable)

    def __add__(self, other: tuple[float, float]) -> Vec2:  # type: ignore[override]
        return Vec2(self[0] + other[0], self[1] + other[1])

    __radd__ = __add__

    def __sub__(self, other: tuple[float, float]) -> Vec2:
        return Vec2(self[0] - other[0], self[1] - other[1])

    def __rsub__(self, other: tuple[float, float]) -> Vec2:
        return Vec2(other[0] - self[0], other[1] - self[1])

    def __mul__(self, scale: float) -> Vec2:  # type: ignore[override]
        return Vec2(self[0] * scale, self[1] * scale)

    __rmul__ = __mul__  # type: ignore[assignment]

    def __truediv__(self, scale: float) -> Vec2:
        return Vec2(self[0] / scale, self[1] / scale)

    def __neg__(self) -> Vec2:
        return Vec2(-self[0], -self[1])

    def dot(self, other: tuple[float, float]) -> float:
        """Return the dot product with ``other``."""
        return self[0] * other[0] + self[1] * other[1]

    def cross(self, other: tuple[float, float]) -> float:
        """Return the z component of the cross product with ``other``."""
        return self[0] * other[1] - self[1] * other[0]

    def length(self) -> float:
        """Return the Euclidean length."""
        return math.hypot(self[0], self[1])

    def length_squared(self) -> float:
        """Return the squared length (exact for small integers)."""
        return self[0] * self[0] + self[1] * self[1]

    def normalized(self) -> Vec2:
        """Return the unit vector in the same direction.

        Raises
        ------
        ValueError
            If the vector has zero length.
        """
        length = math.hypot(self[0], self[1])
        if length == 0.0:
            raise ValueError("cannot normalize the zero vector")
        return Vec2(self[0] / length, self[1] / length)


ZERO = Vec2(0.0, 0.0)
