"""Rotated boxes' frames (``_kernels/pairs/box_frames.py``): what they decide equals
exact rational arithmetic, near their margins on purpose, and they decide most
pairs."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from collide2d import Polygon
from collide2d._kernels import lazy
from collide2d.batch.polygons import box_polygons, overlapping_box_pairs
from tests.reference import exact_points, polygons_overlap

EPS = 2.0**-53


def _frames(rows: list[list[float]]) -> tuple[np.ndarray, np.ndarray]:
    corners = box_polygons(np.array(rows, dtype=float))
    frames = np.empty((len(rows), 8))
    lazy("pairs.box_frames").box_frames(corners, np.ones(len(rows), dtype=bool), frames)
    return corners, frames


def _decided(rows: list[list[float]]) -> tuple[bool, bool]:
    """``(decided, overlapping)`` of the frames alone for boxes 0 and 1: the kernel
    with both rows marked untamed marks a pair it leaves to the exact test unsure."""
    corners, frames = _frames(rows)
    keep = np.zeros(1, dtype=bool)
    unsure = np.zeros(1, dtype=bool)
    lazy("pairs.box_frames").keep_box_overlapping(
        frames, corners, np.array([4, 4]), np.zeros(2, dtype=bool), np.array([[0, 1]]), keep,
        unsure,
    )  # fmt: skip
    return not unsure[0], bool(keep[0])


def _exact(rows: list[list[float]]) -> bool:
    a, b = (Polygon.box(*row) for row in rows)
    return polygons_overlap(exact_points(a.vertices), exact_points(b.vertices))


COORD = st.one_of(st.floats(-1e3, 1e3), st.sampled_from([1e9, -(2.0**40) + 0.5, 3e15]))
SIZE = st.one_of(st.floats(0.01, 50), st.sampled_from([1e-6, 1e-3, 1e6]))
ANGLE = st.one_of(
    st.floats(-math.pi, math.pi), st.sampled_from([0.0, math.pi / 2, math.pi, 0.25, -3.0])
)


@settings(max_examples=400)
@given(COORD, COORD, SIZE, SIZE, ANGLE, st.floats(-1.5, 1.5), st.floats(-1.5, 1.5), SIZE, SIZE,
       ANGLE)  # fmt: skip
def test_what_the_frames_decide_is_the_exact_answer(cx, cy, w, h, angle, u, v, w2, h2, turn):
    """Two boxes whose centres are at most about their sizes apart: many overlap,
    many nearly touch."""
    reach = w + h + w2 + h2
    rows = [[cx, cy, w, h, angle], [cx + u * reach, cy + v * reach, w2, h2, turn]]
    decided, overlapping = _decided(rows)
    if decided:
        assert overlapping == _exact(rows)


@settings(max_examples=300)
@given(
    st.floats(-1e3, 1e3), st.floats(-1e3, 1e3), st.floats(0.5, 20), st.floats(0.5, 20),
    ANGLE, st.integers(-40, 40), st.booleans(),
)  # fmt: skip
def test_boxes_side_by_side_within_ulps_of_touching(cx, cy, w, h, angle, ulps, across):
    """A box and a copy beside it, a width (or a height) away along its own axis,
    moved by a few units in the last place: the frames must decide these right or
    leave them, and the batch answer is the exact one."""
    step = w if not across else h
    c, s = math.cos(angle), math.sin(angle)
    x, y = (cx + step * c, cy + step * s) if not across else (cx - step * s, cy + step * c)
    for _ in range(abs(ulps)):
        x = math.nextafter(x, math.copysign(math.inf, ulps))
    rows = [[cx, cy, w, h, angle], [x, y, w, h, angle]]
    decided, overlapping = _decided(rows)
    expected = _exact(rows)
    if decided:
        assert overlapping == expected
    found = [tuple(p) for p in overlapping_box_pairs(np.array(rows)).tolist()]
    assert found == ([(0, 1)] if expected else [])


@settings(max_examples=200)
@given(COORD, COORD, SIZE, SIZE, ANGLE)
def test_each_corner_lies_within_the_slack_of_its_frame_corner_exactly(cx, cy, w, h, angle):
    corners, frames = _frames([[cx, cy, w, h, angle]])
    if math.isinf(frames[0, 7]):
        return  # no frame (a slack too large beside the box): never used
    fcx, fcy, ex, ey, fx, fy, own, pad = (Fraction(value) for value in frames[0].tolist())
    size = abs(ex) + abs(ey) + abs(fx) + abs(fy)
    slack = (pad - 16 * Fraction(EPS) * size) / 2 * (1 + Fraction(1, 10**12))
    signs = [(-1, -1), (1, -1), (1, 1), (-1, 1)]
    for (x, y), (se, sf) in zip(corners[0].tolist(), signs, strict=True):
        dx = Fraction(x) - (fcx + se * ex + sf * fx)
        dy = Fraction(y) - (fcy + se * ey + sf * fy)
        assert dx * dx + dy * dy <= slack * slack
    area = abs(ex * fy - ey * fx)  # the extent along its own normals, rounded once or so
    assert abs(own - area) <= 4 * Fraction(EPS) * (abs(ex * fy) + abs(ey * fx))


def test_the_frames_decide_almost_every_pair_of_random_boxes():
    rng = np.random.default_rng(11)
    n = 2_000
    rows = np.column_stack([
        rng.uniform(0, 540, n), rng.uniform(0, 540, n), rng.uniform(1, 10, n),
        rng.uniform(1, 10, n), rng.uniform(-math.pi, math.pi, n),
    ])  # fmt: skip
    rows[::7, 4] = math.pi / 2
    corners = box_polygons(rows)
    frames = np.empty((n, 8))
    kernels = lazy("pairs.box_frames")
    kernels.box_frames(corners, np.ones(n, dtype=bool), frames)
    pairs = np.array([(i, j) for i in range(n) for j in range(i + 1, min(n, i + 40))])
    keep = np.zeros(len(pairs), dtype=bool)
    unsure = np.zeros(len(pairs), dtype=bool)
    kernels.keep_box_overlapping(frames, corners, np.full(n, 4), np.zeros(n, dtype=bool),
                                 pairs, keep, unsure)  # fmt: skip
    assert unsure.sum() <= len(pairs) // 1000


def test_a_box_too_thin_for_its_coordinates_gets_no_frame():
    _, frames = _frames([[3e15, 0.0, 1.0, 1e-3, 0.3], [0.0, 0.0, 4.0, 2.0, 0.3]])
    assert math.isinf(frames[0, 7]) and math.isfinite(frames[1, 7])
