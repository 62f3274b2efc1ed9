"""Rect/rect sweeps against the exact rational reference."""

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from collide2d import Rect, Vec2, sweep
from tests import reference

BIG = 2**20


def check_against_reference(a, a_delta, b, b_delta=(0, 0)):
    """Assert that collide2d's sweep equals the exact reference in every decision."""
    hit = sweep(Rect(*a), a_delta, Rect(*b), b_delta)
    exact = reference.sweep_rects(a, a_delta, b, b_delta)
    assert (hit is None) == (exact is None), (hit, exact)
    if hit is None:
        return None
    assert hit.started_overlapping == exact.started
    assert hit.fraction == float(exact.fraction)  # correctly rounded, not merely close
    assert 0.0 <= hit.fraction < 1.0
    if not exact.started:
        expected = Vec2(exact.sign, 0.0) if exact.axis == "x" else Vec2(0.0, exact.sign)
        assert hit.normal == expected
    assert abs(hit.normal.x) + abs(hit.normal.y) == 1.0
    return hit


# name: (a, a_delta, b, b_delta, expected fraction or None, expected normal or None)
CATALOGUE = {
    "touching left side, moving in": (
        (0, 0, 10, 10),
        (5, 0),
        (10, 0, 10, 10),
        (0, 0),
        0.0,
        (-1, 0),
    ),
    "touching right side, moving in": (
        (20, 0, 10, 10),
        (-5, 0),
        (10, 0, 10, 10),
        (0, 0),
        0.0,
        (1, 0),
    ),
    "touching top, moving in": ((0, -10, 10, 10), (0, 3), (0, 0, 10, 10), (0, 0), 0.0, (0, -1)),
    "touching bottom, moving in": ((0, 10, 10, 10), (0, -3), (0, 0, 10, 10), (0, 0), 0.0, (0, 1)),
    "touching, sliding along": ((0, 0, 10, 10), (0, 50), (10, 0, 10, 10), (0, 0), None, None),
    "touching, moving away": ((0, 0, 10, 10), (-5, 3), (10, 0, 10, 10), (0, 0), None, None),
    "touching top, sliding": ((0, -10, 10, 10), (30, 0), (0, 0, 10, 10), (0, 0), None, None),
    "exact corner diagonal": ((0, 0, 10, 10), (20, 20), (20, 20, 10, 10), (0, 0), 0.5, (-1, 0)),
    "corner graze passes by": ((0, 0, 10, 10), (20, -20), (20, -30, 10, 10), (0, 0), None, None),
    "corner to corner touch only": ((0, 0, 10, 10), (10, 10), (20, 20, 10, 10), (0, 0), None, None),
    "arrives exactly at 1": ((0, 0, 10, 10), (10, 0), (20, 0, 10, 10), (0, 0), None, None),
    "arrives just before 1": ((0, 0, 10, 10), (11, 0), (20, 0, 10, 10), (0, 0), 10 / 11, (-1, 0)),
    "zero motion apart": ((0, 0, 10, 10), (0, 0), (20, 0, 10, 10), (0, 0), None, None),
    "zero motion touching": ((0, 0, 10, 10), (0, 0), (10, 0, 10, 10), (0, 0), None, None),
    "zero motion overlapping": ((0, 0, 10, 10), (0, 0), (5, 5, 10, 10), (0, 0), 0.0, None),
    "equal velocities never meet": ((0, 0, 10, 10), (7, 3), (20, 0, 10, 10), (7, 3), None, None),
    "both move toward each other": (
        (0, 0, 10, 10),
        (20, 0),
        (30, 0, 10, 10),
        (-20, 0),
        0.5,
        (-1, 0),
    ),
    "only b moves": ((0, 0, 10, 10), (0, 0), (30, 0, 10, 10), (-40, 0), 0.5, (-1, 0)),
    "thin fast mover does not tunnel": (
        (0, 0, 1, 1),
        (10**6, 0),
        (500, -5, 1, 10),
        (0, 0),
        499 / 10**6,
        (-1, 0),
    ),
    "point into box": ((5, 5, 0, 0), (20, 0), (10, 0, 10, 10), (0, 0), 0.25, (-1, 0)),
    "point along an edge": ((0, 0, 0, 0), (40, 0), (10, 0, 10, 10), (0, 0), None, None),
    "point meets point": ((0, 0, 0, 0), (10, 10), (5, 5, 0, 0), (0, 0), None, None),
    "zero-width wall is hit": ((0, 0, 10, 10), (20, 0), (15, -5, 0, 20), (0, 0), 0.25, (-1, 0)),
    "negative coordinates": (
        (-100, -100, 10, 10),
        (-50, 0),
        (-130, -95, 10, 2),
        (0, 0),
        0.4,
        (1, 0),
    ),
    "huge coordinates": (
        (BIG, BIG, BIG, BIG),
        (-BIG, 0),
        (-BIG, BIG, BIG + 1, BIG),
        (0, 0),
        1 - 1 / BIG,
        (1, 0),
    ),
    "started overlapping": ((0, 0, 10, 10), (5, 0), (8, 1, 10, 10), (0, 0), 0.0, (-1, 0)),
}


@pytest.mark.parametrize("name", list(CATALOGUE))
def test_catalogue(name):
    a, a_delta, b, b_delta, fraction, normal = CATALOGUE[name]
    hit = check_against_reference(a, a_delta, b, b_delta)
    if fraction is None:
        assert hit is None
        return
    assert hit is not None and hit.fraction == fraction
    if normal is not None:
        assert hit.normal == normal


def test_started_overlapping_reports_least_penetration_and_contact_centre():
    hit = sweep(Rect(0, 0, 10, 10), (0, 5), Rect(8, 1, 10, 10))
    assert hit.started_overlapping and hit.fraction == 0.0
    assert hit.normal == (-1, 0)  # 2 units out to the left beats 9 units up
    assert hit.point == (9, 5.5)  # the centre of the intersection


def test_contact_point_is_in_world_coordinates_when_both_move():
    hit = sweep(Rect(0, 0, 10, 10), (20, 0), Rect(30, 0, 10, 10), (-20, 4))
    assert hit.fraction == 0.5
    assert hit.point == (20, 6)  # b has moved to (20, 2); the contact face spans y 2..10


def test_a_moves_by_fraction_of_its_delta_and_ends_touching():
    a, b = Rect(3, 7, 11, 5), Rect(40, 0, 10, 20)
    hit = sweep(a, (100, 13), b)
    moved = a.moved(Vec2(100, 13) * hit.fraction)
    assert moved.right == b.left


@pytest.mark.parametrize("bad", [(float("nan"), 0), (0, float("inf")), (1, 2, 3), "xy", None])
def test_bad_deltas_are_rejected_naming_the_argument(bad):
    with pytest.raises((TypeError, ValueError), match="a_delta"):
        sweep(Rect(0, 0, 1, 1), bad, Rect(5, 5, 1, 1))
    with pytest.raises((TypeError, ValueError), match="b_delta"):
        sweep(Rect(0, 0, 1, 1), (1, 1), Rect(5, 5, 1, 1), bad)


def test_bad_shapes_are_rejected_naming_the_argument():
    with pytest.raises(TypeError, match="^b must be"):
        sweep(Rect(0, 0, 1, 1), (1, 1), (5, 5, 1))


small = st.integers(-40, 40)
small_size = st.integers(0, 20)
huge = st.integers(-BIG, BIG)
huge_size = st.integers(0, BIG)


@given(
    st.tuples(small, small, small_size, small_size),
    st.tuples(small, small),
    st.tuples(small, small, small_size, small_size),
    st.tuples(small, small),
)
@example((0, 0, 10, 10), (20, 20), (20, 20, 10, 10), (0, 0))
@example((0, 0, 10, 10), (30, 30), (20, 20, 10, 10), (10, 10))
def test_small_scenes_match_exact_arithmetic(a, a_delta, b, b_delta):
    check_against_reference(a, a_delta, b, b_delta)


@given(
    st.tuples(huge, huge, huge_size, huge_size),
    st.tuples(huge, huge),
    st.tuples(huge, huge, huge_size, huge_size),
    st.tuples(huge, huge),
)
def test_large_scenes_match_exact_arithmetic(a, a_delta, b, b_delta):
    check_against_reference(a, a_delta, b, b_delta)


@given(
    st.tuples(huge, huge, huge_size, huge_size),
    st.tuples(huge, huge),
    st.tuples(huge, huge, huge_size, huge_size),
)
def test_aimed_scenes_match_exact_arithmetic(a, a_delta, b):
    # Aim a at b so that hits (and near-misses around corners) are common.
    aim = (b[0] - a[0] + a_delta[0] % 3, b[1] - a[1] + a_delta[1] % 3)
    check_against_reference(a, aim, b)
