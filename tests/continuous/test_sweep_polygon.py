"""Sweeps and ray casts of polygons, against the exact clipping reference."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from collide2d import Circle, Mask, PlacedMask, Polygon, Rect, Segment, overlaps, raycast, sweep
from tests.geometry.polygon_strategies import convex_polygons, far_polygons, rects
from tests.reference import (
    circle_overlaps_polygon,
    exact_points,
    polygon_sweep,
    polygons_overlap,
)

DELTAS = st.tuples(
    st.integers(-20, 20).map(float) | st.floats(-20, 20, allow_nan=False),
    st.integers(-20, 20).map(float) | st.floats(-20, 20, allow_nan=False),
)


def _floor(value: Fraction) -> float:
    f = float(value)
    if Fraction(f) > value:
        f = math.nextafter(f, -math.inf)
    return f + 0.0


def _check_against_reference(a, a_delta, b, b_delta=(0.0, 0.0)):
    relative = (
        Fraction(a_delta[0]) - Fraction(b_delta[0]),
        Fraction(a_delta[1]) - Fraction(b_delta[1]),
    )
    expected = polygon_sweep(exact_points(a.vertices), relative, exact_points(b.vertices))
    hit = sweep(a, a_delta, b, b_delta)
    if expected is None:
        assert hit is None
        return None
    assert hit is not None
    moment, started = expected
    assert hit.started_overlapping is started
    assert hit.fraction == _floor(moment)
    assert math.isclose(math.hypot(*hit.normal), 1.0, rel_tol=1e-9)
    if not started:
        # the normal faces the relative motion: a moving into b meets it head on or aslant
        assert hit.normal[0] * float(relative[0]) + hit.normal[1] * float(relative[1]) < 0
    else:
        assert hit.depth > 0
    return hit


@settings(max_examples=400)
@given(convex_polygons(), DELTAS, convex_polygons())
def test_polygon_sweep_is_the_exact_first_contact_rounded_down(a, delta, b):
    _check_against_reference(a, delta, b)


@settings(max_examples=200)
@given(convex_polygons(), DELTAS, convex_polygons(), DELTAS)
def test_both_moving_is_the_relative_motion(a, a_delta, b, b_delta):
    _check_against_reference(a, a_delta, b, b_delta)


@settings(max_examples=200)
@given(far_polygons(), DELTAS, st.data())
def test_far_from_the_origin_too(a, delta, data):
    offset = a.vertices[0]
    b = data.draw(convex_polygons()).translated(offset)
    _check_against_reference(a, delta, b)


@settings(max_examples=200)
@given(convex_polygons(), DELTAS, rects())
def test_polygon_against_rect_in_either_order(polygon, delta, rect):
    box = Polygon([(rect.left, rect.top), (rect.right, rect.top), (rect.right, rect.bottom),
                   (rect.left, rect.bottom)])  # fmt: skip
    expected = sweep(polygon, delta, box)
    assert sweep(polygon, delta, rect) == expected
    flipped = sweep(rect, (-delta[0], -delta[1]), polygon)
    if expected is None:
        assert flipped is None
    else:
        assert flipped is not None and flipped.fraction == expected.fraction
        assert flipped.started_overlapping == expected.started_overlapping


def test_sliding_along_a_face_is_no_hit_and_touching_then_moving_in_hits_at_zero():
    ramp = Polygon([(0, 10), (10, 0), (10, 10)])  # a 45 degree slope, face x + y = 10
    slider = Polygon([(0, 0), (4, 0), (0, 4)])  # its face x + y = 4 ...
    on_slope = slider.translated((3, 3))  # face x + y = 10: touching the ramp
    assert not overlaps(on_slope, ramp)
    assert sweep(on_slope, (5, -5), ramp) is None  # along the face
    hit = sweep(on_slope, (1, 1), ramp)  # into it
    assert hit is not None and hit.fraction == 0.0 and not hit.started_overlapping
    assert hit.normal == pytest.approx((-math.sqrt(0.5), -math.sqrt(0.5)))  # back up the slope
    assert sweep(on_slope, (-1, -1), ramp) is None  # away


def test_arriving_exactly_at_the_end_of_the_frame_is_no_hit():
    a = Polygon.box(0, 0, 2, 2)
    b = Polygon.box(4, 0, 2, 2)
    assert sweep(a, (2, 0), b) is None
    assert sweep(a, (2.000001, 0), b) is not None


def test_a_vertex_meeting_a_vertex_prefers_the_obstacle_and_the_x_axis():
    a = Polygon.box(0, 0, 2, 2)
    b = Polygon.box(4, 4, 2, 2)
    hit = sweep(a, (4, 4), b)
    assert hit is not None and hit.fraction == 0.5
    assert hit.normal == (-1.0, 0.0)
    assert hit.point == (3.0, 3.0)


def test_faces_meeting_report_the_middle_of_the_shared_stretch():
    a = Polygon.box(0, 0, 2, 2)
    b = Polygon.box(5, 1, 2, 2)
    hit = sweep(a, (4, 0), b)
    assert hit is not None and hit.fraction == 0.75
    assert hit.normal == (-1.0, 0.0)
    assert hit.point == (4.0, 0.5)


def test_a_started_overlap_reports_the_shortest_push():
    a = Polygon.box(0, 0, 2, 2)
    b = Polygon.box(1.5, 0, 2, 2)
    hit = sweep(a, (1, 0), b)
    assert hit is not None and hit.started_overlapping and hit.fraction == 0.0
    assert hit.normal == (-1.0, 0.0) and hit.depth == 0.5
    assert not overlaps(Polygon.box(0 - 0.5, 0, 2, 2), b)


def test_a_fast_thin_polygon_never_tunnels():
    bullet = Polygon.box(0, 0, 0.01, 0.001, 0.3)
    wall = Polygon.box(1e6, 0, 0.001, 10, 0.01)
    hit = sweep(bullet, (2e6, 0), wall)
    assert hit is not None and 0.4 < hit.fraction < 0.6


def test_huge_coordinates_stay_exact():
    a = Polygon([(1e300, 0), (1.5e300, 0), (1e300, 1)])
    b = Polygon([(2e300, 0), (3e300, 0), (3e300, 1)])
    hit = sweep(a, (2e300, 0), b)
    assert hit is not None and hit.fraction == 0.25
    tiny = Polygon([(0, 0), (1e-300, 0), (0, 1e-300)])
    far = tiny.translated((5e-300, 0))
    expected = _floor((Fraction(5e-300) - Fraction(1e-300)) / Fraction(1e-299))
    assert sweep(tiny, (1e-299, 0), far).fraction == expected  # type: ignore[union-attr]


# -- segments and rays --------------------------------------------------------------


def _ray_reference(origin, delta, polygon):
    point = exact_points([origin])
    d = (Fraction(delta[0]), Fraction(delta[1]))
    tiny = [point[0], (point[0][0] + Fraction(1, 10**30), point[0][1]),
            (point[0][0], point[0][1] + Fraction(1, 10**30))]  # fmt: skip
    return polygon_sweep(tiny, d, exact_points(polygon.vertices)), tiny


@settings(max_examples=300)
@given(convex_polygons(), st.integers(-12, 12), st.integers(-12, 12), DELTAS)
def test_raycast_enters_where_the_exact_line_enters(polygon, x, y, delta):
    hit = raycast((x, y), delta, polygon)
    points = exact_points(polygon.vertices)
    # the origin moved by t * delta is strictly inside for t in (enter, exit)
    if hit is None:
        for k in range(1, 40):
            t = Fraction(k, 40)
            px, py = Fraction(x) + Fraction(delta[0]) * t, Fraction(y) + Fraction(delta[1]) * t
            assert not _strictly_inside(points, px, py)
        return
    t = Fraction(hit.fraction)
    px, py = Fraction(x) + Fraction(delta[0]) * t, Fraction(y) + Fraction(delta[1]) * t
    if hit.started_overlapping:
        assert _strictly_inside(points, px, py)
        return
    assert not _strictly_inside(points, px, py)
    # the exact open interval of the line inside (clipped by each edge's half-plane)
    lo, hi = Fraction(-(10**9)), Fraction(10**9)
    n = len(points)
    dx, dy = Fraction(delta[0]), Fraction(delta[1])
    for i in range(n):
        (ax, ay), (bx, by) = points[i], points[(i + 1) % n]
        o = (bx - ax) * (y - ay) - (by - ay) * (x - ax)  # inside when o + t * rate > 0
        rate = (bx - ax) * dy - (by - ay) * dx
        if rate > 0:
            lo = max(lo, -o / rate)
        elif rate < 0:
            hi = min(hi, -o / rate)
    assert lo < hi and t <= lo < 1 and hit.fraction == _floor(lo)
    middle = (lo + min(hi, Fraction(1))) / 2
    assert _strictly_inside(points, Fraction(x) + dx * middle, Fraction(y) + dy * middle)


def _strictly_inside(points, x, y):
    n = len(points)
    return all(
        (points[(i + 1) % n][0] - points[i][0]) * (y - points[i][1])
        - (points[(i + 1) % n][1] - points[i][1]) * (x - points[i][0])
        > 0
        for i in range(n)
    )


def test_raycast_along_a_face_is_no_hit():
    box = Polygon.box(0, 0, 2, 2, math.pi)
    assert raycast((-5, -1), (10, 0), box) is None
    hit = raycast((-5, 0), (10, 0), box)
    # 0.4 as a float is above 2/5: the fraction is the float just below, so the point
    # stops short of the face rather than past it
    assert hit is not None and hit.fraction == _floor(Fraction(2, 5)) < 0.4
    assert hit.exit_fraction == 0.6 and hit.normal == (-1.0, 0.0) and hit.point.x < -1.0


def test_a_segment_sweeps_like_a_thin_polygon():
    stick = Segment((0, -1), (0, 1))
    wall = Polygon.box(5, 0, 2, 10)
    hit = sweep(stick, (10, 0), wall)
    assert hit is not None and hit.fraction == _floor(Fraction(2, 5)) and hit.normal == (-1.0, 0.0)
    assert raycast((0, 0), (10, 0), Segment((5, -1), (5, 1))) is None  # no interior


# -- circles ----------------------------------------------------------------------------


def _exact_circle_overlap(polygon, x, y, r):
    return circle_overlaps_polygon(exact_points(polygon.vertices), x, y, r)


@settings(max_examples=300)
@given(
    convex_polygons(),
    st.integers(-12, 12),
    st.integers(-12, 12),
    st.sampled_from([0.5, 1.0, 2.0, 0.3]),
    DELTAS,
)
def test_circle_sweep_stops_at_the_last_float_before_the_overlap(polygon, x, y, r, delta):
    circle = Circle(x, y, r)
    hit = sweep(circle, delta, polygon)

    def overlap_at(t: Fraction) -> bool:
        return _exact_circle_overlap(
            polygon, Fraction(x) + Fraction(delta[0]) * t, Fraction(y) + Fraction(delta[1]) * t,
            Fraction(r),
        )  # fmt: skip

    if hit is None:
        assert not any(overlap_at(Fraction(k, 64)) for k in range(64))
        return
    if hit.started_overlapping:
        assert overlap_at(Fraction(0))
        return
    assert not overlap_at(Fraction(hit.fraction))
    later = [Fraction(hit.fraction) + Fraction(k, 10**7) for k in (1, 10, 100, 1000)]
    assert any(overlap_at(t) for t in later if t < 1) or hit.fraction > 0.9999
    flipped = sweep(polygon, (-delta[0], -delta[1]), circle)
    assert flipped is not None and flipped.fraction == hit.fraction
    assert flipped.normal == pytest.approx((-hit.normal[0], -hit.normal[1]))


@given(st.floats(-30, 30), st.sampled_from([0.5, 3.0, 1.7]), st.integers(-3, 3), DELTAS)
def test_a_circle_an_ulp_from_a_sloped_face_enters_at_the_exact_float(t, r, ulps, delta):
    """A circle as good as tangent to a 45 degree face, moving into it: the contact is
    a few float steps after 0, where float steps are far finer than the estimate's
    error; the fraction is still the last float before the exact overlap (the
    settling bisects: it once stepped 64 steps back from the estimate and gave up,
    calling the pair started)."""
    ramp = Polygon([(-50, 50), (50, -50), (50, 50)])
    cx = t - r * math.sqrt(0.5) + ulps * math.ulp(t)
    cy = -t - r * math.sqrt(0.5)
    hit = sweep(Circle(cx, cy, r), delta, ramp)

    def overlap_at(time: Fraction) -> bool:
        return _exact_circle_overlap(
            ramp, Fraction(cx) + Fraction(delta[0]) * time, Fraction(cy) + Fraction(delta[1]) * time,
            Fraction(r),
        )  # fmt: skip

    if hit is None or hit.started_overlapping:
        assert (hit is not None) == overlap_at(Fraction(0))
        return
    assert not overlap_at(Fraction(hit.fraction))
    after = math.nextafter(hit.fraction, 2.0)
    assert after >= 1.0 or overlap_at(Fraction(after))


# -- pixel masks ------------------------------------------------------------------------


@st.composite
def masks(draw):
    w = draw(st.integers(1, 6))
    h = draw(st.integers(1, 6))
    bits = draw(st.lists(st.lists(st.booleans(), min_size=w, max_size=w), min_size=h, max_size=h))
    return Mask.from_array(bits)


def _pixel_squares(placed):
    mask, mx, my = placed
    bits = mask.to_array()
    for v in range(bits.shape[0]):
        for u in range(bits.shape[1]):
            if bits[v, u]:
                x, y = Fraction(mx) + u, Fraction(my) + v
                yield [(x, y), (x + 1, y), (x + 1, y + 1), (x, y + 1)]


@settings(max_examples=200)
@given(convex_polygons(), masks(), st.sampled_from([(-3.0, -2.0), (0.5, -1.25), (-2.3, 0.1)]))
def test_polygon_against_mask_is_the_union_of_its_pixels(polygon, mask, corner):
    placed = PlacedMask(mask, *corner)
    points = exact_points(polygon.vertices)
    expected = any(polygons_overlap(points, square) for square in _pixel_squares(placed))
    assert overlaps(polygon, placed) is expected
    assert overlaps(placed, polygon) is expected


@settings(max_examples=150)
@given(convex_polygons(), DELTAS, masks(), st.sampled_from([(-3.0, -2.0), (0.5, -1.25)]))
def test_polygon_sweep_against_a_mask_meets_its_first_pixel(polygon, delta, mask, corner):
    placed = PlacedMask(mask, *corner)
    d = (Fraction(delta[0]), Fraction(delta[1]))
    points = exact_points(polygon.vertices)
    found = [polygon_sweep(points, d, square) for square in _pixel_squares(placed)]
    found = [f for f in found if f is not None]
    hit = sweep(polygon, delta, placed)
    if not found:
        assert hit is None
        return
    assert hit is not None
    if any(started for _, started in found):
        assert hit.started_overlapping
        return
    first = min(moment for moment, _ in found)
    assert hit.fraction == _floor(first) and not hit.started_overlapping
    u, v = hit.other_pixel
    assert mask.get_at((u, v))
    back = sweep(placed, (-delta[0], -delta[1]), polygon)
    assert back is not None and back.fraction == hit.fraction and back.pixel == hit.other_pixel


def test_a_rotated_crate_lands_on_pixel_terrain():
    ground = PlacedMask(Mask((40, 4), fill=True), 0, 20)
    crate = Polygon.box(20, 0, 4, 4, math.pi / 4)
    hit = sweep(crate, (0, 40), ground)
    assert hit is not None and hit.normal == (0.0, -1.0)
    bottom = max(v.y for v in crate.vertices)
    assert hit.fraction == _floor((Fraction(20) - Fraction(bottom)) / 40)
    assert hit.other_pixel == (20, 0) or hit.other_pixel == (19, 0)


def test_rects_never_change_route():
    # Rect with Rect still takes the rectangle code (correctly rounded), not the polygon's
    hit = sweep(Rect(0, 0, 1, 1), (10, 0), Rect(2, 0, 1, 1))
    assert hit is not None and hit.fraction == 0.1


# -- rasterising -------------------------------------------------------------------------


def _covers(points, cx, cy):
    """Whether the centre is inside the closed polygon, boundary by the top-left rule."""
    n = len(points)
    for i in range(n):
        (px, py), (qx, qy) = points[i], points[(i + 1) % n]
        ex, ey = qx - px, qy - py
        o = ex * (cy - py) - ey * (cx - px)
        if o < 0:
            return False
        if o == 0 and (ey > 0 or (ey == 0 and ex < 0)):  # on a right or bottom edge
            return False
    return True


@settings(max_examples=200)
@given(convex_polygons(), st.sampled_from([(10.0, 10.0), (3.5, 7.25), (0.5, 0.5)]))
def test_from_polygon_takes_the_pixels_whose_centres_it_covers(polygon, offset):
    shape = polygon.translated(offset)
    mask = Mask.from_polygon(shape, size=(24, 24))
    points = exact_points(shape.vertices)
    bits = mask.to_array()
    half = Fraction(1, 2)
    for v in range(24):
        for u in range(24):
            assert bits[v, u] == _covers(points, u + half, v + half), (u, v)


def test_polygons_sharing_an_edge_never_share_a_pixel():
    left = Polygon([(0, 0), (3, 0), (5, 8), (0, 8)])
    right = Polygon([(3, 0), (8, 0), (8, 8), (5, 8)])
    a = Mask.from_polygon(left, size=(8, 8)).to_array()
    b = Mask.from_polygon(right, size=(8, 8)).to_array()
    assert not (a & b).any() and (a | b).all()


def test_from_polygon_checks_its_arguments():
    with pytest.raises(TypeError, match="polygon must be a Polygon"):
        Mask.from_polygon(Rect(0, 0, 2, 2))  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="size"):
        Mask.from_polygon(Polygon.box(2, 2, 2, 2), size=(-1, 3))


EXTREME = [
    Polygon([(1e308, 0), (1.7e308, 0), (1e308, 1e308)]),
    Polygon([(-1.7e308, -1.7e308), (1.7e308, -1.7e308), (0, 1.7e308)]),
    Polygon([(0, 0), (5e-324, 0), (0, 5e-324)]),
    Polygon.box(0, 0, 1e-300, 1e-300, 0.3),
    Rect(0, 0, 0, 0),
    Rect(1e308, 0, 1e308, 1),
    Circle(0, 0, 1e300),
    Circle(3, 3, 1e-300),
    Segment((-1e308, 0), (1e308, 0)),
    PlacedMask(Mask((3, 3), fill=True), -1.5, -1.5),
    Polygon.regular(1, 1, 3, 7, 0.2),
]


@pytest.mark.parametrize("a", EXTREME, ids=repr)
def test_extreme_magnitudes_give_an_answer_or_a_clear_value_error(a):
    deltas = [(0, 0), (1e308, 1e308), (-1.7e308, 1.7e308), (1e-320, 0), (3, -2)]
    for b in EXTREME:
        if not any(isinstance(s, (Polygon, Segment)) for s in (a, b)):
            continue
        calls = [lambda b=b: overlaps(a, b)]
        calls += [lambda d=d, b=b: sweep(a, d, b, (-d[0], d[1])) for d in deltas]
        calls += [lambda d=d, b=b: sweep(a, d, b) for d in deltas]
        for call in calls:
            try:
                result = call()
            except ValueError as error:
                assert "edge beyond the floats" in str(error) or "2**450" in str(error)
                continue
            if hasattr(result, "normal"):
                assert all(math.isfinite(v) for v in (*result.normal, *result.point))
    for d in deltas:
        if isinstance(a, (Polygon, Segment)):
            raycast((0, 0), d, a)
