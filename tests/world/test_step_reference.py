"""The exact reference's own helpers (``step_reference``), against sampling: what its
comparisons set aside must be what their docstrings say."""

from __future__ import annotations

from fractions import Fraction as Q

from hypothesis import given
from hypothesis import strategies as st

from tests.world.step_reference import INF, Body, first_contact, gap, graze, overlapping


def body(kind: str, x: int, y: int, w: int, h: int, vx: int = 0, vy: int = 0) -> Body:
    v = [Q(vx), Q(vy)]
    return Body(kind, Q(x), Q(y), Q(w), Q(h), v, list(v), Q(1), 0, 0, False)


@st.composite
def pairs(draw):
    """Two bodies near each other on a small integer grid (touching often), one moving."""
    shapes = []
    for _ in range(2):
        kind = draw(st.sampled_from(["rect", "circle"]))
        x, y = draw(st.integers(-4, 4)), draw(st.integers(-4, 4))
        w = draw(st.integers(0, 3)) if kind == "rect" else draw(st.integers(1, 3))
        h = draw(st.integers(0, 3)) if kind == "rect" else w
        shapes.append((kind, x, y, w, h))
    velocity = draw(st.integers(-3, 3)), draw(st.integers(-3, 3))
    return body(*shapes[0], *velocity), body(*shapes[1])


@given(pairs())
def test_a_graze_is_every_moment_two_bodies_touch_and_never_overlap(pair):
    a, b = pair
    span = graze(a, b)
    if overlapping(a, b) or first_contact(a, b)[0] != INF:
        assert span is None
        return
    d = (a.mv[0] - b.mv[0], a.mv[1] - b.mv[1])
    moments = [Q(k, 12) for k in range(121)]
    if span is not None:
        start, stop = span
        assert gap(a, b, d, start) == 0
        moments += [start, start - Q(1, 1000), start + Q(1, 1000)]
        if stop != INF:
            assert gap(a, b, d, stop) == 0
            moments += [stop, stop + Q(1, 1000), (start + stop) / 2]
    for t in (t for t in moments if t >= 0):
        inside = span is not None and span[0] <= t <= span[1]
        assert gap(a, b, d, t) >= 0  # (never overlapping)
        assert (gap(a, b, d, t) == 0) == inside, t


def test_a_disc_riding_along_a_box_touches_it_until_it_passes_the_corner():
    disc = body("circle", 0, -2, 2, 2, vx=1)  # (on the box's top, from its left corner)
    box = body("rect", 0, 0, 3, 1)
    assert graze(disc, box) == (0, 3)
    assert graze(box, disc) == (0, 3)
    assert graze(disc, box, within=Q(1, 2)) == (0, 3)  # (bounds touch now)
    away = body("circle", -5, -2, 2, 2, vx=1)
    assert graze(away, box) == (5, 8)
    assert graze(away, box, within=Q(1)) is None  # (its bounds reach the box at 3)


def test_two_discs_passing_touch_at_their_closest_approach():
    a = body("circle", 0, 0, 1, 1, vx=1)
    b = body("circle", 5, 2, 1, 1)
    assert graze(a, b) == (5, 5)
    assert graze(a, body("circle", 5, 3, 1, 1)) is None  # (they pass apart)


def test_a_tangency_away_from_every_edge_moment_is_found():
    """Closest approaches at moments no coordinate meets another's (2, with the
    coordinates meeting at 2/3 and 11/4): a disc passing a disc, and a box's corner."""
    a = body("circle", 0, 0, 2, 2, vx=3, vy=4)
    assert graze(a, body("circle", 2, 11, 3, 3)) == (2, 2)
    assert graze(body("circle", 0, 0, 5, 5, vx=3, vy=4), body("rect", 1, 11, 1, 1)) == (2, 2)
