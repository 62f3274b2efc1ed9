"""The interface every broadphase implements, and its errors."""

from __future__ import annotations

from collections.abc import Hashable, Iterator, Sequence
from typing import Protocol, runtime_checkable

from collide2d.geometry.overlap import Shape
from collide2d.geometry.polygon import Polygon
from collide2d.geometry.rect import Rect
from collide2d.stats import Stats

Key = Hashable


class UnknownKeyError(KeyError, ValueError):
    """A key that is not in the structure (catchable as ``KeyError`` or ``ValueError``)."""

    def __str__(self) -> str:  # KeyError would show the repr of the message
        return str(self.args[0]) if self.args else ""


class DuplicateKeyError(ValueError):
    """A key that is already in the structure."""


@runtime_checkable
class Broadphase(Protocol):
    """A spatial index of keyed rectangles, circles and polygons.

    Every implementation gives identical answers: results are ordered by the
    order in which keys were first added (and segment hits by entry fraction).
    Overlap is strict, as everywhere in collide2d.
    """

    stats: Stats

    def add(self, key: Key, shape: Shape | Polygon) -> None:
        """Insert ``shape`` under a new ``key``."""

    def remove(self, key: Key) -> None:
        """Delete ``key``."""

    def update(self, key: Key, shape: Shape | Polygon) -> None:
        """Replace ``key``'s shape (a teleport: no sweep, no response)."""

    def update_rects(self, keys: Sequence[Key], rects: object) -> None:
        """Replace the shapes of ``keys`` with the rows ``x, y, w, h`` of ``rects``."""

    def get(self, key: Key) -> Shape | Polygon:
        """The shape stored under ``key``."""

    def query_rect(self, rect: Rect) -> list[Key]:
        """Keys whose shapes overlap ``rect``."""

    def query_shape(self, shape: Shape | Polygon) -> list[Key]:
        """Keys whose shapes overlap ``shape`` (a rectangle, circle or polygon)."""

    def query_candidates(self, rect: Rect) -> list[Key]:
        """Keys whose bounds may touch ``rect`` (closed): the broadphase's own answer,
        a superset of those that overlap it, in no particular order, untested."""

    def query_point(self, point: tuple[float, float]) -> list[Key]:
        """Keys whose shapes contain ``point`` strictly."""

    def query_segment(self, origin: tuple[float, float], delta: tuple[float, float]) -> list[Key]:
        """Keys whose shapes the segment enters, ordered by entry fraction."""

    def pairs(self) -> list[tuple[Key, Key]]:
        """Every pair of keys whose shapes overlap, each once."""

    def validate(self) -> None:
        """Check the internal invariants; raise ``AssertionError`` if one fails."""

    def __len__(self) -> int: ...

    def __contains__(self, key: object) -> bool: ...

    def __iter__(self) -> Iterator[Key]: ...
