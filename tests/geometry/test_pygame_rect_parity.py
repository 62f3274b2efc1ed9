"""pygame-ce's ``test/rect_test.py`` collision cases against ``collide2d.overlaps`` and
``Rect.contains_point``, differentially (the same rectangles to both).

Where the two agree by design (rectangles of positive size), the answers must be
equal. Where collide2d differs on purpose (docs/concepts.md), the difference is
asserted, each side by its own rule, not skipped:

- a zero-size rect is a point (or a segment) to collide2d: it overlaps what it lies
  strictly inside; pygame's ``colliderect`` is False for any rect of zero width or
  height;
- a negative size is a ``ValueError`` naming it in collide2d; pygame normalizes the
  rect in ``colliderect`` (so a user normalizing first gets pygame's answer);
- ``contains_point`` is strict (the open rectangle, the overlap convention);
  ``collidepoint`` takes the left and top edges and not the right and bottom ones.
"""

import pygame
import pytest
from hypothesis import given
from hypothesis import strategies as st

from collide2d import Rect, overlaps

R1 = (1, 2, 3, 4)
RIGHT, BOTTOM = 4, 6
COLLIDERECT_CASES = [  # rect_test.py's test_colliderect, against R1, literally
    (0, 0, 2, 3),
    (0, 0, 1, 2),
    (RIGHT, BOTTOM, 2, 2),
    (2, 3, 1, 2),
    (0, 1, 5, 6),
    R1,
    (RIGHT, BOTTOM, 0, 0),
    (RIGHT, BOTTOM, 1, 1),
]
COLLIDEPOINT_CASES = [  # rect_test.py's test_collidepoint, against R1
    (1, 2), (0, 2), (1, 1), (0, 1), (3, 5), (4, 5), (3, 6), (4, 6),
]  # fmt: skip


def open_overlap(a, b):
    """DESIGN.md's overlap of two rects as open sets (also for zero sizes)."""
    ax, ay, aw, ah = a
    bx, by, bw, bh = b
    return ax < bx + bw and bx < ax + aw and ay < by + bh and by < ay + ah


def normalized(rect):
    x, y, w, h = rect
    return (min(x, x + w), min(y, y + h), abs(w), abs(h))


def check_colliderect(a, b):
    theirs = pygame.Rect(a).colliderect(pygame.Rect(b))
    if any(size < 0 for size in (*a[2:], *b[2:])):
        with pytest.raises(ValueError, match="w|h"):
            overlaps(Rect(*a), Rect(*b))
        a, b = normalized(a), normalized(b)  # pygame's answer is the normalized rects'
        assert pygame.Rect(a).colliderect(pygame.Rect(b)) == theirs
    ours = overlaps(Rect(*a), Rect(*b))
    assert ours == overlaps(Rect(*b), Rect(*a)) == open_overlap(a, b)
    if 0 in (*a[2:], *b[2:]):
        assert theirs is False  # pygame: a zero-size rect collides with nothing
    else:
        assert ours == theirs


@pytest.mark.parametrize("other", COLLIDERECT_CASES)
def test_pygames_colliderect_cases(other):
    check_colliderect(R1, other)
    check_colliderect(other, R1)


def test_a_zero_size_rect_strictly_inside_differs_as_documented():
    point, segment = (2, 3, 0, 0), (2, 3, 0, 2)
    assert overlaps(Rect(*point), Rect(*R1)) and overlaps(Rect(*segment), Rect(*R1))
    assert not pygame.Rect(point).colliderect(pygame.Rect(R1))
    assert not pygame.Rect(segment).colliderect(pygame.Rect(R1))


@pytest.mark.parametrize("point", COLLIDEPOINT_CASES)
def test_pygames_collidepoint_cases(point):
    check_collidepoint(R1, point)


def check_collidepoint(rect, point):
    x, y, w, h = rect
    px, py = point
    theirs = pygame.Rect(rect).collidepoint(point)
    assert theirs == (x <= px < x + w and y <= py < y + h)  # pygame's half-open rule
    ours = Rect(*rect).contains_point(point)
    assert ours == (x < px < x + w and y < py < y + h)  # the open rectangle
    if px not in (x, x + w) and py not in (y, y + h):
        assert ours == theirs  # off the edges, the two rules agree


small = st.integers(-8, 8)


@given(
    st.tuples(small, small, st.integers(-6, 8), st.integers(-6, 8)),
    st.tuples(small, small, st.integers(-6, 8), st.integers(-6, 8)),
)
def test_colliderect_on_random_rects(a, b):
    check_colliderect(a, b)


@given(st.tuples(small, small, st.integers(0, 8), st.integers(0, 8)), st.tuples(small, small))
def test_collidepoint_on_random_points(rect, point):
    check_collidepoint(rect, point)
