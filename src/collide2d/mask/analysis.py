"""pygame.mask's shape analysis over a :class:`~collide2d.mask.storage.MaskStorage`:
moments, outline, connected components, bounding boxes, scaling and convolution.

Each function gives ``pygame.mask``'s answer (pygame-ce's documentation and
``src_c/mask.c`` are the specification; ``tests/mask/test_pygame_parity.py`` compares
the two on random and awkward masks), with two differences, both where pygame
departs from its own documentation: component sizes are exact (pygame's count can
lose pixels, so its ``connected_component()`` is sometimes not the largest and its
``minimum`` can drop a component big enough), and one-pixel-wide masks work (pygame
reads memory it never wrote there, and ``get_bounding_rects`` crashes). The work is
compiled and done on the mask's row runs and packed words, not pixel by pixel:
components, boxes and the outline in ``collide2d._kernels.mask.components``, moments and
``scale`` in ``collide2d._kernels.mask.runs``, ``convolve`` in
``collide2d._kernels.mask.convolve``. The functions that make masks
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

components = lazy("mask.components")
convolve_kernels = lazy("mask.convolve")
runs_kernels = lazy("mask.runs")

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
    """``m00, m10, m01, m20, m02, m11`` of the solid pixels, exact, from the row runs
    in closed form (in int64 where no sum can reach ``2**62``, else per row and
    summed in Python ints)."""
    runs = mask.runs()
    w, h = mask.size
    if max(w, h) ** 2 * w * h < 2**62:
        m00, m10, m01, m20, m02, m11 = runs_kernels.moments(runs.starts, runs.x0, runs.x1)
        return int(m00), int(m10), int(m01), int(m20), int(m02), int(m11)
    rows = runs_kernels.row_moments(runs.starts, runs.x0, runs.x1)
    m = [0, 0, 0, 0, 0, 0]
    for y, (c, sx, sxx) in enumerate(zip(*(a.tolist() for a in rows), strict=True)):
        m[0] += c
        m[1] += sx
        m[2] += y * c
        m[3] += sxx
        m[4] += y * y * c
        m[5] += y * sx
    return m[0], m[1], m[2], m[3], m[4], m[5]


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
    flat = mask._array().ravel()
    first = int(flat.argmax()) if flat.size else 0  # numpy stops at the first solid pixel
    if not flat.size or not flat[first]:
        return []
    w = mask.size[0]
    rows = components.outline(mask._array(), every, first % w, first // w)
    return list(zip(*rows.T.tolist(), strict=True))


def _labelled(mask: MaskStorage, minimum: int) -> tuple[np.ndarray, int, np.ndarray]:
    """Each run's component number, how many components, and their sizes."""
    runs = mask.runs()
    number, count, sizes = components.run_components(runs.starts, runs.x0, runs.x1, minimum)
    return number, int(count), sizes


def _component_masks(kind: type[M], mask: MaskStorage, number: np.ndarray, count: int,
                     keep: int) -> list[M]:  # fmt: skip
    """Full-size masks of the components (only component ``keep`` if ``keep > 0``),
    packed straight from the runs into words."""
    runs = mask.runs()
    w, h = mask.size
    columns = max(1, -(-w // WORD))
    words = np.zeros((1 if keep > 0 else count, columns, h), dtype=np.uint64)
    components.component_words(runs.starts, runs.x0, runs.x1, number, keep, words)
    new = kind._from_words
    size = (w, h)
    return [new(part, size) for part in words]


def connected_component(kind: type[M], mask: MaskStorage, pos: tuple[int, int] | None = None) -> M:
    """The largest 8-connected component (the first, row by row, among equals), or
    the component holding pixel ``pos`` (empty if that pixel is empty)."""
    w, h = mask.size
    empty = kind._from_words(None, (w, h))
    if pos is not None:
        px, py = pixel_pair(pos, "pos")
        if not (0 <= px < w and 0 <= py < h):
            raise IndexError(f"pos={pos!r} lies outside the {w}x{h} mask")
    if not w or not h:
        return empty
    number, count, sizes = _labelled(mask, 0)
    if not count:
        return empty
    if pos is None:
        keep = int(np.argmax(sizes)) + 1  # the first among equals
    else:
        runs = mask.runs()
        row = slice(runs.starts[py], runs.starts[py + 1])
        inside = np.flatnonzero((runs.x0[row] <= px) & (px < runs.x1[row]))
        if not inside.size:
            return empty
        keep = int(number[runs.starts[py] + inside[0]])
    return _component_masks(kind, mask, number, count, keep)[0]


def connected_components(kind: type[M], mask: MaskStorage, minimum: int = 0) -> list[M]:
    """Every 8-connected component of at least ``minimum`` pixels, as full-size masks,
    in the order of their first pixel (row by row)."""
    if isinstance(minimum, bool) or not isinstance(minimum, int):
        raise TypeError(f"minimum must be an int, got {minimum!r}")
    w, h = mask.size
    if not w or not h:
        return []
    number, count, _ = _labelled(mask, max(0, minimum))
    if not count:
        return []
    return _component_masks(kind, mask, number, count, 0)


def bounding_rects(mask: MaskStorage) -> list[Rect]:
    """The bounding box of each 8-connected component, in the order of their first
    pixel (row by row)."""
    w, h = mask.size
    if not w or not h:
        return []
    number, count, _ = _labelled(mask, 0)
    runs = mask.runs()
    boxes = components.component_boxes(runs.starts, runs.x0, runs.x1, number, count)
    new = tuple.__new__  # whole, non-negative, finite: Rect's checks would pass
    return [new(Rect, row) for row in boxes.astype(np.float64).tolist()]


def scale(kind: type[M], mask: MaskStorage, scale: tuple[int, int]) -> M:
    """The mask scaled to the size ``scale`` by nearest pixel: output pixel ``(i, j)``
    is pixel ``(i * w // new_w, j * h // new_h)``."""
    nw, nh = int_pair(scale, "scale")
    if nw < 0 or nh < 0:
        raise ValueError(f"scale must not be negative, got {scale!r}")
    w, h = mask.size
    if not w or not h or not nw or not nh:
        return kind._from_bits(np.zeros((nh, nw), dtype=bool))
    runs = mask.runs()
    words = np.zeros((1, -(-nw // WORD), nh), dtype=np.uint64)
    runs_kernels.scaled_words(runs.starts, runs.x0, runs.x1, w, nw, words)
    return kind._from_words(words[0], (nw, nh))


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
        (w, h), (ow, oh) = mask.size, other.size
        size = (max(0, w + ow - 1), max(0, h + oh - 1))
        words = _convolved_words(mask, other, size, ox, oy)
        return kind._from_words(None if words is None else np.ascontiguousarray(words.T), size)
    if not isinstance(output, MaskStorage):
        raise TypeError(f"output must be a Mask or None, got {output!r}")
    words = _convolved_words(mask, other, output.size, ox, oy)
    if words is not None:
        pixels = output._array()
        unpacked = np.unpackbits(words.view(np.uint8), axis=1, bitorder="little")
        pixels |= unpacked[:, : output.size[0]].view(bool)
        output._changed()
    return output


def _convolved_words(
    a: MaskStorage, b: MaskStorage, size: tuple[int, int], ox: int, oy: int
) -> np.ndarray | None:
    """``a (+) b`` turned half a turn, moved by the offset, clipped to ``size``, as
    rows of words (None if nothing can be set). The mask with fewer runs for the
    other's size is read as runs, the other as words
    (:mod:`collide2d._kernels.mask.convolve`)."""
    ow, oh = size
    (aw, ah), (bw, bh) = a.size, b.size
    if not (aw and ah and bw and bh and ow and oh):
        return None
    # pixel (x', y') of the turned b is b's (bw - 1 - x', bh - 1 - y')
    turned = np.ascontiguousarray(b._array()[::-1, ::-1])
    a_runs, b_runs = a.runs(), b.runs()
    if a_runs.x0.size * bh * (bw // WORD + 1) <= b_runs.x0.size * ah * (aw // WORD + 1):
        starts, x0, x1 = a_runs.starts, a_runs.x0, a_runs.x1
        dense, width = _row_words(turned), bw
    else:
        starts, x0, x1 = runs_kernels.runs_from_words(
            np.ascontiguousarray(_row_words(turned).T), bw
        )
        dense, width = np.ascontiguousarray(a.words().T), aw
    out = np.zeros((oh, -(-ow // WORD)), dtype=np.uint64)
    convolve_kernels.dilate_sum(starts, x0, x1, dense, width, out, ow, ox, oy)
    return out


def _row_words(bits: np.ndarray) -> np.ndarray:
    """Bools ``[y, x]`` packed row by row into uint64 words (``[y, k]``)."""
    h, w = bits.shape
    padded = np.zeros((h, -(-w // WORD) * WORD), dtype=bool)
    padded[:, :w] = bits
    return np.packbits(padded, axis=1, bitorder="little").view("<u8").astype(np.uint64)


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
            # pygame sets the attribute on its Rect, which has none of that name
            raise AttributeError(f"get_rect(): a Rect has no attribute {name!r}")
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
