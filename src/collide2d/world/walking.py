"""A platformer's walk on top of ``World.move``: staying on the ground going down a
slope, and stepping up a small ledge.

``World.move`` is exact and knows nothing of feet: a walker going down a slope
faster than gravity pulls it leaves the ground (it falls in small hops), and a
walker meeting a step an inch high is stopped by its side like by any wall.
:func:`walk` is the usual answer, built from moves and teleports the World already
has (so it is as exact as they are, and changes nothing a plain ``move`` would not
when neither case arises).
"""

from __future__ import annotations

from collide2d.geometry import _checks
from collide2d.world.collision import Filter, Item, Movement
from collide2d.world.contact import position
from collide2d.world.world import World

GROUND = -0.5
"""A contact is ground when its normal's y is below this (up is ``-y``): floors and
slopes up to 60 degrees. A contact whose normal's y is above ``-GROUND`` is a
ceiling; anything between is a wall."""


def walk(
    world: World,
    item: Item,
    goal: tuple[float, float],
    filter: Filter | None = None,
    *,
    snap: float = 0.0,
    step: float = 0.0,
) -> Movement:
    """Move ``item`` toward ``goal`` as a walker: ``World.move``, then a step up a ledge
    and a snap down to the ground where a platformer expects them.

    Parameters
    ----------
    world, item, goal, filter
        As for :meth:`World.move <collide2d.World.move>`.
    snap : float, default 0
        Ground snapping: when the item stood on ground (a contact within ``snap``
        below it, normal as :data:`GROUND` says) and the move, not going up, ends
        in the air with ground within ``snap`` below, it is moved down onto it. This
        keeps a walker on a slope going down (choose ``snap`` above the drop of the
        steepest slope over one frame's walk), and lets it leave a ledge higher
        than ``snap``.
    step : float, default 0
        Stepping up: when the move was stopped by a wall, the same move is tried from
        up to ``step`` higher (up, across, then down as far as it went up); it is
        taken when it ends on ground and further along than the plain move.

    Returns
    -------
    Movement
        Where the item ended, and the collisions of every move made, in order.

    Examples
    --------
    >>> from collide2d import Polygon, Rect, World, walk
    >>> world = World()
    >>> world.add("slope", Polygon([(0, 0), (100, 50), (0, 50)]))  # down to the right
    'slope'
    >>> world.add("walker", Rect(10, -10, 4, 10))
    'walker'
    >>> world.move("walker", (10, 0)).position.y < 5  # lands on the slope
    True
    >>> plain = world.check("walker", (20, world.shape("walker").y + 1)).position
    >>> snapped = walk(world, "walker", (20, world.shape("walker").y + 1), snap=8)
    >>> plain.y < snapped.position.y  # the plain move leaves the slope; walk stays on it
    True
    >>> walk(world, "walker", (30, world.shape("walker").y + 1), snap=8).collisions[-1].normal.y < 0
    True
    """
    snap = _checks.real(snap, "snap")
    step = _checks.real(step, "step")
    if snap < 0.0 or step < 0.0:
        raise ValueError(f"snap and step must be >= 0, got snap={snap!r}, step={step!r}")
    start = world.shape(item)
    x0, y0 = position(start)
    gx, gy = _checks.point(goal, "goal")
    grounded = snap > 0.0 and gy >= y0 and on_ground(world.check(item, (x0, y0 + snap), filter))
    moved = world.move(item, (gx, gy), filter)
    if step > 0.0 and gx != x0 and blocked(moved, gx - x0):
        moved = _step_up(world, item, start, moved, (gx - x0, gy - y0), step, filter)
    if grounded and not on_ground(moved):
        x, y = moved.position
        probe = world.check(item, (x, y + snap), filter)
        if on_ground(probe):
            world.update(item, probe.position)
            moved = Movement(probe.position, [*moved.collisions, *probe.collisions])
    return moved


def on_ground(movement: Movement) -> bool:
    """Whether a move ended against ground: a stopping contact whose normal's y is
    below :data:`GROUND`."""
    return any(col.response != "cross" and col.normal[1] < GROUND for col in movement.collisions)


def blocked(movement: Movement, dx: float) -> bool:
    """Whether a move going ``dx`` across met a wall that faces it."""
    return any(
        col.response != "cross" and col.normal[0] * dx < 0.0 and abs(col.normal[1]) <= -GROUND
        for col in movement.collisions
    )


def _step_up(
    world: World,
    item: Item,
    start: object,
    moved: Movement,
    delta: tuple[float, float],
    step: float,
    filter: Filter | None,
) -> Movement:
    """The move tried again from up to ``step`` higher; ``moved`` when that does not
    end on ground further along (the world as ``moved`` left it)."""
    after = world.shape(item)
    x0, y0 = position(start)  # type: ignore[arg-type]
    world.update(item, start)  # type: ignore[arg-type]
    up = world.move(item, (x0, y0 - step), filter)
    ux, uy = up.position
    over = world.move(item, (ux + delta[0], uy + delta[1]), filter)
    ox, oy = over.position
    down = world.move(item, (ox, oy + (y0 - uy)), filter)
    further = (down.position[0] - moved.position[0]) * delta[0] > 0.0
    if further and (on_ground(down) or on_ground(over)):
        return Movement(down.position, [*up.collisions, *over.collisions, *down.collisions])
    world.update(item, after)
    return moved
