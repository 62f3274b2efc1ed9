"""pygame.mask's shape analysis over a :class:`~collide2d.mask.storage.MaskStorage`:
moments, outline, connected components, bounding boxes, scaling and convolution.

Each function gives ``pygame.mask``'s answer (pygame-ce's documentation and
``src_c/mask.c`` are the specification; ``tests/mask/test_pygame_parity.py`` compares
the two on random and awkward masks), with two differences, both where pygame
departs from its own documentation: component sizes are exact (pygame's count can
lose pixels, so its ``connected_component()`` is sometimes not the largest and its
``minimum`` can drop a component big enough), and one-pixel-wide masks work (pygame
reads memory it never wrote there, and ``get_bounding_rects`` crashes). Loops over
pixels are compiled (``collide2d._kernels.components``). The functions that make masks
take the class to make, ``kind``: ``Mask`` passes itself, so that a subclass's
``scale``, ``convolve`` and components are plain masks, as in pygame.
"""

from __future__ import annotations

import math
from typing import TypeVar

import numpy as np

from collide2d._kernels import lazy
from collide2d.geometry import _checks
from collide2d.geometry.rect import Rect
from collide2d.mask.storage import WORD, MaskStorage, int_pair, pixel_pair

components = lazy("components")

M = TypeVar("M", bound=MaskStorage)

RECT_PLACES = {
    "x": ("x", 0), "left": ("x", 0), "y": ("y", 0), "top": ("y", 0),
    "right": ("x", 2), "bottom": ("y", 2), "centerx": ("x", 1), "centery": ("y", 1),
}  # fmt: skip
"""``get_rect`` keywords of one number: its axis and where on it the value sits, in
half sizes (the left edge is the value minus that many half widths)."""
RECT_POINTS = {
    "topleft": (0, 0), "topright": (2, 0), "bottomleft": (0, 2), "bottomright": (2, 2),
    "center": (1, 1), "midtop": (1, 0), "midbottom": (1, 2), "midleft": (0, 1),
    "midright": (2, 1),
}  # fmt: skip
"""``get_rect`` keywords of a point: where on the width and height it sits, in halves."""
RECT_SIZES = {"size": None, "width": "w", "w": "w", "height": "h", "h": "h"}
"""``get_rect`` keywords that resize the rectangle (its top left corner stays)."""


def _moments(mask: MaskStorage) -> tuple[int, int, int, int, int, int]:
    """``m00, m10, m01, m20, m02, m11`` of the solid pixels (Python ints: exact)."""
    ys, xs = np.nonzero(mask._array())
    x = xs.astype(np.int64)
    y = ys.astype(np.int64)
    return (
        int(x.size), int(x.sum()), int(y.sum()),
        int((x * x).sum()), int((y * y).sum()), int((x * y).sum()),
    )  # fmt: skip


def centroid(mask: MaskStorage) -> tuple[int, int]:
    """The mean solid pixel, each coordinate rounded down; ``(0, 0)`` if none."""
    m00, m10, m01, *_ = _moments(mask)
    return (m10 // m00, m01 // m00) if m00 else (0, 0)


def angle(mask: MaskStorage) -> float:
    """The orientation of the solid pixels in degrees, in ``(-90, 90]``, from their
    second moments in pygame's integer arithmetic; 0 if none."""
    m00, m10, m01, m20, m02, m11 = _moments(mask)
    if not m00:
        return 0.0
    xc, yc = m10 // m00, m01 // m00
    return -90.0 * math.atan2(
        2 * (m11 // m00 - xc * yc), (m20 // m00 - xc * xc) - (m02 // m00 - yc * yc)
    ) / math.pi  # fmt: skip


def outline(mask: MaskStorage, every: int = 1) -> list[tuple[int, int]]:
    """The pixels along the border of the first component in raster order, every
    ``every``-th one, as pygame traces them."""
    if isinstance(every, bool) or not isinstance(every, int):
        raise TypeError(f"every must be an int, got {every!r}")
    w, h = mask.size
    if not w or not h:
        return []
    rows = components.outline(mask._array(), every)
    return [(x, y) for x, y in rows.tolist()]


def connected_component(kind: type[M], mask: MaskStorage, pos: tuple[int, int] | None = None) -> M:
    """The largest 8-connected component (the first, row by row, among equals), or
    the component holding pixel ``pos`` (empty if that pixel is empty)."""
    w, h = mask.size
    if pos is None:
        px, py = -1, -1
    else:
        px, py = pixel_pair(pos, "pos")
        if not (0 <= px < w and 0 <= py < h):
            raise IndexError(f"pos={pos!r} lies outside the {w}x{h} mask")
        if not mask._array()[py, px]:
            return kind._from_bits(np.zeros((h, w), dtype=bool))
    if not w or not h:
        return kind._from_bits(np.zeros((h, w), dtype=bool))
    return kind._from_bits(components.largest(mask._array(), px, py))


def connected_components(kind: type[M], mask: MaskStorage, minimum: int = 0) -> list[M]:
    """Every 8-connected component of at least ``minimum`` pixels, as full-size masks,
    in the order of their first pixel (row by row)."""
    if isinstance(minimum, bool) or not isinstance(minimum, int):
        raise TypeError(f"minimum must be an int, got {minimum!r}")
    w, h = mask.size
    if not w or not h:
        return []
    numbers, count = components.components(mask._array(), max(0, minimum))
    # Each component's pixels, grouped by number, packed straight into words (a
    # full-size bool array per component would cost eight times the memory).
    flat = numbers.ravel()
    at = np.flatnonzero(flat)
    at = at[np.argsort(flat[at], kind="stable")]
    ends = np.searchsorted(flat[at], np.arange(1, count + 2), side="left")
    ys, xs = np.divmod(at, w)
    column, bit = xs // WORD, np.left_shift(np.uint64(1), (xs % WORD).astype(np.uint64))
    found = []
    for k in range(count):
        part = slice(ends[k], ends[k + 1])
        words = np.zeros((max(1, -(-w // WORD)), h), dtype=np.uint64)
        np.bitwise_or.at(words, (column[part], ys[part]), bit[part])
        found.append(kind._from_words(words, (w, h)))
    return found


def bounding_rects(mask: MaskStorage) -> list[Rect]:
    """The bounding box of each 8-connected component, in the order of their first
    pixel (row by row)."""
    w, h = mask.size
    if not w or not h:
        return []
    numbers, count = components.components(mask._array(), 0)
    boxes = components.bounding_boxes(numbers, count).astype(np.float64)
    new = tuple.__new__  # whole, non-negative, finite: Rect's checks would pass
    return [new(Rect, row) for row in boxes.tolist()]


def scale(kind: type[M], mask: MaskStorage, scale: tuple[int, int]) -> M:
    """The mask scaled to the size ``scale`` by nearest pixel: output pixel ``(i, j)``
    is pixel ``(i * w // new_w, j * h // new_h)``."""
    nw, nh = int_pair(scale, "scale")
    if nw < 0 or nh < 0:
        raise ValueError(f"scale must not be negative, got {scale!r}")
    w, h = mask.size
    if not w or not h or not nw or not nh:
        return kind._from_bits(np.zeros((nh, nw), dtype=bool))
    cols = np.arange(nw, dtype=np.int64) * w // nw
    rows = np.arange(nh, dtype=np.int64) * h // nh
    return kind._from_bits(np.ascontiguousarray(mask._array()[np.ix_(rows, cols)]))


def convolve(
    kind: type[M],
    mask: MaskStorage,
    other: MaskStorage,
    output: M | None = None,
    offset: tuple[int, int] = (0, 0),
) -> M:
    """Where ``other`` overlaps ``mask``: pixel ``(x, y)`` of the result is solid when
    ``other`` placed at ``(x, y) - offset - (other.w - 1, other.h - 1)`` overlaps
    ``mask``. Written into ``output`` (kept, OR-ed) if given, else into a new mask of
    size ``(w + other.w - 1, h + other.h - 1)``."""
    if not isinstance(other, MaskStorage):
        raise TypeError(f"other must be a Mask, got {other!r}")
    ox, oy = int_pair(offset, "offset")
    if output is None:
        w, h = mask.size
        ow, oh = other.size
        output = kind((max(0, w + ow - 1), max(0, h + oh - 1)))
    elif not isinstance(output, MaskStorage):
        raise TypeError(f"output must be a Mask or None, got {output!r}")
    pixels = output._array()
    components.convolve(mask._array(), other._array(), pixels, ox, oy)
    output._changed()
    return output


def get_rect(mask: MaskStorage, **place: object) -> Rect:
    """``Rect(0, 0, w, h)`` changed by keywords, in their order, as setting those
    attributes of a ``pygame.Rect`` changes it (``center=(5, 5)``, ``right=10``,
    ``size=(3, 2)``...): with whole values, pygame's integer rectangle (a centre is
    ``x + w // 2``); with a fractional one, the exact rectangle (pygame would
    truncate: a ``pygame.FRect``'s answer, in double precision)."""
    numbers: dict[str, tuple[float, ...]] = {}
    for name, value in place.items():
        if name in RECT_PLACES:
            numbers[name] = (_checks.real(value, name),)
        elif name in RECT_POINTS or name == "size":
            numbers[name] = _checks.point(value, name)
        elif name in RECT_SIZES:
            numbers[name] = (_checks.size(value, name),)
        else:
            raise TypeError(f"get_rect() got an unexpected keyword {name!r}")
    whole = all(float(v).is_integer() for values in numbers.values() for v in values)

    def at(value: float, halves: int, size: float) -> float:
        """The left (top) edge that puts ``halves`` half sizes at ``value``."""
        if whole:
            return value - (size if halves == 2 else size // 2 if halves == 1 else 0)
        return value - halves * size / 2

    x, y = 0.0, 0.0
    w, h = (float(v) for v in mask.size)
    for name, values in numbers.items():
        if name in RECT_PLACES:
            axis, halves = RECT_PLACES[name]
            if axis == "x":
                x = at(values[0], halves, w)
            else:
                y = at(values[0], halves, h)
        elif name in RECT_POINTS:
            hx, hy = RECT_POINTS[name]
            x, y = at(values[0], hx, w), at(values[1], hy, h)
        elif name == "size":
            w, h = _checks.size(values[0], "size"), _checks.size(values[1], "size")
        elif RECT_SIZES[name] == "w":
            w = values[0]
        else:
            h = values[0]
    return Rect(x, y, w, h)
