"""The cell grid of ``World.step``'s compiled core.

Square cells of side ``cell`` from ``(ox, oy)``, ``cols x rows`` of them; a point
beyond the grid falls in the nearest border cell (coarser there, never wrong). A
body *covers* the cells met by its bounds widened by ``margin`` (``step_cells.MARGIN`` of a
cell, far more than rounding can move an edge), kept as the integer ranges ``CX0..CX1
x CY0..CY1`` of its row: two bodies that touch cover a common cell.

Bodies that cannot move in the step (fixed) are listed once per cell, in compressed
rows (``fstart``, ``fbody``). Moving bodies are in one linked list per cell
(``head``; nodes ``nbody``, ``nnext``; free nodes on the stack ``free``); a moving
body's cover grows one row or column of cells at a time, at *crossing* events
timed by :func:`next_crossing`, when its leading edge enters a line of cells. The
lines its trailing edges left are dropped lazily (:func:`trim`), at its next
crossing, not at events of their own. A cover only changes at a crossing, trimmed
first, so on each axis it spans at most one line more than a body's bounds can
meet (the room the cell lists are given, ``step_sizing.cover_room``; a body pushed
out of an overlap is listed again exactly, ``recover``), and two bodies that touch
still share a cell. Half the crossings were such departures (the gas scene: 9,600
crossings a step for 10,600 contacts, 4,100 now).
"""

from __future__ import annotations

import numpy as np

from collide2d._kernels.codes import IGNORE
from collide2d._kernels.jit import borrowing_kernel, inlined_helper, kernel, prefetch
from collide2d._kernels.step.step_arena import carve
from collide2d._kernels.step.step_shapes import (
    CX0,
    CX1,
    CY0,
    CY1,
    GROUP,
    MVX,
    MVY,
    bounds_at,
    position,
)

MAX_LANES = 8
"""Moving bodies are listed by group (one lane each) when there are at most this many
groups: a group that ignores another never walks its lists (20,000 bullets that ignore
each other, stopped at one wall, shared cells 55 at a time)."""

GROW_RIGHT, GROW_LEFT, GROW_DOWN, GROW_UP = range(4)


@kernel
def cell_of(v, origin, cell, count):
    """The cell number of coordinate ``v``, clamped to ``[0, count)``."""
    f = np.floor((v - origin) / cell)
    if f < 0.0:
        return 0
    if f > count - 1:
        return count - 1
    return int(f)


@inlined_helper
def cover(fb, ib, i, t, grid):
    """Set body ``i``'s cover from its bounds at time ``t``."""
    ox, oy, cell, margin, cols, rows = grid
    x, y = position(fb, i, t)
    x0, y0, x1, y1 = bounds_at(fb, ib, i, x, y)
    ib[i, CX0] = cell_of(x0 - margin, ox, cell, cols)
    ib[i, CX1] = cell_of(x1 + margin, ox, cell, cols)
    ib[i, CY0] = cell_of(y0 - margin, oy, cell, rows)
    ib[i, CY1] = cell_of(y1 + margin, oy, cell, rows)


@kernel
def fixed_lists(ib, fixed, cols, rows, pool, used):
    """Compressed rows ``(start, body)`` of the fixed bodies ``fixed`` (covers already
    set) by cell, carved from ``pool`` at ``used`` (``step_arena``); and the pool's
    new ``used``."""
    cells = cols * rows
    start, used = carve(pool, used, cells + 1)
    start[:] = 0
    for i in fixed:
        for cy in range(ib[i, CY0], ib[i, CY1] + 1):
            for cx in range(ib[i, CX0], ib[i, CX1] + 1):
                start[cy * cols + cx + 1] += 1
    for c in range(cells):
        start[c + 1] += start[c]
    body, used = carve(pool, used, start[cells])
    fill, _ = carve(pool, used, cells)  # only while filling
    fill[:] = start[:cells]
    for i in fixed:
        for cy in range(ib[i, CY0], ib[i, CY1] + 1):
            for cx in range(ib[i, CX0], ib[i, CX1] + 1):
                c = cy * cols + cx
                body[fill[c]] = i
                fill[c] += 1
    return start, body, used


@kernel
def lanes(responses, cells, pool, used):
    """The moving bodies' cell lists ``head`` (``(lanes, cells)``, empty, carved from
    ``pool`` at ``used``), which lanes each group looks in (``meets[group, lane]``),
    and the pool's new ``used``."""
    groups = responses.shape[0]
    count = groups if groups <= MAX_LANES else 1
    flat, used = carve(pool, used, count * cells)
    flat[:] = -1
    head = flat.reshape((count, cells))
    if groups > MAX_LANES:
        return head, np.ones((groups, 1), dtype=np.bool_), used
    return head, responses != IGNORE, used


@kernel
def first_lanes(meets, ib, moving):
    """Which lanes a group looks in at the first predictions (``meets[group, lane]``
    with one side only of each pair of groups): the pairs of two groups are predicted
    from the side whose members meet fewer of the other's, the larger group looking
    in the smaller one's lane (ties: the lower group). The bullets scene predicted its
    box-bullet pairs from the boxes, every box walking the lists of hundreds of
    bullets (and listing hundreds of events); now each bullet looks at the few boxes
    near it. With one lane for every group, ``meets`` itself."""
    lanes = meets.shape[1]
    first = meets.copy()
    if lanes == 1:
        return first
    count = np.zeros(lanes, dtype=np.int64)
    for i in moving:
        count[ib[i, GROUP]] += 1
    for g in range(lanes):
        for h in range(lanes):
            if g != h and meets[g, h]:
                first[g, h] = count[h] < count[g] or (count[h] == count[g] and g < h)
    return first


@inlined_helper
def lane_of(ib, head, i):
    """The lane of ``head`` (one per group, or a single one) that body ``i`` is in."""
    return ib[i, GROUP] if head.shape[0] > 1 else 0


PREV, CELL, BNEXT = range(3)
"""Columns of a node's links ``nlink``: the node before it in its cell's list (-1:
the first), its cell, and the next node of the same body (a body's nodes are chained
from ``bfirst[body]``)."""


@inlined_helper
def link(head, nbody, nnext, nlink, bfirst, free, nfree, c, i, lane):
    """Put body ``i`` in cell ``c``'s list of ``lane``; return the free stack's new
    size."""
    nfree -= 1
    k = free[nfree]
    nbody[k] = i
    first = head[lane, c]
    nnext[k] = first
    if first >= 0:
        nlink[first, PREV] = k
    nlink[k, PREV] = -1
    nlink[k, CELL] = c
    nlink[k, BNEXT] = bfirst[i]
    bfirst[i] = k
    head[lane, c] = k
    return nfree


@inlined_helper
def unlink(head, nbody, nnext, nlink, bfirst, free, nfree, c, i, lane):
    """Take body ``i`` out of cell ``c``'s list of ``lane``; return the free stack's
    new size. The node is found among the body's own (a few: the cells it covers),
    not by walking the cell's list: in the bullets' first frames, cells of hundreds
    of bullets, that walk was a third of the event loop."""
    before = -1
    k = bfirst[i]
    while k >= 0:
        if nlink[k, CELL] == c:
            if before < 0:
                bfirst[i] = nlink[k, BNEXT]
            else:
                nlink[before, BNEXT] = nlink[k, BNEXT]
            prev = nlink[k, PREV]
            after = nnext[k]
            if prev < 0:
                head[lane, c] = after
            else:
                nnext[prev] = after
            if after >= 0:
                nlink[after, PREV] = prev
            free[nfree] = k
            return nfree + 1
        before = k
        k = nlink[k, BNEXT]
    return nfree  # pragma: no cover - a body is always in the cells it covers


@inlined_helper
def list_cover(ib, head, nbody, nnext, nlink, bfirst, free, nfree, cols, i, listed):
    """Put body ``i`` in (``listed``) or take it out of the lists of every cell it
    covers; return the free stack's new size."""
    lane = lane_of(ib, head, i)
    for cy in range(ib[i, CY0], ib[i, CY1] + 1):
        for cx in range(ib[i, CX0], ib[i, CX1] + 1):
            c = cy * cols + cx
            if listed:
                nfree = link(head, nbody, nnext, nlink, bfirst, free, nfree, c, i, lane)
            else:
                nfree = unlink(head, nbody, nnext, nlink, bfirst, free, nfree, c, i, lane)
    return nfree


@borrowing_kernel
def recover(fb, ib, head, nbody, nnext, nlink, bfirst, free, nfree, cols, i, t, grid):
    """Set body ``i``'s cover again from its bounds at ``t`` after a jump (pushed out
    of an overlap), moving it between cell lists; return the free stack's new size."""
    nfree = list_cover(ib, head, nbody, nnext, nlink, bfirst, free, nfree, cols, i, False)
    cover(fb, ib, i, t, grid)
    return list_cover(ib, head, nbody, nnext, nlink, bfirst, free, nfree, cols, i, True)


@inlined_helper
def gather(ib, marks, fstart, fbody, head, nbody, nnext, meets, cols, x0, x1, y0, y1, i, stamp, out,
           n):  # fmt: skip
    """Append to ``out[n:]`` the bodies listed in cells ``x0..x1 x y0..y1`` other than
    ``i`` and not yet stamped ``stamp`` (stamping them, and ``i``); return the new
    count. Moving bodies are looked for only in the lanes ``i``'s group meets
    (``meets[group, lane]``). ``out`` has room for one more than the bodies it can
    be given (a moving body's list entry is written there before it is known to be
    new).

    A moving body's lists are walked without a branch: whether a body is new (half
    are not: a disc covers three or four cells, and so do its neighbours) depends on
    the data, and mispredicted it cost more than the walk (the gas: this loop was a
    fifth of the event loop; 0.80 to 0.87 M events a second, ``ab_step.py``). A
    fixed body is taken in the first cell of the range its cover meets (the first a
    stamp would have let through: the same order), from its own row's cover, not by
    a stamp (walls and tiles, rarely met twice)."""
    group = ib[i, GROUP]
    marks[i] = stamp
    for cy in range(y0, y1 + 1):
        for cx in range(x0, x1 + 1):
            c = cy * cols + cx
            for k in range(fstart[c], fstart[c + 1]):
                j = fbody[k]
                # Taken in the first of its cells the range meets (the order of a
                # stamp's), without a stamp: its row is read next anyway, where
                # its stamp was one more load from far away (the swarm's 50,000 tiles).
                if cx == max(x0, ib[j, CX0]) and cy == max(y0, ib[j, CY0]) and j != i:
                    out[n] = j
                    n += 1
            for lane in range(head.shape[0]):
                if not meets[group, lane]:
                    continue
                k = head[lane, c]
                while k >= 0:
                    j = nbody[k]
                    new = marks[j] != stamp
                    marks[j] = stamp
                    out[n] = j
                    n += new
                    k = nnext[k]
    return n


@inlined_helper
def covers_meet(ib, j, x0, x1, y0, y1):
    """Whether body ``j``'s cover meets the cell ranges."""
    return ib[j, CX0] <= x1 and x0 <= ib[j, CX1] and ib[j, CY0] <= y1 and y0 <= ib[j, CY1]


@inlined_helper
def next_crossing(fb, ib, i, now, grid):
    """When body ``i`` (moving as it moves) next grows its cover, its leading edge
    entering a line of cells, and on which side: ``(time after now, code)``; ``inf``
    if never (or not before it leaves the grid)."""
    ox, oy, cell, margin, cols, rows = grid
    x, y = position(fb, i, now)
    x0, y0, x1, y1 = bounds_at(fb, ib, i, x, y)
    best = np.inf
    code = -1
    for axis in range(2):
        if axis == 0:
            v = fb[i, MVX]
            lo, hi, c0, c1, o, n, base = x0, x1, ib[i, CX0], ib[i, CX1], ox, cols, GROW_RIGHT
        else:
            v = fb[i, MVY]
            lo, hi, c0, c1, o, n, base = y0, y1, ib[i, CY0], ib[i, CY1], oy, rows, GROW_DOWN
        if v > 0.0 and c1 < n - 1:  # the leading edge reaches the next line of cells
            t = (o + (c1 + 1) * cell - margin - hi) / v
            if t < best:
                best, code = t, base
        elif v < 0.0 and c0 > 0:
            t = (o + c0 * cell + margin - lo) / v
            if t < best:
                best, code = t, base + 1
    return max(best, 0.0), code


@inlined_helper
def trim(fb, ib, head, nbody, nnext, nlink, bfirst, free, nfree, i, t, grid):
    """Take body ``i`` out of the lines of cells its trailing edges left (the lines
    of its cover behind it that its bounds at ``t``, widened by the margin, no
    longer meet; on an axis it does not move along, those on either side), at a
    crossing, before the line it enters is added; return the free stack's new
    size. Lines ahead of it are never dropped: a line its leading edge has just
    entered (at the crossing that added it, exactly at the line) would be dropped
    by rounding and entered again at once, for ever."""
    ox, oy, cell, margin, cols, rows = grid
    x, y = position(fb, i, t)
    bx0, by0, bx1, by1 = bounds_at(fb, ib, i, x, y)
    x0, x1, y0, y1 = ib[i, CX0], ib[i, CX1], ib[i, CY0], ib[i, CY1]
    nx0, nx1, ny0, ny1 = x0, x1, y0, y1
    if fb[i, MVX] >= 0.0:
        nx0 = min(max(x0, cell_of(bx0 - margin, ox, cell, cols)), x1)
    if fb[i, MVX] <= 0.0:
        nx1 = max(min(x1, cell_of(bx1 + margin, ox, cell, cols)), nx0)
    if fb[i, MVY] >= 0.0:
        ny0 = min(max(y0, cell_of(by0 - margin, oy, cell, rows)), y1)
    if fb[i, MVY] <= 0.0:
        ny1 = max(min(y1, cell_of(by1 + margin, oy, cell, rows)), ny0)
    if nx0 == x0 and nx1 == x1 and ny0 == y0 and ny1 == y1:
        return nfree
    lane = lane_of(ib, head, i)
    for cy in range(y0, y1 + 1):
        for cx in range(x0, x1 + 1):
            if ny0 <= cy <= ny1 and nx0 <= cx <= nx1:
                continue
            nfree = unlink(head, nbody, nnext, nlink, bfirst, free, nfree, cy * cols + cx, i, lane)
    ib[i, CX0], ib[i, CX1], ib[i, CY0], ib[i, CY1] = nx0, nx1, ny0, ny1
    return nfree


@inlined_helper
def gather_near(ib, marks, fstart, fbody, head, nbody, nnext, meets, cols, i, stamp, out):
    """:func:`gather` over the cells body ``i`` covers now, into ``out`` from 0."""
    return gather(
        ib, marks, fstart, fbody, head, nbody, nnext, meets, cols,
        ib[i, CX0], ib[i, CX1], ib[i, CY0], ib[i, CY1], i, stamp, out, 0,
    )  # fmt: skip


@inlined_helper
def prefetch_row(fb, ib, j):
    """Ask for body ``j``'s rows (each spans two cache lines)."""
    prefetch(ib, j, 0)
    prefetch(ib, j, ib.shape[1] - 1)
    prefetch(fb, j, 0)
    prefetch(fb, j, fb.shape[1] - 1)


@inlined_helper
def prefetch_cells(ib, fstart, head, meets, cols, i):
    """Ask for the list starts of the cells body ``i`` covers (the first and last row
    of them; the lanes its group looks in, ``meets``), without waiting
    (``jit.prefetch``)."""
    group = ib[i, GROUP]
    for cy in (ib[i, CY0], ib[i, CY1]):
        c = cy * cols + ib[i, CX0]
        prefetch(fstart, c)
        for lane in range(head.shape[0]):
            if meets[group, lane]:
                prefetch(head, lane, c)


@inlined_helper
def prefetch_lists(ib, fstart, fbody, head, nbody, nnext, meets, cols, i):
    """Ask for the first entries of the lists of the cells body ``i`` covers (their
    starts fetched already: :func:`prefetch_cells`)."""
    group = ib[i, GROUP]
    for cy in range(ib[i, CY0], ib[i, CY1] + 1):
        for cx in range(ib[i, CX0], ib[i, CX1] + 1):
            c = cy * cols + cx
            prefetch(fbody, fstart[c])
            for lane in range(head.shape[0]):
                if not meets[group, lane]:
                    continue
                k = head[lane, c]
                if k >= 0:
                    prefetch(nbody, k)
                    prefetch(nnext, k)


@inlined_helper
def prefetch_bodies(fb, ib, fstart, fbody, head, nbody, meets, cols, i):
    """Ask for the rows of the bodies listed first in the cells body ``i`` covers
    (the lists fetched already: :func:`prefetch_lists`)."""
    group = ib[i, GROUP]
    for cy in range(ib[i, CY0], ib[i, CY1] + 1):
        for cx in range(ib[i, CX0], ib[i, CX1] + 1):
            c = cy * cols + cx
            for k in range(fstart[c], min(fstart[c + 1], fstart[c] + 4)):
                prefetch_row(fb, ib, fbody[k])
            for lane in range(head.shape[0]):
                if not meets[group, lane]:
                    continue
                k = head[lane, c]
                if k >= 0:
                    prefetch_row(fb, ib, nbody[k])
