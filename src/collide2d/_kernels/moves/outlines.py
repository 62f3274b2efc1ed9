"""A rectangle mover against a convex polygon in the World's compiled moves: the
exact sweep, overlap and snap of ``collide2d.world`` for one pair, compiled.

The sweep is the batch sweep's (:func:`collide2d._kernels.pairs.polygon_sweeps._sweep_pair`,
equal bit for bit to :func:`collide2d.continuous.polygon.sweep_outlines`) on the
rectangle's outline ``(x, y), (x + w, y), (x + w, y + h), (x, y + h)``, the outline
``collide2d.geometry.convex.outline`` gives it. A pair it cannot decide exactly
(coordinates or motions outside ``SWEEP_EXACT_RANGE``, a rectangle whose ``x + w``
rounds back to ``x``, a vertex meeting a vertex of the obstacle's own two edges)
is ``UNSURE``: the caller gives the mover to the World's Python. The overlap is the
exact separating-axis test (strict: touching is not overlapping), as
``collide2d.overlaps`` decides it.

The compiled moves (:mod:`.world_moves`) meet a polygon through :func:`meet_polygon`
(the contact, snapped clear), slide off a sloped face through :func:`off_the_face`
and end through :func:`clear_rounded_end`, each the World's Python rule of that
name step for step.

Scratch arrays are made once by the caller (:func:`work`) and passed down: these
kernels allocate nothing (they are called from the compiled moves' inner loop,
without reference counts).
"""

from __future__ import annotations

import numpy as np

from collide2d._kernels.codes import POLYGON, ROUNDING_STEPS, SLIDE, SNAP_STEPS, TOUCH
from collide2d._kernels.expansions import CCW_BOUND, grow_cross, sign_of
from collide2d._kernels.jit import borrowing_kernel
from collide2d._kernels.pairs.polygon_axes import COLUMNS
from collide2d._kernels.pairs.polygon_sweeps import HIT, NONE, STARTED, UNSURE, _sweep_pair
from collide2d._kernels.pairs.polygons import box_corners

__all__ = ["HIT", "NONE", "STARTED", "UNSURE"]

_LOW = 2.0**-120
_HIGH = 2.0**150
"""``collide2d.tolerances.SWEEP_EXACT_RANGE``, where the compiled sweep is exact (a
test holds them equal)."""


def work(width: int) -> tuple[np.ndarray, ...]:
    """Scratch for outlines of up to ``width`` vertices: the rectangle's outline, the
    motion, the axis tables and the expansions (see :func:`sweep_rect`), made in
    Python by the caller."""
    most = width + 4
    return (
        np.empty((4, 2)), np.empty(4), np.empty((most, 8)),
        np.empty((most, COLUMNS), dtype=np.intp), np.empty((11, 2048)),
        np.empty((3, most, 64)),
    )  # fmt: skip


@borrowing_kernel
def _tame(c):
    size = abs(c)
    return size == 0.0 or (_LOW <= size <= _HIGH)


@borrowing_kernel
def sweep_rect(x, y, w, h, dx, dy, verts, n, tame, a4, d, table, ints, scratch, cache):
    """The rectangle ``x, y, w, h`` moving by ``dx, dy`` against the still outline
    ``verts[:n]`` (``tame``: its coordinates are in the exact range): ``(code,
    fraction, nx, ny, corner)`` as ``_sweep_pair`` gives them (the normal from the
    outline toward the rectangle)."""
    right = x + w
    bottom = y + h
    if not (right > x and bottom > y and tame):
        return UNSURE, 0.0, 0.0, 0.0, False
    if not (_tame(x) and _tame(y) and _tame(right) and _tame(bottom)):
        return UNSURE, 0.0, 0.0, 0.0, False
    if not (_tame(dx) and _tame(dy)):
        return UNSURE, 0.0, 0.0, 0.0, False
    box_corners(a4, x, y, right, bottom)
    d[0] = dx
    d[1] = dy
    d[2] = 0.0
    d[3] = 0.0
    return _sweep_pair(a4, 4, verts, n, d, table, ints, scratch, cache, False)


@borrowing_kernel
def _inside(px, py, qx, qy, vx, vy, h):
    """Whether ``v`` is strictly left of the line from ``p`` to ``q`` (inside the
    outline), exactly."""
    left = (qx - px) * (vy - py)
    right = (qy - py) * (vx - px)
    det = left - right
    bound = CCW_BOUND * (abs(left) + abs(right))
    if det > bound:
        return True
    if -det > bound:
        return False
    return sign_of(h, grow_cross(h, 0, qx, px, qy, py, vx, px, vy, py, 1.0)) > 0


@borrowing_kernel
def overlaps_rect(x, y, w, h, verts, n, scratch):
    """Whether the rectangle and the outline overlap strictly (``x + w > x`` and
    ``y + h > y``; the outline tame), exactly."""
    right = x + w
    bottom = y + h
    left_of = True
    right_of = True
    above = True
    below = True
    for k in range(n):
        vx = verts[k, 0]
        vy = verts[k, 1]
        left_of = left_of and vx <= x
        right_of = right_of and vx >= right
        above = above and vy <= y
        below = below and vy >= bottom
    if left_of or right_of or above or below:
        return False
    hx = scratch[0]
    for k in range(n):
        k2 = k + 1 if k + 1 < n else 0
        px, py, qx, qy = verts[k, 0], verts[k, 1], verts[k2, 0], verts[k2, 1]
        if not (
            _inside(px, py, qx, qy, x, y, hx) or _inside(px, py, qx, qy, right, y, hx)
            or _inside(px, py, qx, qy, right, bottom, hx)
            or _inside(px, py, qx, qy, x, bottom, hx)
        ):  # fmt: skip
            return False  # this edge has every corner on its line or outside
    return True


@borrowing_kernel
def snap_rect(x, y, w, h, verts, n, nx, ny, steps, scratch):
    """``collide2d.world.contact.snap`` of the rectangle's position ``x, y`` off the
    outline along ``nx, ny``: a unit in the last place, then twice as far each time,
    until they no longer overlap (``steps`` tries)."""
    step_x = ulp(x)
    step_y = ulp(y)
    for _ in range(steps):
        if not overlaps_rect(x, y, w, h, verts, n, scratch):
            return x, y
        x, y, step_x, step_y = nudge(x, y, step_x, step_y, nx, ny)
    return x, y


@borrowing_kernel
def ulp(x):
    """One unit in the last place of ``x`` (``math.ulp``)."""
    return np.spacing(abs(x)) if x != 0.0 else 5e-324


@borrowing_kernel
def nudge(x, y, step_x, step_y, nx, ny):
    """One step of a snap: ``x, y`` moved by the steps along the signs of ``nx, ny``
    (an axis with no normal stays), the steps of those axes doubled."""
    if nx != 0.0:
        x += step_x if nx > 0.0 else -step_x
        step_x *= 2.0
    if ny != 0.0:
        y += step_y if ny > 0.0 else -step_y
        step_y *= 2.0
    return x, y, step_x, step_y


@borrowing_kernel
def off_the_face(x0, y0, w, h, gx, gy, verts, n, tame, nx, ny, a4, d, table, ints, scratch, cache):
    """``collide2d.world.responses.off_the_face``: the slid goal ``gx, gy`` moved along
    the face's normal ``nx, ny`` (both non-zero) until the leg from ``x0, y0`` toward
    it no longer meets the outline through that face. Returns ``(sure, gx, gy)``;
    not ``sure`` where the World's Python must decide (an unsure sweep, a vertex
    meeting a vertex through another face)."""
    step_x = ulp(gx)
    step_y = ulp(gy)
    for _ in range(SNAP_STEPS):
        code, _, mx, my, corner = sweep_rect(
            x0, y0, w, h, gx - x0, gy - y0, verts, n, tame, a4, d, table, ints, scratch, cache
        )
        if code in (NONE, STARTED):
            break
        if code == UNSURE:
            return False, gx, gy
        if mx != nx or my != ny:
            if corner:
                return False, gx, gy
            break
        gx, gy, step_x, step_y = nudge(gx, gy, step_x, step_y, nx, ny)
    return True, gx, gy


@borrowing_kernel
def meet_polygon(x0, y0, w, h, dx, dy, other, shapes):
    """The rectangle's leg against polygon ``other``: ``(code, fraction, nx, ny,
    corner, tx, ty)``, the contact snapped clear along the normal, unless ``corner``:
    the polygon is met vertex to vertex, and the World's normal for it, and so its
    snap, are not found here."""
    outlines, outline_n, outline_tame, a4, d, table, ints, scratch, cache = shapes
    verts = outlines[other]
    count = outline_n[other]
    code, f, nx, ny, corner = sweep_rect(
        x0, y0, w, h, dx, dy, verts, count, outline_tame[other], a4, d, table, ints, scratch,
        cache,
    )  # fmt: skip
    tx = x0 + dx * f
    ty = y0 + dy * f
    if code == HIT and not corner:
        tx, ty = snap_rect(tx, ty, w, h, verts, count, nx, ny, SNAP_STEPS, scratch)
    return code, f, nx, ny, corner, tx, ty


@borrowing_kernel
def clear_rounded_end(
    a, x0, y0, w, h, gx, gy, cand_item, cand_resp, c0, n, visited, first_row, row, col_n,
    kind, regions, shapes,
):  # fmt: skip
    """``collide2d.world.slope_rules.clear_rounded_end``: the end ``gx, gy`` snapped
    clear of a polygon the mover would stop at and overlaps by rounding alone, the
    candidates in the order they were added. Returns ``(sure, gx, gy)``: not sure
    when the end leaves the mover's region (a polygon beyond its candidates could
    overlap it) or its outline leaves the exact range."""
    outlines, outline_n, outline_tame, scratch = shapes[0], shapes[1], shapes[2], shapes[7]
    if row > first_row:
        nx = col_n[row - 1, 0]
        ny = col_n[row - 1, 1]
    else:
        nx = 1.0 if x0 > gx else (-1.0 if x0 < gx else 0.0)
        ny = 1.0 if y0 > gy else (-1.0 if y0 < gy else 0.0)
    if nx == 0.0 and ny == 0.0:
        return True, gx, gy
    if not _within(regions, a, gx, gy, gx + w, gy + h):
        return False, gx, gy
    for s in range(n):
        o = cand_item[c0 + s]
        if o == a or kind[o] != POLYGON:
            continue
        if not outline_tame[o]:
            return False, gx, gy
        verts = outlines[o]
        count = outline_n[o]
        if not overlaps_rect(gx, gy, w, h, verts, count, scratch):
            continue
        code = cand_resp[c0 + s]
        if visited[s] or code not in (TOUCH, SLIDE):
            continue
        mx, my = snap_rect(gx, gy, w, h, verts, count, nx, ny, ROUNDING_STEPS, scratch)
        if not overlaps_rect(mx, my, w, h, verts, count, scratch):
            gx = mx
            gy = my
    return True, gx, gy


@borrowing_kernel
def _within(regions, a, left, top, right, bottom):
    """Whether the box lies in mover ``a``'s region."""
    rx = regions[a, 0]
    ry = regions[a, 1]
    return rx <= left and right <= rx + regions[a, 2] and ry <= top and bottom <= ry + regions[a, 3]
