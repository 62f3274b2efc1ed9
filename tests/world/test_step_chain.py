"""Rows of bodies sliding into each other at one moment, resolved as one
(``_kernels/step/step_chain.py``): the velocities along the row's axis against a plain
pooling of adjacent violators in exact rational arithmetic, and the row's events
bounded where one pair at a time ran to the event cap."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from collide2d import Circle, Rect, World, overlaps


def pooled(velocities: list[float], masses: list[float]) -> list[Fraction] | None:
    """The row's velocities no neighbours approach with, closest to ``velocities`` in
    the least squares weighted by ``masses`` (infinite: that body's velocity holds):
    blocks of the row merged, any two neighbouring blocks whose velocities approach,
    until none do. ``None`` if two bodies that cannot move would be pressed together."""
    blocks = [[k] for k in range(len(velocities))]

    def mean(members: list[int]) -> Fraction:
        held = [Fraction(velocities[k]) for k in members if masses[k] == math.inf]
        if held:
            return held[0]
        weight = sum(Fraction(masses[k]) for k in members)
        return sum(Fraction(masses[k]) * Fraction(velocities[k]) for k in members) / weight

    while True:
        for k in range(len(blocks) - 1):
            if mean(blocks[k]) > mean(blocks[k + 1]):
                members = blocks[k] + blocks[k + 1]
                if sum(masses[m] == math.inf for m in members) > 1:
                    return None
                blocks[k : k + 2] = [members]
                break
        else:
            return [mean(block) for block in blocks for _ in block]


def row_world(sizes, velocities, masses, axis):
    """Boxes side by side along ``axis`` (0: x), touching, in group "r" (slide)."""
    world = World()
    world.set_response("r", "r", "slide")
    place = 0
    for k, (size, v, m) in enumerate(zip(sizes, velocities, masses, strict=True)):
        if axis == 0:
            shape = Rect(place, 0, size, 3)
            velocity = (v, 0.0) if m != math.inf else (0.0, 0.0)
        else:
            shape = Rect(0, place, 3, size)
            velocity = (0.0, v) if m != math.inf else (0.0, 0.0)
        world.add(k, shape, velocity=velocity, mass=m, group="r")
        place += size
    return world


def test_three_boxes_pushed_move_together_in_two_events():
    # The pusher on the right meets the middle box, the middle one the first: one
    # pair at a time the middle box went back and forth to the event cap.
    world = row_world([2, 2, 2], [0.0, 0.0, -3.0], [1.0, 1.0, 1.0], axis=0)
    result = world.step(1.0)
    assert [world.velocity(k).x for k in range(3)] == [-1.0, -1.0, -1.0]
    assert (result.stats.events, result.stats.capped) == (2, 0)
    assert [world.shape(k).x for k in range(3)] == [-1.0, 1.0, 3.0]


def test_a_row_against_a_wall_stops():
    # A wall, two boxes, a pusher from below: the row stops against the wall.
    world = row_world([1, 2, 2, 2], [0.0, 0.0, 0.0, -4.0], [math.inf, 1.0, 2.0, 1.0], axis=1)
    result = world.step(1.0)
    assert [world.velocity(k).y for k in range(4)] == [0.0, 0.0, 0.0, 0.0]
    assert result.stats.capped == 0 and result.stats.events <= 4
    assert [world.shape(k).y for k in range(4)] == [0.0, 1.0, 3.0, 5.0]


def test_a_row_of_discs_on_a_line_is_a_row_too():
    # Discs centre to centre along x: their normals are the axis exactly.
    world = World()
    world.set_response("default", "default", "slide")
    for k in range(4):
        world.add(k, Circle(2.0 * k, 0.0, 1.0), velocity=(-2.0 if k == 3 else 0.0, 0.0))
    result = world.step(1.0)
    assert [world.velocity(k).x for k in range(4)] == [-0.5] * 4
    assert result.stats.events == 3 and result.stats.capped == 0


sizes = st.lists(st.integers(1, 4), min_size=3, max_size=8)


@settings(suppress_health_check=[HealthCheck.too_slow], max_examples=300)
@given(
    sizes,
    st.lists(st.integers(-8, 8).map(float), min_size=8, max_size=8),
    st.lists(st.sampled_from([1.0, 2.0, 0.5, 3.0, math.inf]), min_size=8, max_size=8),
    st.sampled_from([0, 1]),
)
def test_a_touching_row_ends_as_the_pooled_velocities(sizes, velocities, masses, axis):
    n = len(sizes)
    velocities = [0.0 if m == math.inf else v for v, m in zip(velocities, masses, strict=False)][:n]
    masses = masses[:n]
    want = pooled(velocities, masses)
    assume(want is not None)
    world = row_world(sizes, velocities, masses, axis)
    result = world.step(0.5)
    assume(result.stats.capped == 0)  # (a crush against two walls: the cap's)
    got = [world.velocity(k)[axis] for k in range(n)]
    assert got == pytest.approx([float(v) for v in want], rel=1e-12, abs=1e-12)
    # momentum kept by the bodies that can move, when no wall took part
    if math.inf not in masses:
        assert sum(m * v for m, v in zip(masses, got, strict=True)) == pytest.approx(
            sum(m * v for m, v in zip(masses, velocities, strict=True)), abs=1e-9
        )
    items = list(world)
    for a, b in itertools.pairwise(items):
        assert not overlaps(world.shape(a), world.shape(b))
    assert result.stats.events <= 2 * n
