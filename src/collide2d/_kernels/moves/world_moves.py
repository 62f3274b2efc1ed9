"""The World's check loop for many rectangle moves, compiled (``World.move_all``).

Each mover, in order, is projected toward its goal against its candidates, responds
to the first contact (``touch``, ``cross`` or ``slide``), projects again from there,
and so on: the arithmetic of ``collide2d.world`` step for step (the slab sweep of
``continuous/rect.py``, contacts put on the face met, the same order of contacts,
the same simultaneous contacts, the same snap), so both give identical answers.
A mover the kernel does not handle (flagged by the caller, or one that starts
overlapped and must be pushed out) stops the kernel: the caller moves it in Python
and calls again from the next.

Boxes are rows ``x, y, w, h``. Responses are ``codes``' (``IGNORE`` for none; ``touch``,
``cross`` and ``slide`` run here).
"""

from __future__ import annotations

import numpy as np

from collide2d._kernels.codes import CROSS, IGNORE, MAX_RESPONSES, SLIDE, SNAP_STEPS, TOUCH
from collide2d._kernels.intervals import axis_interval
from collide2d._kernels.jit import borrowing_kernel, helper_kernel, kernel

DONE, NEEDS_PYTHON, FULL = 0, 1, 2
CELL_LIMIT = 2.0**40  # cell numbers beyond this are not hashed (the item is tested apart)


@helper_kernel
def _below(edge, size):
    """The largest float ``p`` near ``edge - size`` with ``p + size <= edge``."""
    p = edge - size
    while p + size > edge:
        p = np.nextafter(p, -np.inf)
    return p


@helper_kernel
def _overlap(ax, ay, aw, ah, bx, by, bw, bh):
    return ax < bx + bw and bx < ax + aw and ay < by + bh and by < ay + ah


@helper_kernel
def _sweep(ax, ay, aw, ah, dx, dy, bx, by, bw, bh):
    """``sweep_rect_rect``: (hit, fraction, nx, ny, started, corner)."""
    ex, xx = axis_interval(ax, ax + aw, dx, bx, bx + bw)
    ey, xy = axis_interval(ay, ay + ah, dy, by, by + bh)
    enter = ex if ex >= ey else ey
    leave = xx if xx <= xy else xy
    if not (enter < leave and enter < 1.0 and leave > 0.0):
        return False, 0.0, 0.0, 0.0, False, False
    if enter < 0.0:  # least penetration: ties prefer x, then pushing left (or up)
        ar = ax + aw
        ab = ay + ah
        to_left = ar - bx
        to_right = (bx + bw) - ax
        to_top = ab - by
        to_bottom = (by + bh) - ay
        depth_x = to_left if to_left <= to_right else to_right
        depth_y = to_top if to_top <= to_bottom else to_bottom
        if depth_x <= depth_y:
            return True, 0.0, -1.0 if to_left <= to_right else 1.0, 0.0, True, False
        return True, 0.0, 0.0, -1.0 if to_top <= to_bottom else 1.0, True, False
    fraction = enter + 0.0
    if ex >= ey:
        return True, fraction, -1.0 if dx > 0.0 else 1.0, 0.0, False, ex == ey
    return True, fraction, 0.0, -1.0 if dy > 0.0 else 1.0, False, False


@helper_kernel
def _snap(x, y, w, h, bx, by, bw, bh, nx, ny):
    """``collide2d.world.contact.snap`` for two rectangles."""
    step_x = np.spacing(abs(x)) if x != 0.0 else 5e-324
    step_y = np.spacing(abs(y)) if y != 0.0 else 5e-324
    for _ in range(SNAP_STEPS):
        if not _overlap(x, y, w, h, bx, by, bw, bh):
            return x, y
        if nx != 0.0:
            x += step_x if nx > 0.0 else -step_x
            step_x *= 2.0
        if ny != 0.0:
            y += step_y if ny > 0.0 else -step_y
            step_y *= 2.0
    return x, y


@kernel
def move_rects(
    box, order, movers, goals, cand_start, cand_item, cand_resp, python_only, first,
    out_pos, out_start, col_other, col_resp, col_f, col_n, col_touch, col_delta, col_leg,
    col_started, col_slide,
):  # fmt: skip
    """Move ``movers[first:]`` in order; returns ``(status, next, collisions)``.

    ``box`` (N, 4) holds every item's box and is updated as movers move; ``order``
    (N,) their insertion order; ``goals`` (M, 2); mover ``m``'s candidates are
    ``cand_item[cand_start[m]:cand_start[m + 1]]`` with response codes ``cand_resp``.
    Results go to ``out_pos`` (M, 2) and, for mover ``m``, collision rows from
    ``out_start[m]`` to ``out_start[m + 1]``: the other item, response, fraction,
    normal, touch, delta, leg start (the item at the start of the projection),
    started, slide goal (NaN when not a slide). Status ``DONE`` (all
    moved), ``NEEDS_PYTHON`` (mover ``next`` is the caller's) or ``FULL`` (grow the
    collision arrays and call again from ``next``).
    """
    cap = col_other.shape[0]
    row = out_start[first]
    # the projection in progress (candidate slot, fraction, normal, touch, started,
    # corner, order key) and the candidates met: scratch for the longest list, made
    # once (made for each mover they cost as much as a short move)
    most = 0
    for m in range(first, movers.shape[0]):
        most = max(most, cand_start[m + 1] - cand_start[m])
    visited = np.empty(most, dtype=np.bool_)
    p_slot = np.empty(most, dtype=np.int64)
    p_f = np.empty(most)
    p_nx = np.empty(most)
    p_ny = np.empty(most)
    p_tx = np.empty(most)
    p_ty = np.empty(most)
    p_started = np.empty(most, dtype=np.bool_)
    p_corner = np.empty(most, dtype=np.bool_)
    p_key = np.empty((most, 4))
    for m in range(first, movers.shape[0]):
        out_start[m] = row
        if python_only[m]:
            return NEEDS_PYTHON, m, row
        a = movers[m]
        c0 = cand_start[m]
        n = cand_start[m + 1] - c0
        if row + 2 * MAX_RESPONSES * (n + 1) > cap:
            return FULL, m, row
        x0 = box[a, 0]
        y0 = box[a, 1]
        w = box[a, 2]
        h = box[a, 3]
        gx = goals[m, 0]
        gy = goals[m, 1]
        visited[:n] = False
        lx = x0  # the leg: where the projection starts
        ly = y0
        first_row = row
        responses = 0
        count, bail = _project(
            box, order, a, lx, ly, w, h, gx, gy, cand_item, cand_resp, c0, n, visited,
            p_slot, p_f, p_nx, p_ny, p_tx, p_ty, p_started, p_corner, p_key,
        )  # fmt: skip
        if bail:
            return NEEDS_PYTHON, m, row
        while count > 0:
            if responses == MAX_RESPONSES:
                gx = lx
                gy = ly
                break
            s = p_slot[0]
            code = cand_resp[c0 + s]
            if code != SLIDE:
                visited[s] = True
            if code == TOUCH:
                new_gx = p_tx[0]
                new_gy = p_ty[0]
            elif code == CROSS:
                new_gx = gx
                new_gy = gy
            else:  # SLIDE: remove the part of the remaining motion into the surface
                rx = gx - p_tx[0]
                ry = gy - p_ty[0]
                into = rx * p_nx[0] + ry * p_ny[0]
                new_gx = gx
                new_gy = gy
                if into < 0.0:
                    if p_ny[0] == 0.0:
                        new_gx = p_tx[0]
                    else:
                        new_gy = p_ty[0]
            # the resolved contact, then the others of this projection it stops as well
            for k in range(count):
                if k > 0:
                    if p_f[k] != p_f[0] or p_started[k] != p_started[0]:
                        break
                    if code == CROSS or p_nx[k] != p_nx[0] or p_ny[k] != p_ny[0]:
                        continue
                    if cand_resp[c0 + p_slot[k]] != code or p_corner[k]:
                        continue
                o = cand_item[c0 + p_slot[k]]
                col_other[row] = o
                col_resp[row] = cand_resp[c0 + p_slot[k]]
                col_f[row] = p_f[k]
                col_n[row, 0] = p_nx[k]
                col_n[row, 1] = p_ny[k]
                col_touch[row, 0] = p_tx[k]
                col_touch[row, 1] = p_ty[k]
                col_delta[row, 0] = gx - lx
                col_delta[row, 1] = gy - ly
                col_leg[row, 0] = lx
                col_leg[row, 1] = ly
                col_started[row] = p_started[k]
                col_slide[row, 0] = new_gx if code == SLIDE else np.nan
                col_slide[row, 1] = new_gy if code == SLIDE else np.nan
                row += 1
                if k == 0 and code == CROSS:
                    break
            responses += 1
            if code == TOUCH:
                gx = new_gx
                gy = new_gy
                count = 0
                break
            if code == SLIDE:
                lx = p_tx[0]
                ly = p_ty[0]
            gx = new_gx
            gy = new_gy
            count, bail = _project(
                box, order, a, lx, ly, w, h, gx, gy, cand_item, cand_resp, c0, n, visited,
                p_slot, p_f, p_nx, p_ny, p_tx, p_ty, p_started, p_corner, p_key,
            )  # fmt: skip
            if bail:
                return NEEDS_PYTHON, m, first_row
        # clear of everything the move stopped at (touch and slide contacts)
        for r in range(first_row, row):
            if col_resp[r] != CROSS:
                o = col_other[r]
                gx, gy = _snap(gx, gy, w, h, box[o, 0], box[o, 1], box[o, 2], box[o, 3],
                               col_n[r, 0], col_n[r, 1])  # fmt: skip
        out_pos[m, 0] = gx
        out_pos[m, 1] = gy
        box[a, 0] = gx
        box[a, 1] = gy
    out_start[movers.shape[0]] = row
    return DONE, movers.shape[0], row


@borrowing_kernel
def _project(
    box, order, a, x0, y0, w, h, gx, gy, cand_item, cand_resp, c0, n, visited,
    p_slot, p_f, p_nx, p_ny, p_tx, p_ty, p_started, p_corner, p_key,
):  # fmt: skip
    """``World._project`` of the leg ``(x0, y0) -> (gx, gy)``: fills the projection
    arrays, sorted; returns ``(count, bail)``, ``bail`` when a start overlapped needs
    the minimum translation (the caller's Python does it)."""
    dx = gx - x0
    dy = gy - y0
    left = min(x0, gx)
    top = min(y0, gy)
    right = max(x0 + w, gx + w)
    bottom = max(y0 + h, gy + h)
    count = 0
    for s in range(n):
        other = cand_item[c0 + s]
        code = cand_resp[c0 + s]
        if other == a or visited[s] or code == IGNORE:
            continue
        bx = box[other, 0]
        by = box[other, 1]
        bw = box[other, 2]
        bh = box[other, 3]
        if not (bx < right and left < bx + bw and by < bottom and top < by + bh):
            continue
        hit, f, nx, ny, started, corner = _sweep(x0, y0, w, h, dx, dy, bx, by, bw, bh)
        if not hit:
            continue
        if started:
            if code != CROSS:
                return 0, True
            tx = x0
            ty = y0
        else:
            tx = x0 + dx * f
            ty = y0 + dy * f
            if nx < 0.0:
                tx = _below(bx, w)
            elif nx > 0.0:
                tx = bx + bw
            elif ny < 0.0:
                ty = _below(by, h)
            else:
                ty = by + bh
        # the order of contacts: started first (deepest first), fraction, face before
        # corner, nearer centre, earlier added (World._order_key)
        ax_c = x0 + w * 0.5 - (bx + bw * 0.5)
        ay_c = y0 + h * 0.5 - (by + bh * 0.5)
        if started:
            iw = min(x0 + w, bx + bw) - max(x0, bx)
            ih = min(y0 + h, by + bh) - max(y0, by)
            p_key[count, 0] = -max(iw, 0.0) * max(ih, 0.0)
            p_key[count, 1] = 0.0
        else:
            p_key[count, 0] = f
            p_key[count, 1] = 1.0 if corner else 0.0
        p_key[count, 2] = ax_c * ax_c + ay_c * ay_c
        p_key[count, 3] = order[other]
        p_slot[count] = s
        p_f[count] = f
        p_nx[count] = nx
        p_ny[count] = ny
        p_tx[count] = tx
        p_ty[count] = ty
        p_started[count] = started
        p_corner[count] = corner
        count += 1
    # insertion sort by (not started, key...): a projection holds a few contacts
    for i in range(1, count):
        j = i
        while j > 0 and _before(p_started, p_key, j, j - 1):
            _swap(p_slot, p_f, p_nx, p_ny, p_tx, p_ty, p_started, p_corner, p_key, j, j - 1)
            j -= 1
    return count, False


@borrowing_kernel
def _before(p_started, p_key, i, j):
    if p_started[i] != p_started[j]:
        return p_started[i]
    for k in range(4):
        if p_key[i, k] != p_key[j, k]:
            return p_key[i, k] < p_key[j, k]
    return False


@borrowing_kernel
def _swap(p_slot, p_f, p_nx, p_ny, p_tx, p_ty, p_started, p_corner, p_key, i, j):
    p_slot[i], p_slot[j] = p_slot[j], p_slot[i]
    p_f[i], p_f[j] = p_f[j], p_f[i]
    p_nx[i], p_nx[j] = p_nx[j], p_nx[i]
    p_ny[i], p_ny[j] = p_ny[j], p_ny[i]
    p_tx[i], p_tx[j] = p_tx[j], p_tx[i]
    p_ty[i], p_ty[j] = p_ty[j], p_ty[i]
    p_started[i], p_started[j] = p_started[j], p_started[i]
    p_corner[i], p_corner[j] = p_corner[j], p_corner[i]
    for k in range(4):
        p_key[i, k], p_key[j, k] = p_key[j, k], p_key[i, k]


@kernel
def region_pairs(regions, movers, cell, out):
    """Rows ``(m, i)``: item ``i``'s region overlaps mover ``movers[m]``'s strictly (the
    pairs a ``move_all`` may bring together), ``i != movers[m]``, in no set order (the
    caller sorts them). A hashed grid of ``cell``-sized squares over the movers'
    regions alone (a frame moves a few of many items): each mover is filed in the
    cells its region touches, then every item looks up its own cells. A region over
    more than 64 cells, or beyond whole cell numbers, is kept apart: an item so is
    tested against every mover, a mover so against every item. Returns the number
    of rows (counted beyond ``len(out)``)."""
    n = regions.shape[0]
    k = movers.shape[0]
    scale = 1.0 / cell  # any rising map of coordinates to cells will do: the same for all
    spans = np.empty((k, 4), dtype=np.int64)
    apart = np.zeros(k, dtype=np.bool_)
    entries = 0
    for m in range(k):
        cells = _span(regions, movers[m], scale, spans[m])
        if cells < 0:
            apart[m] = True
        else:
            entries += cells
    # A hash table of the movers' cells (open addressing, at least twice as many slots
    # as entries), each slot heading a chain of the movers filed in its cell.
    bits = 4
    while (1 << bits) < 2 * entries:
        bits += 1
    slot_key = np.empty(1 << bits, dtype=np.int64)
    slot_head = np.full(1 << bits, -1, dtype=np.int64)
    next_entry = np.empty(entries, dtype=np.int64)
    owner = np.empty(entries, dtype=np.int64)
    e = 0
    for m in range(k):
        if apart[m]:
            continue
        for cx in range(spans[m, 0], spans[m, 2] + 1):
            for cy in range(spans[m, 1], spans[m, 3] + 1):
                h = _slot(slot_key, slot_head, _cell_key(cx, cy), bits)
                owner[e] = m
                next_entry[e] = slot_head[h]
                slot_head[h] = e
                e += 1
    seen = np.full(k, -1, dtype=np.int64)
    span = np.empty(4, dtype=np.int64)
    items_apart = np.zeros(n, dtype=np.bool_)
    rows = 0
    cap = out.shape[0]
    for i in range(n):
        if _span(regions, i, scale, span) < 0:  # tested against every mover
            items_apart[i] = True
            for m in range(k):
                rows = _pair(regions, movers, m, i, rows, out, cap)
            continue
        for cx in range(span[0], span[2] + 1):
            for cy in range(span[1], span[3] + 1):
                p = slot_head[_probe(slot_key, slot_head, _cell_key(cx, cy), bits)]
                while p >= 0:
                    m = owner[p]
                    p = next_entry[p]
                    if seen[m] != i:
                        seen[m] = i
                        rows = _pair(regions, movers, m, i, rows, out, cap)
    for m in range(k):  # movers kept apart: against every item not apart itself
        if apart[m]:
            for i in range(n):
                if not items_apart[i]:
                    rows = _pair(regions, movers, m, i, rows, out, cap)
    return rows


@borrowing_kernel
def _span(regions, i, scale, span):
    """Write region ``i``'s cell range ``x0, y0, x1, y1`` into ``span``; return its
    number of cells, or -1 when it is kept apart (over 64 cells, or beyond whole cell
    numbers, NaN included)."""
    fx0 = np.floor(regions[i, 0] * scale)
    fy0 = np.floor(regions[i, 1] * scale)
    fx1 = np.floor((regions[i, 0] + regions[i, 2]) * scale)
    fy1 = np.floor((regions[i, 1] + regions[i, 3]) * scale)
    if not (max(-fx0, fx1, -fy0, fy1) < CELL_LIMIT):  # False for NaN too
        return -1
    span[0] = np.int64(fx0)
    span[1] = np.int64(fy0)
    span[2] = np.int64(fx1)
    span[3] = np.int64(fy1)
    cells = (span[2] - span[0] + 1) * (span[3] - span[1] + 1)
    return cells if cells <= 64 else -1


@borrowing_kernel
def _pair(regions, movers, m, i, rows, out, cap):
    """Add row ``(m, i)`` if item ``i`` is not mover ``m`` and their regions overlap
    strictly; returns the new row count."""
    a = movers[m]
    if i == a:
        return rows
    ax = regions[a, 0]
    ay = regions[a, 1]
    bx = regions[i, 0]
    by = regions[i, 1]
    across = bx < ax + regions[a, 2] and ax < bx + regions[i, 2]
    if across and by < ay + regions[a, 3] and ay < by + regions[i, 3]:
        if rows < cap:
            out[rows, 0] = m
            out[rows, 1] = i
        return rows + 1
    return rows


@helper_kernel
def _hash(key, bits):
    """Fibonacci hashing of a cell key to ``bits`` bits."""
    return np.int64((np.uint64(key) * np.uint64(0x9E3779B97F4A7C15)) >> np.uint64(64 - bits))


@borrowing_kernel
def _probe(slot_key, slot_head, key, bits):
    """The slot of ``key`` in the open-addressing table, or the empty slot where it
    would go (its head is -1), by Fibonacci hashing and linear probing."""
    mask = (1 << bits) - 1
    h = _hash(key, bits)
    while slot_head[h] >= 0 and slot_key[h] != key:
        h = (h + 1) & mask
    return h


@borrowing_kernel
def _slot(slot_key, slot_head, key, bits):
    """The slot of ``key``, claimed for it if new (its head stays -1 until an entry
    is filed)."""
    h = _probe(slot_key, slot_head, key, bits)
    slot_key[h] = key
    return h


@helper_kernel
def _cell_key(cx, cy):
    """One int64 for a cell (coordinates wrap at 2**31: a collision of keys only adds
    candidates, which the exact test drops)."""
    return (cx & 0xFFFFFFFF) << 32 | (cy & 0xFFFFFFFF)
