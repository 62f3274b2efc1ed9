"""The World's moves of many items in one call: :meth:`WorldManyMoves.move_all`
(``Movement`` records) and :meth:`WorldManyMoves.move_arrays` (numpy columns)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from collide2d.geometry.rect import Rect
from collide2d.shapes import AnyShape
from collide2d.stats import Stats
from collide2d.world.checks import checked_filter, checked_goals
from collide2d.world.collision import Filter, Item, Movement
from collide2d.world.move_all import move_all
from collide2d.world.move_arrays import MoveArrays, move_arrays
from collide2d.world.shape_store import WorldShapes
from collide2d.world.table import ItemTable


class WorldManyMoves(WorldShapes):
    """``move_all`` and ``move_arrays`` of :class:`~collide2d.World` (a mixin: they
    read its items and table, and call its ``move`` for what is not compiled)."""

    _table: ItemTable
    _compiled: dict[str, int]
    stats: Stats

    def _require(self, item: Item) -> AnyShape:
        raise NotImplementedError  # defined by World

    def _place(self, item: Item, shape: AnyShape) -> None:
        raise NotImplementedError  # defined by World

    def _place_rows_written(self, items: list[Item], shapes: list[Rect]) -> None:
        raise NotImplementedError  # defined by World

    def move(self, item: Item, goal: tuple[float, float], filter: Filter | None = None) -> Movement:
        raise NotImplementedError  # defined by World

    def move_all(
        self, goals: Mapping[Item, tuple[float, float]], filter: Filter | None = None
    ) -> dict[Item, Movement]:
        """Move many items, one after the other in the order they were added (as
        bump.lua does), each seeing the others where the earlier moves left them; the
        same answers as calling :meth:`move` for each in that order.

        The filter is asked once for each pair of items the call may bring together,
        before the moves (so it must not depend on where the other moves of the same
        call put things); :attr:`group_filter` is not asked at all, its table is read
        whole. Rectangles meeting rectangles with ``slide``, ``touch`` or ``cross`` are
        moved by compiled code; everything else as :meth:`move` does. On any error
        every item is put back where it was. :meth:`move_arrays` makes the same moves
        and returns columns instead of records, at a fraction of the cost.
        """
        if not isinstance(goals, Mapping):
            raise TypeError(f"goals must be a mapping of item to goal, got {goals!r}")
        for item in goals:
            self._require(item)
        checked = checked_goals(goals)  # type: ignore[arg-type]
        chosen = checked_filter(filter)
        before = {item: self._shapes[item] for item in goals}
        self.stats.begin()
        try:
            return move_all(
                self._shapes, self._table, checked, chosen, self._compiled,
                self._place_rows_written, self.move,
            )  # fmt: skip
        except BaseException:
            for item, shape in before.items():
                self._place(item, shape)
            raise

    def move_arrays(
        self, items: Sequence[Item], goals: object, filter: Filter | None = None
    ) -> MoveArrays:
        """:meth:`move_all` for a frame loop over arrays: the same moves, in the same
        order (the order the items were added), with the positions and collisions
        returned as numpy columns (:class:`~collide2d.MoveArrays`)
        instead of ``Movement`` and ``Collision`` records.

        Parameters
        ----------
        items : sequence
            The items to move, each once.
        goals : array_like, shape (len(items), 2)
            Each item's goal, finite.
        filter : callable, optional
            As for :meth:`move_all`; :attr:`group_filter` lets compiled code answer.

        Returns
        -------
        MoveArrays
            Positions and collision columns, row ``i`` for ``items[i]``.

        Raises
        ------
        UnknownKeyError
            An item is not in the world.
        ValueError
            ``items`` repeats an item; ``goals`` has another shape or a NaN or
            infinite value.

        Examples
        --------
        >>> import numpy as np
        >>> from collide2d import Rect, World
        >>> world = World()
        >>> world.add("wall", Rect(20, 0, 5, 50), group="wall")
        'wall'
        >>> world.add("p", Rect(0, 0, 10, 10), group="actor")
        'p'
        >>> world.set_response("actor", "wall", "touch")
        >>> moved = world.move_arrays(["p"], [(30.0, 0.0)], world.group_filter)
        >>> moved.positions.tolist(), moved.response.tolist()
        ([[10.0, 0.0]], ['touch'])
        """
        chosen = checked_filter(filter)
        listed = list(items) if not isinstance(items, list) else items
        slot = self._table.slot
        try:
            slots = np.array([slot[item] for item in listed], dtype=np.int64)
        except (KeyError, TypeError):
            for item in listed:
                self._require(item)  # the UnknownKeyError or TypeError naming it
            raise
        in_order = len(slots) < 2 or bool((slots[1:] > slots[:-1]).all())
        if not in_order and len(np.unique(slots)) != len(slots):
            raise ValueError("items must be distinct: an item was given twice")
        try:
            target = np.asarray(goals, dtype=np.float64)
        except (TypeError, ValueError):
            raise ValueError(f"goals must be an array of shape ({len(listed)}, 2)") from None
        if target.shape != (len(listed), 2):
            raise ValueError(f"goals must have shape ({len(listed)}, 2), got {target.shape}")
        if not np.isfinite(target).all():
            raise ValueError("goals must be finite, got a NaN or infinite value")
        table = self._table
        rows = (table.box[slots], table.origin[slots], table.pending[slots])  # copies
        before = list(map(self._shape_dict.__getitem__, listed))
        self.stats.begin()
        try:
            return move_arrays(
                table, listed, slots, target, chosen, self._compiled, self.move, in_order
            )
        except BaseException:
            self._put_back(listed, slots, rows, before)
            raise

    def _put_back(
        self,
        items: list[Item],
        slots: np.ndarray,
        rows: tuple[np.ndarray, np.ndarray, np.ndarray],
        before: list[AnyShape],
    ) -> None:
        """Undo a ``move_arrays`` that failed: the rows, pending marks and shapes the
        items had before (the broadphase learns of them when next read)."""
        table = self._table
        table.box[slots], table.origin[slots], table.pending[slots] = rows
        table.changed()
        table.pending_any = table.pending_any or bool(rows[2].any())
        self._shape_dict.update(zip(items, before, strict=True))
        self._stale.update(dict.fromkeys(items))
