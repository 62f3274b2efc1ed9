"""Polygons in the World: placed polygons as items and obstacles, every response,
slopes walked up and down across seams, queries, no overlap and no tunnelling."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from collide2d import (
    BruteForce,
    Circle,
    PlacedPolygon,
    Polygon,
    Quadtree,
    Rect,
    Vec2,
    World,
    overlaps,
    raycast,
    sweep,
)
from tests.geometry.polygon_strategies import convex_polygons
from tests.world.test_world import STOPPING, check_no_overlap_after_move, snapshot

# -- the placed polygon -------------------------------------------------------------------------


def test_a_placed_polygon_is_its_outline_about_the_anchor_and_moves_exactly():
    crate = PlacedPolygon(Polygon.box(0, 0, 4, 2), 0.1, 0.2)
    assert crate.outline == Polygon([(v.x + 0.1, v.y + 0.2) for v in Polygon.box(0, 0, 4, 2)])
    world = World()
    world.add("crate", crate)
    for goal in ((0.3, 0.7), (1e-9, 5.5), (0.1, 0.2)):
        assert world.move("crate", goal).position == goal
        assert (world.shape("crate").x, world.shape("crate").y) == goal
    assert world.shape("crate") == crate  # back where it began: the same polygon
    world.update("crate", (7.25, -3.5))
    assert world.shape("crate") == PlacedPolygon(crate.polygon, 7.25, -3.5)
    world.validate()


def test_a_plain_polygon_is_placed_at_the_origin_and_a_new_one_turns_the_item():
    # (an outline no other test makes: placed outlines are cached by value, so an
    # equal polygon placed at the origin by an earlier test would be the one found)
    ramp = Polygon([(0, 10), (10, 0), (10, 10.25)])
    world = World()
    world.add("ramp", ramp)
    assert world.shape("ramp") == PlacedPolygon(ramp, 0.0, 0.0)
    assert world.shape("ramp").outline is ramp
    body = Polygon.box(0, 0, 6, 2)
    world.add("bar", PlacedPolygon(body, 30, 5))
    turned = PlacedPolygon(body.rotated(math.pi / 2, about=(0, 0)), 30, 5)
    assert turned == PlacedPolygon.box(30, 5, 6, 2).turned(math.pi / 2)  # the shorthands
    world.update("bar", turned)
    assert world.shape("bar") == turned
    assert world.shape("bar").bounding_rect == Rect(29, 2, 2, 6)
    assert world.query_point((30, 7.5)) == ["bar"]
    world.validate()


def test_placed_polygons_refuse_bad_values_naming_them():
    square = Polygon.box(0, 0, 1, 1)
    with pytest.raises(TypeError, match="polygon must be a Polygon"):
        PlacedPolygon(Rect(0, 0, 1, 1), 0, 0)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="x must be finite"):
        PlacedPolygon(square, math.nan, 0)
    tiny = Polygon([(0, 0), (1e-3, 0), (0, 1e-3)])
    with pytest.raises(ValueError, match="no longer convex"):
        PlacedPolygon(tiny, 1e15, 1e15)
    world = World()
    world.add("a", PlacedPolygon(square, 0, 0))
    before = snapshot(world)
    with pytest.raises(ValueError, match="x must be finite"):
        world.update("a", PlacedPolygon(square, 0, 0)._replace(x=math.inf))
    with pytest.raises(ValueError, match="shape_or_position"):
        world.update("a", (math.nan, 0))
    with pytest.raises(TypeError, match="PlacedPolygon"):
        world.add("b", "a polygon")  # type: ignore[arg-type]
    assert snapshot(world) == before


# -- moves --------------------------------------------------------------------------------------

coords = st.integers(-40, 40).map(float) | st.floats(-40, 40, allow_nan=False)


@st.composite
def placed(draw) -> PlacedPolygon:
    return PlacedPolygon(draw(convex_polygons()), draw(coords), draw(coords))


rects = st.builds(
    Rect, coords, coords, st.sampled_from([1.0, 2.5, 8.0, 0.0]), st.sampled_from([1.0, 3.0, 8.0])
)
circles = st.builds(Circle, coords, coords, st.sampled_from([0.5, 2.0, 5.0]))


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.one_of(placed(), placed(), rects, circles), min_size=1, max_size=6),
    st.one_of(placed(), placed(), rects, circles),
    st.tuples(coords, coords),
    st.sampled_from(STOPPING),
)
def test_no_overlap_after_a_move_with_what_it_responded_to(obstacles, mover, goal, response):
    check_no_overlap_after_move(obstacles, mover, goal, response)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.one_of(placed(), rects), min_size=1, max_size=6),
    st.one_of(placed(), rects, circles),
    st.tuples(coords, coords),
)
def test_nothing_tunnels_a_touch_stops_at_the_first_contact(obstacles, mover, goal):
    """The straight path from the start to where a ``touch`` stopped meets nothing
    before its end (the exact sweep; the end itself, rounded into the delta, may
    touch it a rounding early), and what it stopped at lies on the way to the goal."""
    world = World(cell_size=16)
    for i, shape in enumerate(obstacles):
        world.add(i, shape)
    world.add("mover", mover)
    position, cols = world.move("mover", goal, lambda item, other: "touch")
    if any(col.started_overlapping for col in cols):
        return  # pushed out first: the shortest way out, not a path (docs/world.md)
    delta = (position[0] - mover.x, position[1] - mover.y)
    for i, shape in enumerate(obstacles):
        hit = sweep(mover, delta, shape)
        assert hit is None or hit.started_overlapping or hit.fraction > 1 - 1e-9, (i, hit)
    if cols and not cols[0].started_overlapping:
        assert sweep(mover, (goal[0] - mover.x, goal[1] - mover.y), cols[0].other_shape)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.one_of(placed(), rects, circles), min_size=1, max_size=8), placed())
def test_queries_answer_as_the_front_does_item_by_item(shapes, probe):
    world = World(cell_size=8)
    for i, shape in enumerate(shapes):
        world.add(i, shape)
    box = probe.bounding_rect
    assert world.query_rect(box) == [i for i, s in enumerate(shapes) if overlaps(box, s)]
    point = probe.vertices[0]
    assert world.query_point(point) == [
        i for i, s in enumerate(shapes) if overlaps(Rect(point.x, point.y, 0, 0), s)
    ]
    start, end = probe.vertices[0], probe.vertices[-1]
    delta = (end.x - start.x, end.y - start.y)
    met = [i for i, s in enumerate(shapes) if raycast(start, delta, s) is not None]
    assert sorted(world.query_segment(start, end)) == met


def test_the_same_moves_whatever_the_broadphase():
    def run(broadphase):
        world = World(broadphase=broadphase) if broadphase else World(cell_size=8)
        world.add("ramp", Polygon([(0, 40), (40, 0), (40, 40)]))
        world.add("floor", Rect(-100, 40, 100, 10))
        world.add("rock", PlacedPolygon(Polygon.regular(0, 0, 3, 5), 20, 10))
        world.add("crate", PlacedPolygon(Polygon.box(0, 0, 6, 6, 0.4), -20, 20))
        out = [world.move("crate", (30, 35)), world.move("rock", (-30, 60), lambda i, o: "bounce")]
        return out, snapshot(world)

    expected = run(None)
    assert run(BruteForce()) == expected
    assert run(Quadtree(Rect(-200, -200, 400, 400))) == expected


def test_move_all_moves_polygons_as_moves_one_by_one():
    def scene():
        world = World(cell_size=16)
        world.add("ramp", Polygon([(0, 40), (40, 0), (40, 40)]))
        world.add("a", PlacedPolygon(Polygon.box(0, 0, 4, 4, 0.2), -10, 30))
        world.add("b", Rect(-30, 30, 4, 4))
        world.add("c", PlacedPolygon(Polygon.regular(0, 0, 2, 6), 50, -10))
        return world

    goals = {"a": (20, 45), "b": (-12, 31), "c": (20, 20)}
    one = scene()
    expected = {item: one.move(item, goal) for item, goal in goals.items()}
    assert scene().move_all(goals) == expected


def test_an_item_overlapping_a_polygon_is_pushed_out_and_a_cross_is_not():
    world = World()
    world.add("rock", PlacedPolygon(Polygon.box(0, 0, 10, 10, math.pi / 4), 0, 0))
    world.add("box", Rect(-1, -9, 2, 2))  # inside the rock's top corner
    position, cols = world.move("box", (-1, -9))
    assert cols and cols[0].started_overlapping and cols[0].normal == Vec2(0, -1)
    assert not overlaps(world.shape("box"), world.shape("rock"))
    assert position.y < -9 and position.x == -1  # up: the shortest of the four pushes
    world.update("box", Rect(-1, -5, 2, 2))
    position, cols = world.move("box", (-1, -5), lambda i, o: "cross")
    assert position == (-1, -5) and cols[0].response == "cross"


# -- slopes -------------------------------------------------------------------------------------


def test_a_box_dropped_on_a_slope_slides_along_it():
    angle = math.radians(30)
    ramp = Polygon([(0, 0), (100, -100 * math.tan(angle)), (100, 0)])  # up to the right
    world = World()
    world.add("ramp", ramp)
    world.add("box", Rect(50, -80, 4, 4))
    position, cols = world.move("box", (50, 20))
    assert [c.other for c in cols] == ["ramp"]
    normal = cols[0].normal
    assert normal.x < 0 and normal.y < 0
    assert math.isclose(math.atan2(-normal.x, -normal.y), angle, abs_tol=1e-12)
    touch = cols[0].touch
    along = (position[0] - touch[0], position[1] - touch[1])
    assert along[0] < 0 and along[1] > 0  # down the slope, to the left
    assert abs(along[0] * normal.x + along[1] * normal.y) < 1e-9 * math.hypot(*along)
    assert not overlaps(world.shape("box"), world.shape("ramp"))


def test_a_ball_bounces_off_a_slope_about_its_normal():
    world = World()
    world.add("ramp", Polygon([(-50, 50), (50, -50), (50, 50)]))  # 45 degrees
    world.add("ball", Circle(-10, -40, 1))
    _, cols = world.move("ball", (-10, 40), lambda i, o: "bounce")
    assert cols[0].response == "bounce"
    touch, bounce = cols[0].touch, cols[0].bounce
    assert bounce[1] == pytest.approx(touch[1]) and bounce[0] < touch[0]  # thrown to the left
    assert not overlaps(world.shape("ball"), world.shape("ramp"))


def _walk(world: World, item: str, frames: int, vx: float, gravity: float) -> list:
    steps = []
    for _ in range(frames):
        shape = world.shape(item)
        x, y = shape.x, shape.y
        position, cols = world.move(item, (x + vx, y + gravity))
        steps.append(((x, y), position, [c.normal for c in cols]))
    return steps


SLOPES = [(1, 1), (1, 2), (2, 1), (1, 3), (3, 2), (2, 3)]


def _piece(points: list[tuple[float, float]]) -> Polygon:
    return Polygon(list(dict.fromkeys(points)))  # the ends of a ramp are triangles


@settings(max_examples=60, deadline=None)
@given(
    st.sampled_from(SLOPES),  # rise, run
    st.lists(st.integers(1, 3), min_size=2, max_size=4),  # pieces, in runs of the slope
    st.sampled_from([2.0, 4.0, 1.5]),  # walking speed
    st.sampled_from([Rect(0, 0, 6, 10), Circle(0, 0, 3), "box"]),
)
def test_a_walker_goes_up_and_down_a_ramp_of_many_pieces_without_sticking(
    slope, pieces, speed, body
):
    """A floor, a ramp up made of coplanar pieces, a plateau, a ramp down, a floor:
    walking right with gravity, every frame goes right, no contact is a wall, and
    nothing is ever overlapped."""
    rise, run = slope
    world = World(cell_size=32)
    top = -rise * sum(pieces) * 4.0
    x = 0.0
    world.add("floor", Rect(-200, 0, 200, 20))
    for k, n in enumerate(pieces):  # up: pieces of the line y = -(rise/run) * x
        x2 = x + run * n * 4.0
        world.add(
            ("up", k), _piece([(x, -rise * x / run), (x2, -rise * x2 / run), (x2, 0), (x, 0)])
        )
        x = x2
    world.add("plateau", Rect(x, top, 40, -top))
    x += 40
    start = x
    for k, n in enumerate(pieces):  # down, the mirror image
        x2 = x + run * n * 4.0
        y1, y2 = top + rise * (x - start) / run, top + rise * (x2 - start) / run
        world.add(("down", k), _piece([(x, y1), (x2, y2), (x2, 0), (x, 0)]))
        x = x2
    world.add("floor 2", Rect(x, 0, 200, 20))
    if body == "box":
        world.add("walker", PlacedPolygon(Polygon.box(0, 0, 6, 10, 0.0), -20, -5))
    else:
        world.add("walker", body._replace(x=-20, y=-10 if isinstance(body, Rect) else -3))
    end = x + 20
    gravity = 0.25 * speed * run / rise  # gentle enough to walk up the slope
    for _ in range(3000):
        ((before, after, normals),) = _walk(world, "walker", 1, speed, gravity)
        assert after[0] > before[0], (before, after, normals)
        for n in normals:
            assert n.y < 0, (before, after, normals)  # floors and slopes, never a wall
        if after[0] > end:
            break
    walker = world.shape("walker")
    assert walker.x > end
    for item in world:
        if item != "walker":
            assert not overlaps(walker, world.shape(item))


@pytest.mark.parametrize("split", [16.0, 48.0, 8.0])
def test_landing_on_two_pieces_of_one_slope_reports_both(split):
    """Two coplanar pieces of different lengths have one normal, bit for bit: a box
    landing across their seam meets both at once, and both are listed. (The second
    piece's edge, (30, -15), once had a normal an ulp off the first's.)"""
    world = World()
    end = split + 30.0
    world.add("p1", Polygon([(0, 0), (split, -split / 2), (split, 40), (0, 40)]))
    world.add("p2", Polygon([(split, -split / 2), (end, -end / 2), (end, 40), (split, 40)]))
    box = Polygon([(0, 0), (20, -10), (20, -20), (0, -10)])  # its bottom along the slope
    world.add("box", PlacedPolygon(box, split - 10, -split / 2 + 5 - 30))
    _, cols = world.move("box", (split - 10, -split / 2 + 5 + 30))
    assert {c.other for c in cols} == {"p1", "p2"}
    assert cols[0].normal == cols[1].normal and cols[0].fraction == cols[1].fraction


@pytest.mark.parametrize("body", [Rect(18, -20, 12, 20), "box"])
def test_an_item_in_a_wedge_stops_there_instead_of_zigzagging(body):
    """A notch between a tile's side and a slope 4 px lower: walking left into it, a
    slide on the slope sends the item into the tile's side, a slide there back into
    the slope, each shorter, two dozen times; with both faces holding it, it stops
    at once, where the zig-zag ended."""
    world = World()
    world.add("step", Rect(0, 0, 16, 16))
    world.add("slope", Polygon([(16, 4), (32, 0), (32, 16), (16, 16)]))
    shape = PlacedPolygon(Polygon.box(0, 0, 12, 20), 24, -10) if body == "box" else body
    world.add("item", shape)
    for _ in range(6):
        item = world.shape("item")
        position, cols = world.move("item", (item.x - 2.0, item.y + 0.5))
    assert [c.other for c in cols] == ["step", "slope"]
    assert position == ((16.0, -19.0) if body != "box" else (22.0, -9.0))
    for other in ("step", "slope"):
        assert not overlaps(world.shape("item"), world.shape(other))
