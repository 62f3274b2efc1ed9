"""``World.move_arrays``: ``move_all``'s moves with their results as numpy columns.

A frame of a thousand actors spends most of ``move_all``'s time making the
``Movement`` and ``Collision`` records (twelve fields each) that a game then reads
a field or two of. ``move_arrays`` runs the same moves (the same plan, kernel and
Python fallback as :mod:`collide2d.world.move_all`) and returns positions and
collisions as columns instead, in the order the caller gave the items. It makes no
shape objects either: the moved rectangles' rows are written and marked pending
(``ItemTable.mark_pending``), and the World makes their shapes when it reads them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from collide2d.world.collision import Filter, Item, Movement
from collide2d.world.move_all import RESPONSE_NAMES, Move, plan_moves, run_plan
from collide2d.world.table import ItemTable


@dataclass(frozen=True, eq=False)
class MoveArrays:
    """The results of :meth:`World.move_arrays <collide2d.World.move_arrays>`, as
    columns.

    Item ``items[i]`` ended at ``positions[i]`` (its goal's kind of point: a
    rectangle's top-left corner, a circle's centre, a mask's offset, a placed
    polygon's anchor); its collisions are rows ``start[i]:start[i + 1]`` of the
    collision columns, in the order its move met them, each row the fields of the
    :class:`~collide2d.Collision` that ``move_all`` would have listed.

    Attributes
    ----------
    items : list
        The moved items, in the order they were given.
    positions : numpy.ndarray, shape (n, 2)
        Where each item ended.
    start : numpy.ndarray, shape (n + 1,), int64
        Each item's first collision row; ``start[-1]`` is the number of collisions.
    mover : numpy.ndarray, shape (k,), int64
        Each collision's item, as an index into ``items``.
    other : list
        Each collision's other item.
    response : numpy.ndarray, shape (k,), object
        Each collision's response name.
    fraction : numpy.ndarray, shape (k,)
        ``Collision.fraction``.
    normal : numpy.ndarray, shape (k, 2)
        ``Collision.normal``.
    touch : numpy.ndarray, shape (k, 2)
        ``Collision.touch``.
    started_overlapping : numpy.ndarray, shape (k,), bool
        ``Collision.started_overlapping``.

    Examples
    --------
    >>> import numpy as np
    >>> from collide2d import Rect, World
    >>> world = World()
    >>> world.add("floor", Rect(0, 10, 100, 10))
    'floor'
    >>> world.add("a", Rect(0, 0, 5, 5))
    'a'
    >>> world.add("b", Rect(50, 0, 5, 5))
    'b'
    >>> moved = world.move_arrays(["a", "b"], np.array([[0.0, 20.0], [60.0, 2.0]]))
    >>> moved.positions.tolist()
    [[0.0, 5.0], [60.0, 2.0]]
    >>> moved.start.tolist(), moved.other, moved.normal.tolist()
    ([0, 1, 1], ['floor'], [[0.0, -1.0]])
    """

    items: list[Item]
    positions: np.ndarray
    start: np.ndarray
    mover: np.ndarray
    other: list[Item]
    response: np.ndarray
    fraction: np.ndarray
    normal: np.ndarray
    touch: np.ndarray
    started_overlapping: np.ndarray

    def __len__(self) -> int:
        return len(self.items)


def move_arrays(
    table: ItemTable,
    items: Sequence[Item],
    slots: np.ndarray,
    goals: np.ndarray,
    filter: Filter,
    codes: dict[str, int],
    move: Move,
    in_order: bool,
) -> MoveArrays:
    """Move ``items`` (at table ``slots``, distinct; ``goals`` checked, one row each)
    in the order they were added; ``in_order``: the slots rise (the items are listed
    in that order already, as a frame loop lists them). See ``World.move_arrays``."""
    if in_order:
        order = np.arange(len(slots))  # given in insertion order, as a frame loop does
        movers = list(items)
    else:
        order = np.argsort(slots, kind="stable")  # insertion order -> the caller's index
        movers = [items[i] for i in order.tolist()]
    plan = plan_moves(table, movers, slots[order], goals[order], filter, codes)
    count = len(movers)
    counts = np.zeros(count, dtype=np.int64)
    chunks: list[tuple[np.ndarray, ...]] = []
    names: list[np.ndarray] = []
    positions = np.empty((count, 2))

    def collect(columns: tuple[np.ndarray, ...], out_pos: np.ndarray, out_start: np.ndarray,
                first: int, done: int) -> None:  # fmt: skip
        end = int(out_start[done])
        other, resp, fraction, normal, touch, _, _, started, _ = columns
        chunks.append(tuple(c[:end].copy() for c in (other, fraction, normal, touch, started)))
        names.append(RESPONSE_NAMES[resp[:end]])
        counts[first:done] = np.diff(out_start[first : done + 1])
        positions[first:done] = out_pos[first:done]
        slots = plan.live[plan.m_index[first:done]]
        table.box[slots, :2] = out_pos[first:done]  # rectangles: the corner is the origin
        table.origin[slots] = out_pos[first:done]
        table.mark_pending(slots)  # their shape objects are made when read

    def fallback(index: int, movement: Movement) -> None:
        row = np.searchsorted(plan.live, [table.slot[c.other] for c in movement.collisions])
        cols = movement.collisions
        chunks.append((
            row.astype(np.int64), np.array([c.fraction for c in cols], dtype=np.float64),
            np.array([c.normal for c in cols], dtype=np.float64).reshape(-1, 2),
            np.array([c.touch for c in cols], dtype=np.float64).reshape(-1, 2),
            np.array([c.started_overlapping for c in cols], dtype=np.bool_),
        ))  # fmt: skip
        names.append(np.array([c.response for c in cols], dtype=object))
        counts[index] = len(cols)
        positions[index] = movement.position

    run_plan(plan, table, move, filter, collect, fallback)
    return _result(table, plan.live, items, order, in_order, counts, positions, chunks, names)


def _result(
    table: ItemTable,
    live: np.ndarray,
    items: Sequence[Item],
    order: np.ndarray,
    in_order: bool,
    counts: np.ndarray,
    positions: np.ndarray,
    chunks: list[tuple[np.ndarray, ...]],
    names: list[np.ndarray],
) -> MoveArrays:
    """The columns in the caller's order (``order[k]``: the caller's index of the
    ``k``-th mover in insertion order)."""
    if chunks:
        columns = zip(*chunks, strict=True)
        other, fraction, normal, touch, started = (np.concatenate(c) for c in columns)
        response = np.concatenate(names)
    else:
        other, fraction, normal, touch, started = (
            np.empty(0, np.int64), np.empty(0), np.empty((0, 2)), np.empty((0, 2)),
            np.empty(0, np.bool_),
        )  # fmt: skip
        response = np.empty(0, dtype=object)
    mover = np.repeat(order, counts)
    n = len(items)
    if not in_order:  # regroup the rows by the caller's index
        by_caller = np.empty(n, dtype=np.int64)
        by_caller[order] = np.arange(n)
        rows = np.argsort(mover, kind="stable")
        mover, other, response = mover[rows], other[rows], response[rows]
        fraction, normal, touch, started = fraction[rows], normal[rows], touch[rows], started[rows]
        counts = counts[by_caller]
        positions = positions[by_caller]
    start = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(counts, out=start[1:])
    all_items = table.items
    others = list(map(all_items.__getitem__, live[other].tolist()))
    return MoveArrays(list(items), positions, start, mover, others, response, fraction,
                      normal, touch, started)  # fmt: skip
