"""The World's check loop for many rectangle moves, compiled (``World.move_all``).

Each mover, in order, is projected toward its goal against its candidates, responds
to the first contact (``touch``, ``cross`` or ``slide``), projects again from there,
and so on: the arithmetic of ``collide2d.world`` step for step (the slab sweep of
``continuous/rect.py``, contacts put on the face met, the same order of contacts,
the same simultaneous contacts, the same snap), so both give identical answers.
Candidates may be polygons (:mod:`.outlines`: the exact sweep, the slide off a
sloped face, the wedge, the end cleared of rounding). A mover the kernel does not
handle (flagged by the caller, one that starts overlapped and must be pushed out,
one whose contact only the World's Python decides) stops the kernel: the caller
moves it in Python and calls again from the next.

Boxes are rows ``x, y, w, h``. Responses are ``codes``' (``IGNORE`` for none; ``touch``,
``cross`` and ``slide`` run here).
"""

from __future__ import annotations

import numpy as np

from collide2d._kernels.codes import CROSS, IGNORE, MAX_RESPONSES, POLYGON, SLIDE, SNAP_STEPS, TOUCH
from collide2d._kernels.intervals import axis_interval
from collide2d._kernels.jit import borrowing_kernel, helper_kernel, kernel
from collide2d._kernels.moves.outlines import (
    HIT,
    NONE,
    clear_rounded_end,
    meet_polygon,
    nudge,
    off_the_face,
    snap_rect,
    ulp,
)  # fmt: skip

DONE, NEEDS_PYTHON, FULL = 0, 1, 2


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
    step_x = ulp(x)
    step_y = ulp(y)
    for _ in range(SNAP_STEPS):
        if not _overlap(x, y, w, h, bx, by, bw, bh):
            return x, y
        x, y, step_x, step_y = nudge(x, y, step_x, step_y, nx, ny)
    return x, y


@kernel
def move_rects(
    box, order, movers, goals, cand_start, cand_item, cand_resp, python_only, first,
    out_pos, out_start, col_other, col_resp, col_f, col_n, col_touch, col_delta, col_leg,
    col_started, col_slide, kind, regions, shapes,
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

    A mover's legs must stay in its row of ``regions`` (the box its candidates were
    found in): one that leaves it is the caller's. ``shapes`` is None when the World
    holds no polygon: numba then compiles none of the polygon code (a first call of
    a few seconds instead of forty; it prunes a branch on a plain ``shapes is not
    None``, which the kernels here keep apart from any other test). Otherwise it is
    ``(outlines, outline_n, outline_tame, *work)``: the items of ``kind``
    ``POLYGON`` are the outlines ``outlines[i, :outline_n[i]]`` (``outline_tame[i]``:
    in the exact sweep's range; their ``box`` rows are their bounds) and ``work``
    the scratch of :func:`.outlines.work`. A mover that meets a polygon where the
    World's Python decides (see :mod:`.outlines`) is the caller's, and each move
    ends by clearing a rounding overlap with the polygons
    (``collide2d.world.slope_rules.clear_rounded_end``).
    """
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
    p_open = np.empty(most, dtype=np.bool_)
    p_key = np.empty((most, 4))
    return moves_with(
        box, order, movers, goals, cand_start, cand_item, cand_resp, python_only, first,
        out_pos, out_start, col_other, col_resp, col_f, col_n, col_touch, col_delta, col_leg,
        col_started, col_slide, kind, regions, shapes, visited, p_slot, p_f, p_nx, p_ny, p_tx,
        p_ty, p_started, p_corner, p_open, p_key,
    )  # fmt: skip


@kernel
def moves_with(
    box, order, movers, goals, cand_start, cand_item, cand_resp, python_only, first,
    out_pos, out_start, col_other, col_resp, col_f, col_n, col_touch, col_delta, col_leg,
    col_started, col_slide, kind, regions, shapes, visited, p_slot, p_f, p_nx, p_ny, p_tx,
    p_ty, p_started, p_corner, p_open, p_key,
):  # fmt: skip
    """:func:`move_rects` with its scratch given: ``visited`` and the projection's
    arrays (``p_*``), each with room for the longest candidate list (``p_key`` of 4
    columns), for a caller that keeps them between calls (``cell_lists.move``)."""
    cap = col_other.shape[0]
    row = out_start[first]
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
            p_slot, p_f, p_nx, p_ny, p_tx, p_ty, p_started, p_corner, p_open, p_key, kind, regions,
                shapes,
        )  # fmt: skip
        if bail or (count > 0 and p_open[0]):
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
            wedge = False
            if code == TOUCH:
                new_gx = p_tx[0]
                new_gy = p_ty[0]
            elif code == CROSS:
                new_gx = gx
                new_gy = gy
            else:  # SLIDE: remove the part of the remaining motion into the surface
                sure, new_gx, new_gy, wedge = _slid(
                    gx, gy, w, h, p_tx[0], p_ty[0], p_nx[0], p_ny[0], p_f[0], p_started[0],
                    cand_item[c0 + s], row > first_row, col_resp, col_n, row, shapes,
                )  # fmt: skip
                if not sure:
                    return NEEDS_PYTHON, m, first_row
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
            if code == TOUCH or wedge:
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
                p_slot, p_f, p_nx, p_ny, p_tx, p_ty, p_started, p_corner, p_open, p_key, kind,
                regions, shapes,
            )  # fmt: skip
            if bail or (count > 0 and p_open[0]):
                return NEEDS_PYTHON, m, first_row
        # clear of everything the move stopped at (touch and slide contacts)
        for r in range(first_row, row):
            if col_resp[r] != CROSS:
                o = col_other[r]
                snapped = False
                if shapes is not None:  # noqa: SIM102 - numba prunes this test alone
                    if kind[o] == POLYGON:
                        gx, gy = snap_rect(gx, gy, w, h, shapes[0][o], shapes[1][o], col_n[r, 0],
                                           col_n[r, 1], SNAP_STEPS, shapes[7])  # fmt: skip
                        snapped = True
                if not snapped:
                    gx, gy = _snap(gx, gy, w, h, box[o, 0], box[o, 1], box[o, 2], box[o, 3],
                                   col_n[r, 0], col_n[r, 1])  # fmt: skip
        if shapes is not None:
            sure, gx, gy = clear_rounded_end(
                a, x0, y0, w, h, gx, gy, cand_item, cand_resp, c0, n, visited, first_row, row,
                col_n, kind, regions, shapes,
            )  # fmt: skip
            if not sure:
                return NEEDS_PYTHON, m, first_row
        out_pos[m, 0] = gx
        out_pos[m, 1] = gy
        box[a, 0] = gx
        box[a, 1] = gy
    out_start[movers.shape[0]] = row
    return DONE, movers.shape[0], row


@borrowing_kernel
def _project(
    box, order, a, x0, y0, w, h, gx, gy, cand_item, cand_resp, c0, n, visited,
    p_slot, p_f, p_nx, p_ny, p_tx, p_ty, p_started, p_corner, p_open, p_key, kind, regions,
                shapes,
):  # fmt: skip
    """``World._project`` of the leg ``(x0, y0) -> (gx, gy)``: fills the projection
    arrays, sorted; returns ``(count, bail)``, ``bail`` when the caller's Python must
    move the item: a start overlapped needs the minimum translation, the leg leaves
    the mover's region, or a polygon's sweep is unsure. A polygon met vertex to
    vertex is ``p_open``: the World's normal for it is not found here (the caller's
    Python moves the item if it comes first)."""
    dx = gx - x0
    dy = gy - y0
    left = min(x0, gx)
    top = min(y0, gy)
    right = max(x0 + w, gx + w)
    bottom = max(y0 + h, gy + h)
    rx = regions[a, 0]
    ry = regions[a, 1]
    if not (rx <= left and right <= rx + regions[a, 2] and ry <= top
            and bottom <= ry + regions[a, 3]):  # fmt: skip
        return 0, True  # the leg leaves the region its candidates were found in
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
        is_open = False
        polygon = False
        if shapes is not None:  # noqa: SIM102 - numba prunes this test alone
            if kind[other] == POLYGON:
                polygon = True
                code_s, f, nx, ny, corner, tx, ty = meet_polygon(
                    x0, y0, w, h, dx, dy, other, shapes
                )
                is_open = corner  # its normal and snap are the World's Python's
                if code_s == NONE:
                    continue
                if code_s != HIT:  # started (pushed out, or crossed), or unsure
                    return 0, True
                started = False
        if not polygon:
            hit, f, nx, ny, started, corner = _sweep(x0, y0, w, h, dx, dy, bx, by, bw, bh)
            if not hit:
                continue
            if started:
                if code != CROSS:
                    return 0, True
                tx = x0
                ty = y0
            else:  # the edge put on the face met
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
        p_open[count] = is_open
        count += 1
    # insertion sort by (not started, key...): a projection holds a few contacts
    for i in range(1, count):
        j = i
        while j > 0 and _before(p_started, p_key, j, j - 1):
            _swap(p_slot, p_f, p_nx, p_ny, p_tx, p_ty, p_started, p_corner, p_open, p_key, j,
                  j - 1)  # fmt: skip
            j -= 1
    return count, False


@borrowing_kernel
def _slid(gx, gy, w, h, tx, ty, nx, ny, f, started, other, after, col_resp, col_n, row, shapes):
    """The ``slide`` response (``collide2d.world.responses.slide``) at the contact
    ``tx, ty`` of normal ``nx, ny`` with ``other``: ``(sure, gx, gy, wedged)``, the
    goal with the part of the remaining motion into the surface removed, moved off a
    sloped face (:func:`.outlines.off_the_face`), or the contact itself in a wedge
    (``collide2d.world.slope_rules.wedged``: ``after`` a collision, the last row's).
    Not ``sure`` where the World's Python must decide."""
    into = (gx - tx) * nx + (gy - ty) * ny
    new_gx = gx
    new_gy = gy
    if into < 0.0:
        if ny == 0.0:
            new_gx = tx
        elif nx == 0.0:
            new_gy = ty
        else:
            new_gx = gx - nx * into
            new_gy = gy - ny * into
    if shapes is not None:  # noqa: SIM102 - numba prunes this test alone
        if nx != 0.0 and ny != 0.0 and (new_gx != tx or new_gy != ty):
            outlines, outline_n, outline_tame, a4, d, table, ints, scratch, cache = shapes
            sure, new_gx, new_gy = off_the_face(
                tx, ty, w, h, new_gx, new_gy, outlines[other], outline_n[other],
                outline_tame[other], nx, ny, a4, d, table, ints, scratch, cache,
            )  # fmt: skip
            if not sure:
                return False, gx, gy, False
    if after and f == 0.0 and not started and col_resp[row - 1] == SLIDE:
        lx = col_n[row - 1, 0]
        ly = col_n[row - 1, 1]
        if (lx != nx or ly != ny) and (new_gx - tx) * lx + (new_gy - ty) * ly < 0.0:
            return True, tx, ty, True  # in a wedge: nowhere left to go
    return True, new_gx, new_gy, False


@borrowing_kernel
def _before(p_started, p_key, i, j):
    if p_started[i] != p_started[j]:
        return p_started[i]
    for k in range(4):
        if p_key[i, k] != p_key[j, k]:
            return p_key[i, k] < p_key[j, k]
    return False


@borrowing_kernel
def _swap(p_slot, p_f, p_nx, p_ny, p_tx, p_ty, p_started, p_corner, p_open, p_key, i, j):
    p_slot[i], p_slot[j] = p_slot[j], p_slot[i]
    p_f[i], p_f[j] = p_f[j], p_f[i]
    p_nx[i], p_nx[j] = p_nx[j], p_nx[i]
    p_ny[i], p_ny[j] = p_ny[j], p_ny[i]
    p_tx[i], p_tx[j] = p_tx[j], p_tx[i]
    p_ty[i], p_ty[j] = p_ty[j], p_ty[i]
    p_started[i], p_started[j] = p_started[j], p_started[i]
    p_corner[i], p_corner[j] = p_corner[j], p_corner[i]
    p_open[i], p_open[j] = p_open[j], p_open[i]
    for k in range(4):
        p_key[i, k], p_key[j, k] = p_key[j, k], p_key[i, k]
