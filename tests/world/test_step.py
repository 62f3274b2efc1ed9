"""``World.step``: the API and its errors, each response between every shape pair,
the rules for starting overlaps, infinite masses, arrivals at ``dt`` and masks, and
the guarantees: no overlap left, the exact reference event for event, determinism,
the Zeno guard."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from collide2d import Circle, Mask, PlacedMask, Rect, Vec2, World, overlaps
from collide2d.broadphase import UnknownKeyError
from collide2d.world import Contact, ContactArrays, StepResult, StepStats, step_cells
from collide2d.world.examples import disk_state, gas_world


def state(world: World) -> list:
    world.validate()
    return [(item, world.shape(item), world.velocity(item), world.mass(item)) for item in world]


def two(response: str, a: object, b: object, *, va=(0.0, 0.0), vb=(0.0, 0.0), mb=1.0,
        restitution: float = 1.0) -> World:  # fmt: skip
    world = World()
    world.set_response("a", "b", response, restitution=restitution)
    world.add("a", a, velocity=va, group="a")
    world.add("b", b, velocity=vb, group="b", mass=mb)
    return world


# -- the API ----------------------------------------------------------------------------------


def test_add_keeps_velocity_mass_and_group():
    world = World()
    world.add("p", Rect(0, 0, 1, 1), velocity=(2, -3), mass=2.5, group="players")
    world.add("w", Rect(5, 0, 1, 1), mass=math.inf)
    assert world.velocity("p") == Vec2(2.0, -3.0)
    assert world.mass("p") == 2.5
    assert world.velocity("w") == Vec2(0.0, 0.0)
    assert world.mass("w") == math.inf
    world.set_velocity("w", (1, 0))
    assert world.velocity("w") == Vec2(1.0, 0.0)


def test_empty_world_and_zero_dt_do_nothing():
    assert World().step() == StepResult([], StepStats())
    world = two("slide", Rect(0, 0, 1, 1), Rect(1, 0, 1, 1), va=(5, 0))
    before = state(world)
    result = world.step(0.0)
    assert result.contacts == [] and state(world) == before


def test_contacts_are_made_when_read_and_name_the_items_of_their_step():
    """``StepResult.contacts`` is built on first read; the items it names are the
    step's even if they are removed (and their slots compacted away) before."""
    world = World()
    world.add("wall", Rect(10, 0, 1, 10), mass=math.inf)
    for k in range(100):
        world.add(k, Rect(0, 20.0 * k + 20.0, 1, 1))  # never met; removed below
    world.add("box", Rect(0, 0, 2, 2), velocity=(4, 0))
    result = world.step(3.0)
    assert result._contacts is None  # nothing made yet
    for k in range(100):
        world.remove(k)  # compacts the table: "box" moves to another slot
    world.add("late", Rect(50, 50, 1, 1))
    contacts, stats = result
    assert [(c.a, c.b, c.time, c.normal) for c in contacts] == [
        ("wall", "box", 2.0, Vec2(1.0, 0.0))
    ]
    assert result.contacts is contacts and result[0] is contacts and result[1] is stats
    assert len(result) == 2 and stats.events == 1 and "1 contacts" in repr(result)
    assert result == StepResult(list(contacts), stats) and result != (contacts, stats)


def test_contacts_name_their_items_after_those_items_are_removed():
    # One removal leaves the table's slots where they were (its row emptied in place):
    # the contact read later still names the removed items.
    world = World()
    world.add("wall", Rect(10, 0, 1, 10), mass=math.inf)
    world.add("box", Rect(0, 0, 2, 2), velocity=(4, 0))
    result = world.step(3.0)
    world.remove("box")
    world.remove("wall")
    assert [(c.a, c.b) for c in result.contacts] == [("wall", "box")]


@pytest.mark.parametrize(
    ("call", "error", "word"),
    [
        (lambda w: w.add("new", Rect(0, 0, 1, 1), velocity=(math.nan, 0)), ValueError, "velocity"),
        (lambda w: w.add("new", Rect(0, 0, 1, 1), velocity=(0, math.inf)), ValueError, "velocity"),
        (lambda w: w.add("new", Rect(0, 0, 1, 1), velocity=(1, 2, 3)), TypeError, "velocity"),
        (lambda w: w.add("new", Rect(0, 0, 1, 1), mass=0), ValueError, "mass"),
        (lambda w: w.add("new", Rect(0, 0, 1, 1), mass=-1.0), ValueError, "mass"),
        (lambda w: w.add("new", Rect(0, 0, 1, 1), mass=math.nan), ValueError, "mass"),
        (lambda w: w.add("new", Rect(0, 0, 1, 1), mass=-math.inf), ValueError, "mass"),
        (lambda w: w.add("new", Rect(0, 0, 1, 1), group=[1]), TypeError, "group"),
        (lambda w: w.set_velocity("a", (math.nan, 0)), ValueError, "velocity"),
        (lambda w: w.set_velocity("nobody", (1, 0)), UnknownKeyError, "nobody"),
        (lambda w: w.velocity("nobody"), UnknownKeyError, "nobody"),
        (lambda w: w.mass("nobody"), UnknownKeyError, "nobody"),
        (lambda w: w.set_response("a", "b", "stick"), ValueError, "name"),
        (lambda w: w.set_response("a", "b", "bounce", restitution=1.5), ValueError, "restitution"),
        (lambda w: w.set_response("a", "b", "bounce", restitution=-0.1), ValueError, "restitution"),
        (lambda w: w.set_response("a", "b", "bounce", restitution=math.nan), ValueError, "restitution"),
        (lambda w: w.set_response([], "b", "slide"), TypeError, "group_a"),
        (lambda w: w.step(-1.0), ValueError, "dt"),
        (lambda w: w.step(math.nan), ValueError, "dt"),
        (lambda w: w.step(math.inf), ValueError, "dt"),
        (lambda w: w.step(1.0, event_cap=0), ValueError, "event_cap"),
        (lambda w: w.set_velocity("m", (1, 0)), ValueError, "velocity"),
        (lambda w: w.add("m2", PlacedMask(Mask((2, 2), fill=True), 0, 9), velocity=(0, 1)), ValueError, "velocity"),
    ],
)  # fmt: skip
def test_bad_input_names_the_argument_and_changes_nothing(call, error, word):
    world = two("bounce", Rect(0, 0, 1, 1), Circle(5, 0, 1), va=(1, 0), restitution=0.5)
    world.add("m", PlacedMask(Mask((4, 1), fill=True), 0, 10))
    before = state(world)
    table = world._responses_table()[0].copy()
    with pytest.raises(error, match=word):
        call(world)
    assert state(world) == before
    assert (world._responses_table()[0] == table).all()
    assert [c.time for c in world.step(10.0).contacts] == [3.0]  # the world still steps


def test_contact_records_are_immutable():
    contact = two("slide", Rect(0, 0, 1, 1), Rect(3, 0, 1, 1), va=(1, 0)).step(5.0).contacts[0]
    assert isinstance(contact, Contact)
    with pytest.raises(AttributeError):
        contact.time = 0.0  # type: ignore[misc]


# -- responses --------------------------------------------------------------------------------


def test_slide_against_a_wall_keeps_the_tangential_velocity():
    world = two("slide", Rect(0, 0, 2, 2), Rect(10, -5, 2, 20), va=(4, 1), mb=math.inf)
    (contact,) = world.step(3.0).contacts
    assert contact[:4] == (2.0, "a", "b", Vec2(-1.0, 0.0))
    assert contact.response == "slide" and not contact.started_overlapping
    assert world.shape("a") == Rect(8.0, 3.0, 2.0, 2.0)
    assert world.velocity("a") == Vec2(0.0, 1.0)
    assert world.shape("b") == Rect(10, -5, 2, 20)


def test_slide_between_equal_masses_is_perfectly_inelastic():
    world = two("slide", Rect(0, 0, 1, 1), Rect(3, 0, 1, 1), va=(2, 0))
    world.step(2.0)
    assert world.velocity("a") == world.velocity("b") == Vec2(1.0, 0.0)
    assert world.shape("a") == Rect(3.0, 0, 1, 1) and world.shape("b") == Rect(4.0, 0, 1, 1)


@settings(max_examples=150, deadline=None)
@given(st.integers(-20, 20), st.integers(-20, 20), st.integers(1, 4), st.integers(1, 6),
       st.sampled_from([0.5, 1.0, 3.0, 7.25]), st.sampled_from(["wall", "rest", "meet"]))  # fmt: skip
def test_a_head_on_slide_leaves_no_dust_to_meet_again(dx, dy, r, big, speed, other):
    """Along the line of centres, a slide leaves the normal speed exactly: against a
    wall (or a body coming at the same speed) no velocity at all, not the 1e-31 that
    rounding left and that met the wall again later in the step."""
    assume(math.hypot(dx, dy) > r + big + 0.5)
    va = (-dx * speed, -dy * speed)
    vb = {"wall": (0.0, 0.0), "rest": (0.0, 0.0), "meet": (dx * speed, dy * speed)}[other]
    mb = math.inf if other == "wall" else 1.0
    world = two("slide", Circle(5 + dx, 15 + dy, r), Circle(5, 15, big), va=va, vb=vb, mb=mb)
    contacts = world.step(3.0).contacts
    assert len(contacts) == 1, contacts
    if other == "rest":
        assert world.velocity("a") == world.velocity("b")
    else:
        assert world.velocity("a") == Vec2(0.0, 0.0)
        assert world.velocity("b") == Vec2(0.0, 0.0)


def test_elastic_bounce_exchanges_equal_masses_and_reflects_off_walls():
    world = two("bounce", Circle(0, 0, 1), Circle(4, 0, 1), va=(1, 0))
    world.step(3.0)
    assert world.velocity("a") == Vec2(0.0, 0.0) and world.velocity("b") == Vec2(1.0, 0.0)
    wall = two("bounce", Circle(0, 0, 1), Rect(4, -5, 1, 10), va=(2, 1), mb=math.inf)
    (contact,) = wall.step(2.0).contacts
    assert contact.time == 1.5 and contact.normal == Vec2(-1.0, 0.0)
    assert wall.velocity("a") == Vec2(-2.0, 1.0)
    assert wall.shape("a") == Circle(2.0, 2.0, 1)


def test_bounce_with_restitution_shares_by_inverse_mass():
    world = two("bounce", Circle(0, 0, 1), Circle(4, 0, 1), va=(3, 0), mb=2.0, restitution=0.5)
    world.step(1.0)
    # momentum 3, relative speed after -0.5 * 3: va = 0.5, vb = 1.25... checked by the laws:
    va, vb = world.velocity("a").x, world.velocity("b").x
    assert va + 2.0 * vb == pytest.approx(3.0)
    assert vb - va == pytest.approx(1.5)


def test_touch_stops_both_for_the_rest_of_the_step_and_keeps_velocities():
    world = two("touch", Rect(0, 0, 1, 1), Circle(5, 0.5, 1), va=(1, 0), vb=(-1, 0))
    (contact,) = world.step(4.0).contacts
    assert contact.time == 1.5 and contact.response == "touch"
    assert world.shape("a") == Rect(1.5, 0, 1, 1) and world.shape("b") == Circle(3.5, 0.5, 1)
    assert world.velocity("a") == Vec2(1.0, 0.0) and world.velocity("b") == Vec2(-1.0, 0.0)


def test_a_body_a_touch_froze_is_not_predicted_again_against_walls():
    # A disc pressed against a wall (touching it, its velocity into it): predicted
    # once against the wall at the start; frozen at time 0 by the touch, it is not
    # predicted against the wall again (neither moves again in the step: they never
    # meet), and it still meets what moves (here a box that crosses it at 0.5).
    world = World()
    world.set_response("disc", "wall", "touch")
    world.add("wall", Rect(10, 0, 1, 20), mass=math.inf, group="wall")
    world.add("disc", Circle(9, 5, 1), velocity=(5, 0), group="disc")
    result = world.step(1.0)
    assert [(c.a, c.b, c.time, c.response) for c in result.contacts] == [
        ("wall", "disc", 0.0, "touch")
    ]
    assert (result.stats.events, result.stats.predictions) == (1, 1)
    assert world.shape("disc") == Circle(9, 5, 1) and world.velocity("disc") == Vec2(5, 0)
    world.set_response("disc", "box", "cross")
    world.set_response("box", "wall", "ignore")
    world.add("box", Rect(7, -1.5, 3, 3), velocity=(0, 10), group="box")
    result = world.step(1.0)
    assert [(c.a, c.b, c.time, c.response) for c in result.contacts] == [
        ("wall", "disc", 0.0, "touch"), ("disc", "box", 0.25, "cross")
    ]  # fmt: skip


def test_cross_is_reported_once_and_changes_nothing():
    world = two("cross", Rect(0, 0, 1, 1), Rect(3, 0, 1, 1), va=(2, 0))
    result = world.step(4.0)
    assert [(c.time, c.response) for c in result.contacts] == [(1.0, "cross")]
    assert world.shape("a") == Rect(8.0, 0, 1, 1) and world.velocity("a") == Vec2(2.0, 0.0)
    assert [c.response for c in world.step(1.0).contacts] == []  # apart again


def test_ignore_reports_nothing():
    world = two("ignore", Rect(0, 0, 1, 1), Rect(3, 0, 1, 1), va=(2, 0))
    assert world.step(4.0).contacts == []
    assert world.shape("a") == Rect(8.0, 0, 1, 1)


def test_set_response_before_or_after_add_last_call_wins():
    world = World()
    world.set_response("x", "y", "touch")
    world.add(1, Rect(0, 0, 1, 1), velocity=(1, 0), group="x")
    world.add(2, Rect(2, 0, 1, 1), group="y")
    world.set_response("y", "x", "cross")
    assert [c.response for c in world.step(2.0).contacts] == ["cross"]


def test_default_response_is_slide():
    world = World()
    world.add(1, Rect(0, 0, 1, 1), velocity=(1, 0))
    world.add(2, Rect(2, 0, 1, 1), group="other", mass=math.inf)
    assert [c.response for c in world.step(2.0).contacts] == ["slide"]


@pytest.mark.parametrize("response", ["slide", "touch", "bounce", "cross"])
@pytest.mark.parametrize(
    "shape",
    [Rect(10, -1, 2, 2), Circle(11, 0, 1), PlacedMask(Mask((2, 2), fill=True), 10, -1)],
    ids=["rect", "circle", "mask"],
)
@pytest.mark.parametrize("mover", [Rect(0, -1, 2, 2), Circle(1, 0, 1)], ids=["rect", "circle"])
def test_every_response_between_every_shape_pair(response, shape, mover):
    world = two(response, mover, shape, va=(4, 0), mb=math.inf)
    contacts = world.step(4.0).contacts
    assert [(c.time, c.response, c.normal) for c in contacts] == [(2.0, response, Vec2(-1.0, 0.0))]
    assert contacts[0].point.x == 10.0
    moved = world.shape("a")
    if response == "cross":
        assert moved.x == mover.x + 16.0
    elif response == "bounce":  # reflected at 2, back where it began at 4
        assert moved.x == mover.x and world.velocity("a") == Vec2(-4.0, 0.0)
    else:
        assert moved.x == mover.x + 8.0 and not overlaps(moved, world.shape("b"))


def test_arrival_exactly_at_dt_is_not_a_contact():
    world = two("slide", Rect(0, 0, 2, 2), Rect(10, 0, 2, 2), va=(4, 0), mb=math.inf)
    assert world.step(2.0).contacts == []
    assert world.shape("a") == Rect(8.0, 0, 2, 2)
    (contact,) = world.step(1.0).contacts  # touching, approaching: a contact at 0
    assert contact.time == 0.0 and not contact.started_overlapping


def test_contacts_are_in_time_order_and_velocities_persist():
    world = World()
    world.set_response("ball", "wall", "bounce")
    world.add("left", Rect(-1, -10, 1, 20), group="wall", mass=math.inf)
    world.add("right", Rect(10, -10, 1, 20), group="wall", mass=math.inf)
    world.add("ball", Circle(5, 0, 1), velocity=(8, 0), group="ball")
    contacts = world.step(5.0).contacts
    times = [c.time for c in contacts]
    assert times == [0.5, 1.5, 2.5, 3.5, 4.5]
    assert world.velocity("ball") == Vec2(-8.0, 0.0)


# -- starting overlaps, infinite masses, masks --------------------------------------------------


def test_started_overlap_is_pushed_apart_by_inverse_mass_at_time_zero():
    world = two("slide", Rect(0, 0, 4, 4), Rect(3, 1, 4, 4), mb=3.0)
    (contact,) = world.step(1.0).contacts
    assert contact.time == 0.0 and contact.started_overlapping
    assert contact.normal == Vec2(-1.0, 0.0)  # least penetration: 1 along x
    assert world.shape("a") == Rect(-0.75, 0, 4, 4) and world.shape("b") == Rect(3.25, 1, 4, 4)


def test_started_overlap_with_a_wall_moves_only_the_body():
    world = World()
    world.add("wall", Rect(0, 0, 10, 10), mass=math.inf)
    world.add("ball", Circle(9.5, 5, 1), velocity=(-1, 0))
    world.update("ball", Circle(9.5, 5, 1))
    (contact,) = world.step(1.0).contacts
    assert contact.started_overlapping and contact.normal == Vec2(-1.0, 0.0)
    assert world.shape("wall") == Rect(0, 0, 10, 10)
    assert world.shape("ball").x >= 11.0 and not overlaps(world.shape("ball"), Rect(0, 0, 10, 10))
    assert world.velocity("ball") == Vec2(0.0, 0.0)


def test_a_body_pushed_out_of_an_overlap_meets_what_is_near_its_new_place():
    # The push moves the box 3 up, out of the cells it covered (cells of about a
    # small body's size); a bullet along y = -2 meets it only there. Its cells were
    # once left as they were, and the bullet flew through (found on the bullets scene).
    world = World()
    world.set_response("bullet", "box", "cross")
    world.add("wall", Rect(0, 1, 4, 10), mass=math.inf)
    world.add("box", Rect(0, 0, 4, 4), velocity=(0, 0.01), group="box")
    world.add("bullet", Circle(-10, -2, 0.25), velocity=(20, 0), group="bullet")
    for k in range(200):  # small bodies off the bullet's path: cells of 1
        world.add(k, Circle(6 + k % 20 * 0.5, 5 + k // 20, 0.25), velocity=(0, 0.01))
    first, hit = world.step(1.0).contacts
    assert (first.a, first.b, first.started_overlapping) == ("wall", "box", True)
    assert world.shape("box").y == -3.0  # slid: its speed into the wall removed
    assert (hit.a, hit.b, hit.response) == ("box", "bullet", "cross")
    assert hit.time == pytest.approx(9.75 / 20)


def test_the_stats_name_the_grid_the_core_used():
    # Cells three quarters of twice the moving bodies' median extent, rounded up to a
    # power of 2 ** (1/4), the first a cell before a block of 8 cells where the region
    # they reach starts (step_cells); none when nothing moves.
    world = World()
    world.add("ball", Circle(0, 0, 1), velocity=(0.1, 0))
    stats = world.step(1.0).stats
    cell = 2.0**1.75  # 3 asked
    assert (stats.cell_size, stats.grid_origin) == (cell, (-9 * cell, -9 * cell))
    world.add("other", Circle(0, 0, 1.25), velocity=(0.1, 0))
    world.remove("ball")
    assert world.step(1.0).stats.cell_size == pytest.approx(4.0)  # 3.75 asked
    still = World()
    still.add("wall", Rect(0, 0, 1, 1), mass=math.inf)
    assert still.step(1.0).stats.cell_size == 0.0


@pytest.mark.parametrize(
    ("area_fraction", "cell"), [(0.65, 2.0**1.25), (0.4, 2.0**1.75), (0.05, 2.0**1.75)]
)
def test_dense_moving_bodies_get_smaller_cells(area_fraction, cell):
    # Disks of radius 1 (4 asked): three fifths where they fill seven tenths or more
    # of the region they sweep (2.4 asked, rounded down: within a few percent above
    # 2 ** 1.25), three quarters where they are sparser (3 asked).
    world = gas_world(200, area_fraction, seed=1)
    assert world.step(0.1).stats.cell_size == cell


def test_a_step_with_only_immovable_bodies_changes_nothing():
    # No body can move: the queue has no list at all (it was once read past its end,
    # and the step crashed or ran on garbage; found by hypothesis).
    world = World()
    world.set_response("a", "a", "touch")
    world.add(0, Circle(15, 25, 3.5), mass=math.inf, group="a")
    world.add(1, Rect(14, 24, 2, 1), mass=math.inf, group="a")
    for _ in range(3):
        result = world.step(0.1)
        assert result.contacts == [] and result.stats.events == 0
    assert world.shape(1) == Rect(14, 24, 2, 1)


def test_started_overlap_with_cross_is_reported_at_zero():
    world = two("cross", Circle(0, 0, 2), Circle(1, 0, 2), va=(1, 0))
    (contact,) = world.step(1.0).contacts
    assert contact.time == 0.0 and contact.started_overlapping and contact.response == "cross"
    assert contact.normal == Vec2(-1.0, 0.0)
    assert world.shape("a") == Circle(1.0, 0, 2)


def test_two_infinite_masses_pass_as_cross():
    world = World()
    world.add("platform", Rect(0, 0, 4, 1), velocity=(2, 0), mass=math.inf)
    world.add("wall", Rect(6, -5, 1, 10), mass=math.inf)
    (contact,) = world.step(2.0).contacts
    assert contact.response == "cross" and contact.time == 1.0
    assert world.shape("platform") == Rect(4.0, 0, 4, 1)


def test_a_kinematic_body_pushes_and_gives_its_normal_speed():
    world = World()
    world.add("platform", Rect(0, 0, 4, 1), velocity=(0, -2), mass=math.inf)
    world.add("box", Rect(1, -3, 1, 1), velocity=(1, 0))
    (contact,) = world.step(2.0).contacts
    assert contact.time == 1.0 and contact.normal == Vec2(0.0, 1.0)  # from box to platform
    assert world.velocity("box") == Vec2(1.0, -2.0)
    assert world.shape("box") == Rect(3.0, -5.0, 1, 1)
    assert world.shape("platform") == Rect(0, -4.0, 4, 1)


def test_touch_freezes_even_an_infinite_mass():
    world = World()
    world.set_response("k", "b", "touch")
    world.add("platform", Rect(0, 0, 4, 1), velocity=(0, -2), mass=math.inf, group="k")
    world.add("box", Rect(1, -3, 1, 1), group="b")
    world.step(2.0)
    assert world.shape("platform") == Rect(0, -2.0, 4, 1)
    assert world.velocity("platform") == Vec2(0.0, -2.0)


def test_masks_are_terrain_and_named_by_their_item():
    floor = Mask.from_array([[0, 0, 0, 1, 1, 1, 1], [1] * 7])
    world = World()
    world.add("floor", PlacedMask(floor, 0, 10))
    world.add("box", Rect(0, 0, 2, 2), velocity=(3, 4))
    world.add("walker", Rect(-10, 9, 2, 2), velocity=(1, 0))
    world.update("walker", Rect(0, 9, 2, 2))
    contacts = world.step(4.0).contacts
    assert [(c.time, c.a, c.b, c.normal, c.response) for c in contacts] == [
        (1.0, "floor", "walker", Vec2(1.0, 0.0), "slide"),
        (2.0, "floor", "box", Vec2(0.0, 1.0), "slide"),
    ]
    assert world.shape("box") == Rect(12.0, 8.0, 2, 2) and world.velocity("box") == Vec2(3.0, 0.0)
    assert world.shape("walker") == Rect(1.0, 9.0, 2, 2)
    assert world.shape("floor") == PlacedMask(floor, 0, 10)


def negative_zero_scene() -> World:
    """Sliding discs and boxes whose contacts' normals the core computes with a -0.0."""
    world = World()
    world.set_response("default", "default", "slide")
    bodies = [(Circle, 48, 29, 0, -10), (Rect, 26, 53, 10, 10), (Circle, 6, 11, 10, 10),
              (Rect, 55, 18, -10, 10), (Circle, 21, 57, 10, 10), (Rect, 32, 59, 0, 10)]  # fmt: skip
    for k, (kind, x, y, vx, vy) in enumerate(bodies):
        shape = Circle(float(x), float(y), 4.0) if kind is Circle else Rect(x, y, 8.0, 8.0)
        world.add(k, shape, velocity=(float(vx), float(vy)))
    return world


def test_contacts_hold_plain_python_values_and_no_negative_zero():
    # Records built from the core's columns: floats, Vec2s of floats, str, bool; a
    # normal's zero component is +0.0 (the core computes -0.0 in this scene).
    world = negative_zero_scene()
    contacts = world.step(5.0).contacts
    assert contacts
    for c in contacts:
        assert type(c.time) is float and type(c.response) is str
        assert type(c.started_overlapping) is bool
        for vec in (c.normal, c.point):
            assert type(vec) is Vec2 and all(type(v) is float for v in vec)
        assert all(math.copysign(1.0, v) > 0.0 for v in c.normal if v == 0.0)


def assert_columns_of(arrays: ContactArrays, contacts: list[Contact]) -> None:
    """``arrays`` hold ``contacts``' fields, row for row, bit for bit."""
    k = len(contacts)
    assert len(arrays) == k and arrays.time.shape == (k,) and arrays.normal.shape == (k, 2)
    assert arrays.point.shape == (k, 2) and arrays.response.shape == (k,)
    assert arrays.started_overlapping.dtype == np.bool_ and arrays.time.dtype == np.float64
    assert arrays.a == [c.a for c in contacts] and arrays.b == [c.b for c in contacts]
    assert arrays.response.tolist() == [c.response for c in contacts]
    assert arrays.started_overlapping.tolist() == [c.started_overlapping for c in contacts]
    for got, want in ((arrays.time, [c.time for c in contacts]),
                      (arrays.normal, [tuple(c.normal) for c in contacts]),
                      (arrays.point, [tuple(c.point) for c in contacts])):  # fmt: skip
        want_array = np.array(want, dtype=np.float64).reshape(got.shape)
        # bit for bit, the sign of a zero included
        assert np.array_equal(np.signbit(got), np.signbit(want_array))
        assert np.array_equal(got, want_array)


def test_contact_arrays_are_the_contacts_as_columns():
    # The scene above (a -0.0 in the core's normals) with a shot that crosses the
    # boxes and touches a wall and a box put inside another: columns made before the
    # records, and the records after, agree.
    world = negative_zero_scene()
    world.set_response("shot", "default", "cross")
    world.set_response("shot", "wall", "touch")
    world.add("wall", Rect(100, -50, 1, 200), mass=math.inf, group="wall")
    world.add("shot", Circle(0.0, 30.0, 1.0), velocity=(40.0, 0.0), group="shot")
    world.add("inside", Rect(28, 55, 4, 4))  # starts inside box 1
    result = world.step(5.0)
    arrays = result.contact_arrays
    assert result._contacts is None  # (the records not made for the columns)
    assert {"slide", "cross", "touch"} <= set(arrays.response.tolist())
    assert arrays.started_overlapping.any()
    assert_columns_of(arrays, result.contacts)
    assert result.contact_arrays is arrays  # made once


def test_contact_arrays_of_steps_without_contacts_and_of_a_given_list():
    world = World()
    world.add("a", Rect(0, 0, 1, 1), velocity=(1.0, 0.0))
    for result in (world.step(0.0), world.step(1.0)):
        arrays = result.contact_arrays
        assert len(arrays) == 0 and arrays.normal.shape == (0, 2) and arrays.a == []
    contacts = [Contact(0.5, "a", "b", Vec2(-0.0, 1.0), Vec2(2.0, 3.0), "bounce", False)]
    assert_columns_of(StepResult(contacts, StepStats()).contact_arrays, contacts)


def test_a_gas_does_not_depend_on_the_cells(monkeypatch):
    # The same gas in cells of two sizes (three fifths and three quarters of the
    # first size, dense or not), and with covers widened by 1/256 and 1/16 of a cell:
    # the same contacts and the same state, bit for bit. (Not every scene: the
    # end-of-step cleanup's nudges may come out an ulp apart in other cells,
    # step_cells.MARGIN.)
    runs = []
    for shrink, margin in [
        (step_cells.DENSE_SHRINK, step_cells.MARGIN),
        (step_cells.SHRINK, 1 / 16),
    ]:
        monkeypatch.setattr(step_cells, "DENSE_SHRINK", shrink)
        monkeypatch.setattr(step_cells, "SHRINK", shrink)
        monkeypatch.setattr(step_cells, "MARGIN", margin)
        world = gas_world(300, 0.4, seed=5)
        contacts, cells = [], set()
        for _ in range(8):
            result = world.step(1.0)
            contacts += [tuple(c) for c in result.contacts]
            cells.add(result.stats.cell_size)
        runs.append((contacts, disk_state(world, 300).tobytes(), cells, result.stats.crossings))
    assert runs[0][2] == {2.0**1.25} and runs[1][2] == {2.0**1.75}
    assert runs[0][3] != runs[1][3]  # (other covers: other crossings)
    assert len(runs[0][0]) > 1000
    assert runs[0][:2] == runs[1][:2]


@pytest.mark.parametrize("far", [0.0, 1e11, 1e15])
def test_bodies_far_from_the_origin_still_meet(far):
    # Covers are widened by 1/256 of a cell (or 1e-12 of the largest coordinate, if
    # more): where an ulp is 0.125 (1e15), balls still meet the wall they fly into.
    world = World()
    world.add("wall", Rect(far + 10.0, 0.0, 1.0, 8.0), mass=math.inf)
    for k in range(3):
        world.add(k, Circle(far + 2.0 * k, 2.0 + 2.0 * k, 0.5), velocity=(40.0, 0.0))
    result = world.step(1.0)
    assert sorted(c.b for c in result.contacts) == [0, 1, 2]
    assert all(world.shape(k).x + 0.5 <= far + 10.0 for k in range(3))


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["add", "remove", "step"]), st.integers(0, 90),
                          st.sampled_from(["rect", "circle", "mask"])), max_size=60))  # fmt: skip
def test_the_tables_live_slots_and_masks_follow_adds_and_removes(ops) -> None:
    # The table keeps its live slots until a slot is added or emptied (and compacts
    # after many removals); a step finds the masks among them.
    world = World()
    for op, key, kind in ops:
        if op == "add" and key not in world:
            x = float(key * 5)
            shape = {"rect": Rect(x, 0, 2, 2), "circle": Circle(x, 0, 1),
                     "mask": PlacedMask(Mask.from_array([[1, 1], [1, 1]]), x, 0)}[kind]  # fmt: skip
            world.add(key, shape, **({} if kind == "mask" else {"velocity": (1.0, 0.5)}))
        elif op == "remove" and key in world:
            world.remove(key)
        elif op == "step":
            world.step(0.5)
        table = world._table
        live = table.live()
        assert live is table.live()  # (kept while nothing comes or goes)
        assert live.tolist() == np.flatnonzero(table.alive[: len(table.items)]).tolist()
        masks = [table.items[s] for s in table.mask_slots().tolist()]
        assert masks == [k for k in world if type(world.shape(k)) is PlacedMask]
        world.validate()


def test_the_tables_live_slots_after_it_compacts() -> None:
    world = World()
    floor = Mask.from_array([[1, 1], [1, 1]])
    for k in range(100):
        shape = PlacedMask(floor, k * 5.0, 0) if k % 10 == 0 else Rect(k * 5.0, 0, 2, 2)
        world.add(k, shape, **({} if k % 10 == 0 else {"velocity": (1.0, 0.0)}))
    world.step(1.0)
    before = world._table.live()
    for k in range(1, 81):
        world.remove(k)  # the 65th removal compacts the table
    table = world._table
    assert len(table.items) < 100 and table.live() is not before
    live = table.live().tolist()
    assert live == np.flatnonzero(table.alive[: len(table.items)]).tolist()
    assert [table.items[s] for s in live] == [0, *range(81, 100)]
    assert [table.items[s] for s in table.mask_slots().tolist()] == [0, 90]
    world.step(1.0)
    world.validate()
