"""The World's shapes: a dict from item to shape, whose entries for rows the compiled
code moved are made only when read (see ``ItemTable.mark_pending``).

``_shapes`` is the dict brought up to date (every pending row made into its shape
object first); ``_shape_of(item)`` brings one item up to date; ``_shape_dict`` is the
dict as it is, for what only needs the keys (membership, order, length) or the
kinds of shape (a moved rectangle is still a rectangle).
"""

from __future__ import annotations

import numpy as np

from collide2d.shapes import AnyShape
from collide2d.world.collision import Item
from collide2d.world.table import ItemTable


class WorldShapes:
    """The shape store of :class:`~collide2d.World` (a base of its mixins)."""

    _shape_dict: dict[Item, AnyShape]
    _table: ItemTable
    _stale: dict[Item, None]

    @property
    def _shapes(self) -> dict[Item, AnyShape]:
        """Every item's shape, pending rows made into shapes first."""
        if self._table.pending_any:
            self._make_pending()
        return self._shape_dict

    def _shape_of(self, item: Item) -> AnyShape:
        """``item``'s shape (``KeyError`` if absent), made from its row if pending."""
        table = self._table
        if table.pending_any:
            slot = table.slot[item]
            if table.pending[slot]:
                table.pending[slot] = False
                shape = table.shapes_at(np.array([slot]), [self._shape_dict[item]])[0]
                self._shape_dict[item] = shape
                self._stale[item] = None  # the broadphase has its shape before the row
                return shape
        return self._shape_dict[item]

    def _make_pending(self) -> None:
        """Make every pending row's shape (and tell the broadphase of it when read)."""
        table = self._table
        slots = table.take_pending()
        items = table.items
        names = [items[slot] for slot in slots.tolist()]
        shapes = self._shape_dict
        shapes.update(zip(names, table.shapes_at(slots, [shapes[n] for n in names]), strict=True))
        self._stale.update(dict.fromkeys(names))
