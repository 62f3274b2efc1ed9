"""Axis-aligned rectangles."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, NamedTuple

from collide2d.geometry import _checks
from collide2d.geometry._real import replaced
from collide2d.geometry.vec2 import Vec2

_INF = float("inf")


class _RectFields(NamedTuple):
    x: float
    y: float
    w: float
    h: float


class Rect(_RectFields):
    """An immutable axis-aligned rectangle: top-left corner and size.

    The rectangle is the set ``[x, x + w] x [y, y + h]``. Overlap tests treat it as
    an open set (touching edges do not overlap, see :func:`collide2d.overlaps`). A
    rectangle of zero width and height is a point.

    Parameters
    ----------
    x, y : float
        The top-left corner (y grows downward).
    w, h : float
        Width and height, finite and ``>= 0``.

    Raises
    ------
    TypeError
        If a value is not a real number.
    ValueError
        If a value is NaN or infinite, or a size is negative.

    Examples
    --------
    >>> r = Rect(10, 20, 30, 40)
    >>> r.right, r.bottom, r.center
    (40.0, 60.0, Vec2(x=25.0, y=40.0))
    >>> Rect.from_bounds((0, 0), (4, 2))
    Rect(x=0.0, y=0.0, w=4.0, h=2.0)
    >>> Rect(0, 0, -1, 5)
    Traceback (most recent call last):
    ...
    ValueError: w must be >= 0, got -1
    """

    __slots__ = ()

    def __new__(cls, x: float, y: float, w: float, h: float) -> Rect:
        if (  # the common case, floats in range, checked in one go (False for NaN)
            type(x) is float
            and type(y) is float
            and type(w) is float
            and type(h) is float
            and -_INF < x < _INF
            and -_INF < y < _INF
            and 0.0 <= w < _INF
            and 0.0 <= h < _INF
        ):
            return tuple.__new__(cls, (x, y, w, h))
        return tuple.__new__(
            cls,
            (
                _checks.real(x, "x"),
                _checks.real(y, "y"),
                _checks.size(w, "w"),
                _checks.size(h, "h"),
            ),
        )

    def _replace(self, **changes: Any) -> Rect:
        """A copy with the named fields changed, checked as the constructor checks."""
        return replaced(self, changes)  # type: ignore[no-any-return]

    @classmethod
    def _make(cls, iterable: Iterable[Any]) -> Rect:  # type: ignore[override]
        """A new value from an iterable of its fields, checked as the constructor checks."""
        return cls(*iterable)

    @classmethod
    def from_bounds(cls, min: tuple[float, float], max: tuple[float, float]) -> Rect:
        """Build the rectangle with corners ``min`` (top-left) and ``max`` (bottom-right).

        Raises
        ------
        ValueError
            If ``max`` lies left of or above ``min``.
        """
        lo = _checks.point(min, "min")
        hi = _checks.point(max, "max")
        if hi.x < lo.x or hi.y < lo.y:
            raise ValueError(f"max must not lie left of or above min, got min={min!r}, max={max!r}")
        return cls(lo.x, lo.y, hi.x - lo.x, hi.y - lo.y)

    @classmethod
    def from_center(cls, center: tuple[float, float], half: tuple[float, float]) -> Rect:
        """Build the rectangle with the given centre and half-size.

        >>> Rect.from_center((5, 5), (2, 1))
        Rect(x=3.0, y=4.0, w=4.0, h=2.0)
        """
        c = _checks.point(center, "center")
        hx, hy = _checks.point(half, "half")
        _checks.size(hx, "half.x")
        _checks.size(hy, "half.y")
        return cls(c.x - hx, c.y - hy, 2.0 * hx, 2.0 * hy)

    @property
    def left(self) -> float:
        """The smallest x."""
        return self[0]

    @property
    def top(self) -> float:
        """The smallest y (the top edge on screen)."""
        return self[1]

    @property
    def right(self) -> float:
        """The largest x, ``x + w``."""
        return self[0] + self[2]

    @property
    def bottom(self) -> float:
        """The largest y, ``y + h``."""
        return self[1] + self[3]

    @property
    def min(self) -> Vec2:
        """The top-left corner."""
        return Vec2(self[0], self[1])

    @property
    def max(self) -> Vec2:
        """The bottom-right corner."""
        return Vec2(self[0] + self[2], self[1] + self[3])

    @property
    def size(self) -> Vec2:
        """``(w, h)``."""
        return Vec2(self[2], self[3])

    @property
    def half(self) -> Vec2:
        """Half the size."""
        return Vec2(self[2] * 0.5, self[3] * 0.5)

    @property
    def center(self) -> Vec2:
        """The centre point."""
        return Vec2(self[0] + self[2] * 0.5, self[1] + self[3] * 0.5)

    @property
    def area(self) -> float:
        """``w * h``."""
        return self[2] * self[3]

    def moved(self, delta: tuple[float, float]) -> Rect:
        """Return the rectangle translated by ``delta``.

        >>> Rect(0, 0, 2, 2).moved((3, -1))
        Rect(x=3.0, y=-1.0, w=2.0, h=2.0)
        """
        dx, dy = _checks.point(delta, "delta")
        return Rect(self[0] + dx, self[1] + dy, self[2], self[3])

    def expanded(self, amount: float) -> Rect:
        """Return the rectangle grown by ``amount`` on every side (shrunk if negative).

        Raises
        ------
        ValueError
            If shrinking would make a size negative.

        >>> Rect(0, 0, 2, 2).expanded(1)
        Rect(x=-1.0, y=-1.0, w=4.0, h=4.0)
        """
        grow = _checks.real(amount, "amount")
        w = self[2] + 2.0 * grow
        h = self[3] + 2.0 * grow
        if w < 0.0 or h < 0.0:
            raise ValueError(f"amount={amount!r} would make the size of {self!r} negative")
        return Rect(self[0] - grow, self[1] - grow, w, h)

    def union(self, other: Rect) -> Rect:
        """Return the smallest rectangle containing both rectangles.

        >>> Rect(0, 0, 1, 1).union(Rect(3, 2, 1, 1))
        Rect(x=0.0, y=0.0, w=4.0, h=3.0)
        """
        if not isinstance(other, Rect):
            kind = type(other)
            raise TypeError(
                f"other must be a Rect, got {other!r} ({kind.__module__}.{kind.__qualname__})"
            )
        left = self[0] if self[0] < other[0] else other[0]
        top = self[1] if self[1] < other[1] else other[1]
        right = max(self[0] + self[2], other[0] + other[2])
        bottom = max(self[1] + self[3], other[1] + other[3])
        return Rect(left, top, right - left, bottom - top)

    def contains_point(self, point: tuple[float, float]) -> bool:
        """Return whether ``point`` lies strictly inside (boundary points do not count).

        This is the overlap convention: a point overlaps the open rectangle.

        >>> r = Rect(0, 0, 2, 2)
        >>> r.contains_point((1, 1)), r.contains_point((2, 1))
        (True, False)
        """
        px, py = _checks.point(point, "point")
        return self[0] < px < self[0] + self[2] and self[1] < py < self[1] + self[3]
