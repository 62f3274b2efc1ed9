"""``World.move_all`` (and ``move_arrays``): many moves in one call, compiled where it
can be.

The plan (:func:`plan_moves`): the filter's answers are gathered once, before the
moves, for every pair of items whose regions for the call overlap (a mover's region
is the box spanned by its start and its goal, which a ``slide``, ``touch`` or
``cross`` move never leaves; found by a compiled hashed grid of the movers' cells);
the World's own ``group_filter`` is not called at all, its table of groups is read
for every pair at once. Then (:func:`run_plan`) movers that are rectangles meeting only
rectangles with those three responses are moved by a compiled copy of the World's
check loop (``collide2d._kernels.moves.world_moves``); any other mover (a circle or mask, a
``bounce`` or custom response, a start already overlapped) is moved by ``World.move``
in its turn. Both give identical answers; the test suite holds them equal.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from functools import partial
from itertools import repeat
from typing import NamedTuple

import numpy as np

from collide2d._kernels import codes, lazy
from collide2d._kernels.codes import RESPONSES
from collide2d.gc_pause import collector_paused
from collide2d.geometry.rect import Rect
from collide2d.geometry.vec2 import Vec2
from collide2d.shapes import AnyShape
from collide2d.world.collision import Collision, Filter, Item, Movement
from collide2d.world.contact import bounds
from collide2d.world.far_rects import mover_kept, movers_kept, rect_kept, rows_kept
from collide2d.world.group_filter import GroupFilter
from collide2d.world.one_move import MOST_CANDIDATES, move_rect
from collide2d.world.table import ItemTable

moves = lazy("moves.world_moves")

Place = Callable[[list[Item], list[Rect]], None]
"""Puts moved rectangles in the world, their table rows already written."""
Move = Callable[[Item, Vec2, Filter], Movement]
"""Moves one item as ``World.move`` does."""

CODES = {"touch": codes.TOUCH, "cross": codes.CROSS, "slide": codes.SLIDE}
"""The responses the compiled moves run, by name (``_kernels/codes.py``: one numbering
with the step's)."""
REGION_PAD = 1e-9
"""Regions are padded by this share of their coordinates (and one unit in the last
place at least): legs start at rounded contact points, an ulp from the exact box."""


class Plan(NamedTuple):
    """What the kernel needs for one call: movers in insertion order, with their
    candidates and the response codes the filter gave them."""

    live: np.ndarray
    movers: list[Item]
    m_index: np.ndarray
    goal: np.ndarray
    box: np.ndarray
    cand_start: np.ndarray
    cand_item: np.ndarray
    cand_resp: np.ndarray
    python_only: np.ndarray
    regions: np.ndarray


def move_all(
    shapes: Mapping[Item, AnyShape],
    table: ItemTable,
    goals: Mapping[Item, tuple[float, float]],
    filter: Filter,
    codes: Mapping[str, int],
    place: Place,
    move: Move,
) -> dict[Item, Movement]:
    """Move ``goals``' items (checked) in the order they were added; the world changes
    as the moves go, through ``place`` and ``move`` (the caller undoes them on error);
    ``codes`` are the responses the compiled moves may run (the built-ins that were
    not replaced by ``World.add_response``). See the module docstring."""
    movers = sorted(goals, key=table.slot.__getitem__)
    m_slot = np.array([table.slot[item] for item in movers], dtype=np.int64)
    goal = np.array([goals[item] for item in movers], dtype=np.float64).reshape(-1, 2)
    plan = plan_moves(table, movers, m_slot, goal, filter, codes)
    moved: dict[Item, Movement] = {}

    def collect(columns: tuple[np.ndarray, ...], out_pos: np.ndarray, out_start: np.ndarray,
                first: int, done: int) -> None:  # fmt: skip
        _collect(place, shapes, table, plan, out_pos, out_start, columns, first, done, moved)

    def fallback(index: int, movement: Movement) -> None:
        moved[plan.movers[index]] = movement

    run_plan(plan, table, move, filter, collect, fallback)
    return moved


def plan_moves(
    table: ItemTable,
    movers: list[Item],
    m_slot: np.ndarray,
    goal: np.ndarray,
    filter: Filter,
    codes: Mapping[str, int],
) -> Plan:
    """The kernel's inputs for ``movers`` (in insertion order, at table slots
    ``m_slot``, checked goals ``goal``): regions, candidate pairs, responses."""
    live = table.live()
    if len(live) == len(table.items):  # no slot emptied: the rows are the slots
        m_index = m_slot
        box = table.box[: len(live)].copy()
        rect = table.rect[: len(live)]
    else:
        position = np.full(table.box.shape[0], -1, dtype=np.int64)
        position[live] = np.arange(live.shape[0])  # slot -> row of the live arrays
        m_index = position[m_slot]
        box = table.box[live]
        rect = table.rect[live]
    regions = box.copy()
    start = box[m_index]
    lo = np.minimum(start[:, :2], goal)
    hi = np.maximum(start[:, :2] + start[:, 2:], goal + start[:, 2:])
    pad = REGION_PAD * (np.abs(lo) + np.abs(hi)) + 1e-300
    regions[m_index, :2] = lo - pad
    regions[m_index, 2:] = (hi + pad) - (lo - pad)
    pairs = _region_pairs(regions, m_index)
    # far out, where x + w loses part of w, the check loop moves them (its exact route)
    lossy = ~rows_kept(box)
    lossy[m_index] |= ~movers_kept(lo - pad, hi + pad, start[:, 2:])
    cand_start = np.searchsorted(pairs[:, 0], np.arange(len(movers) + 1)).astype(np.int64)
    cand_item = np.ascontiguousarray(pairs[:, 1], dtype=np.int64)
    python_only = ~rect[m_index]
    python_only[pairs[lossy[pairs[:, 1]], 0]] = True
    python_only[lossy[m_index]] = True
    if type(filter) is GroupFilter and filter.reads(table):
        cand_resp = _group_responses(filter, codes, m_slot[pairs[:, 0]], live[cand_item])
        needs_python = (cand_resp < 0) | ((cand_resp > 0) & ~rect[cand_item])
        python_only[pairs[needs_python, 0]] = True
        cand_resp = np.maximum(cand_resp, 0).astype(np.int8)
    else:
        cand_resp = np.zeros(len(cand_item), dtype=np.int8)
        items = table.items
        others = live[cand_item].tolist()
        for row, (m, slot) in enumerate(zip(pairs[:, 0].tolist(), others, strict=True)):
            response = filter(movers[m], items[slot])
            if not response:
                continue
            code = codes.get(response) if isinstance(response, str) else None
            if code is None or not rect[cand_item[row]]:
                python_only[m] = True  # bounce, custom, unknown (World.move raises), or a curve
            else:
                cand_resp[row] = code
    return Plan(live, movers, m_index, goal, box, cand_start, cand_item, cand_resp,
                python_only, regions)  # fmt: skip


def _group_responses(
    filter: GroupFilter, codes: Mapping[str, int], m_slots: np.ndarray, o_slots: np.ndarray
) -> np.ndarray:
    """The compiled moves' codes of the pairs' group responses: 0 for ``ignore``, -1
    where Python must run (``bounce``, or a built-in that ``add_response`` replaced)."""
    to_move = np.array([0] + [codes.get(name, -1) for name in RESPONSES[1:]], dtype=np.int64)
    found: np.ndarray = to_move[filter.pair_codes(m_slots, o_slots)]
    return found


def _region_pairs(regions: np.ndarray, m_index: np.ndarray, cell: float = 0.0) -> np.ndarray:
    """Rows ``(m, i)``: the items whose regions overlap mover ``m``'s, sorted (a hashed
    grid in compiled code, cells twice the typical mover region's extent unless
    ``cell``)."""
    if cell <= 0.0:
        extent = np.maximum(regions[m_index, 2], regions[m_index, 3])
        half = len(extent) // 2  # the median's upper half, found without a sort
        cell = max(2.0 * float(np.partition(extent, half)[half]), 1e-300) if len(extent) else 1.0
    out = np.empty((4 * len(m_index) + 64, 2), dtype=np.int64)
    rows = int(moves.region_pairs(regions, m_index, cell, out))
    if rows > len(out):
        out = np.empty((rows, 2), dtype=np.int64)
        moves.region_pairs(regions, m_index, cell, out)
    n = len(regions)
    keys = np.sort(out[:rows, 0] * n + out[:rows, 1])
    return np.column_stack((keys // n, keys % n)) if n else out[:0]


Collect = Callable[[tuple[np.ndarray, ...], np.ndarray, np.ndarray, int, int], None]
"""Takes the kernel's rows (columns, positions, row starts) for movers ``first:done``
and places those movers in the world."""
Fallback = Callable[[int, Movement], None]
"""Takes the movement of mover ``index``, moved (and placed) by ``World.move``."""


def run_plan(
    plan: Plan, table: ItemTable, move: Move, filter: Filter, collect: Collect, fallback: Fallback
) -> None:
    """Alternate the kernel and ``World.move`` until every mover has moved."""
    box, goal, m_index, regions, python_only = (
        plan.box, plan.goal, plan.m_index, plan.regions, plan.python_only
    )  # fmt: skip
    order = np.arange(box.shape[0], dtype=np.int64)  # live rows are in insertion order
    count = len(plan.movers)
    out_pos = np.empty((count, 2))
    out_start = np.zeros(count + 1, dtype=np.int64)
    columns = _columns(max(64, 4 * len(plan.cand_item) + 64 * 8))
    first = 0
    while first < count:
        status, done, _ = moves.move_rects(
            box, order, m_index, goal, plan.cand_start, plan.cand_item, plan.cand_resp,
            python_only, first, out_pos, out_start, *columns,
        )  # fmt: skip
        if done > first:
            with collector_paused():
                collect(columns, out_pos, out_start, first, done)
        first = done
        if status == moves.FULL:
            columns = _columns(2 * len(columns[0]))
            out_start[done] = 0
            continue
        if status == moves.NEEDS_PYTHON:
            item = plan.movers[done]
            fallback(done, move(item, Vec2(*goal[done].tolist()), filter))
            row = m_index[done]
            box[row] = table.box[table.slot[item]]
            region, b = regions[row], box[row]
            if not (region[0] <= b[0] and b[0] + b[2] <= region[0] + region[2]
                    and region[1] <= b[1] and b[1] + b[3] <= region[1] + region[3]):  # fmt: skip
                _escaped(b, regions, m_index, python_only, done + 1)
            first = done + 1
            out_start[first] = 0


def _escaped(
    b: np.ndarray, regions: np.ndarray, m_index: np.ndarray, python_only: np.ndarray, first: int
) -> None:
    """A mover moved by ``World.move`` left its region (a slide up a slope, a push
    out): the later movers whose regions meet where it is now (touching included)
    may meet it, and their candidate lists do not hold it; they move by
    ``World.move``, which asks the broadphase afresh. The others cannot meet it."""
    later = regions[m_index[first:]]
    left, top, right, bottom = b[0], b[1], b[0] + b[2], b[1] + b[3]
    meets = (
        (later[:, 0] <= right) & (left <= later[:, 0] + later[:, 2])
        & (later[:, 1] <= bottom) & (top <= later[:, 1] + later[:, 3])
    )  # fmt: skip
    python_only[first:] |= meets


def _columns(capacity: int) -> tuple[np.ndarray, ...]:
    """The kernel's collision rows (see ``move_rects``)."""
    return (
        np.empty(capacity, dtype=np.int64),  # other
        np.empty(capacity, dtype=np.int8),  # response
        np.empty(capacity),  # fraction
        np.empty((capacity, 2)),  # normal
        np.empty((capacity, 2)),  # touch
        np.empty((capacity, 2)),  # delta
        np.empty((capacity, 2)),  # leg start
        np.empty(capacity, dtype=np.bool_),  # started
        np.empty((capacity, 2)),  # slide goal, NaN if none
    )


_new = tuple.__new__
_vec2 = partial(_new, Vec2)
_rect = partial(_new, Rect)
_collision = partial(_new, Collision)
_movement = partial(_new, Movement)
RESPONSE_NAMES = np.array([None, *RESPONSES[1:]], dtype=object)
"""The kernel's response codes (``CODES``) as names, in an array to index."""
NORMALS = np.empty(9, dtype=object)
NORMALS[[1, 7, 3, 5]] = [Vec2(-1.0, 0.0), Vec2(1.0, 0.0), Vec2(0.0, -1.0), Vec2(0.0, 1.0)]
"""The only normals two rectangles meet with, at ``3 (nx + 1) + (ny + 1)``: shared,
not made again for each contact."""


def _collect(
    place: Place,
    shapes: Mapping[Item, AnyShape],
    table: ItemTable,
    plan: Plan,
    out_pos: np.ndarray,
    out_start: np.ndarray,
    columns: tuple[np.ndarray, ...],
    first: int,
    done: int,
    moved: dict[Item, Movement],
) -> None:
    """Turn the kernel's rows for movers ``first:done`` into Movements and place them
    (every value is a float the kernel computed from checked ones: no checks again).

    The records are built column by column, by ``map`` and ``zip`` (loops in C),
    each collision's values looked up from numpy arrays of objects. The caller
    pauses the cyclic garbage collector meanwhile (:func:`collector_paused`): these
    thousands of new records hold no cycles, and its passes over a large world
    cost as much as building them."""
    live, movers, m_index, box = plan.live, plan.movers, plan.m_index, plan.box
    end = int(out_start[done])
    other, resp, fraction, normal, touch, delta, leg, started, slide = (
        column[:end] for column in columns
    )
    items = table.items
    names = [items[slot] for slot in live[other].tolist()]
    starts = out_start[first : done + 1]
    counts = np.diff(starts)
    mover_rows = np.repeat(np.arange(first, done), counts)  # each collision's mover
    sizes = box[m_index[first:done], 2:]
    legs = np.hstack((leg, sizes[mover_rows - first])).tolist()
    no_slide = np.isnan(slide[:, 0]).tolist()
    rects = moved_rects(plan, out_pos, first, done)
    # Each other's shape when the mover met it: where an earlier mover of these
    # moved, its new rectangle (it is placed below, after the records are built).
    other_shapes = [shapes[name] for name in names]
    batch = np.full(live.shape[0], -1, dtype=np.int64)
    batch[m_index[first:done]] = np.arange(first, done)
    met = batch[other]
    for r in np.flatnonzero((met >= 0) & (met < mover_rows)).tolist():
        other_shapes[r] = rects[int(met[r]) - first]
    collisions = list(map(_new, repeat(Collision), zip(
        [movers[m] for m in mover_rows.tolist()], names, RESPONSE_NAMES[resp].tolist(),
        fraction.tolist(), NORMALS[(3 * normal[:, 0] + normal[:, 1] + 4).astype(np.intp)].tolist(),
        map(_new, repeat(Vec2), touch.tolist()), map(_new, repeat(Vec2), delta.tolist()),
        map(_new, repeat(Rect), legs),
        other_shapes, started.tolist(),
        [None if none else _vec2(xy) for none, xy in zip(no_slide, slide.tolist(), strict=True)],
        repeat(None, end), strict=True,
    )))  # fmt: skip
    place_moved(place, table, plan, out_pos, rects, first, done)
    at = starts.tolist()
    for k, item in enumerate(movers[first:done]):
        moved[item] = _movement((_vec2(rects[k][:2]), collisions[at[k] : at[k + 1]]))


def moved_rects(plan: Plan, out_pos: np.ndarray, first: int, done: int) -> list[Rect]:
    """The new rectangles of movers ``first:done``."""
    sizes = plan.box[plan.m_index[first:done], 2:]
    return list(map(_new, repeat(Rect), np.hstack((out_pos[first:done], sizes)).tolist()))


def place_moved(
    place: Place,
    table: ItemTable,
    plan: Plan,
    out_pos: np.ndarray,
    rects: list[Rect],
    first: int,
    done: int,
) -> None:
    """Write movers ``first:done``'s new rectangles into the table and the world."""
    slots = plan.live[plan.m_index[first:done]]
    table.box[slots, :2] = out_pos[first:done]  # the rows of every mover at once
    table.origin[slots] = out_pos[first:done]
    table.changed()
    place(plan.movers[first:done], rects)


def move_one(
    shapes: Mapping[Item, AnyShape],
    table: ItemTable,
    candidates: Callable[[Rect], list[Item]],
    item: Item,
    shape: Rect,
    goal: Vec2,
    filter: Filter,
    codes: Mapping[str, int],
) -> tuple[Movement, int, int] | None:
    """``World.check`` of one rectangle by the compiled moves, or None where
    ``World.check``'s Python must run (a curve or mask it would respond to, a
    ``bounce`` or custom response, an unknown name, a start already overlapped).

    The same region rule as :func:`move_all`: the move never leaves the box spanned
    by its start and its goal, so the items whose boxes overlap that box (padded)
    are all it can meet; ``candidates`` finds them in the broadphase. ``codes`` are
    the responses the compiled moves may run (the built-ins not replaced). Returns
    the movement and the counts for ``World.stats``: exact tests, candidates."""
    x, y, w, h = shape
    gx, gy = goal
    lo_x, lo_y, hi_x, hi_y = min(x, gx), min(y, gy), max(x + w, gx + w), max(y + h, gy + h)
    pad_x = REGION_PAD * (abs(lo_x) + abs(hi_x)) + 1e-300
    pad_y = REGION_PAD * (abs(lo_y) + abs(hi_y)) + 1e-300
    left, top = lo_x - pad_x, lo_y - pad_y
    right, bottom = left + ((hi_x + pad_x) - left), top + ((hi_y + pad_y) - top)
    if not (mover_kept(left, right, w) and mover_kept(top, bottom, h)):
        return None  # far out, where x + w loses part of w: the check loop's exact route
    found = candidates(_new(Rect, (left, top, right - left, bottom - top)))
    slot = table.slot
    rows = []
    for other in found:
        if other == item:
            continue
        other_shape = shapes[other]
        ox, oy, ow, oh = other_shape if type(other_shape) is Rect else bounds(other_shape)
        if not (ox < right and left < ox + ow and oy < bottom and top < oy + oh):
            continue  # outside the box the move never leaves
        response = filter(item, other)
        if not response:
            continue
        code = codes.get(response) if isinstance(response, str) else None
        if code is None or type(other_shape) is not Rect:
            return None
        rounded = (ox + ow) - ox != ow or (oy + oh) - oy != oh
        if rounded and not rect_kept(ox, oy, ow, oh):  # far out: the check loop's exact route
            return None
        rows.append((slot[other], code, other, other_shape))
    rows.sort()  # the order the items were added (slots differ: the rest is not compared)
    k = len(rows)
    if k <= MOST_CANDIDATES:  # a few: plain Python does it before the kernel's call is made
        moved = move_rect(item, shape, gx, gy, rows)
        return None if moved is None else (moved, k, len(found))
    # the mover's row and its candidates', each built by one numpy call (an element
    # written at a time costs a microsecond a row)
    order = np.array([slot[item], *[row[0] for row in rows]], dtype=np.int64)
    box = table.box[order]  # the mover's row is its shape (rows are never behind)
    cand_resp = np.array([row[1] for row in rows], dtype=np.int8)
    columns = _one_columns(2 * moves.MAX_RESPONSES * (k + 1))
    goal_row, cand_start, out_pos, out_start = _kept.small
    goal_row[0, 0] = gx
    goal_row[0, 1] = gy
    cand_start[1] = k
    out_start[0] = 0
    status, _, _ = moves.move_rects(
        box, order, ONE_MOVER, goal_row, cand_start, _counting(k), cand_resp, ONE_FALSE, 0,
        out_pos, out_start, *columns,
    )  # fmt: skip
    if status != moves.DONE:
        return None
    end = int(out_start[1])
    px, py = out_pos[0].tolist()
    if not end:  # no contact: nothing to read back
        return _movement((_vec2((px, py)), [])), k, len(found)
    other, resp, fraction, normal, touch, delta, leg, started, slide = (
        column[:end].tolist() for column in columns
    )
    names = [item] + [row[2] for row in rows]
    # The records as _collect builds them, field for field; a row loop here because a
    # single move has one or two rows, where _collect's columns of numpy and map/zip
    # cost 3 to 8 us more (measured) than they save.
    collisions = []
    for r in range(end):
        name = names[other[r]]
        sx, sy = slide[r]
        nx, ny = normal[r]
        collisions.append(_collision((
            item, name, RESPONSE_NAMES[resp[r]], fraction[r], NORMALS[int(3 * nx + ny + 4)],
            _vec2(touch[r]), _vec2(delta[r]), _rect((*leg[r], w, h)), shapes[name],
            started[r], None if sx != sx else _vec2((sx, sy)), None,
        )))  # fmt: skip
    return _movement((_vec2((px, py)), collisions)), k, len(found)


ONE_MOVER = np.zeros(1, dtype=np.int64)
_COUNTING = np.arange(1, 257, dtype=np.int64)


def _counting(k: int) -> np.ndarray:
    """``1, 2, ..., k`` (a shared array's view for the usual few)."""
    return _COUNTING[:k] if k <= 256 else np.arange(1, k + 1, dtype=np.int64)


ONE_FALSE = np.zeros(1, dtype=np.bool_)
_kept = threading.local()


def _one_columns(capacity: int) -> tuple[np.ndarray, ...]:
    """Collision rows for :func:`move_one`, kept between calls by each thread (grown
    when short): allocating them costs as much as a short move."""
    columns: tuple[np.ndarray, ...] | None = getattr(_kept, "columns", None)
    if columns is None or len(columns[0]) < capacity:
        columns = _kept.columns = _columns(max(capacity, 1024))
        # and the goal, the candidate range and the position and row start out
        _kept.small = (
            np.empty((1, 2)), np.zeros(2, dtype=np.int64), np.empty((1, 2)),
            np.zeros(2, dtype=np.int64),
        )  # fmt: skip
    return columns
