"""Mask sweeps against the pixel-pair reference in exact rational arithmetic."""

from fractions import Fraction as F

import numpy as np
import pytest
from hypothesis import assume, example, given
from hypothesis import strategies as st

from collide2d import Rect, Vec2
from collide2d.mask import Mask
from tests import reference
from tests.mask.test_mask import bool_grids

quarter = st.integers(-40, 40).map(lambda k: k / 4)
deltas = st.tuples(st.integers(-30, 30).map(float), st.integers(-30, 30).map(float))
small_deltas = st.tuples(quarter, quarter)


def reference_sweep(a_bits, b_bits, offset, delta, other_delta):
    """Earliest pixel pair (ties: the smallest contact rank, started < face < corner, then
    the smallest (ay, ax, by, bx)) by exact rational sweeps."""
    d = (F(delta[0]) - F(other_delta[0]), F(delta[1]) - F(other_delta[1]))
    ox, oy = F(offset[0]), F(offset[1])
    best = None
    for y, x in zip(*np.nonzero(a_bits), strict=True):
        for v, u in zip(*np.nonzero(b_bits), strict=True):
            a_box = (F(int(x)), F(int(y)), F(int(x)) + 1, F(int(y)) + 1)
            b_box = (u + ox, v + oy, u + ox + 1, v + oy + 1)
            hit = reference.sweep_boxes(a_box, d, b_box)
            if hit is None:
                continue
            key = (hit.fraction, hit.rank, int(y), int(x), int(v), int(u))
            if best is None or key < best[0]:
                best = (key, hit)
    return best


@given(
    bool_grids(7),
    bool_grids(7),
    st.tuples(quarter, quarter),
    st.one_of(deltas, small_deltas),
    small_deltas,
)
@example(
    np.ones((2, 2), bool), np.ones((2, 2), bool), (2.0, 0.0), (5.0, 0.0), (0.0, 0.0)
)  # touching, moving in
@example(
    np.ones((2, 2), bool), np.ones((2, 2), bool), (2.0, 0.0), (0.0, 5.0), (0.0, 0.0)
)  # sliding
@example(
    np.ones((1, 1), bool), np.ones((1, 1), bool), (2.0, 2.0), (2.0, 2.0), (0.0, 0.0)
)  # corner to corner
@example(
    np.ones((1, 1), bool), np.ones((1, 1), bool), (3.0, 0.0), (2.0, 0.0), (0.0, 0.0)
)  # contact at 1
def test_mask_sweep_equals_the_exact_pixel_reference(a_bits, b_bits, offset, delta, other_delta):
    a, b = Mask.from_array(a_bits), Mask.from_array(b_bits)
    hit = a.sweep(b, offset, delta, other_delta)
    if a.overlaps(b, offset):
        assert hit is not None and hit.started_overlapping and hit.fraction == 0
        assert hit.pixel == a.overlap(b, offset)
        return
    best = reference_sweep(a_bits, b_bits, offset, delta, other_delta)
    assert (hit is None) == (best is None), (hit, best)
    if hit is None:
        return
    (fraction, _, ay, ax, bv, bu), exact = best
    assert hit.fraction == float(fraction) and not hit.started_overlapping
    assert hit.pixel == (ax, ay) and hit.other_pixel == (bu, bv)
    expected = Vec2(exact.sign, 0.0) if exact.axis == "x" else Vec2(0.0, exact.sign)
    assert hit.normal == expected


@given(
    bool_grids(12),
    bool_grids(12),
    st.tuples(quarter, quarter),
    deltas,
    st.integers(0, 5),
    st.integers(0, 5),
)
def test_coarse_sweeps_are_never_later(a_bits, b_bits, offset, delta, level_a, level_b):
    a, b = Mask.from_array(a_bits), Mask.from_array(b_bits)
    exact = a.sweep(b, offset, delta)
    coarse = a.sweep(b, offset, delta, max_level=level_a, other_max_level=level_b)
    if exact is not None:
        assert coarse is not None and coarse.fraction <= exact.fraction


def test_sweep_of_large_masks_finds_the_face_and_does_not_tunnel():
    wall = Mask((4, 300), fill=True)
    bullet = Mask((2, 2), fill=True)
    hit = bullet.sweep(wall, (1000.25, -150), (5000, 0))
    assert hit is not None and hit.fraction == (1000.25 - 2) / 5000 and hit.normal == (-1, 0)
    assert hit.other_pixel[0] == 0 and hit.pixel[0] == 1
    assert bullet.sweep(wall, (1000.25, -150), (997, 0)) is None  # stops just short


@given(
    bool_grids(8),
    st.builds(
        Rect,
        quarter,
        quarter,
        st.integers(0, 12).map(lambda k: k / 4),
        st.integers(0, 12).map(lambda k: k / 4),
    ),
    deltas,
)
def test_rect_sweep_equals_the_exact_pixel_reference(bits, rect, delta):
    """Rects with area (points and segments: tests/test_shapes.py)."""
    assume(rect.w > 0 and rect.h > 0)
    mask = Mask.from_array(bits)
    hit = mask.sweep_rect(rect, delta)
    d = (F(delta[0]), F(delta[1]))
    box = (F(rect.x), F(rect.y), F(rect.x) + F(rect.w), F(rect.y) + F(rect.h))
    best = None
    for y, x in zip(*np.nonzero(bits), strict=True):
        pixel = (F(int(x)), F(int(y)), F(int(x)) + 1, F(int(y)) + 1)
        exact = reference.sweep_boxes(box, d, pixel)
        if exact is not None:
            key = (exact.fraction, exact.rank, int(y), int(x))
            if best is None or key < best[0]:
                best = (key, exact)
    assert (hit is None) == (best is None)
    if hit is not None:
        (fraction, _, y, x), exact = best
        assert hit.fraction == float(fraction) and hit.other_pixel == (x, y)
        assert hit.started_overlapping == exact.started


def test_bad_sweep_arguments():
    import pytest

    a = Mask((2, 2), fill=True)
    with pytest.raises(ValueError, match="delta"):
        a.sweep(a, (5, 0), (float("inf"), 0))
    with pytest.raises(TypeError, match="other_delta"):
        a.sweep(a, (5, 0), (1, 0), "x")
    with pytest.raises(TypeError, match="rect"):
        a.sweep_rect((0, 0, 1), (1, 0))
    assert Mask((0, 3)).sweep(a, (0, 0), (5, 0)) is None


@given(
    bool_grids(8),
    st.builds(
        __import__("collide2d").Circle, quarter, quarter, st.integers(0, 12).map(lambda k: k / 4)
    ),
    deltas,
)
def test_circle_sweep_equals_the_earliest_scalar_pixel_sweep(bits, circle, delta):
    from collide2d import sweep

    mask = Mask.from_array(bits)
    hit = mask.sweep_circle(circle, delta)
    if circle.r == 0:  # a point: the region rule of tests/test_shapes.py, as a zero rect
        assert hit == mask.sweep_rect(Rect(circle.x, circle.y, 0, 0), delta)
        return
    best = None
    for y, x in zip(*np.nonzero(bits), strict=True):
        pixel_hit = sweep(circle, delta, Rect(int(x), int(y), 1, 1))
        if pixel_hit is not None:
            rank = 0 if pixel_hit.started_overlapping else 1
            key = (pixel_hit.fraction, rank, int(y), int(x))
            if best is None or key < best[0]:
                best = (key, pixel_hit)
    assert (hit is None) == (best is None), (hit, best)
    if hit is not None:
        (fraction, _, y, x), expected = best
        assert hit.fraction == pytest.approx(fraction, rel=1e-9, abs=1e-12)
        if hit.fraction != fraction:  # a near-tie between two pixels' float roots
            return
        assert hit.other_pixel == (x, y) and hit.normal == pytest.approx(expected.normal)
        assert hit.started_overlapping == expected.started_overlapping


@given(
    bool_grids(6),
    st.tuples(quarter, quarter),
    deltas,
    st.tuples(
        quarter,
        quarter,
        st.integers(1, 12).map(lambda k: k / 4),
        st.integers(1, 12).map(lambda k: k / 4),
    ),
    deltas,
)
def test_module_level_sweep_takes_placed_masks_both_ways(
    bits, place, other_delta, rect_row, rect_delta
):
    from collide2d import PlacedMask, sweep

    mask = Mask.from_array(bits)
    placed = PlacedMask(mask, *place)
    rect = Rect(*rect_row)
    into = sweep(rect, rect_delta, placed, other_delta)
    local = mask.sweep_rect(rect.moved((-place[0], -place[1])), rect_delta, other_delta)
    assert (into is None) == (local is None)
    back = sweep(placed, other_delta, rect, rect_delta)
    assert (back is None) == (into is None)
    if into is not None:
        assert into.fraction == local.fraction == back.fraction
        assert into.point == local.point + place and back.point == into.point
        assert back.normal == (0.0 - into.normal.x, 0.0 - into.normal.y)
        assert back.pixel == into.other_pixel
    other = PlacedMask(Mask.from_array(bits), place[0] + 3.5, place[1] - 1)
    both = sweep(placed, other_delta, other, rect_delta)
    direct = mask.sweep(other.mask, (3.5, -1), other_delta, rect_delta)
    assert (both is None) == (direct is None)
    if both is not None:
        assert both.fraction == direct.fraction and both.point == direct.point + place


def test_placed_mask_checks_its_arguments():
    from collide2d import PlacedMask

    with pytest.raises(TypeError, match="mask"):
        PlacedMask("m", 0, 0)
    with pytest.raises(ValueError, match="^x "):
        PlacedMask(Mask((1, 1)), float("nan"), 0)
