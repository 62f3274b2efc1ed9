"""bump.lua 3.1.7's own specs (World_spec, responses_spec, rect_spec, bump_spec), in
collide2d's API. Where collide2d answers differently on purpose, the test says so
in a comment and asserts our answer (docs/world.md, "Where we differ from bump")."""

from __future__ import annotations

import pytest

from collide2d import Circle, Rect, UniformGrid, Vec2, World, overlaps
from collide2d.broadphase import DuplicateKeyError, UnknownKeyError


@pytest.fixture
def world() -> World:
    return World()


def others(cols):
    return [c.other for c in cols]


# -- bump_spec.lua ------------------------------------------------------------------------


def test_new_world_defaults_the_cell_size_to_64():
    assert World().broadphase.cell_size == 64


def test_new_world_can_set_the_cell_size():
    assert World(32).broadphase.cell_size == 32


def test_new_world_refuses_a_cell_size_that_is_not_a_positive_number():
    with pytest.raises(ValueError, match="cell_size"):
        World(-10)
    with pytest.raises(TypeError, match="cell_size"):
        World("")


# -- World_spec.lua: add, update, project, remove ------------------------------------------


def test_add_requires_an_item_and_a_shape(world):
    with pytest.raises(TypeError):
        world.add("x")  # bump: add({}) errors
    with pytest.raises(TypeError, match="shape"):
        world.add("x", 40)  # bump: add({}, 40) errors


def test_add_returns_the_added_item(world):
    item = object()
    assert world.add(item, Rect(1, 1, 1, 1)) is item


def test_add_refuses_an_item_already_there(world):
    world.add("obj", Rect(0, 0, 10, 10))
    with pytest.raises(DuplicateKeyError):
        world.add("obj", Rect(0, 0, 10, 10))


def test_add_creates_as_many_cells_as_needed(world):
    # bump counts its grid's cells with countCells(); ours are the default UniformGrid's.
    # (bump puts a right edge that lies exactly on a cell boundary in one cell, ours in
    # both; these sizes do not tell the two apart.)
    cells = lambda: len(world.broadphase.cells())  # noqa: E731
    world.add(1, Rect(0, 0, 10, 10))
    assert cells() == 1
    world.add(2, Rect(100, 100, 10, 10))
    assert cells() == 2
    world.add(3, Rect(0, 0, 100, 10))
    assert cells() == 3
    world.add(4, Rect(0, 0, 100, 10))
    assert cells() == 3
    world.add(5, Rect(300, 300, 64, 64))
    assert cells() == 7


def test_update_refuses_an_item_not_there(world):
    with pytest.raises(UnknownKeyError):
        world.update("nope", (0, 0))


def test_update_changes_the_shape(world):
    world.add("a", Rect(0, 0, 10, 10))
    world.update("a", Rect(40, 40, 20, 20))
    assert world.shape("a") == Rect(40, 40, 20, 20)


def test_update_to_a_position_keeps_the_size(world):
    world.add("a", Rect(0, 0, 10, 10))
    world.update("a", (5, 5))
    assert world.shape("a") == Rect(5, 5, 10, 10)


def test_update_within_the_same_cells_does_not_remove_and_add(world, monkeypatch):
    world.add("a", Rect(0, 0, 10, 10))
    calls = []
    monkeypatch.setattr(World, "remove", lambda *args: calls.append("remove"))
    monkeypatch.setattr(World, "add", lambda *args: calls.append("add"))
    world.update("a", Rect(1, 1, 11, 11))
    assert calls == [] and world.shape("a") == Rect(1, 1, 11, 11)


def test_project_needs_a_shape(world):
    with pytest.raises(TypeError):
        world.project()
    with pytest.raises(TypeError, match="shape"):
        world.project((1, 2, 3))


def test_project_in_an_empty_world_finds_nothing(world):
    assert world.project(Rect(1, 2, 3, 4)) == []


def test_project_returns_a_list_of_collisions(world):
    world.add("a", Rect(0, 0, 10, 10))
    world.add("c", Rect(14, 16, 10, 10))
    assert len(world.project(Rect(4, 6, 10, 10))) == 1


def test_project_with_a_goal_still_finds_overlaps(world):
    world.add("a", Rect(0, 0, 2, 2))
    assert len(world.project(Rect(1, 1, 2, 2), (1, 1))) == 1


def test_project_detects_tunnelling(world):
    world.add("a", Rect(1, 0, 2, 1))
    assert len(world.project(Rect(-5, 0, 4, 1), (5, 0))) == 1


def test_project_detects_touching_then_penetrating(world):
    world.add("b", Rect(0, 0, 32, 100))
    assert len(world.project(Rect(32, 50, 20, 20), (30, 50))) == 1


def test_project_sorts_collisions_by_fraction(world):
    world.add("b", Rect(70, 0, 10, 10))
    world.add("c", Rect(50, 0, 10, 10))
    world.add("d", Rect(90, 0, 10, 10))
    cols = world.project(Rect(110, 0, 10, 10), (10, 0))
    assert [c.fraction for c in cols] == [0.1, 0.3, 0.5]


def test_project_skips_what_the_filter_refuses(world):
    world.add("b", Rect(70, 0, 10, 10))
    world.add("c", Rect(50, 0, 10, 10))
    world.add("d", Rect(90, 0, 10, 10))
    cols = world.project(
        Rect(110, 0, 10, 10), (10, 0), lambda item, other: other != "d" and "touch"
    )
    assert len(cols) == 2


def test_remove_refuses_an_item_not_there(world):
    with pytest.raises(UnknownKeyError):
        world.remove("nope")


def test_remove_makes_the_item_disappear(world):
    world.add("a", Rect(0, 0, 10, 10))
    assert len(world.project(Rect(5, 0, 1, 1))) == 1
    world.remove("a")
    assert len(world.project(Rect(5, 0, 1, 1))) == 0


def test_remove_frees_empty_cells_at_once(world):
    # bump frees its cells at the next garbage collection (countCells stays 2 until
    # collectgarbage()); ours are freed as they empty.
    world.add("a", Rect(0, 0, 10, 10))
    world.add("b", Rect(200, 200, 10, 10))
    assert len(world.broadphase.cells()) == 2
    world.remove("b")
    assert len(world.broadphase.cells()) == 1


def test_to_cell_and_to_world_as_cells_of_points():
    # bump's toCell/toWorld (1-based cell coordinates) are not part of our API: a
    # UniformGrid's cells are rectangles; the cell holding a point is the one a point
    # is filed in. toCell(0,0) = (1,1); toCell(63.9,63.9) = (1,1); toCell(64,64) = (2,2);
    # toCell(-1,-1) = (0,0); toWorld(2,2) = (64,64).
    for point, corner in (((0, 0), (0, 0)), ((63.9, 63.9), (0, 0)), ((64, 64), (64, 64)),
                          ((-1, -1), (-64, -64))):  # fmt: skip
        grid = UniformGrid(64)
        grid.add("p", Rect(*point, 0, 0))
        assert [(c.x, c.y) for c in grid.cells()] == [corner]


# -- World_spec.lua: queries --------------------------------------------------------------


def test_query_rect_refuses_an_invalid_rect(world):
    with pytest.raises(ValueError):
        world.query_rect(Rect(0, 0, -1, -1))
    with pytest.raises(TypeError, match="rect"):
        world.query_rect((0, 0, 1))


@pytest.fixture
def four(world):
    for item, x in (("a", 10), ("b", 70), ("c", 50), ("d", 90)):
        world.add(item, Rect(x, 0, 10, 10))
    return world


def test_query_rect_in_an_empty_world(world):
    assert world.query_rect(Rect(0, 0, 1, 1)) == []


def test_query_rect_returns_items_inside_or_partly_inside(four):
    # bump returns them unordered (its spec sorts); ours come in the order added.
    assert four.query_rect(Rect(55, 5, 20, 20)) == ["b", "c"]
    assert four.query_rect(Rect(0, 5, 100, 20)) == ["a", "b", "c", "d"]


def test_query_rect_keeps_what_the_filter_keeps(four):
    keep = lambda other: other in ("a", "b", "d")  # noqa: E731
    assert four.query_rect(Rect(55, 5, 20, 20), keep) == ["b"]
    assert four.query_rect(Rect(0, 5, 100, 20), keep) == ["a", "b", "d"]


@pytest.fixture
def three(world):
    for item, x in (("a", 10), ("b", 15), ("c", 20)):
        world.add(item, Rect(x, 0, 10, 10))
    return world


def test_query_point_in_an_empty_world(world):
    assert world.query_point((0, 0)) == []


def test_query_point_returns_the_items_containing_it(three):
    expected = {4: [], 14: ["a"], 16: ["a", "b"], 21: ["b", "c"], 26: ["c"], 31: []}
    for x, items in expected.items():
        assert three.query_point((x, 5)) == items


def test_query_point_keeps_what_the_filter_keeps(three):
    keep = lambda other: other != "b"  # noqa: E731
    expected = {4: [], 14: ["a"], 16: ["a"], 21: ["c"], 26: ["c"], 31: []}
    for x, items in expected.items():
        assert three.query_point((x, 5), keep) == items


def test_query_segment_in_an_empty_world(world):
    assert world.query_segment((0, 0), (1, 1)) == []


def test_query_segment_does_not_touch_borders(world):
    world.add("a", Rect(10, 0, 5, 5))
    world.add("c", Rect(20, 0, 5, 5))
    assert world.query_segment((0, 5), (10, 0)) == []
    assert world.query_segment((15, 5), (20, 0)) == []
    assert world.query_segment((26, 5), (25, 0)) == []


@pytest.fixture
def row(world):
    for item, x in (("a", 5), ("b", 15), ("c", 25)):
        world.add(item, Rect(x, 0, 5, 10))
    return world


def test_query_segment_returns_the_items_in_the_order_it_meets_them(row):
    assert row.query_segment((0, 5), (11, 5)) == ["a"]
    assert row.query_segment((0, 5), (17, 5)) == ["a", "b"]
    assert row.query_segment((0, 5), (30, 5)) == ["a", "b", "c"]
    assert row.query_segment((17, 5), (26, 5)) == ["b", "c"]
    assert row.query_segment((22, 5), (26, 5)) == ["c"]
    assert row.query_segment((11, 5), (0, 5)) == ["a"]
    assert row.query_segment((17, 5), (0, 5)) == ["b", "a"]
    assert row.query_segment((30, 5), (0, 5)) == ["c", "b", "a"]
    assert row.query_segment((26, 5), (17, 5)) == ["c", "b"]
    assert row.query_segment((26, 5), (22, 5)) == ["c"]


def test_query_segment_keeps_what_the_filter_keeps(row):
    keep = lambda other: other not in ("a", "c")  # noqa: E731
    assert row.query_segment((0, 5), (11, 5), keep) == []
    assert row.query_segment((0, 5), (17, 5), keep) == ["b"]
    assert row.query_segment((0, 5), (30, 5), keep) == ["b"]
    assert row.query_segment((17, 5), (26, 5), keep) == ["b"]
    assert row.query_segment((22, 5), (26, 5), keep) == []
    assert row.query_segment((11, 5), (0, 5), keep) == []
    assert row.query_segment((17, 5), (0, 5), keep) == ["b"]
    assert row.query_segment((30, 5), (0, 5), keep) == ["b"]
    assert row.query_segment((26, 5), (17, 5), keep) == ["b"]
    assert row.query_segment((26, 5), (22, 5), keep) == []


# -- World_spec.lua: hasItem, getItems, countItems ---------------------------------------------


def test_has_item(world):
    item = object()
    assert item not in world
    world.add(item, Rect(0, 0, 1, 1))
    assert item in world


def test_has_item_never_errors(world):
    for value in (False, 1, "hello", None, [], {}):
        assert value not in world


def test_get_items_and_count_items(world):
    world.add("a", Rect(1, 1, 1, 1))
    world.add("b", Rect(2, 2, 2, 2))
    assert list(world) == ["a", "b"]  # bump: unordered; ours: the order added
    assert len(world) == 2


# -- World_spec.lua: move -------------------------------------------------------------------


def test_move_without_collisions(world):
    world.add("item", Rect(0, 0, 1, 1))
    position, cols = world.move("item", (1, 1))
    assert position == (1, 1) and cols == []


@pytest.fixture
def column(world):
    world.add("a", Rect(0, 0, 1, 1))
    world.add("b", Rect(0, 2, 1, 1))
    world.add("c", Rect(0, 3, 1, 1))
    return world


def test_move_touch_stops_at_the_first_item(column):
    position, cols = column.move("a", (0, 5), lambda item, other: "touch")
    assert position == (0, 1) and others(cols) == ["b"]
    assert [c.response for c in cols] == ["touch"]
    assert column.shape("a") == Rect(0, 1, 1, 1)


def test_move_cross_reports_every_item_crossed(column):
    position, cols = column.move("a", (0, 5), lambda item, other: "cross")
    assert position == (0, 5) and others(cols) == ["b", "c"]
    assert [c.response for c in cols] == ["cross", "cross"]
    assert column.shape("a") == Rect(0, 5, 1, 1)


def test_move_slides_with_every_element(world):
    world.add("a", Rect(0, 0, 1, 1))
    world.add("b", Rect(0, 2, 1, 2))
    world.add("c", Rect(2, 1, 1, 1))
    position, cols = world.move("a", (5, 5), lambda item, other: "slide")
    assert position == (1, 5) and others(cols) == ["c"]
    assert cols[0].slide == (1, 5) and world.shape("a") == Rect(1, 5, 1, 1)


def test_move_bounces_on_each_element(world):
    world.add("a", Rect(0, 0, 1, 1))
    world.add("b", Rect(0, 2, 1, 2))
    position, cols = world.move("a", (0, 5), lambda item, other: "bounce")
    assert position == (0, -3) and others(cols) == ["b"]
    assert cols[0].bounce == (0, -3) and world.shape("a") == Rect(0, -3, 1, 1)


# -- responses_spec.lua ---------------------------------------------------------------------
# bump's specs call detectCollision and a response on one pair; here the pair is a world
# with the 8 x 8 box at the origin and the item, and the first collision of a check.

BOX = Rect(0, 0, 8, 8)


def first(item: Rect, goal=None, response="touch"):
    world = World()
    world.add("box", BOX)
    world.add("item", item)
    goal = (item.x, item.y) if goal is None else goal
    return world.check("item", goal, lambda i, o: response).collisions[0]


@pytest.mark.parametrize(
    ("x", "y", "touch", "normal"),
    [
        (-1, -1, (-1, -2), (0, -1)),
        (3, -1, (3, -2), (0, -1)),
        (7, -1, (7, -2), (0, -1)),
        (-1, 3, (-2, 3), (-1, 0)),
        # bump: (3, 8), normal (0, 1): its nearest-corner rule breaks a four-way tie
        # toward the far side; ours breaks ties up, down, left, right (no motion here).
        (3, 3, (3, -2), (0, -1)),
        (7, 3, (8, 3), (1, 0)),
        (-1, 7, (-1, 8), (0, 1)),
        (3, 7, (3, 8), (0, 1)),
        (7, 7, (7, 8), (0, 1)),
    ],
)
def test_touch_on_static_overlaps_takes_the_minimum_displacement(x, y, touch, normal):
    col = first(Rect(x, y, 2, 2))
    assert col.started_overlapping and col.touch == touch and col.normal == normal


@pytest.mark.parametrize(
    ("goal", "touch", "normal"),
    [((4, 3), (-2, 3), (-1, 0)), ((2, 3), (8, 3), (1, 0)), ((3, 4), (3, -2), (0, -1)),
     ((3, 2), (3, 8), (0, 1))],
)  # fmt: skip
def test_touch_on_moving_overlaps_pushes_out_against_the_motion(goal, touch, normal):
    # bump pushes back along the motion line; with the item centred in the box the
    # minimum translation against the motion is the same place.
    col = first(Rect(3, 3, 2, 2), goal)
    assert col.touch == touch and col.normal == normal


@pytest.mark.parametrize(
    ("start", "touch", "normal"),
    [((-3, 3), (-2, 3), (-1, 0)), ((9, 3), (8, 3), (1, 0)), ((3, -3), (3, -2), (0, -1)),
     ((3, 9), (3, 8), (0, 1))],
)  # fmt: skip
def test_touch_on_tunnels(start, touch, normal):
    col = first(Rect(*start, 2, 2), (3, 3))
    assert not col.started_overlapping and col.touch == touch and col.normal == normal


@pytest.mark.parametrize(
    ("goal", "touch", "normal", "slide"),
    [
        # bump's touch is (0.5, -2): it goes back along the motion line to where the
        # item would have entered the box (its "teleport", issue #37). Ours pushes out
        # by the minimum translation, against the motion: straight up. The slide goal,
        # what the item does next, is bump's.
        ((4, 5), (3, -2), (0, -1), (4, -2)),
        ((5, 4), (-2, 3), (-1, 0), (-2, 4)),  # bump touch: (-2, 0.5)
        ((2, 1), (3, 8), (0, 1), (2, 8)),  # bump touch: (5.5, 8)
        ((1, 2), (8, 3), (1, 0), (8, 2)),  # bump touch: (8, 5.5)
    ],
)
def test_slide_on_overlaps(goal, touch, normal, slide):
    col = first(Rect(3, 3, 2, 2), goal, "slide")
    assert col.touch == touch and col.normal == normal and col.slide == slide


@pytest.mark.parametrize(
    ("goal", "touch", "normal", "slide"),
    [((1, 4), (7, 8), (0, 1), (1, 8)), ((4, 1), (8, 7), (1, 0), (8, 1)),
     ((1, 1), (8, 8), (1, 0), (8, 1))],  # the last: the perfect corner case
)  # fmt: skip
def test_slide_over_tunnels(goal, touch, normal, slide):
    col = first(Rect(10, 10, 2, 2), goal, "slide")
    assert col.touch == touch and col.normal == normal and col.slide == slide


@pytest.mark.parametrize(
    ("goal", "touch", "normal", "bounce"),
    [
        ((4, 5), (3, -2), (0, -1), (4, -9)),  # bump touch: (0.5, -2), as for slide
        ((5, 4), (-2, 3), (-1, 0), (-9, 4)),
        ((2, 1), (3, 8), (0, 1), (2, 15)),
        ((1, 2), (8, 3), (1, 0), (15, 2)),
    ],
)
def test_bounce_on_overlaps(goal, touch, normal, bounce):
    col = first(Rect(3, 3, 2, 2), goal, "bounce")
    assert col.touch == touch and col.normal == normal and col.bounce == bounce


@pytest.mark.parametrize(
    ("goal", "touch", "normal", "bounce"),
    [((1, 4), (7, 8), (0, 1), (1, 12)), ((4, 1), (8, 7), (1, 0), (12, 1)),
     ((1, 1), (8, 8), (1, 0), (15, 1))],  # the last: the perfect corner case
)  # fmt: skip
def test_bounce_over_tunnels(goal, touch, normal, bounce):
    col = first(Rect(10, 10, 2, 2), goal, "bounce")
    assert col.touch == touch and col.normal == normal and col.bounce == bounce


# -- rect_spec.lua: detectCollision, as a projection --------------------------------------------


def detect(item, other, goal=None):
    world = World()
    world.add("other", other)
    cols = world.project(item, goal)
    return cols[0] if cols else None


def test_static_and_apart_is_no_collision():
    assert detect(Rect(0, 0, 1, 1), Rect(5, 5, 1, 1), (0, 0)) is None


def test_static_overlap_reports_the_overlap():
    col = detect(Rect(0, 0, 7, 6), Rect(5, 5, 1, 1), (0, 0))
    # bump's ti is -2, a negative pseudo-area; ours is the fraction 0.0, with
    # started_overlapping (the depth orders overlaps, see docs/world.md).
    assert col.started_overlapping and col.fraction == 0.0
    assert col.delta == (0, 0) and col.item_shape == Rect(0, 0, 7, 6)
    assert col.other_shape == Rect(5, 5, 1, 1) and col.normal == (0, -1)


def test_moving_and_apart_is_no_collision():
    assert detect(Rect(0, 0, 1, 1), Rect(5, 5, 1, 1), (0, 1)) is None


@pytest.mark.parametrize(
    ("item", "other", "goal", "fraction", "normal"),
    [
        (Rect(1, 1, 1, 1), Rect(5, 0, 1, 1), (6, 0), 0.6, (-1, 0)),  # from the left
        (Rect(6, 0, 1, 1), Rect(1, 0, 1, 1), (1, 1), 0.8, (1, 0)),  # from the right
        (Rect(0, 0, 1, 1), Rect(0, 4, 1, 1), (0, 5), 0.6, (0, -1)),  # from the top
        (Rect(0, 4, 1, 1), Rect(0, 0, 1, 1), (0, -1), 0.6, (0, 1)),  # from the bottom
    ],
)
def test_moving_collisions_from_each_side(item, other, goal, fraction, normal):
    col = detect(item, other, goal)
    assert not col.started_overlapping and col.fraction == fraction and col.normal == normal


def test_nasty_corner_cases_are_no_collision():
    assert detect(Rect(0, 16, 16, 16), Rect(16, 0, 16, 16), (-1, 15)) is None


def test_vec2_positions_compare_as_tuples():
    assert Vec2(1.0, 2.0) == (1, 2)


@pytest.mark.parametrize("shape", [Rect(3, 3, 2, 2), Circle(4, 4, 1)])
def test_a_still_item_bounced_out_of_an_overlap_stops_where_it_was_pushed(shape):
    """bump.lua bounces only the motion it was given: a still item has none."""
    world = World()
    world.add("box", Rect(0, 0, 8, 8))
    world.add("it", shape)
    start = (shape.x, shape.y)
    position, cols = world.move("it", start, lambda item, other: "bounce")
    assert len(cols) == 1 and cols[0].started_overlapping
    assert position == cols[0].touch == cols[0].bounce
    assert position[1] == shape.y - 5  # out through the top, the nearest side
    assert not overlaps(world.shape("it"), world.shape("box"))
