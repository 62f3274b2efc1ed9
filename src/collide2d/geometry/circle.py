"""Circles."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, NamedTuple

from collide2d.geometry import _checks
from collide2d.geometry._real import replaced
from collide2d.geometry.rect import Rect
from collide2d.geometry.vec2 import Vec2

_INF = float("inf")


class _CircleFields(NamedTuple):
    x: float
    y: float
    r: float


class Circle(_CircleFields):
    """An immutable circle: centre and radius.

    Overlap tests treat it as an open disc: circles that touch do not overlap. A
    circle of radius zero is a point.

    Parameters
    ----------
    x, y : float
        The centre.
    r : float
        The radius, finite and ``>= 0``.

    Examples
    --------
    >>> c = Circle(0, 0, 2)
    >>> c.center, c.bounds
    (Vec2(x=0.0, y=0.0), Rect(x=-2.0, y=-2.0, w=4.0, h=4.0))
    >>> Circle(0, 0, float("nan"))
    Traceback (most recent call last):
    ...
    ValueError: r must be finite, got nan
    """

    __slots__ = ()

    def __new__(cls, x: float, y: float, r: float) -> Circle:
        if (  # the common case, floats in range, checked in one go (False for NaN)
            type(x) is float
            and type(y) is float
            and type(r) is float
            and -_INF < x < _INF
            and -_INF < y < _INF
            and 0.0 <= r < _INF
        ):
            return tuple.__new__(cls, (x, y, r))
        return tuple.__new__(
            cls, (_checks.real(x, "x"), _checks.real(y, "y"), _checks.size(r, "r"))
        )

    def _replace(self, **changes: Any) -> Circle:
        """A copy with the named fields changed, checked as the constructor checks."""
        return replaced(self, changes)  # type: ignore[no-any-return]

    @classmethod
    def _make(cls, iterable: Iterable[Any]) -> Circle:  # type: ignore[override]
        """A new value from an iterable of its fields, checked as the constructor checks."""
        return cls(*iterable)

    @property
    def center(self) -> Vec2:
        """The centre point."""
        return Vec2(self[0], self[1])

    @property
    def bounds(self) -> Rect:
        """The smallest rectangle containing the circle."""
        r = self[2]
        return Rect(self[0] - r, self[1] - r, 2.0 * r, 2.0 * r)

    def moved(self, delta: tuple[float, float]) -> Circle:
        """Return the circle translated by ``delta``.

        >>> Circle(1, 1, 1).moved((2, 0))
        Circle(x=3.0, y=1.0, r=1.0)
        """
        dx, dy = _checks.point(delta, "delta")
        return Circle(self[0] + dx, self[1] + dy, self[2])

    def contains_point(self, point: tuple[float, float]) -> bool:
        """Return whether ``point`` lies strictly inside the circle.

        >>> Circle(0, 0, 1).contains_point((0.5, 0)), Circle(0, 0, 1).contains_point((1, 0))
        (True, False)
        """
        px, py = _checks.point(point, "point")
        dx = px - self[0]
        dy = py - self[1]
        return dx * dx + dy * dy < self[2] * self[2]
