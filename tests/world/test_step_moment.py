"""The slides of one moment resolved together (``_kernels/step_moment.py``): a jam
that ran to the event cap now takes a few events, and crowds that only slide never
gain kinetic energy, never overlap, and make few events at one moment."""

from __future__ import annotations

import math
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from collide2d import Circle, Rect, World, overlaps


def energy(world: World) -> float:
    return sum(
        0.5 * world.mass(item) * (world.velocity(item).x ** 2 + world.velocity(item).y ** 2)
        for item in world
        if world.mass(item) != math.inf
    )


def jam() -> World:
    """Found in the swarm: a box on a tile, a disc against its right side, a disc
    pushing it down and right from its upper left. One slide at a time: the pusher's
    slide sent the box along the tile into the disc, that slide slowed it, the pusher
    met it again, each time with a smaller approach: 68 events, the box capped."""
    world = World()
    world.add("tile", Rect(720.0, 5056.0, 16.0, 16.0), mass=math.inf)
    world.add("box", Rect(724.59, 5036.0, 12.0, 20.0), velocity=(0.5, 1.0))
    world.add("right", Circle(742.59, 5050.0, 6.0), velocity=(0.5, 0.0))
    world.add("slant", Circle(720.67465, 5031.44643, 6.0), velocity=(2.0, 2.0))
    return world


def test_a_box_pushed_slantwise_along_a_tile_into_a_disc_takes_a_few_events():
    world = jam()
    before = energy(world)
    result = world.step(1.0)
    assert result.stats.capped == 0 and result.stats.events <= 8
    times = Counter(round(c.time, 9) for c in result.contacts)
    assert max(times.values()) <= 5  # the moment's slides: box-slant, tile-box, box-right
    assert energy(world) <= before
    items = list(world)
    for a in items:
        for b in items:
            if a != b:
                assert not overlaps(world.shape(a), world.shape(b))
    # the three move on together: none approaches another at the step's end
    box, slant, right = (world.velocity(k) for k in ("box", "slant", "right"))
    assert abs(box.y) < 1e-12  # held by the tile
    assert right.x >= box.x - 1e-12  # the box does not run into the disc
    last = [c for c in result.contacts if (c.a, c.b) == ("box", "slant")][-1]
    approach = (box.x - slant.x) * last.normal.x + (box.y - slant.y) * last.normal.y
    assert approach >= -1e-12  # nor the pusher into the box


@st.composite
def crowds(draw):
    """3 to 8 discs and boxes on a floor, a few units apart, sliding in any direction."""
    world = World()
    world.add("floor", Rect(-40, 20, 80, 4), mass=math.inf)
    n = draw(st.integers(3, 8))
    spots = draw(st.lists(st.integers(0, 23), min_size=n, max_size=n, unique=True))
    for k, spot in enumerate(spots):
        x, y = -12 + (spot % 8) * 3.0, 11 + (spot // 8) * 3.0
        v = (draw(st.integers(-6, 6)), draw(st.integers(-2, 8)))
        m = draw(st.sampled_from([1.0, 2.0, 0.5]))
        if draw(st.booleans()):
            world.add(k, Circle(x + 1.25, y + 1.25, 1.25), velocity=v, mass=m)
        else:
            world.add(k, Rect(x, y, 2.5, 2.5), velocity=v, mass=m)
    return world


@settings(suppress_health_check=[HealthCheck.too_slow], max_examples=150)
@given(crowds(), st.sampled_from([0.5, 1.0, 3.0]))
def test_sliding_crowds_lose_energy_and_never_overlap(world, dt):
    for _ in range(3):
        before = energy(world)
        result = world.step(dt)
        assert energy(world) <= before * (1 + 1e-9) + 1e-9
        items = list(world)
        for a in range(len(items)):
            for b in range(a + 1, len(items)):
                assert not overlaps(world.shape(items[a]), world.shape(items[b]))
        assert result.stats.capped == 0 or result.stats.events < 64 * len(items)
