"""World.move_arrays gives move_all's answers as columns, and World.group_filter
answers as set_response's table says, compiled or not."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from collide2d import Circle, Rect, UnknownKeyError, World
from tests.world.test_move_all import coords, pure_filter, reference_world_of, shapes, world_of

GROUPS = ["a", "b", "c"]
STEP_RESPONSES = ["ignore", "cross", "touch", "slide", "bounce"]


def columns_of(moved, items):
    """``move_all``'s records in ``move_arrays``' columns, for comparing."""
    rows = [(i, c) for i, item in enumerate(items) for c in moved[item].collisions]
    return {
        "positions": [list(moved[item].position) for item in items],
        "start": np.cumsum([0] + [len(moved[item].collisions) for item in items]).tolist(),
        "mover": [i for i, _ in rows],
        "other": [c.other for _, c in rows],
        "response": [c.response for _, c in rows],
        "fraction": [c.fraction for _, c in rows],
        "normal": [list(c.normal) for _, c in rows],
        "touch": [list(c.touch) for _, c in rows],
        "started_overlapping": [c.started_overlapping for _, c in rows],
    }


def columns_from(arrays):
    return {
        "positions": arrays.positions.tolist(),
        "start": arrays.start.tolist(),
        "mover": arrays.mover.tolist(),
        "other": arrays.other,
        "response": arrays.response.tolist(),
        "fraction": arrays.fraction.tolist(),
        "normal": arrays.normal.reshape(-1, 2).tolist(),
        "touch": arrays.touch.reshape(-1, 2).tolist(),
        "started_overlapping": arrays.started_overlapping.tolist(),
    }


@settings(max_examples=300)
@given(st.lists(shapes, min_size=2, max_size=14), st.data(), st.integers(0, 100))
def test_move_arrays_equals_move_all_in_any_order_of_the_items(scene, data, seed):
    """The same moves (in the order the items were added) whatever order the caller
    lists them in; rows grouped by the caller's order; circles, bounces and custom
    answers go through the Python moves as in ``move_all``."""
    movers = data.draw(st.permutations(range(len(scene))))
    movers = movers[: data.draw(st.integers(1, len(scene)))]
    goals = [data.draw(st.tuples(coords, coords)) for _ in movers]
    filter = pure_filter(seed)
    arrays_world, records_world = world_of(scene), world_of(scene)
    arrays = arrays_world.move_arrays(movers, np.array(goals), filter)
    records = records_world.move_all(dict(zip(movers, goals, strict=True)), filter)
    assert arrays.items == movers and len(arrays) == len(movers)
    assert columns_from(arrays) == columns_of(records, movers)
    assert [arrays_world.shape(k) for k in arrays_world] == [
        records_world.shape(k) for k in records_world
    ]
    arrays_world.validate()


def grouped_world(scene, groups, table, compiled=True):
    world = world_of([]) if compiled else reference_world_of([])
    for (a, b), name in table.items():
        world.set_response(a, b, name)
    for k, (shape, group) in enumerate(zip(scene, groups, strict=True)):
        world.add(k, shape, group=group)
    return world


group_tables = st.dictionaries(
    st.tuples(st.sampled_from(GROUPS), st.sampled_from(GROUPS)),
    st.sampled_from(STEP_RESPONSES),
    max_size=6,
)


@settings(max_examples=300)
@given(st.lists(shapes, min_size=2, max_size=12), st.data(), group_tables)
def test_the_group_filter_read_whole_equals_the_python_check_loop(scene, data, table):
    """``move_all``, ``move_arrays`` and ``move`` read the group table in compiled
    code; each equals the Python check loop asking a plain function the same."""
    groups = [data.draw(st.sampled_from(GROUPS)) for _ in scene]
    movers = sorted(data.draw(st.sets(st.integers(0, len(scene) - 1), min_size=1)))
    goals = {m: data.draw(st.tuples(coords, coords)) for m in movers}
    reference = grouped_world(scene, groups, table, compiled=False)
    answers = {
        (i, j): reference.group_filter(i, j)
        for i in range(len(scene))
        for j in range(len(scene))
        if i != j
    }
    expected = {m: reference.move(m, goals[m], lambda i, j: answers[i, j]) for m in movers}
    together = grouped_world(scene, groups, table)
    assert together.move_all(goals, together.group_filter) == expected
    arrays = grouped_world(scene, groups, table)
    moved = arrays.move_arrays(movers, [goals[m] for m in movers], arrays.group_filter)
    assert columns_from(moved) == columns_of(expected, movers)
    single = grouped_world(scene, groups, table)
    assert {m: single.move(m, goals[m], single.group_filter) for m in movers} == expected
    for world in (together, arrays, single):
        assert [world.shape(k) for k in world] == [reference.shape(k) for k in reference]


def test_the_group_filter_answers_from_the_latest_table():
    world = World()
    world.add("p", Rect(0, 0, 10, 10), group="actor")
    world.add("t", Rect(20, 0, 10, 10), group="tile")
    flt = world.group_filter
    assert flt is world.group_filter
    assert flt("p", "t") == "slide"  # unset pairs slide, as in step
    world.set_response("actor", "tile", "ignore")
    assert flt("p", "t") is None
    world.add("c", Rect(40, 0, 5, 5), group="coin")  # a group first seen after
    world.set_response("coin", "actor", "cross")
    assert flt("p", "c") == "cross" and flt("c", "p") == "cross"
    assert world.move("p", (60, 0), flt).collisions[0].other == "c"
    with pytest.raises(UnknownKeyError):
        flt("p", "nobody")


def test_a_replaced_built_in_named_by_the_group_table_runs_in_python():
    def stop(world, col, shape, goal, filter):  # a "slide" that stops at the touch
        return col.touch, []

    world = World()
    world.add("floor", Rect(0, 100, 500, 10), group="tile")
    world.add("box", Rect(0, 0, 10, 10), group="actor")
    world.add_response("slide", stop)
    moved = world.move_arrays(["box"], [(50.0, 200.0)], world.group_filter)
    assert moved.positions.tolist() == [[22.5, 90.0]]
    assert moved.response.tolist() == ["slide"]


def test_move_arrays_of_nothing_and_of_circles_and_bounces():
    world = World()
    world.add("floor", Rect(0, 100, 500, 10))
    empty = world.move_arrays([], np.empty((0, 2)))
    assert len(empty) == 0 and empty.start.tolist() == [0] and empty.other == []
    world.add("ball", Circle(50, 0, 5))
    world.add("box", Rect(0, 0, 10, 10))
    moved = world.move_arrays(["box", "ball"], [(0, 200), (50, 150)], lambda i, o: "bounce")
    assert moved.positions.tolist() == [[0.0, -20.0], [50.0, 40.0]]  # reflected at 90, 95
    assert moved.mover.tolist() == [0, 1] and moved.other == ["floor", "floor"]
    assert moved.response.tolist() == ["bounce", "bounce"]
    assert moved.normal.tolist() == [[0.0, -1.0], [0.0, -1.0]]


def snapshot(world):
    return [(k, world.shape(k)) for k in world]


@pytest.mark.parametrize(
    ("items", "goals", "filter", "error", "match"),
    [
        (["a", "nobody"], [(1, 1), (2, 2)], None, UnknownKeyError, "nobody"),
        (["a", ["x"]], [(1, 1), (2, 2)], None, TypeError, "hashable"),
        (["a", "a"], [(1, 1), (2, 2)], None, ValueError, "distinct"),
        (["a", "b"], [(1, 1)], None, ValueError, "goals"),
        (["a", "b"], [(1, 1, 1), (2, 2, 2)], None, ValueError, "goals"),
        (["a", "b"], [(1, math.nan), (2, 2)], None, ValueError, "goals"),
        (["a", "b"], [(1, 1), (math.inf, 2)], None, ValueError, "goals"),
        (["a", "b"], [("x", 1), (2, 2)], None, ValueError, "goals"),
        (["a", "b"], [(1, 1), (2, 2)], 3, TypeError, "filter"),
        (["a", "b"], [(1, 1), (2, 2)], lambda i, o: "warp", ValueError, "warp"),
    ],
)
def test_bad_input_names_the_argument_and_leaves_the_world_as_it_was(
    items, goals, filter, error, match
):
    world = World()
    world.add("a", Rect(0, 0, 10, 10))
    world.add("b", Rect(30, 0, 10, 10))
    world.add("wall", Rect(0, 20, 100, 10))
    before = snapshot(world)
    with pytest.raises(error, match=match):
        world.move_arrays(items, goals, filter)
    assert snapshot(world) == before
    world.validate()


def test_a_filter_raising_after_some_moves_puts_every_item_back():
    world = World()
    world.add("a", Rect(0, 0, 10, 10))
    world.add("ball", Circle(50, 0, 5))  # moved by World.move, which asks again
    world.add("wall", Rect(0, 20, 100, 10))
    asked = []

    def flaky(item, other):
        asked.append(item)
        if item == "ball" and len(asked) > 2:
            raise RuntimeError("flaky filter")
        return "slide"

    before = snapshot(world)
    with pytest.raises(RuntimeError, match="flaky"):
        world.move_arrays(["a", "ball"], [(5, 40), (50, 40)], flaky)
    assert snapshot(world) == before
    world.validate()


def test_moved_rows_become_shapes_when_read_by_every_reader():
    """``move_arrays`` and ``step`` write rows and make shape objects only when read:
    every way of reading the world sees the moved shapes, and equals a world whose
    shapes were made at once (``move_all``)."""
    scene = [Rect(0, 100, 300, 10)] + [Rect(20 * k, 0, 8, 8) for k in range(12)]
    goals = [(20.0 * k + 3.0, 150.0) for k in range(12)]
    lazy, eager = world_of(scene), world_of(scene)
    movers = list(range(1, 13))
    lazy.move_arrays(movers, goals)
    eager.move_all(dict(zip(movers, goals, strict=True)))
    assert lazy._table.pending_any
    assert lazy.broadphase.get(6) == Rect(103.0, 92.0, 8.0, 8.0)  # read first of all
    assert lazy.shape(5) == eager.shape(5) == Rect(83.0, 92.0, 8.0, 8.0)
    assert lazy.query_rect(Rect(80, 90, 5, 5)) == eager.query_rect(Rect(80, 90, 5, 5)) == [5]
    assert lazy.query_point((105.0, 95.0)) == [6]
    assert lazy.query_segment((0, 96), (300, 96)) == movers
    lazy.update(7, (500.0, 0.0))  # a position keeps the size of the shape made from the row
    assert lazy.shape(7) == Rect(500.0, 0.0, 8.0, 8.0)
    lazy.remove(8)
    assert 8 not in lazy and len(lazy) == 12
    eager.update(7, (500.0, 0.0))
    eager.remove(8)
    assert [(k, lazy.shape(k)) for k in lazy] == [(k, eager.shape(k)) for k in eager]
    lazy.validate()


def test_pending_rows_survive_compaction_and_mix_with_step_and_single_moves():
    world = World()
    for k in range(200):
        world.add(k, Rect(10.0 * k, 0, 4, 4), velocity=(0.0, 1.0))
    world.move_arrays(list(range(0, 200, 2)), [(10.0 * k, 5.0) for k in range(0, 200, 2)])
    world.remove(2)  # a pending row emptied, not compacted yet
    assert len(world._table.items) == 200
    world.validate()
    for k in range(200):
        if (k % 4 in (1, 2) and k != 2) or k % 8 == 3:
            world.remove(k)  # enough removals to compact the table under the pending rows
    assert len(world._table.items) < 200
    world.step(2.0)  # every body falls 2 (the step writes rows, pending too)
    assert world.shape(0) == Rect(0.0, 7.0, 4.0, 4.0)
    assert world.shape(4) == Rect(40.0, 7.0, 4.0, 4.0)
    assert world.shape(7) == Rect(70.0, 2.0, 4.0, 4.0)
    world.add(2, Rect(20.0, 50.0, 4.0, 4.0))
    world.move(2, (20.0, 100.0))
    assert world.shape(2) == Rect(20.0, 100.0, 4.0, 4.0)
    world.validate()


def test_a_failing_call_after_pending_moves_restores_the_rows_and_shapes():
    world = World()
    world.add("a", Rect(0, 0, 10, 10))
    world.add("ball", Circle(50, 0, 5))
    world.add("wall", Rect(0, 20, 100, 10))
    world.move_arrays(["a"], [(3.0, 0.0)])  # "a" is now a pending row
    before = snapshot(world)  # reading makes the shapes, so set it pending again
    world.move_arrays(["a"], [(3.0, 0.0)])

    def failing(item, other):
        if item == "ball":
            raise RuntimeError("no")
        return "slide"

    with pytest.raises(RuntimeError):
        world.move_arrays(["a", "ball"], [(9.0, 40.0), (50.0, 40.0)], failing)
    assert snapshot(world) == before
    world.validate()


def test_adding_and_removing_other_items_leaves_moved_rows_pending():
    """A frame that spawns and removes items (bullets) after ``move_arrays`` does not
    make every moved item's shape (nor re-index it) on each add or remove."""
    world = World()
    for k in range(50):
        world.add(k, Rect(10.0 * k, 0, 4, 4))
    world.move_arrays(list(range(50)), [(10.0 * k, 7.0) for k in range(50)])
    pending = int(world._table.pending.sum())
    world.add("spawned", Rect(0, 100, 1, 1))
    world.remove(3)
    assert int(world._table.pending.sum()) == pending - 1  # the removed one only
    assert world.query_rect(Rect(41, 8, 1, 1)) == [4]
    assert world.shape(49) == Rect(490.0, 7.0, 4.0, 4.0)
    world.validate()


def test_another_worlds_group_filter_is_called_not_read_as_this_worlds_table():
    """The compiled moves read the group table whole only for the world's own filter;
    another world's filter is called, and answers from its own groups."""
    world, other = World(), World()
    world.add("floor", Rect(0, 10, 100, 5), group="tile")
    world.add("p", Rect(0, 0, 5, 5), group="actor")
    world.set_response("actor", "tile", "ignore")
    other.add("floor", Rect(0, 0, 1, 1))
    other.add("p", Rect(5, 5, 1, 1))  # the same names in the default group: "slide"
    down = world.move_arrays(["p"], [(0.0, 20.0)], world.group_filter)
    assert down.positions.tolist() == [[0.0, 20.0]]  # through the floor: ignored
    up = world.move_arrays(["p"], [(0.0, 0.0)], other.group_filter)
    assert up.positions.tolist() == [[0.0, 15.0]] and up.other == ["floor"]  # slid under it
    before = snapshot(world)
    with pytest.raises(UnknownKeyError):
        world.move_all({"p": (0.0, 30.0)}, World().group_filter)  # knows neither item
    assert snapshot(world) == before


@st.composite
def placed_masks(draw):
    from collide2d import Mask, PlacedMask

    w, h = draw(st.integers(1, 6)), draw(st.integers(1, 6))
    bits = draw(st.lists(st.booleans(), min_size=w * h, max_size=w * h))
    mask = Mask.from_array(np.array(bits, dtype=bool).reshape(h, w))
    return PlacedMask(mask, draw(coords), draw(coords))


@settings(max_examples=150)
@given(
    st.lists(st.one_of(shapes, placed_masks()), min_size=2, max_size=10),
    st.data(),
    st.integers(0, 100),
)
def test_masks_as_movers_and_terrain_move_as_in_the_python_check_loop(scene, data, seed):
    """Pixel masks among the items (terrain, or moved): ``move_arrays`` and
    ``move_all`` equal ``move`` after ``move`` in the Python check loop."""
    movers = sorted(data.draw(st.sets(st.integers(0, len(scene) - 1), min_size=1)))
    goals = {m: data.draw(st.tuples(coords, coords)) for m in movers}
    filter = pure_filter(seed)
    reference = reference_world_of(scene)
    expected = {m: reference.move(m, goals[m], filter) for m in movers}
    together = world_of(scene)
    assert together.move_all(goals, filter) == expected
    arrays = world_of(scene)
    moved = arrays.move_arrays(movers, [goals[m] for m in movers], filter)
    assert columns_from(moved) == columns_of(expected, movers)
    for world in (together, arrays):
        assert [world.shape(k) for k in world] == [reference.shape(k) for k in reference]
        world.validate()
