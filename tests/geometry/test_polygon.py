"""Polygon: the value type, its checks and its exact overlap with every shape."""

from __future__ import annotations

import math
import pickle
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from collide2d import Circle, Polygon, Rect, Segment, overlaps
from tests.reference import circle_overlaps_polygon, exact_points, polygons_overlap

from .polygon_strategies import convex_polygons, rects


def test_a_polygon_given_the_other_way_round_is_stored_with_positive_area():
    cw = Polygon([(0, 0), (0, 2), (2, 2), (2, 0)])
    assert cw.vertices[0] == (0.0, 0.0)
    assert cw.vertices == ((0, 0), (2, 0), (2, 2), (0, 2))
    assert cw.area == 4.0


@pytest.mark.parametrize(
    ("points", "message"),
    [
        ([(0, 0), (1, 0)], "at least 3 vertices"),
        ([(0, 0), (1, 0), (2, 0)], "collinear"),
        ([(0, 0), (2, 0), (2, 1), (1, 0.5), (0, 1)], "goes the other way"),
        ([(0, 0), (1, 0), (1, 0), (0, 1)], "the same point"),
        ([(0, 0), (1, 0), (float("nan"), 1)], r"points\[2\].x must be finite"),
        ([(0, 0), (1, 0), (1, math.inf)], r"points\[2\].y must be finite"),
    ],
)
def test_bad_outlines_are_refused_naming_what_is_wrong(points, message):
    with pytest.raises(ValueError, match=message):
        Polygon(points)


def test_a_star_that_turns_one_way_but_winds_twice_is_refused():
    star = [(math.cos(4 * math.pi * k / 5), math.sin(4 * math.pi * k / 5)) for k in range(5)]
    with pytest.raises(ValueError, match="more than once"):
        Polygon(star)


def test_a_concave_outline_is_never_replaced_by_its_hull():
    with pytest.raises(ValueError, match="convex"):
        Polygon([(0, 0), (4, 0), (4, 4), (2, 1), (0, 4)])


def test_non_points_are_a_type_error():
    with pytest.raises(TypeError, match="points"):
        Polygon("abc")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"points\[1\]"):
        Polygon([(0, 0), "ab", (1, 1)])  # type: ignore[list-item]


@pytest.mark.parametrize("quarters", [-3, -2, -1, 0, 1, 2, 3, 4, 5])
def test_a_box_turned_by_whole_quarter_turns_is_exactly_axis_aligned(quarters):
    box = Polygon.box(10, 20, 6, 2, quarters * math.pi / 2)
    expected = Rect(7, 19, 6, 2) if quarters % 2 == 0 else Rect(9, 17, 2, 6)
    assert box.bounding_rect == expected
    assert {v.x for v in box.vertices} == {expected.left, expected.right}
    assert box.area == 12.0


def test_quarter_turned_and_rotated_by_are_exact():
    tri = Polygon([(0, 0), (4, 0), (0, 2)])
    assert tri.quarter_turned(1, about=(0, 0)).vertices == ((0, 0), (0, 4), (-2, 0))
    assert tri.quarter_turned(4, about=(0, 0)) == tri
    assert tri.rotated_by(0.6, 0.8, about=(0, 0)).vertices[1] == (2.4, 3.2)
    with pytest.raises(ValueError, match="unit vector"):
        tri.rotated_by(1, 1)


def test_a_positive_angle_turns_x_toward_y_clockwise_on_screen():
    box = Polygon.box(0, 0, 2, 0.5, math.pi / 4)
    right = max(box.vertices, key=lambda v: v.x)
    assert right.y > 0  # the +x end went down the screen


def test_regular_polygons_put_the_first_vertex_at_the_angle():
    square = Polygon.regular(1, 1, 2, 4)
    assert square.vertices == ((3, 1), (1, 3), (-1, 1), (1, -1))
    with pytest.raises(ValueError, match="sides"):
        Polygon.regular(0, 0, 1, 2)
    with pytest.raises(ValueError, match="radius"):
        Polygon.regular(0, 0, 0, 5)


def test_box_sizes_must_be_positive():
    with pytest.raises(ValueError, match="w and h"):
        Polygon.box(0, 0, 0, 1)
    with pytest.raises(ValueError, match="angle"):
        Polygon.box(0, 0, 1, 1, math.nan)


@given(convex_polygons())
def test_area_and_centroid_are_the_exact_values_rounded(polygon):
    points = exact_points(polygon.vertices)
    n = len(points)
    twice = sum(points[i - 1][0] * points[i][1] - points[i][0] * points[i - 1][1] for i in range(n))
    assert twice > 0  # stored with positive area
    assert polygon.area == float(twice / 2)
    cx = sum(
        (points[i - 1][0] + points[i][0])
        * (points[i - 1][0] * points[i][1] - points[i][0] * points[i - 1][1])
        for i in range(n)
    ) / (3 * twice)
    assert polygon.centroid.x == float(cx)


@given(convex_polygons())
def test_the_bounding_rect_covers_every_vertex(polygon):
    box = polygon.bounding_rect
    for x, y in polygon.vertices:
        assert box.left <= x <= box.right and box.top <= y <= box.bottom
    assert min(v.x for v in polygon.vertices) == box.left


@given(convex_polygons())
def test_normals_are_unit_and_point_outward(polygon):
    vs = polygon.vertices
    for i, (nx, ny) in enumerate(polygon.normals):
        assert math.isclose(math.hypot(nx, ny), 1.0, rel_tol=1e-12)
        p, q = vs[i], vs[(i + 1) % len(vs)]
        mid = ((p.x + q.x) / 2, (p.y + q.y) / 2)
        centre = polygon.centroid
        assert (mid[0] - centre.x) * nx + (mid[1] - centre.y) * ny > 0


def test_polygons_are_values():
    a = Polygon.box(1, 2, 3, 4, 0.3)
    b = Polygon.box(1, 2, 3, 4, 0.3)
    assert a == b and hash(a) == hash(b) and len({a, b}) == 1
    assert pickle.loads(pickle.dumps(a)) == a
    assert eval(repr(a), {"Polygon": Polygon}) == a
    assert a.translated((0, 0)) is a
    with pytest.raises(AttributeError):
        a.x = 3  # type: ignore[attr-defined]


# -- overlap against the exact clipping reference --------------------------------------


@settings(max_examples=300)
@given(convex_polygons(), convex_polygons())
def test_polygon_overlap_equals_exact_clipping(a, b):
    expected = polygons_overlap(exact_points(a.vertices), exact_points(b.vertices))
    assert overlaps(a, b) is expected
    assert overlaps(b, a) is expected


@settings(max_examples=300)
@given(convex_polygons(), rects())
def test_polygon_rect_overlap_equals_exact_clipping(polygon, rect):
    corners = [
        (rect.left, rect.top),
        (rect.right, rect.top),
        (rect.right, rect.bottom),
        (rect.left, rect.bottom),
    ]
    expected = polygons_overlap(exact_points(polygon.vertices), exact_points(corners))
    assert overlaps(polygon, rect) is expected
    assert overlaps(rect, polygon) is expected


def test_touching_polygons_do_not_overlap():
    a = Polygon([(0, 0), (2, 0), (1, 2)])
    assert not overlaps(a, Polygon([(2, 0), (4, 0), (3, 2)]))  # share a vertex
    assert not overlaps(a, Polygon([(0, 0), (2, 0), (1, -2)]))  # share an edge
    assert overlaps(a, Polygon([(0, 0), (2, 0), (1, 0.5)]))


@settings(max_examples=300)
@given(
    convex_polygons(),
    st.integers(-12, 12),
    st.integers(-12, 12),
    st.sampled_from([0.0, 0.5, 1.0, 2.0, 3.0, 0.1, 1.4142135623730951]),
)
def test_circle_overlap_is_the_exact_distance_test(polygon, x, y, r):
    points = exact_points(polygon.vertices)
    expected = circle_overlaps_polygon(points, Fraction(x), Fraction(y), Fraction(r))
    if r == 0.0:  # a zero radius is a point: it overlaps only what it lies strictly inside
        assert expected is overlaps(polygon, Rect(x, y, 0, 0))
    assert overlaps(polygon, Circle(x, y, r)) is expected
    assert overlaps(Circle(x, y, r), polygon) is expected


def test_a_circle_touching_a_face_does_not_overlap():
    square = Polygon.box(0, 0, 2, 2, math.pi / 2)
    assert not overlaps(square, Circle(2, 0, 1))
    assert overlaps(square, Circle(1.5, 0, 0.6))
    assert not overlaps(square, Circle(1, 1, 0))  # a point on a corner
    assert overlaps(square, Circle(0.5, 0.5, 0))


def test_segments_overlap_what_they_cross():
    square = Polygon.box(0, 0, 2, 2)
    assert overlaps(Segment((-5, 0), (5, 0)), square)
    assert not overlaps(Segment((-5, -1), (5, -1)), square)  # along the top face
    assert overlaps(Segment((-5, 0), (5, 0)), Segment((0, -5), (0, 5)))
    assert not overlaps(Segment((-5, 0), (5, 0)), Segment((5, -5), (5, 5)))


def test_shapes_the_front_does_not_know_are_a_type_error_naming_the_side():
    with pytest.raises(TypeError, match="b must be a Rect, a Circle, a Polygon"):
        overlaps(Polygon.box(0, 0, 1, 1), "wall")  # type: ignore[arg-type]
