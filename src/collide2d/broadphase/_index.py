"""What every broadphase shares: keys, shapes, exact filtering and ordering.

A subclass finds *candidates* (a superset of the keys whose bounds touch a box, as
closed sets) through the hooks below, and answers ``pairs()`` its own way; this
base class checks input, keeps the structure unchanged on errors, runs the exact
tests and orders the results, so all implementations give identical answers.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence

import numpy as np

from collide2d.broadphase.protocol import DuplicateKeyError, Key, UnknownKeyError
from collide2d.continuous.ray import raycast
from collide2d.geometry import _checks
from collide2d.geometry.circle import Circle
from collide2d.geometry.overlap import Shape, as_shape, overlaps
from collide2d.geometry.polygon import Polygon
from collide2d.geometry.rect import Rect
from collide2d.geometry.rect_like import RECT_LIKE, checked_rect, described, rect_like
from collide2d.stats import Stats

Box = tuple[float, float, float, float]  # left, top, right, bottom (closed)

Indexed = Shape | Polygon
"""What a broadphase keeps under a key: a rectangle, a circle or a polygon (filed
by its bounding box)."""


def bounds_of(shape: Indexed) -> Box:
    """The closed bounding box of a shape."""
    if isinstance(shape, Rect):
        x, y, w, h = shape
        return (x, y, x + w, y + h)
    if isinstance(shape, Polygon):
        xs = [v[0] for v in shape.vertices]
        ys = [v[1] for v in shape.vertices]
        return (min(xs), min(ys), max(xs), max(ys))
    cx, cy, r = shape
    return (cx - r, cy - r, cx + r, cy + r)


def as_indexed(shape: object, name: str) -> Indexed:
    """``shape`` as a ``Rect``, ``Circle`` or ``Polygon``, or a ``TypeError`` naming ``name``."""
    if type(shape) is Polygon:
        return shape
    if isinstance(shape, (Rect, Circle)):
        return as_shape(shape, name)
    rect = rect_like(shape, name)
    if rect is not None:
        return rect
    raise TypeError(
        f"{name} must be a Rect, a Circle, a Polygon or {RECT_LIKE}, got {described(shape)}"
    )


def needs_exact_test(shape: Indexed) -> bool:
    """Whether overlapping bounding boxes leave the shapes' overlap open (a circle or
    a polygon; two rectangles overlap exactly when their boxes do)."""
    return type(shape) is not Rect


class Index:
    """Base class of the broadphases (see the module docstring)."""

    method = ""
    """The algorithm's name, reported in ``stats.method``."""

    def __init__(self) -> None:
        self._shapes: dict[Key, Indexed] = {}
        self._boxes: dict[Key, Box] = {}
        self._order: dict[Key, int] = {}
        self._next_order = 0
        self.stats = Stats(method=self.method)

    # -- hooks for subclasses ---------------------------------------------------------
    def _insert(self, key: Key, box: Box) -> None:
        raise NotImplementedError

    def _delete(self, key: Key, box: Box) -> None:
        raise NotImplementedError

    def _move(self, key: Key, old: Box, new: Box) -> None:
        """Refile ``key`` from box ``old`` to ``new``; subclasses may do it cheaper."""
        self._delete(key, old)
        self._insert(key, new)

    def _candidates(self, box: Box) -> Iterable[Key]:
        """Keys whose boxes may touch ``box`` (closed); count visits in ``stats``."""
        raise NotImplementedError

    def _validate_structure(self) -> None:
        """Check the subclass's own invariants."""

    # -- mutation ----------------------------------------------------------------------
    def add(self, key: Key, shape: Indexed) -> None:
        """Insert ``shape`` under a new ``key``.

        Raises
        ------
        DuplicateKeyError
            If ``key`` is already present (a ``ValueError``).
        TypeError
            If ``key`` is not hashable or ``shape`` is not a ``Rect``, ``Circle`` or
            ``Polygon`` (a polygon is filed by its bounding box).
        """
        try:
            present = key in self._order
        except TypeError:
            raise TypeError(f"key must be hashable, got {key!r}") from None
        if present:
            raise DuplicateKeyError(f"key {key!r} is already in the {type(self).__name__}")
        shape = as_indexed(shape, "shape")
        box = bounds_of(shape)
        self._insert(key, box)
        self._shapes[key] = shape
        self._boxes[key] = box
        self._order[key] = self._next_order
        self._next_order += 1

    def remove(self, key: Key) -> None:
        """Delete ``key``.

        Raises
        ------
        UnknownKeyError
            If ``key`` is not present (a ``KeyError`` and a ``ValueError``).
        """
        self._require(key)
        self._delete(key, self._boxes[key])
        del self._shapes[key]
        del self._boxes[key]
        del self._order[key]

    def update_rects(self, keys: Sequence[Key], rects: object) -> None:
        """Replace the shapes of ``keys`` with the rectangles ``rects`` (an ``(N, 4)``
        array of rows ``x, y, w, h``), as ``update`` does one by one: the call for a
        frame that moves many rectangles kept in numpy arrays.

        Raises
        ------
        UnknownKeyError
            If a key is not present.
        TypeError, ValueError
            If ``rects`` is not an ``(N, 4)`` array of numbers (``N`` the number of
            keys), holds NaN or infinity, or a negative size. Nothing changes then.

        Examples
        --------
        >>> from collide2d import SortedStrips
        >>> index = SortedStrips()
        >>> for key in "ab":
        ...     index.add(key, Rect(0, 0, 1, 1))
        >>> index.update_rects(["a", "b"], [[0, 0, 4, 4], [3, 3, 2, 2]])
        >>> index.pairs(), index.get("b")
        ([('a', 'b')], Rect(x=3.0, y=3.0, w=2.0, h=2.0))
        """
        keys, rows = self._checked_rects(keys, rects)
        new = tuple.__new__  # the rows passed Rect's checks above
        for key, row in zip(keys, rows.tolist(), strict=True):
            self.update(key, new(Rect, row))

    def _checked_rects(self, keys: Sequence[Key], rects: object) -> tuple[list[Key], np.ndarray]:
        """``keys`` as a list of present keys and ``rects`` as checked float rows."""
        keys = list(keys)
        try:
            known = all(map(self._order.__contains__, keys))  # in C: thousands of keys
        except TypeError:  # an unhashable key: _require names it
            known = False
        if not known:
            for key in keys:
                self._require(key)
        try:
            rows = np.asarray(rects, dtype=np.float64)
        except (TypeError, ValueError):
            raise TypeError(f"rects must be an (N, 4) array of numbers, got {rects!r}") from None
        if rows.ndim != 2 or rows.shape != (len(keys), 4):
            raise ValueError(
                f"rects must have shape ({len(keys)}, 4) (one row x, y, w, h a key), "
                f"got {rows.shape}"
            )
        if not np.isfinite(rows).all():
            row = int(np.flatnonzero(~np.isfinite(rows).all(axis=1))[0])
            raise ValueError(f"rects must be finite; row {row} is {rows[row].tolist()}")
        if (rows[:, 2:] < 0.0).any():
            row = int(np.flatnonzero((rows[:, 2:] < 0.0).any(axis=1))[0])
            raise ValueError(f"rects sizes must be >= 0; row {row} is {rows[row].tolist()}")
        return keys, rows

    def update(self, key: Key, shape: Indexed) -> None:
        """Replace ``key``'s shape (a teleport: no sweep and no response).

        Raises
        ------
        UnknownKeyError
            If ``key`` is not present.
        TypeError
            If ``shape`` is not a ``Rect``, ``Circle`` or ``Polygon``.
        """
        self._require(key)
        shape = as_indexed(shape, "shape")
        box = bounds_of(shape)
        old = self._boxes[key]
        if box != old:
            self._move(key, old, box)
            self._boxes[key] = box
        self._shapes[key] = shape

    def _require(self, key: Key) -> None:
        try:
            present = key in self._order
        except TypeError:
            raise TypeError(f"key must be hashable, got {key!r}") from None
        if not present:
            raise UnknownKeyError(f"unknown key {key!r}")

    # -- reading -------------------------------------------------------------------------
    def get(self, key: Key) -> Indexed:
        """The shape stored under ``key``."""
        self._require(key)
        return self._shapes[key]

    def __len__(self) -> int:
        return len(self._order)

    def __contains__(self, key: object) -> bool:
        try:
            return key in self._order
        except TypeError:
            return False

    def __iter__(self) -> Iterator[Key]:
        return iter(self._order)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} with {len(self)} shapes>"

    # -- queries -------------------------------------------------------------------------
    def query_rect(self, rect: Rect) -> list[Key]:
        """Keys whose shapes overlap ``rect`` (strictly), in the order they were added.

        Raises
        ------
        TypeError
            If ``rect`` is not a ``Rect``.
        """
        if type(rect) is not Rect:
            rect = checked_rect(rect, "rect")
        return self._query_shape(rect, bounds_of(rect))

    def query_shape(self, shape: Indexed) -> list[Key]:
        """Keys whose shapes overlap ``shape`` (a ``Rect``, ``Circle`` or ``Polygon``),
        strictly, in the order they were added.

        >>> from collide2d import Polygon, UniformGrid
        >>> grid = UniformGrid(10)
        >>> grid.add("crate", Polygon.box(5, 5, 4, 4, 0.7))
        >>> grid.add("coin", Circle(20, 5, 2))
        >>> grid.query_shape(Polygon([(0, 0), (30, 0), (30, 6)])), grid.query_shape(Circle(9, 9, 1))
        (['coin'], [])
        """
        shape = as_indexed(shape, "shape")
        return self._query_shape(shape, bounds_of(shape))

    def query_candidates(self, rect: Rect) -> list[Key]:
        """Keys whose bounds may touch ``rect`` (closed), untested and unordered: what
        the structure finds before the exact tests (a superset of ``query_rect``), for
        callers that run exact tests of their own, such as the World's sweeps.

        >>> from collide2d import UniformGrid
        >>> grid = UniformGrid(10)
        >>> grid.add("a", Rect(0, 0, 4, 4))
        >>> grid.add("b", Rect(50, 50, 4, 4))
        >>> grid.query_candidates(Rect(5, 5, 1, 1))
        ['a']
        """
        if type(rect) is not Rect:
            rect = checked_rect(rect, "rect")
        self.stats.begin(brute_force_tests=len(self._order))
        return list(self._candidates((rect[0], rect[1], rect[0] + rect[2], rect[1] + rect[3])))

    def query_point(self, point: tuple[float, float]) -> list[Key]:
        """Keys whose shapes contain ``point`` strictly, in the order they were added."""
        x, y = _checks.point(point, "point")
        return self._query_shape(Rect(x, y, 0.0, 0.0), (x, y, x, y))

    def _begin_pairs(self) -> None:
        """Start counting a ``pairs()`` call (brute force would test every pair)."""
        n = len(self._order)
        self.stats.begin(brute_force_tests=n * (n - 1) // 2)

    def _query_shape(self, shape: Indexed, box: Box) -> list[Key]:
        self.stats.begin(brute_force_tests=len(self._order))
        candidates = set(self._candidates(box))
        self.stats.count(tests=len(candidates))
        shapes = self._shapes
        found = [key for key in candidates if overlaps(shapes[key], shape)]
        found.sort(key=self._order.__getitem__)
        return found

    def query_segment(self, origin: tuple[float, float], delta: tuple[float, float]) -> list[Key]:
        """Keys whose shapes the segment ``origin + delta * f`` enters for ``f`` in ``[0, 1)``.

        Ordered by entry fraction (ties: the order keys were added); a segment that
        starts inside a shape enters it at 0. The same semantics as
        :func:`collide2d.raycast`.
        """
        ox, oy = _checks.point(origin, "origin")
        dx, dy = _checks.point(delta, "delta")
        box = (min(ox, ox + dx), min(oy, oy + dy), max(ox, ox + dx), max(oy, oy + dy))
        self.stats.begin(brute_force_tests=len(self._order))
        candidates = set(self._candidates(box))
        self.stats.count(tests=len(candidates))
        hits = []
        for key in candidates:
            hit = raycast((ox, oy), (dx, dy), self._shapes[key])
            if hit is not None:
                hits.append((hit.fraction, self._order[key], key))
        hits.sort(key=lambda item: (item[0], item[1]))
        return [key for _, _, key in hits]

    def pairs(self) -> list[tuple[Key, Key]]:
        """Every pair of keys whose shapes overlap (strictly), each once.

        Each pair is ``(first, second)`` with ``first`` added before ``second``, and the
        list is sorted by the order in which keys were added.
        """
        raise NotImplementedError

    def validate(self) -> None:
        """Check the internal invariants; raise ``AssertionError`` if one fails."""
        if not (self._shapes.keys() == self._boxes.keys() == self._order.keys()):
            raise AssertionError("shape, box and order tables disagree")
        for key, shape in self._shapes.items():
            if self._boxes[key] != bounds_of(shape):
                raise AssertionError(f"stale box for {key!r}")
        self._validate_structure()
