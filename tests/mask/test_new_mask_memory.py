"""A new mask costs nothing until its pixels are used: Mask((100000, 100000)) is
instant (as in pygame), and a full one holds only its packed words."""

from __future__ import annotations

import tracemalloc

import numpy as np
import pytest

from collide2d import Mask


def peak_bytes(make):  # type: ignore[no-untyped-def]
    tracemalloc.start()
    try:
        result = make()
        return result, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_a_huge_empty_mask_allocates_no_pixels() -> None:
    mask, peak = peak_bytes(lambda: Mask((100000, 100000)))
    assert peak < 1_000_000
    assert mask.size == (100000, 100000) and mask.count() == 0
    assert not mask.get_at((99999, 99999))


def test_a_full_mask_holds_its_packed_words_only() -> None:
    mask, peak = peak_bytes(lambda: Mask((4000, 4000), fill=True))
    assert peak < 4000 * 4000 / 8 * 1.2  # the bools would be 8 times as much
    assert mask.count() == 4000 * 4000 and mask.get_at((3999, 3999))


@pytest.mark.parametrize(
    "size", [(0, 3), (3, 0), (0, 0), (1, 1), (63, 2), (64, 2), (65, 3), (130, 7)]
)
@pytest.mark.parametrize("fill", [False, True])
def test_new_masks_equal_the_masks_of_their_arrays(size: tuple[int, int], fill: bool) -> None:
    w, h = size
    mask = Mask(size, fill=fill)
    same = Mask.from_array(np.full((h, w), fill, dtype=bool))
    assert np.array_equal(mask.words(), same.words())
    assert mask.count() == same.count() == (w * h if fill else 0)
    assert np.array_equal(mask.to_array(), same.to_array())
    for x in range(w):
        for y in range(h):
            assert mask.get_at((x, y)) == fill
    if w and h:
        mask.set_at((w - 1, h - 1), not fill)
        assert mask.count() == (w * h - 1 if fill else 1)
        assert mask.get_at((w - 1, h - 1)) == (not fill)
