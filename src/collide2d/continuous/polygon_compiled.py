"""Polygons on the scalar front's compiled routes: the row each polygon keeps for
them, and the exact sweep of two outlines in compiled code.

``collide2d.overlaps`` and ``collide2d.sweep`` of polygons call compiled kernels one
pair at a time. Their arguments are made once per polygon and kept on it
(:func:`packed`): its discs, its bounds, its vertices as a numpy array and that
array's address (a kernel reads the outline there: ``jit.points_at``), and which
ranges its coordinates lie in. :func:`sweep_compiled` sweeps two polygons (or a
polygon and a rectangle) through ``_kernels.pairs.sweep_one`` and builds the same
:class:`~collide2d.continuous.hit.Hit` as the Python route
(:func:`collide2d.continuous.polygon.sweep_outlines`), which it leaves the pairs
it cannot settle; the front calls it through :func:`sweep_soon`, which waits
:data:`COMPILE_AFTER` sweeps before it compiles.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from collide2d._kernels import lazy
from collide2d.continuous.hit import Hit
from collide2d.continuous.polygon import contact_point, shifted
from collide2d.geometry.convex import Outline
from collide2d.geometry.discs import discs
from collide2d.geometry.normals import edge_normal
from collide2d.geometry.polygon import Polygon
from collide2d.geometry.rect import Rect
from collide2d.geometry.vec2 import Vec2
from collide2d.tolerances import EXACT_ORIENT_RANGE, SWEEP_EXACT_RANGE

Packed = tuple[float, float, float, float, float, float, float, float, int, int, bool, Any]
"""A polygon's discs, ``cx, cy, inner, outer`` (:func:`collide2d.geometry.discs.discs`;
NaN radii where a coordinate is beyond ``tolerances.EXACT_ORIENT_RANGE``); its
bounds, ``left, top, right, bottom``; the address of its vertices' float64 ``(n, 2)``
array (0 beyond that range: the exact Python tests then decide) and ``n``; whether
every coordinate is zero or in ``SWEEP_EXACT_RANGE`` (where the compiled sweep is
exact); and that array (held here, so that the address stays valid while the
polygon lives)."""

UNSETTLED = object()
"""What :func:`sweep_compiled` returns for a pair the Python route must decide."""

COMPILE_AFTER = 1000
"""Polygon sweeps a process makes on the Python route before :func:`sweep_soon`
turns to the compiled one. Compiling it takes 10 to 20 s once per machine (loading
it from numba's cache after that, under a second) against about 0.15 ms a sweep
saved: a script that sweeps a few polygons should not wait, a game that sweeps
thousands gains within seconds. ``collide2d warmup`` compiles it ahead."""


def packed(polygon: Polygon) -> Packed:
    """The polygon's :data:`Packed` row, made at its first use and kept on it."""
    row: Packed | None = polygon._packed
    if row is None:
        xs = [v[0] for v in polygon.vertices]
        ys = [v[1] for v in polygon.vertices]
        low, high = EXACT_ORIENT_RANGE
        tame = all(c == 0.0 or low <= abs(c) <= high for c in (*xs, *ys))
        array = np.array(polygon.vertices, dtype=np.float64)
        row = polygon._packed = (
            *(discs(xs, ys) if tame else (0.0, 0.0, math.nan, math.nan)),
            min(xs), min(ys), max(xs), max(ys), array.ctypes.data if tame else 0, len(xs),
            all(_sweep_tame(c) for c in (*xs, *ys)), array,
        )  # fmt: skip
    return row


def _sweep_tame(c: float) -> bool:
    low, high = SWEEP_EXACT_RANGE
    return c == 0.0 or low <= abs(c) <= high


_kernel: list[Any] = []


def _sweep_kernel() -> Any:
    """The compiled entry point of ``sweep_one`` (numba's dispatcher would take
    longer choosing the overload than a quick pair takes) and its codes ``NONE``,
    ``HIT``, ``STARTED``."""
    if not _kernel:
        kernels = lazy("pairs.sweep_one")
        square = np.array([[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]])
        at = square.ctypes.data
        kernels.sweep_one(at, 4, at, 4, 1.0, 0.0, 0.0, 0.0)  # compiled (or loaded)
        dispatcher = kernels.sweep_one
        try:
            entry = dispatcher.overloads[dispatcher.signatures[0]].entry_point
        except (AttributeError, IndexError, KeyError):  # pragma: no cover - numba changed
            entry = dispatcher
        _kernel.extend((entry, kernels.NONE, kernels.HIT, kernels.STARTED))
    return _kernel


_route = [0]  # sweeps made on the Python route while the compiled one waits


def sweep_soon(
    a: Polygon | Rect, a_delta: tuple[float, float], b: Polygon | Rect,
    b_delta: tuple[float, float],
) -> Hit | object | None:  # fmt: skip
    """:func:`sweep_compiled` once the process has made :data:`COMPILE_AFTER` polygon
    sweeps (or loaded the kernel already); :data:`UNSETTLED` before (the Python route
    answers the same)."""
    if not _kernel and _route[0] < COMPILE_AFTER:
        _route[0] += 1
        return UNSETTLED
    return sweep_compiled(a, a_delta, b, b_delta)


def sweep_compiled(
    a: Polygon | Rect, a_delta: tuple[float, float], b: Polygon | Rect,
    b_delta: tuple[float, float],
) -> Hit | object | None:  # fmt: skip
    """:func:`collide2d.continuous.polygon.sweep_outlines` of two polygons, or of a
    polygon and a rectangle (its outline, ``geometry.convex.outline``), in compiled
    code; :data:`UNSETTLED` where the Python route must decide (a coordinate or a
    motion outside ``SWEEP_EXACT_RANGE``, a rectangle of no area, or a tie the
    compiled sweep leaves)."""
    adx, ady = a_delta
    bdx, bdy = b_delta
    low, high = SWEEP_EXACT_RANGE
    if not (
        (adx == 0.0 or low <= abs(adx) <= high)
        and (ady == 0.0 or low <= abs(ady) <= high)
        and (bdx == 0.0 or low <= abs(bdx) <= high)
        and (bdy == 0.0 or low <= abs(bdy) <= high)
    ):  # (written out: this runs on every call)
        return UNSETTLED
    a_vertices, a_at, na, keep_a = _outline(a)
    b_vertices, b_at, nb, keep_b = _outline(b)
    if not (a_at and b_at):
        return UNSETTLED
    kernel, none, hit, started = _kernel or _sweep_kernel()
    code, f, owner, edge, first, second = kernel(a_at, na, b_at, nb, adx, ady, bdx, bdy)
    del keep_a, keep_b  # (the arrays lived through the call)
    if code == none:
        return None
    if code != hit and code != started:
        return UNSETTLED
    own, other = (a_vertices, b_vertices) if owner == 0 else (b_vertices, a_vertices)
    nx, ny, _ = edge_normal(own, edge)
    if owner == 0:  # the mover's edge: the normal points back toward the mover
        nx, ny = 0.0 - nx, 0.0 - ny
    if code == started:
        vertex = other[first]
        return Hit(0.0, Vec2(nx, ny), Vec2(float(vertex[0]), float(vertex[1])), True, depth=f)
    touching = [first] if second < 0 else [first, second]
    shift_a = (adx * f, ady * f)
    shift_b = (bdx * f, bdy * f)
    if owner == 1:
        point = contact_point(shifted(b_vertices, shift_b), edge, a_vertices, touching, shift_a)
    else:
        point = contact_point(shifted(a_vertices, shift_a), edge, b_vertices, touching, shift_b)
    return Hit(f, Vec2(nx, ny), point, False)


def _outline(shape: Polygon | Rect) -> tuple[Outline, int, int, Any]:
    """The shape's outline, its array's address (0 where the compiled sweep is not
    exact for it), its vertex count and the array to keep alive through the call."""
    if isinstance(shape, Polygon):
        row = shape._packed or packed(shape)
        return shape.vertices, row[8] if row[10] else 0, row[9], row[11]
    x, y, w, h = shape.x, shape.y, shape.w, shape.h
    right = x + w
    bottom = y + h
    corners = ((x, y), (right, y), (right, bottom), (x, bottom))  # (geometry.convex.outline)
    low, high = SWEEP_EXACT_RANGE
    if not (
        right > x
        and bottom > y
        and (x == 0.0 or low <= abs(x) <= high)
        and (y == 0.0 or low <= abs(y) <= high)
        and (right == 0.0 or low <= abs(right) <= high)
        and (bottom == 0.0 or low <= abs(bottom) <= high)
    ):
        return corners, 0, 4, None
    array = np.array(corners, dtype=np.float64)
    return corners, array.ctypes.data, 4, array
