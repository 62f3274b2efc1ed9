"""Convex polygons in arrays: rotated boxes' corners, outline checks and the exact
separating-axis overlap test of candidate pairs.

Exactness: every decision is the sign of an orientation determinant
``(q - p) x (v - p)``, taken in floats when Shewchuk's error bound proves the sign
(J. R. Shewchuk, "Adaptive precision floating-point arithmetic and fast robust
geometric predicates", 1997: ``orient2d``'s first stage, ``ccwerrboundA``), and
otherwise summed exactly as an expansion of error-free products (Dekker's split
and two-product, Knuth's two-sum, Shewchuk's grow-expansion with zero
elimination). The exact stage holds for coordinates whose magnitudes lie in
``[2**-400, 2**400]`` (or are zero): no product there overflows or loses bits to
underflow. The callers send other rows to the plain Python route.
"""

from __future__ import annotations

import math

import numpy as np

from collide2d._kernels.expansions import CCW_BOUND, grow, two_product, two_sum
from collide2d._kernels.jit import (
    helper_kernel,
    inlined_helper,
    kernel,
    points_at,
    prefetch,
    stack_array,
)

_HALF_PI = math.pi / 2.0
AHEAD = 8
"""How many candidate pairs ahead the batch kernels (``keep_overlapping`` and
``polygon_sweeps.sweep_candidates``) ask for the rows they will read."""


@helper_kernel
def _orient_exact(px: float, py: float, qx: float, qy: float, vx: float, vy: float) -> int:
    """The exact sign of ``(q - p) x (v - p)``: each difference split into its float
    and its error, the products expanded into sixteen error-free terms, summed."""
    a1, a0 = two_sum(qx, -px)
    b1, b0 = two_sum(vy, -py)
    c1, c0 = two_sum(qy, -py)
    d1, d0 = two_sum(vx, -px)
    h = np.empty(40)
    length = 0
    for u, v, sign in (
        (a1, b1, 1.0), (a1, b0, 1.0), (a0, b1, 1.0), (a0, b0, 1.0),
        (c1, d1, -1.0), (c1, d0, -1.0), (c0, d1, -1.0), (c0, d0, -1.0),
    ):  # fmt: skip
        p, e = two_product(u, v)
        length = grow(h, length, sign * e)
        length = grow(h, length, sign * p)
    if length == 0:
        return 0
    return 1 if h[length - 1] > 0.0 else -1


@helper_kernel
def orient(px: float, py: float, qx: float, qy: float, vx: float, vy: float) -> int:
    """The exact sign of ``(q - p) x (v - p)``: positive when ``v`` is to the left of
    the line from ``p`` to ``q`` (inside a polygon of positive area)."""
    sure = _turn(px, py, qx, qy, vx, vy)
    return sure if sure != 0 else _orient_exact(px, py, qx, qy, vx, vy)


@helper_kernel
def _separates(va: np.ndarray, na: int, vb: np.ndarray, nb: int) -> bool:
    """Whether some edge of ``va`` has every vertex of ``vb`` on its line or outside."""
    for i in range(na):
        j = i + 1 if i + 1 < na else 0
        px, py = va[i, 0], va[i, 1]
        qx, qy = va[j, 0], va[j, 1]
        outside = True
        for k in range(nb):
            if orient(px, py, qx, qy, vb[k, 0], vb[k, 1]) > 0:
                outside = False
                break
        if outside:
            return True
    return False


@kernel
def box_vertices(rows: np.ndarray, out: np.ndarray) -> None:
    """Corners of rotated boxes ``(N, 5)`` rows ``cx, cy, w, h, angle`` into ``out``
    ``(N, 4, 2)``, rounded as ``Polygon.box`` rounds them (whole quarter turns exact)."""
    for i in range(rows.shape[0]):
        cx, cy, w, h, angle = rows[i, 0], rows[i, 1], rows[i, 2], rows[i, 3], rows[i, 4]
        quarters = round(angle / _HALF_PI)
        if angle == quarters * _HALF_PI:
            q = quarters % 4
            c = 1.0 if q == 0 else (-1.0 if q == 2 else 0.0)
            s = 1.0 if q == 1 else (-1.0 if q == 3 else 0.0)
        else:
            c = math.cos(angle)
            s = math.sin(angle)
        hx = w * 0.5
        hy = h * 0.5
        for k in range(4):
            ox = hx if k == 1 or k == 2 else -hx
            oy = hy if k >= 2 else -hy
            out[i, k, 0] = cx + (c * ox - s * oy)
            out[i, k, 1] = cy + (s * ox + c * oy)


@kernel
def outline_problems(vertices: np.ndarray, counts: np.ndarray, tame: np.ndarray) -> int:
    """Check each tame outline ``vertices[i, :counts[i]]`` (see the module): every
    turn strictly the same way, and once around. Outlines turning the other way are
    reversed in place (the first vertex stays first). Return the first bad row, or
    -1."""
    for i in range(vertices.shape[0]):
        if not tame[i]:
            continue
        n = counts[i]
        if n == 4:  # a box: four turns by the float filter decide most (see _quad_turns)
            turns = _quad_turns(vertices[i])
            if turns > 0:
                continue
            if turns < 0:
                _reverse(vertices, i, n)
                continue
        positive = 0
        negative = 0
        for k in range(n):
            a = k - 1 if k > 0 else n - 1
            b = k + 1 if k + 1 < n else 0
            turn = orient(
                vertices[i, a, 0], vertices[i, a, 1],
                vertices[i, k, 0], vertices[i, k, 1],
                vertices[i, b, 0], vertices[i, b, 1],
            )  # fmt: skip
            if turn > 0:
                positive += 1
            elif turn < 0:
                negative += 1
        if n < 3 or not (positive == n or negative == n):
            return i
        for axis in range(2):  # once around: each coordinate turns back at most twice
            changes = 0
            last = 0
            first = 0
            for k in range(n):
                b = k + 1 if k + 1 < n else 0
                step = vertices[i, b, axis] - vertices[i, k, axis]
                sign = 1 if step > 0.0 else (-1 if step < 0.0 else 0)
                if sign != 0:
                    if first == 0:
                        first = sign
                    elif sign != last:
                        changes += 1
                    last = sign
            if last != first:
                changes += 1
            if changes > 2:
                return i
        if negative == n:
            _reverse(vertices, i, n)
    return -1


@inlined_helper
def _reverse(vertices: np.ndarray, i: int, n: int) -> None:
    """Reverse outline ``i``'s order in place, its first vertex staying first."""
    lo = 1
    hi = n - 1
    while lo < hi:
        for axis in range(2):
            keep = vertices[i, lo, axis]
            vertices[i, lo, axis] = vertices[i, hi, axis]
            vertices[i, hi, axis] = keep
        lo += 1
        hi -= 1


@inlined_helper
def _quad_turns(v: np.ndarray) -> int:
    """1 when the float filter finds all four turns of quadrilateral ``v`` certainly
    left, -1 all certainly right, 0 otherwise (the exact check decides). Four turns
    the same way make a simple convex outline: each turns by less than half a turn,
    so together by one whole turn, never two (going round twice takes five)."""
    x0, y0, x1, y1 = v[0, 0], v[0, 1], v[1, 0], v[1, 1]
    x2, y2, x3, y3 = v[2, 0], v[2, 1], v[3, 0], v[3, 1]
    t0 = _turn(x3, y3, x0, y0, x1, y1)
    t1 = _turn(x0, y0, x1, y1, x2, y2)
    t2 = _turn(x1, y1, x2, y2, x3, y3)
    t3 = _turn(x2, y2, x3, y3, x0, y0)
    if t0 > 0 and t1 > 0 and t2 > 0 and t3 > 0:
        return 1
    if t0 < 0 and t1 < 0 and t2 < 0 and t3 < 0:
        return -1
    return 0


@inlined_helper
def _turn(px: float, py: float, qx: float, qy: float, vx: float, vy: float) -> int:
    """The sign of ``(q - p) x (v - p)`` where the float filter of :func:`orient` is
    sure of it, else 0."""
    left = (qx - px) * (vy - py)
    right = (qy - py) * (vx - px)
    det = left - right
    bound = CCW_BOUND * (abs(left) + abs(right))
    return 1 if det > bound else (-1 if -det > bound else 0)


@inlined_helper
def ask_for_rows(
    pairs: np.ndarray, m: int, vertices: np.ndarray, counts: np.ndarray, tame: np.ndarray
) -> None:
    """Ask for the rows of candidate pair ``m`` (if there is one) in ``vertices`` (its
    first, middle and last vertex: the cache lines of an outline of up to eight),
    ``counts`` and ``tame``, without waiting for them (``jit.prefetch``)."""
    if m < pairs.shape[0]:
        last = vertices.shape[1] - 1
        for side in range(2):
            row = pairs[m, side]
            prefetch(vertices, row, 0, 0)
            prefetch(vertices, row, last // 2, 0)
            prefetch(vertices, row, last, 1)
            prefetch(counts, row)
            prefetch(tame, row)


@kernel
def keep_overlapping(
    vertices: np.ndarray, counts: np.ndarray, tame: np.ndarray, pairs: np.ndarray,
    keep: np.ndarray, unsure: np.ndarray,
) -> None:  # fmt: skip
    """For each candidate pair ``(i, j)``, whether the outlines overlap strictly, by
    the exact separating-axis test; pairs with an untamed outline (see the module)
    are marked ``unsure`` for the caller to decide.

    The rows of the pair ``AHEAD`` places on are asked for before each test: a
    candidate's second row is anywhere in the arrays, and waiting for it from memory
    was most of a test's time on large inputs (1e6 boxes: 300 to 600 ns a pair
    before, about 100 to 180 after)."""
    for m in range(pairs.shape[0]):
        ask_for_rows(pairs, m + AHEAD, vertices, counts, tame)
        i = pairs[m, 0]
        j = pairs[m, 1]
        if not (tame[i] and tame[j]):
            unsure[m] = True
            continue
        keep[m] = outlines_overlap(vertices, counts, i, j)


@helper_kernel
def outlines_overlap(vertices: np.ndarray, counts: np.ndarray, i: int, j: int) -> bool:
    """Whether tame outlines ``i`` and ``j`` overlap strictly: the float filter for
    two quadrilaterals, else the exact separating-axis test. (Not a borrowing helper:
    the exact test makes its expansion with ``np.empty``, and helpers compiled first
    under a borrowing one would be compiled without reference counts.)"""
    a = vertices[i]
    b = vertices[j]
    if counts[i] == 4 and counts[j] == 4:  # two boxes: the float filter decides most
        sure, overlap = _quads(a, b)
        if sure:
            return overlap
    return not (_separates(a, counts[i], b, counts[j]) or _separates(b, counts[j], a, counts[i]))


@inlined_helper
def _quads(a: np.ndarray, b: np.ndarray) -> tuple[bool, bool]:
    """Two quadrilaterals (rotated boxes) by a float filter alone: ``(sure,
    overlap)``. Sure when an edge has every vertex of the other certainly outside
    (apart), or every edge a vertex of the other certainly inside (overlapping);
    the exact test decides the rest (a vertex on or near an edge's line). Each
    vertex's ``(q - p) x (v - p)`` is bounded as Shewchuk's filter bounds it, with
    the other shape's bounding box in place of the vertex (a bound that holds for
    all four at once): 59 to 76 ns a candidate pair against 115 for the test of
    :func:`_separates` (1e5 boxes, the bench's candidates)."""
    ax0, ay0, ax1, ay1 = a[0, 0], a[0, 1], a[1, 0], a[1, 1]
    ax2, ay2, ax3, ay3 = a[2, 0], a[2, 1], a[3, 0], a[3, 1]
    bx0, by0, bx1, by1 = b[0, 0], b[0, 1], b[1, 0], b[1, 1]
    bx2, by2, bx3, by3 = b[2, 0], b[2, 1], b[3, 0], b[3, 1]
    apart, inside_a = _quad_side(ax0, ay0, ax1, ay1, ax2, ay2, ax3, ay3,
                                 bx0, by0, bx1, by1, bx2, by2, bx3, by3)  # fmt: skip
    if apart:
        return True, False
    apart, inside_b = _quad_side(bx0, by0, bx1, by1, bx2, by2, bx3, by3,
                                 ax0, ay0, ax1, ay1, ax2, ay2, ax3, ay3)  # fmt: skip
    if apart:
        return True, False
    return inside_a and inside_b, True


@inlined_helper
def _quad_side(
    ax0: float, ay0: float, ax1: float, ay1: float, ax2: float, ay2: float, ax3: float,
    ay3: float, bx0: float, by0: float, bx1: float, by1: float, bx2: float, by2: float,
    bx3: float, by3: float,
) -> tuple[bool, bool]:  # fmt: skip
    """Against the edges of quadrilateral ``a``: whether one certainly has all of
    ``b`` outside, and whether each certainly has a vertex of ``b`` inside."""
    lo_x = min(min(bx0, bx1), min(bx2, bx3))
    hi_x = max(max(bx0, bx1), max(bx2, bx3))
    lo_y = min(min(by0, by1), min(by2, by3))
    hi_y = max(max(by0, by1), max(by2, by3))
    box = (lo_x, lo_y, hi_x, hi_y)
    b = (bx0, by0, bx1, by1, bx2, by2, bx3, by3)
    in0, near0 = _quad_edge(ax0, ay0, ax1, ay1, b, box)
    in1, near1 = _quad_edge(ax1, ay1, ax2, ay2, b, box)
    in2, near2 = _quad_edge(ax2, ay2, ax3, ay3, b, box)
    in3, near3 = _quad_edge(ax3, ay3, ax0, ay0, b, box)
    return not (near0 and near1 and near2 and near3), in0 and in1 and in2 and in3


@inlined_helper
def _quad_edge(
    px: float, py: float, qx: float, qy: float,
    b: tuple[float, float, float, float, float, float, float, float],
    box: tuple[float, float, float, float],
) -> tuple[bool, bool]:  # fmt: skip
    """Against the edge from ``p`` to ``q``: whether a vertex of ``b`` is certainly
    inside (strictly left), and whether one may be inside or on the line (not
    certainly outside). ``box``: ``b``'s bounds, whose reach from ``p`` bounds each
    difference ``v - p`` (rounding keeps the order)."""
    ex = qx - px
    ey = qy - py
    reach_x = max(abs(box[2] - px), abs(box[0] - px))
    reach_y = max(abs(box[3] - py), abs(box[1] - py))
    bound = CCW_BOUND * (abs(ex) * reach_y + abs(ey) * reach_x)
    d0 = ex * (b[1] - py) - ey * (b[0] - px)
    d1 = ex * (b[3] - py) - ey * (b[2] - px)
    d2 = ex * (b[5] - py) - ey * (b[4] - px)
    d3 = ex * (b[7] - py) - ey * (b[6] - px)
    top = max(max(d0, d1), max(d2, d3))
    return top > bound, top >= -bound


@kernel
def polygons_overlap(a_at: int, na: int, b_at: int, nb: int) -> bool:
    """Whether two tame outlines (positive area) overlap strictly: the exact
    separating-axis test of one pair, for the scalar front. Each outline is given by
    the address of its C-ordered float64 ``(n, 2)`` array and its ``n`` (see
    :func:`~collide2d._kernels.jit.points_at`; the caller keeps the arrays alive)."""
    a = points_at(a_at, na)
    b = points_at(b_at, nb)
    return not (_separates(a, na, b, nb) or _separates(b, nb, a, na))


@kernel
def bounds_and_tame(
    vertices: np.ndarray, counts: np.ndarray, low: float, high: float,
    box: np.ndarray, tame: np.ndarray,
) -> None:  # fmt: skip
    """Each outline's closed bounds into ``box`` (rows ``left, top, right, bottom``) and
    whether all its coordinates are zero or of magnitude in ``[low, high]``."""
    for i in range(vertices.shape[0]):
        left = vertices[i, 0, 0]
        right = left
        top = vertices[i, 0, 1]
        bottom = top
        ok = True
        for k in range(counts[i]):
            x = vertices[i, k, 0]
            y = vertices[i, k, 1]
            left = min(left, x)
            right = max(right, x)
            top = min(top, y)
            bottom = max(bottom, y)
            for c in (abs(x), abs(y)):
                if c != 0.0 and not (low <= c <= high):
                    ok = False
        box[i, 0] = left
        box[i, 1] = top
        box[i, 2] = right
        box[i, 3] = bottom
        tame[i] = ok


@inlined_helper
def box_corners(out: np.ndarray, left: float, top: float, right: float, bottom: float) -> None:
    """The box's corners into ``out`` (4, 2), in the stored order of its outline
    (``collide2d.geometry.convex.outline`` of a ``Rect``)."""
    out[0, 0] = left
    out[0, 1] = top
    out[1, 0] = right
    out[1, 1] = top
    out[2, 0] = right
    out[2, 1] = bottom
    out[3, 0] = left
    out[3, 1] = bottom


@kernel
def polygon_box_overlap(
    a_at: int, na: int, left: float, top: float, right: float, bottom: float
) -> bool:
    """Whether a tame outline (positive area; its array's address and ``n``, as
    :func:`polygons_overlap` takes it) and the box ``[left, right] x [top, bottom]``
    (positive size) overlap strictly, exactly."""
    a = points_at(a_at, na)
    box = stack_array(np.float64, 4, 2)
    box_corners(box, left, top, right, bottom)
    return not (_separates(a, na, box, 4) or _separates(box, 4, a, na))
