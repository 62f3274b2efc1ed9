"""One rectangle's move among a few rectangles, in plain Python: the compiled moves'
check loop (``collide2d._kernels.moves.world_moves``) line for line, for the single
``World.move`` of a game's actor.

A move that meets one or two tiles is over before the compiled call's arguments are
made: the numpy rows, the call and the reading back of its columns cost about three
times what these few float operations do (see docs/world.md). Above
:data:`MOST_CANDIDATES` candidates the compiled kernel runs instead. Both give the
same floats (the same operations in the same order); the tests hold this twin, the
kernel and the World's generic check loop equal move for move.
"""

from __future__ import annotations

import math
from typing import Any

from collide2d._kernels.codes import CROSS, MAX_RESPONSES, SLIDE, TOUCH
from collide2d.continuous.penetration import least_penetration
from collide2d.geometry.rect import Rect
from collide2d.geometry.vec2 import Vec2
from collide2d.world.collision import Collision, Item, Movement
from collide2d.world.contact import below, snap

MOST_CANDIDATES = 12
"""Moves with more candidates than this (items the move may meet, with a response)
run in the compiled kernel: past about a dozen its loop is the cheaper."""

Candidate = tuple[int, int, Any, Rect]
"""``(slot, code, item, rect)`` of an item the move may meet, in insertion order."""

_new = tuple.__new__
_INF = math.inf
_NAMES = {TOUCH: "touch", CROSS: "cross", SLIDE: "slide"}
_NORMALS = {
    (-1.0, 0.0): Vec2(-1.0, 0.0), (1.0, 0.0): Vec2(1.0, 0.0),
    (0.0, -1.0): Vec2(0.0, -1.0), (0.0, 1.0): Vec2(0.0, 1.0),
}  # fmt: skip


def move_rect(
    item: Item, rect: Rect, gx: float, gy: float, rows: list[Candidate]
) -> Movement | None:
    """``item`` (at ``rect``) moved toward ``(gx, gy)`` among ``rows``' rectangles,
    each with its response code (``touch``, ``cross`` or ``slide``); None where a
    start already overlapped needs the World's push-out (its Python check loop)."""
    x, y, w, h = rect
    visited = [False] * len(rows)
    lx, ly = x, y  # the leg: where the projection starts
    collisions: list[Collision] = []
    stops: list[tuple[Rect, float, float]] = []  # what the move stopped at, to clear
    responses = 0
    found = _project(lx, ly, w, h, gx, gy, rows, visited)
    if found is None:
        return None
    while found:
        if responses == MAX_RESPONSES:
            gx, gy = lx, ly
            break
        s0, f0, nx0, ny0, tx0, ty0, started0, _ = found[0]
        code = rows[s0][1]
        if code != SLIDE:
            visited[s0] = True
        new_gx, new_gy = gx, gy
        if code == TOUCH:
            new_gx, new_gy = tx0, ty0
        elif code == SLIDE and (gx - tx0) * nx0 + (gy - ty0) * ny0 < 0.0:
            if ny0 == 0.0:  # remove the part of the remaining motion into the surface
                new_gx = tx0
            else:
                new_gy = ty0
        slide = _new(Vec2, (new_gx, new_gy)) if code == SLIDE else None
        delta = _new(Vec2, (gx - lx, gy - ly))
        leg = _new(Rect, (lx, ly, w, h))
        name = _NAMES[code]
        # the resolved contact, then the others of this projection it stops as well
        for k, (s, f, nx, ny, tx, ty, started, corner) in enumerate(found):
            if k > 0:
                if f != f0 or started != started0:
                    break
                if code == CROSS or nx != nx0 or ny != ny0 or rows[s][1] != code or corner:
                    continue
            _, _, other, other_rect = rows[s]
            collisions.append(_new(Collision, (
                item, other, name, f, _NORMALS[nx, ny], _new(Vec2, (tx, ty)), delta, leg,
                other_rect, started, slide, None,
            )))  # fmt: skip
            if code != CROSS:
                stops.append((other_rect, nx, ny))
            if k == 0 and code == CROSS:
                break
        responses += 1
        if code == TOUCH:
            gx, gy = new_gx, new_gy
            break
        if code == SLIDE:
            lx, ly = tx0, ty0
        gx, gy = new_gx, new_gy
        found = _project(lx, ly, w, h, gx, gy, rows, visited)
        if found is None:
            return None
    for other_rect, nx, ny in stops:  # clear of everything the move stopped at
        bx, by, bw, bh = other_rect
        if gx < bx + bw and bx < gx + w and gy < by + bh and by < gy + h:  # not yet
            at = _new(Rect, (gx, gy, w, h))
            gx, gy = snap(at, _new(Vec2, (gx, gy)), other_rect, _NORMALS[nx, ny])
    return _new(Movement, (_new(Vec2, (gx, gy)), collisions))


Contact = tuple[int, float, float, float, float, float, bool, bool]
"""``(row, fraction, nx, ny, touch x, touch y, started, corner)``."""


def _project(
    x0: float, y0: float, w: float, h: float, gx: float, gy: float,
    rows: list[Candidate], visited: list[bool],
) -> list[Contact] | None:  # fmt: skip
    """The contacts of the leg ``(x0, y0) -> (gx, gy)``, sorted as ``World._project``
    sorts them; None when one started overlapped with a response other than
    ``cross`` (the World pushes it out)."""
    dx = gx - x0
    dy = gy - y0
    left = min(x0, gx)
    top = min(y0, gy)
    right = max(x0 + w, gx + w)
    bottom = max(y0 + h, gy + h)
    ar = x0 + w
    ab = y0 + h
    found: list[Contact] = []
    for s, (_, code, _, (bx, by, bw, bh)) in enumerate(rows):
        br = bx + bw
        bb = by + bh
        if visited[s] or not (bx < right and left < br and by < bottom and top < bb):
            continue
        # the slab sweep (_kernels.moves.world_moves._sweep)
        if dx > 0.0:
            ex, xx = (bx - ar) / dx, (br - x0) / dx
        elif dx < 0.0:
            ex, xx = (br - x0) / dx, (bx - ar) / dx
        elif x0 < br and bx < ar:
            ex, xx = -_INF, _INF
        else:
            continue
        if dy > 0.0:
            ey, xy = (by - ab) / dy, (bb - y0) / dy
        elif dy < 0.0:
            ey, xy = (bb - y0) / dy, (by - ab) / dy
        elif y0 < bb and by < ab:
            ey, xy = -_INF, _INF
        else:
            continue
        enter = ex if ex >= ey else ey
        leave = xx if xx <= xy else xy
        if not (enter < leave and enter < 1.0 and leave > 0.0):
            continue
        if enter < 0.0:  # started overlapped (a cross): the least-penetration normal
            if code != CROSS:
                return None
            nx, ny = least_penetration(x0, y0, ar, ab, bx, by, br, bb)
            found.append((s, 0.0, nx, ny, x0, y0, True, False))
        elif ex >= ey:
            f = enter + 0.0
            if dx > 0.0:
                found.append((s, f, -1.0, 0.0, below(bx, w), y0 + dy * f, False, ex == ey))
            else:
                found.append((s, f, 1.0, 0.0, br, y0 + dy * f, False, ex == ey))
        else:
            f = enter + 0.0
            if dy > 0.0:
                found.append((s, f, 0.0, -1.0, x0 + dx * f, below(by, h), False, False))
            else:
                found.append((s, f, 0.0, 1.0, x0 + dx * f, bb, False, False))
    if len(found) > 1:  # the order of contacts: a projection holds a few
        _sort(found, x0, y0, w, h, rows)
    return found


def _sort(found: list[Contact], x0: float, y0: float, w: float, h: float,
          rows: list[Candidate]) -> None:  # fmt: skip
    """Sort ``found`` as the kernel does: started first (deepest first), fraction,
    face before corner, nearer centre, earlier added (``World._order_key``), by its
    insertion sort (``!=`` then ``<`` key by key, as floats compare)."""
    keys = []
    for s, f, _, _, _, _, started, corner in found:
        slot, _, _, (bx, by, bw, bh) = rows[s]
        ax_c = x0 + w * 0.5 - (bx + bw * 0.5)
        ay_c = y0 + h * 0.5 - (by + bh * 0.5)
        if started:
            iw = min(x0 + w, bx + bw) - max(x0, bx)
            ih = min(y0 + h, by + bh) - max(y0, by)
            keys.append((False, -max(iw, 0.0) * max(ih, 0.0), 0.0, ax_c * ax_c + ay_c * ay_c, slot))
        else:
            keys.append((True, f, 1.0 if corner else 0.0, ax_c * ax_c + ay_c * ay_c, slot))
    for i in range(1, len(found)):
        j = i
        while j > 0 and _before(keys[j], keys[j - 1]):
            keys[j], keys[j - 1] = keys[j - 1], keys[j]
            found[j], found[j - 1] = found[j - 1], found[j]
            j -= 1


def _before(a: tuple[Any, ...], b: tuple[Any, ...]) -> bool:
    """The kernel's ``_before``: a started contact first, then the first key that
    differs decides (``!=`` then ``<``, as floats compare: NaN decides nothing)."""
    if a[0] != b[0]:
        return not a[0]
    for k in range(1, 5):
        if a[k] != b[k]:
            return bool(a[k] < b[k])
    return False
