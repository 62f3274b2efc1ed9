import math

import pytest

from collide2d import Circle, Rect, Segment, Vec2


def test_rect_properties_follow_top_left_and_size():
    r = Rect(10, 20, 30, 40)
    assert (r.left, r.top, r.right, r.bottom) == (10, 20, 40, 60)
    assert r.min == (10, 20) and r.max == (40, 60)
    assert r.center == (25, 40) and r.half == (15, 20) and r.size == (30, 40)
    assert all(type(v) is float for v in r)


def test_rect_constructors_round_trip():
    r = Rect(-3, 4, 6, 2)
    assert Rect.from_bounds(r.min, r.max) == r
    assert Rect.from_center(r.center, r.half) == r


def test_rect_moved_expanded_union_contains():
    r = Rect(0, 0, 2, 2)
    assert r.moved(Vec2(1, -1)) == Rect(1, -1, 2, 2)
    assert r.expanded(1) == Rect(-1, -1, 4, 4)
    assert r.expanded(-1) == Rect(1, 1, 0, 0)
    assert r.union(Rect(5, 5, 1, 1)) == Rect(0, 0, 6, 6)
    assert r.contains_point((1, 1))
    assert not r.contains_point((0, 1))  # boundary points are outside the open rect


@pytest.mark.parametrize(
    ("args", "error", "name"),
    [
        ((math.nan, 0, 1, 1), ValueError, "x"),
        ((0, math.inf, 1, 1), ValueError, "y"),
        ((0, 0, -1, 1), ValueError, "w"),
        ((0, 0, 1, -0.5), ValueError, "h"),
        (("0", 0, 1, 1), TypeError, "x"),
        ((0, None, 1, 1), TypeError, "y"),
        ((0, 0, True, 1), TypeError, "w"),
    ],
)
def test_rect_rejects_bad_values_naming_the_argument(args, error, name):
    with pytest.raises(error, match=rf"^{name} "):
        Rect(*args)


def test_rect_rejects_bad_bounds_and_shrinking_below_zero():
    with pytest.raises(ValueError, match="max"):
        Rect.from_bounds((2, 2), (1, 5))
    with pytest.raises(ValueError, match="amount"):
        Rect(0, 0, 2, 2).expanded(-2)
    with pytest.raises(ValueError, match="half.x"):
        Rect.from_center((0, 0), (-1, 1))


def test_circle_values_and_errors():
    c = Circle(1, 2, 3)
    assert c.center == (1, 2) and c.bounds == Rect(-2, -1, 6, 6)
    assert c.moved((1, 1)) == Circle(2, 3, 3)
    assert c.contains_point((1, 4.9)) and not c.contains_point((1, 5))
    with pytest.raises(ValueError, match="^r "):
        Circle(0, 0, -1)
    with pytest.raises(ValueError, match="^x "):
        Circle(math.nan, 0, 1)


def test_vec2_is_a_vector_not_a_tuple_for_arithmetic():
    v = Vec2(1, 2)
    assert v + (1, 1) == (2, 3) and (1, 1) + v == (2, 3)
    assert v - (1, 1) == (0, 1) and (3, 3) - v == (2, 1)
    assert v * 2 == (2, 4) and 2 * v == (2, 4) and v / 2 == (0.5, 1)
    assert -v == (-1, -2)
    assert v.dot((3, 4)) == 11 and v.cross((3, 4)) == -2
    assert Vec2(3, 4).normalized() == (0.6, 0.8)
    with pytest.raises(ValueError):
        Vec2(0, 0).normalized()


def test_segment():
    s = Segment((1, 1), Vec2(4, 5))
    assert s.delta == (3, 4) and s.length() == 5 and s.point_at(1) == (4, 5)
    with pytest.raises(TypeError, match="start"):
        Segment((1, 2, 3), (0, 0))
    with pytest.raises(ValueError, match=r"end\.y"):
        Segment((0, 0), (0, math.nan))
