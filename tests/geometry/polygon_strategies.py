"""Hypothesis strategies for convex polygons, adversarial on purpose: integer grids
(shared vertices, collinear faces, touching), boxes at exact quarter turns and at
arbitrary angles, regular polygons, far from the origin."""

from __future__ import annotations

import math

from hypothesis import assume
from hypothesis import strategies as st

from collide2d import Polygon, Rect


def _hull(points: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Andrew's monotone chain, strictly convex (collinear points dropped)."""
    pts = sorted(set(points))
    if len(pts) < 3:
        return pts

    def cross(o, a, b):
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])

    lower: list[tuple[int, int]] = []
    for p in pts:
        while len(lower) >= 2 and cross(lower[-2], lower[-1], p) <= 0:
            lower.pop()
        lower.append(p)
    upper: list[tuple[int, int]] = []
    for p in reversed(pts):
        while len(upper) >= 2 and cross(upper[-2], upper[-1], p) <= 0:
            upper.pop()
        upper.append(p)
    return lower[:-1] + upper[:-1]


@st.composite
def grid_polygons(draw, span: int = 8) -> Polygon:
    points = draw(
        st.lists(
            st.tuples(st.integers(-span, span), st.integers(-span, span)), min_size=3, max_size=10
        )
    )
    hull = _hull(points)
    assume(len(hull) >= 3)
    scale = draw(st.sampled_from([1.0, 0.5, 0.1, 3.0]))
    return Polygon([(x * scale, y * scale) for x, y in hull])


ANGLES = st.one_of(
    st.sampled_from([0.0, math.pi / 2, math.pi, -math.pi / 2, math.pi / 4, 0.5]),
    st.floats(-7, 7, allow_nan=False),
)


@st.composite
def boxes(draw) -> Polygon:
    cx = draw(st.integers(-10, 10)) * draw(st.sampled_from([1.0, 0.5, 0.3]))
    cy = draw(st.integers(-10, 10)) * draw(st.sampled_from([1.0, 0.5, 0.3]))
    w = draw(st.integers(1, 8)) * draw(st.sampled_from([1.0, 0.5, 0.7]))
    h = draw(st.integers(1, 8)) * draw(st.sampled_from([1.0, 0.5, 0.7]))
    return Polygon.box(cx, cy, w, h, draw(ANGLES))


@st.composite
def regulars(draw) -> Polygon:
    return Polygon.regular(
        draw(st.integers(-8, 8)),
        draw(st.integers(-8, 8)),
        draw(st.sampled_from([0.5, 1.0, 3.0, 2.5])),
        draw(st.integers(3, 8)),
        draw(ANGLES),
    )


@st.composite
def far_polygons(draw) -> Polygon:
    polygon = draw(st.one_of(grid_polygons(), boxes()))
    offset = draw(st.sampled_from([1e6, -1e9, 2.0**40 + 0.5]))
    return polygon.translated((offset, offset))


def convex_polygons() -> st.SearchStrategy[Polygon]:
    return st.one_of(grid_polygons(), boxes(), regulars())


@st.composite
def rects(draw) -> Rect:
    return Rect(
        draw(st.integers(-10, 10)) * 0.5,
        draw(st.integers(-10, 10)) * 0.5,
        draw(st.integers(1, 12)) * 0.5,
        draw(st.integers(1, 12)) * 0.5,
    )


def box_rows(max_size: int) -> st.SearchStrategy[list[tuple[float, ...]]]:
    """Rows ``cx, cy, w, h, angle`` for the batch functions: grid and free centres,
    a few sizes, quarter turns and free angles."""
    row = st.tuples(
        st.integers(-12, 12).map(float) | st.floats(-12, 12, allow_nan=False),
        st.integers(-12, 12).map(float),
        st.sampled_from([1.0, 2.0, 4.0, 0.5, 3.3]),
        st.sampled_from([1.0, 2.0, 4.0, 0.7]),
        st.sampled_from([0.0, math.pi / 2, math.pi, math.pi / 4, -0.3, 1.1])
        | st.floats(-7, 7, allow_nan=False),
    )
    return st.lists(row, max_size=max_size)
