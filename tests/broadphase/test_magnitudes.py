"""No input makes a broadphase loop or fail: shapes at every magnitude of float64.

Each example runs under a hard time limit (an interval timer raises in the test),
so a growth loop that makes no progress fails the test instead of hanging the run.
"""

import math
import signal
from contextlib import contextmanager

import pytest
from hypothesis import given
from hypothesis import strategies as st

from collide2d import Circle, Rect, World
from collide2d.broadphase import BruteForce, Quadtree, SortAndSweep, SortedStrips, UniformGrid
from tests.broadphase.test_conformance import answering_from_dicts, apply

STRUCTURES = {
    "grid": UniformGrid,
    "grid-tiny-cells": lambda: UniformGrid(cell_size=1e-300),
    "grid-dicts": lambda: answering_from_dicts(UniformGrid()),
    "quadtree": Quadtree,
    "quadtree-bounded": lambda: Quadtree(Rect(0, 0, 1, 1), capacity=1),
    "sort-and-sweep": SortAndSweep,
    "sorted-strips": SortedStrips,
}
SECONDS = 10.0


@contextmanager
def time_limit(seconds: float):
    def interrupt(signum, frame):
        raise TimeoutError(f"no answer within {seconds} s: a loop without progress?")

    previous = signal.signal(signal.SIGALRM, interrupt)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def magnitude(low: int = -300, high: int = 300):
    """Floats from 1e-300 to 1e300 (and the largest), either sign, and zero."""
    power = st.integers(low, high).map(lambda k: 10.0**k)
    values = st.one_of(power, st.just(0.0), st.just(1.7976931348623157e308))
    signed = st.tuples(values, st.sampled_from([1.0, -1.0, 1.5])).map(lambda p: p[0] * p[1])
    return signed.filter(math.isfinite)


sizes = magnitude().map(abs)
rects = st.builds(Rect, magnitude(), magnitude(), sizes, sizes)
circles = st.builds(Circle, magnitude(), magnitude(), sizes)
shapes = st.one_of(rects, circles)
ops = st.lists(
    st.tuples(st.sampled_from(["add", "update", "remove"]), st.integers(0, 5), shapes),
    min_size=1,
    max_size=12,
)


@pytest.mark.parametrize("name", list(STRUCTURES))
@given(ops=ops, probe=rects)
def test_shapes_at_every_magnitude_give_brute_force_answers_in_time(name, ops, probe):
    reference = BruteForce()
    with time_limit(SECONDS):
        index = STRUCTURES[name]()
        for op, key, shape in ops:
            assert apply(index, op, key, shape) == apply(reference, op, key, shape)
        assert index.pairs() == reference.pairs()
        assert index.query_rect(probe) == reference.query_rect(probe)
        assert index.query_point(probe.min) == reference.query_point(probe.min)
        index.validate()


def test_quadtree_with_shapes_1e16_apart_returns():
    """The report: the root's side was lost in the rounding of 1e16 and never grew."""
    with time_limit(SECONDS):
        tree = Quadtree()
        tree.add("far", Rect(1e16, 0, 1, 1))
        tree.add("near", Rect(0, 0, 1, 1))
        tree.add("farther", Rect(1e300, 0, 1e300, 1))  # beyond 64 doublings: kept apart
        tree.validate()
        assert tree.query_point((0.5, 0.5)) == ["near"]
        assert tree.query_point((1e16 + 0.5, 0.5)) == []  # 1e16 + 0.5 rounds to 1e16
        assert tree.query_rect(Rect(1.5e300, 0, 1e299, 1)) == ["farther"]
        tree.update("farther", Rect(0.5, 0, 1, 1))
        assert tree.pairs() == [("near", "farther")]
        tree.validate()


@pytest.mark.parametrize("name", [*STRUCTURES, "brute"])
def test_shapes_whose_edges_overflow_are_accepted_everywhere(name):
    """Decision (docs/concepts.md): a Rect with finite x and w whose right edge rounds
    to inf is a valid shape in every structure, not an OverflowError in one."""
    index = BruteForce() if name == "brute" else STRUCTURES[name]()
    edge = Rect(1e308, 0, 1e308, 1)
    assert math.isinf(edge.right)
    index.add("edge", edge)
    index.add("small", Rect(0, 0, 1, 1))
    index.add("disc", Circle(1e308, 0.5, 1e308))
    index.update("edge", Rect(1e308, 0, 1e308, 2))
    # The disc reaches x = 0: the exact distance to "small" is 1e308 - 1 < 1e308.
    assert index.pairs() == [("edge", "disc"), ("small", "disc")]
    assert index.query_rect(Rect(1.5e308, 0, 1e308, 1)) == ["edge", "disc"]
    assert index.query_rect(Rect(-2, 0, 1, 1)) == []
    index.remove("edge")
    index.validate()


def test_the_world_takes_shapes_whose_edges_overflow():
    world = World()
    world.add("edge", Rect(1e308, 0, 1e308, 1))
    world.add("player", Rect(0, 0, 1, 1))
    assert world.query_rect(Rect(1.5e308, 0, 1, 1)) == ["edge"]
    position, collisions = world.move("player", (10, 0))
    assert position == (10, 0) and collisions == []
    world.validate()
