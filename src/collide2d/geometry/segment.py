"""Line segments, the input of ray casts."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, NamedTuple

from collide2d.geometry import _checks
from collide2d.geometry._real import replaced
from collide2d.geometry.vec2 import Vec2


class _SegmentFields(NamedTuple):
    start: Vec2
    end: Vec2


class Segment(_SegmentFields):
    """An immutable line segment from ``start`` to ``end``.

    A point on it is ``start + delta * fraction`` for ``fraction`` in ``[0, 1]``;
    :func:`collide2d.raycast` takes ``segment.start, segment.delta``.

    Attributes
    ----------
    start, end : Vec2
        The two ends.

    Examples
    --------
    >>> s = Segment((0, 0), (4, 2))
    >>> s.delta, s.point_at(0.5)
    (Vec2(x=4.0, y=2.0), Vec2(x=2.0, y=1.0))
    """

    __slots__ = ()

    def __new__(cls, start: tuple[float, float], end: tuple[float, float]) -> Segment:
        return tuple.__new__(cls, (_checks.point(start, "start"), _checks.point(end, "end")))

    def _replace(self, **changes: Any) -> Segment:
        """A copy with the named fields changed, checked as the constructor checks."""
        return replaced(self, changes)  # type: ignore[no-any-return]

    @classmethod
    def _make(cls, iterable: Iterable[Any]) -> Segment:  # type: ignore[override]
        """A new value from an iterable of its fields, checked as the constructor checks."""
        return cls(*iterable)

    @property
    def delta(self) -> Vec2:
        """``end - start``."""
        return self.end - self.start

    def length(self) -> float:
        """The Euclidean length."""
        return self.delta.length()

    def point_at(self, fraction: float) -> Vec2:
        """Return ``start + delta * fraction``."""
        f = _checks.real(fraction, "fraction")
        return self.start + self.delta * f
