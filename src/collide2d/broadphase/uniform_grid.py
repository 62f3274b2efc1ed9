"""A uniform grid of square buckets, hashed so that it is unbounded."""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator, Sequence
from itertools import repeat

import numpy as np

from collide2d._kernels import lazy
from collide2d._kernels.pairs.search import widen_outward
from collide2d.broadphase._index import Box, Indexed, needs_exact_test
from collide2d.broadphase.array_index import apart_pairs, decoded
from collide2d.broadphase.pair_cache import CachedPairsIndex
from collide2d.broadphase.protocol import Key
from collide2d.gc_pause import collector_paused
from collide2d.geometry import _checks
from collide2d.geometry.overlap import overlaps
from collide2d.geometry.rect import Rect

grid_kernels = lazy("pairs.quadtree")

Cell = tuple[int, int]

MAX_CELLS_PER_SHAPE = 1024
"""A shape whose bounds touch more cells than this is kept in a short list of
large shapes that every query checks, instead of in the cells; so is a shape whose
cell numbers overflow (an edge at ``inf``, as ``Rect(1e308, 0, 1e308, 1)`` has)."""

CELL_LIMIT = 2**30
"""The compiled search keeps a shape whose cell numbers pass this apart (tested
against every shape), as the cells keep one whose numbers overflow."""

BULK = 8
"""``update_rects`` of this many keys or more finds their boxes and cells as arrays;
fewer are updated one by one."""

SPAN_LIMIT = 2.0**52
"""Cell numbers below this (in magnitude) are exact as float and as int64 both; a
box past it has its span found by ``_range``, one by one."""

Span = tuple[int, int, int, int] | None
"""The cells a box touches (first and last column and row), None if they overflow."""


class UniformGrid(CachedPairsIndex):
    """Shapes are listed in every square cell their bounds touch.

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
        self._cells: dict[Cell, dict[Key, None]] = {}
        self._ranges: dict[Key, Span] = {}
        self._large: dict[Key, None] = {}

    def update(self, key: Key, shape: Indexed) -> None:
        """Replace ``key``'s shape (a teleport: no sweep and no response).

        The fast path (a ``Rect`` replacing a ``Rect``) does what the general one does
        with fewer steps: this is the call a game makes for every moving shape.
        """
        try:
            old = self._shapes.get(key)
        except TypeError:  # unhashable: the general path says so
            old = None
        if type(shape) is not Rect or type(old) is not Rect:
            super().update(key, shape)
            return
        x, y, w, h = shape
        box = (x, y, x + w, y + h)
        self._shapes[key] = shape
        before = self._boxes[key]
        if box != before:
            self._boxes[key] = box
            if self._range(box) != self._ranges[key]:  # most small moves stay put
                self._delete(key, before)
                self._insert(key, box)
        if self._partners is not None:
            self._dirty.add(key)

    update.__doc__ = CachedPairsIndex.update.__doc__

    def update_rects(self, keys: Sequence[Key], rects: object) -> None:
        keys, rows = self._checked_rects(keys, rects)
        if len(keys) < BULK or len(set(keys)) < len(keys):  # a few, or a key twice: in turn
            new = tuple.__new__  # the rows passed Rect's checks
            for key, row in zip(keys, rows.tolist(), strict=True):
                self.update(key, new(Rect, row))
            return
        with collector_paused():  # thousands of new tuples, no cycles
            self._write_rects(keys, rows)

    update_rects.__doc__ = CachedPairsIndex.update_rects.__doc__

    def _write_rects(self, keys: list[Key], rows: np.ndarray) -> None:
        """``update`` of every key at once: the boxes and cell spans found as arrays,
        the cells changed only for the keys whose span changed (a frame's small
        moves leave most in their cells)."""
        boxes = np.empty_like(rows)
        boxes[:, :2] = rows[:, :2]
        boxes[:, 2:] = rows[:, :2] + rows[:, 2:]  # the floats update's x + w makes
        with np.errstate(over="ignore", invalid="ignore"):
            spans = np.floor(boxes / self.cell_size)  # _range's floor(edge / size)
            plain = np.all(np.abs(spans) < SPAN_LIMIT, axis=1).tolist()  # else None, huge ints
            span_rows = spans.astype(np.int64).tolist()  # (those rows' values unread)
        box_rows = boxes.tolist()
        ranges, old_boxes = self._ranges, self._boxes
        for key, span, box, kept in zip(keys, span_rows, box_rows, plain, strict=True):
            if not kept or tuple(span) != ranges[key]:
                self._delete(key, old_boxes[key])
                self._insert(key, tuple(box))  # its span found again, exactly
        new = tuple.__new__  # the rows passed Rect's checks
        self._shapes.update(zip(keys, map(new, repeat(Rect), rows.tolist()), strict=True))
        old_boxes.update(zip(keys, map(tuple, box_rows), strict=True))
        if self._partners is not None:
            self._dirty.update(keys)

    def _range(self, box: Box) -> Span:
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

    def _insert(self, key: Key, box: Box) -> None:
        span = self._range(box)
        self._ranges[key] = span
        if span is None or _area(span) > MAX_CELLS_PER_SHAPE:
            self._large[key] = None
            return
        cells = self._cells
        for cell in _cells_in(span):
            bucket = cells.get(cell)
            if bucket is None:
                cells[cell] = {key: None}
            else:
                bucket[key] = None

    def _move(self, key: Key, old: Box, new: Box) -> None:
        if self._range(new) != self._ranges[key]:  # most small moves stay in their cells
            self._delete(key, old)
            self._insert(key, new)

    def _delete(self, key: Key, box: Box) -> None:
        span = self._ranges.pop(key)
        if span is None or key in self._large:
            del self._large[key]
            return
        cells = self._cells
        for cell in _cells_in(span):
            bucket = cells[cell]
            del bucket[key]
            if not bucket:
                del cells[cell]

    def _candidates(self, box: Box) -> Iterable[Key]:
        cells = self._cells
        span = self._range(box)
        if span is None:  # a query beyond the floats: every shape is a candidate
            self.stats.count(visits=len(cells) + len(self._large))
            return dict.fromkeys(self._shapes)
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

    def _candidate_pairs(self) -> Iterator[tuple[Key, Key]]:
        self.stats.count(visits=len(self._cells) + len(self._large))
        for a in self._large:  # the base class skips pairs it has already tested
            for b in self._shapes:
                if b != a:
                    yield a, b
        for bucket in self._cells.values():
            keys = list(bucket)
            for i, a in enumerate(keys):
                for b in keys[i + 1 :]:
                    yield a, b

    def _compiled_pairs(self) -> list[tuple[int, int, Key, Key]] | None:
        """Every overlapping pair from the boxes, by the same cells, in compiled code
        (``_kernels/pairs/quadtree.py``: the grid kernels)."""
        with collector_paused():  # thousands of new tuples, no cycles
            return self._searched_pairs()

    def _searched_pairs(self) -> list[tuple[int, int, Key, Key]]:
        keys = list(self._shapes)
        n = len(keys)
        if n < 2:
            return []
        box = np.array(list(map(self._boxes.__getitem__, keys)), dtype=np.float64)
        shapes = self._shapes
        exact = np.fromiter(map(needs_exact_test, shapes.values()), dtype=bool, count=n)
        if exact.any():  # circles' and polygons' bounds an ulp wider (see widen_outward)
            widened = box[exact]
            widen_outward(widened)
            box[exact] = widened
        items = np.arange(n, dtype=np.int64)
        span = np.zeros((n, 4), dtype=np.int64)
        counts = np.zeros(n, dtype=np.int64)
        total = grid_kernels.grid_cells(
            box, items, self.cell_size, MAX_CELLS_PER_SHAPE, float(CELL_LIMIT), span, counts
        )
        cell_keys = np.empty(total, dtype=np.int64)
        values = np.empty(total, dtype=np.int64)
        grid_kernels.grid_entries(items, span, counts, cell_keys, values)
        order = np.argsort(cell_keys, kind="stable")
        cell_keys, values = cell_keys[order], values[order]
        room = 4 * n + 64
        while True:
            out = np.empty(room, dtype=np.int64)
            found, tests, visited = grid_kernels.grid_pair_codes(
                box, cell_keys, values, span, n, out
            )
            if found <= room:
                break
            room = 2 * found
        codes = np.sort(out[:found])
        tests = int(tests)
        large = np.flatnonzero(counts == 0)
        if len(large):  # the large shapes, against every shape
            extra, made = apart_pairs(box, large)
            codes = np.union1d(codes, extra)
            tests += made
        pairs = decoded(codes, n)
        either = exact[pairs[:, 0]] | exact[pairs[:, 1]]
        tested = int(either.sum())
        if tested:  # circles and polygons: their exact test
            keep = ~either
            rows = np.flatnonzero(either).tolist()
            for row, (a, b) in zip(rows, pairs[either].tolist(), strict=True):
                keep[row] = overlaps(shapes[keys[a]], shapes[keys[b]])
            pairs = pairs[keep]
        self.stats.count(tests=tests + tested, visits=int(visited) + len(large))
        # Rows (order a, order b, key a, key b), built in C: the keys are listed in the
        # order they were added and each pair's a is before its b, so the codes' order
        # is the rows' order.
        first, second = pairs[:, 0].tolist(), pairs[:, 1].tolist()
        orders = list(map(self._order.__getitem__, keys))
        at_order, at_key = orders.__getitem__, keys.__getitem__
        return list(zip(map(at_order, first), map(at_order, second),
                        map(at_key, first), map(at_key, second), strict=True))  # fmt: skip

    def cells(self) -> list[Rect]:
        """The occupied cells, as rectangles (for drawing)."""
        c = self.cell_size
        return [Rect(x * c, y * c, c, c) for x, y in self._cells]

    def _validate_structure(self) -> None:
        if self._ranges.keys() != self._shapes.keys():
            raise AssertionError("cell ranges and shapes disagree")
        expected: dict[Cell, set[Key]] = {}
        for key, box in self._boxes.items():
            if self._ranges[key] != self._range(box):
                raise AssertionError(f"stale cell range for {key!r}")
            span = self._ranges[key]
            if (key in self._large) != (span is None or _area(span) > MAX_CELLS_PER_SHAPE):
                raise AssertionError(f"{key!r} is misfiled between cells and large shapes")
            if span is None or key in self._large:
                continue
            for cell in _cells_in(span):
                expected.setdefault(cell, set()).add(key)
        actual = {cell: set(bucket) for cell, bucket in self._cells.items()}
        if actual != expected:
            raise AssertionError("cell contents differ from the shapes' ranges")


def _area(span: tuple[int, int, int, int]) -> int:
    return (span[2] - span[0] + 1) * (span[3] - span[1] + 1)


def _cells_in(span: tuple[int, int, int, int]) -> Iterator[Cell]:
    for x in range(span[0], span[2] + 1):
        for y in range(span[1], span[3] + 1):
            yield x, y
