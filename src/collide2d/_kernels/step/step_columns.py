"""The columns of ``World.step``'s body rows, named once (``step_shapes`` describes
the rows; ``step_polygons`` reads a polygon's outline from them).

A body is a row of the float table ``fb`` and of the integer table ``ib``. A
polygon's row has more float columns than the others: the step's rows are as wide
as :func:`width` asks for the most vertices among its polygons (a step without
polygons has :data:`FLOATS` columns, and no kernel reads past them).
"""

from __future__ import annotations

# float columns
X, Y, W, H, VX, VY, MVX, MVY, TREF, INV = range(10)
FLOATS = 10
# a polygon's float columns: its bounds about its anchor ``X, Y`` (the least and
# greatest of its vertices' own coordinates), its number of vertices, then each
# vertex's own ``x, y`` (the outline in the world is each plus the anchor, rounded
# once, as ``PlacedPolygon.outline`` makes it)
PX0, PY0, PX1, PY1, PN = range(FLOATS, FLOATS + 5)
PV = FLOATS + 5
# integer columns
KIND, GROUP, OWNER, FIXED, FROZEN, COUNTER, NEVENTS, CX0, CX1, CY0, CY1 = range(11)
INTS = 11


def width(most: int) -> int:
    """The float rows' width for polygons of up to ``most`` vertices (0: none)."""
    return FLOATS if most == 0 else PV + 2 * most
