"""A uniform grid of square cells, numbered so that it is unbounded (up to cell numbers
of ``2**30``; shapes beyond are kept apart)."""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator
from typing import NamedTuple

import numpy as np
from numpy.typing import NDArray

from collide2d._kernels import lazy
from collide2d.broadphase._index import Box, Indexed
from collide2d.broadphase.protocol import Key
from collide2d.broadphase.rebuilt import Built, RebuiltIndex
from collide2d.geometry import _checks
from collide2d.geometry.rect import Rect

grid_kernels = lazy("pairs.quadtree")

MAX_CELLS_PER_SHAPE = 1024
"""A shape whose bounds touch more cells than this is kept in a short list of
large shapes that every query checks, instead of in the cells; so is a shape whose
cell numbers reach ``CELL_LIMIT`` (an edge at ``inf``, as ``Rect(1e308, 0, 1e308, 1)``
has)."""

CELL_LIMIT = 2**30
"""Cell numbers are kept below this in magnitude (a cell's key packs both into one
int64); a shape past it is kept apart, with the large ones."""

BUCKETS_AFTER = 32
"""Queries answered from the compiled cells since the grid was last told many shapes
at once (``update_rects``), after which it keeps its cells in dictionaries as well
and answers queries from those: a query between single moves (the World's way) then
costs a few dictionary lookups instead of a compiled call and array work."""

Cell = tuple[int, int]
Span = tuple[int, int, int, int]


class _Cells(NamedTuple):
    """The compiled grid (``_kernels/pairs/quadtree.py``): one entry per (cell, item),
    sorted by cell key, and each item's cell range."""

    keys: NDArray[np.int64]
    values: NDArray[np.int64]
    span: NDArray[np.int64]


class UniformGrid(RebuiltIndex):
    """Shapes are listed in every square cell their bounds touch.

    The shapes live in numpy arrays, so ``add``, ``update`` and ``remove`` write a
    row; the cells are built from the rows in compiled code (one entry per cell and
    shape, sorted by cell) when a query or ``pairs()`` needs them, and kept while few
    shapes move (those are handled apart; see ``collide2d.broadphase.rebuilt``). A
    shape that touches more than ``MAX_CELLS_PER_SHAPE`` cells, or whose cell numbers
    pass ``CELL_LIMIT``, is kept in a short list apart that every query checks.

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
    >>> grid.cells()
    [Rect(x=0.0, y=0.0, w=32.0, h=32.0), Rect(x=480.0, y=480.0, w=32.0, h=32.0)]
    """

    method = "uniform_grid"
    _buckets_after = BUCKETS_AFTER  # (the tests set 0 on an instance: dictionaries at once)

    def __init__(self, cell_size: float = 64.0) -> None:
        size = _checks.real(cell_size, "cell_size")
        if size <= 0.0:
            raise ValueError(f"cell_size must be > 0, got {cell_size!r}")
        super().__init__()
        self.cell_size = size
        # The cells as dictionaries, kept once queries outnumber bulk updates (see
        # BUCKETS_AFTER); None while not kept.
        self._buckets: dict[Cell, dict[Key, None]] | None = None
        self._ranges: dict[Key, Span | None] = {}
        self._large: dict[Key, None] = {}
        self._asked = 0

    # -- storage, with the dictionaries' cells when kept --------------------------------
    def _insert(self, key: Key, box: Box) -> None:
        super()._insert(key, box)
        if self._buckets is not None:
            self._bucket_in(key, box)

    def _delete(self, key: Key, box: Box) -> None:
        super()._delete(key, box)
        if self._buckets is not None:
            self._bucket_out(key)

    def update(self, key: Key, shape: Indexed) -> None:
        super().update(key, shape)  # (its fast path and its general one)
        if self._buckets is not None:
            box = self._boxes_now[key]
            if self._range(box) != self._ranges[key]:  # most small moves stay put
                self._bucket_out(key)
                self._bucket_in(key, box)

    update.__doc__ = RebuiltIndex.update.__doc__

    def _write_rects(self, keys: list[Key], rows: NDArray[np.float64]) -> None:
        super()._write_rects(keys, rows)
        self._buckets = None  # many moved at once: the compiled cells answer queries
        self._ranges, self._large, self._asked = {}, {}, 0

    def _bucket_in(self, key: Key, box: Box) -> None:
        assert self._buckets is not None
        span = self._range(box)
        self._ranges[key] = span
        if span is None or _area(span) > MAX_CELLS_PER_SHAPE:
            self._large[key] = None
            return
        cells = self._buckets
        for cell in _cells_in(span):
            bucket = cells.get(cell)
            if bucket is None:
                cells[cell] = {key: None}
            else:
                bucket[key] = None

    def _bucket_out(self, key: Key) -> None:
        assert self._buckets is not None
        span = self._ranges.pop(key)
        if span is None or key in self._large:
            del self._large[key]
            return
        cells = self._buckets
        for cell in _cells_in(span):
            bucket = cells[cell]
            del bucket[key]
            if not bucket:
                del cells[cell]

    def _candidates(self, box: Box) -> Iterable[Key]:
        if self._buckets is None:
            self._asked += 1
            if self._asked <= self._buckets_after:
                return super()._candidates(box)
            self._buckets = {}
            for key, kept in self._boxes.items():
                self._bucket_in(key, kept)
        return self._bucket_candidates(self._buckets, box)

    def _bucket_candidates(self, cells: dict[Cell, dict[Key, None]], box: Box) -> Iterable[Key]:
        span = self._range(box)
        if span is None:  # a query beyond the floats: every shape is a candidate
            self.stats.count(visits=len(cells) + len(self._large))
            return list(self._order)
        x0, y0, x1, y1 = span
        if x0 == x1 and y0 == y1 and not self._large:  # the common case: one cell
            self.stats.count(visits=1)
            return cells.get((x0, y0), ())
        if _area(span) > len(cells):  # a huge query: walk the occupied cells instead
            chosen: Iterable[Cell] = (
                cell for cell in cells if x0 <= cell[0] <= x1 and y0 <= cell[1] <= y1
            )
        else:
            chosen = _cells_in(span)
        visits = len(self._large)
        found: dict[Key, None] = dict(self._large)
        for cell in chosen:
            visits += 1
            bucket = cells.get(cell)
            if bucket:
                found.update(bucket)
        self.stats.count(visits=visits)
        return found

    # -- the cells -----------------------------------------------------------------------
    def _build(self, box: NDArray[np.float64]) -> tuple[_Cells, NDArray[np.intp]]:
        n = box.shape[0]
        items = np.arange(n, dtype=np.int64)
        span = np.zeros((n, 4), dtype=np.int64)
        counts = np.zeros(n, dtype=np.int64)
        total = grid_kernels.grid_cells(
            box, items, self.cell_size, MAX_CELLS_PER_SHAPE, float(CELL_LIMIT), span, counts
        )
        keys = np.empty(total, dtype=np.int64)
        values = np.empty(total, dtype=np.int64)
        grid_kernels.grid_entries(items, span, counts, keys, values)
        order = np.argsort(keys, kind="stable")
        return _Cells(keys[order], values[order], span), np.flatnonzero(counts == 0)

    def _structure_pairs(self, built: Built) -> tuple[NDArray[np.int64], int, int]:
        cells: _Cells = built.parts
        n = len(built.live)
        room = 4 * n + 64
        while True:
            out = np.empty(room, dtype=np.int64)
            found, tests, visited = grid_kernels.grid_pair_codes(
                built.box, cells.keys, cells.values, cells.span, n, out
            )
            if found <= room:
                return out[:found], int(tests), int(visited)
            room = 2 * found

    def _structure_query(self, built: Built, box: Box) -> tuple[NDArray[np.int64], int] | None:
        cells: _Cells = built.parts
        span = self._range(box)
        if span is None:  # a query beyond the floats: every row is tested
            return None
        # No listed shape has a cell number at or past the limit: clamp the query there.
        low, high = 1 - CELL_LIMIT, CELL_LIMIT - 1
        x0, y0 = max(span[0], low), max(span[1], low)
        x1, y1 = min(span[2], high), min(span[3], high)
        if x0 > x1 or y0 > y1:
            return np.zeros(0, dtype=np.int64), 0
        if (x1 - x0 + 1) * (y1 - y0 + 1) > len(cells.keys) + 16:  # more cells than entries
            return None
        seen, epoch = self._query_marks(len(built.live))
        room = 64
        while True:
            out = np.empty(room, dtype=np.int64)
            count, visits = grid_kernels.grid_query(
                cells.keys, cells.values, x0, y0, x1, y1, seen, epoch, out
            )
            if count <= room:
                return out[:count], int(visits)
            room = int(count)
            seen, epoch = self._query_marks(len(built.live))

    def _range(self, box: Box) -> Span | None:
        """The cells the closed ``box`` touches (first and last column and row), None
        if an edge's cell number overflows."""
        c = self.cell_size
        try:
            return (
                math.floor(box[0] / c),
                math.floor(box[1] / c),
                math.floor(box[2] / c),
                math.floor(box[3] / c),
            )
        except OverflowError:  # an edge (or edge / cell_size) beyond the floats
            return None

    # -- inspection ----------------------------------------------------------------------
    def cells(self) -> list[Rect]:
        """The occupied cells, as rectangles (for drawing), sorted by column, then row.

        Where the shapes are now: cells kept while a few shapes moved are built again
        first."""
        if self._moved:
            self._built = None
        cells: _Cells = self._structure().parts
        occupied = np.unique(cells.keys)
        columns = occupied // 2**31 - 2**30
        rows = occupied % 2**31 - 2**30
        c = self.cell_size
        pairs = zip(columns.tolist(), rows.tolist(), strict=True)
        return [Rect(x * c, y * c, c, c) for x, y in pairs]

    def _validate_structure(self) -> None:
        super()._validate_structure()
        built = self._structure()
        cells: _Cells = built.parts
        expected: list[tuple[int, int]] = []
        apart: list[int] = []
        for item, row in enumerate(built.box.tolist()):
            span = self._range(tuple(row))
            if (
                span is None
                or max(-span[0], -span[1], span[2], span[3]) >= CELL_LIMIT
                or _area(span) > MAX_CELLS_PER_SHAPE
            ):
                apart.append(item)
                continue
            for x in range(span[0], span[2] + 1):
                for y in range(span[1], span[3] + 1):
                    expected.append(((x + 2**30) * 2**31 + (y + 2**30), item))
        if sorted(expected) != sorted(zip(cells.keys.tolist(), cells.values.tolist(), strict=True)):
            raise AssertionError("cell contents differ from the shapes' ranges")
        if apart != built.apart.tolist():
            raise AssertionError("the shapes kept apart are not the large and far ones")
        if self._buckets is not None:
            self._validate_buckets(self._buckets)

    def _validate_buckets(self, buckets: dict[Cell, dict[Key, None]]) -> None:
        if self._ranges.keys() != self._shapes.keys():
            raise AssertionError("cell ranges and shapes disagree")
        expected: dict[Cell, set[Key]] = {}
        for key, box in self._boxes.items():
            span = self._range(box)
            if self._ranges[key] != span:
                raise AssertionError(f"stale cell range for {key!r}")
            if (key in self._large) != (span is None or _area(span) > MAX_CELLS_PER_SHAPE):
                raise AssertionError(f"{key!r} is misfiled between cells and large shapes")
            if span is None or key in self._large:
                continue
            for cell in _cells_in(span):
                expected.setdefault(cell, set()).add(key)
        if {cell: set(bucket) for cell, bucket in buckets.items()} != expected:
            raise AssertionError("cell contents differ from the shapes' ranges")


def _area(span: Span) -> int:
    return (span[2] - span[0] + 1) * (span[3] - span[1] + 1)


def _cells_in(span: Span) -> Iterator[Cell]:
    for x in range(span[0], span[2] + 1):
        for y in range(span[1], span[3] + 1):
            yield x, y
