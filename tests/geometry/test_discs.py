"""The discs certainly inside and around a polygon, and the quick answers they give
``overlaps``: checked with exact rational arithmetic, near their margins on purpose."""

from __future__ import annotations

import math
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from collide2d import Polygon, overlaps
from collide2d.geometry.discs import discs, inner_discs_meet, outer_discs_apart
from tests.reference import exact_points, polygons_overlap

from .polygon_strategies import convex_polygons, far_polygons


def _coordinates(polygon: Polygon) -> tuple[list[float], list[float]]:
    return [v[0] for v in polygon.vertices], [v[1] for v in polygon.vertices]


@settings(max_examples=400)
@given(st.one_of(convex_polygons(), far_polygons()))
def test_the_inner_disc_lies_inside_every_edge_and_the_outer_one_holds_every_vertex(polygon):
    xs, ys = _coordinates(polygon)
    cx, cy, inner, outer = discs(xs, ys)
    c = (Fraction(cx), Fraction(cy))
    for x, y in zip(xs, ys, strict=True):
        assert (x - c[0]) ** 2 + (y - c[1]) ** 2 <= Fraction(outer) ** 2
    if math.isnan(inner):
        return
    assert inner > 0.0
    n = len(xs)
    for k in range(n):
        p = (Fraction(xs[k]), Fraction(ys[k]))
        q = (Fraction(xs[(k + 1) % n]), Fraction(ys[(k + 1) % n]))
        ex, ey = q[0] - p[0], q[1] - p[1]
        cross = ex * (c[1] - p[1]) - ey * (c[0] - p[0])
        assert cross > 0  # the centre is inside
        assert cross * cross >= Fraction(inner) ** 2 * (ex * ex + ey * ey)  # by at least r


def test_a_box_and_a_regular_polygon_have_their_inscribed_and_circumscribed_discs_nearly():
    cx, cy, inner, outer = discs([0.0, 4.0, 4.0, 0.0], [0.0, 0.0, 2.0, 2.0])
    assert (cx, cy) == (2.0, 1.0) and 1.0 - 1e-14 < inner < 1.0
    assert math.sqrt(5.0) < outer < math.sqrt(5.0) + 1e-14
    octagon = Polygon.regular(3.0, -2.0, 10.0, 8)
    cx, cy, inner, outer = discs(*_coordinates(octagon))
    assert abs(cx - 3.0) < 1e-12 and abs(cy + 2.0) < 1e-12
    assert 10.0 * math.cos(math.pi / 8) - 1e-9 < inner < 10.0 * math.cos(math.pi / 8)
    assert 10.0 < outer < 10.0 + 1e-9


def test_a_sliver_far_out_whose_mean_rounds_near_an_edge_has_no_disc():
    sliver = Polygon([(549755813891.0, 0.0009765625), (549755813889.0, 2.9802322387695312e-08),
                      (549755813889.0, 0.0)])  # fmt: skip
    assert math.isnan(discs(*_coordinates(sliver))[2])
    assert overlaps(sliver, sliver)  # the exact test answers instead


@settings(max_examples=400)
@given(
    convex_polygons(),
    convex_polygons(),
    st.floats(0, 2 * math.pi),
    st.booleans(),
    st.sampled_from([0.5, 0.999999, 1.0 - 2.0**-40, 1.0, 1.0 + 2.0**-40, 1.000001, 1.2]),
)
def test_polygons_placed_about_where_their_discs_meet_overlap_exactly_as_clipped(
    a, b, angle, outer, share
):
    """``b`` moved so that the centres are ``share`` times the sum of the inner (or
    the outer) radii apart: around 1 the quick answer sits on its margin."""
    ax, ay, a_in, a_out = discs(*_coordinates(a))
    bx, by, b_in, b_out = discs(*_coordinates(b))
    reach = ((a_out + b_out) if outer else (a_in + b_in)) * share
    if math.isnan(reach):
        return
    b = b.translated((ax + reach * math.cos(angle) - bx, ay + reach * math.sin(angle) - by))
    expected = polygons_overlap(exact_points(a.vertices), exact_points(b.vertices))
    assert overlaps(a, b) is expected
    assert overlaps(b, a) is expected
    bx, by, b_in, b_out = discs(*_coordinates(b))
    if inner_discs_meet(ax, ay, a_in, bx, by, b_in):
        assert expected
    if outer_discs_apart(ax, ay, a_out, bx, by, b_out):
        assert not expected


def test_a_nan_radius_never_says_the_discs_meet():
    assert not inner_discs_meet(0.0, 0.0, math.nan, 0.0, 0.0, 5.0)
    assert not inner_discs_meet(0.0, 0.0, 5.0, 0.0, 0.0, math.nan)


def test_a_copied_or_unpickled_polygon_makes_its_own_packed_row():
    """The row kept on a polygon holds its vertices' address: a copy must never
    carry it over (it would point into another process, or a freed array)."""
    import copy
    import pickle

    a = Polygon.regular(0.0, 0.0, 10.0, 8)
    b = Polygon.regular(19.0, 1.0, 10.0, 8, 0.3)  # shallow: the compiled test runs
    assert overlaps(a, b)
    for twin in (pickle.loads(pickle.dumps(a)), copy.copy(a), copy.deepcopy(a)):
        assert twin is not a and twin._packed is None
        assert overlaps(twin, b) and twin._packed[8] != a._packed[8]
