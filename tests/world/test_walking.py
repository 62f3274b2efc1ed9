"""``walk``: a walker stays on the ground going down slopes (snap) and climbs small
ledges (step), and is a plain ``move`` where neither arises."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from collide2d import Circle, PlacedPolygon, Polygon, Rect, World, overlaps, walk
from collide2d.world.walking import on_ground


def _hill(world: World, rise: int, run: int) -> float:
    """A floor, a ramp down to the right of slope ``rise / run`` in three coplanar
    pieces, and a floor below; returns the x where the ramp ends."""
    world.add("top", Rect(-100, 0, 100, 10))
    x = 0.0
    for k in range(3):
        x2 = x + 16.0 * run
        world.add(
            ("ramp", k), Polygon([(x, x * rise / run), (x2, x2 * rise / run), (x2, 200), (x, 200)])
        )
        x = x2
    world.add("bottom", Rect(x, 48.0 * rise, 200, 10))
    return x


WALKERS = [
    Rect(-40, -10, 6, 10),
    Circle(-37, -3, 3),
    PlacedPolygon(Polygon.box(0, 0, 6, 10), -37, -5),
]


@settings(max_examples=40, deadline=None)
@given(
    st.sampled_from([(1, 1), (1, 2), (3, 2)]), st.sampled_from([2.0, 3.0]), st.sampled_from(WALKERS)
)
def test_snap_keeps_a_walker_on_the_ground_down_a_slope_where_move_lets_it_fly(slope, speed, body):
    rise, run = slope
    drop = speed * rise / run  # how far the slope falls under one frame's walk
    gravity = 0.5
    plain, snapped = World(cell_size=32), World(cell_size=32)
    end = _hill(plain, rise, run)
    _hill(snapped, rise, run)
    plain.add("walker", body)
    snapped.add("walker", body)
    airborne = 0
    for _ in range(400):
        shape = snapped.shape("walker")
        moved = walk(snapped, "walker", (shape.x + speed, shape.y + gravity), snap=2 * drop + 1)
        assert on_ground(moved), (shape, moved)  # never leaves the ground
        shape = plain.shape("walker")
        airborne += not on_ground(plain.move("walker", (shape.x + speed, shape.y + gravity)))
        if snapped.shape("walker").x > end + 20:
            break
    assert snapped.shape("walker").x > end + 20
    assert airborne > 10  # the plain moves hop down the slope
    for item in snapped:
        if item != "walker":
            assert not overlaps(snapped.shape("walker"), snapped.shape(item))


def test_snap_lets_a_walker_leave_a_ledge_higher_than_snap_and_never_pulls_a_jump_down():
    world = World()
    world.add("ledge", Rect(0, 0, 50, 10))
    world.add("floor", Rect(0, 40, 200, 10))
    world.add("walker", Rect(40, -10, 6, 10))
    moved = walk(world, "walker", (52, -9), snap=5)  # slides to the edge and past it
    assert moved.position == (52, -10) and on_ground(moved)
    moved = walk(world, "walker", (54, -9), snap=5)  # in the air: 40 below, no snap
    assert moved.position == (54, -9) and not on_ground(moved)
    world.update("walker", (10, -10))
    jumped = walk(world, "walker", (12, -14), snap=5)  # going up: no snap
    assert jumped.position == (12, -14)


@pytest.mark.parametrize("body", WALKERS[:1] + WALKERS[2:])
def test_step_climbs_a_ledge_lower_than_step_and_not_a_higher_one(body):
    def scene(height: float) -> World:
        world = World()
        world.add("floor", Rect(-100, 0, 300, 10))
        world.add("ledge", Rect(0, -height, 100, height))
        world.add("walker", body)
        return world

    for height, step, climbs in ((4.0, 6.0, True), (4.0, 0.0, False), (10.0, 6.0, False)):
        world = scene(height)
        for _ in range(40):
            shape = world.shape("walker")
            moved = walk(world, "walker", (shape.x + 2.0, shape.y + 1.0), step=step, snap=3.0)
        shape = world.shape("walker")
        bottom = shape.y + shape.h if isinstance(shape, Rect) else shape.bounding_rect.bottom
        assert (bottom == -height) == climbs, (height, step, shape, moved)
        assert (world.shape("walker").x > 10) == climbs
        assert not overlaps(shape, world.shape("ledge"))


def test_walk_is_a_plain_move_when_nothing_calls_for_more():
    def scene() -> World:
        world = World()
        world.add("wall", Rect(20, -50, 10, 60))
        world.add("floor", Rect(-100, 0, 300, 10))
        world.add("walker", Rect(0, -10, 6, 10))
        return world

    a, b = scene(), scene()
    for goal in ((10, -9), (30, -9), (5, -30), (0, -10)):
        assert walk(a, "walker", goal, snap=4, step=3) == b.move("walker", goal)
        assert a.shape("walker") == b.shape("walker")


def test_walk_checks_its_arguments():
    world = World()
    world.add("walker", Rect(0, 0, 1, 1))
    with pytest.raises(ValueError, match="snap and step must be >= 0"):
        walk(world, "walker", (1, 1), snap=-1)
    with pytest.raises(ValueError, match="step must be finite"):
        walk(world, "walker", (1, 1), step=math.nan)
    assert world.shape("walker") == Rect(0, 0, 1, 1)


def test_a_walker_steps_up_and_snaps_down_a_pixel_hill_that_stops_a_plain_move():
    """A smooth pixel-mask hill is a staircase of one-pixel steps: ``move`` stops at
    the first, ``walk`` steps up each and snaps down the far side."""
    from collide2d import PlacedMask
    from collide2d.demos.slopes import gentle_hill

    def scene() -> World:
        world = World()
        world.add("floor", Rect(-100, 0, 600, 10))
        world.add("hill", PlacedMask(gentle_hill(200, 40), 100, -40))
        world.add("walker", Rect(40, -24, 14, 24))
        return world

    plain, walked = scene(), scene()
    tops = []
    for _ in range(120):  # to x = 340, the floor going on to 500
        shape = walked.shape("walker")
        moved = walk(walked, "walker", (shape.x + 2.5, shape.y + 1.0), snap=6, step=4)
        after = walked.shape("walker")
        assert after.x > shape.x and on_ground(moved)  # every frame forward, on its feet
        assert not overlaps(after, walked.shape("hill"))
        tops.append(after.y)
        shape = plain.shape("walker")
        plain.move("walker", (shape.x + 2.5, shape.y + 1.0))
    assert min(tops) <= -24 - 39 and tops[-1] == -24  # over the top, back on the floor
    stuck = plain.shape("walker")
    assert stuck.y == -24 and stuck.x < 110  # the plain move stands at the hill's foot
