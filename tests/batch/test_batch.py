"""Every batch method equals the scalar reference, on random and awkward arrays."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from collide2d import (
    Circle,
    Rect,
    Stats,
    overlapping_circle_pairs,
    overlapping_pairs,
    query_pairs,
    query_points,
)
from tests import reference

PAIR_METHODS = ["strips", "sort_and_sweep", "brute_force", "auto"]
QUERY_METHODS = ["strips", "brute_force", "auto"]

lattice = st.integers(-8, 8).map(lambda v: v * 2.0)
size = st.sampled_from([0.0, 0.0, 1.0, 2.0, 4.0, 6.0, 40.0])
far = st.sampled_from([-(2.0**40), 2.0**40, 1e9, -3e7])
coord = st.one_of(lattice, lattice, lattice, lattice, far)


def box_arrays(max_size=60):
    row = st.tuples(coord, coord, size, size)
    return st.lists(row, max_size=max_size).map(
        lambda rows: np.array(rows, dtype=float).reshape(-1, 4)
    )


def circle_arrays(max_size=60):
    row = st.tuples(coord, coord, size)
    return st.lists(row, max_size=max_size).map(
        lambda rows: np.array(rows, dtype=float).reshape(-1, 3)
    )


def as_list(pairs):
    return [tuple(row) for row in pairs.tolist()]


@given(box_arrays())
def test_box_pairs_equal_the_scalar_reference_for_every_method(boxes):
    expected = reference.overlapping_pairs([Rect(*row) for row in boxes])
    for method in PAIR_METHODS:
        pairs = overlapping_pairs(boxes, method=method)
        assert pairs.dtype == np.intp and pairs.shape[1] == 2
        assert as_list(pairs) == expected, method


@given(circle_arrays())
def test_circle_pairs_equal_the_scalar_reference_for_every_method(circles):
    expected = reference.overlapping_pairs([Circle(*row) for row in circles])
    for method in PAIR_METHODS:
        assert as_list(overlapping_circle_pairs(circles, method=method)) == expected, method


@given(box_arrays(40), box_arrays(20))
def test_query_pairs_equal_the_scalar_reference(boxes, queries):
    expected = reference.query_pairs([Rect(*r) for r in boxes], [Rect(*q) for q in queries])
    for method in QUERY_METHODS:
        assert as_list(query_pairs(boxes, queries, method=method)) == expected, method


@given(box_arrays(40), st.lists(st.tuples(coord, coord), max_size=20))
def test_query_points_equal_the_scalar_reference(boxes, points):
    expected = [
        (p, i)
        for p, point in enumerate(points)
        for i, row in enumerate(boxes)
        if Rect(*row).contains_point(point)
    ]
    for method in QUERY_METHODS:
        assert (
            as_list(query_points(boxes, np.array(points).reshape(-1, 2), method=method)) == expected
        )


@pytest.mark.parametrize("scene", ["uniform", "clustered", "mixed"])
def test_larger_scenes_agree_across_methods_and_levels(scene):
    from collide2d.scenes import boxes_scene

    boxes = boxes_scene(scene, 3000, seed=7)
    grid_stats, sweep_stats = Stats(), Stats()
    grid = overlapping_pairs(boxes, method="strips", stats=grid_stats)
    sweep = overlapping_pairs(boxes, method="sort_and_sweep", stats=sweep_stats)
    np.testing.assert_array_equal(grid, sweep)
    sample = np.random.default_rng(1).choice(len(boxes), 300, replace=False)
    sample.sort()
    subset = overlapping_pairs(boxes[sample], method="brute_force")
    inside = np.isin(grid, sample).all(axis=1)
    np.testing.assert_array_equal(np.searchsorted(sample, grid[inside]), subset)
    assert grid_stats.tests < 20 * (len(grid) + len(boxes)) < grid_stats.brute_force_tests / 5
    queries = boxes_scene(scene, 200, seed=8)
    np.testing.assert_array_equal(
        query_pairs(boxes, queries, method="strips"),
        query_pairs(boxes, queries, method="brute_force"),
    )


def test_stats_report_the_method_and_the_checks_saved():
    stats = Stats()
    boxes = np.array([[i * 20.0, 0.0, 10.0, 10.0] for i in range(100)])
    assert len(overlapping_pairs(boxes, stats=stats)) == 0
    assert stats.method == "strips" and stats.brute_force_tests == 4950
    assert stats.tests < 100 and stats.ratio > 49
    small = Stats()
    overlapping_pairs(boxes[:5], stats=small)
    assert small.method == "brute_force" and small.tests == 10


def test_empty_and_single_inputs():
    for method in PAIR_METHODS:
        assert overlapping_pairs(np.zeros((0, 4)), method=method).shape == (0, 2)
        assert overlapping_pairs([[0, 0, 1, 1]], method=method).shape == (0, 2)
        assert overlapping_circle_pairs([], method=method).shape == (0, 2)
    assert query_pairs([], [[0, 0, 1, 1]]).shape == (0, 2)
    assert query_pairs([[0, 0, 1, 1]], []).shape == (0, 2)


def test_many_pairs_grow_the_output_buffer():
    boxes = np.tile([0.0, 0.0, 10.0, 10.0], (300, 1))  # every pair overlaps
    for method in PAIR_METHODS:
        assert len(overlapping_pairs(boxes, method=method)) == 300 * 299 // 2
    assert len(query_pairs(boxes, boxes)) == 300 * 300


@pytest.mark.parametrize(
    ("value", "error", "message"),
    [
        ([[0, 0, 1]], ValueError, r"boxes must have shape \(N, 4\)"),
        ([[0, 0, -1, 1]], ValueError, "boxes sizes must be >= 0; row 0"),
        ([[0, 0, 1, 1], [np.nan, 0, 1, 1]], ValueError, "boxes must be finite; row 1"),
        ([[0, np.inf, 1, 1]], ValueError, "boxes must be finite"),
        ([["a", 0, 1, 1]], TypeError, "boxes must be an array of real numbers"),
        (np.zeros((2, 4, 1)), ValueError, "boxes must have shape"),
        # numpy would drop the imaginary part with a warning, and read None as NaN
        (np.array([[0, 0, 1, 1j]]), TypeError, "boxes must be an array of real.*complex"),
        (np.array([[0, 0, 1, 1], [None, 0, 1, 1]], dtype=object), TypeError, "row 1 holds None"),
        ([[0, 0, 1, 1], [0, 0, 1, "2"]], TypeError, "boxes must be an array of real"),
    ],
)
def test_bad_arrays_are_rejected_naming_the_argument(value, error, message):
    with pytest.raises(error, match=message):
        overlapping_pairs(value)


def test_bad_circles_queries_points_and_methods():
    with pytest.raises(ValueError, match="circles radii must be >= 0; row 1"):
        overlapping_circle_pairs([[0, 0, 1], [0, 0, -1]])
    with pytest.raises(ValueError, match="queries must be finite"):
        query_pairs([[0, 0, 1, 1]], [[0, 0, np.nan, 1]])
    with pytest.raises(ValueError, match=r"points must have shape \(N, 2\)"):
        query_points([[0, 0, 1, 1]], [[0, 0, 0]])
    with pytest.raises(ValueError, match="method must be one of"):
        overlapping_pairs([[0, 0, 1, 1]], method="kdtree")
    with pytest.raises(ValueError, match="method must be one of"):
        query_pairs([[0, 0, 1, 1]], [[0, 0, 1, 1]], method="sort_and_sweep")


@given(
    hnp.arrays(
        np.float64, st.tuples(st.integers(0, 30), st.just(4)), elements=st.floats(0, 50, width=32)
    )
)
def test_float_coordinates_agree_across_methods(boxes):
    expected = reference.overlapping_pairs([Rect(*row) for row in boxes])
    for method in PAIR_METHODS:
        assert as_list(overlapping_pairs(boxes, method=method)) == expected


@pytest.mark.parametrize("scene", ["uniform", "mixed"])
def test_threaded_search_finds_the_same_pairs(monkeypatch, scene):
    from collide2d._kernels.pairs import search as batch_pairs
    from collide2d.scenes import boxes_scene

    boxes = boxes_scene(scene, 2000, seed=3)
    single = overlapping_pairs(boxes, method="strips")
    monkeypatch.setattr(batch_pairs, "PARALLEL_MIN_ITEMS", 10)
    monkeypatch.setattr(batch_pairs, "THREADS", 3)
    np.testing.assert_array_equal(overlapping_pairs(boxes, method="strips"), single)
    circles = np.column_stack([boxes[:, :2], boxes[:, 2] / 2])
    np.testing.assert_array_equal(
        overlapping_circle_pairs(circles, method="strips"),
        overlapping_circle_pairs(circles, method="sort_and_sweep"),
    )


def test_the_catalogue_of_awkward_shapes_gives_the_scalar_answers():
    from tests import catalogue

    rects = [s for s in catalogue.shapes() if isinstance(s, Rect)]
    circles = [s for s in catalogue.shapes() if isinstance(s, Circle)]
    expected = reference.overlapping_pairs(rects)
    for method in PAIR_METHODS:
        assert as_list(overlapping_pairs([tuple(r) for r in rects], method=method)) == expected
    expected = reference.overlapping_pairs(circles)
    for method in PAIR_METHODS:
        got = overlapping_circle_pairs([tuple(c) for c in circles], method=method)
        assert as_list(got) == expected, method


@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
def test_bad_numbers_from_the_catalogue_are_refused(bad):
    with pytest.raises(ValueError, match="boxes must be finite; row 1"):
        overlapping_pairs([[0, 0, 1, 1], [0, bad, 1, 1]])
    with pytest.raises(ValueError, match="points must be finite"):
        query_points([[0, 0, 1, 1]], [[bad, 0]])


def test_stats_must_be_a_stats_record():
    with pytest.raises(TypeError, match="stats must be a collide2d.Stats"):
        overlapping_pairs([[0, 0, 1, 1]], stats="x")


magnitude = st.sampled_from([0.0, 1.0, 3.0, 1e150, 1e154, 1e200, 1e300, 1.7976931348623157e308])
signed = st.tuples(magnitude, st.sampled_from([1.0, -1.0, 0.5])).map(lambda p: p[0] * p[1])


@given(
    st.lists(st.tuples(signed, signed, magnitude), max_size=12).map(
        lambda rows: np.array(rows, dtype=float).reshape(-1, 3)
    ),
    st.lists(st.tuples(signed, signed, magnitude, magnitude), max_size=12).map(
        lambda rows: np.array(rows, dtype=float).reshape(-1, 4)
    ),
)
def test_shapes_near_the_largest_floats_give_the_scalar_answers_without_warnings(circles, boxes):
    """Edges that overflow to inf are accepted (docs/concepts.md); circles whose squares
    would overflow are decided exactly, as the scalar ``overlaps`` decides them."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        expected = reference.overlapping_pairs([Circle(*row) for row in circles])
        for method in PAIR_METHODS:
            assert as_list(overlapping_circle_pairs(circles, method=method)) == expected, method
        expected = reference.overlapping_pairs([Rect(*row) for row in boxes])
        for method in PAIR_METHODS:
            assert as_list(overlapping_pairs(boxes, method=method)) == expected, method
