"""The World's items listed by grid cell, for ``World.move`` and ``check`` of one
rectangle (:mod:`collide2d._kernels.moves.cell_lists`).

The lists follow the item table: made from its rows when first needed, changed by
the single moves themselves, and made again whenever anything else wrote the table
(``ItemTable.version`` differs, its arrays were replaced, or ``World.step`` ran: the
step writes its rows without counting). A game that moves its actors one by one
pays for a search of a few cells and the change of one item's lists a move, in
compiled code; the World's broadphase learns of the moves when it is next read.
"""

from __future__ import annotations

import numpy as np

from collide2d._kernels import lazy
from collide2d._kernels.codes import MAX_RESPONSES
from collide2d.world.table import ItemTable

lists = lazy("moves.cell_lists")


class CellLists:
    """The arrays of :mod:`collide2d._kernels.moves.cell_lists` for one World's table,
    with cells of side ``cell``."""

    def __init__(self, cell: float) -> None:
        self.cell = cell
        self.version = -1  # the table's version the lists hold; -1: make them again
        self.box: np.ndarray | None = None  # the table's box array they were made from
        self.room = 1024  # entries (the hash has four rows for each and more)
        self.candidates = 64  # the most candidates a move can take (grown on demand)

    def forget(self) -> None:
        """Have the lists made again before their next use."""
        self.version = -1

    def _current(self, table: ItemTable) -> bool:
        """Whether the lists held ``table``'s rows before its last write."""
        return self.version == table.version - 1 and self.box is table.box

    def placed(self, table: ItemTable, slot: int) -> None:
        """Row ``slot`` was written (an item placed, updated or added), and nothing else
        since the lists were made: list it where it is now."""
        if self._current(table):
            status = lists.relocate(table.box, slot, self.cell, self.ints, self.floats)
            self.version = table.version if status == lists.OK else -1

    def removed(self, table: ItemTable, slot: int, count: int) -> None:
        """Slot ``slot`` was emptied (``count`` the slots before: the table compacts its
        rows now and then, which numbers them again)."""
        if self._current(table) and len(table.items) == count:
            lists.take_out(slot, self.ints, self.floats)
            self.version = table.version

    def unmoved(self, table: ItemTable) -> None:
        """The table was written without a row's box changing (a velocity set)."""
        if self._current(table):
            self.version = table.version

    def ready(self, table: ItemTable, candidates: int = 0) -> None:
        """Make the lists from ``table``'s rows unless they hold them already, with
        room for a move among ``candidates`` items."""
        if candidates > self.candidates:
            self.candidates = max(candidates, 2 * self.candidates)
            self.version = -1
        if self.version == table.version and self.box is table.box:
            return
        self.room = max(self.room, 4 * len(table.slot))
        while True:
            self._allocate(table.box.shape[0])
            status = lists.build(table.box, table.alive, len(table.items), self.cell, self.ints,
                                 self.floats)  # fmt: skip
            if status == lists.OK:
                break
            self.room *= 2
        self.version = table.version
        self.box = table.box

    def _allocate(self, slots: int) -> None:
        """The two arrays (``_kernels.moves.cell_lists``) for ``slots`` slots, and
        views of the parts read here."""
        rows = _power_of_two(4 * self.room)
        collisions = 2 * MAX_RESPONSES * (self.candidates + 1)  # the most a move writes
        ints, floats = lists.lengths(slots, self.room, rows, collisions)
        self.ints = np.zeros(ints, dtype=np.int64)
        self.ints[: lists.HEAD] = 0, 0, 0, 0, slots, self.room, rows, collisions
        self.floats = np.zeros(floats)
        (self.meta, _, self.apart, self.found, _, self.cands, _, self.entries, self.cells, _,
         self.packed) = lists.parts(self.ints, self.floats)  # fmt: skip

    def validate(self, table: ItemTable) -> None:
        """Check that the lists, where they claim to hold ``table``'s rows, list each
        live slot in exactly the cells its row touches (or apart); raise
        ``AssertionError`` if not."""
        if self.version != table.version or self.box is not table.box:
            return  # made again before their next use
        expected: dict[int, set[int]] = {}
        apart = set()
        for slot in table.live().tolist():
            x, y, w, h = table.box[slot].tolist()
            c = self.cell
            # the kernel's test, on floats (x + w may overflow)
            fx0, fy0, fx1, fy1 = np.floor([x / c, y / c, (x + w) / c, (y + h) / c]).tolist()
            limit = lists.LIMIT
            if not (-limit < fx0 and fx1 < limit and -limit < fy0 and fy1 < limit):
                apart.add(slot)
                continue
            x0, y0, x1, y1 = int(fx0), int(fy0), int(fx1), int(fy1)
            if (x1 - x0 + 1) * (y1 - y0 + 1) > lists.MOST_CELLS:
                apart.add(slot)
                continue
            for cx in range(x0, x1 + 1):
                for cy in range(y0, y1 + 1):
                    key = (cx + lists.LIMIT) * 2**31 + (cy + lists.LIMIT)
                    expected.setdefault(key, set()).add(slot)
        found: dict[int, set[int]] = {}
        for key, head in self.cells.tolist():
            e = head
            while key != lists.FREE and e >= 0:
                found.setdefault(key, set()).add(int(self.entries[e, 0]))
                e = int(self.entries[e, 1])
        if found != expected:
            raise AssertionError("the cell lists differ from the item table's rows")
        if set(self.apart[: self.meta[lists.APART]].tolist()) != apart:
            raise AssertionError("the items kept apart differ from the item table's rows")


def _power_of_two(n: int) -> int:
    return 1 << max(n - 1, 1).bit_length()
