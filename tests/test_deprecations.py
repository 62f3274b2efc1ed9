"""Renamed public names still work for one release, and say what to use instead."""

import warnings

import numpy as np
import pytest

import collide2d
from collide2d import Circle, Mask, Rect, Stats, raycast


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("BatchStats", "Stats"),
        ("BroadphaseStats", "Stats"),
        ("MaskHit", "Hit"),
        ("rects_overlap", "overlaps"),
        ("circles_overlap", "overlaps"),
        ("circle_rect_overlap", "overlaps"),
        ("points_in_boxes", "query_points"),
    ],
)
def test_old_top_level_names_warn_and_name_the_new_one(old, new):
    with pytest.warns(DeprecationWarning, match=new):
        getattr(collide2d, old)


def test_old_names_still_give_the_old_answers():
    with pytest.warns(DeprecationWarning):
        assert collide2d.BatchStats is Stats
        assert collide2d.rects_overlap(Rect(0, 0, 2, 2), Rect(1, 1, 2, 2))
        assert not collide2d.circles_overlap(Circle(0, 0, 1), Circle(2, 0, 1))
        assert collide2d.circle_rect_overlap(Circle(3, 1, 1.5), Rect(0, 0, 2, 2))
        rows = collide2d.points_in_boxes([[5, 5]], [[0, 0, 10, 10]])
    assert rows.tolist() == [[0, 0]]
    with pytest.warns(DeprecationWarning, match="strips"):
        pairs = collide2d.overlapping_pairs([[0, 0, 2, 2], [1, 1, 2, 2]], method="grid")
    assert pairs.tolist() == [[0, 1]]
    with pytest.warns(DeprecationWarning, match="started_overlapping"):
        assert raycast((5, 5), (1, 0), Rect(0, 0, 10, 10)).started_inside
    with pytest.warns(DeprecationWarning, match="Stats.tests"):
        assert Stats(tests=3).last_tests == 3
    with pytest.warns(DeprecationWarning, match="other_delta"):
        hit = Mask((4, 4), fill=True).sweep_rect(Rect(-10, 1, 2, 2), (20, 0), mask_delta=(0, 0))
    assert hit.fraction == 0.4
    with pytest.raises(TypeError, match="surprise"):
        Mask((4, 4)).sweep_rect(Rect(-10, 1, 2, 2), (20, 0), surprise=1)


def test_unknown_names_are_still_attribute_errors():
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        collide2d.nothing  # noqa: B018
    with pytest.raises(AttributeError):
        collide2d.mask.nothing  # noqa: B018


def test_the_current_names_do_not_warn():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        collide2d.query_points(np.zeros((0, 4)), np.zeros((0, 2)))
        collide2d.overlapping_pairs([[0, 0, 1, 1]], method="strips", stats=Stats())
