"""The World's cell lists (``world/cell_lists.py``) and the single move through them
(``world/listed_move.py``): every answer the check loop's, the lists kept in step
with the item table whatever changes it, and made again, larger, when they fill."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from collide2d import Circle, Rect, World
from collide2d._kernels import lazy
from collide2d._kernels.codes import RECT
from collide2d.continuous import rect_exact
from collide2d.world import far_rects, listed_move, move_all

lists = lazy("moves.cell_lists")

RESPONSES = ["slide", "slide", "touch", "cross", None]


def test_the_kernels_constants_are_the_worlds():
    assert lists.REGION_PAD == move_all.REGION_PAD
    assert lists.NEAR == far_rects.NEAR
    assert lists.KEPT == rect_exact.KEPT
    assert lists.RECT == RECT


def worlds(scene, cell):
    """The same scene in a World whose single moves go through the cell lists, and
    in one whose moves run the Python check loop alone (the reference)."""
    listed, loop = World(cell_size=cell), World(cell_size=cell)
    for k, shape in enumerate(scene):
        listed.add(k, shape)
        loop.add(k, shape)
    loop._compiled_moves = False
    return listed, loop


def same(listed, loop):
    assert [listed.shape(k) for k in listed] == [loop.shape(k) for k in loop]
    listed.validate()  # the broadphase, the item table and the cell lists


def scenes():
    """Rectangles on a 7 x 7 grid of spots 4 apart (none overlapping at the start),
    one in ten a circle; sizes from a sliver to most of a spot."""
    side = st.one_of(st.sampled_from([1.0, 2.0, 0.5, 0.1, 3.0]), st.floats(0.05, 3.5))
    spot = st.tuples(st.integers(0, 6), st.integers(0, 6))

    def shape(at, w, h, round_):
        x, y = 4.0 * at[0] + 0.25, 4.0 * at[1] - 0.5
        return Circle(x + 1.5, y + 1.5, min(w, h) / 2) if round_ else Rect(x, y, w, h)

    one = st.tuples(spot, side, side, st.sampled_from([False] * 9 + [True]))
    return st.lists(one, min_size=1, max_size=30, unique_by=lambda t: t[0]).map(
        lambda rows: [shape(*row) for row in rows]
    )


def number(item):
    """A number for each item, the same in every process (``hash`` of a string is
    not)."""
    return item if isinstance(item, int) else 1000 + item[1]


@settings(max_examples=150, deadline=None)
@given(scenes(), st.sampled_from([1.0, 4.0, 16.0]), st.data())
def test_single_moves_answer_as_the_check_loop_whatever_changes_the_world(scene, cell, data):
    """Moves and checks through the lists, between every other kind of change to the
    World (``add``, ``remove``, ``update``, ``move_all``, ``move_arrays``, ``step``):
    the same answers and shapes as the check loop's, the lists always in step."""
    listed, loop = worlds(scene, cell)
    seed = data.draw(st.integers(0, 20))

    def filter(item, other):
        return RESPONSES[(number(item) * 7 + number(other) * 13 + seed) % len(RESPONSES)]

    step = st.sampled_from([0.0, 1.0, -3.0, 7.5, 30.0, -0.25, 0.3, -4.1, 2.0**-30])
    added = 0
    for _ in range(data.draw(st.integers(1, 8))):
        items = list(loop)
        item = data.draw(st.sampled_from(items))
        x, y = loop.shape(item)[:2]
        goal = (x + data.draw(step), y + data.draw(step))
        what = data.draw(st.sampled_from(
            ["move", "move", "move", "check", "add", "remove", "update", "all", "arrays", "step"]
        ))  # fmt: skip
        if what == "move":
            assert listed.move(item, goal, filter) == loop.move(item, goal, filter)
        elif what == "check":
            assert listed.check(item, goal, filter) == loop.check(item, goal, filter)
        elif what == "add":
            shape = Rect(goal[0] + 100.0, goal[1], 1.5, 2.5)
            added += 1
            listed.add(("new", added), shape)
            loop.add(("new", added), shape)
        elif what == "remove" and len(items) > 1:
            listed.remove(item)
            loop.remove(item)
        elif what == "update":
            listed.update(item, goal)
            loop.update(item, goal)
        elif what == "all":
            assert listed.move_all({item: goal}, filter) == loop.move_all({item: goal}, filter)
        elif what == "arrays" and type(loop.shape(item)) is Rect:
            a = listed.move_arrays([item], np.array([goal]), filter)
            b = loop.move_arrays([item], np.array([goal]), filter)
            assert np.array_equal(a.positions, b.positions)
        elif what == "step":
            listed.set_velocity(item, (goal[0] - x, goal[1] - y))
            loop.set_velocity(item, (goal[0] - x, goal[1] - y))
            assert listed.step(0.5).contacts == loop.step(0.5).contacts
        same(listed, loop)


def test_a_check_changes_nothing():
    listed, loop = worlds([Rect(0, 10, 40, 2), Rect(0, 0, 4, 4)], 8.0)
    before = listed._table.box.copy()
    for _ in range(3):
        assert listed.check(1, (3, 30)) == loop.check(1, (3, 30))
    assert np.array_equal(listed._table.box, before)
    same(listed, loop)


def test_lists_that_fill_are_made_again_larger():
    """Forty items over 49 cells each fill the first 1,024 entries at the first
    build, and moves that take them over 64 cells each fill the next: each time the
    lists are made again, twice as large, and every answer stays the check loop's."""
    scene = [Rect(8.0 * k, 0.0, 6.5, 6.5) for k in range(40)]
    listed, loop = worlds(scene, 1.0)
    listed.move(0, (0.0, 0.0))
    assert listed._cell_lists.room == 2048
    for k in range(40):
        goal = (8.0 * k + 0.75, 0.75)
        assert listed.move(k, goal) == loop.move(k, goal)
        same(listed, loop)
    listed.move(0, (0.75, 0.75))  # made again after the change that filled them
    assert listed._cell_lists.room == 4096
    same(listed, loop)


def test_items_over_many_cells_and_far_out_are_kept_apart():
    scene = [Rect(0.0, 20.0, 1000.0, 2.0), Rect(2.0**40, 0.0, 1.0, 1.0), Rect(5.0, 0.0, 2.0, 2.0)]
    listed, loop = worlds(scene, 1.0)
    assert listed.move(2, (5.0, 40.0)) == loop.move(2, (5.0, 40.0))  # lands on the long one
    kept = listed._cell_lists
    assert sorted(kept.apart[: kept.meta[lists.APART]].tolist()) == [0, 1]
    same(listed, loop)


def test_a_move_far_out_or_over_many_cells_goes_elsewhere(monkeypatch):
    routes = []
    real = listed_move.move_listed

    def spy(*args):
        routes.append(real(*args))
        return routes[-1]

    monkeypatch.setattr("collide2d.world.world.move_listed", spy)
    listed, loop = worlds([Rect(0.0, 0.0, 1.0, 1.0), Rect(3.0, 0.0, 1.0, 1.0)], 1.0)
    for goal in ((10_000.0, 0.5), (2.0**60, 0.0), (1.5, 0.0)):
        assert listed.move(0, goal) == loop.move(0, goal)
        same(listed, loop)
    assert routes[:2] == [listed_move.ELSEWHERE] * 2 and isinstance(routes[2], tuple)


def test_a_circle_to_respond_to_goes_to_the_check_loop():
    listed, loop = worlds([Circle(10.0, 0.5, 2.0), Rect(0.0, 0.0, 1.0, 1.0)], 4.0)
    assert listed.move(1, (20.0, 0.0)) == loop.move(1, (20.0, 0.0))
    same(listed, loop)
    position, (col,) = listed.move(1, (20.0, 0.0), lambda a, b: "cross")  # passes through
    assert position == (20.0, 0.0) and col.other == 0 and col.response == "cross"


def test_the_broadphase_learns_of_moves_when_read():
    world = World(cell_size=8)
    world.add("a", Rect(0, 0, 2, 2))
    world.move("a", (100.0, 100.0))
    assert "a" in world._stale
    assert world.query_rect(Rect(99, 99, 4, 4)) == ["a"] and not world._stale
    assert world.broadphase.query_rect(Rect(0, 0, 2, 2)) == []


def test_a_filter_that_changes_the_world_mid_move():
    """A filter that moves another item: the check loop takes the move over (the
    lists were read before the change), and everything stays in step."""
    world = World(cell_size=4)
    world.add("wall", Rect(10, 0, 2, 10))
    world.add("box", Rect(0, 0, 2, 2))
    world.add("other", Rect(0, 20, 2, 2))

    def filter(item, other):
        if item == "box" and other == "wall":
            world.update("other", (0.0, 30.0))
        return "slide"

    position, cols = world.move("box", (20.0, 0.0), filter)
    assert position == (8.0, 0.0) and [c.other for c in cols] == ["wall"]
    assert world.shape("other") == Rect(0.0, 30.0, 2, 2)
    world.validate()


def test_stats_count_the_tests_and_the_items_looked_at():
    world = World(cell_size=64)
    world.add("floor", Rect(0, 100, 500, 10))
    world.add("box", Rect(0, 0, 10, 10))
    world.add("far", Rect(400, 0, 10, 10))
    world.move("box", (0, 200))
    assert world.stats.tests == 1 and world.stats.visits == 2  # the floor; it and the box


@pytest.mark.parametrize("cell", [0.5, 64.0, 1e6])
def test_any_cell_size(cell):
    scene = [Rect(3.0 * k, 10.0, 2.5, 1.0) for k in range(20)] + [Rect(1.0, 0.0, 1.0, 1.0)]
    listed, loop = worlds(scene, cell)
    for goal in ((1.0, 30.0), (40.0, 30.0), (-5.0, -5.0), (math.pi, 8.5)):
        assert listed.move(20, goal) == loop.move(20, goal)
        same(listed, loop)


def test_a_step_between_single_moves():
    """``World.step`` writes its rows without counting them as the World's writes:
    the lists are made again after it (a body the step moved is met where it went)."""
    world = World(cell_size=4)
    world.add("ball", Rect(0, 0, 2, 2), velocity=(20.0, 0.0))
    world.add("box", Rect(20, 10, 2, 2))
    world.move("box", (20.0, 11.0))  # the lists are made
    world.step(1.0)
    assert world.shape("ball") == Rect(20.0, 0.0, 2, 2)
    world.validate()
    position, (col,) = world.move("box", (20.0, 0.0))
    assert position == (20.0, 2.0) and col.other == "ball"
    world.validate()


def test_single_changes_keep_the_lists_without_making_them_again():
    """``update``, ``add``, ``remove`` and ``set_velocity`` change the lists in place (a
    game that teleports an item between moves would otherwise have them made again at
    its next move, a millisecond for 10,000 items); ``move_all`` has them made again."""
    world = World(cell_size=4)
    for k in range(10):
        world.add(k, Rect(5.0 * k, 0.0, 2.0, 2.0))
    world.move(0, (0.0, 1.0))
    kept = world._cell_lists
    changes = (
        lambda: world.update(3, (100.0, 100.0)),
        lambda: world.update(4, Rect(20.0, 0.0, 30.0, 2.0)),
        lambda: world.add("new", Rect(50.0, 50.0, 1.0, 1.0)),
        lambda: world.remove(5),
        lambda: world.set_velocity(2, (1.0, 0.0)),
        lambda: world.move(1, (5.0, 3.0)),
    )
    for change in changes:
        change()
        assert kept.version == world._table.version
        world.validate()
    world.move_all({1: (5.0, 9.0)})
    assert kept.version != world._table.version
    _, (col,) = world.move("new", (101.0, 101.0))  # made again: meets item 3
    assert col.other == 3 and kept.version == world._table.version
    world.validate()


def test_a_move_among_more_candidates_than_the_scratch_holds():
    """A slide along a floor of 300 tiles: more candidates than the 64 the scratch
    holds at first; it grows, and the move is the check loop's."""
    scene = [Rect(2.0 * k, 10.0, 2.0, 2.0) for k in range(300)] + [Rect(0.0, 0.0, 1.0, 1.0)]
    listed, loop = worlds(scene, 64.0)
    assert listed._cell_lists.candidates == 64
    assert listed.move(300, (590.0, 20.0)) == loop.move(300, (590.0, 20.0))
    assert listed._cell_lists.candidates >= listed.stats.tests == 296  # (the tiles left of 591)
    same(listed, loop)


def test_where_the_kernels_are_not_cached_a_process_of_their_own_compiles_them(monkeypatch):
    """The first move that finds the kernels missing from numba's cache starts their
    compile in a process of its own and moves by ``move_one`` meanwhile; once that
    process is done, the kernels load and moves take the cell lists' route. The
    answers are the same either way."""
    from collide2d._kernels import cache_guard

    started = []

    class Process:  # stands in for the compiling process
        polls = 0

        def poll(self):
            self.polls += 1
            return None if self.polls < 3 else 0

    monkeypatch.setattr(listed_move, "READY_NOW", False)
    monkeypatch.setattr(listed_move, "_state", {"ready": False, "process": None, "search": None,
                                                "move": None})  # fmt: skip
    monkeypatch.setattr(cache_guard, "cached", lambda kernel: False)
    monkeypatch.setattr(listed_move, "_start", lambda: started.append(1) or Process())
    routes = []
    real = listed_move.move_listed
    monkeypatch.setattr(
        "collide2d.world.world.move_listed", lambda *a: routes.append(real(*a)) or routes[-1]
    )
    scene = [Rect(16.0 * k, 32.0, 16.0, 16.0) for k in range(8)] + [Rect(4.0, 0.0, 12.0, 20.0)]
    listed, loop = worlds(scene, 64.0)
    for f in range(5):
        goal = (4.0 + 3.0 * f, 20.0 + f)
        assert listed.move(8, goal) == loop.move(8, goal)
        same(listed, loop)
    assert started == [1]  # once
    assert routes[:3] == [listed_move.ELSEWHERE] * 3
    # then the three single moves of the warmup task that loads the kernels, and ours
    assert all(isinstance(route, tuple) for route in routes[3:]) and len(routes) == 3 + 3 + 2
