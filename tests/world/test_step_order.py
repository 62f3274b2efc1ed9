"""The step's rows in the order of their places (``_kernels/step_order.py``): the
Z-order codes and their sort against plain Python and numpy, and steps whose rows
lie in any order giving the same contacts, positions and velocities, bit for bit."""

from __future__ import annotations

import copy
import math
from unittest import mock

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from collide2d import Circle, Mask, Rect, World
from collide2d._kernels import step_order
from collide2d._kernels import step_shapes as shapes
from collide2d.mask.placed import PlacedMask
from collide2d.world import step as step_module
from tests.world.test_step_properties import bodies


def _spread(v: int) -> int:
    return sum(((v >> b) & 1) << (2 * b) for b in range(16))


def _codes(rows: list[tuple[bool, float, float, float, float]]) -> list[int]:
    """The Z-order codes in plain Python: centres on 65,536 square cells a side."""
    if not rows:
        return []
    centres = [(x, y) if circle else (x + 0.5 * w, y + 0.5 * h) for circle, x, y, w, h in rows]
    x0, y0 = min(c[0] for c in centres), min(c[1] for c in centres)
    extent = max(max(c[0] for c in centres) - x0, max(c[1] for c in centres) - y0)
    scale = 65535.0 / extent if extent > 0.0 else 0.0
    codes = []
    for x, y in centres:
        qx, qy = min(int((x - x0) * scale), 65535), min(int((y - y0) * scale), 65535)
        codes.append(_spread(qx) | _spread(qy) << 1)
    return codes


def _tables(rows: list[tuple[bool, float, float, float, float]]) -> tuple[np.ndarray, np.ndarray]:
    fb = np.zeros((len(rows), shapes.FLOATS))
    ib = np.zeros((len(rows), shapes.INTS), dtype=np.int64)
    for r, (circle, x, y, w, h) in enumerate(rows):
        fb[r, [shapes.X, shapes.Y, shapes.W, shapes.H]] = x, y, w, h
        ib[r, shapes.KIND] = shapes.CIRCLE if circle else shapes.RECT
    return fb, ib


@given(st.integers(0, 65535))
def test_spread_puts_the_bits_on_the_even_places(v):
    assert step_order.spread(v) == _spread(v)


coordinate = st.sampled_from([-3.0, 0.0, 0.5, 1.0, 7.25, 100.0, 1e6])  # many ties
row = st.tuples(st.booleans(), coordinate, coordinate, st.sampled_from([0.0, 1.0, 3.5]),
                st.sampled_from([0.0, 2.0]))  # fmt: skip


@settings(max_examples=300)
@given(st.lists(row, max_size=40) | st.lists(row, min_size=300, max_size=600))
def test_the_order_is_the_stable_sort_of_the_codes(rows):
    fb, ib = _tables(rows)
    order = step_order.place_order(fb, ib)
    assert step_order.place_codes(fb, ib).tolist() == _codes(rows)
    assert order.tolist() == np.argsort(_codes(rows), kind="stable").tolist()


def test_the_order_follows_the_z_curve():
    # Four quadrants: top left, top right, bottom left, bottom right; in each the same.
    rows = [(True, x, y, 1.0, 1.0) for y in (30.0, 0.0, 20.0, 10.0) for x in (10.0, 0.0)]
    order = step_order.place_order(*_tables(rows))
    places = [(rows[k][1], rows[k][2]) for k in order.tolist()]
    assert places == [(0.0, 0.0), (10.0, 0.0), (0.0, 10.0), (10.0, 10.0),
                      (0.0, 20.0), (10.0, 20.0), (0.0, 30.0), (10.0, 30.0)]  # fmt: skip


def _stepped(world: World, dt: float, arrange: object, steps: int = 2) -> list[object]:
    """What ``steps`` steps of ``world`` give, its rows put in order by ``arrange``
    (``None``: by their places)."""
    out: list[object] = []
    patch = (mock.patch.object(step_module.order, "place_order", arrange) if arrange
             else mock.patch.object(step_module, "order", step_module.order))  # fmt: skip
    with patch:
        for _ in range(steps):
            result = world.step(dt)
            out += [result.contacts, result.stats.events, result.stats.capped]
            out += [(world.shape(item), world.velocity(item)) for item in world]
    return out


def _arrangements(seed: int) -> list[object]:
    return [
        lambda fb, ib: np.arange(fb.shape[0]),  # the order of the items
        lambda fb, ib: np.arange(fb.shape[0])[::-1].copy(),
        lambda fb, ib: np.random.default_rng(seed).permutation(fb.shape[0]),
    ]


@settings(suppress_health_check=[HealthCheck.too_slow], max_examples=80)
@given(bodies(stopping=False, speed=200), st.floats(0.1, 4.0), st.integers(0, 2**32 - 1))
def test_the_rows_order_changes_nothing(world, dt, seed):
    # Ties and each pair's orientation follow the bodies' ranks (the order of their
    # items), never their rows: rows in the items' order, reversed, or shuffled give
    # the steps that rows in the order of their places give, bit for bit.
    want = _stepped(copy.deepcopy(world), dt, None)
    for arrange in _arrangements(seed):
        assert _stepped(copy.deepcopy(world), dt, arrange) == want


def test_a_mask_and_a_crowd_in_any_row_order_step_the_same():
    # A mask's pixel boxes are ranked in its place; two steps with masks and a crowd
    # of discs and boxes falling onto it and into each other.
    rng = np.random.default_rng(5)
    world = World()
    world.set_response("default", "default", "slide")
    ground = np.zeros((8, 60), dtype=bool)
    ground[4:, :] = True
    ground[:4, 20:24] = True
    world.add("before", Rect(-20.0, 60.0, 4.0, 4.0), mass=math.inf)
    world.add("ground", PlacedMask(Mask.from_array(ground), 0, 60))
    for k in range(60):
        x, y = rng.uniform(0.0, 56.0), rng.uniform(0.0, 50.0)
        velocity = (float(rng.uniform(-6, 6)), float(rng.uniform(4, 30)))
        shape = Circle(x, y, 1.5) if k % 2 else Rect(x, y, 2.0, 3.0)
        world.add(k, shape, velocity=velocity)
    want = _stepped(copy.deepcopy(world), 1.0, None, steps=3)
    assert any(want[0])  # contacts in the first step
    for arrange in _arrangements(11):
        assert _stepped(copy.deepcopy(world), 1.0, arrange, steps=3) == want
