"""Moving polygons as arrays: the scalar sweep's answer, pair for pair, bit for bit,
and the exact rational reference."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from collide2d import Polygon, Stats, sweep
from collide2d._kernels import lazy
from collide2d.batch.polygon_sweeps import sweep_box_pairs, sweep_polygon_pairs
from tests.geometry.polygon_strategies import box_rows as box_rows_of
from tests.geometry.polygon_strategies import convex_polygons, far_polygons
from tests.reference import exact_points, polygon_sweep

DELTAS = st.tuples(
    st.integers(-12, 12).map(float) | st.floats(-12, 12, allow_nan=False),
    st.integers(-12, 12).map(float) | st.floats(-12, 12, allow_nan=False),
)
METHODS = st.sampled_from(["auto", "strips", "sort_and_sweep", "brute_force"])


def _arrays(polygons):
    k = max(len(p.vertices) for p in polygons)
    vertices = np.zeros((len(polygons), k, 2))
    for i, p in enumerate(polygons):
        vertices[i, : len(p.vertices)] = p.vertices
    return vertices, np.array([len(p.vertices) for p in polygons])


def _row(found, k):
    return (
        float(found.fractions[k]),
        tuple(found.normals[k].tolist()),
        bool(found.started[k]),
        float(found.depths[k]),
    )


def _scalar(hit):
    return (
        None
        if hit is None
        else (hit.fraction, tuple(hit.normal), hit.started_overlapping, hit.depth)
    )


def _pair_answer(a, a_delta, b, b_delta):
    vertices, counts = _arrays([a, b])
    found = sweep_polygon_pairs(vertices, [a_delta, b_delta], counts)
    assert found.pairs.shape[1] == 2 and found.pairs.dtype == np.intp
    return None if len(found.pairs) == 0 else _row(found, 0)


def _compiled_code(a, a_delta, b, b_delta):
    """The compiled sweep alone: its code, fraction, normal and depth (no Python
    route)."""
    vertices, counts = _arrays([a, b])
    codes = np.zeros(1, dtype=np.int8)
    fractions = np.zeros(1)
    normals = np.zeros((1, 2))
    depths = np.zeros(1)
    lazy("pairs.polygon_sweeps").sweep_candidates(
        vertices, counts, np.array([a_delta, b_delta], dtype=float), np.ones(2, dtype=bool),
        np.array([[0, 1]]), codes, fractions, normals, depths,
    )  # fmt: skip
    return int(codes[0]), float(fractions[0]), tuple(normals[0].tolist()), float(depths[0])


def _floor(value: Fraction) -> float:
    f = float(value)
    if Fraction(f) > value:
        f = math.nextafter(f, -math.inf)
    return f + 0.0


@settings(max_examples=400)
@given(convex_polygons(), DELTAS, convex_polygons(), DELTAS)
def test_a_pair_equals_the_scalar_sweep_bit_for_bit(a, a_delta, b, b_delta):
    assert _pair_answer(a, a_delta, b, b_delta) == _scalar(sweep(a, a_delta, b, b_delta))


@settings(max_examples=300)
@given(convex_polygons(), DELTAS, convex_polygons(), DELTAS)
def test_the_compiled_sweep_is_the_exact_first_contact(a, a_delta, b, b_delta):
    kernels = lazy("pairs.polygon_sweeps")
    code, fraction, normal, depth = _compiled_code(a, a_delta, b, b_delta)
    relative = (
        Fraction(a_delta[0]) - Fraction(b_delta[0]),
        Fraction(a_delta[1]) - Fraction(b_delta[1]),
    )
    expected = polygon_sweep(exact_points(a.vertices), relative, exact_points(b.vertices))
    if code == kernels.UNSURE:
        return  # the Python route decides (checked by the test above)
    if expected is None:
        assert code == kernels.NONE
        return
    moment, started = expected
    assert code == (kernels.STARTED if started else kernels.HIT)
    hit = sweep(a, a_delta, b, b_delta)
    assert normal == tuple(hit.normal)
    if started:  # the push's length from exact values, as the Python route has it
        assert fraction == 0.0 and depth == hit.depth > 0
    else:
        assert fraction == _floor(moment) and depth == 0.0


@settings(max_examples=150)
@given(far_polygons(), DELTAS, far_polygons(), DELTAS)
def test_far_from_the_origin_too(a, a_delta, b, b_delta):
    assert _pair_answer(a, a_delta, b, b_delta) == _scalar(sweep(a, a_delta, b, b_delta))


@settings(max_examples=100)
@given(
    convex_polygons(), DELTAS, convex_polygons(), DELTAS, st.sampled_from([2.0**-140, 1e-9, 1e40])
)
def test_tiny_and_huge_scenes_too(a, a_delta, b, b_delta, scale):
    a = Polygon([(x * scale, y * scale) for x, y in a.vertices])
    b = Polygon([(x * scale, y * scale) for x, y in b.vertices])
    a_delta = (a_delta[0] * scale, a_delta[1] * scale)
    b_delta = (b_delta[0] * scale, b_delta[1] * scale)
    assert _pair_answer(a, a_delta, b, b_delta) == _scalar(sweep(a, a_delta, b, b_delta))


moving_box_rows = box_rows_of(20).flatmap(
    lambda rows: st.lists(DELTAS, min_size=len(rows), max_size=len(rows)).map(
        lambda deltas: [(*row, *delta) for row, delta in zip(rows, deltas, strict=True)]
    )
)


@settings(max_examples=120)
@given(moving_box_rows, METHODS)
def test_every_pair_of_a_scene_equals_the_scalar_sweeps(rows, method):
    boxes = np.array([r[:5] for r in rows]).reshape(-1, 5)
    deltas = np.array([r[5:] for r in rows]).reshape(-1, 2)
    polygons = [Polygon.box(*r[:5]) for r in rows]
    expected = {}
    for i in range(len(rows)):
        for j in range(i + 1, len(rows)):
            hit = sweep(polygons[i], tuple(deltas[i]), polygons[j], tuple(deltas[j]))
            if hit is not None:
                expected[(i, j)] = _scalar(hit)
    stats = Stats()
    found = sweep_box_pairs(boxes, deltas, method=method, stats=stats)
    got = {tuple(p): _row(found, k) for k, p in enumerate(found.pairs.tolist())}
    assert got == expected
    assert [tuple(p) for p in found.pairs.tolist()] == sorted(expected)
    assert stats.brute_force_tests == len(rows) * (len(rows) - 1) // 2
    assert stats.tests >= len(found.pairs)


@settings(max_examples=300)
@given(
    convex_polygons() | far_polygons(),
    DELTAS,
    convex_polygons() | far_polygons(),
    DELTAS,
    st.sampled_from([1.0, 2.0**-140, 1e-9, 1e40]),
)
def test_pairs_skipped_by_their_discs_never_meet(a, a_delta, b, b_delta, scale):
    a = Polygon([(x * scale, y * scale) for x, y in a.vertices])
    b = Polygon([(x * scale, y * scale) for x, y in b.vertices])
    a_delta = (a_delta[0] * scale, a_delta[1] * scale)
    b_delta = (b_delta[0] * scale, b_delta[1] * scale)
    if _discs_apart(a, a_delta, b, b_delta):
        assert sweep(a, a_delta, b, b_delta) is None


def _discs_apart(a, a_delta, b, b_delta):
    vertices, counts = _arrays([a, b])
    d = np.array([*a_delta, *b_delta], dtype=float)
    apart = lazy("pairs.polygon_sweeps").discs_apart
    return bool(apart(vertices[0], counts[0], vertices[1], counts[1], d))


def test_the_disc_test_skips_pairs_that_pass_by():
    square = Polygon.box(0.0, 0.0, 2.0, 2.0)
    passing = Polygon.box(10.0, 5.0, 2.0, 2.0)  # moving left 20, 5 below: apart by 2.2
    assert _discs_apart(square, (0.0, 0.0), passing, (-20.0, 0.0))
    assert not _discs_apart(square, (0.0, 0.0), passing, (-20.0, -7.0))  # they come near
    tiny = Polygon.box(0.0, 0.0, 2.0**-420, 2.0**-420)  # its reach's squares underflow
    assert not _discs_apart(tiny, (0.0, 0.0), passing, (0.0, 0.0))


def test_crates_at_one_angle_are_decided_compiled():
    """Parallel faces give two edges the same contact time: the compiled sweep picks
    the obstacle's edge itself. Only a vertex meeting a vertex (two edges of one
    shape at once, about one pair in a few hundred here) takes the Python route."""
    rng = np.random.default_rng(5)
    kernels = lazy("pairs.polygon_sweeps")
    unsure = 0
    hits = 0
    for angle in (0.0, 0.5):
        a = Polygon.box(0.0, 0.0, 2.0, 1.0, angle)
        for _ in range(200):
            cx, cy = rng.integers(-6, 7, size=2).astype(float)
            b = Polygon.box(cx, cy, 1.5, 2.5, angle)
            delta = tuple(rng.integers(-9, 10, size=2).astype(float))
            code, fraction, normal, depth = _compiled_code(a, delta, b, (0.0, 0.0))
            hit = sweep(a, delta, b)
            if code == kernels.UNSURE:
                unsure += 1
            elif code == kernels.HIT:
                hits += 1
                assert (fraction, normal) == (hit.fraction, tuple(hit.normal))
            elif code == kernels.STARTED:
                assert (normal, depth) == (tuple(hit.normal), hit.depth)
            else:
                assert (hit is None) == (code == kernels.NONE)
    assert hits > 50
    assert unsure <= 4


def test_faces_meeting_take_the_obstacles_normal():
    square = Polygon.box(0.0, 0.0, 2.0, 2.0)
    wall = Polygon.box(4.0, 0.0, 2.0, 4.0)
    found = sweep_polygon_pairs(*_arrays([square, wall])[:1], [[4.0, 0.0], [0.0, 0.0]])
    assert found.pairs.tolist() == [[0, 1]]
    assert found.fractions.tolist() == [0.5]
    assert found.normals.tolist() == [[-1.0, 0.0]]  # the wall's face, toward the square
    # the wall moving into the still square: the square's face, seen from the wall
    found = sweep_polygon_pairs(*_arrays([wall, square])[:1], [[-4.0, 0.0], [0.0, 0.0]])
    assert found.fractions.tolist() == [0.5] and found.normals.tolist() == [[1.0, 0.0]]


def test_sliding_along_touching_arriving_at_the_end_and_grazing():
    floor = Polygon([(0.0, 0.0), (10.0, 0.0), (10.0, 1.0), (0.0, 1.0)])
    crate = Polygon([(1.0, -1.0), (2.0, -1.0), (2.0, 0.0), (1.0, 0.0)])
    vertices, _ = _arrays([crate, floor])
    assert len(sweep_polygon_pairs(vertices, [[5.0, 0.0], [0.0, 0.0]]).pairs) == 0  # slides
    found = sweep_polygon_pairs(vertices, [[1.0, 0.5], [0.0, 0.0]])  # touching, pressed in
    assert found.fractions.tolist() == [0.0] and not found.started[0]
    assert found.normals.tolist() == [[0.0, -1.0]]
    crate_above = Polygon([(1.0, -3.0), (2.0, -3.0), (2.0, -2.0), (1.0, -2.0)])
    vertices, _ = _arrays([crate_above, floor])
    assert len(sweep_polygon_pairs(vertices, [[0.0, 2.0], [0.0, 0.0]]).pairs) == 0  # at t = 1
    corner = Polygon([(-2.0, -2.0), (-1.0, -2.0), (-1.0, -1.0), (-2.0, -1.0)])
    vertices, _ = _arrays([corner, floor])
    # its corner passes exactly through the floor's corner (0, 0): a graze, no overlap
    assert len(sweep_polygon_pairs(vertices, [[2.0, -2.0], [0.0, 0.0]]).pairs) == 0
    for delta in ([2.0, 2.0], [3.0, 3.0], [2.5, 2.0]):  # corner into corner, and beyond
        got = _pair_answer(corner, tuple(delta), floor, (0.0, 0.0))
        assert got == _scalar(sweep(corner, tuple(delta), floor))


def test_started_pairs_report_the_shortest_push():
    a = Polygon.box(0.0, 0.0, 4.0, 4.0, 0.3)
    b = Polygon.box(1.0, 0.5, 2.0, 2.0)
    got = _pair_answer(a, (1.0, 0.0), b, (0.0, 0.0))
    hit = sweep(a, (1.0, 0.0), b)
    assert got is not None and got[2] and got[3] > 0
    assert got == _scalar(hit)


def test_values_beyond_the_compiled_range_take_the_python_route():
    a = Polygon.box(1e60, 0.0, 2.0e58, 2.0e58)
    b = Polygon.box(1e60 + 5e58, 0.0, 2.0e58, 2.0e58, 0.25)
    assert _pair_answer(a, (1e59, 0.0), b, (0.0, 0.0)) == _scalar(sweep(a, (1e59, 0.0), b))
    c = Polygon.box(0.0, 0.0, 2.0, 2.0)
    d = Polygon.box(3.0, 1e-50, 2.0, 2.0)  # a coordinate below 2**-150
    assert _pair_answer(c, (2.0, 1e-60), d, (0.0, 0.0)) == _scalar(sweep(c, (2.0, 1e-60), d))


def test_bad_input_names_the_argument():
    square = [[0, 0], [1, 0], [1, 1], [0, 1]]
    with pytest.raises(ValueError, match="deltas"):
        sweep_polygon_pairs([square, square], [[0, 0]])
    with pytest.raises(ValueError, match="deltas"):
        sweep_polygon_pairs([square], [[math.nan, 0]])
    with pytest.raises(ValueError, match="deltas"):
        sweep_polygon_pairs([square], [0, 0, 1])
    far = [[1e308, 0], [1.5e308, 0], [1.5e308, 1], [1e308, 1]]
    with pytest.raises(ValueError, match="deltas row 1"):
        sweep_polygon_pairs([square, far], [[0, 0], [1e308, 0]])
    moved = sweep_polygon_pairs([square, far], [[1.7e308, 0], [0, 0]])  # exact, far out
    assert moved.pairs.tolist() == [[0, 1]]
    with pytest.raises(ValueError, match="vertices"):
        sweep_polygon_pairs([[[0, 0], [1, 1], [2, 2]]], [[0, 0]])
    with pytest.raises(ValueError, match="boxes"):
        sweep_box_pairs([[0, 0, -1, 1, 0]], [[0, 0]])
    with pytest.raises(ValueError, match="method"):
        sweep_box_pairs([[0, 0, 1, 1, 0]], [[0, 0]], method="quad")


def test_empty_and_single_inputs():
    empty = sweep_box_pairs(np.zeros((0, 5)), np.zeros((0, 2)))
    assert empty.pairs.shape == (0, 2) and empty.fractions.shape == (0,)
    assert empty.normals.shape == (0, 2) and empty.started.dtype == bool
    one = sweep_box_pairs([[0, 0, 1, 1, 0]], [[3, 0]])
    assert one.pairs.shape == (0, 2)
