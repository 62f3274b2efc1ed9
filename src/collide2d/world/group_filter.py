"""A filter that answers from the World's table of group responses.

``World.set_response(group_a, group_b, name)`` names how two groups meet in
``World.step``; :attr:`World.group_filter <collide2d.World.group_filter>` answers
``move``, ``check``, ``move_all`` and ``move_arrays`` from the same table, so a game
sets its rules once. The compiled moves read the table as an integer matrix instead
of calling a Python function for every pair a frame may bring together.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from collide2d._kernels.codes import RESPONSES
from collide2d.broadphase import UnknownKeyError
from collide2d.world.collision import Item
from collide2d.world.table import ItemTable


class GroupFilter:
    """``filter(item, other)``: the response ``set_response`` gave the two items'
    groups (``"slide"`` where it gave none), or None for ``"ignore"``.

    Get it from :attr:`World.group_filter <collide2d.World.group_filter>`; it follows
    later ``set_response`` calls and later ``add``\\ s. ``restitution`` is the step's
    alone: a ``bounce`` move reflects the remaining motion whole.

    Examples
    --------
    >>> from collide2d import Rect, World
    >>> world = World()
    >>> world.add("coin", Rect(30, 0, 4, 4), group="pickup")
    'coin'
    >>> world.add("player", Rect(0, 0, 10, 10), group="actor")
    'player'
    >>> world.set_response("actor", "pickup", "cross")
    >>> world.group_filter("player", "coin")
    'cross'
    >>> position, collisions = world.move("player", (40, 0), world.group_filter)
    >>> [(c.other, c.response) for c in collisions]
    [('coin', 'cross')]
    """

    __slots__ = ("_codes", "_table")

    def __init__(self, table: ItemTable, codes: Callable[[], np.ndarray]) -> None:
        self._table = table
        self._codes = codes

    def __call__(self, item: Item, other: Item) -> str | None:
        slot, group = self._table.slot, self._table.group
        try:
            a, b = slot[item], slot[other]
        except KeyError as missing:
            raise UnknownKeyError(f"unknown item {missing.args[0]!r}") from None
        code = int(self._codes()[group[a], group[b]])
        return RESPONSES[code] if code else None

    def reads(self, table: ItemTable) -> bool:
        """Whether this filter answers from ``table``'s groups (the world's own filter,
        not another world's)."""
        return self._table is table

    def pair_codes(self, item_slots: np.ndarray, other_slots: np.ndarray) -> np.ndarray:
        """The step's response codes (indices of ``RESPONSES``; 0 is ``ignore``) of the
        pairs of slots, at once."""
        group = self._table.group
        codes: np.ndarray = self._codes()[group[item_slots], group[other_slots]]
        return codes

    def __repr__(self) -> str:
        return "<World.group_filter>"
