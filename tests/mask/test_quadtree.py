"""Mask quadtrees: node kinds, all-pairs at full detail, and conservative coarse tests."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from collide2d.mask import Mask
from tests.mask.test_mask import bool_grids, offsets


def pixel_pairs(a_bits, b_bits, offset):
    """Every (a pixel, b pixel) whose open squares overlap, brute force."""
    ox, oy = offset
    pairs = set()
    for y, x in zip(*np.nonzero(a_bits), strict=True):
        for v, u in zip(*np.nonzero(b_bits), strict=True):
            if abs(x - (u + ox)) < 1 and abs(y - (v + oy)) < 1:
                pairs.add((int(x), int(y), int(u), int(v)))
    return pairs


@given(bool_grids(14), bool_grids(14), offsets)
def test_full_detail_pairs_are_every_overlapping_pixel_pair(a_bits, b_bits, offset):
    a, b = Mask.from_array(a_bits), Mask.from_array(b_bits)
    pairs = a.overlap_pairs(b, offset)
    found = {
        (int(ra[0]), int(ra[1]), int(rb[0]), int(rb[1]))
        for ra, rb in zip(pairs.a_rects, pairs.b_rects, strict=True)
    }
    assert len(found) == len(pairs.a_rects)  # each pair once
    assert (pairs.a_rects[:, 2:] == 1).all() and (pairs.b_rects[:, 2:] == 1).all()
    assert found == pixel_pairs(a_bits, b_bits, offset)
    assert a.overlaps(b, offset, a.quadtree().max_level, b.quadtree().max_level) == bool(found)


@given(bool_grids(20), bool_grids(20), offsets, st.integers(0, 6), st.integers(0, 6))
def test_coarse_levels_never_miss_an_overlap(a_bits, b_bits, offset, level_a, level_b):
    a, b = Mask.from_array(a_bits), Mask.from_array(b_bits)
    exact = a.overlaps(b, offset)
    coarse = a.overlaps(b, offset, level_a, level_b)
    assert coarse or not exact
    coarse_pairs = a.overlap_pairs(b, offset, level_a, level_b)
    for x, y, u, v in pixel_pairs(a_bits, b_bits, offset):
        inside_a = (coarse_pairs.a_rects[:, 0] <= x) & (
            x < coarse_pairs.a_rects[:, 0] + coarse_pairs.a_rects[:, 2]
        )
        inside_a &= (coarse_pairs.a_rects[:, 1] <= y) & (
            y < coarse_pairs.a_rects[:, 1] + coarse_pairs.a_rects[:, 3]
        )
        inside_b = (coarse_pairs.b_rects[:, 0] <= u) & (
            u < coarse_pairs.b_rects[:, 0] + coarse_pairs.b_rects[:, 2]
        )
        inside_b &= (coarse_pairs.b_rects[:, 1] <= v) & (
            v < coarse_pairs.b_rects[:, 1] + coarse_pairs.b_rects[:, 3]
        )
        assert (inside_a & inside_b).any()
    assert (coarse_pairs.a_levels <= max(level_a, 0)).all()


@given(bool_grids(30))
def test_nodes_tile_the_solid_pixels_and_have_the_right_kinds(bits):
    mask = Mask.from_array(bits)
    tree = mask.quadtree()
    leaves = tree.nodes()
    assert sum(rect.area for rect, _, _ in leaves) == mask.count()
    covered = np.zeros_like(bits)
    for rect, level, kind in leaves:
        window = bits[int(rect.y) : int(rect.bottom), int(rect.x) : int(rect.right)]
        assert kind == "full" and window.all() and level <= tree.max_level
        assert not covered[int(rect.y) : int(rect.bottom), int(rect.x) : int(rect.right)].any()
        covered[int(rect.y) : int(rect.bottom), int(rect.x) : int(rect.right)] = True
    np.testing.assert_array_equal(covered, bits)
    for rect, level, kind in tree.nodes(max_level=2):
        window = bits[int(rect.y) : int(rect.bottom), int(rect.x) : int(rect.right)]
        assert window.any() and (kind == "full") == bool(window.all()) and level <= 2


def test_tree_is_rebuilt_after_an_edit():
    mask = Mask((16, 16))
    first = mask.quadtree()
    assert mask.quadtree() is first and first.kind(0, 0, 0) == "empty"
    mask.set_at((3, 3))
    assert mask.quadtree() is not first and mask.quadtree().kind(0, 0, 0) == "mixed"


def test_level_arguments_are_checked():
    import pytest

    a = Mask((4, 4), fill=True)
    with pytest.raises(ValueError, match="max_level"):
        a.overlaps(a, (0, 0), max_level=-1)
    with pytest.raises(ValueError, match="other_max_level"):
        a.overlap_pairs(a, (0, 0), other_max_level="deep")


@given(bool_grids(40))
def test_the_quadtree_validates_against_its_pixels(bits):
    mask = Mask.from_array(bits)
    mask.quadtree().validate(mask.bits)


def test_validate_catches_a_corrupted_pyramid():
    mask = Mask((16, 16), fill=True)
    tree = mask.quadtree()
    tree.pyramid.blocks[0, 0] = 0  # a block emptied behind the tree's back
    with pytest.raises(AssertionError):
        tree.validate(mask.bits)


def test_traversals_count_visits_and_tests_in_both_trees():
    a, b = Mask((64, 64), fill=True), Mask((64, 64), fill=True)
    a.sweep(b, (100, 0), (50, 0))
    for tree in (a.quadtree(), b.quadtree()):
        assert tree.stats.visits > 0 and tree.stats.tests > 0 and tree.stats.queries == 1
    a.overlaps(b, (10, 10), max_level=2, other_max_level=2)
    assert a.quadtree().stats.queries == 2 and a.quadtree().stats.total_visits > 0
