"""The interface every broadphase implements, its statistics and its errors."""

from __future__ import annotations

from collections.abc import Hashable, Iterator
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from collide2d.geometry.circle import Circle
from collide2d.geometry.rect import Rect

Key = Hashable
Shape = Rect | Circle


class UnknownKeyError(KeyError, ValueError):
    """A key that is not in the structure (catchable as ``KeyError`` or ``ValueError``)."""

    def __str__(self) -> str:  # KeyError would show the repr of the message
        return str(self.args[0]) if self.args else ""


class DuplicateKeyError(ValueError):
    """A key that is already in the structure."""


@dataclass
class BroadphaseStats:
    """What the last query and all queries so far cost.

    Attributes
    ----------
    last_tests, total_tests : int
        Exact shape tests performed (``overlaps`` or ``raycast`` calls).
    last_visits, total_visits : int
        Structure elements visited: tree nodes, grid cells, or list entries.
    queries : int
        Queries (including ``pairs``) performed so far.
    """

    last_tests: int = 0
    last_visits: int = 0
    total_tests: int = 0
    total_visits: int = 0
    queries: int = 0

    def begin(self) -> None:
        """Start counting a new query."""
        self.last_tests = 0
        self.last_visits = 0
        self.queries += 1

    def count(self, tests: int = 0, visits: int = 0) -> None:
        """Add to both the last query and the totals."""
        self.last_tests += tests
        self.last_visits += visits
        self.total_tests += tests
        self.total_visits += visits


@runtime_checkable
class Broadphase(Protocol):
    """A spatial index of keyed rectangles and circles.

    Every implementation gives identical answers: results are ordered by the
    order in which keys were first added (and segment hits by entry fraction).
    Overlap is strict, as everywhere in collide2d.
    """

    stats: BroadphaseStats

    def add(self, key: Key, shape: Shape) -> None:
        """Insert ``shape`` under a new ``key``."""

    def remove(self, key: Key) -> None:
        """Delete ``key``."""

    def update(self, key: Key, shape: Shape) -> None:
        """Replace ``key``'s shape (a teleport: no sweep, no response)."""

    def get(self, key: Key) -> Shape:
        """The shape stored under ``key``."""

    def query_rect(self, rect: Rect) -> list[Key]:
        """Keys whose shapes overlap ``rect``."""

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
