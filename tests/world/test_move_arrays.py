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
