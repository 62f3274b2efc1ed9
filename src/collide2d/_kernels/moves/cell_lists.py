"""The World's items listed by grid cell, for its single moves (``World.move`` and
``check`` of a rectangle), changed one item at a time as items move.

A cell ``(cx, cy)`` (``floor(x / cell)``, ``floor(y / cell)``) is a key of an open
hash (``cells``: rows of key and first entry, linear probing) whose entries
(``entries``: rows of slot and next entry) list the slots of the items whose closed
box ``x <= X <= x + w, y <= Y <= y + h`` touches it, as ``UniformGrid`` files them.
An item over more than :data:`MOST_CELLS` cells, or with a cell number beyond
:data:`LIMIT`, is kept apart (``apart``), and every search looks at it. ``spans``
holds each slot's cell range and where it is: ``LISTED`` in the cells, its index in
``apart``, or ``ABSENT``. ``meta`` holds the free entries' first, the keys in use,
the items apart and the search's epoch (``spans[:, SEEN]`` marks the slots a search
met).

All of it lives in two arrays, so that a kernel's call unboxes two arrays rather than
a dozen (each costs about 55 ns a call, a tenth of a single move): ``ints`` (int64)
holds ``meta`` (its first :data:`HEAD` values: the free entries' first, the keys in
use, the items apart, the search's epoch, then the sizes: slots ``N``, entries ``E``,
hash rows ``H``, collision rows ``C``), then ``spans`` (N, 6), ``apart``, ``found``
and ``order`` (N each), the move's candidates ``cands`` (C // 128 - 1, 2), the
collision rows' integer columns ``marks`` (C, 3), ``entries`` (E, 2) and ``cells``
(H, 2), then the move's scratch; ``floats`` holds ``regions`` (N, 4), the collision
rows ``packed`` (C, 14), then the move's scratch. :func:`parts` cuts them apart
(``collide2d.world.cell_lists`` keeps the same views), :func:`_scratch` the
scratch.

The caller (``collide2d.world.cell_lists``) builds the lists from the item table and
builds them again, larger, when a change returns ``FULL``: a partial change is then
thrown away whole.
"""

from __future__ import annotations

import numpy as np

from collide2d._kernels.codes import MAX_RESPONSES, RECT
from collide2d._kernels.jit import helper_kernel, kernel
from collide2d._kernels.moves.world_moves import DONE, NEEDS_PYTHON, moves_with

FREE = -1
"""The key of an unused row of ``cells`` (keys are never negative)."""
LISTED, ABSENT = -1, -2
"""``spans[s, 4]`` of an item in the cells, and of a slot not listed at all."""
LIMIT = 2**30
"""Cell numbers at or beyond this in magnitude are not keys: their items are apart."""
MOST_CELLS = 64
"""An item over more cells than this is kept apart (as ``UniformGrid`` keeps its large
shapes): its moves would otherwise change hundreds of lists."""
MOST_SEARCHED = 4096
"""A search over more cells than this is the caller's (its broadphase's) to answer."""
OK, FULL, WIDE, FAR = 0, 1, 2, 3
"""Statuses: done; out of entries or keys (build again, larger); a region over more
than :data:`MOST_SEARCHED` cells; a move the rows cannot keep (far out)."""
FREE_AT, KEYS, APART, EPOCH, SLOTS, ENTRIES, ROWS, COLLISIONS = range(8)
"""The values of ``meta``."""
HEAD = 8
"""The length of ``meta``."""
SEEN = 5
"""The column of ``spans`` that marks the slots a search met (its epoch)."""
REGION_PAD = 1e-9
"""``collide2d.world.move_all.REGION_PAD`` (a test holds them equal)."""
NEAR = 2.0**32
"""``collide2d.world.far_rects.NEAR`` (a test holds them equal)."""
KEPT = 2.0**-20
"""``collide2d.continuous.rect_exact.KEPT`` (a test holds them equal)."""
_MIX = -7046029254386353131  # 0x9E3779B97F4A7C15 as a signed 64-bit integer


@helper_kernel
def parts(ints, floats):
    """``meta, spans, apart, found, order, cands, marks, entries, cells, regions,
    packed``: the views of ``ints`` and ``floats`` (module docstring)."""
    n = ints[SLOTS]
    c = ints[COLLISIONS]
    r = c // (2 * MAX_RESPONSES) - 1
    at = HEAD
    spans = ints[at : at + 6 * n].reshape((n, 6))
    at += 6 * n
    apart = ints[at : at + n]
    found = ints[at + n : at + 2 * n]
    order = ints[at + 2 * n : at + 3 * n]
    at += 3 * n
    cands = ints[at : at + 2 * r].reshape((r, 2))
    at += 2 * r
    marks = ints[at : at + 3 * c].reshape((c, 3))
    at += 3 * c
    entries = ints[at : at + 2 * ints[ENTRIES]].reshape((ints[ENTRIES], 2))
    at += 2 * ints[ENTRIES]
    cells = ints[at : at + 2 * ints[ROWS]].reshape((ints[ROWS], 2))
    regions = floats[: 4 * n].reshape((n, 4))
    packed = floats[4 * n : 4 * n + 14 * c].reshape((c, 14))
    return ints[:HEAD], spans, apart, found, order, cands, marks, entries, cells, regions, packed


def lengths(slots, entries, rows, collisions):
    """The lengths of ``ints`` and ``floats`` for these sizes (module docstring): the
    parts :func:`parts` and :func:`_scratch` cut them into, end to end."""
    r = collisions // (2 * MAX_RESPONSES) - 1
    ints = HEAD + 9 * slots + 2 * r + 3 * collisions + 2 * entries + 2 * rows + 8 + 2 * r
    return ints, 4 * slots + 14 * collisions + 4 + 9 * r


@helper_kernel
def _scratch(ints, floats):
    """``small, ends, flags, p_slot, p_floats, p_key``: the single move's scratch, after
    the parts (module docstring): 8 integers, 4 floats, ``8 r`` flags, ``r`` slots,
    ``(5, r)`` and ``(r, 4)`` floats for ``r`` candidates."""
    n = ints[SLOTS]
    c = ints[COLLISIONS]
    r = c // (2 * MAX_RESPONSES) - 1
    at = HEAD + 9 * n + 2 * r + 3 * c + 2 * ints[ENTRIES] + 2 * ints[ROWS]
    small = ints[at : at + 8]
    flags = ints[at + 8 : at + 8 + r].view(np.bool_)
    p_slot = ints[at + 8 + r : at + 8 + 2 * r]
    at = 4 * n + 14 * c
    ends = floats[at : at + 4].reshape((2, 2))
    p_floats = floats[at + 4 : at + 4 + 5 * r].reshape((5, r))
    p_key = floats[at + 4 + 5 * r : at + 4 + 9 * r].reshape((r, 4))
    return small, ends, flags, p_slot, p_floats, p_key


@helper_kernel
def _index(cells, key, add, meta):
    """The row of ``cells`` holding ``key`` (added when ``add``; -1 when absent, or
    when adding would fill half the rows)."""
    mask = cells.shape[0] - 1
    i = ((key * _MIX) >> 17) & mask
    while True:
        found = cells[i, 0]
        if found == key:
            return i
        if found == FREE:
            if not add or 2 * (meta[KEYS] + 1) > cells.shape[0]:
                return -1
            cells[i, 0] = key
            cells[i, 1] = -1
            meta[KEYS] += 1
            return i
        i = (i + 1) & mask


@helper_kernel
def _range(box, s, cell):
    """The closed cell range of row ``s``, and whether it can be listed."""
    x = box[s, 0]
    y = box[s, 1]
    fx0 = np.floor(x / cell)
    fy0 = np.floor(y / cell)
    fx1 = np.floor((x + box[s, 2]) / cell)
    fy1 = np.floor((y + box[s, 3]) / cell)
    if not (fx0 > -LIMIT and fx1 < LIMIT and fy0 > -LIMIT and fy1 < LIMIT):
        return 0, 0, 0, 0, False
    x0, y0, x1, y1 = int(fx0), int(fy0), int(fx1), int(fy1)
    return x0, y0, x1, y1, (x1 - x0 + 1) * (y1 - y0 + 1) <= MOST_CELLS


@helper_kernel
def _insert(box, s, cell, cells, entries, spans, apart, meta):
    """List slot ``s`` where its row is; ``OK`` or ``FULL``."""
    x0, y0, x1, y1, listed = _range(box, s, cell)
    spans[s, 0] = x0
    spans[s, 1] = y0
    spans[s, 2] = x1
    spans[s, 3] = y1
    if not listed:
        spans[s, 4] = meta[APART]
        apart[meta[APART]] = s
        meta[APART] += 1
        return OK
    spans[s, 4] = LISTED
    for cx in range(x0, x1 + 1):
        for cy in range(y0, y1 + 1):
            i = _index(cells, (cx + LIMIT) * 2**31 + (cy + LIMIT), True, meta)
            e = meta[FREE_AT]
            if i < 0 or e < 0:
                return FULL
            meta[FREE_AT] = entries[e, 1]
            entries[e, 0] = s
            entries[e, 1] = cells[i, 1]
            cells[i, 1] = e
    return OK


@helper_kernel
def _remove(s, cells, entries, spans, apart, meta):
    """Take slot ``s`` out of the lists."""
    where = spans[s, 4]
    spans[s, 4] = ABSENT
    if where == ABSENT:
        return
    if where >= 0:  # apart: the last one apart takes its place
        meta[APART] -= 1
        last = apart[meta[APART]]
        apart[where] = last
        spans[last, 4] = where
        return
    for cx in range(spans[s, 0], spans[s, 2] + 1):
        for cy in range(spans[s, 1], spans[s, 3] + 1):
            i = _index(cells, (cx + LIMIT) * 2**31 + (cy + LIMIT), False, meta)
            before = -1
            e = cells[i, 1]
            while entries[e, 0] != s:
                before = e
                e = entries[e, 1]
            if before < 0:
                cells[i, 1] = entries[e, 1]
            else:
                entries[before, 1] = entries[e, 1]
            entries[e, 1] = meta[FREE_AT]
            meta[FREE_AT] = e


@kernel
def build(box, alive, count, cell, ints, floats):
    """List every live slot below ``count``; ``OK`` or ``FULL``."""
    meta, spans, apart, _, order, _, _, entries, cells, _, _ = parts(ints, floats)
    cells[:, 0] = FREE
    for e in range(entries.shape[0]):
        entries[e, 1] = e + 1
    entries[entries.shape[0] - 1, 1] = -1
    meta[FREE_AT] = 0
    meta[KEYS] = 0
    meta[APART] = 0
    for s in range(spans.shape[0]):
        spans[s, 4] = ABSENT
        order[s] = s  # a slot's insertion rank
    for s in range(count):
        if alive[s] and _insert(box, s, cell, cells, entries, spans, apart, meta) != OK:
            return FULL
    return OK


@helper_kernel
def _relocate(box, s, cell, cells, entries, spans, apart, meta):
    """List slot ``s`` where its row is now; ``OK`` or ``FULL``."""
    x0, y0, x1, y1, listed = _range(box, s, cell)
    if (listed and spans[s, 4] == LISTED and spans[s, 0] == x0 and spans[s, 1] == y0
            and spans[s, 2] == x1 and spans[s, 3] == y1):  # fmt: skip
        return OK  # most moves stay in their cells
    _remove(s, cells, entries, spans, apart, meta)
    return _insert(box, s, cell, cells, entries, spans, apart, meta)


@kernel
def relocate(box, s, cell, ints, floats):
    """List slot ``s`` where its row is now (a row written, or a slot added); ``OK``
    or ``FULL``."""
    meta, spans, apart, _, _, _, _, entries, cells, _, _ = parts(ints, floats)
    return _relocate(box, s, cell, cells, entries, spans, apart, meta)


@kernel
def take_out(s, ints, floats):
    """Take slot ``s`` out of the lists (its item removed)."""
    meta, spans, apart, _, _, _, _, entries, cells, _, _ = parts(ints, floats)
    _remove(s, cells, entries, spans, apart, meta)


@helper_kernel
def _region(x, y, w, h, gx, gy):
    """``collide2d.world.single_move._region`` (no reach): the padded box a move never
    leaves, and whether the mover's size is kept there."""
    lo_x = min(x, gx)
    lo_y = min(y, gy)
    hi_x = max(x + w, gx + w)
    hi_y = max(y + h, gy + h)
    pad_x = REGION_PAD * (abs(lo_x) + abs(hi_x)) + 1e-300
    pad_y = REGION_PAD * (abs(lo_y) + abs(hi_y)) + 1e-300
    left = lo_x - pad_x
    top = lo_y - pad_y
    right = left + ((hi_x + pad_x) - left)
    bottom = top + ((hi_y + pad_y) - top)
    kept = (w == 0.0 or max(-left, right) < NEAR * w) and (h == 0.0 or max(-top, bottom) < NEAR * h)
    return left, top, right, bottom, kept


@helper_kernel
def _kept(x, w):
    """``rect_exact.sizes_kept`` of one axis."""
    spread = (x + w) - x
    return spread == w or abs(spread - w) <= KEPT * w


@kernel
def search(box, kind, origin, mover, gx, gy, place, cell, ints, floats):
    """The items a move of ``mover`` toward ``gx, gy`` may meet: the slots whose boxes
    overlap the move's region (strictly) in ``found``, in insertion order, each as
    ``2 * slot + own``, ``own`` 1 where it is the caller's Python's to move against
    (not a rectangle, or one whose ``x + w`` loses part of ``w``). Writes the region
    into ``regions[mover]`` (``x, y, w, h``). Where none is found the move ends at
    the goal: when ``place``, the mover's row is written there and its cells changed.
    Returns ``(status, count, met, epoch)``, ``met`` the slots looked at (the
    mover's own included), ``epoch`` the search's (for :func:`move`); the status is
    ``FULL`` where the lists must be built again."""
    meta, spans, apart, found, _, _, _, entries, cells, regions, _ = parts(ints, floats)
    x = box[mover, 0]
    y = box[mover, 1]
    w = box[mover, 2]
    h = box[mover, 3]
    left, top, right, bottom, kept = _region(x, y, w, h, gx, gy)
    if not kept:
        return FAR, 0, 0, 0
    fx0 = np.floor(left / cell)
    fy0 = np.floor(top / cell)
    fx1 = np.floor(right / cell)
    fy1 = np.floor(bottom / cell)
    if not ((fx1 - fx0 + 1.0) * (fy1 - fy0 + 1.0) <= MOST_SEARCHED):
        return WIDE, 0, 0, 0
    regions[mover, 0] = left
    regions[mover, 1] = top
    regions[mover, 2] = right - left
    regions[mover, 3] = bottom - top
    meta[EPOCH] += 1
    epoch = meta[EPOCH]
    count = 0
    met = meta[APART]
    for k in range(meta[APART]):
        count = _take(box, kind, apart[k], mover, left, top, right, bottom, found, count)
    for cx in range(int(fx0), int(fx1) + 1):
        for cy in range(int(fy0), int(fy1) + 1):
            if not (-LIMIT < cx < LIMIT and -LIMIT < cy < LIMIT):
                continue
            i = _index(cells, (cx + LIMIT) * 2**31 + (cy + LIMIT), False, meta)
            if i < 0:
                continue
            e = cells[i, 1]
            while e >= 0:
                s = entries[e, 0]
                e = entries[e, 1]
                if spans[s, SEEN] != epoch:
                    spans[s, SEEN] = epoch
                    met += 1
                    count = _take(box, kind, s, mover, left, top, right, bottom, found, count)
    for i in range(1, count):  # insertion order (a search finds a few)
        j = i
        while j > 0 and found[j] < found[j - 1]:
            found[j], found[j - 1] = found[j - 1], found[j]
            j -= 1
    if count == 0 and place:
        box[mover, 0] = origin[mover, 0] = gx
        box[mover, 1] = origin[mover, 1] = gy
        return _relocate(box, mover, cell, cells, entries, spans, apart, meta), 0, met, epoch
    return OK, count, met, epoch


@helper_kernel
def _take(box, kind, s, mover, left, top, right, bottom, found, count):
    """Add slot ``s`` to ``found`` (``2 * s + own``) if its box overlaps the region;
    the new count."""
    if s == mover:
        return count
    ox = box[s, 0]
    oy = box[s, 1]
    ow = box[s, 2]
    oh = box[s, 3]
    if not (ox < right and left < ox + ow and oy < bottom and top < oy + oh):
        return count
    own = kind[s] != RECT or not (_kept(ox, ow) and _kept(oy, oh))
    found[count] = 2 * s + (1 if own else 0)
    return count + 1


@kernel
def move(box, kind, origin, mover, gx, gy, n, answers, epoch, place, cell, ints, floats):
    """``world_moves.move_rects`` of ``mover`` toward ``gx, gy`` over the item table's
    own rows, against the ``n`` items :func:`search` found (its ``epoch``; another
    search since, from the caller's filter, returns ``NEEDS_PYTHON``), with their
    response codes three bits each in ``answers`` (``IGNORE`` for none), or, where
    ``answers`` is -1, already in ``cands[:n, 1]``. Its collision rows go to
    ``packed`` (a row each: the other's slot, response, fraction, normal, touch,
    delta, leg start, started, slide goal); then, when ``place``, its row's origin
    is written and its cells changed (else its row is as it was). Returns ``(status,
    collisions, lists, x, y)``: the moves' status, the collision rows written,
    ``OK`` or ``FULL`` (the lists must be built again) and where the mover ends."""
    meta, spans, apart, found, order, cands, marks, entries, cells, regions, packed = parts(
        ints, floats
    )
    if meta[EPOCH] != epoch:
        return NEEDS_PYTHON, 0, OK, 0.0, 0.0
    for i in range(n):
        cands[i, 0] = found[i] >> 1
        if answers >= 0:
            cands[i, 1] = (answers >> (3 * i)) & 7
    x0 = box[mover, 0]
    y0 = box[mover, 1]
    small, ends, flags, p_slot, p_floats, p_key = _scratch(ints, floats)
    small[:] = 0  # the mover, its candidates' and rows' ranges
    small[0] = mover
    small[2] = n
    ends[0, 0] = gx  # its goal, where it ends
    ends[0, 1] = gy
    r = p_slot.shape[0]
    flags[4 * r] = False  # python_only
    status, _, end = moves_with(
        box, order, small[0:1], ends[0:1], small[1:3], cands[:, 0], cands[:, 1],
        flags[4 * r : 4 * r + 1], 0, ends[1:2], small[3:5], marks[:, 0], marks[:, 1],
        packed[:, 2], packed[:, 3:5], packed[:, 5:7], packed[:, 7:9], packed[:, 9:11],
        marks[:, 2], packed[:, 12:14], kind, regions, None, flags[:r], p_slot, p_floats[0],
        p_floats[1], p_floats[2], p_floats[3], p_floats[4], flags[r : 2 * r],
        flags[2 * r : 3 * r], flags[3 * r : 4 * r], p_key,
    )  # fmt: skip
    if status != DONE:
        return status, end, OK, x0, y0
    for r in range(end):
        packed[r, 0] = marks[r, 0]
        packed[r, 1] = marks[r, 1]
        packed[r, 11] = marks[r, 2]
    x = ends[1, 0]
    y = ends[1, 1]
    if not place:
        box[mover, 0] = x0
        box[mover, 1] = y0
        return status, end, OK, x, y
    origin[mover, 0] = x
    origin[mover, 1] = y
    return status, end, _relocate(box, mover, cell, cells, entries, spans, apart, meta), x, y
