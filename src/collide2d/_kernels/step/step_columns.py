"""The columns of ``World.step``'s body rows, named once (``step_shapes`` describes
the rows; ``step_polygons`` reads a polygon's outline from them).

A body is a row of the float table ``fb`` and of the integer table ``ib``, both
:data:`FLOATS` and :data:`INTS` columns wide whatever the shapes. A polygon's outline
is kept in float rows of its own after the bodies' (``fb`` has :func:`outline_rows`
more rows per polygon than ``ib``), so that the rows every prediction reads stay as
narrow as a rectangle's: with the outline in the body's row (23 columns for a
quadrilateral), a swarm among sloped tiles spent a third longer a step fetching rows
(``docs/step.md``, "Polygons").
"""

from __future__ import annotations

# float columns
X, Y, W, H, VX, VY, MVX, MVY, TREF, INV = range(10)
FLOATS = 10
# integer columns; OUTLINE (last: the body rows' pass leaves it as the step's Python
# wrote it) is a polygon's first outline row in ``fb``
KIND, GROUP, OWNER, FIXED, FROZEN, COUNTER, NEVENTS, CX0, CX1, CY0, CY1, OUTLINE = range(12)
INTS = 12
# A polygon's outline rows: its bounds about its anchor ``X, Y`` (the least and
# greatest of its vertices' own coordinates) and its number of vertices in the first
# row's columns PX0 ... PN; vertex ``k``'s own ``x, y`` at the place ``PV + 2 * k``
# counted along the rows (row ``place // FLOATS``, column ``place % FLOATS``; even,
# so that a vertex's two coordinates share a row). Its outline in the world is each
# vertex plus the anchor, rounded once, as ``PlacedPolygon.outline`` makes it.
PX0, PY0, PX1, PY1, PN = range(5)
PV = 6


def outline_rows(most: int) -> int:
    """The float rows a polygon's outline takes when the most vertices a polygon of
    the step has is ``most`` (0: none)."""
    return 0 if most == 0 else (PV + 2 * most + FLOATS - 1) // FLOATS
