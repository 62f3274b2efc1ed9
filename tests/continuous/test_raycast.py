"""Ray casts against rectangles (exact) and circles."""

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from collide2d import Circle, Rect, Vec2, raycast
from tests import reference

BIG = 2**20
coord = st.integers(-BIG, BIG)
size = st.integers(0, BIG)
small = st.integers(-30, 30)


def check_rect(origin, delta, rect):
    hit = raycast(origin, delta, Rect(*rect))
    exact = reference.raycast_rect(origin, delta, rect)
    assert (hit is None) == (exact is None), (hit, exact)
    if hit is None:
        return None
    assert hit.started_overlapping == exact.started
    assert hit.fraction == float(exact.fraction)
    expected_exit = math.inf if exact.exit_fraction is None else float(exact.exit_fraction)
    assert hit.exit_fraction == expected_exit
    if not exact.started:
        axis = Vec2(exact.sign, 0.0) if exact.axis == "x" else Vec2(0.0, exact.sign)
        assert hit.normal == axis
    return hit


@given(st.tuples(coord, coord), st.tuples(coord, coord), st.tuples(coord, coord, size, size))
def test_rect_raycasts_match_exact_arithmetic(origin, delta, rect):
    check_rect(origin, delta, rect)


@given(
    st.tuples(small, small),
    st.tuples(small, small),
    st.tuples(small, small, st.integers(0, 9), st.integers(0, 9)),
)
def test_small_rect_raycasts_match_exact_arithmetic(origin, delta, rect):
    check_rect(origin, delta, rect)


@pytest.mark.parametrize(
    ("origin", "delta", "fraction", "normal"),
    [
        ((0, 5), (20, 0), 0.5, (-1, 0)),  # through the middle
        ((0, 0), (20, 0), None, None),  # along the top edge: a graze
        ((0, 10), (20, 0), None, None),  # along the bottom edge
        ((16, 5), (0, 0), 0.0, (1, 0)),  # zero motion, inside: nearest side is x = 20
        ((5, 5), (0, 0), None, None),  # zero motion, outside
        ((0, -10), (20, 20), 0.5, (-1, 0)),  # exactly through the corner reports x
        ((0, 5), (10, 0), None, None),  # reaches the boundary at exactly 1
        ((30, 5), (-40, 0), 0.25, (1, 0)),  # from the right
        ((15, 30), (0, -40), 0.5, (0, 1)),  # from below
    ],
)
def test_rect_raycast_catalogue(origin, delta, fraction, normal):
    hit = check_rect(origin, delta, (10, 0, 10, 10))
    if fraction is None:
        assert hit is None
    else:
        assert hit.fraction == fraction and hit.normal == normal


def test_started_overlapping_reports_exit_and_nearest_side():
    hit = raycast((12, 5), (100, 0), Rect(10, 0, 10, 10))
    assert hit.started_overlapping and hit.fraction == 0 and hit.exit_fraction == 0.08
    assert hit.normal == (-1, 0) and hit.point == (12, 5)
    assert raycast((12, 5), (0, 0), Rect(10, 0, 10, 10)).exit_fraction == math.inf


def test_circle_raycast_entry_exit_and_normal():
    hit = raycast((-10, 0), (20, 0), Circle(0, 0, 5))
    assert (hit.fraction, hit.exit_fraction) == (0.25, 0.75)
    assert hit.normal == (-1, 0) and hit.point == (-5, 0)
    assert raycast((-10, 5), (20, 0), Circle(0, 0, 5)) is None  # tangent
    assert raycast((-10, 0), (5, 0), Circle(0, 0, 5)) is None  # touches at exactly 1
    assert raycast((0, 0), (1, 0), Circle(0, 0, 0)) is None  # a point has no interior
    inside = raycast((1, 0), (0, 0), Circle(0, 0, 5))
    assert inside.started_overlapping and inside.normal == (1, 0)


@given(
    st.tuples(small, small), st.tuples(small, small), st.tuples(small, small, st.integers(0, 20))
)
def test_circle_raycast_matches_the_exact_root(origin, delta, circle):
    hit = raycast(origin, delta, Circle(*circle))
    p = (reference.Q(origin[0] - circle[0]), reference.Q(origin[1] - circle[1]))
    d = (reference.Q(delta[0]), reference.Q(delta[1]))
    r = reference.Q(circle[2])
    inside = p[0] ** 2 + p[1] ** 2 < r * r
    root = reference.disc_entry(p, d, r)
    if inside:
        assert hit is not None and hit.started_overlapping
        return
    heading_in = root is not None and 0 <= root < 1 and p[0] * d[0] + p[1] * d[1] < 0
    assert (hit is not None) == heading_in
    if hit is not None:
        assert math.isclose(hit.fraction, float(root), rel_tol=1e-12, abs_tol=1e-300)


def test_raycast_rejects_bad_input_naming_the_argument():
    with pytest.raises(ValueError, match="origin"):
        raycast((math.nan, 0), (1, 0), Rect(0, 0, 1, 1))
    with pytest.raises(TypeError, match="delta"):
        raycast((0, 0), 5, Rect(0, 0, 1, 1))
    with pytest.raises(TypeError, match="shape"):
        raycast((0, 0), (1, 0), "rect")
