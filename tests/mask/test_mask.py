"""Masks: construction, editing, and queries against the pixel-by-pixel reference."""

import itertools

import numpy as np
import pygame
import pytest
from hypothesis import example, given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from collide2d import Circle, Rect
from collide2d.interop.image import mask_from_image
from collide2d.interop.pygame import mask_from_pygame, mask_from_surface, to_pygame_mask
from collide2d.mask import Mask
from tests import reference


def bool_grids(max_side=12):
    shape = st.tuples(st.integers(0, max_side), st.integers(0, max_side))
    return shape.flatmap(lambda s: hnp.arrays(bool, s, elements=st.booleans()))


quarter = st.integers(-56, 56).map(lambda k: k / 4)  # exact in binary
whole = st.integers(-14, 14).map(float)
offsets = st.tuples(st.one_of(quarter, whole), st.one_of(quarter, whole))


def check_queries(a_bits, b_bits, offset):
    a, b = Mask.from_array(a_bits), Mask.from_array(b_bits)
    shares = reference.mask_overlap_shares(a_bits.tolist(), b_bits.tolist(), offset)
    assert a.overlaps(b, offset) == bool(shares)
    assert a.overlap(b, offset) == reference.mask_overlap_point(list(shares), offset)
    expected_mask = np.zeros(a_bits.shape, dtype=bool)
    for x, y in shares:
        expected_mask[y, x] = True
    np.testing.assert_array_equal(a.overlap_mask(b, offset).to_array(), expected_mask)
    area = a.overlap_area(b, offset)
    exact = sum(shares.values())
    if float(offset[0]).is_integer() and float(offset[1]).is_integer():
        assert type(area) is int and area == exact
    else:
        assert area == pytest.approx(float(exact), abs=1e-9)


@given(bool_grids(), bool_grids(), offsets)
@example(np.ones((3, 3), bool), np.ones((2, 2), bool), (3.0, 0.0))  # touching: no overlap
@example(np.ones((3, 3), bool), np.ones((2, 2), bool), (2.75, -1.75))
@example(np.zeros((0, 5), bool), np.ones((2, 2), bool), (0.0, 0.0))
def test_queries_equal_the_pixel_reference(a_bits, b_bits, offset):
    check_queries(a_bits, b_bits, offset)


@given(
    st.integers(60, 140),
    st.integers(1, 4),
    st.integers(-150, 150),
    st.integers(-3, 3),
    st.integers(0, 3),
)
def test_wide_masks_cross_word_boundaries(width, height, ox, oy, quarter_x):
    rng = np.random.default_rng(width * 7 + height)
    a_bits = rng.random((height, width)) < 0.3
    b_bits = rng.random((height + 1, width // 2 + 1)) < 0.3
    check_queries(a_bits, b_bits, (ox + quarter_x / 4, float(oy)))


@given(
    st.tuples(st.integers(1, 200), st.integers(1, 5)),
    st.tuples(st.integers(1, 200), st.integers(1, 5)),
    st.integers(-4, 4),
    st.sampled_from([0, 1, 63, -1, -63]),
    st.integers(-5, 5),
    st.sampled_from([0.0, 0.5]),
)
@example((128, 3), (200, 4), 0, 0, 0, 0.0)  # word-aligned, the other one wider
@example((200, 3), (64, 4), -1, 0, -2, 0.0)  # the other one's columns start left of ours
@example((65, 2), (130, 2), 1, -1, 0, 0.5)  # a missing low column, then a missing high one
def test_word_columns_at_every_shift(a_size, b_size, columns, bits, oy, half):
    """Offsets near whole words, either mask wider: every case of the column kernel
    (aligned, b's low or high neighbour column missing), against the reference and,
    at integer offsets, against pygame."""
    rng = np.random.default_rng(a_size[0] * 1000 + b_size[0] * 7 + bits)
    a_bits = rng.random(a_size[::-1]) < 0.4
    b_bits = rng.random(b_size[::-1]) < 0.4
    offset = (64 * columns + bits + half, float(oy))
    check_queries(a_bits, b_bits, offset)
    if half == 0.0:
        a, b = Mask.from_array(a_bits), Mask.from_array(b_bits)
        pa, pb = to_pygame_mask(a), to_pygame_mask(b)
        whole_offset = (64 * columns + bits, oy)
        assert a.overlap_area(b, whole_offset) == pa.overlap_area(pb, whole_offset)
        assert a.overlap_mask(b, whole_offset) == mask_from_pygame(
            pa.overlap_mask(pb, whole_offset)
        )


@given(bool_grids(20), bool_grids(20), st.tuples(st.integers(-22, 22), st.integers(-22, 22)))
def test_integer_offsets_give_pygame_masks_answers(a_bits, b_bits, offset):
    a, b = Mask.from_array(a_bits), Mask.from_array(b_bits)
    pa, pb = to_pygame_mask(a), to_pygame_mask(b)
    assert a.overlaps(b, offset) == (pa.overlap(pb, offset) is not None)
    assert a.overlap_area(b, offset) == pa.overlap_area(pb, offset)
    assert a.overlap_mask(b, offset) == mask_from_pygame(pa.overlap_mask(pb, offset))


@given(bool_grids(20))
def test_pygame_round_trip(bits):
    mask = Mask.from_array(bits)
    pm = to_pygame_mask(mask)
    assert pm.get_size() == mask.size and pm.count() == mask.count()
    assert mask_from_pygame(pm) == mask


def test_mask_from_surface_follows_alpha_threshold_and_colorkey():
    surface = pygame.Surface((4, 1), pygame.SRCALPHA)
    for x, alpha in enumerate((0, 127, 128, 255)):
        surface.set_at((x, 0), (10, 20, 30, alpha))
    assert mask_from_surface(surface).to_array().tolist() == [[False, False, True, True]]
    assert mask_from_surface(surface, 0).to_array().tolist() == [[False, True, True, True]]
    assert mask_from_surface(surface) == mask_from_pygame(pygame.mask.from_surface(surface))
    keyed = pygame.Surface((3, 1))
    keyed.fill((255, 0, 255))
    keyed.set_at((1, 0), (1, 2, 3))
    keyed.set_colorkey((255, 0, 255))
    assert mask_from_surface(keyed).to_array().tolist() == [[False, True, False]]
    with pytest.raises(TypeError, match="threshold"):
        mask_from_surface(surface, 127.5)


def _surfaces():
    """Every kind of surface pygame.mask.from_surface takes, with awkward contents."""
    rng = np.random.default_rng(5)
    rgba = rng.integers(0, 256, (9, 7, 4), dtype=np.uint8)
    rgba[0, :, 3] = [0, 1, 127, 128, 254, 255, 255]
    for depth, flags in ((32, pygame.SRCALPHA), (32, 0), (24, 0), (16, 0), (16, pygame.SRCALPHA)):
        surface = pygame.Surface((9, 7), flags, depth)
        for x in range(9):
            for y in range(7):
                surface.set_at((x, y), tuple(int(v) for v in rgba[x, y]))
        yield f"{depth}-bit{' SRCALPHA' if flags else ''}", surface
        keyed = surface.copy()
        keyed.set_colorkey(tuple(int(v) for v in rgba[2, 3, :3]))
        yield f"{depth}-bit{' SRCALPHA' if flags else ''} with a colour key", keyed
    palette = pygame.Surface((9, 7), 0, 8)
    colours = [(0, 0, 0), (255, 0, 255), (255, 0, 255), (10, 20, 30)] + [(5, 5, 5)] * 252
    palette.set_palette(colours)  # indices 1 and 2 share a colour
    for x in range(9):
        for y in range(7):
            palette.set_at((x, y), colours[(x + y) % 4])
    raw = pygame.surfarray.pixels2d(palette)
    raw[:] = np.add.outer(np.arange(9), np.arange(7)) % 4  # the indices themselves
    del raw
    yield "8-bit palette", palette
    keyed = palette.copy()
    keyed.set_colorkey((255, 0, 255))  # pygame compares indices: only one of 1 and 2
    yield "8-bit palette with a colour key", keyed


@pytest.mark.parametrize("threshold", [-1, 0, 127, 128, 254, 255, 256])
def test_mask_from_surface_gives_pygames_answer_on_every_surface_format(threshold):
    for name, surface in _surfaces():
        expected = mask_from_pygame(pygame.mask.from_surface(surface, threshold))
        got = mask_from_surface(surface, threshold)
        assert got == expected, (name, threshold)
        assert got.count() == pygame.mask.from_surface(surface, threshold).count(), name


def test_from_image_with_alpha_and_colorkey(tmp_path):
    from PIL import Image

    image = Image.new("RGBA", (3, 2), (0, 0, 0, 0))
    image.putpixel((2, 1), (9, 9, 9, 200))
    path = tmp_path / "sprite.png"
    image.save(path)
    assert mask_from_image(path).to_array().tolist() == [[False] * 3, [False, False, True]]
    assert mask_from_image(image, threshold=250).count() == 0
    rgb = Image.new("RGB", (2, 1), (255, 0, 255))
    rgb.putpixel((0, 0), (1, 1, 1))
    assert mask_from_image(rgb, colorkey=(255, 0, 255)).to_array().tolist() == [[True, False]]
    with pytest.raises(TypeError, match="image"):
        mask_from_image(42)
    with pytest.warns(DeprecationWarning, match="mask_from_image"):
        assert Mask.from_image(image, threshold=250).count() == 0


def test_editing_and_inspection():
    mask = Mask((5, 3))
    assert mask.size == (5, 3) and mask.count() == 0 and mask.bounding_rect() == Rect(0, 0, 0, 0)
    mask.set_at((4, 2))
    mask.set_at((1, 0))
    assert mask.get_at((4, 2)) and not mask.get_at((0, 0)) and mask.count() == 2
    assert mask.bounding_rect() == Rect(1, 0, 4, 3)
    stamp = Mask((2, 2), fill=True)
    mask.draw(stamp, (-1, -1))
    assert mask.get_at((0, 0)) and mask.count() == 3
    mask.erase(stamp, (3, 1))
    assert not mask.get_at((4, 2)) and mask.count() == 2
    mask.invert()
    assert mask.count() == 13
    mask.fill()
    assert mask.count() == 15
    mask.clear()
    assert mask.count() == 0
    with pytest.raises(IndexError, match="pos"):
        mask.get_at((5, 0))
    with pytest.raises(ValueError, match="size"):
        Mask((-1, 2))
    with pytest.raises(ValueError, match="offset"):
        mask.draw(stamp, (0.5, 0))
    with pytest.raises(TypeError, match="other"):
        mask.overlaps("mask", (0, 0))
    with pytest.raises(ValueError, match="offset"):
        mask.overlaps(stamp, (float("nan"), 0))
    with pytest.raises(ValueError, match="two-dimensional"):
        Mask.from_array([1, 0, 1])


def test_edits_invalidate_the_packed_rows():
    a, b = Mask((70, 2)), Mask((1, 1), fill=True)
    assert not a.overlaps(b, (65, 1))
    a.set_at((65, 1))
    assert a.overlaps(b, (65, 1)) and a.overlap(b, (64.5, 1)) == (65, 1)


@pytest.mark.parametrize(
    "offset",
    [(2.0**52, 0.0), (-(2.0**52), 5.0), (0, 2**52), (-(2.0**52), -(2.0**52)), (130, 0), (-3, -3)],
)
def test_far_offsets_place_nothing(offset):
    """The kernels place the masks from the offset themselves: far offsets (up to the
    largest exact one) must give empty answers, not wrapped or overflowed ones."""
    a, b = Mask((130, 70), fill=True), Mask((3, 3), fill=True)
    assert not a.overlaps(b, offset) and a.overlap(b, offset) is None
    assert a.overlap_area(b, offset) == 0 and a.overlap_mask(b, offset).count() == 0
    assert a.sweep(b, offset, (0.0, 0.0)) is None


def test_offsets_beyond_exact_placement_are_refused():
    a = Mask((3, 3), fill=True)
    for offset in ((2.0**53, 0.0), (0.0, -(2.0**60)), (float("inf"), 0.0)):
        with pytest.raises(ValueError, match="offset"):
            a.overlaps(a, offset)


def test_zero_sized_masks_work_everywhere():
    empty = Mask((0, 0))
    solid = Mask((3, 3), fill=True)
    for a, b in ((empty, solid), (solid, empty), (empty, empty)):
        assert not a.overlaps(b, (0, 0)) and a.overlap(b, (0.5, 0)) is None
        assert a.overlap_area(b, (0, 0)) == 0 and a.overlap_mask(b, (0, 0)).size == a.size
    assert not empty.overlaps_rect(Rect(-5, -5, 10, 10)) and not empty.overlaps_circle(
        Circle(0, 0, 5)
    )
    assert empty.bounding_rect() == Rect(0, 0, 0, 0) and Mask.from_array(np.zeros((0, 4))).size == (
        4,
        0,
    )


def _pixel_rect_reference(bits, rect):
    """A rect with area meets a solid pixel's open square; a point or segment meets the
    interior of the union of the solid pixels (docs/masks.md)."""
    if rect.w == 0 or rect.h == 0:
        return _region_reference(bits, rect)
    return any(
        bits[y][x] and x < rect.right and rect.left < x + 1 and y < rect.bottom and rect.top < y + 1
        for y in range(len(bits))
        for x in range(len(bits[0]) if len(bits) else 0)
    )


def _region_reference(bits, shape):
    from collide2d import PlacedMask

    width = len(bits[0]) if bits else 0
    placed = PlacedMask(Mask.from_array(np.array(bits, dtype=bool).reshape(len(bits), width)), 0, 0)
    return reference.degenerate_overlaps(placed, shape)


def _pixel_circle_reference(bits, circle):
    from fractions import Fraction as F

    cx, cy, r = F(circle.x), F(circle.y), F(circle.r)
    for y, row in enumerate(bits):
        for x, solid in enumerate(row):
            if not solid:
                continue
            if r == 0:
                return _region_reference(bits, Rect(circle.x, circle.y, 0, 0))
            dx = max(x - cx, 0, cx - (x + 1))
            dy = max(y - cy, 0, cy - (y + 1))
            if dx * dx + dy * dy < r * r:
                return True
    return False


shape_coord = st.integers(-12, 40).map(lambda k: k / 4)
shape_size = st.integers(0, 24).map(lambda k: k / 4)


@given(bool_grids(), st.builds(Rect, shape_coord, shape_coord, shape_size, shape_size))
def test_overlaps_rect_equals_the_pixel_reference(bits, rect):
    assert Mask.from_array(bits).overlaps_rect(rect) == _pixel_rect_reference(bits.tolist(), rect)


@given(bool_grids(), st.builds(Circle, shape_coord, shape_coord, shape_size))
def test_overlaps_circle_equals_the_pixel_reference(bits, circle):
    mask = Mask.from_array(bits)
    assert mask.overlaps_circle(circle) == _pixel_circle_reference(bits.tolist(), circle)
    moved = Circle(circle.x - 1.5, circle.y + 2, circle.r)
    assert mask.overlaps_circle(moved, offset=(1.5, -2)) == mask.overlaps_circle(circle)


@given(bool_grids(), bool_grids(), offsets)
def test_the_runs_path_gives_the_same_answers(monkeypatch_module, a_bits, b_bits, offset):
    a, b = Mask.from_array(a_bits), Mask.from_array(b_bits)
    words = (a.overlaps(b, offset), a.overlap_area(b, offset))
    words_mask = a.overlap_mask(b, offset)
    a.runs(), b.runs()  # built runs are used whenever they are cheaper
    with monkeypatch_module.context() as patch:
        patch.setattr("collide2d.mask.queries.RUNS_PER_WORD", 1e9)
        runs = (a.overlaps(b, offset), a.overlap_area(b, offset))
        assert a.overlap_mask(b, offset) == words_mask
    assert runs[0] == words[0]
    assert runs[1] == pytest.approx(words[1], abs=1e-9) and type(runs[1]) is type(words[1])


def test_solid_shapes_use_runs_and_agree_with_pygame():
    y, x = np.mgrid[0:300, 0:300]
    disc = (x - 150) ** 2 + (y - 150) ** 2 < 140**2
    a, b = Mask.from_array(disc), Mask.from_array(disc)
    from collide2d.mask import queries

    a.runs()  # once runs exist, a pair of solid shapes is answered from them
    assert queries._word_pair(a, b) is None
    pa, pb = to_pygame_mask(a), to_pygame_mask(b)
    for offset in ((279, 5), (285, 0), (100, 100), (-50, 250)):
        assert a.overlaps(b, offset) == (pa.overlap(pb, offset) is not None)
        assert a.overlap_area(b, offset) == pa.overlap_area(pb, offset)


def test_an_overlap_mask_found_empty_by_runs_is_a_whole_mask(monkeypatch):
    """The runs path returns masks that do not meet as lazily empty masks: they must
    behave as any other mask (arrays, words, edits, queries)."""
    monkeypatch.setattr("collide2d.mask.queries.SMALL_PIXELS", 0)
    y, x = np.mgrid[0:300, 0:330]
    disc = Mask.from_array((x - 150) ** 2 + (y - 150) ** 2 < 140**2)
    empty = disc.overlap_mask(disc, (285.0, 0.5))  # bounds overlap, discs do not
    assert empty._words is None and empty._bits is None  # nothing made yet (white box)
    assert empty.size == (330, 300) and empty.count() == 0 and empty == Mask((330, 300))
    assert empty.words().shape == disc.words().shape and not empty.words().any()
    assert not empty.overlaps(disc, (0, 0)) and empty.overlap_area(disc, (0, 0)) == 0
    empty = disc.overlap_mask(disc, (285, 0))
    empty.set_at((3, 4))
    assert empty.count() == 1 and empty.get_at((3, 4))
    meeting = disc.overlap_mask(disc, (250, 0))
    assert meeting.count() == disc.overlap_area(disc, (250, 0)) > 0


@given(
    st.integers(1, 140),
    st.integers(1, 20),
    st.integers(1, 140),
    st.integers(1, 20),
    st.floats(0.0, 0.9),
    st.tuples(
        st.integers(-150, 150).map(lambda k: k / 2), st.integers(-150, 150).map(lambda k: k / 2)
    ),
)
def test_runs_skip_blocks_of_rows_without_changing_answers(
    monkeypatch_module, ha, wa, hb, wb, density, offset
):
    rng = np.random.default_rng(ha * 1000 + wa * 37 + hb)
    a_bits = rng.random((ha, wa)) < density
    b_bits = rng.random((hb, wb)) < density
    a_bits[: ha // 3] = False  # empty blocks of rows
    a, b = Mask.from_array(a_bits), Mask.from_array(b_bits)
    words = (a.overlaps(b, offset), a.overlap_area(b, offset), a.overlap_mask(b, offset))
    with monkeypatch_module.context() as patch:
        patch.setattr("collide2d.mask.queries.RUNS_PER_WORD", 1e9)
        patch.setattr("collide2d.mask.queries.SMALL_PIXELS", 0)
        runs = (a.overlaps(b, offset), a.overlap_area(b, offset), a.overlap_mask(b, offset))
    assert runs[0] == words[0]
    assert runs[1] == pytest.approx(words[1], abs=1e-9)
    assert runs[2] == words[2]


def one_run_a_row(rng, h, w):
    """Rows of one run each (or none): the shape of disks and boxes."""
    bits = np.zeros((h, w), bool)
    for y in range(h):
        if rng.random() < 0.8:
            x0, x1 = sorted(rng.integers(0, w + 1, size=2))
            bits[y, x0:x1] = True
    return bits


@given(
    st.tuples(st.integers(0, 40), st.integers(1, 150)),
    st.tuples(st.integers(0, 40), st.integers(1, 150)),
    st.integers(0, 2**32 - 1),
    st.tuples(st.integers(-160, 160), st.integers(-45, 45)),
)
def test_one_run_a_row_gives_the_same_answers(monkeypatch_module, a_size, b_size, seed, offset):
    """Masks of one run a row use Mask.spans (one vectorized loop) at whole offsets."""
    rng = np.random.default_rng(seed)
    a_bits, b_bits = one_run_a_row(rng, *a_size), one_run_a_row(rng, *b_size)
    a, b = Mask.from_array(a_bits), Mask.from_array(b_bits)
    assert a.spans() is not None and b.spans() is not None
    expected = to_pygame_mask(a).overlap_area(to_pygame_mask(b), offset)
    point = to_pygame_mask(a).overlap(to_pygame_mask(b), offset)
    assert a.overlap_area(b, offset) == expected and a.overlap(b, offset) == point
    with monkeypatch_module.context() as patch:
        patch.setattr("collide2d.mask.queries.RUNS_PER_WORD", 1e9)
        patch.setattr("collide2d.mask.queries.SMALL_PIXELS", 0)
        area = a.overlap_area(b, offset)
        assert type(area) is int and area == expected
        assert a.overlap(b, offset) == point


def test_spans_follow_edits():
    mask = Mask.from_array([[0, 1, 1, 0], [0, 0, 0, 0]])
    assert [s.tolist() for s in mask.spans()] == [[1, 0], [3, 0]]
    mask.set_at((3, 0))
    assert [s.tolist() for s in mask.spans()] == [[1, 0], [4, 0]]
    mask.set_at((0, 1)), mask.set_at((2, 1))
    assert mask.spans() is None
    mask.clear()
    assert [s.tolist() for s in mask.spans()] == [[0, 0], [0, 0]]
    assert [s.tolist() for s in Mask((0, 3)).spans()] == [[0, 0, 0], [0, 0, 0]]
    assert [s.shape for s in Mask((3, 0)).spans()] == [(0,), (0,)]


def runs_reference(bits):
    """Each row's runs ``[x0, x1)`` from the pixels, by numpy: where a row steps up
    and where it steps down."""
    runs = []
    for row in bits:
        steps = np.diff(np.concatenate(([0], row.astype(np.int8), [0])))
        runs.append(list(zip(np.flatnonzero(steps == 1), np.flatnonzero(steps == -1), strict=True)))
    return runs


@given(
    st.tuples(st.integers(1, 5), st.sampled_from([1, 3, 63, 64, 65, 127, 128, 129, 191, 192, 200])),
    st.sampled_from([0.02, 0.1, 0.5, 0.9]),
    st.integers(0, 2**32 - 1),
)
def test_runs_from_the_packed_words_equal_the_pixels(shape, flip, seed):
    """Runs are read from the words' transitions: rows of every run length, runs that
    end on a word boundary or at the mask's edge, and set bits past the width
    (a mask made from words may carry them) ignored."""
    rng = np.random.default_rng(seed)
    changes = rng.random(shape) < flip
    bits = np.cumsum(changes, axis=1) % 2 == 1
    words = Mask.from_array(bits).words().copy()
    words[-1] |= np.uint64(0xFFFFFFFFFFFFFFFF) << np.uint64(shape[1] % 64 or 63)  # past the width
    if shape[1] % 64 == 0:
        words = Mask.from_array(bits).words()  # no bits past the width to set
    for mask in (Mask.from_array(bits), Mask._from_words(words, bits.shape[::-1])):
        starts, x0, x1, _, _ = mask.runs()
        found = [
            list(zip(x0[a:b].tolist(), x1[a:b].tolist(), strict=True))
            for a, b in itertools.pairwise(starts.tolist())
        ]
        assert found == runs_reference(bits)
