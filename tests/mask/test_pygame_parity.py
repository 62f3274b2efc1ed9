"""pygame.mask's shape analysis, differentially: the same pixels to pygame-ce and to
collide2d, the answers compared (pygame-ce's ``src_c/mask.c`` is the specification).

Two documented exceptions, both where pygame departs from its own documentation:
- pygame reads memory it never wrote when a mask is one pixel wide (``cc_label``
  looks at a neighbour to the upper right that does not exist) and
  ``get_bounding_rects`` crashes the interpreter there (pygame-ce 2.5.8);
- pygame adds a label's pixel count to its parent label before flattening its
  union-find, so counts passing through a chain of labels are lost: its
  ``connected_component()`` is then not the largest component, and ``minimum``
  may drop a component that is large enough. Ours count exactly.
Those cases are checked against a plain flood fill instead.
"""

from collections import deque

import numpy as np
import pygame
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from collide2d import Mask, Rect
from collide2d.interop.pygame import (
    mask_from_pygame,
    mask_from_threshold,
    mask_to_surface,
    to_pygame_mask,
)


def grids(min_width=2, max_side=24):
    shape = st.tuples(st.integers(1, max_side), st.integers(min_width, max_side))
    return shape.flatmap(lambda s: hnp.arrays(np.bool_, s))


def dense_grids():
    """Random masks of every density (hypothesis's arrays are mostly sparse)."""
    return st.tuples(
        st.integers(1, 30), st.integers(2, 30), st.floats(0.05, 0.95), st.integers(0, 2**32 - 1)
    ).map(lambda t: np.random.default_rng(t[3]).random((t[0], t[1])) < t[2])


def run_grids(max_height=8, max_width=200):
    """Masks wider than a word whose rows are runs of every length: each pixel
    continues the one before it with probability ``1 - flip`` (long runs for a small
    ``flip``, noise for ``flip`` near 0.5)."""

    def draw(t):
        h, w, flip, seed = t
        rng = np.random.default_rng(seed)
        changes = rng.random((h, w)) < flip
        changes[:, 0] = rng.random(h) < 0.5
        return np.cumsum(changes, axis=1) % 2 == 1

    return st.tuples(
        st.integers(1, max_height), st.integers(1, max_width), st.sampled_from([0.02, 0.1, 0.5]),
        st.integers(0, 2**32 - 1),
    ).map(draw)  # fmt: skip


AWKWARD = {
    "empty": np.zeros((5, 7), bool),
    "full": np.ones((5, 7), bool),
    "one pixel": np.pad(np.ones((1, 1), bool), ((2, 3), (4, 1))),
    "last pixel": np.pad(np.ones((1, 1), bool), ((4, 0), (6, 0))),
    "checkerboard": np.indices((8, 9)).sum(axis=0) % 2 == 0,
    "diagonal": np.eye(9, dtype=bool),
    "anti-diagonal": np.fliplr(np.eye(9, dtype=bool)),
    "ring": np.pad(np.ones((6, 6), bool), 1) & ~np.pad(np.ones((2, 2), bool), 3),
    "two equal blobs": np.array([[1, 1, 0, 1, 1], [1, 1, 0, 1, 1]], bool),
    "a row": np.ones((1, 12), bool),
    "U shape": np.array([[1, 0, 0, 1], [1, 0, 0, 1], [1, 1, 1, 1]], bool),
    "spiral-ish": np.array(
        [[1, 1, 1, 1, 1], [0, 0, 0, 0, 1], [1, 1, 1, 0, 1], [1, 0, 0, 0, 1], [1, 1, 1, 1, 1]], bool
    ),
}


def assert_same_analysis(bits):
    mask = Mask.from_array(bits)
    theirs = to_pygame_mask(mask)
    assert mask.centroid() == theirs.centroid()
    assert mask.angle() == theirs.angle()
    for every in (1, 2, 3, 0, -1):
        assert mask.outline(every) == theirs.outline(every), every
    assert [tuple(r) for r in mask.get_bounding_rects()] == [
        tuple(r) for r in theirs.get_bounding_rects()
    ]
    for minimum in (0, 1, -3):  # no filtering by size: pygame's counts do not matter
        assert mask.connected_components(minimum) == [
            mask_from_pygame(c) for c in theirs.connected_components(minimum)
        ], minimum
    sizes = sorted((c.count() for c in mask.connected_components()), reverse=True)
    theirs_biggest = mask_from_pygame(theirs.connected_component())
    if sizes and theirs_biggest.count() == sizes[0] and sizes[1:2] != sizes[:1]:
        assert mask.connected_component() == theirs_biggest  # one largest, pygame found it
    h, w = bits.shape
    for pos in {(0, 0), (w - 1, h - 1), (w // 2, h // 2)}:
        assert mask.connected_component(pos) == mask_from_pygame(theirs.connected_component(pos))


@given(grids())
def test_shape_analysis_equals_pygame_on_sparse_masks(bits):
    assert_same_analysis(bits)


@given(dense_grids())
def test_shape_analysis_equals_pygame_on_dense_masks(bits):
    assert_same_analysis(bits)


@pytest.mark.parametrize("name", list(AWKWARD))
def test_shape_analysis_equals_pygame_on_awkward_masks(name):
    assert_same_analysis(AWKWARD[name])


@given(dense_grids(), st.tuples(st.integers(0, 45), st.integers(0, 45)))
def test_scale_equals_pygame(bits, size):
    mask = Mask.from_array(bits)
    assert mask.scale(size) == mask_from_pygame(to_pygame_mask(mask).scale(size))


@given(run_grids(), st.tuples(st.integers(0, 300), st.integers(0, 20)))
def test_scale_of_wide_masks_equals_pygame(bits, size):
    """Scaled from the runs: up and down, across word boundaries."""
    mask = Mask.from_array(bits)
    assert mask.scale(size) == mask_from_pygame(to_pygame_mask(mask).scale(size))


@given(
    dense_grids(),
    grids(min_width=1, max_side=9),
    st.tuples(st.integers(-12, 12), st.integers(-12, 12)),
    st.booleans(),
)
def test_convolve_equals_pygame(a_bits, b_bits, offset, into_output):
    a, b = Mask.from_array(a_bits), Mask.from_array(b_bits)
    pa, pb = to_pygame_mask(a), to_pygame_mask(b)
    if into_output:  # an output mask of its own size, already holding pixels
        start = np.zeros((7, 11), bool)
        start[3, 4] = True
        got = a.convolve(b, Mask.from_array(start), offset)
        expected = pa.convolve(pb, to_pygame_mask(Mask.from_array(start)), offset)
    else:
        got, expected = a.convolve(b, offset=offset), pa.convolve(pb, offset=offset)
    assert got == mask_from_pygame(expected)


@given(
    run_grids(),
    run_grids(max_height=6, max_width=90),
    st.tuples(st.integers(-150, 150), st.integers(-9, 9)),
    st.one_of(st.none(), st.tuples(st.integers(1, 260), st.integers(1, 12))),
)
def test_convolve_of_wide_masks_equals_pygame(a_bits, b_bits, offset, output_size):
    """Runs of every length (each a different dilation level), rows of several words,
    shifts across word boundaries both ways, and outputs whose width is not a whole
    number of words; either mask may be the one read as runs."""
    a, b = Mask.from_array(a_bits), Mask.from_array(b_bits)
    pa, pb = to_pygame_mask(a), to_pygame_mask(b)
    for x, y, px, py in ((a, b, pa, pb), (b, a, pb, pa)):
        if output_size is None:
            got, expected = x.convolve(y, offset=offset), px.convolve(py, offset=offset)
        else:
            start = np.zeros(output_size[::-1], bool)
            start[0, -1] = True
            got = x.convolve(y, Mask.from_array(start), offset)
            expected = px.convolve(py, to_pygame_mask(Mask.from_array(start)), offset)
        assert got == mask_from_pygame(expected)


@given(
    st.tuples(
        st.integers(1, 12), st.integers(1, 200), st.floats(0.02, 0.9), st.integers(0, 2**32 - 1)
    ),
    st.tuples(
        st.integers(1, 12), st.integers(1, 200), st.floats(0.02, 0.9), st.integers(0, 2**32 - 1)
    ),
    st.tuples(st.integers(-210, 210), st.integers(-14, 14)),
)
def test_overlap_returns_pygames_point(a_spec, b_spec, offset):
    """At whole offsets, the point pygame's word-column scan meets first (masks wider
    than a 64-pixel word, offsets of every sign and remainder)."""
    a, b = (
        Mask.from_array(np.random.default_rng(seed).random((h, w)) < p)
        for h, w, p, seed in (a_spec, b_spec)
    )
    assert a.overlap(b, offset) == to_pygame_mask(a).overlap(to_pygame_mask(b), offset)


def test_overlap_point_where_rows_and_word_columns_disagree():
    """Row by row the first is (100, 0); pygame's column scan meets (3, 5) first."""
    bits = np.zeros((6, 130), bool)
    bits[0, 100] = bits[5, 3] = True
    mask, full = Mask.from_array(bits), Mask((130, 6), fill=True)
    assert (
        mask.overlap(full, (0, 0))
        == (3, 5)
        == to_pygame_mask(mask).overlap(to_pygame_mask(full), (0, 0))
    )
    assert mask.overlap(full, (0.5, 0)) == (100, 0)  # fractional: row by row


def test_get_rect_places_like_pygame():
    mask = Mask((6, 4))
    theirs = pygame.mask.Mask((6, 4))
    for place in ({}, {"center": (10, 10)}, {"topleft": (1, 2)}, {"right": 3},
                  {"bottomright": (-5, 7)}, {"midtop": (8, 1)}, {"centery": 9, "x": 2}):  # fmt: skip
        assert tuple(mask.get_rect(**place)) == tuple(theirs.get_rect(**place)), place
    odd, theirs_odd = Mask((7, 3)), pygame.mask.Mask((7, 3))  # pygame's centre: x + w // 2
    for place in ({"center": (10, 10)}, {"centerx": 3}, {"midbottom": (0, 0)},
                  {"size": (2, 5), "center": (0, 0)}, {"x": 7, "top": -1, "size": (2, 3)},
                  {"w": 4, "right": 0}, {"height": 6, "centery": 1}):  # fmt: skip
        assert tuple(odd.get_rect(**place)) == tuple(theirs_odd.get_rect(**place)), place
    for name in ("wide", "righte"):  # pygame: AttributeError from its Rect
        with pytest.raises(AttributeError, match=name):
            mask.get_rect(**{name: 3})
        with pytest.raises(AttributeError, match=name):
            theirs.get_rect(**{name: 3})
    with pytest.raises(ValueError, match="size"):
        mask.get_rect(size=(-1, 2))  # pygame takes negative sizes; collide2d's Rect does not


def test_get_rect_keeps_fractional_values():
    """pygame truncates them; collide2d keeps them, as a pygame.FRect would."""
    odd = Mask((7, 3))
    assert odd.get_rect(x=5.1) == Rect(5.1, 0, 7, 3)
    assert odd.get_rect(centerx=5.5) == Rect(2.0, 0, 7, 3)
    assert odd.get_rect(size=(2, 3.2), bottom=0.5) == Rect(0, -2.7, 2, 3.2)


def flood_components(bits):
    """8-connected components by breadth-first search, first pixel first."""
    h, w = bits.shape
    seen = np.zeros_like(bits)
    found = []
    for y in range(h):
        for x in range(w):
            if bits[y, x] and not seen[y, x]:
                part = np.zeros_like(bits)
                queue = deque([(y, x)])
                seen[y, x] = True
                while queue:
                    cy, cx = queue.popleft()
                    part[cy, cx] = True
                    for dy in (-1, 0, 1):
                        for dx in (-1, 0, 1):
                            ny, nx = cy + dy, cx + dx
                            if 0 <= ny < h and 0 <= nx < w and bits[ny, nx] and not seen[ny, nx]:
                                seen[ny, nx] = True
                                queue.append((ny, nx))
                found.append(part)
    return found


@given(st.one_of(grids(min_width=1, max_side=20), dense_grids(), run_grids()))
def test_components_equal_a_flood_fill_including_one_pixel_wide_masks(bits):
    mask = Mask.from_array(bits)
    expected = flood_components(bits)
    assert [c.to_array().tolist() for c in mask.connected_components()] == [
        e.tolist() for e in expected
    ]
    rects = []
    for part in expected:
        ys, xs = np.nonzero(part)
        rects.append(Rect(xs.min(), ys.min(), xs.max() - xs.min() + 1, ys.max() - ys.min() + 1))
    assert mask.get_bounding_rects() == rects
    sizes = [int(e.sum()) for e in expected]
    first_largest = expected[sizes.index(max(sizes))] if sizes else np.zeros_like(bits)
    assert mask.connected_component().to_array().tolist() == first_largest.tolist()
    for minimum in (2, 3, 5):
        assert [c.to_array().tolist() for c in mask.connected_components(minimum)] == [
            e.tolist() for e, size in zip(expected, sizes, strict=True) if size >= minimum
        ]


def test_the_largest_component_where_pygame_loses_count():
    """Found by hypothesis: pygame-ce 2.5.8 returns a 13-pixel component here while
    one of 21 pixels exists (its counts are summed through an unflattened union-find)."""
    bits = np.random.default_rng(29).random((16, 29)) < 0.25
    mask = Mask.from_array(bits)
    sizes = [c.count() for c in mask.connected_components()]
    assert max(sizes) == 21 and mask.connected_component().count() == 21


def test_one_pixel_wide_masks_have_their_components():
    """pygame-ce 2.5.8 crashes here (get_bounding_rects on a 1 x 24 mask)."""
    bits = np.zeros((24, 1), bool)
    bits[[0, 20, 21, 23], 0] = True
    mask = Mask.from_array(bits)
    assert mask.get_bounding_rects() == [Rect(0, 0, 1, 1), Rect(0, 20, 1, 2), Rect(0, 23, 1, 1)]
    assert [c.count() for c in mask.connected_components()] == [1, 2, 1]


def test_zero_sized_masks():
    for size in ((0, 0), (0, 5), (5, 0)):
        mask = Mask(size)
        assert mask.outline() == [] and mask.connected_components() == []
        assert mask.get_bounding_rects() == [] and mask.centroid() == (0, 0)
        assert mask.angle() == 0.0 and mask.connected_component().size == size
        assert mask.scale((3, 2)) == Mask((3, 2))


def test_bad_arguments_name_themselves():
    mask = Mask.from_array([[1, 0], [0, 1]])
    with pytest.raises(IndexError, match="pos"):
        mask.connected_component((5, 0))
    with pytest.raises(ValueError, match="scale"):
        mask.scale((-1, 3))
    with pytest.raises(TypeError, match="every"):
        mask.outline(1.5)
    with pytest.raises(TypeError, match="minimum"):
        mask.connected_components("2")
    with pytest.raises(TypeError, match="other"):
        mask.convolve("mask")


def test_surfaces_through_pygame():
    surface = pygame.Surface((5, 3))
    surface.fill((10, 200, 30))
    surface.set_at((2, 1), (250, 0, 0))
    got = mask_from_threshold(surface, (250, 0, 0), (10, 10, 10, 255))
    assert got.to_array().astype(int).tolist() == [[0] * 5, [0, 0, 1, 0, 0], [0] * 5]
    drawn = mask_to_surface(got, setcolor=(1, 2, 3), unsetcolor=(9, 9, 9))
    assert drawn.get_at((2, 1))[:3] == (1, 2, 3) and drawn.get_at((0, 0))[:3] == (9, 9, 9)


@given(dense_grids(), st.floats(-2, 32), st.floats(-2, 32))
def test_fractional_positions_are_truncated_as_pygame_truncates(bits, x, y):
    mask = Mask.from_array(bits)
    theirs = to_pygame_mask(mask)
    try:
        expected = theirs.get_at((x, y))
    except IndexError:
        with pytest.raises(IndexError, match="pos"):
            mask.get_at((x, y))
        with pytest.raises(IndexError, match="pos"):
            mask.set_at((x, y))
        return
    assert mask.get_at((x, y)) == expected
    component = mask_from_pygame(theirs.connected_component((x, y)))
    assert mask.connected_component((x, y)) == component
    mask.set_at((x, y), 0)
    theirs.set_at((x, y), 0)
    assert mask == mask_from_pygame(theirs)


def test_moments_of_masks_too_tall_for_int64_sums():
    """At ``max(w, h)**2 * w * h >= 2**62`` the moments are summed row by row in
    Python ints: the same centroid and angle as pygame (whose sums still fit here)."""
    bits = np.zeros((2**21, 3), bool)
    bits[[5, 77, 2**20, 2**21 - 1], [0, 2, 1, 2]] = True
    bits[2**21 - 9 : 2**21 - 4, 1] = True
    mask = Mask.from_array(bits)
    theirs = to_pygame_mask(mask)
    assert mask.centroid() == theirs.centroid()
    assert mask.angle() == theirs.angle()


def test_connected_component_picks_the_first_of_equals_by_first_pixel():
    """Documented: the first by first pixel (row by row); pygame may pick another."""
    arr = np.array(
        [[1, 0, 0, 0, 0, 0, 0], [1, 0, 0, 0, 0, 0, 0], [0, 0, 1, 0, 1, 1, 0], [0, 0, 1, 0, 0, 0, 1],
         [1, 1, 0, 1, 0, 0, 1], [0, 1, 0, 0, 0, 0, 1], [0, 0, 0, 0, 0, 1, 0]], dtype=bool
    )  # fmt: skip
    ours = Mask.from_array(arr).connected_component().to_array()
    assert ours.sum() == 6 and ours[2, 2] and not ours[2, 4]
