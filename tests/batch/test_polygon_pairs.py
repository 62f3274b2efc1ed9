"""Rotated boxes and polygons as arrays: the scalar answers, pair for pair."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from collide2d import Polygon, Stats, overlaps
from collide2d._kernels import lazy
from collide2d.batch.polygons import (
    box_polygons,
    overlapping_box_pairs,
    overlapping_polygon_pairs,
)
from tests.geometry.polygon_strategies import box_rows as box_rows_of
from tests.geometry.polygon_strategies import convex_polygons


def _tame(value):
    return value == 0.0 or 2.0**-400 <= abs(value) <= 2.0**400


def _scalar_pairs(polygons):
    return [
        (i, j)
        for i in range(len(polygons))
        for j in range(i + 1, len(polygons))
        if overlaps(polygons[i], polygons[j])
    ]


box_rows = box_rows_of(25)


@settings(max_examples=150)
@given(box_rows, st.sampled_from(["auto", "strips", "sort_and_sweep", "brute_force"]))
def test_box_pairs_equal_the_scalar_test_on_each_rows_polygon(rows, method):
    polygons = [Polygon.box(*row) for row in rows]
    expected = _scalar_pairs(polygons)
    found = overlapping_box_pairs(np.array(rows).reshape(-1, 5), method=method)
    assert found.dtype == np.intp and found.shape[1] == 2
    assert [tuple(p) for p in found.tolist()] == expected


@settings(max_examples=150)
@given(box_rows)
def test_box_corners_are_those_of_polygon_box_bit_for_bit(rows):
    corners = box_polygons(np.array(rows).reshape(-1, 5))
    for row, found in zip(rows, corners.tolist(), strict=True):
        assert [tuple(v) for v in found] == [tuple(v) for v in Polygon.box(*row).vertices]


@settings(max_examples=150)
@given(st.lists(convex_polygons(), max_size=15), st.booleans())
def test_polygon_pairs_equal_the_scalar_test(polygons, reverse):
    k = 8
    rows = np.zeros((len(polygons), k, 2))
    counts = []
    for i, polygon in enumerate(polygons):
        vs = list(polygon.vertices)
        if reverse:  # given the other way round: stored with positive area all the same
            vs = [vs[0], *vs[:0:-1]]
        vs = vs[:k]
        if len(vs) < len(polygon.vertices):
            polygons[i] = Polygon(vs)
        rows[i, : len(vs)] = vs
        counts.append(len(vs))
    found = overlapping_polygon_pairs(rows, counts)
    assert [tuple(p) for p in found.tolist()] == _scalar_pairs(polygons)


def test_far_and_tiny_coordinates_take_the_exact_python_route():
    big = [[1e300, 0], [1.5e300, 0], [1e300, 1]]
    other = [[1.2e300, 0.5], [2e300, -1], [2e300, 1]]
    tiny = [[0, 0], [1e-300, 0], [0, 1e-300]]
    tiny_other = [[0.5e-300, 0], [2e-300, 0], [0.5e-300, 1e-300]]
    found = overlapping_polygon_pairs([big, other, tiny, tiny_other])
    assert found.tolist() == [[0, 1], [2, 3]]
    assert overlaps(Polygon(big), Polygon(other))


def test_touching_boxes_are_not_pairs():
    rows = [[0, 0, 2, 2, 0], [2, 0, 2, 2, math.pi / 2], [1, 2, 2, 2, math.pi]]
    assert overlapping_box_pairs(rows).shape == (0, 2)


def test_stats_count_the_exact_tests_too():
    stats = Stats()
    overlapping_box_pairs([[0, 0, 4, 4, 0.2], [1, 1, 4, 4, 0.3], [50, 50, 1, 1, 0]], stats=stats)
    assert stats.tests >= 1 and stats.method


@pytest.mark.parametrize(
    ("rows", "error", "message"),
    [
        ([[0, 0, 1, 1]], ValueError, r"shape \(N, 5\)"),
        ([[0, 0, 0, 1, 0]], ValueError, "sizes must be > 0; row 0"),
        ([[0, 0, 1, 1, math.nan]], ValueError, "finite; row 0"),
        ([[0, 0, 1, 1, "a"]], TypeError, "real numbers"),
        ([[1e17, 0, 1, 1, 0.3]], ValueError, "row 0 .* too thin"),
    ],
)
def test_bad_boxes_are_refused_naming_the_row(rows, error, message):
    with pytest.raises(error, match=message):
        overlapping_box_pairs(rows)


@pytest.mark.parametrize(
    ("vertices", "counts", "message"),
    [
        ([[[0, 0], [1, 0]]], None, r"shape \(N, K, 2\)"),
        ([[[0, 0], [1, 0], [2, 0]]], None, "row 0 is not a convex polygon"),
        ([[[0, 0], [2, 0], [2, 2], [1, 0.5], [0, 2]]], None, "row 0 is not a convex"),
        ([[[0, 0], [1, 0], [0, math.inf]]], None, "finite; row 0"),
        ([[[0, 0], [1, 0], [0, 1], [9, 9]]], [5], "counts must lie in 3..4"),
        ([[[0, 0], [1, 0], [0, 1], [math.nan, 0]]], [3], None),  # the padding is ignored
    ],
)
def test_bad_polygons_are_refused_naming_the_row(vertices, counts, message):
    if message is None:
        assert overlapping_polygon_pairs(vertices, counts).shape == (0, 2)
        return
    with pytest.raises(ValueError, match=message):
        overlapping_polygon_pairs(vertices, counts)


@settings(max_examples=300)
@given(
    st.tuples(*[st.integers(-4, 4).map(lambda v: v * 0.25) for _ in range(6)])
    | st.tuples(*[st.floats(-1e6, 1e6).filter(_tame) for _ in range(6)])
)
def test_the_compiled_orientation_is_the_exact_sign(values):
    # exact for coordinates the batch functions send it (see TAME_LOW): zero or of
    # magnitude 2**-400 to 2**400
    from fractions import Fraction

    px, py, qx, qy, vx, vy = values
    exact = (Fraction(qx) - Fraction(px)) * (Fraction(vy) - Fraction(py)) - (
        Fraction(qy) - Fraction(py)
    ) * (Fraction(vx) - Fraction(px))
    expected = (exact > 0) - (exact < 0)
    assert lazy("pairs.polygons").orient(px, py, qx, qy, vx, vy) == expected


def test_the_compiled_orientation_is_exact_on_nearly_collinear_points():
    from fractions import Fraction

    rng = np.random.default_rng(7)
    for _ in range(2000):
        px, py = rng.uniform(-1, 1, 2)
        t = rng.uniform(-2, 2)
        qx, qy = px + 0.3, py + 0.7
        vx, vy = px + 0.3 * t, py + 0.7 * t  # on the line, up to rounding
        exact = (Fraction(qx) - Fraction(px)) * (Fraction(vy) - Fraction(py)) - (
            Fraction(qy) - Fraction(py)
        ) * (Fraction(vx) - Fraction(px))
        assert lazy("pairs.polygons").orient(px, py, qx, qy, vx, vy) == (exact > 0) - (exact < 0)


@settings(max_examples=200)
@given(
    st.floats(-1e3, 1e3),
    st.floats(-1e3, 1e3),
    st.floats(0.5, 20),
    st.floats(0.5, 20),
    st.floats(-math.pi, math.pi),
    st.integers(-3, 3),
)
def test_boxes_an_ulp_from_touching_equal_the_scalar_test(cx, cy, w, h, angle, ulps):
    """A box and a copy beside it, its centre a width away along the box's own axis
    and moved by a few units in the last place: the float filter of the batch test
    must leave these to the exact test, whose answer is the scalar one."""
    shift_x = cx + w * math.cos(angle)
    shift_y = cy + w * math.sin(angle)
    for _ in range(abs(ulps)):
        shift_x = math.nextafter(shift_x, math.copysign(math.inf, ulps))
    rows = [[cx, cy, w, h, angle], [shift_x, shift_y, w, h, angle]]
    expected = _scalar_pairs([Polygon.box(*row) for row in rows])
    assert [tuple(p) for p in overlapping_box_pairs(np.array(rows)).tolist()] == expected


def _quad_pairs_equal_the_scalar_test(first, second):
    """``keep_overlapping`` on the two outlines (its float filter for two
    quadrilaterals, the exact test where it is not sure) against the scalar exact
    test."""
    a = np.array(first.vertices, dtype=float)
    b = np.array(second.vertices, dtype=float)
    expected = overlaps(first, second)
    kernels = lazy("pairs.polygons")
    keep = np.zeros(1, dtype=bool)
    unsure = np.zeros(1, dtype=bool)
    vertices = np.stack([a, b])
    kernels.keep_overlapping(vertices, np.array([4, 4]), np.array([True, True]),
                             np.array([[0, 1]]), keep, unsure)  # fmt: skip
    assert not unsure[0] and keep[0] == expected


@settings(max_examples=300)
@given(
    st.lists(st.tuples(st.integers(-6, 6), st.integers(-6, 6)), min_size=8, max_size=8),
    st.integers(0, 3),
    st.sampled_from([0, 1, -1, 3, -3]),
)
def test_quadrilaterals_equal_the_scalar_test(points, edge, ulps):
    """Two convex quadrilaterals from integer points (most no parallelogram), and the
    first one's mirror across one of its edges (touching it along that edge, to within
    the rounding of the reflection), moved by a few units in the last place: the
    float filter decides what it is sure of, the exact test the rest, and the answer
    is the scalar one."""
    quads = []
    for half in (points[:4], points[4:]):
        try:
            polygon = Polygon([(x * 0.75, y * 1.25) for x, y in half])
        except ValueError:
            return
        if len(polygon.vertices) != 4:
            return
        quads.append(polygon)
    first, second = quads
    _quad_pairs_equal_the_scalar_test(first, second)
    vertices = [(v.x, v.y) for v in first.vertices]
    px, py = vertices[edge]
    qx, qy = vertices[(edge + 1) % 4]
    ex, ey = qx - px, qy - py
    mirrored = []
    for vx, vy in vertices:  # reflected across the edge's line
        t = ((vx - px) * ex + (vy - py) * ey) / (ex * ex + ey * ey)
        fx, fy = px + t * ex, py + t * ey
        mirrored.append((2 * fx - vx, 2 * fy - vy))
    step = math.copysign(math.inf, ulps)
    shifted = []
    for x, y in mirrored:
        for _ in range(abs(ulps)):
            x = math.nextafter(x, step)
        shifted.append((x, y))
    try:
        other = Polygon(shifted)
    except ValueError:
        return
    if len(other.vertices) == 4:
        _quad_pairs_equal_the_scalar_test(first, other)
        _quad_pairs_equal_the_scalar_test(other, first)


@settings(max_examples=200)
@given(
    st.floats(-1e4, 1e4), st.floats(-1e4, 1e4), st.floats(0.01, 50), st.floats(0.01, 50),
    st.floats(-math.pi, math.pi), st.floats(-1.0, 1.0), st.floats(-1.0, 1.0),
    st.floats(-math.pi, math.pi),
)  # fmt: skip
def test_rotated_boxes_near_each_other_equal_the_scalar_test(cx, cy, w, h, angle, u, v, turn):
    """Two rotated boxes whose centres are at most a box apart (many overlapping, many
    touching nearly): the batch test's answer is the exact one."""
    first = Polygon.box(cx, cy, w, h, angle)
    second = Polygon.box(cx + u * (w + h), cy + v * (w + h), h, w, turn)
    _quad_pairs_equal_the_scalar_test(first, second)


def test_in_threads_every_answer_is_the_same(monkeypatch):
    # The corners, the bounds and outline checks, the exact tests and the sweeps run
    # in two threads from a size on (100,000 rows, 16,384 candidates, 2,048 sweeps);
    # here from 2 on, against the same calls in one piece.
    from collide2d.batch import polygon_sweeps
    from collide2d.batch import polygons as batch_polygons

    rng = np.random.default_rng(7)
    rows = np.column_stack([
        rng.uniform(0, 120, 300), rng.uniform(0, 120, 300),
        rng.uniform(1, 10, 300), rng.uniform(1, 10, 300), rng.uniform(-4, 4, 300),
    ])  # fmt: skip
    rows[::7, 4] = math.pi / 2
    moves = rng.uniform(-6, 6, (300, 2))
    corners = box_polygons(rows)
    flipped = corners[:, ::-1].copy()  # every outline the other way round
    one_piece = (
        overlapping_box_pairs(rows), overlapping_polygon_pairs(flipped),
        polygon_sweeps.sweep_box_pairs(rows, moves),
    )  # fmt: skip
    monkeypatch.setattr(batch_polygons, "THREADS", 2)
    monkeypatch.setattr(batch_polygons, "PARALLEL_MIN_ITEMS", 2)
    monkeypatch.setattr(batch_polygons, "EXACT_PARALLEL_MIN", 2)
    monkeypatch.setattr(polygon_sweeps, "SWEEP_PARALLEL_MIN", 2)
    assert box_polygons(rows).tobytes() == corners.tobytes()
    assert np.array_equal(overlapping_box_pairs(rows), one_piece[0])
    assert np.array_equal(overlapping_polygon_pairs(flipped), one_piece[1])
    threaded = polygon_sweeps.sweep_box_pairs(rows, moves)
    assert len(one_piece[2].pairs) > 100
    for got, want in zip(threaded, one_piece[2], strict=True):
        assert np.array_equal(got, want)
    for wrong, first in (([160, 280], 160), ([160, 40], 40)):  # the parts: 0-149, 150-299
        bad = flipped.copy()
        bad[wrong, 1] = bad[wrong, 0]  # rows with a repeated vertex
        with pytest.raises(ValueError, match=f"vertices row {first} "):
            overlapping_polygon_pairs(bad)
