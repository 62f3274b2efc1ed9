"""Piles under gravity in ``World.step``: discs poured into a V of immovable discs,
each step pushed down (a game's gravity) into the discs and walls they rest on, the
jams of time 0 running to the event cap; and the end's last resort,
``step_settle.put_back``."""

from __future__ import annotations

import itertools
import math
import random

import numpy as np
import pytest

from collide2d import Circle, Rect, World, overlaps
from collide2d._kernels.codes import CROSS, IGNORE, SLIDE
from collide2d._kernels.step.step_settle import put_back
from collide2d._kernels.step.step_shapes import (
    CIRCLE,
    FIXED,
    FLOATS,
    GROUP,
    INTS,
    INV,
    KIND,
    MVX,
    TREF,
    W,
    X,
    Y,
)
from tests.world.test_step_properties import stopping_overlaps

WALL_DISCS = 40
"""Immovable discs of radius 1 down each side of the V, one unit apart on both axes
(neighbours overlap: a closed wall), the two lowest touching at the bottom."""


def pour(seed: int, balls: int) -> World:
    """A V of immovable discs (centres on ``y = |x|``, ``y`` from 1 to 40) and
    ``balls`` discs of radius 1 above it, falling, in a random column."""
    rng = random.Random(seed)
    world = World()
    world.set_response("ball", "wall", "slide")
    world.set_response("ball", "ball", "slide")
    for k in range(WALL_DISCS):
        world.add(("L", k), Circle(-40 + k, 40 - k, 1.0), mass=math.inf, group="wall")
        world.add(("R", k), Circle(40 - k, 40 - k, 1.0), mass=math.inf, group="wall")
    for k in range(balls):
        world.add(k, Circle(rng.uniform(-20, 20), 40 + 3 * k, 1.0), velocity=(0, -5), group="ball")
    return world


def overlapping_balls(world: World, balls: int) -> list[tuple[object, object]]:
    """The pairs of discs (balls with balls and walls) that overlap, by the circles'
    test in the core's arithmetic (``dx * dx + dy * dy < reach * reach``)."""
    items = list(range(balls))
    walls = [("L", k) for k in range(WALL_DISCS)] + [("R", k) for k in range(WALL_DISCS)]
    xy = np.array([(world.shape(k).x, world.shape(k).y) for k in items])
    wall_xy = np.array([(world.shape(w).x, world.shape(w).y) for w in walls])
    found = []
    for others, names, first in ((xy, items, 1), (wall_xy, walls, 0)):
        dx = xy[:, None, 0] - others[None, :, 0]
        dy = xy[:, None, 1] - others[None, :, 1]
        hit = dx * dx + dy * dy < 4.0
        if first:
            hit = np.triu(hit, 1)
        found += [(items[a], names[b]) for a, b in zip(*np.nonzero(hit), strict=True)]
    return found


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_pile_poured_into_a_v_of_walls_never_overlaps(seed):
    """Sixty discs poured into a V of immovable discs, each step given a push down
    (``velocity - (0, 1)``, then ``step(0.1)``): once they pile up, every step's
    jams at time 0 run to the event cap (25 capped bodies a step). A disc caged by
    a wall and two discs pressing on it, all capped, was nudged by the end's
    cleanup off each pair of them into the third, twice as far each time: 1e-15 to
    2e-9 in a step, 0.07 three steps later, and by 150 steps four to nine discs of
    each of these pours were through the wall (overlaps of up to 1.9). Now the
    cleanup holds a body nudged four times (the others yield) and puts back where
    the step began what it cannot take apart: no overlap after any step."""
    balls = 60
    world = pour(seed, balls)
    put = 0
    for step in range(100):
        for k in range(balls):
            v = world.velocity(k)
            world.set_velocity(k, (v.x, v.y - 1.0))
        result = world.step(0.1)
        put += result.stats.put_back
        assert overlapping_balls(world, balls) == [], step
        for k in range(balls):  # inside the V (resting in a dimple of its wall: 2.65)
            disc = world.shape(k)
            assert disc.y - abs(disc.x) > 2.0, (step, k)
    assert stopping_overlaps(world) == []
    assert put > 0  # (the pile needed the last resort: this scene tests it)


def fall_without_overlaps(world: World, count: int, steps: int) -> None:
    """Step ``world`` ``steps`` times by 0.1, items ``0 .. count - 1`` pushed down
    (``velocity + (0, 1)``, ``y`` grows down) before each step, and check after each
    that no pair but two immovable bodies overlaps."""
    items = list(world)
    for step in range(steps):
        for k in range(count):
            v = world.velocity(k)
            world.set_velocity(k, (v.x, v.y + 1.0))
        world.step(0.1)
        for a, b in itertools.combinations(items, 2):
            if world.mass(a) != math.inf or world.mass(b) != math.inf:
                assert not overlaps(world.shape(a), world.shape(b)), (step, a, b)


def bin_of_boxes_and_discs(seed: int, count: int) -> World:
    """A bin (a floor and two tall walls, immovable boxes; six immovable pegs) and
    ``count`` boxes and discs of masses 0.5 to 4 above it, falling (``y`` grows
    down)."""
    rng = random.Random(seed)
    world = World()
    world.set_response("body", "wall", "slide")
    world.set_response("body", "body", "slide")
    world.add("floor", Rect(-20, 0, 40, 2), mass=math.inf, group="wall")
    world.add("left", Rect(-22, -300, 2, 302), mass=math.inf, group="wall")
    world.add("right", Rect(20, -300, 2, 302), mass=math.inf, group="wall")
    for k in range(6):
        world.add(("peg", k), Circle(-15 + 6 * k, -8 - 3 * (k % 2), 1.0), mass=math.inf,
                  group="wall")  # fmt: skip
    for k in range(count):
        x, y = rng.uniform(-18, 16), -20 - 3 * k
        box = rng.random() < 0.5
        mass = rng.choice([0.5, 1.0, 2.0, 4.0])
        if box:
            shape: Rect | Circle = Rect(x, y, rng.choice([1.0, 1.5, 2.0, 3.0]),
                                        rng.choice([1.0, 1.5, 2.0]))  # fmt: skip
        else:
            shape = Circle(x, y, rng.choice([0.5, 1.0, 1.5]))
        world.add(k, shape, velocity=(rng.uniform(-2, 2), 5.0), group="body", mass=mass)
    return world


@pytest.mark.parametrize("seed", [1, 4, 5])
def test_a_bin_of_boxes_and_discs_never_overlaps(seed):
    """Fifty boxes and discs of masses 0.5 to 4 poured into a bin, pushed down each
    step (``velocity + (0, 1)``, ``step(0.1)``). Before, every pour ended a step
    overlapping a wall or the floor by step 47 to 72 (eight pours); on the way
    here, with bodies put back, three still did: a moment brought a box whose
    velocity it did not change to its time without predicting it again (its end
    rounded an ulp into its neighbour, unchecked), and the cleanup, nudging a box
    along a stale pin's normal, moved it a whole unit into the box above. Now no
    pair overlaps after any of 150 steps, and every body stays in the bin."""
    count = 50
    world = bin_of_boxes_and_discs(seed, count)
    fall_without_overlaps(world, count, 150)
    for k in range(count):
        shape = world.shape(k)
        assert -20 <= shape.x <= 20 and shape.y <= 0, k


def lift_under_a_pile(seed: int, count: int) -> World:
    """A kinematic lift (an immovable box rising at 2 units a second between two
    walls; ``y`` grows down) and ``count`` boxes and discs of masses 1 and 3
    stacked loosely above it."""
    rng = random.Random(seed)
    world = World()
    world.set_response("body", "wall", "slide")
    world.set_response("body", "body", "slide")
    world.set_response("body", "lift", "slide")
    world.set_response("lift", "wall", "ignore")
    world.add("left", Rect(-12, -200, 2, 210), mass=math.inf, group="wall")
    world.add("right", Rect(10, -200, 2, 210), mass=math.inf, group="wall")
    world.add("lift", Rect(-10, 0, 20, 1), mass=math.inf, group="lift", velocity=(0, -2.0))
    for k in range(count):
        x, mass = rng.uniform(-9, 7), rng.choice([1.0, 3.0])
        if rng.random() < 0.5:
            shape: Rect | Circle = Rect(x, -3 - 2.5 * k, rng.choice([1.0, 2.0]),
                                        rng.choice([1.0, 2.0]))  # fmt: skip
        else:
            shape = Circle(x + 1, -3 - 2.5 * k, rng.choice([0.5, 1.0]))
        world.add(k, shape, group="body", mass=mass)
    return world


@pytest.mark.parametrize("seed", [0, 1, 3])
def test_a_pile_on_a_rising_lift_never_overlaps(seed):
    """Thirty boxes and discs falling onto a lift that rises under them, pushed down
    each step. A box between the lift and a capped box above it could take
    neither's speed (the moment's slides alternate), was left behind, and the lift
    rose into it; put back where the step began it was still inside the lift (it
    rose 0.2 a step). Now a body put back where a kinematic body would overlap it
    is carried by it, and so are the bodies it then overlaps: no overlap after any
    of 120 steps (every seed of six failed by step 9 to 34 before), and the pile
    stays above the lift."""
    count = 30
    world = lift_under_a_pile(seed, count)
    fall_without_overlaps(world, count, 120)
    lift = world.shape("lift")
    assert lift.y == pytest.approx(-24.0)
    assert all(world.shape(k).y < lift.y for k in range(count))


def test_a_disc_pressed_into_a_wall_disc_by_another_is_never_capped():
    """A disc resting on an immovable disc, another pressing on it from behind,
    along one line at 300 angles, pushed down each step. A rounding overlap of the
    three was taken apart one pair at a time: the middle disc shoved or nudged off
    the wall into the disc behind, off that disc into the wall, to the event cap
    (30 of the 300 scenes, 4,506 events in all). Now a push never goes into the
    body that holds a disc at that moment (``step_respond.held_shares``, its
    moment known within ``SLACK``): no cap, 2,322 events."""
    for tenths in range(1, 900, 3):
        c, s = math.cos(math.radians(tenths / 10)), math.sin(math.radians(tenths / 10))
        world = World()
        world.set_response("ball", "wall", "slide")
        world.set_response("ball", "ball", "slide")
        world.add("wall", Circle(0.0, 0.0, 1.0), mass=math.inf, group="wall")
        world.add("low", Circle(2 * c, 2 * s, 1.0), velocity=(-c, -s - 0.5), group="ball")
        world.add("high", Circle(4 * c, 4 * s, 1.0), velocity=(-2 * c, -2 * s - 0.5), group="ball")
        for _ in range(5):
            result = world.step(0.5)
            assert result.stats.capped == 0, tenths
            assert result.stats.events <= 20, tenths
            for item in ("low", "high"):
                v = world.velocity(item)
                world.set_velocity(item, (v.x, v.y - 0.5))
        assert stopping_overlaps(world) == []


def rows(discs):
    """Rows of discs of radius 1 for ``put_back``: ``(x, y, start_x, start_y, inv,
    group)``, at the step's end ``dt = 1``."""
    n = len(discs)
    fb = np.zeros((n, FLOATS))
    ib = np.zeros((n, INTS), dtype=np.int64)
    start_x, start_y = np.zeros(n), np.zeros(n)
    for b, (x, y, sx, sy, inv, group) in enumerate(discs):
        fb[b, X], fb[b, Y], fb[b, W], fb[b, INV], fb[b, TREF] = x, y, 1.0, inv, 1.0
        ib[b, KIND], ib[b, GROUP] = CIRCLE, group
        start_x[b], start_y[b] = sx, sy
    return fb, ib, start_x, start_y


def test_put_back_takes_back_whatever_overlaps_a_body_put_back():
    """Disc 0 is stuck: put back at (0, 0), it overlaps disc 1 (ended at (1, 0)),
    which is put back to (3, 0), where it overlaps disc 2 (ended at (4, 0)), put
    back to (6, 0). Disc 3 crosses disc 2's kind and stays; disc 4, clear of them
    all, stays; velocities are kept."""
    fb, ib, start_x, start_y = rows([
        (5.0, 5.0, 0.0, 0.0, 1.0, 0),
        (1.0, 0.0, 3.0, 0.0, 1.0, 0),
        (4.0, 0.0, 6.0, 0.0, 1.0, 0),
        (6.5, 0.5, 20.0, 20.0, 1.0, 1),
        (0.0, 9.0, 30.0, 30.0, 1.0, 0),
    ])  # fmt: skip
    fb[:, MVX] = 7.0  # (velocities are kept; positions are read at dt, TREF)
    responses = np.array([[SLIDE, CROSS], [CROSS, IGNORE]], dtype=np.int64)
    stuck = np.zeros(5, dtype=np.bool_)
    stuck[0] = True
    moving = np.arange(5)
    assert put_back(fb, ib, responses, 1.0, moving, stuck, start_x, start_y) == 3
    assert fb[:, X].tolist() == [0.0, 3.0, 6.0, 6.5, 0.0]
    assert fb[:, Y].tolist() == [0.0, 0.0, 0.0, 0.5, 9.0]
    assert fb[:, MVX].tolist() == [7.0] * 5
    assert stuck.tolist() == [True, True, True, False, False]


def test_put_back_is_carried_by_a_kinematic_body():
    """Disc 0 is stuck; where it began, (0, 0), a kinematic disc 1 (cannot be moved,
    moved from (-4, 0) to (-1, 0) in the step) would overlap it: it is carried as far
    as disc 1 moved, to (3, 0), where it overlaps disc 2 (ended at (4.5, 0)), put
    back where it began, (9, 9), carried alike: (12, 9)."""
    fb, ib, start_x, start_y = rows([
        (5.0, 5.0, 0.0, 0.0, 1.0, 0),
        (-1.0, 0.0, -4.0, 0.0, 0.0, 0),
        (4.5, 0.0, 9.0, 9.0, 1.0, 0),
    ])  # fmt: skip
    responses = np.array([[SLIDE]], dtype=np.int64)
    stuck = np.array([True, False, False])
    assert put_back(fb, ib, responses, 1.0, np.arange(3), stuck, start_x, start_y) == 2
    assert fb[:, X].tolist() == [3.0, -1.0, 12.0]
    assert fb[:, Y].tolist() == [0.0, 0.0, 9.0]


def test_put_back_never_moves_a_fixed_body():
    fb, ib, start_x, start_y = rows([(5.0, 0.0, 0.0, 0.0, 1.0, 0), (0.5, 0.0, 9.0, 9.0, 1.0, 0)])
    ib[1, FIXED] = 1
    stuck = np.array([True, False])
    responses = np.array([[SLIDE]], dtype=np.int64)
    assert put_back(fb, ib, responses, 1.0, np.array([0]), stuck, start_x, start_y) == 1
    assert (fb[0, X], fb[1, X]) == (0.0, 0.5)
