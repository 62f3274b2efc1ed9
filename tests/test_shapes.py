"""The shape-generic front: overlaps, sweep and raycast of Rect, Circle and PlacedMask,
each with each, both orders, against the catalogue and pixel-by-pixel references."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from collide2d import Circle, Mask, PlacedMask, Rect, Vec2, overlaps, raycast, sweep
from tests import catalogue, reference
from tests.mask.test_mask import bool_grids


def solid(rect: Rect) -> PlacedMask:
    """A mask of solid pixels covering exactly the integer ``rect``."""
    return PlacedMask(Mask((int(rect.w), int(rect.h)), fill=True), rect.x, rect.y)


def integer_rect(shape: object) -> bool:
    return (
        type(shape) is Rect
        and all(float(v).is_integer() and abs(v) < 2**20 for v in shape)
        and shape.w > 0
        and shape.h > 0
    )


@pytest.mark.parametrize("case", catalogue.STATIC, ids=lambda c: c.name)
def test_overlaps_matches_the_catalogue_in_both_orders(case):
    assert overlaps(case.a, case.b) is case.overlaps
    assert overlaps(case.b, case.a) is case.overlaps
    if integer_rect(case.b):  # a solid mask overlaps what its rectangle overlaps
        assert overlaps(case.a, solid(case.b)) is case.overlaps
        assert overlaps(solid(case.b), case.a) is case.overlaps


@pytest.mark.parametrize("case", catalogue.MOVING, ids=lambda c: c.name)
def test_sweep_matches_the_catalogue(case):
    hit = sweep(case.a, case.a_delta, case.b, case.b_delta)
    if case.fraction is None:
        assert hit is None
        return
    assert hit is not None
    assert hit.fraction == pytest.approx(case.fraction, rel=1e-12, abs=0)
    assert hit.normal == case.normal and hit.started_overlapping is case.started


@pytest.mark.parametrize("case", catalogue.MOVING, ids=lambda c: c.name)
def test_swapping_the_shapes_reverses_the_normal(case):
    hit = sweep(case.a, case.a_delta, case.b, case.b_delta)
    back = sweep(case.b, case.b_delta, case.a, case.a_delta)
    assert (hit is None) == (back is None)
    if hit is not None:
        assert back.fraction == pytest.approx(hit.fraction, rel=1e-12, abs=1e-300)
        assert back.started_overlapping == hit.started_overlapping
        if not hit.started_overlapping:
            assert back.normal == pytest.approx(-hit.normal)


@pytest.mark.parametrize("case", catalogue.MOVING, ids=lambda c: c.name)
def test_a_solid_mask_sweeps_like_its_rectangle(case):
    """Pixels meeting at their corners never beat a face contact at the same moment,
    so a solid mask gives its rectangle's answer, normal included."""
    expected = sweep(case.a, case.a_delta, case.b, case.b_delta)
    sides = []
    if integer_rect(case.b):
        sides.append((case.a, solid(case.b)))
    if integer_rect(case.a):
        sides.append((solid(case.a), case.b))
    if integer_rect(case.a) and integer_rect(case.b):
        sides.append((solid(case.a), solid(case.b)))
    for a, b in sides:
        hit = sweep(a, case.a_delta, b, case.b_delta)
        assert (hit is None) == (expected is None), (a, b)
        if hit is not None:
            assert hit.fraction == expected.fraction
            assert hit.started_overlapping == expected.started_overlapping
            if not hit.started_overlapping:
                assert hit.normal == expected.normal


def test_mask_hits_name_their_pixels_and_world_points():
    wall = PlacedMask(Mask((2, 10), fill=True), 100, 50)
    hit = sweep(Rect(0, 55, 4, 4), (200, 0), wall)
    assert hit.fraction == pytest.approx(96 / 200) and hit.normal == Vec2(-1, 0)
    assert hit.pixel is None and hit.other_pixel == (0, 5)
    assert hit.point.x == 100 and 55 <= hit.point.y <= 59
    back = sweep(wall, (-200, 0), Rect(0, 55, 4, 4))
    assert back.fraction == hit.fraction and back.normal == Vec2(1, 0)
    assert back.pixel == (0, 5) and back.other_pixel is None
    assert back.point.x == 4 + 200 * back.fraction - 200 * back.fraction  # a's face, world


def pixel_rects(placed: PlacedMask) -> list[Rect]:
    ys, xs = np.nonzero(placed.mask.to_array())
    return [Rect(placed.x + int(x), placed.y + int(y), 1, 1) for y, x in zip(ys, xs, strict=True)]


quarter = st.integers(-24, 48).map(lambda k: k / 4)
shapes = st.one_of(
    st.builds(
        Rect,
        quarter,
        quarter,
        st.integers(0, 16).map(lambda k: k / 4),
        st.integers(0, 16).map(lambda k: k / 4),
    ),
    st.builds(Circle, quarter, quarter, st.integers(0, 12).map(lambda k: k / 4)),
)


@given(bool_grids(6), quarter, quarter, shapes)
@example(np.ones((2, 2), bool), 0.0, 0.0, Rect(2, 0, 1, 1))  # touching
@example(np.ones((2, 2), bool), 0.0, 0.0, Circle(1, 1, 0))  # a point on the inner corner
@example(np.ones((2, 2), bool), 0.0, 0.0, Rect(0.5, 1, 0, 0))  # a point on an inner seam
@example(np.ones((2, 2), bool), 0.0, 0.0, Rect(0, 1, 0, 0))  # a point on the outline
@example(np.ones((2, 2), bool), 0.0, 0.0, Rect(-1, 1, 3, 0))  # a segment along a seam
@example(np.ones((1, 1), bool), 0.0, 0.25, Rect(0.25, 0.0, 0.0, 0.5))  # into a placed mask
def test_overlaps_of_a_placed_mask_equals_its_region(bits, x, y, shape):
    """Shapes with area meet the region where they meet a solid pixel's open square;
    points and segments where one of their points lies inside the region."""
    placed = PlacedMask(Mask.from_array(bits), x, y)
    if isinstance(shape, Circle) and shape.r == 0:
        expected = reference.in_region(placed, shape.x, shape.y)
    elif isinstance(shape, Rect) and (shape.w == 0 or shape.h == 0):
        expected = reference.degenerate_overlaps(placed, shape)
    else:
        expected = any(overlaps(shape, pixel) for pixel in pixel_rects(placed))
    assert overlaps(placed, shape) is expected
    assert overlaps(shape, placed) is expected


@given(bool_grids(5), bool_grids(5), quarter, quarter)
def test_overlaps_of_two_placed_masks_equals_their_pixels(a_bits, b_bits, x, y):
    a = PlacedMask(Mask.from_array(a_bits), 0.0, 0.0)
    b = PlacedMask(Mask.from_array(b_bits), x, y)
    expected = any(overlaps(p, q) for p in pixel_rects(a) for q in pixel_rects(b))
    assert overlaps(a, b) is expected and overlaps(b, a) is expected


areas = st.one_of(
    st.builds(
        Rect,
        quarter,
        quarter,
        st.integers(1, 16).map(lambda k: k / 4),
        st.integers(1, 16).map(lambda k: k / 4),
    ),
    st.builds(Circle, quarter, quarter, st.integers(1, 12).map(lambda k: k / 4)),
)


@given(bool_grids(6), quarter, quarter, areas, st.tuples(quarter, quarter))
def test_sweep_against_a_placed_mask_is_the_earliest_pixel(bits, x, y, shape, delta):
    """Shapes with area: the first contact with any pixel square."""
    placed = PlacedMask(Mask.from_array(bits), x, y)
    hits = [h for h in (sweep(shape, delta, p) for p in pixel_rects(placed)) if h is not None]
    hit = sweep(shape, delta, placed)
    assert (hit is None) == (not hits)
    if hit is not None:
        earliest = min(h.fraction for h in hits)
        assert hit.fraction == pytest.approx(earliest, rel=1e-9, abs=1e-12)
        assert hit.started_overlapping == any(h.started_overlapping for h in hits)


points_and_segments = st.builds(
    Rect,
    quarter,
    quarter,
    st.sampled_from([0.0, 0.0, 0.5, 1.0, 2.5]),
    st.sampled_from([0.0]),
).flatmap(lambda r: st.sampled_from([r, Rect(r.x, r.y, r.h, r.w)]))


@given(bool_grids(6), points_and_segments, st.tuples(quarter, quarter))
@example(np.ones((4, 4), bool), Rect(-1, 2, 0, 0), (6.0, 0.0))  # along an inner seam
@example(np.ones((4, 4), bool), Rect(2, -1, 0, 3), (0.0, 6.0))  # a segment down a seam
def test_points_and_segments_meet_the_region_first_where_the_reference_says(bits, shape, delta):
    placed = PlacedMask(Mask.from_array(bits), 0.0, 0.0)
    expected = reference.degenerate_sweep(placed, shape, delta)
    hit = sweep(shape, delta, placed)
    assert (hit is None) == (expected is None), (hit, expected)
    if hit is not None:
        fraction, started = expected
        assert hit.fraction == float(fraction) and hit.started_overlapping == started


def exact_exit(placed: PlacedMask, origin, delta, entry: float) -> float:
    """Where the line leaves the solid pixels after ``entry``, by sampling between the
    pixel-boundary crossings (each interval lies in one pixel, or on a seam)."""
    ox, oy = origin
    dx, dy = delta
    bits = placed.mask.to_array()
    h, w = bits.shape
    times = {entry}
    for k in range(-1, w + 2):
        if dx:
            times.add((placed.x + k - ox) / dx)
    for k in range(-1, h + 2):
        if dy:
            times.add((placed.y + k - oy) / dy)
    ordered = sorted(t for t in times if t >= entry)

    def inside(t: float) -> bool:  # in the interior of the union of solid squares
        px, py = ox + dx * t - placed.x, oy + dy * t - placed.y
        near = [
            (math.floor(px + e), math.floor(py + f)) for e in (-1e-9, 1e-9) for f in (-1e-9, 1e-9)
        ]
        return all(0 <= u < w and 0 <= v < h and bits[v, u] for u, v in near)

    for lo, hi in zip(ordered, [*ordered[1:], math.inf], strict=True):
        mid = lo + 1.0 if hi == math.inf else (lo + hi) / 2
        if not inside(mid):
            return lo
    return math.inf


@given(bool_grids(6), st.tuples(quarter, quarter), st.tuples(quarter, quarter))
@example(np.ones((2, 2), bool), (-1.0, -1.0), (4.0, 4.0))  # through the inner corner
@example(np.eye(2, dtype=bool), (-1.0, -1.0), (4.0, 4.0))  # diagonal pixels: corner exit
def test_raycast_against_a_placed_mask(bits, origin, delta):
    placed = PlacedMask(Mask.from_array(bits), 0.5, 0.0)
    hit = raycast(origin, delta, placed)
    as_point = sweep(Rect(origin[0], origin[1], 0, 0), delta, placed)
    assert (hit is None) == (as_point is None)
    if hit is None:
        return
    assert hit.fraction == as_point.fraction and hit.normal == as_point.normal
    assert hit.started_overlapping == as_point.started_overlapping
    assert hit.point == pytest.approx(Vec2(*origin) + Vec2(*delta) * hit.fraction)
    if delta != (0.0, 0.0):
        assert hit.exit_fraction == pytest.approx(exact_exit(placed, origin, delta, hit.fraction))
    else:
        assert hit.exit_fraction == math.inf


@pytest.mark.parametrize(
    "case",
    [c for c in catalogue.MOVING if type(c.a) is Rect and c.a.w == 0 and integer_rect(c.b)],
    ids=lambda c: c.name,
)
def test_raycast_of_the_catalogue_points_agrees_with_a_solid_mask(case):
    origin, delta = (case.a.x, case.a.y), case.a_delta
    expected = raycast(origin, delta, case.b)
    got = raycast(origin, delta, solid(case.b))
    assert (got is None) == (expected is None)
    if got is not None:
        assert got[:3] == expected[:3] and got.started_overlapping == expected.started_overlapping


SOLID = PlacedMask(Mask((4, 4), fill=True), 10, 0)


@pytest.mark.parametrize("shape", [Rect(0, 2, 0, 0), Circle(0, 2, 0), Rect(-1, 2, 1, 0)])
def test_points_and_segments_along_a_seam_do_not_tunnel(shape):
    """y = 2 is the seam between two solid rows: the region is solid there."""
    hit = sweep(shape, (30, 0), SOLID)
    assert hit is not None and hit.normal == Vec2(-1, 0) and not hit.started_overlapping
    assert hit.fraction == pytest.approx((10 - shape.x - getattr(shape, "w", 0)) / 30)
    assert hit.point == Vec2(10, 2) and hit.other_pixel == (0, 2)
    back = sweep(shape, (0, 0), SOLID, (-30, 0))  # the mask moves instead
    assert back.fraction == hit.fraction and back.normal == hit.normal
    ray = raycast((0, 2), (30, 0), SOLID)
    assert ray.fraction == pytest.approx(10 / 30) and ray.exit_fraction == pytest.approx(14 / 30)


def test_points_along_the_outline_or_a_one_sided_seam_graze():
    assert sweep(Rect(0, 0, 0, 0), (30, 0), SOLID) is None  # the top outline
    assert sweep(Rect(10, -5, 0, 0), (0, 30), SOLID) is None  # the left outline
    notch = Mask((4, 4), fill=True)
    notch.set_at((0, 1), False)  # a hole above the seam y = 2: one-sided at x = 0
    hit = sweep(Rect(0, 2, 0, 0), (30, 0), PlacedMask(notch, 10, 0))
    assert hit.fraction == pytest.approx(11 / 30)  # enters where both rows are solid
    ray = raycast((0, 2), (30, 0), PlacedMask(notch, 10, 0))
    assert ray.fraction == pytest.approx(11 / 30) and ray.exit_fraction == pytest.approx(14 / 30)


def test_a_point_starting_on_a_seam_inside_starts_overlapping():
    for point in ((12, 2), (12.5, 2), (12, 2.5)):
        assert overlaps(Rect(*point, 0, 0), SOLID)
        hit = sweep(Rect(*point, 0, 0), (1, 1), SOLID)
        assert hit.started_overlapping and hit.fraction == 0
        ray = raycast(point, (1, 1), SOLID)
        assert ray.started_overlapping and ray.exit_fraction == pytest.approx(
            2 if point == (12, 2) else 1.5
        )


def test_bad_shapes_are_refused_naming_the_argument():
    with pytest.raises(TypeError, match="b must be a Rect, a Circle or rect-like"):
        overlaps(PlacedMask(Mask((1, 1)), 0, 0), "wall")
    with pytest.raises(TypeError, match="a must be a Rect, a Circle or rect-like"):
        sweep((0, 0, 1), (1, 0), PlacedMask(Mask((1, 1)), 0, 0))
    with pytest.raises(TypeError, match="shape must be a Rect, a Circle or rect-like"):
        raycast((0, 0), (1, 0), None)
    for bad in catalogue.BAD_NUMBERS:
        with pytest.raises(ValueError, match="a_delta"):
            sweep(Rect(0, 0, 1, 1), (bad, 0), PlacedMask(Mask((1, 1)), 0, 0))
        with pytest.raises(ValueError, match="origin"):
            raycast((0, bad), (1, 0), PlacedMask(Mask((1, 1)), 0, 0))
