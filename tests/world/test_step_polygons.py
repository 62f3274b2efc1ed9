"""Polygons in ``World.step``: bodies and terrain among rectangles and masks, every
response, against the exact reference event for event; no overlap left; the same
answers every run."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from collide2d import Circle, Mask, PlacedMask, PlacedPolygon, Polygon, Rect, World, overlaps
from collide2d.world import step as step_module
from tests.world.test_step_properties import (
    equals_the_exact_reference,
    steps_leave_no_stopping_overlap,
)

CELL = 10
OUTLINES = [
    [(0, 0), (6, 0), (0, 6)],  # a right triangle: a 45-degree face
    [(0, 4), (8, 0), (8, 4)],  # a ramp
    [(2, 0), (4, 0), (6, 2), (6, 4), (4, 6), (2, 6), (0, 4), (0, 2)],  # an octagon
    [(3, 0), (6, 3), (3, 6), (0, 3)],  # a box turned by a quarter of a right angle
    [(0, 0), (4, 1), (5, 5), (1, 4)],  # a leaning parallelogram
    # ten vertices: past the eight whose working arrays the step makes on the stack
    [(2, 0), (4, 0), (5, 1), (6, 3), (5, 5), (4, 6), (2, 6), (1, 5), (0, 3), (1, 1)],
]
"""Outlines of small integers (their places stay exact in floats)."""


@st.composite
def polygon_scenes(draw, count=(2, 6), speed=12, stopping=False, circles=False):
    """Bodies in separate cells of a 4 x 4 grid of 10 x 10 (none overlap at the start):
    polygons of :data:`OUTLINES` anchored at integer places, and rectangles (or, with
    ``circles``, rectangles and circles of integer radii), most moving at integer
    speeds up to ``speed``, some walls (infinite mass, still); every response by two
    groups."""
    n = draw(st.integers(*count))
    cells = draw(st.lists(st.integers(0, 15), min_size=n, max_size=n, unique=True))
    world = World()
    names = ("slide", "touch", "bounce") if stopping else step_module.RESPONSES
    for group_a, group_b in (("a", "a"), ("a", "b"), ("b", "b")):
        world.set_response(group_a, group_b, draw(st.sampled_from(names)),
                           restitution=draw(st.sampled_from([0.0, 0.5, 1.0])))  # fmt: skip
    for index, cell in enumerate(cells):
        x0, y0 = (cell % 4) * CELL, (cell // 4) * CELL
        wall = draw(st.integers(0, 3)) == 0
        number = st.integers(-speed, speed)
        velocity = (0, 0) if wall else (draw(number), draw(number))
        mass = math.inf if wall else draw(st.sampled_from([1.0, 2.0, 0.5]))
        if draw(st.booleans()):
            outline = draw(st.sampled_from(OUTLINES))
            if draw(st.booleans()):
                outline = [(-y, x) for x, y in outline]  # a quarter turn
            shape: object = PlacedPolygon(Polygon(outline), x0 + 2 + draw(st.integers(0, 2)),
                                          y0 + 2 + draw(st.integers(0, 2)))  # fmt: skip
            if draw(st.booleans()):  # anchored on its outline's box instead
                xs, ys = zip(*outline, strict=True)
                shape = PlacedPolygon(Polygon([(x - min(xs), y - min(ys)) for x, y in outline]),
                                      x0 + 1, y0 + 1)  # fmt: skip
        elif circles and draw(st.booleans()):
            r = draw(st.integers(1, 4))
            shape = Circle(x0 + 1 + r + draw(st.integers(0, 8 - 2 * r)), y0 + 5, r)
        else:
            shape = Rect(x0 + 1, y0 + 1, draw(st.integers(1, 8)), draw(st.integers(1, 8)))
        world.add(index, shape, velocity=velocity, mass=mass, group=draw(st.sampled_from("ab")))
    return world


@settings(suppress_health_check=[HealthCheck.too_slow], max_examples=80, deadline=None)
@given(polygon_scenes(), st.sampled_from([1.0, 2.0]))
def test_polygon_scenes_equal_the_exact_reference(world, dt):
    """The exact swept separating-axis test (``tests/world/step_reference.py``, in
    rational arithmetic) decides when a polygon meets a rectangle or a polygon, along
    which edge's normal, and what every response then does: the step makes the same
    contacts, in the same order, at the same times, and leaves every body where the
    reference does."""
    equals_the_exact_reference(world, dt)


AROUND = [(x, y) for x in (0, 12, 24) for y in (0, 12, 24) if (x, y) != (12, 12)]
"""Slots of 10 x 10 around a polygon at (12, 12)."""


@st.composite
def around_a_polygon(draw, speed=12, circles=False):
    """A polygon of :data:`OUTLINES` in the middle (terrain, or a body of its own),
    added among one to five rectangles and polygons (with ``circles``, circles of
    integer radii too) in the slots around it, most moving towards it at integer
    speeds up to ``speed`` (and 3 across)."""
    world = World()
    for group_a, group_b in (("a", "a"), ("a", "b"), ("b", "b")):
        world.set_response(group_a, group_b, draw(st.sampled_from(step_module.RESPONSES)),
                           restitution=draw(st.sampled_from([0.0, 0.5, 1.0])))  # fmt: skip
    slots: list = draw(st.lists(st.sampled_from(AROUND), min_size=1, max_size=5, unique=True))
    slots.insert(draw(st.integers(0, len(slots))), None)  # (where the middle one is added)
    for index, slot in enumerate(slots):
        outline = [(x + 12 + 2 * (slot is None), y + 12 + 2 * (slot is None))
                   for x, y in draw(st.sampled_from(OUTLINES))]  # fmt: skip
        if slot is None:
            still = draw(st.booleans())
            world.add("middle", PlacedPolygon(Polygon(outline), 0, 0),
                      velocity=(0, 0) if still else (draw(st.integers(-3, 3)), 0),
                      mass=math.inf if still else 4.0, group=draw(st.sampled_from("ab")))  # fmt: skip
            continue
        x0, y0 = slot
        towards = (int(np.sign(12 - x0)), int(np.sign(12 - y0)))
        velocity = [d * draw(st.integers(0, speed)) + draw(st.integers(-3, 3)) for d in towards]
        wall = draw(st.integers(0, 4)) == 0
        if circles and draw(st.integers(0, 2)) > 0:  # (two in three)
            shape: object = Circle(x0 + 5, y0 + 5, draw(st.integers(1, 4)))
        elif draw(st.booleans()):
            shape = PlacedPolygon(Polygon([(x - 12 + x0, y - 12 + y0) for x, y in outline]))
        else:
            shape = Rect(x0 + 1, y0 + 1, draw(st.integers(1, 6)), draw(st.integers(1, 6)))
        world.add(index, shape, velocity=(0, 0) if wall else velocity,
                  mass=math.inf if wall else draw(st.sampled_from([1.0, 2.0, 0.5])),
                  group=draw(st.sampled_from("ab")))  # fmt: skip
    return world


@settings(suppress_health_check=[HealthCheck.too_slow], max_examples=60, deadline=None)
@given(around_a_polygon(), st.sampled_from([1.0, 2.0]))
def test_scenes_around_a_polygon_equal_the_exact_reference(world, dt):
    """Rectangles and polygons thrown at a polygon from every side (its faces at 45
    degrees, corners first, faces flat): the step's contacts are the reference's."""
    equals_the_exact_reference(world, dt)


@settings(suppress_health_check=[HealthCheck.too_slow], max_examples=60, deadline=None)
@given(polygon_scenes(circles=True), st.sampled_from([1.0, 2.0]))
def test_circles_among_polygons_equal_the_exact_reference(world, dt):
    """A circle meets a polygon when its centre first enters the outline grown by its
    radius, along the normal from the outline's nearest point (the reference in
    rational arithmetic, square roots to 2**-200): the step's contacts, places and
    velocities are the reference's, circles, rectangles and polygons mixed."""
    equals_the_exact_reference(world, dt)


@settings(suppress_health_check=[HealthCheck.too_slow], max_examples=60, deadline=None)
@given(around_a_polygon(circles=True), st.sampled_from([1.0, 2.0]))
def test_circles_thrown_at_a_polygon_equal_the_exact_reference(world, dt):
    """Circles (and rectangles and polygons) thrown at a polygon from every side, at
    its faces and its corners: the step's contacts are the reference's."""
    equals_the_exact_reference(world, dt)


@settings(suppress_health_check=[HealthCheck.too_slow], max_examples=60, deadline=None)
@given(polygon_scenes(speed=400, stopping=True, circles=True), st.floats(0.01, 4.0))
def test_no_stopping_pair_overlaps_after_steps_with_circles_and_polygons(world, dt):
    """Circles, polygons and rectangles up to 100 times their size a step, stopping
    pairs only: none overlaps after any of three steps (by ``collide2d.overlaps``,
    exact for a circle and a polygon)."""
    steps_leave_no_stopping_overlap(world, dt)


@settings(suppress_health_check=[HealthCheck.too_slow], max_examples=60, deadline=None)
@given(polygon_scenes(speed=400, stopping=True), st.floats(0.01, 4.0))
def test_no_stopping_pair_overlaps_after_steps_with_polygons(world, dt):
    """Polygons and rectangles up to 100 times their size a step, stopping pairs only:
    none overlaps after any of three steps, and nothing is reported crushed."""
    steps_leave_no_stopping_overlap(world, dt)


def _slope_world() -> World:
    world = World()
    # a 30-degree slope down to the right: y = x * tan(30 deg) below (0, 0)
    tan = math.tan(math.radians(30))
    world.add("slope", Polygon([(0.0, 0.0), (100.0, 100.0 * tan), (0.0, 100.0 * tan)]),
              mass=math.inf)  # fmt: skip
    world.add("box", Rect(10.0, 10.0 * tan - 4.0 - 1e-9, 4.0, 4.0))
    return world


def test_a_box_on_a_slope_slides_down_it_under_gravity():
    """A box resting on a 30-degree slope, with gravity: each step it slides along the
    face (the normal's part of its velocity removed), never into it and never off it."""
    world = _slope_world()
    tan = math.tan(math.radians(30))
    for _ in range(20):
        result = world.step(0.05, gravity=(0.0, 100.0))
        assert result.overlaps == []
    x, y, _, h = world.shape("box")
    vx, vy = world.velocity("box")
    assert x > 10.0 and vx > 0.0  # moved down the slope, to the right
    assert vy == pytest.approx(vx * tan, rel=1e-6)  # along the face
    # its lower left corner on the face: above it by no more than rounding
    assert 0.0 <= x * tan - (y + h) <= 1e-6


def test_a_turned_crate_bounces_off_a_wall_along_the_face_it_meets():
    """A box turned by 45 degrees meets a wall corner first: its vertex against the
    wall's face, the normal is the wall's, and a bounce reverses its x speed only."""
    world = World()
    world.set_response("default", "default", "bounce", restitution=1.0)
    world.add("wall", Rect(20.0, -50.0, 5.0, 100.0), mass=math.inf)
    diamond = Polygon([(0.0, -2.0), (2.0, 0.0), (0.0, 2.0), (-2.0, 0.0)])
    world.add("crate", PlacedPolygon(diamond, 10.0, 0.0), velocity=(4.0, 1.0))
    result = world.step(4.0)
    [contact] = result.contacts
    assert (contact.time, contact.a, contact.b) == (2.0, "wall", "crate")
    assert tuple(contact.normal) == (1.0, 0.0)  # from the crate toward the wall
    assert tuple(contact.point) == (20.0, 2.0)
    assert tuple(world.velocity("crate")) == (-4.0, 1.0)
    assert tuple(world.shape("crate")[1:]) == (10.0, 4.0)  # 18 at 2, back to 10 at 4


def test_two_polygon_bodies_share_a_slide_by_their_masses():
    """Two triangles meeting face to face (their hypotenuses, 8 apart along x + y,
    closing at 8 a second), the light one three times as fast as the heavy one: a
    slide leaves them the same speed along the normal, the momentum's (zero here)."""
    world = World()
    left = Polygon([(0.0, 0.0), (4.0, 0.0), (0.0, 4.0)])  # hypotenuse facing +x+y
    right = Polygon([(4.0, 0.0), (4.0, 4.0), (0.0, 4.0)])  # facing -x-y
    world.add("a", PlacedPolygon(left, 0.0, 0.0), velocity=(3.0, 3.0), mass=1.0)
    world.add("b", PlacedPolygon(right, 4.0, 4.0), velocity=(-1.0, -1.0), mass=3.0)
    result = world.step(2.0)
    [contact] = result.contacts
    assert contact.response == "slide" and contact.time == 1.0
    va, vb = world.velocity("a"), world.velocity("b")
    assert va == pytest.approx(vb) and va.x == pytest.approx(0.0, abs=1e-12)
    assert not _overlap(world, "a", "b")


def _overlap(world: World, a: object, b: object) -> bool:
    from collide2d import overlaps

    return overlaps(world.shape(a), world.shape(b))


def test_a_polygon_meets_a_mask_s_pixels_as_fixed_terrain():
    """A falling triangle lands on a pixel mask's solid row and stops on it (its
    pixels are the step's fixed boxes, as for rectangles)."""
    world = World()
    pixels = np.zeros((4, 20), dtype=bool)
    pixels[2:] = True
    world.add("ground", PlacedMask(Mask.from_array(pixels), 0, 10))
    world.add("tri", PlacedPolygon(Polygon([(0.0, 0.0), (4.0, 4.0), (-4.0, 4.0)]), 10.0, 0.0),
              velocity=(0.0, 16.0))  # fmt: skip
    result = world.step(1.0)
    assert [(c.a, c.b, c.response, tuple(c.normal)) for c in result.contacts] == [
        ("ground", "tri", "slide", (0.0, 1.0))
    ]
    assert tuple(world.shape("tri")[1:]) == (10.0, 8.0) and tuple(world.velocity("tri")) == (0, 0)


def test_steps_with_polygons_are_the_same_every_run():
    """Two worlds built alike step alike, contact for contact, bit for bit."""
    worlds = []
    for _ in range(2):
        world = World()
        world.set_response("default", "default", "bounce", restitution=0.9)
        rng = np.random.default_rng(7)
        world.add("floor", Rect(-10.0, 100.0, 220.0, 10.0), mass=math.inf)
        for k in range(30):
            x, y = (rng.random(2) * 180).tolist()
            shape = PlacedPolygon(Polygon.regular(0.0, 0.0, 3.0, 3 + k % 6), x, y * 0.5)
            world.add(k, shape, velocity=tuple(rng.uniform(-30, 30, 2).tolist()))
        worlds.append(world)
    for _ in range(5):
        first, second = (w.step(0.1, gravity=(0.0, 50.0)) for w in worlds)
        assert first.contacts == second.contacts
    assert [worlds[0].shape(k) for k in range(30)] == [worlds[1].shape(k) for k in range(30)]


def test_a_ball_rolls_down_a_ramp_and_off_its_foot():
    """A ball dropped on a 45-degree ramp slides down its face (the normal the face's,
    the contact point on it), leaves it at the foot and falls on."""
    world = World()
    world.add("ball", Circle(6.0, 0.0, 1.0))
    world.add("ramp", Polygon([(0, 10), (10, 0), (10, 10)]), mass=math.inf)
    result = world.step(1.0, gravity=(0.0, 10.0))
    [contact] = result.contacts
    half = math.sqrt(0.5)
    assert contact.normal_for("ball") == (pytest.approx(-half), pytest.approx(-half))
    assert contact.point.x + contact.point.y == pytest.approx(10.0)  # on the face
    vx, vy = world.velocity("ball")
    assert vx == pytest.approx(-vy) and vx < 0.0  # along the face, down it
    ball = world.shape("ball")
    assert ball.x + ball.y == pytest.approx(10.0 - 2.0 * half)  # resting on it
    for _ in range(4):
        world.step(1.0, gravity=(0.0, 10.0))
    ball = world.shape("ball")
    assert ball.x < -1.0 and ball.y > 10.0  # past the foot, falling


@pytest.mark.parametrize("ramp_first", [True, False])
def test_a_box_walking_onto_a_ramp_s_foot_slides_up_its_face(ramp_first):
    """The box's corner meets the ramp's foot vertex to vertex: of the edges that give
    the contact at once, the face of least penetration an instant later (the ramp's
    face, which the motion meets less squarely than the box's own side) gives the
    normal, whichever body was added first: the box slides up the ramp."""
    world = World()
    world.add("floor", Rect(-20, 10, 40, 10), mass=math.inf)
    ramp = Polygon([(10, 10), (30, 0), (30, 10)])
    if ramp_first:
        world.add("ramp", ramp, mass=math.inf)
    world.add("box", Rect(4, 8, 2, 2), velocity=(8, 0))
    if not ramp_first:
        world.add("ramp", ramp, mass=math.inf)
    [contact] = world.step(1.0).contacts
    assert contact.time == 0.5 and contact.other("box") == "ramp"
    slope = math.sqrt(0.2)
    assert tuple(contact.normal_for("box")) == pytest.approx((-slope, -2 * slope))
    assert tuple(world.velocity("box")) == pytest.approx((6.4, -3.2))
    box = world.shape("box")
    assert box.x == pytest.approx(8.0 + 6.4 * 0.5) and box.bottom == pytest.approx(10 - 1.6)


@st.composite
def vertex_meets_vertex(draw):
    """A mover (a rectangle or a polygon of :data:`OUTLINES`) aimed so that one of its
    vertices reaches a vertex of a polygon at (12, 12) at t = 1/2 (unless another part
    meets first), at an integer velocity: the ties of edges that give one contact at
    once, where the face of least penetration is taken."""
    world = World()
    world.set_response("default", "default", draw(st.sampled_from(["slide", "touch", "bounce"])))
    fixed = [(x + 12, y + 12) for x, y in draw(st.sampled_from(OUTLINES))]
    if draw(st.booleans()):
        fixed = [(24 - y + 12, x) for x, y in fixed]  # turned a quarter, still near
    world.add("obstacle", Polygon(fixed), mass=math.inf)
    vx, vy = draw(st.integers(-12, 12)), draw(st.integers(-12, 12))
    assume((vx, vy) != (0, 0))
    target = draw(st.sampled_from(fixed))
    if draw(st.booleans()):
        w, h = draw(st.integers(1, 6)), draw(st.integers(1, 6))
        corner = draw(st.sampled_from([(0, 0), (w, 0), (w, h), (0, h)]))
        x0 = target[0] - corner[0] - vx * 0.5
        y0 = target[1] - corner[1] - vy * 0.5
        mover: object = Rect(x0, y0, w, h)
    else:
        outline = draw(st.sampled_from(OUTLINES))
        corner = draw(st.sampled_from(outline))
        x0 = target[0] - corner[0] - vx * 0.5
        y0 = target[1] - corner[1] - vy * 0.5
        mover = PlacedPolygon(Polygon(outline), x0, y0)
    assume(not overlaps(mover, world.shape("obstacle")))  # type: ignore[arg-type]
    world.add("mover", mover, velocity=(vx, vy))
    return world


@settings(suppress_health_check=[HealthCheck.too_slow], max_examples=150, deadline=None)
@given(vertex_meets_vertex())
def test_vertex_meeting_vertex_equals_the_exact_reference(world):
    """Where a mover's vertex meets an obstacle's vertex, the step takes the reference's
    edge (the least facing the motion, then the obstacle's, then the first)."""
    equals_the_exact_reference(world, 1.0)


@settings(suppress_health_check=[HealthCheck.too_slow], max_examples=40, deadline=None)
@given(
    st.floats(-0.5, 0.5),
    st.lists(
        st.tuples(st.sampled_from(["rect", "circle", "polygon"]), st.floats(-300, 300),
                  st.floats(1e3, 1e7), st.floats(-50, 50)),
        min_size=1, max_size=12,
    ),
)  # fmt: skip
def test_fast_bodies_never_tunnel_through_a_thin_slanted_polygon(angle, bullets):
    """Rectangles, circles and polygons at up to 10^7 units a second against a wall
    0.02 thick turned by up to half a radian, ``touch``: every one stops at the wall,
    on its own side, none inside it."""
    world = World()
    world.set_response("bullet", "wall", "touch")
    world.set_response("bullet", "bullet", "cross")
    wall = PlacedPolygon.box(100.0, 0.0, 0.02, 2000.0, angle)
    world.add("wall", wall, mass=math.inf, group="wall")
    for k, (kind, y, speed, vy) in enumerate(bullets):
        if kind == "rect":  # (from x = -400: the wall is at x = -64 to 264 there)
            shape: object = Rect(-400.0, y, 0.1, 0.1)
        elif kind == "circle":
            shape = Circle(-400.0, y, 0.05)
        else:
            shape = PlacedPolygon(Polygon([(0.0, 0.0), (0.1, 0.05), (0.0, 0.1)]), -400.0, y)
        world.add(k, shape, velocity=(speed, vy), group="bullet")
    result = world.step(1.0)
    touched = {c.other("wall") for c in result.contacts if "wall" in (c.a, c.b)}
    assert touched == set(range(len(bullets)))
    ux, uy = math.cos(angle), math.sin(angle)  # across the wall, toward +x
    for k in range(len(bullets)):
        shape = world.shape(k)
        assert not overlaps(shape, wall)
        box = shape.bounding_rect if isinstance(shape, PlacedPolygon) else None
        cx, cy = (box.x, box.y) if box is not None else (shape.x, shape.y)
        assert (cx - 100.0) * ux + cy * uy < 0.0  # on its own side
