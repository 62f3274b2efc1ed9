"""``World.step`` in Python: the item table turned into the compiled core's body rows,
the grid sized, the core run, the results written back (``_kernels/step/step_core.py``).

Bodies are numbered in the order their items were added; a pixel mask (always
fixed in a step) becomes its solid pixels stacked into boxes
(:meth:`Mask.boxes <collide2d.mask.storage.MaskStorage.boxes>`), numbered in its
place, so ties between contacts keep following the order of the items. A body is
*fixed* when it cannot move during the step: infinite mass and no velocity, or a
mask. Fixed bodies are never tested against each other.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from functools import partial
from itertools import repeat
from typing import Any

import numpy as np

from collide2d import _threads as threads
from collide2d._kernels import lazy
from collide2d._kernels.codes import MASK, POLYGON, RESPONSES
from collide2d.gc_pause import collector_paused
from collide2d.geometry import _checks
from collide2d.geometry.placed_polygon import PlacedPolygon
from collide2d.geometry.vec2 import Vec2
from collide2d.mask.placed import PlacedMask
from collide2d.world import step_cells as cells
from collide2d.world import step_parts
from collide2d.world.collision import Item
from collide2d.world.step_result import Contact, ContactArrays, StepResult, StepStats
from collide2d.world.step_scratch import StepScratch
from collide2d.world.table import ItemTable

core = lazy("step.step_core")
arena = lazy("step.step_arena")
shapes = lazy("step.step_shapes")
rows = lazy("step.step_rows")
sizing = lazy("step.step_sizing")

_new = tuple.__new__
_RESPONSE_NAMES = np.array(RESPONSES, dtype=object)


def run(
    table: ItemTable,
    masks: Mapping[int, PlacedMask],
    responses: np.ndarray,
    restitution: np.ndarray,
    dt: float,
    cap: int,
    scratch: StepScratch,
    group: np.ndarray | None = None,
    polygon_slots: np.ndarray | None = None,
    shapes_now: Mapping[Item, Any] | None = None,
    place: Callable[[Item, PlacedPolygon], None] | None = None,
) -> StepResult:
    """Run one step over the table's live rows; ``masks`` maps a mask row's slot to
    its ``PlacedMask``; ``polygon_slots`` are the polygons' slots (None: none), and
    ``shapes_now`` the World's shapes (a moved polygon's outline is read there);
    ``scratch`` is the World's memory for its steps; ``group`` the group column (the
    table's by default; a filter's, ``step_filter``). The moved rows are written
    back into the table (a moved polygon's shape given to ``place``, the World's).
    Returns the contacts and stats."""
    live = table.live()
    group = table.group if group is None else group
    # A polygon's outline about its anchor, in its row's columns past a rectangle's.
    if polygon_slots is None:
        polygon_slots = np.zeros(0, dtype=np.intp)
    vertices = table.outline_n[polygon_slots]
    per = shapes.outline_rows(int(vertices.max()) if len(polygon_slots) else 0)
    outlines = per * len(polygon_slots)
    # The fixed bodies' rows and cell lists of the last step are kept when no item
    # came or went, no fixed body changed and the grid is the same (no masks), in
    # rows of the same shape.
    kept = not masks and scratch.same_items(live) and scratch.outline_rows() == outlines
    # Each moving body's bounds (for the grid's size) are written as its row is.
    sized = scratch.sized(len(live))
    if kept:
        fb, ib = scratch.rows(len(live), outlines)
        columns = (table.kind, table.box, table.origin, table.radius, table.velocity,
                   table.mass, group)  # fmt: skip
        # Unless the World wrote a row since the last step (``ItemTable.version``),
        # the fixed bodies' rows are as it left them: only the moving ones are
        # written. Else every row is, the fixed ones checked against the table (and
        # the polygons' outlines written first: a polygon turned in its box).
        quiet = scratch.version == table.version and group is table.group
        if len(polygon_slots) and not quiet:  # (rows in the order of live: no masks)
            _polygon_rows(fb, ib, np.searchsorted(live, polygon_slots),
                          table.local[polygon_slots], vertices, per)  # fmt: skip
        at = scratch.moving if quiet else scratch.order
        parts = step_parts.parts_for(len(at), step_parts.PARALLEL_MIN_ROWS)
        regions = np.empty((parts, 4))
        starts = threads.part_starts(len(at), parts)
        # each part's first column of ``sized``: its first moving body's place
        first_moving = starts if quiet else np.searchsorted(scratch.moving, starts)

        def check(part: int, a: int, b: int) -> bool:  # (rows written or checked, in parts)
            return bool(rows.body_rows(fb, ib, live[at[a:b]], at[a:b], at[a:b], *columns, True,
                                       dt, sized, first_moving[part], regions[part]))  # fmt: skip

        kept = all(threads.in_parts(check, len(at), parts))
    if kept:  # the same bodies fixed as in the last step
        moving, fixed_rows = scratch.moving, scratch.fixed
    else:
        regions = np.empty((1, 4))
        is_mask = table.kind[live] == MASK
        fb, ib = _body_rows(table, group, masks, polygon_slots, vertices, per, live, is_mask,
                            scratch, dt, sized, regions[0])  # fmt: skip
        fixed = ib[:, shapes.FIXED] != 0
        moving, fixed_rows = np.flatnonzero(~fixed), np.flatnonzero(fixed)
        scratch.moving, scratch.fixed = moving, fixed_rows
    bounds = sizing.bounds_of_parts(sized, len(moving), regions)
    grid, room = cells.grid(fb, ib, moving, fixed_rows, responses, dt, bounds)
    kept = kept and grid == scratch.grid
    stats = np.zeros(7, dtype=np.int64)
    used = np.zeros(arena.USED, dtype=np.int64)
    start = time.perf_counter()
    lf, li, left = step_parts.run_core(fb, ib, responses, restitution, dt, cap, grid, moving,
                                 fixed_rows, room, stats, scratch.memory(kept, used))  # fmt: skip
    seconds = time.perf_counter() - start
    _check_finite(fb, ib, moving, live, table, scratch, dt)
    scratch.after_step(used, None if masks else grid, live, kept, table.version)
    # The moved rows written back (masks never move), marked pending in the table.
    if rows.write_back(fb, ib, moving, live, table.kind, table.box, table.origin,
                       table.velocity, table.radius, table.pending):  # fmt: skip
        table.pending_any = True
    if len(polygon_slots) and shapes_now is not None and place is not None:
        _write_polygons(fb, ib, moving, live, table, shapes_now, place)
    # The contacts' items are those of now (the world may change before they are
    # read: the table keeps the list it lends unchanged); their records are made
    # when first read.
    items = table.items_now() if len(li) else []
    slots = (live[li[:, 0]], live[li[:, 1]])
    events, stale, predictions, crossings, capped, nudged, put_back = stats.tolist()
    ox, oy, cell = grid[:3]
    overlapping, crushed = _left_overlapping(left, live, table) if len(left) else ([], [])
    return StepResult(
        None,
        StepStats(
            events,
            stale,
            predictions,
            crossings,
            capped,
            nudged,
            seconds,
            cell_size=cell if len(moving) else 0.0,
            grid_origin=(ox, oy),
            put_back=put_back,
        ),
        make_contacts=partial(_contacts, lf, li, items, slots),
        make_arrays=partial(_contact_arrays, lf, li, items, slots),
        overlaps=overlapping,
        crushed=crushed,
    )


def _left_overlapping(
    left: np.ndarray, live: np.ndarray, table: ItemTable
) -> tuple[list[tuple[Item, Item]], list[Item]]:
    """``StepResult.overlaps`` and ``crushed`` from the core's pairs left overlapping
    (``left``: positions in ``live``, each pair ``(lower, higher)``, maybe repeated):
    the pairs once, in insertion order, and the bodies of finite mass among them
    (a mask is fixed terrain in a step, whatever its mass)."""
    pairs = np.unique(left, axis=0)
    slots = live[pairs]
    items = table.items
    overlapping = [(items[a], items[b]) for a, b in slots.tolist()]
    bodies = np.unique(slots)  # (slots grow in insertion order)
    movable = np.isfinite(table.mass[bodies]) & (table.kind[bodies] != MASK)  # (masks: fixed)
    crushed = [items[s] for s in bodies[movable].tolist()]
    return overlapping, crushed


def _check_finite(
    fb: np.ndarray,
    ib: np.ndarray,
    moving: np.ndarray,
    live: np.ndarray,
    table: ItemTable,
    scratch: StepScratch,
    dt: float,
) -> None:
    """Raise ``ValueError`` if a moving body's position or velocity left the floats
    (a velocity times ``dt`` beyond ``1.8e308``), naming the first such item, before
    anything is written back: the table stays as the step found it, and the fixed
    bodies' cell lists (built for this step's grid) are dropped, so the next step
    builds them again."""
    row = int(rows.first_unfinite(fb, moving))
    if row < 0:
        return
    scratch.grid = None
    item = table.items[int(live[ib[row, shapes.OWNER]])]
    raise ValueError(
        f"dt: a step of {dt!r} would move item {item!r} beyond the largest float "
        "(its position or velocity is no longer finite); nothing was changed"
    )


def _contacts(
    lf: np.ndarray, li: np.ndarray, items: list[Item], slots: tuple[np.ndarray, np.ndarray]
) -> list[Contact]:
    """The ``Contact`` records of the core's rows (see ``StepResult.contacts``), their
    items ``items[slots]``, the garbage collector paused meanwhile (thousands of
    records, no cycles; ``map`` and ``zip`` loop in C, over the columns as lists: a
    row's list for each vector made 18,500 records 20 % slower; ``tuple.__new__``
    mapped over ``repeat(cls)`` makes each record without a ``partial``'s call, 10,000
    contacts 8 % sooner)."""
    times, nx, ny, px, py = (lf + 0.0).T.tolist()  # (+ 0.0: no -0.0)
    named = items.__getitem__
    with collector_paused():
        names_a = list(map(named, slots[0].tolist()))
        names_b = list(map(named, slots[1].tolist()))
        normals = list(map(_new, repeat(Vec2), zip(nx, ny, strict=True)))
        points = list(map(_new, repeat(Vec2), zip(px, py, strict=True)))
        return list(map(_new, repeat(Contact), zip(
            times, names_a, names_b, normals, points, _RESPONSE_NAMES[li[:, 2]].tolist(),
            (li[:, 3] != 0).tolist(), strict=True,
        )))  # fmt: skip


def _contact_arrays(
    lf: np.ndarray, li: np.ndarray, items: list[Item], slots: tuple[np.ndarray, np.ndarray]
) -> ContactArrays:
    """The core's rows as ``ContactArrays`` (the fields ``_contacts`` makes, as columns)."""
    named = items.__getitem__
    values = lf + 0.0  # (no -0.0)
    return ContactArrays(
        values[:, 0],
        list(map(named, slots[0].tolist())),
        list(map(named, slots[1].tolist())),
        values[:, 1:3],
        values[:, 3:5],
        _RESPONSE_NAMES[li[:, 2]],
        li[:, 3] != 0,
    )


def _body_rows(
    table: ItemTable,
    group: np.ndarray,
    masks: Mapping[int, PlacedMask],
    slots: np.ndarray,
    vertices: np.ndarray,
    per: int,
    live: np.ndarray,
    is_mask: np.ndarray,
    scratch: StepScratch,
    dt: float,
    sized: np.ndarray,
    region: np.ndarray,
) -> tuple[np.ndarray, np.ndarray]:
    """The core's body rows (``scratch``'s), in the order of ``live``: one a plain
    item (a compiled pass over the table's columns), one for each of a mask's pixel
    boxes (``Mask.boxes()``: fixed rectangles owned by the mask). A polygon's outline
    about its anchor is written first (the pass reads its bounds). The moving bodies'
    bounds over ``dt`` go to ``sized`` and ``region`` (``step_rows.body_rows``)."""
    pieces = {slot: masks[slot].mask.boxes() for slot in live[is_mask].tolist()}
    counts = np.ones(len(live), dtype=np.int64)
    counts[is_mask] = [len(pieces[slot]) for slot in live[is_mask].tolist()]
    first = np.cumsum(counts) - counts
    n = int(counts.sum())
    fb, ib = scratch.rows(n, per * len(slots))
    if len(slots):  # (the polygons' slots, their numbers of vertices)
        _polygon_rows(fb, ib, first[np.searchsorted(live, slots)], table.local[slots], vertices,
                      per)  # fmt: skip
    plain = ~is_mask
    rows.body_rows(fb, ib, live[plain], first[plain], np.flatnonzero(plain), table.kind,
                   table.box, table.origin, table.radius, table.velocity, table.mass,
                   group, False, dt, sized, 0, region)  # fmt: skip
    for row, slot, owner in zip(first[is_mask].tolist(), live[is_mask].tolist(),
                                np.flatnonzero(is_mask).tolist(), strict=True):  # fmt: skip
        boxes, placed = pieces[slot], masks[slot]
        span = slice(row, row + len(boxes))
        fb[span] = 0.0
        ib[span] = 0
        fb[span, shapes.X] = placed.x + boxes[:, 0]
        fb[span, shapes.Y] = placed.y + boxes[:, 1]
        fb[span, shapes.W] = boxes[:, 2] - boxes[:, 0]
        fb[span, shapes.H] = boxes[:, 3] - boxes[:, 1]
        ib[span, shapes.GROUP] = group[slot]
        ib[span, shapes.OWNER] = owner
        ib[span, shapes.FIXED] = 1  # at rest, infinite mass
    return fb, ib


def response_code(name: object) -> int:
    """The core's code for a response name; ``ValueError`` naming it if unknown."""
    if name not in RESPONSES:
        raise ValueError(f"name must be one of {', '.join(RESPONSES)}, got {name!r}")
    return RESPONSES.index(name)


def checked_dt(dt: object) -> float:
    """``dt`` as a finite float ``>= 0``."""
    value = _checks.real(dt, "dt")
    if value < 0.0:
        raise ValueError(f"dt must be >= 0, got {dt!r}")
    return value


def checked_cap(cap: object) -> int:
    """``event_cap`` as an int ``>= 1``."""
    if type(cap) is not int or cap < 1:
        raise ValueError(f"event_cap must be an int >= 1, got {cap!r}")
    return cap


def _polygon_rows(
    fb: np.ndarray,
    ib: np.ndarray,
    rows: np.ndarray,
    local: np.ndarray,
    counts: np.ndarray,
    per: int,
) -> None:
    """Polygons' outlines about their anchors (``local``, ``counts`` vertices each;
    the item table's) into ``per`` float rows each after the bodies' (``step_columns``:
    their bounds, their number of vertices, each vertex's ``x, y``), and each outline's
    first row into its body's row ``rows`` of ``ib`` (``OUTLINE``)."""
    m, k, _ = local.shape
    valid = np.arange(k) < counts[:, None]
    xs, ys = local[:, :, 0], local[:, :, 1]
    block = np.zeros((m, per * shapes.FLOATS))
    block[:, shapes.PX0] = np.where(valid, xs, np.inf).min(axis=1)
    block[:, shapes.PY0] = np.where(valid, ys, np.inf).min(axis=1)
    block[:, shapes.PX1] = np.where(valid, xs, -np.inf).max(axis=1)
    block[:, shapes.PY1] = np.where(valid, ys, -np.inf).max(axis=1)
    block[:, shapes.PN] = counts
    width = min(2 * k, block.shape[1] - shapes.PV)
    block[:, shapes.PV : shapes.PV + width] = local.reshape(m, 2 * k)[:, :width]
    first = len(ib)
    fb[first : first + m * per] = block.reshape(m * per, shapes.FLOATS)
    ib[rows, shapes.OUTLINE] = first + per * np.arange(m)


def _write_polygons(
    fb: np.ndarray,
    ib: np.ndarray,
    moving: np.ndarray,
    live: np.ndarray,
    table: ItemTable,
    shapes_now: Mapping[Item, Any],
    place: Callable[[Item, PlacedPolygon], None],
) -> None:
    """The moving polygons' velocities (their rows at the step's end) into the table
    and their places to ``place``: each a ``PlacedPolygon`` of the same outline at
    its anchor's new place (``step_rows.write_back`` leaves them out)."""
    items = table.items
    for row in moving[ib[moving, shapes.KIND] == POLYGON].tolist():
        slot = int(live[ib[row, shapes.OWNER]])
        x, y, vx, vy = fb[row, [shapes.X, shapes.Y, shapes.VX, shapes.VY]].tolist()
        table.velocity[slot] = vx + 0.0, vy + 0.0
        item = items[slot]
        place(item, PlacedPolygon(shapes_now[item].polygon, x + 0.0, y + 0.0))
