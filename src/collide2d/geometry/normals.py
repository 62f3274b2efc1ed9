"""Unit normals of the edges of convex outlines: one formula for every route.

The sweeps, ray casts and pushes of polygons (``collide2d.continuous.polygon``),
the World's corner contacts, :attr:`Polygon.normals
<collide2d.geometry.polygon.Polygon.normals>` and the compiled batch sweeps
(``_kernels/pairs/polygon_axes.py``, the same operations) all report these, bit for
bit.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction

__all__ = ["edge_normal", "unit_normal"]


def edge_normal(outline: Sequence[tuple[float, float]], index: int) -> tuple[float, float, float]:
    """The unit outward normal of edge ``index`` of an outline and the edge's length
    (for a segment, edge 1 is edge 0 reversed). Where the edge's coordinates differ by
    more than the floats hold, the direction is taken from exact differences."""
    n = len(outline)
    if n == 2:
        p, q = (outline[0], outline[1]) if index == 0 else (outline[1], outline[0])
    else:
        p, q = outline[index], outline[(index + 1) % n]
    ex = float(q[0] - p[0])
    ey = float(q[1] - p[1])
    length = math.hypot(ex, ey)
    if not math.isfinite(length):  # the difference overflows: scale it exactly first
        fx = Fraction(q[0]) - Fraction(p[0])
        fy = Fraction(q[1]) - Fraction(p[1])
        big = max(abs(fx), abs(fy))
        ex, ey = float(fx / big), float(fy / big)
    nx, ny = unit_normal(ex, ey)
    return nx, ny, length


def unit_normal(ex: float, ey: float) -> tuple[float, float]:
    """The unit right-hand normal ``(ey, -ex) / |e|`` of a finite nonzero vector: the
    vector first divided by its larger coordinate's magnitude (one rounding), so that
    parallel edges of any lengths get the same normal, bit for bit (the pieces of one
    ramp), then divided by the correctly rounded root of its squared length. The batch
    sweeps compute it with the same operations, so their normals equal these.

    >>> unit_normal(0.0, 4.0), unit_normal(3.0, 0.0)
    ((1.0, 0.0), (0.0, -1.0))
    >>> unit_normal(16.0, -8.0) == unit_normal(48.0, -24.0)
    True
    """
    if abs(ex) >= abs(ey):
        ux = math.copysign(1.0, ex)
        uy = ey / abs(ex)
    else:
        ux = ex / abs(ey)
        uy = math.copysign(1.0, ey)
    length = math.sqrt(ux * ux + uy * uy)
    return uy / length + 0.0, -ux / length + 0.0
