"""The step's way out of what the last step could not take apart: a body of finite
mass that the last step left in a stopping overlap (``StepResult.crushed``: a box a
lift pressed into a ceiling, or one of a jam the step gave up on) is pushed out
before the next step moves anything, by the World's push-out: the shortest of the
four axis pushes that clears every body it overlaps and would stop at, counting
those it runs into on its way, the others held where they are (``docs/world.md``,
"No teleport"). Where the step begins is then clean for it, and the step's last
resort (putting a jam back where the step began) no longer puts it back into the
overlap."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from collide2d._kernels.codes import CROSS, IGNORE
from collide2d.geometry.vec2 import Vec2
from collide2d.shapes import AnyShape, overlaps
from collide2d.world.collision import Item
from collide2d.world.contact import at, bounds

STOPPING = "slide"
"""What the push-out's filter answers for a body it must leave (any stopping name)."""


def pushed_out(world: Any, items: list[Item], codes: np.ndarray) -> list[tuple[Item, AnyShape]]:
    """Push each of ``items`` still in ``world`` and of finite mass, in turn, out of
    the bodies it overlaps whose groups' response (``codes``, the step's table of
    response codes) stops it, whatever that response. Returns ``(item, shape before)``
    for each body moved, in order, for the caller to undo them."""
    table = world._table
    moved: list[tuple[Item, AnyShape]] = []
    for item in items:
        slot = table.slot.get(item)
        if slot is None or not math.isfinite(table.mass[slot]):
            continue
        group = table.group[slot]

        def stops(_item: Item, other: Item, group: int = group) -> str | None:
            code = codes[group, table.group[table.slot[other]]]
            return STOPPING if code not in (IGNORE, CROSS) else None

        shape = world._shape_of(item)
        index = world.broadphase  # (brought up to date with the last step's moves)
        if not any(
            other != item and stops(item, other) and overlaps(shape, world._shape_of(other))
            for other in index.query_candidates(bounds(shape))
        ):
            continue  # apart already (the World moved it, or what pressed it)
        vx, vy = table.velocity[slot].tolist()
        (x, y), _normal = world._push_out(shape, Vec2(vx, vy), stops, item)
        moved.append((item, shape))
        world._place(item, at(shape, x, y))
    return moved
