"""``World.move_all`` (and ``move_arrays``): many moves in one call, compiled where it
can be.

The plan (:func:`plan_moves`): the filter's answers are gathered once, before the
moves, for every pair of items whose regions for the call overlap (a mover's region
is the box spanned by its start and its goal, which a ``slide``, ``touch`` or
``cross`` move among rectangles never leaves, widened by the move's length in a
World with polygons, where a slide up a slope leaves it; found by a compiled hashed
grid of the movers' cells); the World's own ``group_filter`` is not called at all,
its table of groups is read for every pair at once. Then (:func:`run_plan`) movers
that are rectangles meeting only rectangles and polygons with those three responses
are moved by a compiled copy of the World's check loop
(``collide2d._kernels.moves.world_moves``); any other mover (a circle, mask or
polygon, one meeting a circle or mask, a ``bounce`` or custom response, a start
already overlapped, a contact only the check loop decides) is moved by
``World.move`` in its turn. Both give identical answers; the test suite holds them
equal.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import partial
from itertools import repeat
from typing import NamedTuple

import numpy as np

from collide2d._kernels import codes, lazy
from collide2d._kernels.codes import POLYGON, RESPONSES
from collide2d.gc_pause import collector_paused
from collide2d.geometry.rect import Rect
from collide2d.geometry.vec2 import Vec2
from collide2d.shapes import AnyShape
from collide2d.world.collision import Collision, Filter, Item, Movement
from collide2d.world.far_rects import movers_kept, rows_kept
from collide2d.world.group_filter import GroupFilter
from collide2d.world.table import ItemTable

moves = lazy("moves.world_moves")
regions_kernels = lazy("moves.regions")

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
    kind: np.ndarray
    outlines: tuple[np.ndarray, np.ndarray, np.ndarray] | None


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
        kind = table.kind[: len(live)]
    else:
        position = np.full(table.box.shape[0], -1, dtype=np.int64)
        position[live] = np.arange(live.shape[0])  # slot -> row of the live arrays
        m_index = position[m_slot]
        box = table.box[live]
        rect = table.rect[live]
        kind = table.kind[live]
    outlines = _outlines(table, live)
    # the items a rectangle's move can respond to in the compiled moves
    outlined = rect | (kind == POLYGON) if table.polygons else rect
    regions = box.copy()
    start = box[m_index]
    lo = np.minimum(start[:, :2], goal)
    hi = np.maximum(start[:, :2] + start[:, 2:], goal + start[:, 2:])
    if table.polygons:  # a slide along a slope leaves that box: never by more than the move
        reach = np.abs(goal - start[:, :2]).sum(axis=1, keepdims=True)
        lo -= reach
        hi += reach
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
        needs_python = (cand_resp < 0) | ((cand_resp > 0) & ~outlined[cand_item])
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
            if code is None or not outlined[cand_item[row]]:
                python_only[m] = True  # bounce, custom, unknown (World.move raises), or a curve
            else:
                cand_resp[row] = code
    return Plan(live, movers, m_index, goal, box, cand_start, cand_item, cand_resp,
                python_only, regions, kind, outlines)  # fmt: skip


def _outlines(
    table: ItemTable, live: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """The live rows' polygon outlines (vertices, counts, in the exact range), or None
    when the World holds no polygon."""
    if not table.polygons:
        return None
    if len(live) == len(table.items):
        n = len(live)
        return table.outline[:n], table.outline_n[:n], table.outline_tame[:n]
    return table.outline[live], table.outline_n[live], table.outline_tame[live]


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
    rows = int(regions_kernels.region_pairs(regions, m_index, cell, out))
    if rows > len(out):
        out = np.empty((rows, 2), dtype=np.int64)
        regions_kernels.region_pairs(regions, m_index, cell, out)
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
    shapes = None  # no polygon: the kernel compiled without the polygon code
    if plan.outlines is not None:
        outlines = plan.outlines[0]
        shapes = (*plan.outlines, *lazy("moves.outlines").work(outlines.shape[1]))
    out_pos = np.empty((count, 2))
    out_start = np.zeros(count + 1, dtype=np.int64)
    columns = _columns(max(64, 4 * len(plan.cand_item) + 64 * 8))
    first = 0
    while first < count:
        status, done, _ = moves.move_rects(
            box, order, m_index, goal, plan.cand_start, plan.cand_item, plan.cand_resp,
            python_only, first, out_pos, out_start, *columns, plan.kind, regions, shapes,
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


def _normals(normal: np.ndarray) -> list[Vec2]:
    """The rows' normals as ``Vec2``: the shared ones along the axes (all of them
    between rectangles), a new one for a polygon's face."""
    nx, ny = normal[:, 0], normal[:, 1]
    found: list[Vec2] = NORMALS[(3 * nx + ny + 4).astype(np.intp) % 9].tolist()
    for r in np.flatnonzero((nx != 0.0) & (ny != 0.0)).tolist():
        found[r] = _vec2(normal[r].tolist())
    return found


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
        fraction.tolist(), _normals(normal),
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
