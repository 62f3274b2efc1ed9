"""Rectangles moving among polygons in the compiled moves (``World.move_all``,
``move_arrays``): exactly the answers of ``World.move`` in Python, one move after
the other, and compiled for the movers the kernel can decide."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from collide2d import PlacedPolygon, Polygon, Rect, World
from collide2d._kernels import lazy
from collide2d.tolerances import SWEEP_EXACT_RANGE
from tests.geometry.polygon_strategies import convex_polygons

coords = st.integers(-40, 40).map(float) | st.floats(-40, 40, allow_nan=False).map(
    lambda v: round(v, 3)
)
placed = st.builds(PlacedPolygon, convex_polygons(), coords, coords)
rects = st.builds(
    Rect, coords, coords, st.sampled_from([1.0, 2.5, 8.0, 16.0]), st.sampled_from([1.0, 3.0, 8.0])
)
RESPONSES = ["slide", "slide", "slide", "touch", "cross", None]


def world_of(scene, compiled=True):
    world = World(cell_size=16)
    for k, shape in enumerate(scene):
        world.add(k, shape)
    world._compiled_moves = compiled
    return world


def pure_filter(seed):
    """A filter that answers by the pair only (move_all asks it before the moves)."""
    return lambda item, other: RESPONSES[(item * 7 + other * 13 + seed) % len(RESPONSES)]


@settings(max_examples=400, deadline=None)
@given(
    st.lists(st.one_of(placed, placed, rects), min_size=1, max_size=10),
    st.lists(rects, min_size=1, max_size=5),
    st.data(),
    st.integers(0, 100),
)
def test_rects_among_polygons_move_as_one_move_after_the_other(obstacles, movers, data, seed):
    scene = [*obstacles, *movers]
    first = len(obstacles)
    goals = {first + k: data.draw(st.tuples(coords, coords)) for k in range(len(movers))}
    filter = pure_filter(seed)
    together = world_of(scene)
    result = together.move_all(goals, filter)
    apart = world_of(scene, compiled=False)  # one move after the other, in Python
    expected = {m: apart.move(m, goals[m], filter) for m in sorted(goals)}
    assert result == expected
    assert [together.shape(k) for k in together] == [apart.shape(k) for k in apart]
    together.validate()


def ramp_pieces(count: int, rise: float) -> list[Polygon]:
    """A ramp of ``count`` 16-unit pieces, each rising ``rise`` (the bench's slopes)."""
    pieces = []
    for k in range(count):
        left, right = 16.0 * k, 16.0 * (k + 1)
        pieces.append(Polygon([(left, 40 - rise * k), (right, 40 - rise * (k + 1)),
                               (right, 120), (left, 120)]))  # fmt: skip
    return pieces


@pytest.mark.parametrize("rise", [0.0, 4.0, 7.5, -3.0])
def test_walkers_on_a_ramp_of_many_pieces_match_and_run_compiled(monkeypatch, rise):
    def build(compiled):
        world = World(cell_size=32)
        for k, piece in enumerate(ramp_pieces(12, rise)):
            world.add(("ramp", k), piece)
        for k in range(8):
            world.add(("walker", k), Rect(4 + 20 * k, 20 - 2 * rise * k, 6, 10))
        world._compiled_moves = compiled
        return world

    a, b = build(True), build(False)
    calls = []
    original = World.move

    def spy(self, item, goal, filter=None):
        calls.append(item)
        return original(self, item, goal, filter)

    for frame in range(30):
        goals = {}
        for k in range(8):
            x, y = a.shape(("walker", k))[:2]
            goals[("walker", k)] = (x + (3.0 if (frame // 10 + k) % 2 else -2.5), y + 7.5)
        monkeypatch.setattr(World, "move", spy)
        moved = a.move_arrays(list(goals), [goals[item] for item in goals])
        monkeypatch.setattr(World, "move", original)
        expected = {item: b.move(item, goal) for item, goal in goals.items()}
        assert [tuple(p) for p in moved.positions.tolist()] == [
            tuple(expected[item].position) for item in goals
        ]
        assert moved.normal.tolist() == [
            list(c.normal) for item in goals for c in expected[item].collisions
        ]
    a.validate()
    # most moves run compiled: only a walker meeting a seam vertex to vertex goes to Python
    assert len(calls) < 30 * 8 // 4


def test_the_kernels_exact_range_is_the_tolerance():
    outlines = lazy("moves.outlines")
    assert (outlines._LOW, outlines._HIGH) == SWEEP_EXACT_RANGE


def test_a_slide_up_a_slope_leaving_its_box_is_still_compiled_and_exact():
    """Sliding up a slope takes the mover above the box spanned by its start and goal:
    the regions of a world with polygons reach as far as the move could go."""

    def build(compiled):
        world = World()
        world.add("slope", Polygon([(0, 40), (40, 0), (40, 40)]))
        world.add("a", Rect(-10, 30, 6, 6))
        world.add("lid", Rect(10, 10, 4, 4))  # above the box from start to goal
        world._compiled_moves = compiled
        return world

    goal = (30.0, 31.0)
    moved = build(True).move_all({"a": goal})
    assert moved == {"a": build(False).move("a", goal)}
    assert moved["a"].position[1] < 30.0  # it went up the slope


def test_the_platformer_with_slopes_matches_the_python_moves_frame_after_frame():
    from collide2d.scenes import platformer_level

    tiles, actors, velocities = platformer_level(2000, 300, seed=5)

    def build(compiled):
        world = World(cell_size=64)
        for k, (x, y, w, h) in enumerate(tiles.tolist()):
            if k % 5 == 0:  # every fifth tile a slope in its box, as bench_slopes.py
                world.add(("tile", k), Polygon([(x, y + 4.0), (x + w, y), (x + w, y + h),
                                                (x, y + h)]), group="tile")  # fmt: skip
            else:
                world.add(("tile", k), Rect(x, y, w, h), group="tile")
        for k, row in enumerate(actors.tolist()):
            world.add(("actor", k), Rect(*row), group="actor")
        world.set_response("actor", "actor", "ignore")
        world._compiled_moves = compiled
        return world

    a, b = build(True), build(False)
    names = [("actor", k) for k in range(len(actors))]
    for _ in range(4):
        goals = [(x + vx, y + vy) for (x, y), (vx, vy) in zip(
            (a.shape(n)[:2] for n in names), velocities.tolist(), strict=True)]  # fmt: skip
        moved = a.move_arrays(names, goals, a.group_filter)
        expected = [b.move(n, g, b.group_filter) for n, g in zip(names, goals, strict=True)]
        assert [tuple(p) for p in moved.positions.tolist()] == [e.position for e in expected]
        assert moved.other == [c.other for e in expected for c in e.collisions]
        assert moved.touch.tolist() == [list(c.touch) for e in expected for c in e.collisions]
    a.validate()


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.one_of(placed, placed, rects), min_size=3, max_size=12),
    st.lists(rects, min_size=1, max_size=4),
    st.data(),
)
def test_emptied_slots_and_turned_polygons_keep_the_rows_in_step(obstacles, movers, data):
    """After removals (the live rows are no longer the slots) and a polygon updated
    to another outline, wider than the others: the same answers as the Python."""
    scene = [*obstacles, *movers]
    first = len(obstacles)
    gone = data.draw(st.sets(st.integers(0, first - 1), max_size=first - 1))
    octagon = PlacedPolygon(Polygon.regular(0, 0, 6, 8, 0.3), *data.draw(st.tuples(coords, coords)))
    worlds = [world_of(scene), world_of(scene, compiled=False)]
    for world in worlds:
        for k in sorted(gone):
            world.remove(k)
        kept = [k for k in range(first) if k not in gone]
        world.update(kept[0], octagon)
    goals = {first + k: data.draw(st.tuples(coords, coords)) for k in range(len(movers))}
    together, apart = worlds
    result = together.move_all(goals, lambda item, other: "slide")
    expected = {m: apart.move(m, goals[m], lambda item, other: "slide") for m in sorted(goals)}
    assert result == expected
    together.validate()


@pytest.mark.parametrize("offset", [0.0, 1e6 + 0.5, 2.0**40 + 0.25, -3.0e15 - 1.0])
def test_far_from_the_origin_the_compiled_moves_still_match(offset):
    """Coordinates far out (where a unit in the last place is up to half a unit):
    the same answers as the check loop."""

    def build(compiled):
        world = World(cell_size=64)
        for k, piece in enumerate(ramp_pieces(6, 4.0)):
            world.add(("ramp", k), PlacedPolygon(piece, offset, offset))
        for k in range(4):
            world.add(("walker", k), Rect(offset + 4 + 20 * k, offset + 10 - 8 * k, 6, 10))
        world._compiled_moves = compiled
        return world

    a, b = build(True), build(False)
    goals = {("walker", k): (a.shape(("walker", k)).x + 5.0, a.shape(("walker", k)).y + 9.0)
             for k in range(4)}  # fmt: skip
    assert a.move_all(goals) == {item: b.move(item, goal) for item, goal in goals.items()}


def test_outside_the_exact_range_the_check_loop_moves_and_the_answers_stay(monkeypatch):
    """A world at the scale of ``1e-38`` (below ``SWEEP_EXACT_RANGE``): the kernel
    hands every move that meets a polygon to the check loop."""
    scale = 1e-38

    def build(compiled):
        world = World(cell_size=64 * scale)
        slope = Polygon([(0.0, 40 * scale), (40 * scale, 0.0), (40 * scale, 40 * scale)])
        world.add("slope", slope)
        world.add("a", Rect(-10 * scale, 30 * scale, 6 * scale, 6 * scale))
        world._compiled_moves = compiled
        return world

    calls = []
    original = World.move
    monkeypatch.setattr(World, "move", lambda *a: calls.append(a[1]) or original(*a))
    goal = (30 * scale, 31 * scale)
    moved = build(True).move_all({"a": goal})
    monkeypatch.setattr(World, "move", original)
    assert calls == ["a"]
    assert moved == {"a": build(False).move("a", goal)}
    assert moved["a"].collisions[0].other == "slope"


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.one_of(placed, placed, rects), min_size=1, max_size=10),
    st.lists(rects, min_size=1, max_size=3),
    st.data(),
    st.integers(0, 100),
)
def test_single_moves_among_polygons_equal_the_check_loop(obstacles, movers, data, seed):
    """``World.move`` of a rectangle near polygons runs the compiled moves (their
    region widened by the move's length): the check loop's answers, move by move."""
    scene = [*obstacles, *movers]
    first = len(obstacles)
    filter = pure_filter(seed)
    compiled, python = world_of(scene), world_of(scene, compiled=False)
    for _ in range(3):
        for k in range(len(movers)):
            goal = data.draw(st.tuples(coords, coords))
            assert compiled.move(first + k, goal, filter) == python.move(first + k, goal, filter)
    compiled.validate()


def test_a_single_move_up_a_slope_runs_compiled(monkeypatch):
    world = World()
    for k, piece in enumerate(ramp_pieces(6, 4.0)):
        world.add(("ramp", k), piece)
    world.add("walker", Rect(2, 20, 6, 10))
    python = World()
    for k, piece in enumerate(ramp_pieces(6, 4.0)):
        python.add(("ramp", k), piece)
    python.add("walker", Rect(2, 20, 6, 10))
    python._compiled_moves = False
    calls = []
    original = World._resolve

    def spy(self, *rest):
        if self is world:
            calls.append(rest[0])
        return original(self, *rest)

    monkeypatch.setattr(World, "_resolve", spy)
    heights = []
    for _ in range(40):
        x, y = world.shape("walker")[:2]
        goal = (x + 3.0, y + 7.5)
        assert world.move("walker", goal) == python.move("walker", goal)
        heights.append(world.shape("walker").y)
    assert calls.count("walker") <= 2  # a seam met vertex to vertex, at most
    assert heights[-1] < heights[5] - 5.0  # it walked up, across the seams
