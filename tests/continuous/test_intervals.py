"""The compiled interval arithmetic (``_kernels/intervals.py``) equals its Python twin
(``continuous/_intervals.py``) and the scalar sweeps built on it, bit for bit."""

import math
from fractions import Fraction

import pytest
from hypothesis import assume, example, given
from hypothesis import strategies as st

from collide2d import Circle, Rect
from collide2d._kernels import intervals
from collide2d.continuous import _intervals
from collide2d.continuous.circle import sweep_circle_rect
from collide2d.continuous.rect import sweep_rect_rect
from collide2d.continuous.rect_exact import sizes_kept
from tests import catalogue

coord = st.one_of(
    st.integers(-50, 50).map(float),
    st.floats(-1e6, 1e6, allow_nan=False),
    st.sampled_from([0.0, -0.0, catalogue.BIG, catalogue.TINY, 1e-9]),
)
size = st.one_of(st.integers(0, 20).map(float), st.floats(0, 100, allow_nan=False))


def same(a: float, b: float) -> bool:
    return (a == b and math.copysign(1, a) == math.copysign(1, b)) or (a != a and b != b)


@given(coord, size, coord, coord, size)
@example(0.0, 0.0, 0.0, 0.0, 0.0)
@example(0.0, 10.0, 0.0, 10.0, 5.0)  # still and touching
def test_axis_interval_twins_agree(lo, extent, d, blo, bextent):
    expected = _intervals.axis_interval(lo, lo + extent, d, blo, blo + bextent)
    got = intervals.axis_interval(lo, lo + extent, d, blo, blo + bextent)
    assert same(got[0], expected[0]) and same(got[1], expected[1])


@given(coord, coord, size, size, coord, coord, coord, coord, size, size)
def test_box_sweep_twin_agrees_with_the_scalar_rect_sweep(ax, ay, aw, ah, dx, dy, bx, by, bw, bh):
    a, b = Rect(ax, ay, aw, ah), Rect(bx, by, bw, bh)
    # where x + w loses part of w the scalar sweep takes the exact route
    # (test_sweep_rect_far.py); the twin keeps the float edges
    assume(sizes_kept(*(v for r in (a, b) for v in (r.x, r.w, r.right, r.y, r.h, r.bottom))))
    enter, leave, axis, rank = intervals.box_sweep(
        a.left, a.top, a.right, a.bottom, dx, dy, b.left, b.top, b.right, b.bottom
    )
    fraction = intervals.first_fraction(enter, leave)
    hit = sweep_rect_rect(a, dx, dy, b)
    assert (hit is None) == (fraction == math.inf)
    if hit is not None:
        assert fraction == hit.fraction
        assert (rank == intervals.STARTED) == hit.started_overlapping
        if not hit.started_overlapping:
            assert hit.normal[axis] != 0  # the entry axis is the normal's


@pytest.mark.parametrize("case", catalogue.MOVING, ids=lambda c: c.name)
def test_box_sweep_ranks_the_catalogue(case):
    if type(case.a) is not Rect or type(case.b) is not Rect:
        return
    a, b = case.a, case.b
    dx, dy = case.a_delta[0] - case.b_delta[0], case.a_delta[1] - case.b_delta[1]
    enter, leave, _, rank = intervals.box_sweep(
        a.left, a.top, a.right, a.bottom, dx, dy, b.left, b.top, b.right, b.bottom
    )
    if case.fraction is None:
        assert intervals.first_fraction(enter, leave) == math.inf
    elif case.started:
        assert rank == intervals.STARTED
    else:
        assert rank == (intervals.CORNER if "corner" in case.name else intervals.FACE)


@given(coord, coord, coord, coord, st.floats(0, 50, allow_nan=False))
def test_circle_box_twin_agrees_with_the_scalar_circle_sweep(cx, cy, dx, dy, r):
    box = Rect(-3.0, -2.0, 7.0, 5.0)
    got = intervals.circle_box_fraction(cx, cy, r, dx, dy, box.left, box.top, box.right, box.bottom)
    hit = sweep_circle_rect(Circle(cx, cy, r), dx, dy, box)
    if hit is None:
        # the twin has no exact fallback: it may see a graze the exact code rejects
        assert got == math.inf or got == pytest.approx(1.0, abs=1e-6) or r == 0
    elif got == math.inf and hit.fraction == 0.0 and not hit.started_overlapping:
        # A touch at the start followed by a graze shorter than the twin's quadratic
        # resolves (found at 5,000 examples: a unit disc on a corner, moving 1e12 along
        # it, overlaps for 1.6e-24 of the frame); the twin sees no entry.
        pass
    elif got == math.inf and hit.started_overlapping and _radius_lost(box, r):
        # A radius below the spacing of the box's edges vanishes from the twin's
        # widened boxes; the scalar sweep checks the start exactly (disc_overlaps_box
        # below agrees with it). The compiled callers (World.step, mask trees) rely
        # on the twin's inf there: an overlap they cannot push apart is no event.
        pass
    else:
        assert got == pytest.approx(hit.fraction, rel=1e-6, abs=1e-9)
    started = intervals.disc_overlaps_box(cx, cy, r, box.left, box.top, box.right, box.bottom)
    assert started == (hit is not None and hit.started_overlapping)


def _radius_lost(box, r):
    return (
        box.left - r == box.left
        or box.right + r == box.right
        or (box.top - r == box.top or box.bottom + r == box.bottom)
    )


def _disc_entry_in_full(px: float, py: float, dx: float, dy: float, r: float) -> float:
    """``intervals.disc_entry``'s arithmetic in Python, every line of it, without its
    early return for a pair outside and not approaching."""
    if r <= 0.0:
        return math.inf
    a = dx * dx + dy * dy
    c = px * px + py * py - r * r
    if a == 0.0:
        return 0.0 if c < 0.0 else math.inf
    b = px * dx + py * dy
    cross = px * dy - py * dx
    ar = a * r * r
    disc = ar - cross * cross
    if disc <= 0.0:
        return math.inf
    if c >= 0.0:
        span = abs(px * dy) + abs(py * dx)
        band = intervals.TANGENT * (ar + span * span)
        if disc <= band and band < math.inf:
            return math.inf
    q = -(b + math.copysign(math.sqrt(disc), b))
    t1, t2 = q / a, c / q
    return intervals.first_fraction(min(t1, t2), max(t1, t2))


@given(coord, coord, coord, coord, size)
@example(3.0, 0.0, 1.0, 0.0, 2.0)  # moving straight away
@example(3.0, 0.0, 0.0, 1.0, 2.0)  # tangent to its motion: b == 0
@example(2.0, 0.0, 1.0, 0.0, 2.0)  # touching, moving away: c == 0
@example(1.0, 0.0, 1.0, 0.0, 2.0)  # inside, moving away
@example(3.0, 0.0, -2.0, 0.0, 2.0)  # approaching: enters halfway
@example(2.0000001, 0.0, -1e-4, 0.0, 2.0)  # barely outside, approaching slowly
def test_disc_entry_returns_early_only_what_its_arithmetic_gives(px, py, dx, dy, r):
    assert same(intervals.disc_entry(px, py, dx, dy, r), _disc_entry_in_full(px, py, dx, dy, r))


positive = st.floats(1e-3, 1e3, allow_nan=False, allow_infinity=False)


@given(
    positive,
    st.floats(-1e3, 1e3),
    st.floats(-1e3, 1e3).filter(lambda m: abs(m) >= 1e-3),  # (squares in floats' range)
    st.booleans(),
    st.booleans(),
)
@example(3.0, -1.0, 4.666666666666667, False, False)  # a box sliding down a disc's side
@example(1.0, 0.0, -319.0, False, False)  # touching at the start
def test_a_path_tangent_to_the_disc_never_enters_it(r, k, m, swap, flip):
    """A path passing at exactly ``r`` from the centre only touches the open disc:
    its discriminant is exactly 0, which floats put a few ulps either side; the
    side above once made a box sliding along a disc's side meet it (found by a
    hunt against the exact reference)."""
    px, py, dx, dy = (r if flip else -r), k, 0.0, m
    if swap:
        px, py, dx, dy = py, px, dy, dx
    assert intervals.disc_entry(px, py, dx, dy, r) == math.inf


@given(coord, coord, coord, coord, size)
@example(0.0, 0.5, 0.0, -1.0, 1.482995606921034e-223)  # r * r underflows: no entry
@example(1.0, 0.0, -2.0, 0.0, 3.2852999827907196e-81)  # in and out within an ulp of 0.5
def test_disc_entry_decides_by_the_exact_discriminant_outside_its_rounding(px, py, dx, dy, r):
    """Against exact rationals, from outside or touching the disc: a miss or a
    tangency never enters, and an entry before 0.999999 is found unless its
    discriminant lies within the rounding band (``intervals.TANGENT``)."""
    qx, qy, ex, ey, qr = (Fraction(v) for v in (px, py, dx, dy, r))
    a = ex * ex + ey * ey
    c = qx * qx + qy * qy - qr * qr
    if r <= 0.0 or a == 0 or c < 0:
        return  # no disc, no motion, or inside at the start
    span = abs(qx * ey) + abs(qy * ex)
    band = Fraction(intervals.TANGENT) * (a * qr * qr + span * span)
    if math.isinf(float(band)) or a * qr * qr < Fraction(2) ** -1000:
        return  # beyond floats (the band is not used), or squares below their range
    exact = a * qr * qr - (qx * ey - qy * ex) ** 2
    b = qx * ex + qy * ey
    got = intervals.disc_entry(px, py, dx, dy, r)
    if exact <= 0:
        assert got == math.inf
    elif exact > 2 * band and exact > a * a / 10**24 and b < 0:  # enters (for longer
        # than floats resolve: sqrt(D) / a of the step), unless at 1 or later:
        early = -b - a * (1 - Fraction(1, 10**6))  # before 0.999999: -b - sqrt(D) < that
        if early < 0 or early * early < exact:
            assert got < 1.0
