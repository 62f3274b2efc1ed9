"""A single rectangle's move runs through the World's cell lists
(``world/listed_move.py``), or, where those do not go, among a few rectangles in plain
Python (``world/one_move.py``) and among more in the compiled kernel: all give exactly
the World's generic check loop's answers, far from the origin too."""

from __future__ import annotations

from contextlib import contextmanager

from hypothesis import given, settings
from hypothesis import strategies as st

from collide2d import Rect, World
from collide2d.world import single_move

RESPONSES = ["slide", "slide", "slide", "touch", "cross", None]


@contextmanager
def most_candidates(most):
    """Moves with more candidates than ``most`` run compiled (-1: every move)."""
    kept = single_move.MOST_CANDIDATES
    single_move.MOST_CANDIDATES = most
    try:
        yield
    finally:
        single_move.MOST_CANDIDATES = kept


def offsets():
    return st.one_of(
        st.sampled_from([0.0, 0.5, 1e6 + 0.1, -1e9 + 0.25, 2.0**40 + 0.5, 3.0e15]),
        st.floats(-3.0, 3.0),  # near 0, where by - h + h often rounds past by
    )


def tiles(offset):
    """A field of small rectangles, one in a cell of a 9 x 9 grid (so none starts
    overlapped): a move meets a dozen and more."""
    side = st.one_of(st.sampled_from([1.0, 2.0, 0.5, 0.1]), st.floats(0.05, 2.9))  # edges round
    cells = st.lists(st.tuples(st.integers(0, 8), st.integers(0, 8)), min_size=1, max_size=40,
                     unique=True)  # fmt: skip
    return cells.flatmap(lambda at: st.tuples(*[
        st.builds(Rect, st.just(offset + 3.0 * i), st.just(offset + 3.0 * j), side, side)
        for i, j in at
    ]).map(list))  # fmt: skip


def world_of(scene, compiled, listed=False):
    """A World of ``scene``'s rectangles whose single moves run compiled (the cell
    lists first when ``listed``), or the check loop alone."""
    world = World(cell_size=8)
    for k, shape in enumerate(scene):
        world.add(k, shape)
    world._compiled_moves = compiled
    world._listed_moves = listed
    return world


@settings(max_examples=200, deadline=None)
@given(offsets().flatmap(tiles), st.data())
def test_python_twin_kernel_and_check_loop_agree(scene, data):
    seed = data.draw(st.integers(0, 50))

    def filter(item, other):
        return RESPONSES[(item * 7 + other * 13 + seed) % len(RESPONSES)]

    twin, kernel, loop = world_of(scene, True), world_of(scene, True), world_of(scene, False)
    listed = world_of(scene, True, listed=True)
    for _ in range(data.draw(st.integers(1, 3))):
        item = data.draw(st.integers(0, len(scene) - 1))
        x, y = twin.shape(item)[:2]
        step = st.sampled_from([0.0, 1.0, -3.0, 7.5, 30.0, -0.25, 0.3, -4.1])
        dx = data.draw(step)
        dy = data.draw(st.one_of(step, st.sampled_from([dx, -dx])))  # diagonals meet corners
        goal = (x + dx, y + dy)
        with most_candidates(64):
            a = twin.move(item, goal, filter)
        with most_candidates(-1):
            b = kernel.move(item, goal, filter)
        c = loop.move(item, goal, filter)
        d = listed.move(item, goal, filter)
        assert a == c and b == c and d == c
        assert [twin.shape(k) for k in twin] == [loop.shape(k) for k in loop]
        assert [kernel.shape(k) for k in kernel] == [loop.shape(k) for k in loop]
        assert [listed.shape(k) for k in listed] == [loop.shape(k) for k in loop]
    twin.validate()
    kernel.validate()
    listed.validate()


def test_a_move_among_many_runs_compiled_and_among_few_in_python(monkeypatch):
    from collide2d.world import one_move

    calls = []
    real = one_move.move_rect
    monkeypatch.setattr(single_move, "move_rect", lambda *a: calls.append(a) or real(*a))
    world = World(cell_size=64)
    world._listed_moves = False  # (the cell lists' route is tested on its own)
    for k in range(40):  # a floor of 40 tiles
        world.add(("tile", k), Rect(16.0 * k, 100, 16, 16))
    world.add("actor", Rect(0, 80, 12, 20))
    world.move("actor", (20, 80))  # three tiles under its way: the twin
    assert len(calls) == 1 and world.stats.tests == 3
    position, cols = world.move("actor", (600, 80))  # 38 tiles: the kernel
    assert len(calls) == 1 and world.stats.tests == 38
    assert position == (600, 80) and cols == []  # sliding along the floor meets nothing


def test_a_face_wins_over_a_nearer_corner_met_at_the_same_moment():
    """Landing diagonally on a seam: tile A's top face and tile B's corner at the
    same fraction, B's centre nearer. The face decides (a slide along the floor),
    in the twin, the kernel and the check loop alike."""
    scene = [Rect(16, 100, 16, 100), Rect(32, 100, 16, 2), Rect(16, 76, 12, 20)]
    worlds = [world_of(scene, True), world_of(scene, True), world_of(scene, False),
              world_of(scene, True, listed=True)]  # fmt: skip
    answers = []
    for world, most in zip(worlds, (64, -1, 64, 64), strict=True):
        with most_candidates(most):
            answers.append(world.move(2, (24, 84)))
    position, cols = answers[0]
    assert answers[1] == answers[0] and answers[2] == answers[0] and answers[3] == answers[0]
    assert position == (24, 80)  # slid on A, then over B (level with A)
    assert (cols[0].other, cols[0].fraction, cols[0].normal) == (0, 0.5, (0.0, -1.0))


@settings(max_examples=100, deadline=None)
@given(offsets().flatmap(tiles), st.data())
def test_move_all_far_out_equals_the_check_loop(scene, data):
    """Where ``x + w`` loses part of ``w`` the compiled moves leave the move to the
    check loop's exact route: ``move_all`` gives the loop's answers there too."""
    movers = sorted(data.draw(st.sets(st.integers(0, len(scene) - 1), min_size=1)))
    step = st.sampled_from([0.0, 1.0, -3.0, 7.5, -0.25, 0.3])
    goals = {}
    for m in movers:
        x, y = scene[m][:2]
        goals[m] = (x + data.draw(step), y + data.draw(step))

    def filter(item, other):
        return RESPONSES[(item * 5 + other * 3) % len(RESPONSES)]

    together, apart = world_of(scene, True), world_of(scene, False)
    assert together.move_all(goals, filter) == {m: apart.move(m, goals[m], filter) for m in movers}
    assert [together.shape(k) for k in together] == [apart.shape(k) for k in apart]


def test_a_landing_where_the_edge_rounds_stops_below_it():
    """``by - h + h`` rounds past ``by`` here: the touch is the float below, in
    every route (the twin, the kernel, the check loop)."""
    by, h = -2.920992050670755, 2.4367868839749107
    assert (by - h) + h > by
    scene = [Rect(0.0, by, 5, 1), Rect(0.0, by - h - 5, 2, h)]
    answers = []
    for compiled, most, listed in ((True, 64, False), (True, -1, False), (False, 64, False),
                                   (True, 64, True)):  # fmt: skip
        with most_candidates(most):
            world = world_of(scene, compiled, listed)
            answers.append(world.move(1, (0.0, by), lambda a, b: "touch"))
    assert answers[0] == answers[1] == answers[2] == answers[3]
    position, (col,) = answers[0]
    assert col.touch.y + h <= by and position.y + h <= by
