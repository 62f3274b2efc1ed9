import math
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from collide2d import Circle, Rect, overlaps
from tests import catalogue, reference

coords = st.integers(-50, 50)
sizes = st.integers(0, 30)
rects = st.builds(Rect, coords, coords, sizes, sizes)
circles = st.builds(Circle, coords, coords, sizes)


def test_rects_must_overlap_on_both_axes_not_either():
    # Regression: one classic write-up joins the axis tests with "or".
    a = Rect(0, 0, 10, 10)
    assert not overlaps(a, Rect(5, 20, 10, 10))  # x ranges overlap, y ranges do not
    assert not overlaps(a, Rect(20, 5, 10, 10))  # y ranges overlap, x ranges do not
    assert overlaps(a, Rect(5, 5, 10, 10))


def test_touching_edges_and_corners_do_not_overlap():
    a = Rect(0, 0, 10, 10)
    for b in (Rect(10, 0, 5, 5), Rect(-5, 0, 5, 5), Rect(0, 10, 5, 5), Rect(10, 10, 5, 5)):
        assert not overlaps(a, b) and not overlaps(b, a)
    assert not overlaps(Circle(0, 0, 1), Circle(2, 0, 1))
    assert not overlaps(Circle(12, 5, 2), a)
    assert not overlaps(Circle(13, 13, 3 * 2**0.5 - 1e-12), a)


def test_points_overlap_only_shapes_they_lie_strictly_inside():
    a = Rect(0, 0, 10, 10)
    assert overlaps(Rect(5, 5, 0, 0), a)
    assert not overlaps(Rect(0, 5, 0, 0), a)
    assert not overlaps(Rect(5, 5, 0, 0), Rect(5, 5, 0, 0))
    assert overlaps(Circle(5, 5, 0), a) and not overlaps(Circle(10, 5, 0), a)
    assert not overlaps(Circle(0, 0, 0), Circle(0, 0, 0))
    assert overlaps(Circle(0, 0, 0), Circle(0.5, 0, 1))


def _exact(shape):
    if isinstance(shape, Rect):
        return ("rect", reference.rect_box(*map(int, shape)))
    return ("circle", tuple(Fraction(int(v)) for v in shape))


def _reference_overlap(a, b):
    (ka, ea), (kb, eb) = _exact(a), _exact(b)
    if ka == kb == "rect":
        return reference.boxes_overlap(ea, eb)
    if ka == kb == "circle":
        return (ea[0] - eb[0]) ** 2 + (ea[1] - eb[1]) ** 2 < (ea[2] + eb[2]) ** 2
    if ka == "circle":
        return reference.circle_rect_overlap(*ea, eb)
    return reference.circle_rect_overlap(*eb, ea)


@given(st.one_of(rects, circles), st.one_of(rects, circles))
def test_overlaps_equals_the_exact_reference_and_is_symmetric(a, b):
    expected = _reference_overlap(a, b)
    assert overlaps(a, b) == expected
    assert overlaps(b, a) == expected


def test_overlaps_rejects_other_types_naming_the_argument():
    import pytest

    with pytest.raises(TypeError, match="^b must be"):
        overlaps(Rect(0, 0, 1, 1), (0, 0, 1))
    with pytest.raises(TypeError, match="^a must be"):
        overlaps("rect", Rect(0, 0, 1, 1))


@pytest.mark.parametrize("case", catalogue.STATIC, ids=lambda c: c.name)
def test_the_catalogue_of_awkward_pairs(case):
    assert overlaps(case.a, case.b) is case.overlaps
    assert overlaps(case.b, case.a) is case.overlaps


@pytest.mark.parametrize("bad", catalogue.BAD_NUMBERS + catalogue.BAD_TYPES)
def test_shapes_refuse_bad_numbers_naming_the_field(bad):
    error = ValueError if isinstance(bad, float) else TypeError
    for build, field in ((lambda v: Rect(v, 0, 1, 1), "x"), (lambda v: Rect(0, 0, 1, v), "h"),
                         (lambda v: Circle(0, v, 1), "y"), (lambda v: Circle(0, 0, v), "r")):  # fmt: skip
        with pytest.raises(error, match=f"^{field} must be"):
            build(bad)


@pytest.mark.parametrize("size", catalogue.NEGATIVE_SIZES)
def test_shapes_refuse_negative_sizes(size):
    with pytest.raises(ValueError, match="w must be >= 0"):
        Rect(0, 0, size, 1)
    with pytest.raises(ValueError, match="r must be >= 0"):
        Circle(0, 0, size)


huge = st.sampled_from([1e154, 1e200, 1e300, 1.7976931348623157e308, 3.0, 0.0])
signed_huge = st.tuples(huge, st.sampled_from([1.0, -1.0, 0.5])).map(lambda p: p[0] * p[1])


@given(
    a=st.builds(Circle, signed_huge, signed_huge, huge),
    b=st.one_of(
        st.builds(Circle, signed_huge, signed_huge, huge),
        st.builds(Rect, signed_huge, signed_huge, huge, huge),
    ),
)
def test_circles_near_the_largest_floats_are_decided_exactly(a, b):
    """Squares of 1e200 overflow to inf: those tests are made in rationals."""
    cx, cy, r = (Fraction(v) for v in a)
    if isinstance(b, Circle):
        bx, by, br = (Fraction(v) for v in b)
        expected = (cx - bx) ** 2 + (cy - by) ** 2 < (r + br) ** 2
    else:
        left, top = Fraction(b.x), Fraction(b.y)
        right = Fraction(b.right) if math.isfinite(b.right) else left + Fraction(b.w)
        bottom = Fraction(b.bottom) if math.isfinite(b.bottom) else top + Fraction(b.h)
        dx = max(left - cx, Fraction(0), cx - right)
        dy = max(top - cy, Fraction(0), cy - bottom)
        expected = (r > 0 and dx * dx + dy * dy < r * r) or (
            r == 0 and left < cx < right and top < cy < bottom
        )
    assert overlaps(a, b) == expected == overlaps(b, a)
