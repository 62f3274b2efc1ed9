"""World.move_all (compiled for rectangles) gives exactly the answers of World.move
called for each item in the order they were added."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from collide2d import Circle, Rect, World

coords = st.one_of(
    st.integers(-40, 40).map(float),
    st.floats(-40, 40, allow_nan=False).map(lambda v: round(v, 2)),
)
sizes = st.sampled_from([0.0, 1.0, 4.0, 8.0, 12.5, 16.0])
rects = st.builds(Rect, coords, coords, sizes, sizes)
shapes = st.one_of(
    rects, rects, rects, st.builds(Circle, coords, coords, st.sampled_from([0.0, 3.0]))
)
RESPONSES = ["slide", "slide", "touch", "cross", None, "bounce"]


def world_of(scene):
    world = World(cell_size=16)
    for k, shape in enumerate(scene):
        world.add(k, shape)
    return world


def reference_world_of(scene):
    """The same world with every move through the Python check loop."""
    world = world_of(scene)
    world._compiled_moves = False
    return world


def pure_filter(seed):
    """A filter that answers by the pair only (move_all asks it before the moves)."""
    return lambda item, other: RESPONSES[(item * 7 + other * 13 + seed) % len(RESPONSES)]


@settings(max_examples=300)
@given(
    st.lists(shapes, min_size=2, max_size=14),
    st.data(),
    st.integers(0, 100),
)
def test_move_all_equals_one_move_after_the_other(scene, data, seed):
    movers = data.draw(st.sets(st.integers(0, len(scene) - 1), min_size=1))
    goals = {m: data.draw(st.tuples(coords, coords)) for m in sorted(movers)}
    filter = pure_filter(seed)
    together = world_of(scene)
    result = together.move_all(goals, filter)
    apart = reference_world_of(scene)  # one move after the other, in Python
    expected = {m: apart.move(m, goals[m], filter) for m in sorted(movers)}
    assert result == expected
    assert [together.shape(k) for k in together] == [apart.shape(k) for k in apart]
    together.validate()


def test_rect_movers_take_the_compiled_path_and_others_do_not(monkeypatch):
    world = World()
    world.add("floor", Rect(0, 100, 500, 10))
    world.add("box", Rect(0, 0, 10, 10))
    world.add("ball", Circle(50, 0, 5))
    calls = []
    original = World.move

    def spy(self, item, goal, filter=None):
        calls.append(item)
        return original(self, item, goal, filter)

    monkeypatch.setattr(World, "move", spy)
    moved = world.move_all({"box": (20, 200), "ball": (60, 200)})
    assert calls == ["ball"]  # the rectangle was moved by the kernel
    assert moved["box"].position == (20, 90) and moved["ball"].position == (60, 95)


def test_a_thousand_actors_on_tiles_match_the_python_moves():
    from collide2d.scenes import platformer_level

    tiles, actors, _ = platformer_level(2000, 300, seed=4)

    def build():
        world = World(cell_size=64)
        for k, row in enumerate(tiles.tolist()):
            world.add(("tile", k), Rect(*row))
        for k, row in enumerate(actors.tolist()):
            world.add(("actor", k), Rect(*row))
        return world

    def filter(item, other):
        return "slide" if other[0] == "tile" else None

    goals = {("actor", k): (row[0] + 3.0, row[1] + 7.5) for k, row in enumerate(actors.tolist())}
    a, b = build(), build()
    assert a.move_all(goals, filter) == {
        item: b.move(item, goal, filter) for item, goal in goals.items()
    }


@pytest.mark.parametrize("cell_size", [4.0, 64.0, 1000.0])
def test_move_all_does_not_depend_on_the_cell_size(cell_size):
    scene = [Rect(0, 20, 100, 5), Rect(10, 0, 6, 6), Rect(30, 5, 6, 6), Rect(12, 8, 3, 3)]
    worlds = []
    for size in (cell_size, 16.0):
        world = World(cell_size=size)
        for k, shape in enumerate(scene):
            world.add(k, shape)
        worlds.append(world.move_all({1: (40, 30), 2: (0, 30), 3: (50, 2)}))
    assert worlds[0] == worlds[1]


@given(
    st.lists(
        st.builds(
            Rect,
            st.one_of(coords, st.sampled_from([1e15, -1e15, 2.0**60])),
            coords,
            st.sampled_from([0.0, 3.0, 40.0, 5000.0]),
            sizes,
        ),
        min_size=2,
        max_size=10,
    ),
    st.data(),
)
def test_region_pairs_equal_brute_force_for_far_and_wide_items(scene, data):
    import numpy as np

    from collide2d.world.move_all import _region_pairs

    regions = np.array([tuple(r) for r in scene], dtype=np.float64)
    movers = np.array(sorted(data.draw(st.sets(st.integers(0, len(scene) - 1), min_size=1))))
    found = _region_pairs(regions, movers, 16.0)
    expected = [
        (m, i)
        for m, a in enumerate(movers.tolist())
        for i, b in enumerate(scene)
        if i != a and overlaps_strictly(scene[a], b)
    ]
    assert found.tolist() == [list(pair) for pair in expected]


def overlaps_strictly(a, b):
    return a.x < b.x + b.w and b.x < a.x + a.w and a.y < b.y + b.h and b.y < a.y + a.h


@settings(max_examples=300)
@given(st.lists(shapes, min_size=1, max_size=14), st.data(), st.integers(0, 100))
def test_compiled_single_moves_equal_the_python_check_loop(scene, data, seed):
    """``move`` and ``check`` of a rectangle take the compiled moves where they can;
    every answer equals the Python check loop's, move after move."""
    filter = pure_filter(seed)
    fast, slow = world_of(scene), reference_world_of(scene)
    for _ in range(data.draw(st.integers(1, 4))):
        item = data.draw(st.integers(0, len(scene) - 1))
        goal = data.draw(st.tuples(coords, coords))
        assert fast.check(item, goal, filter) == slow.check(item, goal, filter)
        assert fast.move(item, goal, filter) == slow.move(item, goal, filter)
        assert [fast.shape(k) for k in fast] == [slow.shape(k) for k in slow]
    fast.validate()


def test_a_single_rect_move_runs_compiled_and_counts_its_tests(monkeypatch):
    from collide2d.world import world as world_module

    world = World()
    world.add("floor", Rect(0, 100, 500, 10))
    world.add("box", Rect(0, 0, 10, 10))
    calls = []
    monkeypatch.setattr(world, "_resolve", lambda *a: calls.append(a))  # the Python loop
    assert world_module.World._compiled_moves
    position, cols = world.move("box", (0, 200))
    assert position == (0, 90) and [c.other for c in cols] == ["floor"] and not calls
    assert world.stats.tests == 1 and world.stats.visits == 2


def test_a_replaced_built_in_response_is_never_run_compiled():
    """``add_response('slide', ...)`` replaces the built-in for every move, compiled
    paths included (``move_all`` ran the built-in slide before)."""

    def stop(world, col, shape, goal, filter):  # a "slide" that stops at the touch
        return col.touch, []

    scene = [Rect(0, 100, 500, 10), Rect(0, 0, 10, 10), Rect(100, 0, 10, 10)]
    for use_all in (False, True):
        world = world_of(scene)
        world.add_response("slide", stop)
        goals = {1: (50.0, 200.0), 2: (150.0, 200.0)}
        if use_all:
            moved = world.move_all(goals)
        else:
            moved = {k: world.move(k, g) for k, g in goals.items()}
        assert moved[1].position == (22.5, 90.0) and moved[2].position == (122.5, 90.0)


def test_a_mover_thrown_out_of_its_region_is_met_by_the_later_movers_it_reaches():
    """A bounce (the check loop) throws ``a`` back past its start, out of the region
    the plan gave it; ``b``, moved later, crosses where ``a`` now is, and must meet it
    there (the compiled moves alone would have missed it); ``c``, far away, still
    moves compiled."""

    def scene() -> World:
        world = World(cell_size=16)
        world.add("wall", Rect(30, 0, 10, 40))
        world.add("a", Rect(0, 10, 10, 10))
        world.add("b", Rect(-60, 30, 10, 10))
        world.add("c", Rect(500, 500, 10, 10))
        return world

    def filter(item, other):
        return "bounce" if item == "a" else "slide"

    goals = {"a": (100, 10), "b": (-60, -20), "c": (520, 500)}
    one = scene()
    expected = {item: one.move(item, goal, filter) for item, goal in goals.items()}
    assert expected["a"].position.x < 0  # thrown back past its start
    assert [c.other for c in expected["b"].collisions] == ["a"]  # and met there
    assert scene().move_all(goals, filter) == expected
    world = scene()
    world.set_response("default", "default", "slide")
    moved = world.move_arrays(list(goals), [goals[k] for k in goals], filter)
    assert moved.positions.tolist() == [list(expected[k].position) for k in goals]
