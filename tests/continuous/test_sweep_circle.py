"""Circle sweeps: against circles (exact roots) and rectangles (exact overlap checks)."""

import math
from fractions import Fraction

import pytest
from hypothesis import assume, example, given
from hypothesis import strategies as st

from collide2d import Circle, Rect, overlaps, sweep
from tests import reference

coord = st.integers(-60, 60)
radius = st.integers(0, 25)
size = st.integers(0, 30)
vec = st.tuples(st.integers(-120, 120), st.integers(-120, 120))


def test_circle_circle_catalogue():
    assert sweep(Circle(0, 0, 1), (4, 0), Circle(6, 0, 1), (-4, 0)).fraction == 0.5
    assert sweep(Circle(0, 0, 1), (4, 0), Circle(2, 0, 1)).fraction == 0.0  # touching, moving in
    assert sweep(Circle(0, 0, 1), (-4, 0), Circle(2, 0, 1)) is None  # touching, moving away
    assert sweep(Circle(0, 0, 1), (0, 4), Circle(2, 0, 1)) is None  # touching, sliding past
    assert sweep(Circle(0, 2, 1), (10, 0), Circle(5, 0, 1)) is None  # tangent graze
    assert sweep(Circle(0, 0, 1), (3, 0), Circle(5, 0, 1)) is None  # contact at exactly 1
    assert sweep(Circle(0, 0, 0), (10, 0), Circle(5, 0, 0)) is None  # points never overlap
    assert sweep(Circle(0, 0, 1), (0, 0), Circle(5, 0, 1)) is None  # zero motion
    assert sweep(Circle(0, 0, 1), (5, 5), Circle(9, 0, 1), (5, 5)) is None  # same velocity
    assert sweep(Circle(0, 0, 1), (10**6, 0), Circle(5000, 0, 1)).fraction == 4998 / 10**6
    hit = sweep(Circle(0, 0, 1), (10, 0), Circle(5, 0, 1))
    assert hit.normal == (-1, 0) and hit.point == (4, 0) and not hit.started_overlapping


def test_circles_started_overlapping():
    hit = sweep(Circle(0, 0, 2), (1, 0), Circle(3, 0, 2))
    assert hit.started_overlapping and hit.fraction == 0 and hit.normal == (-1, 0)
    assert hit.point == (1.5, 0)
    same = sweep(Circle(1, 1, 1), (0, 0), Circle(1, 1, 1))
    assert same.started_overlapping and same.normal == (1, 0)  # documented tie-break


@given(st.tuples(coord, coord, radius), vec, st.tuples(coord, coord, radius), vec)
@example((0, 0, 1), (4, 0), (6, 0, 1), (-4, 0))
def test_circle_circle_matches_the_exact_root(a, a_delta, b, b_delta):
    hit = sweep(Circle(*a), a_delta, Circle(*b), b_delta)
    Q = Fraction
    p = (Q(a[0] - b[0]), Q(a[1] - b[1]))
    d = (Q(a_delta[0] - b_delta[0]), Q(a_delta[1] - b_delta[1]))
    r = Q(a[2] + b[2])
    started = p[0] ** 2 + p[1] ** 2 < r * r
    if started:
        assert hit is not None and hit.started_overlapping and hit.fraction == 0
        return
    root = reference.disc_entry(p, d, r)
    expected = root is not None and 0 <= root < 1 and p[0] * d[0] + p[1] * d[1] < 0
    assert (hit is not None) == expected, (hit, root)
    if hit is not None:
        assert not hit.started_overlapping
        assert math.isclose(hit.fraction, float(root), rel_tol=1e-12, abs_tol=1e-300)
        assert math.isclose(math.hypot(*hit.normal), 1.0, rel_tol=1e-12)


@given(
    st.tuples(st.integers(-(2**20), 2**20), st.integers(-(2**20), 2**20), st.integers(0, 2**20)),
    st.tuples(st.integers(-(2**20), 2**20), st.integers(-(2**20), 2**20)),
    st.tuples(st.integers(-(2**20), 2**20), st.integers(-(2**20), 2**20), st.integers(0, 2**20)),
)
def test_large_circle_sweeps_match_the_exact_root(a, delta, b):
    Q = Fraction
    p = (Q(a[0] - b[0]), Q(a[1] - b[1]))
    aim = (b[0] - a[0] + delta[0] % 7, b[1] - a[1] + delta[1] % 5)
    d = (Q(aim[0]), Q(aim[1]))
    r = Q(a[2] + b[2])
    hit = sweep(Circle(*a), aim, Circle(*b))
    if p[0] ** 2 + p[1] ** 2 < r * r:
        assert hit.started_overlapping
        return
    root = reference.disc_entry(p, d, r)
    a_, b_ = d[0] ** 2 + d[1] ** 2, p[0] * d[0] + p[1] * d[1]
    disc = b_ * b_ - a_ * (p[0] ** 2 + p[1] ** 2 - r * r)
    assume(root is None or abs(disc) > Fraction(1, 10**9) * b_ * b_)
    expected = root is not None and 0 <= root < 1 and b_ < 0
    assert (hit is not None) == expected
    if hit is not None:
        assert math.isclose(hit.fraction, float(root), rel_tol=1e-12, abs_tol=1e-300)


def _exact_overlap_at(circle, delta, rect, t):
    cx = Fraction(circle[0]) + Fraction(delta[0]) * t
    cy = Fraction(circle[1]) + Fraction(delta[1]) * t
    return reference.circle_rect_overlap(cx, cy, Fraction(circle[2]), reference.rect_box(*rect))


@given(st.tuples(coord, coord, radius), vec, st.tuples(coord, coord, size, size))
@example((0, 0, 5), (20, 20), (10, 10, 10, 10))  # at a corner
@example((0, 0, 5), (20, 0), (5, -20, 10, 15))  # rolls along the corner
def test_circle_rect_first_contact_is_exact_up_to_rounding(circle, delta, rect):
    hit = sweep(Circle(*circle), delta, Rect(*rect))
    swapped = sweep(Rect(*rect), (-delta[0], -delta[1]), Circle(*circle))
    assert (hit is None) == (swapped is None)
    started = overlaps(Circle(*circle), Rect(*rect))
    samples = [Fraction(k, 64) for k in range(64)]
    if hit is None:
        assert not any(_exact_overlap_at(circle, delta, rect, t) for t in samples)
        return
    assert swapped.fraction == hit.fraction
    assert swapped.normal == (-hit.normal[0] + 0.0, -hit.normal[1] + 0.0)
    assert hit.started_overlapping == started
    if started:
        assert hit.fraction == 0
        return
    f = Fraction(hit.fraction)
    eps = Fraction(1, 10**9)
    assert not any(_exact_overlap_at(circle, delta, rect, t) for t in samples if t < f - eps)
    assert not _exact_overlap_at(circle, delta, rect, max(f - eps, Fraction(0)))
    # Just after the fraction they overlap, unless the contact is a near-tangent graze.
    later = [f + eps * k for k in (1, 1000, 10**6)]
    assert any(_exact_overlap_at(circle, delta, rect, t) for t in later) or hit.normal not in (
        (1, 0),
        (-1, 0),
        (0, 1),
        (0, -1),
    )


def test_circle_rect_catalogue():
    box = Rect(10, 0, 10, 10)
    hit = sweep(Circle(0, 5, 2), (20, 0), box)
    assert hit.fraction == 0.4 and hit.normal == (-1, 0) and hit.point == (10, 5)
    corner = sweep(Circle(0, -10, 2**0.5), (20, 20), box)
    assert corner.normal == pytest.approx((-(0.5**0.5), -(0.5**0.5)))
    assert corner.point == (10, 0)
    assert sweep(Circle(0, -2, 2), (40, 0), box) is None  # rolls along the top
    assert sweep(Circle(8, 5, 2), (5, 0), box).fraction == 0  # touching, moving in
    assert sweep(Circle(8, 5, 2), (-5, 0), box) is None  # touching, moving away
    assert sweep(Circle(15, 5, 0), (1, 1), box).started_overlapping  # a point inside
    assert sweep(Circle(10, 5, 0), (0, 3), box) is None  # a point sliding along an edge


def test_circle_inside_rect_started_normal_points_out_of_the_nearest_side():
    hit = sweep(Circle(12, 5, 1), (0, 0), Rect(10, 0, 10, 10))
    assert hit.started_overlapping and hit.normal == (-1, 0) and hit.point == (10, 5)
    outside = sweep(Circle(21, 11, 2), (0, 0), Rect(10, 0, 10, 10))
    assert outside.normal == pytest.approx((0.5**0.5, 0.5**0.5)) and outside.point == (20, 10)


def test_a_circle_smaller_than_the_spacing_of_the_edges_still_starts_overlapped():
    """Found by hypothesis: a radius of 3e-200 vanished from the widened boxes, so a
    circle centred on the rect's left edge (which ``overlaps`` says it overlaps) was
    no hit at all, moving or not."""
    from collide2d import Circle, Rect, overlaps, sweep

    circle, box = Circle(-3.0, 0.0, 2.921210885828007e-200), Rect(-3, -2, 7, 5)
    assert overlaps(circle, box)
    for delta in ((0.0, 0.0), (0.0, 1.0), (-1.0, 0.0), (1.0, 0.0)):
        hit = sweep(circle, delta, box)
        assert hit.started_overlapping and hit.fraction == 0.0 and hit.normal == (-1.0, 0.0)
    # Found at 5,000 examples: moving into the box, the lost radius made it look like
    # an entry at fraction 0 instead of a start overlapped.
    right = Circle(4.0, 0.0, 7.805543235459731e-255)
    assert sweep(right, (-1.0, 0.0), box).started_overlapping


def _scaled(values, k):
    return [math.ldexp(v, k) for v in values]


@given(st.tuples(coord, coord, radius), vec, st.tuples(coord, coord, radius), vec)
@example((0, 0, 1), (4, 0), (6, 0, 1), (-4, 0))
def test_circle_sweeps_at_1e200_are_the_small_ones_scaled(a, a_delta, b, b_delta):
    """Squares of 1e200 overflow: the sweep runs on the inputs scaled by a power of
    two, which changes neither the fraction nor the normal (no OverflowError)."""
    k = 700
    for other, big_other in [
        (Circle(*b), Circle(*_scaled(b, k))),
        (Rect(b[0], b[1], b[2], b[2] + 3), Rect(*_scaled((b[0], b[1], b[2], b[2] + 3), k))),
    ]:
        small = sweep(Circle(*a), a_delta, other, b_delta)
        big = sweep(Circle(*_scaled(a, k)), _scaled(a_delta, k), big_other, _scaled(b_delta, k))
        assert (small is None) == (big is None)
        if small is not None:
            assert big.fraction == small.fraction and big.normal == small.normal
            assert big.point == tuple(_scaled(small.point, k))
            assert big.started_overlapping == small.started_overlapping


def test_a_unit_circle_at_1e200_does_not_pass_through() -> None:
    hit = sweep(Circle(1e200, 0, 1), (1e200, 0), Circle(1.5e200, 0, 1))
    assert hit is not None and hit.fraction == 0.5 and hit.normal == (-1.0, 0.0)
    wall = sweep(Circle(1e200, 0.5, 1), (1e200, 0), Rect(1.5e200, 0, 1, 1))
    assert wall is not None and wall.fraction <= 0.5 and wall.normal == (-1.0, 0.0)
