"""The World beyond bump's specs: each of our fixes to bump's known defects, circles,
pixel-mask terrain, many moves at once, errors that change nothing, determinism."""

from __future__ import annotations

import math
import os
import subprocess
import sys

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from collide2d import (
    BruteForce,
    Circle,
    Mask,
    PlacedMask,
    Quadtree,
    Rect,
    SortedStrips,
    Vec2,
    World,
    overlaps,
)
from collide2d.broadphase import DuplicateKeyError, UnknownKeyError
from collide2d.world import MAX_RESPONSES
from collide2d.world.contact import at
from tests import catalogue

STOPPING = ("slide", "touch", "bounce")


def snapshot(world: World) -> list:
    world.validate()
    return [(item, world.shape(item)) for item in world]


# -- fix 1: exact, no membrane ----------------------------------------------------------------


def test_corner_grazes_are_no_hit():  # bump #33
    world = World()
    world.add("block", Rect(16, 0, 32, 32))
    world.add("item", Rect(0, 32, 16, 16))  # corners meet at (16, 32)
    for goal in ((-1, 31), (1, 33), (0, 40), (8, 32)):
        assert world.check("item", goal).collisions == []
    into = world.check("item", (1, 31))  # up and right, into the block's corner
    assert into.collisions[0].fraction == 0 and into.collisions[0].normal == (-1, 0)


def test_falling_past_a_block_corner_is_no_hit():  # bump #48
    world = World()
    world.add("block", Rect(16, 16, 16, 16))
    world.add("player", Rect(0, 0, 16, 16))  # right edge on the block's left edge
    position, cols = world.move("player", (0, 40))
    assert position == (0, 40) and cols == []


def test_a_gap_smaller_than_bumps_membrane_is_still_a_gap():
    world = World()
    world.add("floor", Rect(0, 10, 100, 10))
    world.add("item", Rect(0, 0, 10, 10 - 1e-12))  # 1e-12 above the floor
    position, cols = world.move("item", (5, 0))  # sliding along: no contact at all
    assert cols == [] and position == (5, 0)
    position, cols = world.move("item", (5, 1))
    assert cols[0].fraction == pytest.approx(1e-12) and position[1] + (10 - 1e-12) <= 10


# -- fix 2: no ghost collisions on tile seams -----------------------------------------------------


@given(
    st.integers(1, 40).map(float),  # player width
    st.floats(0, 64, allow_nan=False),  # player x
    st.sampled_from([0.0, 1e-11, 1e-6, 0.5, 3.0]),  # sunk into the floor by
    st.floats(-100, 100, allow_nan=False),  # dx
    st.floats(0, 20, allow_nan=False),  # dy: gravity
)
@example(16.0, 16.0, 0.0, 40.0, 5.0)  # right edge on a seam, resting
@example(16.0, 16.0, 1e-11, 40.0, 5.0)  # bump: stopped by the next tile's side (M36)
@example(16.0, 16.0, 0.5, 40.0, 5.0)  # bump: teleported back (M37)
def test_an_item_slides_across_every_seam_of_a_tiled_floor(width, x, sunk, dx, dy):
    world = World(cell_size=32)
    for i in range(-10, 14):
        world.add(("tile", i), Rect(16.0 * i, 100, 16, 16))
    height = 20.0
    world.add("player", Rect(x, 100 - height + sunk, width, height))
    position, cols = world.move("player", (x + dx, 100 - height + sunk + dy))
    assert position[0] == x + dx  # never stopped by a seam
    assert position[1] + height <= 100 and math.nextafter(position[1], math.inf) + height > 100
    assert all(col.normal == (0, -1) for col in cols)
    world.validate()


# -- fix 3: no teleport -----------------------------------------------------------------------------


def test_an_overlapping_item_is_pushed_out_the_shortest_way_not_back_along_its_motion():
    world = World()
    world.add("tile", Rect(0, 0, 32, 32))
    world.add("item", Rect(20, 10, 10, 10))  # inside, near the right side
    position, cols = world.move("item", (19, 0))  # mostly up, a little left
    # bump goes back along the motion line and ends below the tile at about (22.2, 32)
    assert cols[0].started_overlapping and cols[0].touch == (32, 10) and cols[0].normal == (1, 0)
    assert position == (32, 0) and not overlaps(world.shape("item"), Rect(0, 0, 32, 32))


def test_a_still_overlapping_item_is_pushed_out_by_slide_too():
    world = World()
    world.add("tile", Rect(0, 0, 32, 32))
    world.add("item", Rect(4, 28, 10, 10))  # sunk 4 into the bottom
    position, cols = world.move("item", (4, 28))  # bump's slide leaves it where it is
    assert position == (4, 32) and cols[0].normal == (0, 1)


# -- fix 4: cross continues from where the item is --------------------------------------------------


def test_a_cross_after_a_slide_reports_only_what_the_slid_path_crosses():
    world = World()
    world.add("item", Rect(0, 0, 1, 1))
    world.add("wall", Rect(2, 1, 1, 1))
    world.add("coin on the slid path", Rect(1, 3, 1, 1))
    world.add("coin on the old line", Rect(0, 1.5, 0.5, 0.5))
    coins = lambda item, other: "cross" if str(other).startswith("coin") else "slide"  # noqa: E731
    position, cols = world.move("item", (5, 5), coins)
    # bump re-projects the cross from (0, 0) to the slid goal (1, 5) and also reports the
    # coin that line passes (M19); the item never goes there.
    assert [c.other for c in cols] == ["wall", "coin on the slid path"]
    assert position == (1, 5)


# -- fix 5: every simultaneous contact ---------------------------------------------------------------


@pytest.mark.parametrize("response", STOPPING)
def test_landing_on_two_tiles_reports_both(response):  # bump #52
    world = World()
    world.add("left tile", Rect(0, 20, 16, 16))
    world.add("right tile", Rect(16, 20, 16, 16))
    world.add("player", Rect(5, 0, 20, 10))
    _position, cols = world.move("player", (5, 30), lambda i, o: response)
    assert {c.other for c in cols[:2]} == {"left tile", "right tile"}
    first, second = cols[:2]
    assert first.fraction == second.fraction and first.normal == second.normal == (0, -1)
    assert first.slide == second.slide and first.bounce == second.bounce


def test_a_corner_only_touch_is_not_a_simultaneous_contact():
    world = World()
    world.add("floor", Rect(0, 20, 16, 16))
    world.add("corner", Rect(16, 30, 16, 16))  # its corner meets the player's only later
    world.add("player", Rect(0, 0, 16, 10))
    _position, cols = world.move("player", (0, 30))
    assert [c.other for c in cols] == ["floor"]


# -- fix 6: no overlap after a move, bit-exact ---------------------------------------------------------

floats = st.floats(-60, 60, allow_nan=False).map(lambda v: round(v, 3) + 0.1)
sizes = st.floats(0.5, 30, allow_nan=False)
rects = st.builds(Rect, floats, floats, sizes, sizes)
circles = st.builds(Circle, floats, floats, st.floats(0.5, 15, allow_nan=False))


@given(
    st.lists(st.one_of(rects, rects, circles), min_size=1, max_size=8),
    st.one_of(rects, circles),
    st.tuples(floats, floats),
    st.sampled_from(STOPPING),
)
def test_no_overlap_after_a_move_with_what_it_responded_to(obstacles, mover, goal, response):
    check_no_overlap_after_move(obstacles, mover, goal, response)


def check_no_overlap_after_move(obstacles, mover, goal, response) -> None:
    """Move ``mover`` among ``obstacles`` with ``response`` against each: it ends, and
    was at each contact, clear of everything it responded to."""
    world = World(cell_size=16)
    for i, shape in enumerate(obstacles):
        world.add(i, shape)
    world.add("mover", mover)
    _position, cols = world.move("mover", goal, lambda item, other: response)
    final = world.shape("mover")
    for col in cols:
        assert not overlaps(final, world.shape(col.other)) or len(cols) >= MAX_RESPONSES
        assert not overlaps(at(col.item_shape, *col.touch), col.other_shape)
    world.validate()


@given(rects, rects, st.tuples(floats, floats))
def test_rect_contacts_sit_exactly_on_the_face(mover, other, goal):
    world = World()
    world.add("other", other)
    for col in world.project(mover, goal):
        if col.started_overlapping:
            continue
        x, y = col.touch
        nx, ny = col.normal
        if ny < 0:  # landed on top: y is top - h, correctly rounded, or just below it
            assert y + mover.h <= other.top and _near(y, other.top - mover.h)
        elif ny > 0:
            assert y == other.bottom
        elif nx < 0:
            assert x + mover.w <= other.left and _near(x, other.left - mover.w)
        else:
            assert x == other.right


def _near(value: float, rounded: float) -> bool:
    """``value`` is ``rounded`` or a few units in the last place below it."""
    return rounded - 4 * math.ulp(rounded) <= value <= rounded


# -- fix 7: deterministic -------------------------------------------------------------------------------


def scene(broadphase=None, extra_first=False):
    world = World(broadphase=broadphase) if broadphase is not None else World(cell_size=32)
    if extra_first:
        world.add("far away", Rect(5000, 5000, 5, 5))
    for i in range(12):
        world.add(("tile", i), Rect(16.0 * i, 100, 16, 16))
    world.add("wall", Rect(120, 40, 16, 60))
    world.add("ball", Circle(60, 60, 6))
    world.add("player", Rect(10, 60, 12, 20))
    world.add("coin", Rect(40, 70, 4, 4))
    if not extra_first:
        world.add("far away", Rect(5000, 5000, 5, 5))
    return world


def run(world):
    out = []
    filter = lambda item, other: "cross" if other == "coin" else "slide"  # noqa: E731
    for goal in ((40, 90), (140, 85), (60, 30), (0, 95)):
        out.append(world.move("player", goal, filter))
    out.append(world.move("ball", (200, 120), lambda i, o: "bounce"))
    return out


def test_the_same_calls_give_the_same_results_whatever_the_broadphase_or_order():
    expected = run(scene())
    for broadphase in (Quadtree(), SortedStrips(), BruteForce()):
        assert run(scene(broadphase)) == expected
    assert run(scene(extra_first=True)) == expected


def test_the_same_calls_give_the_same_results_under_any_hash_seed():
    code = (
        "from tests.world.test_world import run, scene\n"
        "print(repr([(m.position, [(str(c.other), c.fraction, c.normal) for c in m.collisions])"
        " for m in run(scene())]))"
    )
    outs = set()
    for seed in ("0", "1", "12345"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        outs.add(done.stdout)
    assert len(outs) == 1


# -- fix 8: points and sizes -------------------------------------------------------------------------


def test_points_are_items_and_bad_sizes_are_refused():
    world = World()
    world.add("wall", Rect(50, 0, 10, 100))
    world.add("bullet", Rect(0, 50, 0, 0))
    world.add("pellet", Circle(0, 60, 0))
    assert world.move("bullet", (100, 50), lambda i, o: "touch").position == (50, 50)
    assert world.move("pellet", (100, 60), lambda i, o: "touch").position == (50, 60)
    for bad in catalogue.NEGATIVE_SIZES + catalogue.BAD_NUMBERS:
        with pytest.raises(ValueError):
            world.add("bad", Rect(0, 0, bad, 1))
        with pytest.raises(ValueError):
            world.add("bad", Rect(0, 0, 1, 1)._replace(w=bad))
    assert "bad" not in world


# -- circles ------------------------------------------------------------------------------------------


def test_a_ball_slides_round_a_ball_without_the_normal_part_of_its_motion():
    world = World()
    world.add("post", Circle(50, 0, 10))
    world.add("ball", Circle(0, -5, 5))
    _position, cols = world.move("ball", (100, -5))
    col = cols[0]
    assert col.normal.length() == pytest.approx(1) and col.normal[1] < 0
    assert (col.slide - col.touch).dot(col.normal) == pytest.approx(0, abs=1e-9)
    assert not overlaps(world.shape("ball"), Circle(50, 0, 10))


def test_a_ball_bounces_off_a_wall_and_keeps_its_speed():
    world = World()
    world.add("wall", Rect(100, -50, 10, 100))
    world.add("ball", Circle(0, 0, 5))
    position, cols = world.move("ball", (150, 50), lambda i, o: "bounce")
    assert cols[0].normal == (-1, 0) and cols[0].touch == pytest.approx((95, 50 * 95 / 150))
    assert position == pytest.approx((40, 50))


# -- pixel-mask terrain ---------------------------------------------------------------------------------


def hill() -> PlacedMask:
    mask = Mask((200, 60))
    for x in range(200):
        top = 60 - int(40 * math.sin(math.pi * x / 199))
        for y in range(min(top, 59), 60):
            mask.set_at((x, y))
    return PlacedMask(mask, 0, 100)


def test_a_rect_walks_over_a_flat_pixel_floor_across_every_pixel_seam():
    floor = PlacedMask(Mask((300, 20), fill=True), 0, 100)
    world = World()
    world.add("floor", floor)
    world.add("player", Rect(10, 80, 12, 20))
    position, cols = world.move("player", (210, 90))
    assert position == (210, 80) and all(c.normal == (0, -1) for c in cols)


def test_a_circle_rolls_onto_a_mask_hill_and_stops_clear_of_its_pixels():
    world = World()
    world.add("hill", hill())
    world.add("ball", Circle(100, 0, 6))
    position, cols = world.move("ball", (100, 200))
    assert cols and not overlaps(world.shape("ball"), world.shape("hill"))
    assert 120 < position[1] + 6 <= 121  # resting on the hill: its top at x = 100 is y = 121


def test_digging_a_hole_and_updating_lets_an_item_fall_through():
    terrain = PlacedMask(Mask((100, 20), fill=True), 0, 100)
    world = World()
    world.add("ground", terrain)
    world.add("player", Rect(40, 80, 10, 20))
    assert world.check("player", (40, 150)).position == (40, 80)
    terrain.mask.erase(Mask((20, 20), fill=True), (35, 0))
    world.update("ground", terrain)
    assert world.check("player", (40, 150)).position == (40, 150)


def test_a_mask_item_moves_against_rects():
    world = World()
    world.add("wall", Rect(50, 0, 10, 50))
    world.add("blob", PlacedMask(Mask((8, 8), fill=True), 0, 10))
    position, cols = world.move("blob", (100, 10))
    assert position == (42, 10) and cols[0].normal == (-1, 0)


# -- many moves, custom responses, the cap on responses ----------------------------------------------


def test_move_all_equals_moves_one_by_one_in_the_order_added():
    goals = {"player": (140, 85), "ball": (30, 95)}
    together = scene().move_all(goals)
    apart = scene()
    expected = {item: apart.move(item, goals[item]) for item in ("ball", "player")}
    assert together == expected


def test_move_all_puts_everything_back_when_a_move_fails():
    world = scene()
    before = snapshot(world)

    def filter(item, other):
        if item == "player":
            raise RuntimeError("the player's filter broke")
        return "slide"

    with pytest.raises(RuntimeError, match="broke"):
        world.move_all({"ball": (100, 100), "player": (40, 95)}, filter)
    assert snapshot(world) == before


def test_a_custom_response_is_called_like_the_built_ins():
    world = World()
    world.add("glue", Rect(50, 0, 10, 10))
    world.add("fly", Rect(0, 0, 4, 4))
    seen = []

    def stick(w, col, shape, goal, filter):
        seen.append((col.other, shape, goal))
        return col.touch, []

    world.add_response("stick", stick)
    position, cols = world.move("fly", (100, 0), lambda i, o: "stick")
    assert position == (46, 0) and cols[0].response == "stick"
    assert seen == [("glue", Rect(0, 0, 4, 4), (100, 0))]


def test_a_bounce_between_two_walls_hits_them_again_and_stays_between():
    world = World()
    world.add("left", Rect(-10, -100, 10, 200))
    world.add("right", Rect(20, -100, 10, 200))
    world.add("ball", Rect(8, 0, 4, 4))
    position, cols = world.move("ball", (1000, 0), lambda i, o: "bounce")
    assert 0 <= position[0] <= 16 and len(cols) <= MAX_RESPONSES
    assert not overlaps(world.shape("ball"), Rect(-10, -100, 10, 200))
    assert not overlaps(world.shape("ball"), Rect(20, -100, 10, 200))


# -- queries ------------------------------------------------------------------------------------------


def test_segment_hits_report_entry_and_exit_clipped_to_the_segment():
    world = World()
    world.add("box", Rect(10, 0, 10, 10))
    world.add("around", Rect(-5, -5, 100, 20))
    hits = world.query_segment_hits((0, 5), (15, 5))
    assert [h.item for h in hits] == ["around", "box"]
    around, box = hits
    assert around.fraction == 0 and around.exit_fraction == 1  # starts and ends inside
    assert box.fraction == pytest.approx(10 / 15) and box.exit_fraction == 1
    assert box.point == pytest.approx((10, 5)) and box.exit_point == pytest.approx((15, 5))


def test_queries_find_masks_by_their_pixels():
    world = World()
    world.add("hill", hill())
    world.add("rock", Rect(300, 0, 10, 10))
    assert world.query_point((100, 159)) == ["hill"]
    assert world.query_point((2, 101)) == []  # inside the mask's bounds, not its pixels
    assert world.query_rect(Rect(0, 0, 400, 50)) == ["rock"]
    assert world.query_segment((100, 0), (100, 200)) == ["hill"]


# -- errors change nothing -------------------------------------------------------------------------------


def failing_calls(world):
    nan = math.nan
    return [
        (lambda: world.add("player", Rect(0, 0, 1, 1)), DuplicateKeyError),
        (lambda: world.add([1], Rect(0, 0, 1, 1)), TypeError),
        (lambda: world.add("new", (0, 0, 1)), TypeError),
        (lambda: world.add("new", (0, 0, -1, 1)), ValueError),
        (lambda: world.remove("ghost"), UnknownKeyError),
        (lambda: world.update("ghost", (0, 0)), UnknownKeyError),
        (lambda: world.update("player", (nan, 0)), ValueError),
        (lambda: world.update("player", "left"), TypeError),
        (lambda: world.move("ghost", (0, 0)), UnknownKeyError),
        (lambda: world.move("player", (nan, 0)), ValueError),
        (lambda: world.move("player", (0, math.inf)), ValueError),
        (lambda: world.move("player", (0, 0), "slide"), TypeError),
        (lambda: world.move("player", (200, 90), lambda i, o: "stick"), ValueError),
        (lambda: world.move("player", (200, 90), lambda i, o: 1 / 0), ZeroDivisionError),
        (lambda: world.move_all({"player": (0, 0), "ghost": (1, 1)}), UnknownKeyError),
        (lambda: world.move_all([("player", (0, 0))]), TypeError),
        (lambda: world.query_rect((0, 0, 1)), TypeError),
        (lambda: world.query_point((nan, 0)), ValueError),
        (lambda: world.query_segment((0, 0), (1, 1), 5), TypeError),
        (lambda: world.add_response("", lambda *a: None), TypeError),
        (lambda: World(cell_size=0), ValueError),
        (lambda: World(broadphase=world.broadphase), ValueError),
    ]


def test_bad_input_raises_a_clear_error_and_changes_nothing():
    world = scene()
    before = snapshot(world)
    for call, error in failing_calls(world):
        with pytest.raises(error):
            call()
        assert snapshot(world) == before


def test_unknown_responses_are_named_in_the_error():
    world = scene()
    with pytest.raises(ValueError, match="unknown response 'stick'"):
        world.move("player", (200, 90), lambda i, o: "stick")


def test_stats_count_candidates_and_exact_tests():
    world = scene()
    world.move("player", (140, 85))
    assert world.stats.method == "world" and world.stats.tests > 0 and world.stats.visits > 0
    assert world.stats.tests <= world.stats.visits + MAX_RESPONSES * len(world)


def test_vec2_goals_and_tuples_agree():
    assert scene().check("player", Vec2(140, 85)) == scene().check("player", (140, 85))


def test_a_move_longer_than_the_largest_float_is_refused_naming_the_goal():
    world = World()
    world.add("ball", Circle(-1e308, 0, 1))
    with pytest.raises(ValueError, match=r"goal \(1e\+308, 0.0\) is too far .* overflows"):
        world.move("ball", (1e308, 0))
    assert world.shape("ball") == Circle(-1e308, 0, 1)
    assert world.move("ball", (0, 0)).position == (0, 0)
    assert world.move("ball", (1e308, 0)).position == (1e308, 0)
