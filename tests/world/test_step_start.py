"""Touches at time 0 resolved before the event loop (``_kernels/step/step_start.py``):
bodies pressed against walls, movers crossing them, against the exact reference."""

from __future__ import annotations

import math
from collections import Counter

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from collide2d import Circle, Rect, World, overlaps
from tests.world.step_reference import (
    JAMMED,
    ends_in_rounding,
    meets_a_faint_contact,
    meets_a_rounded_corner,
    meets_a_rounded_graze,
    reference_step,
)

WALLS = (20, 40, 60)


@st.composite
def pressed_shots(draw):
    """Shots (discs and boxes, integer places) touching walls exactly, moving into
    them, along them or away, boxes moving among them; the shots' pairs with the
    movers ``cross`` or ``ignore`` (resolved before the loop) or, now and then,
    ``slide`` (left to the loop)."""
    world = World()
    quiet = draw(st.booleans()) or draw(st.booleans())
    world.set_response("shot", "wall", "touch")
    world.set_response(
        "shot", "box", draw(st.sampled_from(["cross", "ignore"])) if quiet else "slide"
    )
    world.set_response("shot", "shot", draw(st.sampled_from(["cross", "ignore"])))
    world.set_response("box", "box", "bounce")
    world.set_response("box", "wall", draw(st.sampled_from(["bounce", "slide", "touch"])))
    for k, x in enumerate(WALLS):
        world.add(("wall", k), Rect(x, -30, 1, 60), mass=math.inf, group="wall")
    speed = st.integers(-6, 6)
    for k in range(draw(st.integers(1, 7))):
        x = draw(st.sampled_from(WALLS))
        y = draw(st.integers(-25, 25))
        left = draw(st.booleans())
        into = draw(speed)
        vx = abs(into) if left else -abs(into)
        vy = draw(speed)
        if draw(st.booleans()):
            r = draw(st.integers(1, 3))
            shape = Circle(x - r, y, r) if left else Circle(x + 1 + r, y, r)
        else:
            w, h = draw(st.integers(1, 4)), draw(st.integers(1, 4))
            shape = Rect(x - w, y, w, h) if left else Rect(x + 1, y, w, h)
        world.add(("shot", k), shape, velocity=(vx, vy), group="shot")
    lanes = draw(st.lists(st.sampled_from([8, 28, 48, 68]), max_size=3, unique=True))
    for k, x in enumerate(lanes):  # (one box a lane: none overlaps another at the start)
        box = Rect(x, draw(st.integers(-25, 25)), draw(st.integers(1, 5)), draw(st.integers(1, 5)))
        world.add(("box", k), box, velocity=(draw(speed), draw(speed)), group="box")
    return world


@settings(suppress_health_check=[HealthCheck.too_slow], max_examples=150, deadline=None)
@given(pressed_shots(), st.sampled_from([1.0, 2.0, 3.0]))
def test_pressed_shots_equal_the_exact_reference(world, dt):
    try:
        expected = reference_step(world, dt)
    except AssertionError as error:  # a jam's repeated contacts at one moment (below)
        assume("neither approaches nor starts" not in str(error) and str(error) != JAMMED)
        raise
    # As test_step_properties' comparison with the reference: a jam (a box wedged
    # between a wall and a disc that touches it) ends at the event cap in the
    # reference, in a few events in the core (the slides of one moment together), and
    # the reference's square roots, exact to 2**-200, may meet a contact that neither
    # approaches nor starts there. Found by hypothesis (two scenes of that kind).
    assume(max(Counter(c[0] for c in expected.contacts).values(), default=0) <= 3)
    result = world.step(dt)
    assume(not ends_in_rounding(expected, result.contacts, dt))
    assume(not meets_a_rounded_graze(expected, result.contacts))
    assume(not meets_a_rounded_corner(expected))
    assume(not meets_a_faint_contact(expected))
    got = [(c.a, c.b, c.response, c.started_overlapping) for c in result.contacts]
    assert got == [(c[1], c[2], c[7], c[8]) for c in expected.contacts]
    for c, w in zip(result.contacts, expected.contacts, strict=True):
        assert c.time == (0.0 if w[0] == 0 else pytest.approx(float(w[0]), abs=1e-9))
        assert tuple(c.normal) == (pytest.approx(float(w[3])), pytest.approx(float(w[4])))
    for item, (x, y) in expected.positions.items():
        shape = world.shape(item)
        assert (shape.x, shape.y) == (pytest.approx(float(x)), pytest.approx(float(y)))
        vx, vy = expected.velocities[item]
        assert tuple(world.velocity(item)) == (pytest.approx(float(vx)), pytest.approx(float(vy)))


def test_a_disc_sliding_under_a_box_along_a_wall_is_not_put_back():
    """Found by a hunt of the pressed shots against the exact reference: a disc and a
    box slid down a wall together and ended the step with the disc's centre at
    -4e-16 and the box's edge at -2, an ulp into each other. The cleanup's nudge
    started from an ulp of the disc's place (5e-32) and, doubled 36 times, never
    reached the ulp of the edges: both were put back where the step began. A nudge
    whose doublings run out now starts again from an ulp of the larger of the two
    places and sizes."""

    def scene() -> World:
        world = World()
        world.set_response("shot", "wall", "touch")
        world.set_response("shot", "box", "slide")
        world.set_response("box", "wall", "slide")
        world.add("wall", Rect(20, -30, 1, 60), mass=math.inf, group="wall")
        world.add("disc", Circle(18, -5, 2), velocity=(0, 1), group="shot")
        world.add("box", Rect(8, -14, 4, 2), velocity=(6, 4), group="box")
        return world

    world = scene()
    expected = reference_step(scene(), 3.0)
    result = world.step(3.0)
    assert result.stats.put_back == 0
    assert [(c.a, c.b) for c in result.contacts] == [(c[1], c[2]) for c in expected.contacts]
    for item, (x, y) in expected.positions.items():
        shape = world.shape(item)
        assert (shape.x, shape.y) == (pytest.approx(float(x)), pytest.approx(float(y)))
    assert not overlaps(world.shape("disc"), world.shape("box"))


def test_a_disc_riding_on_a_corner_may_cross_it_in_floats_once_rounded():
    """Found by a hunt of the pressed shots against the exact reference: a disc rode
    down with a box, touching its corner with its lowest point. Box 2 slid the disc off
    at 0.882 (no float), and exactly the disc left the corner then; in floats the two,
    each placed at 0.882 on its own, were 2e-15 inside each other, and the step
    reported a crossing. The comparison sets such a graze of a rounded body aside
    (``meets_a_rounded_graze``); the rest must agree, and the pairs that stop must not
    overlap."""

    def scene() -> World:
        world = World()
        world.set_response("shot", "shot", "cross")
        world.set_response("shot", "wall", "touch")
        world.set_response("shot", "box", "slide")
        world.add(("wall", 0), Rect(20, -30, 1, 60), mass=math.inf, group="wall")
        world.add(("shot", 0), Circle(23, -12, 2), velocity=(0, -2), group="shot")
        world.add(("shot", 1), Rect(21, -17, 2, 3), velocity=(0, -2), group="shot")
        world.add(("box", 2), Rect(28, -17, 1, 1), velocity=(-4, 1), group="box")
        return world

    expected = reference_step(scene(), 1.0)
    disc, box = ("shot", 0), ("shot", 1)
    moment = expected.contacts[0][0]
    assert [(c[1], c[2], c[7]) for c in expected.contacts] == [
        (disc, ("box", 2), "slide"),
        (("wall", 0), disc, "touch"),
        (disc, ("box", 2), "slide"),
    ]
    assert (moment, moment, disc, box) in [g[:4] for g in expected.grazes]
    assert (0, moment, disc, box) in [g[:4] for g in expected.grazes]  # (riding, until the slide)
    world = scene()
    contacts = world.step(1.0).contacts
    kept = [c for c in contacts if not meets_a_rounded_graze(expected, [c])]
    assert [(c.a, c.b, c.response) for c in kept] == [(c[1], c[2], c[7]) for c in expected.contacts]
    assert all((c.a, c.b, c.response) == (disc, box, "cross") for c in contacts if c not in kept)
    for item, (x, y) in expected.positions.items():
        shape = world.shape(item)
        assert (shape.x, shape.y) == (pytest.approx(float(x)), pytest.approx(float(y)))
    assert not overlaps(world.shape(disc), world.shape(("wall", 0)))


def test_a_row_of_shots_pressed_against_a_wall_touches_it_at_time_0_each_step():
    world = World()
    world.set_response("shot", "wall", "touch")
    world.set_response("shot", "shot", "ignore")
    world.add("wall", Rect(10, -100, 1, 200), mass=math.inf, group="wall")
    for k in range(50):
        world.add(k, Circle(9.0, -50.0 + 2 * k, 1.0), velocity=(5.0, 0.0), group="shot")
    world.add("late", Circle(0.0, 60.0, 1.0), velocity=(5.0, 0.0), group="shot")
    for _ in range(3):
        result = world.step(1.0)
    times = [(c.time, c.b) for c in result.contacts]
    assert times == [(0.0, k) for k in range(50)] + [(0.0, "late")]
    assert all(world.shape(k).x == 9.0 for k in range(50))


def test_touches_resolved_before_the_loop_are_listed_in_the_event_order():
    """The touches come out of the bodies in the bodies' order; the contacts are
    listed in the events' order (face before corner, then by the lower insertion
    number): here neither is the bodies' order, so the early contacts are sorted."""
    world = World()
    world.set_response("shot", "wall", "touch")
    world.set_response("shot", "shot", "ignore")
    world.add("w0", Rect(20, -30, 1, 60), mass=math.inf, group="wall")
    world.add("w1", Rect(40, -30, 1, 60), mass=math.inf, group="wall")
    world.add("corner", Rect(38, -32, 2, 2), velocity=(1.0, 1.0), group="shot")  # w1's corner
    world.add("on w1", Rect(38, 0, 2, 2), velocity=(1.0, 0.0), group="shot")
    world.add("on w0", Rect(18, 0, 2, 2), velocity=(1.0, 0.0), group="shot")
    expected = reference_step(world, 1.0)
    result = world.step(1.0)
    got = [(c.a, c.b) for c in result.contacts]
    assert got == [("w0", "on w0"), ("w1", "on w1"), ("w1", "corner")]
    assert got == [(c[1], c[2]) for c in expected.contacts]
    assert all(c.time == 0.0 and not c.started_overlapping for c in result.contacts)
    assert result.stats.events == 3 and result.stats.stale == 0
