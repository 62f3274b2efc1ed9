"""A disc certainly inside a convex polygon and one certainly around it: quick sure
answers to "do two polygons overlap?" when they overlap deeply or lie far apart.

Two convex shapes overlap (strictly) when an open disc inside one meets an open
disc inside the other, and they do not when closed discs around them are disjoint.
For each polygon, :func:`discs` takes the mean of its vertices (a float point,
taken as exact), the least distance from it to the edges' lines, lowered by a bound
of every rounding made on the way, and the greatest distance to a vertex, raised
likewise. The inner radius is then shrunk and the outer one grown by
:data:`MARGIN` more, so that the two tests compare the distance of two centres
with a sum of radii in plain floats: their few roundings cannot turn the answer.
Where neither test is sure, the caller runs the exact test: the discs only ever
say "overlapping" or "apart" when exact arithmetic would.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

EPS = 2.0**-53
"""Half a unit in the last place of 1.0: the relative error of one rounding."""

MARGIN = 32.0 * EPS
"""How much more, relatively, a proven inner radius is shrunk and an outer one
grown before they are returned: more than the relative error of the roundings in
:func:`inner_discs_meet` and :func:`outer_discs_apart` (a distance squared against
a sum of radii squared)."""


def discs(xs: Sequence[float], ys: Sequence[float]) -> tuple[float, float, float, float]:
    """``(cx, cy, inner, outer)``: the open disc of radius ``inner`` around the float
    point ``(cx, cy)`` lies inside the convex polygon with vertices ``xs, ys``
    (stored order, positive area), and the closed disc of radius ``outer`` holds
    it, for certain. ``inner`` is NaN where no such disc is proven (every comparison
    with it is then False).

    The caller keeps the coordinates where no product overflows or underflows
    (``tolerances.EXACT_ORIENT_RANGE``).

    Examples
    --------
    >>> discs([0.0, 4.0, 4.0, 0.0], [0.0, 0.0, 2.0, 2.0])  # a 4 x 2 box
    (2.0, 1.0, 0.9999999999999938, 2.2360679774997987)
    """
    n = len(xs)
    cx = math.fsum(xs) / n
    cy = math.fsum(ys) / n
    inner = math.inf
    outer = 0.0
    for k in range(n):
        px, py = xs[k], ys[k]
        qx, qy = xs[(k + 1) % n], ys[(k + 1) % n]
        ex, ey = qx - px, qy - py
        dx, dy = cx - px, cy - py
        # each difference rounds once and hypot is within an ulp: three roundings
        outer = max(outer, math.hypot(dx, dy) * (1.0 + 4.0 * EPS))
        # Shewchuk's bound of the orientation is (3 + 16 eps) eps (|ex dy| + |ey dx|);
        # four times that holds with room to spare.
        cross = ex * dy - ey * dx
        bound = 16.0 * EPS * (abs(ex * dy) + abs(ey * dx))
        if cross <= bound:
            inner = math.nan  # the mean is on an edge's line or too near to tell
        else:
            # (cross - bound) is at most the exact orientation; hypot is within an
            # ulp of the edge's length, and the division rounds once
            inner = min(inner, (cross - bound) / math.hypot(ex, ey) * (1.0 - 8.0 * EPS))
    if not inner > 0.0:
        inner = math.nan
    return cx, cy, inner * (1.0 - MARGIN), outer * (1.0 + MARGIN)


def inner_discs_meet(ax: float, ay: float, ar: float, bx: float, by: float, br: float) -> bool:
    """Whether the inner discs ``(ax, ay, ar)`` and ``(bx, by, br)`` of
    :func:`discs` certainly meet, so that their polygons overlap. False says
    nothing; a NaN radius gives False.

    >>> inner_discs_meet(0.0, 0.0, 1.0, 1.5, 0.0, 1.0)
    True
    >>> inner_discs_meet(0.0, 0.0, 1.0, 2.0, 0.0, 1.0)  # tangent: not certain
    False
    """
    dx = bx - ax
    dy = by - ay
    reach = ar + br
    return dx * dx + dy * dy < reach * reach


def outer_discs_apart(ax: float, ay: float, ar: float, bx: float, by: float, br: float) -> bool:
    """Whether the outer discs ``(ax, ay, ar)`` and ``(bx, by, br)`` of
    :func:`discs` certainly meet at most at a point, so that their polygons do not
    overlap. False says nothing.

    >>> outer_discs_apart(0.0, 0.0, 1.0, 2.0, 0.0, 1.0)
    True
    >>> outer_discs_apart(0.0, 0.0, 1.0, 1.5, 0.0, 1.0)
    False
    """
    dx = bx - ax
    dy = by - ay
    reach = ar + br
    return dx * dx + dy * dy >= reach * reach
