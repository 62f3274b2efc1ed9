"""What ``World.step`` cannot keep apart is reported, never silent: ``StepResult.overlaps``
(every stopping pair that ends a step overlapping, checked against every pair on
dense random scenes with kinematic bodies) and ``crushed``; a crushed body is pushed
out at the start of the next step (``world/step_recover.py``)."""

from __future__ import annotations

import math

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from collide2d import Circle, Mask, PlacedMask, Rect, World, overlaps
from tests.world.test_step_properties import immovable, stopping_overlaps

RESPONSES = ("slide", "touch", "bounce", "cross")
CELL = 10


@st.composite
def dense_scenes(draw):
    """Up to 30 rects and circles packed in cells of 10 (sizes up to the cell), a
    third of infinite mass and half of those kinematic (a velocity of their own),
    speeds from 10 to 10,000, three groups with mixed responses; sometimes a mask.
    The step's worst case: jams everywhere, and bodies nothing can move driving
    others into walls."""
    n = draw(st.integers(6, 30))
    side = math.isqrt(n - 1) + 1
    slots = draw(st.permutations(range(side * side)))[:n]
    world = World()
    for i, group_a in enumerate("abc"):
        for group_b in "abc"[i:]:
            world.set_response(group_a, group_b, draw(st.sampled_from(RESPONSES)),
                               restitution=draw(st.sampled_from([0.0, 0.5, 1.0])))  # fmt: skip
    speed = float(10 ** draw(st.integers(1, 4)))
    component = st.floats(-speed, speed, width=32)
    for index, slot in enumerate(slots):
        x0, y0 = (slot % side) * CELL, (slot // side) * CELL
        immovable = draw(st.integers(0, 2)) == 0
        still = immovable and draw(st.booleans())
        velocity = (0.0, 0.0) if still else (draw(component), draw(component))
        mass = math.inf if immovable else draw(st.sampled_from([0.5, 1.0, 2.0]))
        group = draw(st.sampled_from("abc"))
        if still and draw(st.integers(0, 3)) == 0:
            shape = PlacedMask(
                Mask.from_array([[1, 0, 1], [1, 1, 0]]).scale((6, 4)), x0 + 2, y0 + 3
            )
            world.add(index, shape, group=group)
            continue
        if draw(st.booleans()):
            shape = Circle(x0 + 5, y0 + 5, draw(st.floats(1.0, 4.99)))
        else:
            w, h = draw(st.floats(1.0, 9.99)), draw(st.floats(1.0, 9.99))
            shape = Rect(x0 + (CELL - w) / 2, y0 + (CELL - h) / 2, w, h)
        world.add(index, shape, velocity=velocity, mass=mass, group=group)
    return world


def crushed_of(world: World, pairs: list[tuple[object, object]]) -> list[object]:
    named = {item for pair in pairs for item in pair}
    return [item for item in world if item in named and not immovable(world, item)]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(dense_scenes(), st.floats(0.01, 3.7))
def test_every_stopping_pair_left_overlapping_is_reported(world, dt):
    for _ in range(4):
        result = world.step(dt)
        assert result.overlaps == stopping_overlaps(world)
        assert result.crushed == crushed_of(world, result.overlaps)


def lift_under_a_box() -> World:
    """A lift (kinematic) rising 2 a step under a box, toward a ceiling."""
    world = World()
    world.add("ceiling", Rect(0, 0, 40, 4), mass=math.inf)
    world.add("lift", Rect(0, 20, 40, 4), velocity=(0, -2), mass=math.inf)
    world.add("box", Rect(15, 14, 6, 6))
    return world


def test_a_lift_crushing_a_box_against_a_ceiling_reports_it():
    world = lift_under_a_box()
    results = []
    for _ in range(6):
        results.append(world.step(1.0, gravity=(0, 1)))
        assert results[-1].overlaps == stopping_overlaps(world)
    # the box rides the lift up until the gap between the ceiling and the lift is
    # under its height: then the lift drives it into the ceiling
    assert [r.crushed for r in results[:5]] == [[]] * 5
    assert results[5].crushed == ["box"]
    # stopped at the ceiling, crushed, the lift going on into it (no put back)
    assert results[5].overlaps == [("lift", "box")]
    assert results[5].stats.put_back == results[5].stats.capped == 0
    assert world.shape("box").top == world.shape("ceiling").bottom


def test_a_crushed_body_is_pushed_out_before_the_next_step_moves():
    world = lift_under_a_box()
    while not world.step(1.0).crushed:
        pass
    assert overlaps(world.shape("box"), world.shape("lift"))
    world.set_velocity("lift", (0, 0))  # nothing presses it any more
    result = world.step(1.0)
    assert result.overlaps == [] and result.crushed == []
    assert stopping_overlaps(world) == []
    # the shortest way out of the lift and the ceiling: down, past the lift's bottom
    assert world.shape("box").top == world.shape("lift").bottom


def test_a_frozen_body_carried_onto_a_tile_comes_apart_next_step():
    """The case that stayed stuck for ever: a disc frozen by a ``touch``, met by a
    kinematic disc (the two passed as ``cross``), was carried onto a still tile. Now
    the frozen disc yields to the pusher, is pushed into the tile and frozen again,
    and is crushed between the two at that moment (``step_respond.yielding``)."""
    world = World()
    world.set_response("disc", "tile", "touch")
    world.set_response("disc", "kinematic", "slide")
    world.add("tile", Rect(0, 10, 40, 4), mass=math.inf, group="tile")
    world.add("disc", Circle(20, 8, 2), velocity=(0, 3), group="disc")
    world.add("pusher", Circle(20, 0, 3), velocity=(0, 6), mass=math.inf, group="kinematic")
    results = []
    for _ in range(4):
        results.append(world.step(1.0))
        assert results[-1].overlaps == stopping_overlaps(world)
        if len(results) == 1:  # stopped on the tile, not carried into it
            assert world.shape("disc").y + 2 == 10
        world.set_velocity("pusher", (0, 0))  # pressed once, then let go
    # crushed against the tile by the pusher, which goes on into it, reported
    assert results[0].overlaps == [("disc", "pusher")] and results[0].crushed == ["disc"]
    # then pushed out of the pusher (which stopped) and free
    assert [r.overlaps for r in results[1:]] == [[], [], []]
    assert not overlaps(world.shape("disc"), world.shape("tile"))


def test_a_step_that_fails_after_the_push_out_undoes_it():
    world = lift_under_a_box()
    while not world.step(1.0).crushed:
        pass
    before = world.shape("box")
    world.add("far", Circle(1e308, 0, 1), velocity=(1e308, 0))
    with pytest.raises(ValueError, match="beyond the largest float"):
        world.step(1.0)
    assert world.shape("box") == before
