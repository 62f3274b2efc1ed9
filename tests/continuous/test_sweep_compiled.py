"""The compiled route of ``sweep`` for polygons (``continuous/polygon_compiled.py``):
the same record as the exact Python route, field for field, and the Python route
wherever it cannot settle a pair."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from collide2d import Polygon, Rect, sweep
from collide2d.continuous import polygon_compiled
from collide2d.continuous.polygon import sweep_outlines
from collide2d.continuous.polygon_compiled import UNSETTLED, sweep_compiled, sweep_soon
from collide2d.geometry.convex import outline
from tests.geometry.polygon_strategies import boxes, convex_polygons, far_polygons, rects

DELTAS = st.tuples(
    st.integers(-20, 20).map(float) | st.floats(-20, 20, allow_nan=False),
    st.integers(-20, 20).map(float) | st.floats(-20, 20, allow_nan=False),
)
STILL = (0.0, 0.0)


def _python(a, a_delta, b, b_delta):
    return sweep_outlines(outline(a), a_delta, outline(b), b_delta)


@pytest.fixture(autouse=True, scope="module")
def _compiled_from_the_first_sweep(monkeypatch_module):
    """``sweep`` turns to the compiled route at once here (not after
    ``COMPILE_AFTER`` sweeps), so that every comparison below compares the two."""
    monkeypatch_module.setattr(polygon_compiled, "COMPILE_AFTER", 0)


@settings(max_examples=500)
@given(st.one_of(convex_polygons(), boxes()), DELTAS, st.one_of(convex_polygons(), boxes()),
       DELTAS)  # fmt: skip
def test_the_compiled_sweep_is_the_python_sweep_field_for_field(a, a_delta, b, b_delta):
    assert sweep(a, a_delta, b, b_delta) == _python(a, a_delta, b, b_delta)


@settings(max_examples=300)
@given(convex_polygons(), DELTAS, rects(), DELTAS)
def test_a_polygon_and_a_rect_in_either_order(polygon, p_delta, rect, r_delta):
    assert sweep(polygon, p_delta, rect, r_delta) == _python(polygon, p_delta, rect, r_delta)
    assert sweep(rect, r_delta, polygon, p_delta) == _python(rect, r_delta, polygon, p_delta)


@settings(max_examples=200)
@given(far_polygons(), DELTAS, st.data())
def test_far_from_the_origin_too(a, delta, data):
    b = data.draw(convex_polygons()).translated(a.vertices[0])
    assert sweep(a, delta, b) == _python(a, delta, b, STILL)


def test_faces_meeting_report_the_middle_of_their_shared_stretch_as_the_python_route():
    a = Polygon.box(0.0, 0.0, 4.0, 2.0)
    b = Polygon.box(10.0, 0.5, 4.0, 2.0)
    hit = sweep(a, (10.0, 0.0), b)
    assert hit is not None and hit.point == _python(a, (10.0, 0.0), b, STILL).point
    assert hit.point == (8.0, 0.25) and hit.normal == (-1.0, 0.0)


def test_a_started_overlap_gives_the_shortest_push_and_the_deepest_vertex():
    a = Polygon.regular(0.0, 0.0, 5.0, 8, 0.2)
    b = Polygon.box(6.0, 0.5, 4.0, 9.0, 0.1)
    hit = sweep(a, (1.0, 2.0), b)
    assert hit is not None and hit.started_overlapping and hit.depth > 0.0
    assert hit == _python(a, (1.0, 2.0), b, STILL)


def test_the_compiled_route_runs_for_usual_pairs_and_leaves_the_others():
    a = Polygon.regular(0.0, 0.0, 10.0, 8, 0.1)
    far = Polygon.regular(25.0, 3.0, 10.0, 8, 0.3)
    assert sweep_compiled(a, (30.0, 3.0), far, STILL) == _python(a, (30.0, 3.0), far, STILL)
    assert sweep_compiled(a, (30.0, 3.0), Rect(25.0, 0.0, 4.0, 4.0), STILL) is not UNSETTLED
    huge = Polygon.regular(1e50, 1e50, 1e49, 8)  # beyond SWEEP_EXACT_RANGE (2**150)
    huge_far = Polygon.regular(1.3e50, 1e50, 1e49, 8, 0.3)
    assert sweep_compiled(huge, (3e49, 0.0), huge_far, STILL) is UNSETTLED
    assert sweep_compiled(a, (1e-200, 0.0), far, STILL) is UNSETTLED
    assert sweep_compiled(a, (30.0, 3.0), Rect(25.0, 0.0, 0.0, 4.0), STILL) is UNSETTLED
    assert sweep(huge, (3e49, 0.0), huge_far) == _python(huge, (3e49, 0.0), huge_far, STILL)


def test_a_vertex_meeting_a_vertex_of_the_obstacles_two_edges_goes_to_the_python_route():
    """A diamond's corner driven exactly onto a square's corner: two edges of one
    shape give the first contact at once, a tie the compiled sweep leaves."""
    diamond = Polygon([(-2.0, 0.0), (0.0, -2.0), (2.0, 0.0), (0.0, 2.0)])
    square = Polygon.box(6.0, 6.0, 4.0, 4.0)
    for delta in ((6.0, 6.0), (3.0, 3.0), (4.5, 4.5)):
        assert sweep(diamond, delta, square) == _python(diamond, delta, square, STILL)
    assert math.isfinite(sweep(diamond, (6.0, 6.0), square).fraction)


def test_the_front_waits_its_count_of_sweeps_before_it_compiles(monkeypatch):
    a = Polygon.regular(0.0, 0.0, 10.0, 8, 0.1)
    far = Polygon.regular(25.0, 3.0, 10.0, 8, 0.3)
    monkeypatch.setattr(polygon_compiled, "COMPILE_AFTER", 3)
    monkeypatch.setattr(polygon_compiled, "_route", [0])
    monkeypatch.setattr(polygon_compiled, "_kernel", [])  # as in a fresh process
    assert [sweep_soon(a, (30.0, 3.0), far, STILL) for _ in range(3)] == [UNSETTLED] * 3
    assert sweep(a, (30.0, 3.0), far) == _python(a, (30.0, 3.0), far, STILL)  # the fourth
    assert polygon_compiled._kernel  # loaded now: every later sweep is compiled
    assert sweep_soon(a, (30.0, 3.0), far, STILL) == _python(a, (30.0, 3.0), far, STILL)
