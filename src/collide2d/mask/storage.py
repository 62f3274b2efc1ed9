"""A mask's pixels and the representations derived from them.

:class:`MaskStorage` owns the bool pixels and three caches built from them on
first use: the packed words, the row runs and the quadtree. Every edit goes
through :meth:`MaskStorage._changed`, which drops all three, and every copy gets
caches of its own, so no query can see a stale representation. The operations
(queries and sweeps) are plain functions over these typed accessors, in
``queries.py`` and ``sweep.py``; :class:`~collide2d.Mask` adds them as methods.
"""

from __future__ import annotations

import copy
from typing import Any, NamedTuple, TypeVar

import numpy as np
from numpy.typing import NDArray

from collide2d._kernels import lazy
from collide2d._typing import BoolArray, WordArray
from collide2d.geometry import _checks
from collide2d.geometry.rect import Rect
from collide2d.mask.quadtree import MaskQuadtree

runs_kernels = lazy("mask.runs")

WORD = 64
"""Pixels per packed word."""

Self = TypeVar("Self", bound="MaskStorage")


def _full_words(w: int, h: int) -> WordArray:
    """The packed words of a ``w`` by ``h`` mask with every pixel solid."""
    columns = max(1, -(-w // WORD))
    words = np.full((columns, h), np.uint64(2**64 - 1), dtype=np.uint64)
    if w % WORD:
        words[-1] = np.uint64((1 << (w % WORD)) - 1)
    if w == 0:
        words[:] = 0
    return words


class Runs(NamedTuple):
    """Each row's solid pixels as runs ``[x0, x1)``.

    Row ``y``'s runs are ``x0[starts[y]:starts[y + 1]]`` and ``x1[...]``; ``lo`` and
    ``hi`` are each block of 32 rows' smallest run start and largest run end.
    """

    starts: NDArray[np.int64]
    x0: NDArray[np.int64]
    x1: NDArray[np.int64]
    lo: NDArray[np.int64]
    hi: NDArray[np.int64]


class MaskStorage:
    """The pixels of a mask, pixel ``(x, y)`` being the unit square ``[x, x+1) x [y, y+1)``,
    with packed words, runs and a quadtree derived on demand (see the module docstring).

    Parameters
    ----------
    size : (int, int)
        ``(width, height)``; zero is allowed.
    fill : bool, default False
        Whether every pixel starts solid.
    """

    __slots__ = ("_bits", "_boxes", "_runs", "_size", "_spans", "_tree", "_words")

    def __init__(self, size: tuple[int, int], fill: bool = False) -> None:
        w, h = _size(size)
        if not (isinstance(fill, (bool, np.bool_)) or (type(fill) is int and fill in (0, 1))):
            raise TypeError(f"fill must be a bool, got {fill!r}")
        self._size = (w, h)
        # The pixels as bools; None while only the packed words exist (a mask made
        # from words, such as an overlap mask, or a new one), unpacked on first use.
        # A new mask makes no pixel array at all when empty, and only the packed
        # words (an eighth of the bools) when full: Mask((100000, 100000)) is
        # instant, as in pygame, and its pixels cost memory only once edited.
        self._bits: BoolArray | None = None
        self._words: WordArray | None = _full_words(w, h) if fill else None
        self._runs: Runs | None = None
        self._tree: MaskQuadtree | None = None
        self._boxes: NDArray[np.int64] | None = None
        self._spans: tuple[NDArray[np.int64], NDArray[np.int64]] | bool | None = None

    @classmethod
    def _from_bits(cls: type[Self], bits: BoolArray) -> Self:
        """A mask that takes ownership of ``bits`` (C-contiguous bools ``[y, x]``)."""
        mask = cls.__new__(cls)
        mask._bits = bits
        mask._size = (int(bits.shape[1]), int(bits.shape[0]))
        mask._words = None
        mask._runs = None
        mask._tree = None
        mask._boxes = None
        mask._spans = None
        return mask

    @classmethod
    def _from_words(cls: type[Self], words: WordArray | None, size: tuple[int, int]) -> Self:
        """A mask of packed words (as :meth:`words` returns), unpacked only when needed;
        ``None`` makes an empty mask whose arrays are made only when asked for."""
        mask = cls.__new__(cls)
        mask._size = size
        mask._bits = None
        mask._words = words
        mask._runs = None
        mask._tree = None
        mask._boxes = None
        mask._spans = None
        return mask

    # -- size and pixels -----------------------------------------------------------------
    @property
    def size(self) -> tuple[int, int]:
        """``(width, height)``."""
        return self._size

    def get_size(self) -> tuple[int, int]:
        """``(width, height)``: :attr:`size` under pygame's name."""
        return self._size

    @property
    def width(self) -> int:
        """Pixels per row."""
        return self._size[0]

    @property
    def height(self) -> int:
        """Rows."""
        return self._size[1]

    @property
    def bits(self) -> BoolArray:
        """The pixel array itself, ``[y, x]``, read-only (use the methods to edit)."""
        view = self._array().view()
        view.flags.writeable = False
        return view

    def to_array(self) -> BoolArray:
        """A copy of the pixels as a bool array indexed ``[y, x]``."""
        return self._array().copy()

    def get_at(self, pos: tuple[int, int]) -> bool:
        """Whether pixel ``pos = (x, y)`` is solid. Fractions are truncated toward
        zero, as pygame truncates them: ``(1.9, -0.5)`` is pixel ``(1, 0)``.

        >>> from collide2d import Mask
        >>> Mask.from_array([[0, 1]]).get_at((1.9, -0.5))
        True

        Raises
        ------
        IndexError
            If ``pos`` lies outside the mask.
        """
        x, y = self._pixel(pos, "pos")
        if self._bits is None:  # read the packed words rather than unpack them all
            if self._words is None:
                return False
            return bool((int(self._words[x // WORD, y]) >> (x % WORD)) & 1)
        return bool(self._bits[y, x])

    def count(self) -> int:
        """The number of solid pixels."""
        if self._bits is None:
            if self._words is None:
                return 0
            return int(np.bitwise_count(self._words).sum(dtype=np.int64))
        return int(np.count_nonzero(self._bits))

    def bounding_rect(self) -> Rect:
        """The smallest rectangle holding every solid pixel (``Rect(0, 0, 0, 0)`` if none).

        >>> from collide2d import Mask
        >>> Mask.from_array([[0, 0, 0], [0, 1, 1]]).bounding_rect()
        Rect(x=1.0, y=1.0, w=2.0, h=1.0)
        """
        ys, xs = np.nonzero(self._array())
        if xs.size == 0:
            return Rect(0, 0, 0, 0)
        return Rect(
            int(xs.min()), int(ys.min()), int(xs.max() - xs.min() + 1), int(ys.max() - ys.min() + 1)
        )

    # -- derived representations ---------------------------------------------------------
    def words(self) -> WordArray:
        """The pixels packed into 64-bit words and stored by word column, as
        pygame.mask stores them: ``words()[k, y]`` holds row ``y``'s pixels
        ``x = 64 k + i`` in bit ``i``, and each column ``words()[k]`` is contiguous.
        Cached until the next edit.

        >>> from collide2d import Mask
        >>> Mask.from_array([[1, 0, 1], [0, 1, 0]]).words()
        array([[5, 2]], dtype=uint64)
        """
        words = self._words
        if words is None:
            w, h = self._size
            columns = max(1, -(-w // WORD))
            if self._bits is None:  # neither bools nor words: an empty mask
                words = np.zeros((columns, h), dtype=np.uint64)
            else:
                padded = np.zeros((h, columns * WORD), dtype=bool)
                padded[:, :w] = self._bits
                packed = np.packbits(padded, axis=1, bitorder="little").view("<u8")
                words = np.ascontiguousarray(packed.T, dtype=np.uint64)
            self._words = words
        return words

    def __buffer__(self, flags: int) -> memoryview:
        """``memoryview(mask)`` (Python 3.12 and later): the packed words of
        :meth:`words`, read-only, shaped and strided as pygame's ``Mask`` buffer on a
        64-bit platform. Before 3.12, ``memoryview(mask.words())`` is the same view."""
        return self.words().data.toreadonly()

    def runs(self) -> Runs:
        """Each row's solid pixels as runs (see :class:`Runs`). Cached until the next edit."""
        runs = self._runs
        if runs is None:
            starts, x0, x1 = runs_kernels.runs_from_words(self.words(), self._size[0])
            lo, hi = runs_kernels.block_extents(starts, x0, x1, runs_kernels.BLOCK_ROWS)
            runs = self._runs = Runs(starts, x0, x1, lo, hi)
        return runs

    def spans(self) -> tuple[NDArray[np.int64], NDArray[np.int64]] | None:
        """Each row's one run as ``(x0[y], x1[y])`` (``0, 0`` for an empty row), or
        None when some row has two runs or more. Solid convex shapes (disks, boxes)
        have these: their overlap area is then one contiguous loop over rows that
        LLVM vectorizes, five times faster than merging runs. Cached until the next
        edit.

        >>> from collide2d import Mask
        >>> [a.tolist() for a in Mask.from_array([[0, 1, 1], [0, 0, 0]]).spans()]
        [[1, 0], [3, 0]]
        >>> Mask.from_array([[1, 0, 1]]).spans() is None
        True
        """
        spans = self._spans
        if spans is None:
            starts, x0, x1, _, _ = self.runs()
            counts = np.diff(starts)
            if counts.size and counts.max() > 1:
                spans = False
            else:
                first = np.minimum(starts[:-1], max(x0.size - 1, 0))
                solid = counts > 0
                if x0.size:
                    spans = (np.where(solid, x0[first], 0), np.where(solid, x1[first], 0))
                else:
                    spans = (np.zeros(counts.size, np.int64), np.zeros(counts.size, np.int64))
            self._spans = spans
        return None if spans is False else spans  # type: ignore[return-value]

    def boxes(self) -> NDArray[np.int64]:
        """The solid pixels as non-overlapping boxes, rows ``x0, y0, x1, y1`` sorted by
        ``(y0, x0)`` (equal runs of consecutive rows stacked). Cached until the next
        edit."""
        boxes = self._boxes
        if boxes is None:
            runs = self.runs()
            boxes = self._boxes = runs_kernels.stacked_boxes(runs.starts, runs.x0, runs.x1)
        return boxes

    @property
    def cached_runs(self) -> Runs | None:
        """The runs if they are built already, else None (building them has a cost)."""
        return self._runs

    def cached(self) -> tuple[int, Runs | None, WordArray | None]:
        """The number of pixels and the runs and packed words built so far (None where
        not built), in one call: a query's choice of representation runs before every
        query, and at 512 x 512 a query's Python costs as much as the kernel."""
        w, h = self._size
        return w * h, self._runs, self._words

    def quadtree(self) -> MaskQuadtree:
        """The quadtree of the pixels, built on first use and cached until the next edit."""
        tree = self._tree
        if tree is None:
            tree = self._tree = MaskQuadtree(self._array())
        return tree

    # -- editing -------------------------------------------------------------------------
    def set_at(self, pos: tuple[int, int], value: bool = True) -> None:
        """Make pixel ``pos = (x, y)`` solid (or empty with ``value=False``); ``pos`` as
        in :meth:`get_at`."""
        x, y = self._pixel(pos, "pos")
        self._array()[y, x] = bool(value)
        self._changed()

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

    def draw(self, other: MaskStorage, offset: tuple[int, int]) -> None:
        """Make solid every pixel under a solid pixel of ``other`` placed at ``offset``
        (integer, ``other.topleft - self.topleft``)."""
        mine, theirs = self._window(other, offset)
        if mine is not None:
            self._array()[mine] |= other._array()[theirs]
            self._changed()

    def erase(self, other: MaskStorage, offset: tuple[int, int]) -> None:
        """Make empty every pixel under a solid pixel of ``other`` placed at ``offset``."""
        mine, theirs = self._window(other, offset)
        if mine is not None:
            self._array()[mine] &= ~other._array()[theirs]
            self._changed()

    # -- copies and comparison -----------------------------------------------------------
    def copy(self: Self) -> Self:
        """An independent copy of the pixels, of the same class (caches are not shared).

        As pygame's ``Mask.copy``: it returns ``self.__copy__()``, and ``__copy__``
        copies the pixels only, not a subclass's own attributes; a subclass that wants
        those copied overrides ``__copy__`` (and then ``copy()`` and ``copy.copy`` both
        carry them) or ``copy``. ``copy.deepcopy`` also deep-copies the attributes
        (pygame cannot deep-copy a mask).
        """
        return self.__copy__()

    def __copy__(self: Self) -> Self:
        return type(self)._from_bits(self._array().copy())

    def __deepcopy__(self: Self, memo: dict[int, Any]) -> Self:
        clone = self.__copy__()
        state = getattr(self, "__dict__", None)  # a subclass's own attributes
        if state:
            clone.__dict__.update(copy.deepcopy(state, memo))
        return clone

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, MaskStorage):
            return NotImplemented
        return self._size == other._size and bool(np.array_equal(self._array(), other._array()))

    __hash__ = None  # type: ignore[assignment]  # masks are mutable

    def __repr__(self) -> str:
        return f"{type(self).__name__}(size={self.size}, count={self.count()})"

    # -- internals -------------------------------------------------------------------------
    def _array(self) -> BoolArray:
        """The bool pixels, unpacked from the packed words if only those exist."""
        bits = self._bits
        if bits is None:
            w, h = self._size
            if self._words is None:  # neither bools nor words: an empty mask
                bits = np.zeros((h, w), dtype=bool)
            else:
                rows = np.ascontiguousarray(self._words.T, dtype="<u8")
                unpacked = np.unpackbits(rows.view(np.uint8), axis=1, bitorder="little")
                bits = np.ascontiguousarray(unpacked[:, :w].astype(bool))
            self._bits = bits
        return bits

    def _changed(self) -> None:
        """Drop every derived representation: the bools were just edited."""
        self._words = None
        self._runs = None
        self._tree = None
        self._boxes = None
        self._spans = None

    def _pixel(self, pos: tuple[int, int], name: str) -> tuple[int, int]:
        x, y = pixel_pair(pos, name)
        w, h = self._size
        if not (0 <= x < w and 0 <= y < h):
            raise IndexError(f"{name}={pos!r} lies outside the {w}x{h} mask")
        return x, y

    def _window(self, other: MaskStorage, offset: tuple[int, int]) -> tuple[Any, Any]:
        """Matching slices of ``self`` and ``other`` at an integer offset, or (None, None)."""
        if not isinstance(other, MaskStorage):
            raise TypeError(f"other must be a Mask, got {other!r}")
        ox, oy = int_pair(offset, "offset")
        w, h = self._size
        ow, oh = other._size
        x0, x1 = max(0, ox), min(w, ox + ow)
        y0, y1 = max(0, oy), min(h, oy + oh)
        if x0 >= x1 or y0 >= y1:
            return None, None
        return (slice(y0, y1), slice(x0, x1)), (slice(y0 - oy, y1 - oy), slice(x0 - ox, x1 - ox))


def _size(size: object) -> tuple[int, int]:
    w, h = int_pair(size, "size")
    if w < 0 or h < 0:
        raise ValueError(f"size must not be negative, got {size!r}")
    return w, h


def pixel_pair(value: object, name: str) -> tuple[int, int]:
    """A pixel position: two finite numbers, truncated toward zero as pygame truncates
    them (``(1.9, -0.5)`` is pixel ``(1, 0)``), or an error naming ``name``."""
    if type(value) is tuple and len(value) == 2 and type(value[0]) is int and type(value[1]) is int:
        return value  # the common case, checked quickly
    x, y = _checks.point(value, name)
    return int(x), int(y)


def int_pair(value: object, name: str) -> tuple[int, int]:
    """``value`` as two whole numbers, or a ``ValueError`` naming ``name``."""
    x, y = _checks.point(value, name)
    if not (float(x).is_integer() and float(y).is_integer()):
        raise ValueError(f"{name} must be whole numbers, got {value!r}")
    return int(x), int(y)
