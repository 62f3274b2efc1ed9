"""Query polygons and rotated boxes against indexed ones: the scalar test, row for row."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from collide2d import Polygon, Stats, overlaps
from collide2d.batch.polygon_queries import query_box_pairs, query_polygon_pairs
from tests.geometry.polygon_strategies import box_rows as box_rows_of
from tests.geometry.polygon_strategies import convex_polygons, far_polygons

box_rows = box_rows_of(15)
METHODS = st.sampled_from(["auto", "strips", "brute_force"])


def _expected(queries, polygons):
    return [
        (q, i)
        for q, query in enumerate(queries)
        for i, polygon in enumerate(polygons)
        if overlaps(query, polygon)
    ]


def _arrays(polygons, k=None):
    k = k or max([len(p.vertices) for p in polygons] + [3])
    vertices = np.zeros((len(polygons), k, 2))
    for i, p in enumerate(polygons):
        vertices[i, : len(p.vertices)] = p.vertices
    return vertices, np.array([len(p.vertices) for p in polygons], dtype=np.intp)


@settings(max_examples=120)
@given(box_rows, box_rows, METHODS)
def test_box_queries_equal_the_scalar_test(rows, query_rows, method):
    stats = Stats()
    found = query_box_pairs(
        np.array(rows).reshape(-1, 5), np.array(query_rows).reshape(-1, 5),
        method=method, stats=stats,
    )  # fmt: skip
    expected = _expected([Polygon.box(*r) for r in query_rows], [Polygon.box(*r) for r in rows])
    assert found.dtype == np.intp and found.shape[1] == 2
    assert [tuple(p) for p in found.tolist()] == expected
    assert stats.brute_force_tests == len(rows) * len(query_rows)


@settings(max_examples=120)
@given(
    st.lists(convex_polygons() | far_polygons(), max_size=8),
    st.lists(convex_polygons() | far_polygons(), max_size=8),
    METHODS,
)
def test_polygon_queries_equal_the_scalar_test(polygons, queries, method):
    vertices, counts = _arrays(polygons)
    q_vertices, q_counts = _arrays(queries, 12)  # wider padding than the indexed set
    found = query_polygon_pairs(vertices, q_vertices, counts, q_counts, method=method)
    assert [tuple(p) for p in found.tolist()] == _expected(queries, polygons)


def test_values_beyond_the_compiled_range_take_the_python_route():
    big = Polygon.box(1e300, 0.0, 4e298, 4e298, 0.3)
    near = Polygon.box(1e300 + 1e298, 0.0, 4e298, 4e298)
    vertices, counts = _arrays([big])
    q_vertices, q_counts = _arrays([near, Polygon.box(0, 0, 1, 1)])
    found = query_polygon_pairs(vertices, q_vertices, counts, q_counts)
    assert found.tolist() == [[0, 0]]


def test_bad_input_names_the_argument():
    square = [[0, 0], [1, 0], [1, 1], [0, 1]]
    with pytest.raises(ValueError, match="queries"):
        query_polygon_pairs([square], [[0, 0], [1, 1]])
    with pytest.raises(ValueError, match="queries row 0"):
        query_polygon_pairs([square], [[[0, 0], [1, 1], [2, 2]]])
    with pytest.raises(ValueError, match="query_counts"):
        query_polygon_pairs([square], [square], query_counts=[7])
    with pytest.raises(ValueError, match="queries sizes"):
        query_box_pairs([[0, 0, 1, 1, 0]], [[0, 0, 0, 1, 0]])
    with pytest.raises(ValueError, match="boxes"):
        query_box_pairs([[0, 0, 1, math.nan, 0]], [[0, 0, 1, 1, 0]])
    with pytest.raises(ValueError, match="method"):
        query_box_pairs([[0, 0, 1, 1, 0]], [[0, 0, 1, 1, 0]], method="sort_and_sweep")


def test_empty_inputs():
    assert query_box_pairs(np.zeros((0, 5)), [[0, 0, 1, 1, 0]]).shape == (0, 2)
    assert query_box_pairs([[0, 0, 1, 1, 0]], np.zeros((0, 5))).shape == (0, 2)
