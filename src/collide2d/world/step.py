"""``World.step`` in Python: the item table turned into the compiled core's body rows,
the grid sized, the core run, the results written back (``_kernels/step_core.py``).

Bodies are numbered in the order their items were added; a pixel mask (always
fixed in a step) becomes its solid pixels stacked into boxes
(:meth:`Mask.boxes <collide2d.mask.storage.MaskStorage.boxes>`), numbered in its
place, so ties between contacts keep following the order of the items. A body is
*fixed* when it cannot move during the step: infinite mass and no velocity, or a
mask. Fixed bodies are never tested against each other.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Mapping
from functools import partial

import numpy as np

from collide2d._kernels import lazy
from collide2d.geometry import _checks
from collide2d.geometry.vec2 import Vec2
from collide2d.mask.placed import PlacedMask
from collide2d.world.collision import Item
from collide2d.world.gc_pause import collector_paused
from collide2d.world.step_result import Contact, StepResult, StepStats
from collide2d.world.table import MASK, ItemTable

core = lazy("step_core")
shapes = lazy("step_shapes")
rows = lazy("step_rows")

RESPONSES = ("ignore", "cross", "touch", "slide", "bounce")
"""The step's responses, by code (``_kernels.step_core``)."""
EVENT_CAP = 64
"""Contacts one body may take part in during a step before it is stopped for the rest
of the step (the Zeno guard: a jammed stack or a ball squeezed into a corner would
otherwise make events without end at one moment)."""
MAX_CELLS = 1 << 22
"""The grid never has more cells than this (nor more than a few per moving body)."""
CELLS_PER_MOVER = 8
"""The grid has at most this many cells per moving body: cells twice the bodies' size
over a sparse level (the swarm: 10,000 actors over a level of 4,000 x 20,000) need
eight; at four they grew to 88 px for 20 px actors and the core took 45% longer
(more candidates to gather and test, at the first predictions and at the end)."""

_new = tuple.__new__
_contact = partial(_new, Contact)
_vec2 = partial(_new, Vec2)
_RESPONSE_NAMES = np.array(RESPONSES, dtype=object)


def run(
    table: ItemTable,
    masks: Mapping[int, PlacedMask],
    responses: np.ndarray,
    restitution: np.ndarray,
    dt: float,
    cap: int,
    place: Callable[[list[int], np.ndarray], None],
) -> StepResult:
    """Run one step over the table's live rows; ``masks`` maps a mask row's slot to
    its ``PlacedMask``; ``place(slots, rows)`` writes the moved rows (``x, y, vx, vy``)
    back. Returns the contacts and stats."""
    live = table.live()
    kind = table.kind[live]
    is_mask = kind == MASK
    fb, ib = _body_rows(table, masks, live, is_mask)
    fixed = ib[:, shapes.FIXED] != 0
    moving = np.flatnonzero(~fixed)
    grid, room = _grid(fb, ib, moving, dt)
    stats = np.zeros(6, dtype=np.int64)
    start = time.perf_counter()
    lf, li = core.run_step(
        fb, ib, responses, restitution, dt, cap, grid, moving, np.flatnonzero(fixed), room, stats
    )
    seconds = time.perf_counter() - start
    # Write back the rows of the plain (not mask) moving bodies.
    back = moving[kind[ib[moving, shapes.OWNER]] != MASK]
    out = fb[back][:, [shapes.X, shapes.Y, shapes.VX, shapes.VY]] + 0.0  # no -0.0
    place(live[ib[back, shapes.OWNER]].tolist(), out)
    # The contacts' items now (the world may change before they are read); their
    # records when first read, column by column (map and zip loop in C).
    named = table.items.__getitem__
    names_a = list(map(named, live[li[:, 0]].tolist()))
    names_b = list(map(named, live[li[:, 1]].tolist()))
    events, stale, predictions, crossings, capped, nudged = stats.tolist()
    return StepResult(
        None,
        StepStats(events, stale, predictions, crossings, capped, nudged, seconds),
        make_contacts=partial(_contacts, lf, li, names_a, names_b),
    )


def _contacts(
    lf: np.ndarray, li: np.ndarray, names_a: list[Item], names_b: list[Item]
) -> list[Contact]:
    """The ``Contact`` records of the core's rows (see ``StepResult.contacts``), the
    garbage collector paused meanwhile (thousands of records, no cycles)."""
    floats = lf + 0.0  # no -0.0
    with collector_paused():
        return list(map(_contact, zip(
            floats[:, 0].tolist(), names_a, names_b, map(_vec2, floats[:, 1:3].tolist()),
            map(_vec2, floats[:, 3:5].tolist()), _RESPONSE_NAMES[li[:, 2]].tolist(),
            (li[:, 3] != 0).tolist(), strict=True,
        )))  # fmt: skip


def _body_rows(
    table: ItemTable, masks: Mapping[int, PlacedMask], live: np.ndarray, is_mask: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """The core's body rows, in the order of ``live``: one a plain item (a compiled
    pass over the table's columns), one for each of a mask's pixel boxes
    (``Mask.boxes()``: fixed rectangles owned by the mask)."""
    pieces = {slot: masks[slot].mask.boxes() for slot in live[is_mask].tolist()}
    counts = np.ones(len(live), dtype=np.int64)
    counts[is_mask] = [len(pieces[slot]) for slot in live[is_mask].tolist()]
    first = np.cumsum(counts) - counts
    n = int(counts.sum())
    fb = np.zeros((n, shapes.FLOATS))
    ib = np.zeros((n, shapes.INTS), dtype=np.int64)
    plain = ~is_mask
    rows.body_rows(fb, ib, live[plain], first[plain], np.flatnonzero(plain), table.kind,
                   table.box, table.origin, table.radius, table.velocity, table.mass,
                   table.group)  # fmt: skip
    for row, slot, owner in zip(first[is_mask].tolist(), live[is_mask].tolist(),
                                np.flatnonzero(is_mask).tolist(), strict=True):  # fmt: skip
        boxes, placed = pieces[slot], masks[slot]
        span = slice(row, row + len(boxes))
        fb[span, shapes.X] = placed.x + boxes[:, 0]
        fb[span, shapes.Y] = placed.y + boxes[:, 1]
        fb[span, shapes.W] = boxes[:, 2] - boxes[:, 0]
        fb[span, shapes.H] = boxes[:, 3] - boxes[:, 1]
        ib[span, shapes.GROUP] = table.group[slot]
        ib[span, shapes.OWNER] = owner
        ib[span, shapes.FIXED] = 1  # at rest, infinite mass
    return fb, ib


def _grid(
    fb: np.ndarray, ib: np.ndarray, moving: np.ndarray, dt: float
) -> tuple[tuple[float, float, float, float, int, int], int]:
    """The core's grid ``(ox, oy, cell, margin, cols, rows)`` over where the moving
    bodies go at their starting velocities, and the room its cell lists need.

    Cells are twice the moving bodies' median extent (the cell of hard-disk codes is
    a diameter; rectangles and circles of mixed sizes see fewer cells per body at
    twice), grown when the region would need more than ``CELLS_PER_MOVER`` cells a
    moving body."""
    if len(moving) == 0:
        return (0.0, 0.0, 1.0, 1.0 / 16.0, 1, 1), 1
    x0, y0, x1, y1 = _bounds(fb, ib, moving)
    ex = fb[moving, shapes.VX] * dt
    ey = fb[moving, shapes.VY] * dt
    with np.errstate(over="ignore", invalid="ignore"):
        left = float(np.min(np.minimum(x0, x0 + ex)))
        top = float(np.min(np.minimum(y0, y0 + ey)))
        right = float(np.max(np.maximum(x1, x1 + ex)))
        bottom = float(np.max(np.maximum(y1, y1 + ey)))
        width, height = right - left, bottom - top
    if not (math.isfinite(width) and math.isfinite(height)):  # sweeps beyond floats
        left, top = float(x0.min()), float(y0.min())
        width, height = float(x1.max()) - left, float(y1.max()) - top
    extent = np.maximum(x1 - x0, y1 - y0)
    cell = 2.0 * float(np.median(extent))
    limit = min(MAX_CELLS, max(64, CELLS_PER_MOVER * len(moving)))
    cell = max(cell, math.sqrt(width * height / limit), max(width, height) / limit)
    if not (cell > 0.0 and math.isfinite(cell)):
        cell = 1.0
    while (width / cell + 3) * (height / cell + 3) > limit:
        cell *= 2.0
    cols = int(width / cell) + 3
    rows = int(height / cell) + 3
    margin = cell / 16.0
    per = (np.ceil((x1 - x0 + 2 * margin) / cell) + 2) * (
        np.ceil((y1 - y0 + 2 * margin) / cell) + 2
    )
    room = int(np.minimum(per, cols * rows).sum())
    return (left - cell, top - cell, cell, margin, cols, rows), room


def _bounds(
    fb: np.ndarray, ib: np.ndarray, rows: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    x, y = fb[rows, shapes.X], fb[rows, shapes.Y]
    w, h = fb[rows, shapes.W], fb[rows, shapes.H]
    circle = ib[rows, shapes.KIND] == shapes.CIRCLE
    x0 = np.where(circle, x - w, x)
    y0 = np.where(circle, y - w, y)
    return x0, y0, x + w, np.where(circle, y + w, y + h)


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
