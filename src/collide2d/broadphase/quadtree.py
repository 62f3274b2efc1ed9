"""A region quadtree with a capacity and a maximum depth, that grows to fit."""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np
from numpy.typing import NDArray

from collide2d._kernels import lazy
from collide2d.broadphase._index import Box
from collide2d.broadphase.array_index import touching_rows
from collide2d.broadphase.rebuilt import Built, RebuiltIndex
from collide2d.geometry.rect import Rect
from collide2d.geometry.rect_like import checked_rect

kernels = lazy("pairs.quadtree")


MAX_GROWTH = 64
"""Doublings of the root for one shape at most; a shape it cannot reach in as many
(or only through an edge that overflows float64) is kept in a list apart."""
MAX_DEPTH = 1100
"""Depths beyond this are never reached: a region halved this often is below the
spacing of floats (and stops splitting there anyway)."""


class _Tree(NamedTuple):
    """The compiled tree (``_kernels/pairs/quadtree.py``): its node arrays."""

    node_box: NDArray[np.float64]
    node_depth: NDArray[np.int64]
    node_child: NDArray[np.int64]
    node_start: NDArray[np.int64]
    node_count: NDArray[np.int64]
    buf: NDArray[np.int64]
    nodes: int


class Quadtree(RebuiltIndex):
    """A region quadtree: a leaf splits when it holds too many shapes.

    A shape is listed in every leaf its bounds touch. A leaf holding more than
    ``capacity`` shapes splits into four quadrants, unless it is at ``max_depth``
    or every shape it holds spans its centre (then no quadrant would hold fewer).
    When a shape falls outside the root (or no ``bounds`` were given) the root
    doubles toward it until it fits. A shape the root cannot reach in 64 doublings,
    or only through coordinates that overflow float64 (edges near ``1e308``), is kept
    in a short list apart that every query checks: no input makes the tree grow
    without end.

    The shapes live in numpy arrays, so ``add``, ``update`` and ``remove`` write a
    row (about a microsecond). The tree is built from the rows in compiled code when
    a query or ``pairs()`` needs it, and kept while few shapes move (those are
    handled apart; see ``collide2d.broadphase.rebuilt``); ``pairs()`` runs over its
    leaves in compiled code.

    Parameters
    ----------
    bounds : Rect or rect-like, optional
        The region of the root (a ``pygame.Rect`` or an ``(x, y, w, h)`` is taken as
        the ``Rect`` of the same numbers). Grown as needed; derived from the first
        shape when omitted.
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

    def __init__(self, bounds: Rect | object = None, capacity: int = 4, max_depth: int = 8) -> None:
        if bounds is not None and not isinstance(bounds, Rect):
            bounds = checked_rect(bounds, "bounds")  # a pygame.Rect, an (x, y, w, h)
        if isinstance(capacity, bool) or not isinstance(capacity, int) or capacity < 1:
            raise ValueError(f"capacity must be an int >= 1, got {capacity!r}")
        if isinstance(max_depth, bool) or not isinstance(max_depth, int) or max_depth < 0:
            raise ValueError(f"max_depth must be an int >= 0, got {max_depth!r}")
        super().__init__()
        self.capacity = capacity
        self.max_depth = max_depth
        self._root: Box | None = None
        self._sizes = (0, 0)  # the arrays the last build needed: the next starts there
        if bounds is not None:
            self._root = _square(bounds.left, bounds.top, bounds.right, bounds.bottom)

    # -- the tree ----------------------------------------------------------------------
    def _build(self, box: NDArray[np.float64]) -> tuple[_Tree, NDArray[np.intp]]:
        inside = self._fit_root(box)
        items = np.flatnonzero(inside)
        root = np.array(self._root if self._root is not None else (0.0, 0.0, 0.0, 0.0))
        depth = min(self.max_depth, MAX_DEPTH)
        size_nodes, size_buf = 64 + 3 * len(items), 64 + 16 * len(items)
        if self._sizes[1] >= len(items):  # the last build's sizes, for as many shapes
            size_nodes, size_buf = max(size_nodes, self._sizes[0]), max(size_buf, self._sizes[1])
        nodes = 0
        while len(items):
            node_box = np.empty((size_nodes, 4))
            node_depth = np.empty(size_nodes, dtype=np.int64)
            node_child = np.empty(size_nodes, dtype=np.int64)
            node_start = np.empty(size_nodes, dtype=np.int64)
            node_count = np.empty(size_nodes, dtype=np.int64)
            buf = np.empty(size_buf, dtype=np.int64)
            quads = np.empty(size_buf, dtype=np.int8)
            stack = np.empty(size_nodes, dtype=np.int64)
            nodes, filled = kernels.build(
                box, items, root, self.capacity, depth, node_box, node_depth, node_child,
                node_start, node_count, buf, quads, stack,
            )  # fmt: skip
            if nodes <= size_nodes and filled <= size_buf:
                self._sizes = (int(nodes) + 64, int(filled) + 64)
                break
            size_nodes, size_buf = 2 * max(size_nodes, nodes), 2 * max(size_buf, filled)
        else:
            node_box = np.empty((0, 4))
            node_depth = node_child = node_start = node_count = buf = np.empty(0, dtype=np.int64)
        tree = _Tree(node_box, node_depth, node_child, node_start, node_count, buf, int(nodes))
        return tree, np.flatnonzero(~inside)

    def _fit_root(self, box: NDArray[np.float64]) -> NDArray[np.bool_]:
        """Grow the root (in the order the shapes were added) to hold every box it
        can; return which boxes it holds."""
        root = self._root
        inside = np.zeros(box.shape[0], dtype=bool)
        if root is not None:
            inside = _within(box, root)
        for k in np.flatnonzero(~inside).tolist():
            if inside[k]:
                continue
            row = tuple(box[k].tolist())
            if root is None:
                root = _square(*row)
                if root is None:
                    continue
            elif not _holds(root, row):
                grown = _grown(root, row)
                if grown is None:
                    continue
                root = grown
            inside = _within(box, root)  # the later boxes it holds now
        self._root = root
        return inside

    def _structure_pairs(self, built: Built) -> tuple[NDArray[np.int64], int, int]:
        tree: _Tree = built.parts
        n = len(built.live)
        room = 4 * n + 64
        while True:
            out = np.empty(room, dtype=np.int64)
            found, tests, leaves = kernels.leaf_pair_codes(
                built.box, tree.buf, tree.node_box, tree.node_child, tree.node_start,
                tree.node_count, tree.nodes, n, out,
            )  # fmt: skip
            if found <= room:
                return out[:found], int(tests), int(leaves)
            room = 2 * found

    def _structure_query(self, built: Built, box: Box) -> tuple[NDArray[np.int64], int] | None:
        tree: _Tree = built.parts
        if not tree.nodes:
            return np.zeros(0, dtype=np.int64), 0
        seen, epoch = self._query_marks(len(built.live))
        q = np.array(box, dtype=np.float64)
        room = 64
        while True:
            out = np.empty(room, dtype=np.int64)
            count, visits = kernels.query(
                tree.node_box, tree.node_child, tree.node_start, tree.node_count, tree.buf,
                q, seen, epoch, out,
            )  # fmt: skip
            if count <= room:
                return out[:count], int(visits)
            room = count
            seen, epoch = self._query_marks(len(built.live))

    # -- inspection ----------------------------------------------------------------------
    @property
    def bounds(self) -> Rect | None:
        """The root's region, or None before the first shape."""
        self._structure()
        root = self._root
        if root is None:
            return None
        return Rect(root[0], root[1], root[2] - root[0], root[3] - root[1])

    def leaves(self) -> list[tuple[Rect, int, int]]:
        """Every leaf as ``(region, depth, number of shapes)`` (for drawing), as last
        built (shapes that moved since are listed where they were)."""
        tree: _Tree = self._structure().parts
        leaves = np.flatnonzero(tree.node_child[: tree.nodes] < 0)
        regions = tree.node_box[leaves]
        rows = np.column_stack([regions[:, :2], regions[:, 2:] - regions[:, :2]]).tolist()
        new = tuple.__new__  # finite regions (the root is usable): Rect's checks would pass
        return [
            (new(Rect, row), depth, count)
            for row, depth, count in zip(
                rows,
                tree.node_depth[leaves].tolist(),
                tree.node_count[leaves].tolist(),
                strict=True,
            )
        ]

    def _validate_structure(self) -> None:
        super()._validate_structure()
        built = self._structure()
        tree: _Tree = built.parts
        root = self._root
        inside = np.setdiff1d(np.arange(len(built.live)), built.apart)
        if root is None:
            if len(inside):
                raise AssertionError("shapes but no root")
            return
        if len(inside) and not _within(built.box[inside], root).all():
            raise AssertionError("a shape filed in the tree lies outside the root")
        if len(built.apart) and _within(built.box[built.apart], root).any():
            raise AssertionError("a shape the root holds is kept apart")
        for node in range(tree.nodes):
            if tree.node_child[node] >= 0:
                continue
            if tree.node_depth[node] > self.max_depth:
                raise AssertionError("a leaf below max_depth")
            start = tree.node_start[node]
            held = set(tree.buf[start : start + tree.node_count[node]].tolist())
            touching = set(inside[touching_rows(built.box[inside], tree.node_box[node])].tolist())
            if held != touching:
                raise AssertionError("a leaf does not hold exactly the shapes that touch it")


def _within(box: NDArray[np.float64], root: Box) -> NDArray[np.bool_]:
    """Which rows of ``box`` lie inside the closed region ``root``."""
    result: NDArray[np.bool_] = (
        (root[0] <= box[:, 0])
        & (box[:, 2] <= root[2])
        & (root[1] <= box[:, 1])
        & (box[:, 3] <= root[3])
    )
    return result


def _holds(root: Box, box: Box) -> bool:
    return root[0] <= box[0] and box[2] <= root[2] and root[1] <= box[1] and box[3] <= root[3]


def _square(left: float, top: float, right: float, bottom: float) -> Box | None:
    """A square root region from ``(left, top)`` holding the box, or None if its
    edges would not be finite or its side is lost in the coordinates' rounding."""
    side = max(right - left, bottom - top, 1.0)
    # At 1e16 a side of 1 is below the spacing of floats: take a side that shows.
    side = max(side, 2.0**20 * math.ulp(max(abs(left), abs(top))))
    node = (left, top, left + side, top + side)
    return node if _usable(node) and node[2] >= right and node[3] >= bottom else None


def _grown(root: Box, box: Box) -> Box | None:
    """The root doubled toward ``box`` until it holds it, or None if that takes more
    than ``MAX_GROWTH`` doublings or leaves the finite floats."""
    left, top, right, bottom = root
    for _ in range(MAX_GROWTH):
        if left <= box[0] and box[2] <= right and top <= box[1] and box[3] <= bottom:
            node = (left, top, right, bottom)
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


def _usable(node: Box) -> bool:
    """Whether a region's edges, side and centre are finite floats (halving it then
    makes progress or stops at ``max_depth``)."""
    left, top, right, bottom = node
    return (
        math.isfinite(right - left)
        and math.isfinite(bottom - top)
        and (math.isfinite(left + right) and math.isfinite(top + bottom))
    )
