"""The step's compiled circle-against-polygon tests (``step_circle_polygon``) against
the slow obvious ones: the exact public overlap test (``collide2d.overlaps``, in
integers) and the entry time in rational arithmetic (``step_reference_discs``)."""

from __future__ import annotations

import math
from fractions import Fraction as Q

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from collide2d import Circle, PlacedPolygon, Polygon, overlaps
from collide2d._kernels.step import step_circle_polygon as discs
from tests.world import step_reference, step_reference_discs

SHAPES = [
    [(0, 0), (6, 0), (0, 6)],
    [(0, 4), (8, 0), (8, 4)],
    [(2, 0), (4, 0), (6, 2), (6, 4), (4, 6), (2, 6), (0, 4), (0, 2)],
    [(0, 0), (4, 1), (5, 5), (1, 4)],
    [(0.1, 0.3), (7.7, 0.2), (3.3, 5.9)],
]


def _outline(placed: PlacedPolygon) -> np.ndarray:
    return np.array([tuple(v) for v in placed.outline.vertices], dtype=float)


def _coordinates(lo: float, hi: float) -> st.SearchStrategy[float]:
    """Floats in ``[lo, hi]`` kept to thousandths (no 1e-119 offsets: the reference's
    square roots, to 2**-200, cannot see them), made adversarial by the ulps below."""
    return st.floats(lo, hi).map(lambda v: min(max(round(v, 3), lo), hi))


@st.composite
def disc_near_outline(draw):
    """A placed outline of :data:`SHAPES` and a circle about it: anywhere, or tangent
    to an edge or a vertex, then moved by a few ulps (the adversarial band)."""
    points = draw(st.sampled_from(SHAPES))
    scale = draw(st.sampled_from([1.0, 1e-3, 1e6, 3.0]))
    placed = PlacedPolygon(
        Polygon([(x * scale, y * scale) for x, y in points]),
        draw(_coordinates(-1e3, 1e3)), draw(_coordinates(-1e3, 1e3)),
    )  # fmt: skip
    v = _outline(placed)
    n = len(v)
    r = draw(st.sampled_from([0.0, 0.5, 1.0, 2.5])) * scale
    how = draw(st.sampled_from(["anywhere", "edge", "vertex"]))
    k = draw(st.integers(0, n - 1))
    p, q = v[k], v[(k + 1) % n]
    if how == "anywhere":
        lo, hi = v.min(axis=0) - 3 * scale, v.max(axis=0) + 3 * scale
        cx = draw(_coordinates(lo[0], hi[0]))
        cy = draw(_coordinates(lo[1], hi[1]))
    else:
        e = q - p
        normal = np.array([e[1], -e[0]]) / math.hypot(*e)
        if how == "edge":
            base = p + e * draw(st.floats(0.0, 1.0))
            cx, cy = base + normal * r
        else:
            angle = draw(st.floats(0.0, 2 * math.pi))
            cx, cy = p + r * np.array([math.cos(angle), math.sin(angle)])
    for _ in range(draw(st.integers(-3, 3)) % 7):
        # (the exact range of the step's tests: zero or 2**-120 and beyond)
        if abs(cx) >= 2.0**-100:
            cx = math.nextafter(cx, draw(st.sampled_from([-math.inf, math.inf])))
        if abs(cy) >= 2.0**-100:
            cy = math.nextafter(cy, draw(st.sampled_from([-math.inf, math.inf])))
    return placed, v, float(cx), float(cy), float(r)


@settings(max_examples=600, deadline=None)
@given(disc_near_outline())
def test_the_overlap_test_is_the_exact_public_one(case):
    placed, v, cx, cy, r = case
    expected = overlaps(Circle(cx, cy, r), placed)
    assert discs.overlaps(cx, cy, r, v, len(v)) == expected


def test_a_circle_tangent_to_a_slanted_face_does_not_overlap_it():
    """Floats alone cannot tell: a circle of radius 5 whose centre is exactly 5 from
    the face of a 3-4-5 triangle, and the same a float step nearer."""
    v = np.array([(0.0, 0.0), (4.0, 3.0), (0.0, 3.0)])  # face from (0, 0) to (4, 3)
    cx, cy = 2.0 + 3.0, 1.5 - 4.0  # the face's middle, 5 along its outward normal
    assert not discs.overlaps(cx, cy, 5.0, v, 3)
    assert not overlaps(Circle(cx, cy, 5.0), Polygon(v.tolist()))
    nearer = math.nextafter(cx, 0.0)
    assert discs.overlaps(nearer, cy, 5.0, v, 3) == overlaps(
        Circle(nearer, cy, 5.0), Polygon(v.tolist())
    )
    assert discs.overlaps(nearer, cy, 5.0, v, 3)


@settings(max_examples=300, deadline=None)
@given(disc_near_outline(), st.integers(-200, 200), st.integers(-200, 200))
def test_the_entry_is_the_rational_one_within_rounding(case, dx, dy):
    _, v, cx, cy, r = case
    if discs.overlaps(cx, cy, r, v, len(v)):
        return
    points = [(Q(x), Q(y)) for x, y in v.tolist()]
    scale = max(1.0, float(np.abs(v).max()), abs(cx), abs(cy))
    d = (dx * scale / 100, dy * scale / 100)
    want = step_reference_discs.entry(
        points, Q(cx), Q(cy), Q(r), (Q(d[0]), Q(d[1])), step_reference
    )
    got = discs.entry(cx, cy, r, d[0], d[1], v, len(v))
    if want == math.inf or want >= 1:
        # a graze the floats may take for a shallow entry: never a deep one
        if got != math.inf:
            x, y = cx + d[0] * got, cy + d[1] * got
            assert step_reference_discs.distance2(points, Q(x), Q(y)) >= Q(r) ** 2 * (
                1 - Q(1, 10**6)
            )
        return
    if got == math.inf:  # a pass through a sliver shorter than rounding, never more
        later = want + Q(1, 10**9)
        x, y = Q(cx) + Q(d[0]) * later, Q(cy) + Q(d[1]) * later
        assert not step_reference_discs.overlapping(points, x, y, Q(r))
        return
    assert got == pytest.approx(float(want), abs=1e-6)


def test_the_nearest_point_and_normal():
    v = np.array([(0.0, 0.0), (4.0, 0.0), (4.0, 4.0), (0.0, 4.0)])
    # outside a face: the foot and the face's outward normal
    assert discs.nearest(2.0, -3.0, v, 4) == (2.0, 0.0, 0.0, -1.0, 3.0)
    # outside a corner: the corner and the direction from it
    kx, ky, nx, ny, d = discs.nearest(7.0, 8.0, v, 4)
    assert (kx, ky, d) == (4.0, 4.0, 5.0) and (nx, ny) == pytest.approx((0.6, 0.8))
    # inside: the nearest edge's foot, its outward normal, the depth as negative
    assert discs.nearest(3.0, 2.0, v, 4) == (4.0, 2.0, 1.0, 0.0, -1.0)
