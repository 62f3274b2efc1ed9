"""``World.move`` and ``check`` of one rectangle through the compiled moves of
:mod:`collide2d.world.move_all`, where its candidates are rectangles."""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping

import numpy as np

from collide2d._kernels import lazy
from collide2d.geometry.placed_polygon import PlacedPolygon
from collide2d.geometry.rect import Rect
from collide2d.geometry.vec2 import Vec2
from collide2d.shapes import AnyShape
from collide2d.world.collision import Filter, Item, Movement
from collide2d.world.contact import bounds
from collide2d.world.far_rects import mover_kept, rect_kept
from collide2d.world.move_all import (
    NORMALS,
    REGION_PAD,
    RESPONSE_NAMES,
    _collision,
    _columns,
    _movement,
    _new,
    _rect,
    _vec2,
    moves,
)  # fmt: skip
from collide2d.world.one_move import MOST_CANDIDATES, move_rect
from collide2d.world.table import ItemTable


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
    are all it can meet; ``candidates`` finds them in the broadphase. Where polygons
    are near, the box is widened by the move's length on every side (a slide up a
    slope leaves the narrow box, never the wide one) and the kernel takes the
    polygons too. ``codes`` are the responses the compiled moves may run (the
    built-ins not replaced). Returns the movement and the counts for
    ``World.stats``: exact tests, candidates."""
    x, y, w, h = shape
    gx, gy = goal
    reach = abs(gx - x) + abs(gy - y) if table.polygons else 0.0
    region = _region(x, y, w, h, gx, gy, reach)
    if region is None:
        return None  # far out, where x + w loses part of w: the check loop's exact route
    found = candidates(_new(Rect, (region[0], region[1], region[2] - region[0],
                                   region[3] - region[1])))  # fmt: skip
    rows = _rows(shapes, table, found, item, region, filter, codes)
    if rows is None:
        return None
    polygons = bool(table.polygons) and any(type(row[3]) is not Rect for row in rows)
    if reach and not polygons:  # rectangles alone: the narrow box, as without polygons
        region = _region(x, y, w, h, gx, gy, 0.0)
        if region is None:
            return None
        left, top, right, bottom = region
        rows = [row for row in rows if _meets(row[3], left, top, right, bottom)]
    rows.sort()  # the order the items were added (slots differ: the rest is not compared)
    k = len(rows)
    if k <= MOST_CANDIDATES and not polygons:  # a few: plain Python, before a kernel's call
        moved = move_rect(item, shape, gx, gy, rows)  # type: ignore[arg-type] # rectangles
        return None if moved is None else (moved, k, len(found))
    # the mover's row and its candidates', each built by one numpy call (an element
    # written at a time costs a microsecond a row)
    slot = table.slot
    order = np.array([slot[item], *[row[0] for row in rows]], dtype=np.int64)
    box = table.box[order]  # the mover's row is its shape (rows are never behind)
    cand_resp = np.array([row[1] for row in rows], dtype=np.int8)
    columns = _one_columns(2 * moves.MAX_RESPONSES * (k + 1))
    goal_row, cand_start, out_pos, out_start = _kept.small
    goal_row[0, 0] = gx
    goal_row[0, 1] = gy
    cand_start[1] = k
    out_start[0] = 0
    kept_region = _kept.region
    left, top, right, bottom = region
    kept_region[0] = left, top, right - left, bottom - top
    if polygons:
        kind = table.kind[order]
        outlines = table.outline[order]
        polygon_rows = (outlines, table.outline_n[order], table.outline_tame[order],
                        *_work(outlines.shape[1]))  # fmt: skip
    else:
        kind, polygon_rows = _kinds(k + 1), None
    status, _, _ = moves.move_rects(
        box, order, ONE_MOVER, goal_row, cand_start, _counting(k), cand_resp, ONE_FALSE, 0,
        out_pos, out_start, *columns, kind, kept_region, polygon_rows,
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
            item, name, RESPONSE_NAMES[resp[r]], fraction[r],
            NORMALS[int(3 * nx + ny + 4)] if nx == 0.0 or ny == 0.0 else _vec2((nx, ny)),
            _vec2(touch[r]), _vec2(delta[r]), _rect((*leg[r], w, h)), shapes[name],
            started[r], None if sx != sx else _vec2((sx, sy)), None,
        )))  # fmt: skip
    return _movement((_vec2((px, py)), collisions)), k, len(found)


def _region(
    x: float, y: float, w: float, h: float, gx: float, gy: float, reach: float
) -> tuple[float, float, float, float] | None:
    """The box ``left, top, right, bottom`` a move from ``x, y`` to ``gx, gy`` never
    leaves (widened by ``reach`` on every side), padded; None far out, where
    ``x + w`` loses part of ``w``."""
    lo_x, lo_y = min(x, gx) - reach, min(y, gy) - reach
    hi_x, hi_y = max(x + w, gx + w) + reach, max(y + h, gy + h) + reach
    pad_x = REGION_PAD * (abs(lo_x) + abs(hi_x)) + 1e-300
    pad_y = REGION_PAD * (abs(lo_y) + abs(hi_y)) + 1e-300
    left, top = lo_x - pad_x, lo_y - pad_y
    right, bottom = left + ((hi_x + pad_x) - left), top + ((hi_y + pad_y) - top)
    if not (mover_kept(left, right, w) and mover_kept(top, bottom, h)):
        return None
    return left, top, right, bottom


def _meets(shape: AnyShape, left: float, top: float, right: float, bottom: float) -> bool:
    """Whether the shape's bounds overlap the box strictly."""
    ox, oy, ow, oh = shape if type(shape) is Rect else bounds(shape)
    return ox < right and left < ox + ow and oy < bottom and top < oy + oh


def _rows(
    shapes: Mapping[Item, AnyShape],
    table: ItemTable,
    found: list[Item],
    item: Item,
    region: tuple[float, float, float, float],
    filter: Filter,
    codes: Mapping[str, int],
) -> list[tuple[int, int, Item, AnyShape]] | None:
    """The candidates in ``region`` that the filter answers, as rows ``(slot, code,
    other, shape)``; None where the check loop must move the item (a curve or mask
    to respond to, a response the kernel does not run, a rectangle far out)."""
    slot = table.slot
    left, top, right, bottom = region
    rows = []
    for other in found:  # (every move runs this loop: its tests are written out)
        if other == item:
            continue
        other_shape = shapes[other]
        is_rect = type(other_shape) is Rect
        ox, oy, ow, oh = other_shape if type(other_shape) is Rect else bounds(other_shape)
        if not (ox < right and left < ox + ow and oy < bottom and top < oy + oh):
            continue  # outside the box the move never leaves
        response = filter(item, other)
        if not response:
            continue
        code = codes.get(response) if isinstance(response, str) else None
        if code is None or not (is_rect or type(other_shape) is PlacedPolygon):
            return None
        rounded = is_rect and ((ox + ow) - ox != ow or (oy + oh) - oy != oh)
        if rounded and not rect_kept(ox, oy, ow, oh):  # far out: the check loop's route
            return None
        rows.append((slot[other], code, other, other_shape))
    return rows


ONE_MOVER = np.zeros(1, dtype=np.int64)
_COUNTING = np.arange(1, 257, dtype=np.int64)


def _counting(k: int) -> np.ndarray:
    """``1, 2, ..., k`` (a shared array's view for the usual few)."""
    return _COUNTING[:k] if k <= 256 else np.arange(1, k + 1, dtype=np.int64)


ONE_FALSE = np.zeros(1, dtype=np.bool_)


def _work(width: int) -> tuple[np.ndarray, ...]:
    """The polygon kernels' scratch (``_kernels.moves.outlines.work``), kept between
    calls by each thread for the widest outline asked."""
    work: tuple[np.ndarray, ...] | None = getattr(_kept, "work", None)
    if work is None or work[2].shape[0] < width + 4:
        work = _kept.work = lazy("moves.outlines").work(width)
    return work


_RECTS = np.zeros(257, dtype=np.int8)  # codes.RECT


def _kinds(k: int) -> np.ndarray:
    """``k`` rectangles' kinds (a shared array's view for the usual few)."""
    return _RECTS[:k] if k <= 257 else np.zeros(k, dtype=np.int8)


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
        _kept.region = np.empty((1, 4))
    return columns
