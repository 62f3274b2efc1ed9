"""What every broadphase shares: keys, shapes, exact filtering, ordering, pair cache.

A subclass only finds *candidates* (a superset of the keys whose bounds touch a
box, as closed sets) through four hooks; this base class checks input, keeps the
structure unchanged on errors, runs the exact tests and orders the results, so
all implementations give identical answers.

``pairs()`` is incremental: after the first call the overlapping pairs are kept
per key, and later calls re-test only the keys added or updated since, through
``_candidates``. A frame in which few objects move costs little.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from collide2d.broadphase.protocol import (
    BroadphaseStats,
    DuplicateKeyError,
    Key,
    Shape,
    UnknownKeyError,
)
from collide2d.geometry import _checks
from collide2d.geometry.overlap import as_shape, overlaps
from collide2d.geometry.rect import Rect
from collide2d.sweep.ray import raycast

Box = tuple[float, float, float, float]  # left, top, right, bottom (closed)


def bounds_of(shape: Shape) -> Box:
    """The closed bounding box of a shape."""
    if isinstance(shape, Rect):
        x, y, w, h = shape
        return (x, y, x + w, y + h)
    cx, cy, r = shape
    return (cx - r, cy - r, cx + r, cy + r)


class Index:
    """Base class of the broadphases (see the module docstring)."""

    def __init__(self) -> None:
        self._shapes: dict[Key, Shape] = {}
        self._boxes: dict[Key, Box] = {}
        self._order: dict[Key, int] = {}
        self._next_order = 0
        # The pair cache, filled by the first pairs(): each key's overlapping partners,
        # and the last result as rows (order a, order b, key a, key b), sorted.
        self._partners: dict[Key, set[Key]] | None = None
        self._rows: list[tuple[int, int, Key, Key]] = []
        self._dirty: set[Key] = set()
        self.stats = BroadphaseStats()

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

    def _candidate_pairs(self) -> Iterable[tuple[Key, Key]]:
        """Pairs of distinct keys whose boxes may touch, each at least once."""
        raise NotImplementedError

    def _validate_structure(self) -> None:
        """Check the subclass's own invariants."""

    # -- mutation ----------------------------------------------------------------------
    def add(self, key: Key, shape: Shape) -> None:
        """Insert ``shape`` under a new ``key``.

        Raises
        ------
        DuplicateKeyError
            If ``key`` is already present (a ``ValueError``).
        TypeError
            If ``key`` is not hashable or ``shape`` is not a ``Rect`` or ``Circle``.
        """
        try:
            present = key in self._shapes
        except TypeError:
            raise TypeError(f"key must be hashable, got {key!r}") from None
        if present:
            raise DuplicateKeyError(f"key {key!r} is already in the {type(self).__name__}")
        shape = as_shape(shape, "shape")
        box = bounds_of(shape)
        self._insert(key, box)
        self._shapes[key] = shape
        self._boxes[key] = box
        self._order[key] = self._next_order
        self._next_order += 1
        if self._partners is not None:
            self._partners[key] = set()
            self._dirty.add(key)

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
        if self._partners is not None:
            others = self._partners.pop(key)
            for other in others:
                self._partners[other].discard(key)
            if others:
                self._rows = [row for row in self._rows if row[2] != key and row[3] != key]
            self._dirty.discard(key)

    def update(self, key: Key, shape: Shape) -> None:
        """Replace ``key``'s shape (a teleport: no sweep and no response).

        Raises
        ------
        UnknownKeyError
            If ``key`` is not present.
        TypeError
            If ``shape`` is not a ``Rect`` or ``Circle``.
        """
        self._require(key)
        shape = as_shape(shape, "shape")
        box = bounds_of(shape)
        old = self._boxes[key]
        if box != old:
            self._move(key, old, box)
            self._boxes[key] = box
        self._shapes[key] = shape
        if self._partners is not None:
            self._dirty.add(key)

    def _require(self, key: Key) -> None:
        try:
            present = key in self._shapes
        except TypeError:
            raise TypeError(f"key must be hashable, got {key!r}") from None
        if not present:
            raise UnknownKeyError(f"unknown key {key!r}")

    # -- reading -------------------------------------------------------------------------
    def get(self, key: Key) -> Shape:
        """The shape stored under ``key``."""
        self._require(key)
        return self._shapes[key]

    def __len__(self) -> int:
        return len(self._shapes)

    def __contains__(self, key: object) -> bool:
        try:
            return key in self._shapes
        except TypeError:
            return False

    def __iter__(self) -> Iterator[Key]:
        return iter(self._shapes)

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
        if not isinstance(rect, Rect):
            raise TypeError(f"rect must be a Rect, got {rect!r}")
        rect = as_shape(rect, "rect")  # type: ignore[assignment]
        return self._query_shape(rect, bounds_of(rect))

    def query_point(self, point: tuple[float, float]) -> list[Key]:
        """Keys whose shapes contain ``point`` strictly, in the order they were added."""
        x, y = _checks.point(point, "point")
        return self._query_shape(Rect(x, y, 0.0, 0.0), (x, y, x, y))

    def _query_shape(self, shape: Shape, box: Box) -> list[Key]:
        self.stats.begin()
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
        self.stats.begin()
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
        self.stats.begin()
        if self._partners is None:
            self._pairs_from_scratch()
        elif self._dirty:
            self._pairs_of_dirty_keys()
        self._dirty = set()
        return [(row[2], row[3]) for row in self._rows]

    def _pairs_from_scratch(self) -> None:
        shapes = self._shapes
        order = self._order
        partners: dict[Key, set[Key]] = {key: set() for key in shapes}
        tested: set[tuple[int, int]] = set()
        rows = []
        for a, b in self._candidate_pairs():
            oa = order[a]
            ob = order[b]
            if oa > ob:
                a, b, oa, ob = b, a, ob, oa
            if (oa, ob) in tested:
                continue
            tested.add((oa, ob))
            if overlaps(shapes[a], shapes[b]):
                partners[a].add(b)
                partners[b].add(a)
                rows.append((oa, ob, a, b))
        self.stats.count(tests=len(tested))
        rows.sort()  # rows are unique in (oa, ob): the keys are never compared
        self._partners = partners
        self._rows = rows

    def _pairs_of_dirty_keys(self) -> None:
        """Re-test only the keys added or updated since the last call."""
        partners = self._partners
        if partners is None:  # pragma: no cover - only called once the cache exists
            raise RuntimeError("no pair cache")
        shapes = self._shapes
        order = self._order
        dirty = self._dirty
        old: set[tuple[int, int]] = set()
        for key in dirty:
            mine = order[key]
            for other in partners[key]:
                theirs = order[other]
                old.add((mine, theirs) if mine < theirs else (theirs, mine))
                partners[other].discard(key)
            partners[key] = set()
        new: dict[tuple[int, int], tuple[Key, Key]] = {}
        tests = 0
        for key in dirty:
            shape = shapes[key]
            mine = order[key]
            for other in self._candidates(self._boxes[key]):
                theirs = order[other]
                pair = (mine, theirs) if mine < theirs else (theirs, mine)
                if other == key or pair in new:
                    continue
                tests += 1
                if overlaps(shape, shapes[other]):
                    partners[key].add(other)
                    partners[other].add(key)
                    new[pair] = (key, other) if mine < theirs else (other, key)
        self.stats.count(tests=tests)
        gone = old.difference(new)
        rows = self._rows
        if gone:
            rows = [row for row in rows if (row[0], row[1]) not in gone]
        added = [(*pair, *keys) for pair, keys in new.items() if pair not in old]
        if added:
            rows.extend(added)
            rows.sort()  # a sorted run and a short tail: nearly linear
        self._rows = rows

    def validate(self) -> None:
        """Check the internal invariants; raise ``AssertionError`` if one fails."""
        if not (self._shapes.keys() == self._boxes.keys() == self._order.keys()):
            raise AssertionError("shape, box and order tables disagree")
        for key, shape in self._shapes.items():
            if self._boxes[key] != bounds_of(shape):
                raise AssertionError(f"stale box for {key!r}")
        if self._partners is not None:
            if self._partners.keys() != self._shapes.keys():
                raise AssertionError("the pair cache has other keys than the index")
            if not self._dirty:
                from_partners = {
                    (self._order[a], self._order[b])
                    for a, others in self._partners.items()
                    for b in others
                    if self._order[a] < self._order[b]
                }
                if from_partners != {(row[0], row[1]) for row in self._rows}:
                    raise AssertionError("the cached pairs and partners disagree")
        self._validate_structure()
