"""Pixel masks: binary pixel grids, such as the solid pixels of a sprite."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np
from numpy.typing import ArrayLike, NDArray

from collide2d.geometry import _checks
from collide2d.geometry.circle import Circle
from collide2d.geometry.rect import Rect
from collide2d.mask import queries
from collide2d.mask.queries import overlaps as _overlaps

if TYPE_CHECKING:
    from collide2d.mask.quadtree import MaskQuadtree
    from collide2d.mask.sweep import MaskHit

BoolArray = NDArray[np.bool_]
Runs = tuple[
    NDArray[np.int64], NDArray[np.int64], NDArray[np.int64], NDArray[np.int64], NDArray[np.int64]
]
WORD = 64


class NodePairs(NamedTuple):
    """Pairs of intersecting quadtree nodes of two masks.

    Attributes
    ----------
    a_rects, b_rects : ndarray of shape (K, 4)
        Rows ``x, y, w, h`` of each pair's node of ``self`` (in its coordinates) and of
        ``other`` (in its own coordinates).
    a_levels, b_levels : ndarray of shape (K,), dtype intp
        The nodes' levels.
    """

    a_rects: NDArray[np.float64]
    b_rects: NDArray[np.float64]
    a_levels: NDArray[np.intp]
    b_levels: NDArray[np.intp]


class Mask:
    """A binary pixel grid: pixel ``(x, y)`` is the unit square ``[x, x+1) x [y, y+1)``.

    The pixels live in a bool array indexed ``[y, x]``; the API speaks ``(x, y)``.
    Queries against another mask take ``offset = other.topleft - self.topleft``,
    which may be fractional. Overlap is strict as everywhere in collide2d: two
    pixels overlap when their open squares share area.

    Parameters
    ----------
    size : (int, int)
        ``(width, height)``; zero is allowed.
    fill : bool, default False
        Whether every pixel starts solid.

    Examples
    --------
    >>> a = Mask((4, 4), fill=True)
    >>> b = Mask.from_array([[True, False], [False, True]])
    >>> a.overlaps(b, (3, 3)), a.overlap_area(b, (3, 3)), a.overlap_area(b, (2.5, 2))
    (True, 1, 1.5)
    >>> a.overlaps(b, (4, 0))  # only touching
    False
    """

    __slots__ = ("_bits", "_runs", "_size", "_tree", "_words")

    def __init__(self, size: tuple[int, int], fill: bool = False) -> None:
        w, h = _size(size)
        self._size = (w, h)
        # The pixels as bools; None while only the packed words exist (a mask made
        # from words, such as an overlap mask), unpacked on first use.
        self._bits: BoolArray | None = np.full((h, w), bool(fill), dtype=bool)
        self._words: NDArray[np.uint64] | None = None
        self._runs: Runs | None = None
        self._tree: MaskQuadtree | None = None

    # -- construction ----------------------------------------------------------------------
    @classmethod
    def from_array(cls, array: ArrayLike) -> Mask:
        """A mask whose pixel ``(x, y)`` is ``bool(array[y][x])`` (the array is copied).

        Raises
        ------
        ValueError
            If ``array`` is not two-dimensional.
        """
        bits = np.array(array, dtype=bool, copy=True)
        if bits.ndim != 2:
            raise ValueError(f"array must be two-dimensional [y, x], got shape {bits.shape}")
        mask = cls.__new__(cls)
        mask._bits = np.ascontiguousarray(bits)
        mask._size = (int(bits.shape[1]), int(bits.shape[0]))
        mask._words = None
        mask._runs = None
        mask._tree = None
        return mask

    @classmethod
    def from_image(
        cls,
        image: str | Path | Any,
        threshold: int = 127,
        colorkey: tuple[int, int, int] | None = None,
    ) -> Mask:
        """A mask of an image's solid pixels (needs Pillow).

        Parameters
        ----------
        image : path or PIL.Image.Image
            The image, or a path to it.
        threshold : int, default 127
            A pixel is solid when its alpha is above this (0 to 255).
        colorkey : (r, g, b), optional
            For images without alpha (or to ignore it): pixels of this colour are
            empty and all others solid.
        """
        from collide2d.interop.image import image_alpha

        if (
            isinstance(threshold, bool)
            or not isinstance(threshold, int)
            or not 0 <= threshold <= 255
        ):
            raise ValueError(f"threshold must be an int from 0 to 255, got {threshold!r}")
        return cls.from_array(image_alpha(image, threshold, colorkey))

    # -- pixels ----------------------------------------------------------------------------
    @property
    def size(self) -> tuple[int, int]:
        """``(width, height)``."""
        return self._size

    @property
    def width(self) -> int:
        """Pixels per row."""
        return self._size[0]

    @property
    def height(self) -> int:
        """Rows."""
        return self._size[1]

    def to_array(self) -> BoolArray:
        """A copy of the pixels as a bool array indexed ``[y, x]``."""
        return self._array().copy()

    def get_at(self, pos: tuple[int, int]) -> bool:
        """Whether pixel ``pos = (x, y)`` is solid.

        Raises
        ------
        IndexError
            If ``pos`` lies outside the mask.
        """
        x, y = self._pixel(pos, "pos")
        return bool(self._array()[y, x])

    def set_at(self, pos: tuple[int, int], value: bool = True) -> None:
        """Make pixel ``pos = (x, y)`` solid (or empty with ``value=False``)."""
        x, y = self._pixel(pos, "pos")
        self._array()[y, x] = bool(value)
        self._changed()

    def count(self) -> int:
        """The number of solid pixels."""
        return int(np.count_nonzero(self._array()))

    def bounding_rect(self) -> Rect:
        """The smallest rectangle holding every solid pixel (``Rect(0, 0, 0, 0)`` if none).

        >>> Mask.from_array([[0, 0, 0], [0, 1, 1]]).bounding_rect()
        Rect(x=1.0, y=1.0, w=2.0, h=1.0)
        """
        ys, xs = np.nonzero(self._array())
        if xs.size == 0:
            return Rect(0, 0, 0, 0)
        return Rect(
            int(xs.min()), int(ys.min()), int(xs.max() - xs.min() + 1), int(ys.max() - ys.min() + 1)
        )

    def fill(self) -> None:
        """Make every pixel solid."""
        self._array()[:] = True
        self._changed()

    def clear(self) -> None:
        """Make every pixel empty."""
        self._array()[:] = False
        self._changed()

    def invert(self) -> None:
        """Swap solid and empty pixels."""
        bits = self._array()
        np.logical_not(bits, out=bits)
        self._changed()

    def draw(self, other: Mask, offset: tuple[int, int]) -> None:
        """Make solid every pixel under a solid pixel of ``other`` placed at ``offset``
        (integer, ``other.topleft - self.topleft``)."""
        mine, theirs = self._window(other, offset)
        if mine is not None:
            self._array()[mine] |= other._array()[theirs]
            self._changed()

    def erase(self, other: Mask, offset: tuple[int, int]) -> None:
        """Make empty every pixel under a solid pixel of ``other`` placed at ``offset``."""
        mine, theirs = self._window(other, offset)
        if mine is not None:
            self._array()[mine] &= ~other._array()[theirs]
            self._changed()

    def copy(self) -> Mask:
        """An independent copy."""
        return Mask.from_array(self._array())

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Mask):
            return NotImplemented
        return self._size == other._size and bool(np.array_equal(self._array(), other._array()))

    __hash__ = None  # type: ignore[assignment]  # masks are mutable

    def __repr__(self) -> str:
        return f"Mask(size={self.size}, count={self.count()})"

    # -- queries against another mask -------------------------------------------------------
    def overlaps(
        self,
        other: Mask,
        offset: tuple[float, float],
        max_level: int | None = None,
        other_max_level: int | None = None,
    ) -> bool:
        """Whether any solid pixel of ``self`` overlaps one of ``other`` at ``offset``.

        At full detail (no levels given) it scans packed words and stops at the first
        overlapping pair. With ``max_level`` / ``other_max_level`` it walks the two
        quadtrees and treats non-empty nodes at those levels as solid (the coarse
        test): it may report an overlap the pixels do not have, never the reverse.
        See :class:`collide2d.mask.quadtree.MaskQuadtree` for what a level is.
        """
        if type(other) is not Mask:
            other = _other(other)
        ox, oy = _offset(offset)
        if max_level is None and other_max_level is None:
            return _overlaps(self, other, ox, oy)
        return queries.tree_overlaps(self, other, (ox, oy), max_level, other_max_level)

    def overlap_pairs(
        self,
        other: Mask,
        offset: tuple[float, float],
        max_level: int | None = None,
        other_max_level: int | None = None,
    ) -> NodePairs:
        """Every pair of intersecting quadtree nodes (the write-up's "all intersections").

        Nodes are cut at ``max_level`` (``self``) and ``other_max_level`` (``other``),
        each at full detail (single pixels) by default, so that the default lists every
        pair of overlapping pixels. Rectangles are in each mask's own coordinates.

        >>> pairs = Mask((2, 1), fill=True).overlap_pairs(Mask((1, 1), fill=True), (0.5, 0))
        >>> pairs.a_rects.tolist(), pairs.b_rects.tolist()
        ([[0.0, 0.0, 1.0, 1.0], [1.0, 0.0, 1.0, 1.0]], [[0.0, 0.0, 1.0, 1.0], [0.0, 0.0, 1.0, 1.0]])
        """
        return queries.tree_pairs(self, _other(other), _offset(offset), max_level, other_max_level)

    def overlap(self, other: Mask, offset: tuple[float, float]) -> tuple[int, int] | None:
        """The first pixel of ``self`` (smallest y, then smallest x) that overlaps a solid
        pixel of ``other`` at ``offset``, or None.

        >>> Mask((3, 3), fill=True).overlap(Mask((2, 2), fill=True), (1.5, 1))
        (1, 1)
        """
        return queries.first_overlap(self, _other(other), *_offset(offset))

    def overlap_area(self, other: Mask, offset: tuple[float, float]) -> float:
        """The area shared by the two pixel sets, as unit squares: an ``int`` when the
        offset is integral, else a float (sums of ``(1 - fx)(1 - fy)``-style shares)."""
        return queries.overlap_area(self, _other(other), *_offset(offset))

    def overlap_mask(self, other: Mask, offset: tuple[float, float]) -> Mask:
        """The pixels of ``self`` whose squares share area with a solid pixel of ``other``."""
        if type(other) is not Mask:
            other = _other(other)
        ox, oy = _offset(offset)
        return Mask._from_words(queries.overlap_words(self, other, ox, oy), self._size)

    def overlaps_rect(self, rect: Rect, offset: tuple[float, float] = (0.0, 0.0)) -> bool:
        """Whether a solid pixel overlaps ``rect`` moved by ``offset`` (mask-local coordinates).

        >>> solid = Mask((4, 4), fill=True)
        >>> solid.overlaps_rect(Rect(4, 0, 3, 3)), solid.overlaps_rect(Rect(3.5, 0, 3, 3))
        (False, True)
        """
        if not isinstance(rect, Rect):
            raise TypeError(f"rect must be a Rect, got {rect!r}")
        ox, oy = _offset(offset)
        return queries.overlaps_box(
            self, rect.left + ox, rect.top + oy, rect.right + ox, rect.bottom + oy
        )

    def overlaps_circle(self, circle: Circle, offset: tuple[float, float] = (0.0, 0.0)) -> bool:
        """Whether a solid pixel overlaps ``circle`` moved by ``offset``: the distance from
        the centre to the pixel's (closed) square is less than the radius."""
        if not isinstance(circle, Circle):
            raise TypeError(f"circle must be a Circle, got {circle!r}")
        ox, oy = _offset(offset)
        return queries.overlaps_disc(self, circle.x + ox, circle.y + oy, circle.r)

    # -- sweeps ------------------------------------------------------------------------------
    def sweep(
        self,
        other: Mask,
        offset: tuple[float, float],
        delta: tuple[float, float],
        other_delta: tuple[float, float] = (0.0, 0.0),
        max_level: int | None = None,
        other_max_level: int | None = None,
    ) -> MaskHit | None:
        """The first moment any solid pixel of ``self``, moving by ``delta``, overlaps one
        of ``other``, placed at ``offset`` and moving by ``other_delta``.

        The semantics of :func:`collide2d.sweep`: touching and moving in hits at 0,
        sliding along does not hit, reaching contact exactly at the end of the frame
        does not hit, starting overlapped hits at 0 with ``started_overlapping``. With
        levels, coarse nodes count as solid: the hit is never later than the exact one.

        Examples
        --------
        >>> wall = Mask((2, 10), fill=True)
        >>> ball = Mask.from_array([[0, 1, 0], [1, 1, 1], [0, 1, 0]])
        >>> hit = ball.sweep(wall, (20, -3), (30, 0))   # the wall is 20 px right
        >>> hit.fraction, hit.normal, hit.pixel, hit.other_pixel
        (0.5666666666666667, Vec2(x=-1.0, y=0.0), (2, 1), (0, 4))
        """
        from collide2d.mask.sweep import sweep_masks

        return sweep_masks(
            self,
            _other(other),
            _offset(offset),
            _delta(delta, "delta"),
            _delta(other_delta, "other_delta"),
            max_level,
            other_max_level,
        )

    def sweep_rect(
        self,
        rect: Rect,
        delta: tuple[float, float],
        mask_delta: tuple[float, float] = (0.0, 0.0),
        max_level: int | None = None,
    ) -> MaskHit | None:
        """The first moment ``rect`` (in mask coordinates), moving by ``delta``, overlaps a
        solid pixel of the mask, which moves by ``mask_delta``. The normal points from
        the mask toward the rectangle; ``other_pixel`` is the mask's pixel that met.

        >>> Mask((4, 4), fill=True).sweep_rect(Rect(-10, 1, 2, 2), (20, 0)).fraction
        0.4
        """
        from collide2d.mask.sweep import sweep_shape

        if not isinstance(rect, Rect):
            raise TypeError(f"rect must be a Rect, got {rect!r}")
        return sweep_shape(
            self, rect, _delta(delta, "delta"), _delta(mask_delta, "mask_delta"), max_level
        )

    def sweep_circle(
        self,
        circle: Circle,
        delta: tuple[float, float],
        mask_delta: tuple[float, float] = (0.0, 0.0),
        max_level: int | None = None,
    ) -> MaskHit | None:
        """The first moment ``circle`` (in mask coordinates), moving by ``delta``, overlaps
        a solid pixel of the mask, which moves by ``mask_delta`` (the semantics of
        :func:`collide2d.sweep` for a circle and the pixel squares).

        >>> Mask((4, 4), fill=True).sweep_circle(Circle(-10, 2, 2), (20, 0)).fraction
        0.4
        """
        from collide2d.mask.sweep import sweep_shape

        if not isinstance(circle, Circle):
            raise TypeError(f"circle must be a Circle, got {circle!r}")
        return sweep_shape(
            self, circle, _delta(delta, "delta"), _delta(mask_delta, "mask_delta"), max_level
        )

    # -- internals ---------------------------------------------------------------------------
    @property
    def bits(self) -> BoolArray:
        """The pixel array itself, ``[y, x]``, read-only (use the methods to edit)."""
        view = self._array().view()
        view.flags.writeable = False
        return view

    def words(self) -> NDArray[np.uint64]:
        """The pixels packed into 64-bit words and stored by word column, as
        pygame.mask stores them: ``words()[k, y]`` holds row ``y``'s pixels
        ``x = 64 k + i`` in bit ``i``, and each column ``words()[k]`` is contiguous.
        Cached until the next edit.

        >>> Mask.from_array([[1, 0, 1], [0, 1, 0]]).words()
        array([[5, 2]], dtype=uint64)
        """
        if self._words is None:
            w, h = self._size
            columns = max(1, -(-w // WORD))
            if self._bits is None:  # neither bools nor words: an empty mask
                self._words = np.zeros((columns, h), dtype=np.uint64)
                return self._words
            padded = np.zeros((h, columns * WORD), dtype=bool)
            padded[:, :w] = self._array()
            packed = np.packbits(padded, axis=1, bitorder="little").view("<u8")
            self._words = np.ascontiguousarray(packed.T, dtype=np.uint64)
        return self._words

    def runs(self) -> Runs:
        """Each row's solid pixels as runs ``[x0, x1)``: ``(starts, x0, x1, lo, hi)``
        with row ``y``'s runs at ``starts[y]:starts[y + 1]``, and each block of 32 rows'
        smallest start ``lo`` and largest end ``hi``. Cached until the next edit."""
        if self._runs is None:
            from collide2d._kernels.runs import BLOCK_ROWS, block_extents, build_runs

            starts, x0, x1 = build_runs(self._array())  # type: ignore[no-untyped-call]
            lo, hi = block_extents(starts, x0, x1, BLOCK_ROWS)  # type: ignore[no-untyped-call]
            self._runs = (starts, x0, x1, lo, hi)
        return self._runs

    def quadtree(self) -> MaskQuadtree:
        """The quadtree of the pixels, built on first use and cached until the next edit."""
        if self._tree is None:
            from collide2d.mask.quadtree import MaskQuadtree

            self._tree = MaskQuadtree(self)
        return self._tree

    def _array(self) -> BoolArray:
        """The bool pixels, unpacked from the packed words if only those exist."""
        if self._bits is None:
            w, h = self._size
            if self._words is None:  # neither bools nor words: an empty mask
                self._bits = np.zeros((h, w), dtype=bool)
                return self._bits
            rows = np.ascontiguousarray(self.words().T, dtype="<u8")
            unpacked = np.unpackbits(rows.view(np.uint8), axis=1, bitorder="little")
            self._bits = np.ascontiguousarray(unpacked[:, :w].astype(bool))
        return self._bits

    @classmethod
    def _from_words(cls, words: NDArray[np.uint64] | None, size: tuple[int, int]) -> Mask:
        """A mask of packed words (as :meth:`words` returns), unpacked only when needed;
        ``None`` makes an empty mask whose arrays are made only when asked for."""
        mask = cls.__new__(cls)
        mask._size = size
        mask._bits = None
        mask._words = words
        mask._runs = None
        mask._tree = None
        return mask

    def _changed(self) -> None:
        self._array()  # edits go to the bools: make sure they exist first
        self._words = None
        self._runs = None
        self._tree = None

    def _pixel(self, pos: tuple[int, int], name: str) -> tuple[int, int]:
        x, y = _int_pair(pos, name)
        w, h = self._size
        if not (0 <= x < w and 0 <= y < h):
            raise IndexError(f"{name}={pos!r} lies outside the {w}x{h} mask")
        return x, y

    def _window(self, other: Mask, offset: tuple[int, int]) -> tuple[Any, Any]:
        """Matching slices of ``self`` and ``other`` at an integer offset, or (None, None)."""
        other = _other(other)
        ox, oy = _int_pair(offset, "offset")
        w, h = self._size
        ow, oh = other._size
        x0, x1 = max(0, ox), min(w, ox + ow)
        y0, y1 = max(0, oy), min(h, oy + oh)
        if x0 >= x1 or y0 >= y1:
            return None, None
        return (slice(y0, y1), slice(x0, x1)), (slice(y0 - oy, y1 - oy), slice(x0 - ox, x1 - ox))


def _size(size: object) -> tuple[int, int]:
    w, h = _int_pair(size, "size")
    if w < 0 or h < 0:
        raise ValueError(f"size must not be negative, got {size!r}")
    return w, h


def _int_pair(value: object, name: str) -> tuple[int, int]:
    x, y = _checks.point(value, name)
    if not (float(x).is_integer() and float(y).is_integer()):
        raise ValueError(f"{name} must be whole numbers, got {value!r}")
    return int(x), int(y)


_EXACT = 2.0**52
"""Offsets up to this size place pixels exactly (every float beyond it is whole)."""


def _offset(offset: object) -> tuple[float, float]:
    if type(offset) is tuple and len(offset) == 2:  # the common case, checked quickly
        ox, oy = offset
        try:
            # False for NaN and infinities; raises for strings and other non-numbers
            if -_EXACT <= ox <= _EXACT and -_EXACT <= oy <= _EXACT:
                return offset
        except TypeError:
            pass
    ox, oy = _checks.xy(offset, "offset")
    if not (-_EXACT <= ox <= _EXACT and -_EXACT <= oy <= _EXACT):
        raise ValueError(f"offset is too large to place pixels exactly: {offset!r}")
    return ox, oy


def _delta(value: object, name: str) -> tuple[float, float]:
    x, y = _checks.point(value, name)
    return x, y


def _other(other: object) -> Mask:
    if not isinstance(other, Mask):
        raise TypeError(f"other must be a Mask, got {other!r}")
    return other
