"""A uniform grid of square buckets, unbounded, filled from the shapes' rows in
compiled code."""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np
from numpy.typing import NDArray

from collide2d._kernels import lazy
from collide2d.broadphase._index import Box
from collide2d.broadphase.rebuilt import Built, RebuiltIndex
from collide2d.geometry import _checks
from collide2d.geometry.rect import Rect

kernels = lazy("quadtree")

MAX_CELLS_PER_SHAPE = 1024
"""A shape whose bounds touch more cells than this is kept in a short list of
large shapes that every query checks, instead of in the cells; so is a shape whose
cell numbers pass 2**30 (an edge at ``inf``, as ``Rect(1e308, 0, 1e308, 1)`` has)."""
CELL_LIMIT = 2**30
"""Cell numbers (column, row) stay within this of 0; beyond, a shape is kept apart."""


class _Cells(NamedTuple):
    """The cells: entries (cell key, item) sorted by key, and each item's cell range
    (columns ``span[i, 0]`` to ``span[i, 2]``, rows ``span[i, 1]`` to ``span[i, 3]``)."""

    keys: NDArray[np.int64]
    values: NDArray[np.int64]
    span: NDArray[np.int64]


class UniformGrid(RebuiltIndex):
    """Shapes are listed in every square cell their bounds touch.

    The shapes live in numpy arrays, so ``add``, ``update`` and ``remove`` write a
    row (about a microsecond). The cells are filled from the rows in compiled code
    when a query or ``pairs()`` needs them, and kept while few shapes move (those are
    handled apart; see ``collide2d.broadphase.rebuilt``); ``pairs()`` tests the
    shapes that share a cell, each pair once, in compiled code.

    Parameters
    ----------
    cell_size : float, default 64
        The side of a cell. About the size of a typical shape is a good choice:
        much smaller and shapes fill many cells, much larger and cells hold many
        shapes.

    Examples
    --------
    >>> from collide2d import Rect
    >>> grid = UniformGrid(cell_size=32)
    >>> grid.add(1, Rect(0, 0, 10, 10))
    >>> grid.add(2, Rect(500, 500, 10, 10))
    >>> grid.query_rect(Rect(5, 5, 1, 1)), grid.pairs()
    ([1], [])
    """

    method = "uniform_grid"

    def __init__(self, cell_size: float = 64.0) -> None:
        size = _checks.real(cell_size, "cell_size")
        if size <= 0.0:
            raise ValueError(f"cell_size must be > 0, got {cell_size!r}")
        super().__init__()
        self.cell_size = size

    # -- the cells ---------------------------------------------------------------------
    def _build(self, box: NDArray[np.float64]) -> tuple[_Cells, NDArray[np.intp]]:
        n = box.shape[0]
        items = np.arange(n, dtype=np.int64)
        span = np.zeros((n, 4), dtype=np.int64)
        counts = np.zeros(n, dtype=np.int64)
        total = kernels.grid_cells(box, items, self.cell_size, MAX_CELLS_PER_SHAPE, span, counts)
        keys = np.empty(total, dtype=np.int64)
        values = np.empty(total, dtype=np.int64)
        kernels.grid_entries(items, span, counts, keys, values)
        order = np.argsort(keys, kind="stable")
        return _Cells(keys[order], values[order], span), np.flatnonzero(counts == 0)

    def _range(self, box: Box) -> tuple[int, int, int, int] | None:
        """The cells a box touches (first and last column and row), None if they pass
        ``CELL_LIMIT``."""
        c = self.cell_size
        try:
            span = tuple(math.floor(v / c) for v in box)
        except (OverflowError, ValueError):  # an edge (or edge / cell_size) beyond the floats
            return None
        if not all(-CELL_LIMIT < v < CELL_LIMIT for v in span):
            return None
        return span  # type: ignore[return-value]

    def _structure_pairs(self, built: Built) -> tuple[NDArray[np.int64], int, int]:
        cells: _Cells = built.parts
        n = len(built.live)
        room = 4 * n + 64
        while True:
            out = np.empty(room, dtype=np.int64)
            found, tests, visited = kernels.grid_pair_codes(
                built.box, cells.keys, cells.values, cells.span, n, out
            )
            if found <= room:
                return out[:found], int(tests), int(visited)
            room = 2 * found

    def _structure_query(self, built: Built, box: Box) -> tuple[NDArray[np.int64], int] | None:
        cells: _Cells = built.parts
        span = self._range(box)
        if span is None or _area(span) > max(len(cells.keys), 1):
            return None  # beyond the cells' numbers, or more cells than entries
        room = 64
        while True:
            seen, epoch = self._query_marks(len(built.live))
            out = np.empty(room, dtype=np.int64)
            count, visits = kernels.grid_query(cells.keys, cells.values, *span, seen, epoch, out)
            if count <= room:
                return out[:count], int(visits)
            room = count

    # -- inspection ----------------------------------------------------------------------
    def cells(self) -> list[Rect]:
        """The occupied cells, as rectangles (for drawing), as last built (shapes that
        moved since are listed where they were)."""
        c = self.cell_size
        cells: _Cells = self._structure().parts
        keys = np.unique(cells.keys)
        xs = (keys // 2**31 - 2**30).tolist()
        ys = (keys % 2**31 - 2**30).tolist()
        return [Rect(x * c, y * c, c, c) for x, y in zip(xs, ys, strict=True)]

    def _validate_structure(self) -> None:
        super()._validate_structure()
        built = self._structure()
        cells: _Cells = built.parts
        if len(cells.keys) and not (np.diff(cells.keys) >= 0).all():
            raise AssertionError("the cell entries are not sorted")
        listed: dict[int, set[int]] = {}
        for key, item in zip(cells.keys.tolist(), cells.values.tolist(), strict=True):
            listed.setdefault(item, set()).add(key)
        apart = set(built.apart.tolist())
        for k, row in enumerate(built.box.tolist()):
            span = self._range(tuple(row))
            if span is None or _area(span) > MAX_CELLS_PER_SHAPE:
                if k not in apart:
                    raise AssertionError(f"row {k} should be kept apart")
                continue
            expected = {
                (x + 2**30) * 2**31 + (y + 2**30)
                for x in range(span[0], span[2] + 1)
                for y in range(span[1], span[3] + 1)
            }
            if listed.get(k, set()) != expected:
                raise AssertionError(f"row {k} is listed in other cells than it touches")


def _area(span: tuple[int, int, int, int]) -> int:
    return (span[2] - span[0] + 1) * (span[3] - span[1] + 1)
