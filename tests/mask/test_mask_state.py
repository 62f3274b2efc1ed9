"""No sequence of edits and copies can make two queries of one mask disagree.

A hypothesis state machine keeps several masks, each beside a plain numpy array of
its pixels, and applies every public edit and copy (``set_at``, ``fill``, ``clear``,
``invert``, ``draw``, ``erase``, ``copy()``, ``copy.copy``, ``copy.deepcopy``, a
subclass's copy) in any order, asking after each step every query that reads a
cache (packed words, row runs, stacked boxes, the quadtree) for its answer: a cache
shared between two masks, or kept after an edit, shows up as a disagreement.
"""

import copy

import numpy as np
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import Bundle, RuleBasedStateMachine, initialize, invariant, rule

from collide2d import Mask

SIZES = st.tuples(st.integers(1, 70), st.integers(1, 9))  # across a 64-pixel word


class Sprite(Mask):
    """A subclass with its own attribute, as a game's sprite class would have."""

    tag = "sprite"


class MaskMachine(RuleBasedStateMachine):
    masks = Bundle("masks")

    def __init__(self) -> None:
        super().__init__()
        self.pairs: list[tuple[Mask, np.ndarray]] = []

    def _add(self, mask: Mask, pixels: np.ndarray) -> int:
        self.pairs.append((mask, pixels))
        return len(self.pairs) - 1

    @initialize(target=masks, size=SIZES, fill=st.booleans())
    def first(self, size, fill):
        return self._add(Mask(size, fill), np.full((size[1], size[0]), fill))

    @rule(target=masks, size=SIZES, seed=st.integers(0, 2**16))
    def random_mask(self, size, seed):
        pixels = np.random.default_rng(seed).random((size[1], size[0])) < 0.4
        return self._add(Mask.from_array(pixels), pixels.copy())

    @rule(target=masks, k=masks, how=st.sampled_from(["copy", "copy.copy", "deepcopy", "sub"]))
    def duplicate(self, k, how):
        mask, pixels = self.pairs[k]
        self._warm(mask)  # caches built before the copy must not travel with it
        if how == "copy":
            clone = mask.copy()
        elif how == "copy.copy":
            clone = copy.copy(mask)
        elif how == "deepcopy":
            clone = copy.deepcopy(mask)
        else:
            sprite = Sprite.from_array(pixels)
            sprite.name = "hero"
            clone = copy.copy(sprite)  # pygame's rule: the pixels, not the attributes
            assert type(clone) is Sprite and not hasattr(clone, "name")
            assert copy.deepcopy(sprite).name == "hero"
        assert type(clone) is type(mask) or how == "sub"
        return self._add(clone, pixels.copy())

    @rule(k=masks, data=st.data(), value=st.booleans())
    def set_at(self, k, data, value):
        mask, pixels = self.pairs[k]
        self._warm(mask)
        x = data.draw(st.integers(0, mask.width - 1))
        y = data.draw(st.integers(0, mask.height - 1))
        mask.set_at((x, y), value)
        pixels[y, x] = value

    @rule(k=masks, op=st.sampled_from(["fill", "clear", "invert"]))
    def whole(self, k, op):
        mask, pixels = self.pairs[k]
        self._warm(mask)
        getattr(mask, op)()
        pixels[:] = True if op == "fill" else False if op == "clear" else ~pixels

    @rule(k=masks, j=masks, ox=st.integers(-70, 70), oy=st.integers(-9, 9), erase=st.booleans())
    def draw_or_erase(self, k, j, ox, oy, erase):
        mask, pixels = self.pairs[k]
        other, theirs = self.pairs[j]
        self._warm(mask)
        self._warm(other)
        theirs = theirs.copy()  # k and j may be the same mask
        (mask.erase if erase else mask.draw)(other, (ox, oy))
        h, w = pixels.shape
        for y, x in zip(*np.nonzero(theirs), strict=True):
            if 0 <= x + ox < w and 0 <= y + oy < h:
                pixels[y + oy, x + ox] = not erase

    @staticmethod
    def _warm(mask: Mask) -> None:
        """Build every cache, so that a stale or shared one would be seen."""
        mask.words()
        mask.runs()
        mask.boxes()
        mask.spans()
        mask.quadtree()

    @invariant()
    def every_query_agrees_with_the_pixels(self):
        for mask, pixels in self.pairs:
            h, w = pixels.shape
            full = Mask((w, h), True)
            count = int(pixels.sum())
            assert mask.count() == count
            assert np.array_equal(mask.to_array(), pixels)
            assert mask.overlaps(full, (0, 0)) == (count > 0)
            assert mask.overlap_area(full, (0, 0)) == count
            assert mask.overlap_mask(full, (0, 0)).count() == count
            assert mask.overlaps(full, (0, 0), max_level=0) == (count > 0)
            boxes = mask.boxes()
            assert int(((boxes[:, 2] - boxes[:, 0]) * (boxes[:, 3] - boxes[:, 1])).sum()) == count
            runs = mask.runs()
            assert int((runs.x1 - runs.x0).sum()) == count
            spans = mask.spans()
            edges = np.diff(np.pad(pixels.astype(np.int8), ((0, 0), (1, 1))), axis=1)
            assert (spans is None) == bool(((edges == 1).sum(axis=1) > 1).any())
            if spans is not None:
                assert int((spans[1] - spans[0]).sum()) == count
            padded = np.zeros((h, 64 * mask.words().shape[0]), dtype=bool)
            padded[:, :w] = pixels
            expected = np.packbits(padded, axis=1, bitorder="little").view("<u8").T
            assert np.array_equal(mask.words(), expected)


MaskMachine.TestCase.settings = settings(max_examples=60, stateful_step_count=25, deadline=None)
test_no_edits_and_copies_make_a_mask_disagree_with_itself = MaskMachine.TestCase
