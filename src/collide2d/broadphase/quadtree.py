"""A region quadtree with a capacity and a maximum depth, that grows to fit."""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator

from collide2d.broadphase._index import Box
from collide2d.broadphase.pair_cache import CachedPairsIndex
from collide2d.broadphase.protocol import Key
from collide2d.geometry.rect import Rect


class _Node:
    """A square region: a leaf holding keys, or four children."""

    __slots__ = ("bottom", "children", "depth", "items", "left", "right", "top")

    def __init__(self, left: float, top: float, right: float, bottom: float, depth: int) -> None:
        self.left = left
        self.top = top
        self.right = right
        self.bottom = bottom
        self.depth = depth
        self.items: dict[Key, Box] | None = {}
        self.children: list[_Node] | None = None

    def touches(self, box: Box) -> bool:
        """Whether the closed region and the closed box intersect."""
        return (
            box[0] <= self.right
            and self.left <= box[2]
            and box[1] <= self.bottom
            and self.top <= box[3]
        )

    def split(self) -> None:
        mx = (self.left + self.right) * 0.5
        my = (self.top + self.bottom) * 0.5
        d = self.depth + 1
        self.children = [
            _Node(self.left, self.top, mx, my, d),
            _Node(mx, self.top, self.right, my, d),
            _Node(self.left, my, mx, self.bottom, d),
            _Node(mx, my, self.right, self.bottom, d),
        ]


MAX_GROWTH = 64
"""Doublings of the root for one shape at most; a shape it cannot reach in as many
(or only through an edge that overflows float64) is kept in a list apart."""


class Quadtree(CachedPairsIndex):
    """A region quadtree: a leaf splits when it holds too many shapes.

    A shape is listed in every leaf its bounds touch. A leaf holding more than
    ``capacity`` shapes splits into four quadrants, unless it is at ``max_depth``
    or every shape it holds spans its centre (then no quadrant would hold fewer).
    When a shape falls outside the root (or no ``bounds`` were given) the root
    doubles toward it until it fits and the shapes are re-inserted. A shape the root
    cannot reach in 64 doublings, or only through coordinates that overflow float64
    (edges near ``1e308``), is kept in a short list apart that every query checks: no
    input makes the tree grow without end.

    Parameters
    ----------
    bounds : Rect, optional
        The region of the root. Grown as needed; derived from the first shape when
        omitted.
    capacity : int, default 4
        Shapes a leaf holds before it splits.
    max_depth : int, default 8
        Depth below which no leaf splits (the root is depth 0).

    Examples
    --------
    >>> from collide2d import Rect
    >>> tree = Quadtree(Rect(0, 0, 100, 100), capacity=1)
    >>> for i in range(3):
    ...     tree.add(i, Rect(10 + 30 * i, 10, 20, 20))
    >>> tree.pairs(), tree.query_point((45, 20)), len(tree.leaves()) > 1
    ([], [1], True)
    """

    method = "quadtree"

    def __init__(self, bounds: Rect | None = None, capacity: int = 4, max_depth: int = 8) -> None:
        if bounds is not None and not isinstance(bounds, Rect):
            raise TypeError(f"bounds must be a Rect or None, got {bounds!r}")
        if isinstance(capacity, bool) or not isinstance(capacity, int) or capacity < 1:
            raise ValueError(f"capacity must be an int >= 1, got {capacity!r}")
        if isinstance(max_depth, bool) or not isinstance(max_depth, int) or max_depth < 0:
            raise ValueError(f"max_depth must be an int >= 0, got {max_depth!r}")
        super().__init__()
        self.capacity = capacity
        self.max_depth = max_depth
        self._root: _Node | None = None
        self._outside: dict[Key, Box] = {}
        if bounds is not None:
            self._root = self._square(bounds.left, bounds.top, bounds.right, bounds.bottom)

    @staticmethod
    def _square(left: float, top: float, right: float, bottom: float) -> _Node | None:
        """A square root region from ``(left, top)`` holding the box, or None if its
        edges would not be finite or its side is lost in the coordinates' rounding."""
        side = max(right - left, bottom - top, 1.0)
        # At 1e16 a side of 1 is below the spacing of floats: take a side that shows.
        side = max(side, 2.0**20 * math.ulp(max(abs(left), abs(top))))
        node = _Node(left, top, left + side, top + side, 0)
        return node if _usable(node) and node.right >= right and node.bottom >= bottom else None

    # -- mutation ----------------------------------------------------------------------
    def _insert(self, key: Key, box: Box) -> None:
        root = self._root
        if root is None:
            root = self._root = self._square(*box)
            if root is None:
                self._outside[key] = box
                return
        if not (
            root.left <= box[0]
            and box[2] <= root.right
            and root.top <= box[1]
            and box[3] <= root.bottom
        ):
            grown = self._grown(root, box)
            if grown is None:
                self._outside[key] = box
                return
            self._root = root = grown
            for other, other_box in self._boxes.items():
                # key's stored box is stale during an update; the outside stay there
                if other != key and other not in self._outside:
                    self._insert_into(root, other, other_box)
        self._insert_into(root, key, box)

    @staticmethod
    def _grown(root: _Node, box: Box) -> _Node | None:
        """An empty root doubled toward ``box`` until it holds it, or None if that
        takes more than ``MAX_GROWTH`` doublings or leaves the finite floats."""
        left, top, right, bottom = root.left, root.top, root.right, root.bottom
        for _ in range(MAX_GROWTH):
            if left <= box[0] and box[2] <= right and top <= box[1] and box[3] <= bottom:
                node = _Node(left, top, right, bottom, 0)
                return node if _usable(node) else None
            side = right - left
            if box[0] < left:
                left -= side
            else:
                right += side
            if box[1] < top:
                top -= side
            else:
                bottom += side
        return None

    def _insert_into(self, node: _Node, key: Key, box: Box) -> None:
        stack = [node]
        while stack:
            node = stack.pop()
            if node.children is not None:
                stack.extend(child for child in node.children if child.touches(box))
                continue
            items = node.items
            if items is None:  # pragma: no cover - leaves always have items
                raise RuntimeError("leaf without items")
            items[key] = box
            if len(items) > self.capacity and node.depth < self.max_depth:
                self._split(node)

    def _split(self, node: _Node) -> None:
        """Split an over-full leaf, unless no quadrant would hold fewer shapes."""
        items = node.items or {}
        node.split()
        children = node.children or []
        for child in children:
            child.items = {k: b for k, b in items.items() if child.touches(b)}
        if all(len(child.items or ()) == len(items) for child in children):
            node.children = None  # every shape spans the centre: splitting gains nothing
            return
        node.items = None
        for child in children:
            if len(child.items or ()) > self.capacity and child.depth < self.max_depth:
                self._split(child)

    def _delete(self, key: Key, box: Box) -> None:
        if self._outside.pop(key, None) is not None:
            return
        if self._root is not None:
            self._delete_from(self._root, key, box)

    def _delete_from(self, node: _Node, key: Key, box: Box) -> None:
        if node.children is None:
            if node.items is not None:
                node.items.pop(key, None)
            return
        for child in node.children:
            if child.touches(box):
                self._delete_from(child, key, box)
        # Merge four leaves back when what they hold fits in one.
        if all(child.children is None for child in node.children):
            merged: dict[Key, Box] = {}
            for child in node.children:
                merged.update(child.items or {})
            if len(merged) <= self.capacity:
                node.children = None
                node.items = merged

    # -- candidates ----------------------------------------------------------------------
    def _candidates(self, box: Box) -> Iterable[Key]:
        found: dict[Key, None] = dict.fromkeys(self._outside)
        visits = len(self._outside)
        if self._root is not None and self._root.touches(box):
            stack = [self._root]
            while stack:
                node = stack.pop()
                visits += 1
                if node.children is not None:
                    stack.extend(child for child in node.children if child.touches(box))
                elif node.items:
                    found.update(dict.fromkeys(node.items))
        self.stats.count(visits=visits)
        return found

    def _candidate_pairs(self) -> Iterator[tuple[Key, Key]]:
        self.stats.count(visits=len(self._outside))
        for a in self._outside:  # the base class skips pairs it has already tested
            for b in self._shapes:
                if b != a:
                    yield a, b
        for leaf in self._walk():
            self.stats.count(visits=1)
            keys = list(leaf.items or ())
            for i, a in enumerate(keys):
                for b in keys[i + 1 :]:
                    yield a, b

    def _walk(self) -> Iterator[_Node]:
        """The leaves, depth first."""
        if self._root is None:
            return
        stack = [self._root]
        while stack:
            node = stack.pop()
            if node.children is None:
                yield node
            else:
                stack.extend(node.children)

    # -- inspection ----------------------------------------------------------------------
    @property
    def bounds(self) -> Rect | None:
        """The root's region, or None before the first shape."""
        root = self._root
        if root is None:
            return None
        return Rect(root.left, root.top, root.right - root.left, root.bottom - root.top)

    def leaves(self) -> list[tuple[Rect, int, int]]:
        """Every leaf as ``(region, depth, number of shapes)`` (for drawing)."""
        return [
            (
                Rect(leaf.left, leaf.top, leaf.right - leaf.left, leaf.bottom - leaf.top),
                leaf.depth,
                len(leaf.items or ()),
            )
            for leaf in self._walk()
        ]

    def _validate_structure(self) -> None:
        root = self._root
        if root is None:
            if self._shapes.keys() != self._outside.keys():
                raise AssertionError("shapes but no root")
            return
        for key, box in self._outside.items():
            if self._boxes.get(key) != box:
                raise AssertionError(f"{key!r} is kept outside with a stale box")
        for key, box in self._boxes.items():
            if key in self._outside:
                continue
            if not (root.left <= box[0] and box[2] <= root.right):
                raise AssertionError(f"{key!r} lies outside the root")
            if not (root.top <= box[1] and box[3] <= root.bottom):
                raise AssertionError(f"{key!r} lies outside the root")
        for leaf in self._walk():
            if leaf.depth > self.max_depth:
                raise AssertionError("a leaf below max_depth")
            items = leaf.items or {}
            for key, box in items.items():
                if self._boxes.get(key) != box or not leaf.touches(box):
                    raise AssertionError(f"{key!r} is filed in a leaf it does not touch")
            for key, box in self._boxes.items():
                if leaf.touches(box) and key not in items and key not in self._outside:
                    raise AssertionError(f"{key!r} is missing from a leaf it touches")


def _usable(node: _Node) -> bool:
    """Whether a region's edges, side and centre are finite floats (halving it then
    makes progress or stops at ``max_depth``)."""
    return (
        math.isfinite(node.right - node.left)
        and math.isfinite(node.bottom - node.top)
        and (math.isfinite(node.left + node.right) and math.isfinite(node.top + node.bottom))
    )
