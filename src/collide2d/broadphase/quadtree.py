"""A region quadtree with a capacity and a maximum depth, that grows to fit."""

from __future__ import annotations

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


class Quadtree(CachedPairsIndex):
    """A region quadtree: a leaf splits when it holds too many shapes.

    A shape is listed in every leaf its bounds touch. A leaf holding more than
    ``capacity`` shapes splits into four quadrants, unless it is at ``max_depth``
    or every shape it holds spans its centre (then no quadrant would hold fewer).
    When a shape falls outside the root (or no ``bounds`` were given) the root
    doubles toward it until it fits and the shapes are re-inserted.

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
        if bounds is not None:
            self._root = self._square(bounds.left, bounds.top, bounds.right, bounds.bottom)

    @staticmethod
    def _square(left: float, top: float, right: float, bottom: float) -> _Node:
        side = max(right - left, bottom - top, 1.0)
        return _Node(left, top, left + side, top + side, 0)

    # -- mutation ----------------------------------------------------------------------
    def _insert(self, key: Key, box: Box) -> None:
        root = self._root
        if root is None:
            root = self._root = self._square(*box)
        if not (
            root.left <= box[0]
            and box[2] <= root.right
            and root.top <= box[1]
            and box[3] <= root.bottom
        ):
            self._grow(box, key)
            root = self._root
            if root is None:  # pragma: no cover - _grow always sets a root
                raise RuntimeError("quadtree lost its root")
        self._insert_into(root, key, box)

    def _grow(self, box: Box, key: Key) -> None:
        """Double the root toward ``box`` until it fits; re-insert the shapes but ``key``."""
        root = self._root
        if root is None:  # pragma: no cover
            raise RuntimeError("no root to grow")
        left, top, right, bottom = root.left, root.top, root.right, root.bottom
        while not (left <= box[0] and box[2] <= right and top <= box[1] and box[3] <= bottom):
            side = right - left
            if box[0] < left:
                left -= side
            else:
                right += side
            if box[1] < top:
                top -= side
            else:
                bottom += side
        self._root = _Node(left, top, right, bottom, 0)
        for other, other_box in self._boxes.items():
            if other != key:  # key's stored box is stale during an update
                self._insert_into(self._root, other, other_box)

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
        found: dict[Key, None] = {}
        visits = 0
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
            if self._shapes:
                raise AssertionError("shapes but no root")
            return
        for key, box in self._boxes.items():
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
                if leaf.touches(box) and key not in items:
                    raise AssertionError(f"{key!r} is missing from a leaf it touches")
