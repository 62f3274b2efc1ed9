"""Pixel masks: binary pixel grids, such as the solid pixels of a sprite."""

from __future__ import annotations

import math
from numbers import Real
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from collide2d import _deprecation
from collide2d._typing import BoolArray
from collide2d.continuous.hit import Hit
from collide2d.geometry import _checks
from collide2d.geometry.circle import Circle
from collide2d.geometry.polygon import Polygon
from collide2d.geometry.rect import Rect
from collide2d.geometry.rect_like import checked_rect
from collide2d.mask import analysis, queries
from collide2d.mask.polygon import rasterize
from collide2d.mask.queries import NodePairs
from collide2d.mask.storage import MaskStorage, _size
from collide2d.mask.sweep import sweep_masks, sweep_shape
from collide2d.tolerances import MASK_OFFSET_EXACT


class Mask(MaskStorage):
    """A binary pixel grid: pixel ``(x, y)`` is the unit square ``[x, x+1) x [y, y+1)``.

    The pixels live in a bool array indexed ``[y, x]``; the API speaks ``(x, y)``.
    Queries against another mask take ``offset = other.topleft - self.topleft``,
    which may be fractional. Overlap is strict as everywhere in collide2d: two
    pixels overlap when their open squares share area. Storage, edits and copies
    are those of :class:`~collide2d.mask.storage.MaskStorage`; each query below is a
    thin wrapper over a function of ``collide2d.mask.queries`` or
    ``collide2d.mask.sweep``.

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

    __slots__ = ()

    # -- construction ----------------------------------------------------------------------
    @classmethod
    def from_array(cls, array: ArrayLike) -> Mask:
        """A mask whose pixel ``(x, y)`` is ``bool(array[y][x])`` (the array is copied).

        ``array`` holds booleans or real numbers (non-zero is solid).

        Raises
        ------
        TypeError
            If ``array`` holds anything but booleans and real numbers (strings, None,
            complex numbers).
        ValueError
            If ``array`` is not two-dimensional, or holds NaN or an infinity.

        Examples
        --------
        >>> Mask.from_array([[0, 1], [1, 1]]).count()
        3
        """
        pixels = _pixels(array)
        if pixels.ndim != 2:
            raise ValueError(f"array must be two-dimensional [y, x], got shape {pixels.shape}")
        return cls._from_bits(np.ascontiguousarray(pixels))

    @classmethod
    def from_polygon(cls, polygon: Polygon, size: tuple[int, int] | None = None) -> Mask:
        """The pixels whose centres a polygon covers, in the polygon's coordinates.

        Pixel ``(x, y)`` is the square ``[x, x+1) x [y, y+1)`` of the polygon's own
        coordinates; it is solid when its centre ``(x + 0.5, y + 0.5)`` is inside the
        polygon, decided exactly, a centre on the boundary counting on left and top
        edges only (the rasterisers' top-left rule: polygons that share an edge never
        both take a pixel). Translate the polygon first to place it in the mask.

        Parameters
        ----------
        polygon : Polygon
            The convex polygon.
        size : (int, int), optional
            ``(width, height)``; by default just large enough to hold the polygon's
            right and bottom ends (parts at negative coordinates are cut off).

        Examples
        --------
        >>> from collide2d import Polygon
        >>> diamond = Mask.from_polygon(Polygon([(2, 0), (4, 2), (2, 4), (0, 2)]))
        >>> diamond.to_array().astype(int)  # centres on its right edges are left out
        array([[0, 1, 0, 0],
               [1, 1, 1, 0],
               [1, 1, 1, 0],
               [0, 1, 0, 0]])
        >>> Mask.from_polygon(Polygon.box(2, 1, 2, 2), size=(5, 3)).count()
        4
        """
        if not isinstance(polygon, Polygon):
            raise TypeError(f"polygon must be a Polygon, got {polygon!r}")
        if size is None:
            box = polygon.bounding_rect
            size = (max(0, math.ceil(box.right)), max(0, math.ceil(box.bottom)))
        else:
            size = _size(size)
        return cls._from_bits(rasterize(polygon.vertices, size))

    @classmethod
    def from_image(
        cls,
        image: str | Path | Any,
        threshold: int = 127,
        colorkey: tuple[int, int, int] | None = None,
    ) -> Mask:
        """Deprecated: :func:`collide2d.interop.image.mask_from_image` (image decoding
        lives at the edge of the library, with the pygame conversions)."""
        from collide2d.interop.image import mask_from_image  # the deprecated route only

        _deprecation.warn("Mask.from_image", "collide2d.interop.image.mask_from_image")
        return mask_from_image(image, threshold, colorkey)

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
            return queries.overlaps(self, other, ox, oy)
        return queries.tree_overlaps(self, other, (ox, oy), max_level, other_max_level)

    def overlap_pairs(
        self,
        other: Mask,
        offset: tuple[float, float],
        max_level: int | None = None,
        other_max_level: int | None = None,
    ) -> NodePairs:
        """Every pair of intersecting quadtree nodes ("all intersections").

        Nodes are cut at ``max_level`` (``self``) and ``other_max_level`` (``other``),
        each at full detail (single pixels) by default, so that the default lists every
        pair of overlapping pixels. Rectangles are in each mask's own coordinates.

        >>> pairs = Mask((2, 1), fill=True).overlap_pairs(Mask((1, 1), fill=True), (0.5, 0))
        >>> pairs.a_rects.tolist(), pairs.b_rects.tolist()
        ([[0.0, 0.0, 1.0, 1.0], [1.0, 0.0, 1.0, 1.0]], [[0.0, 0.0, 1.0, 1.0], [0.0, 0.0, 1.0, 1.0]])
        """
        return queries.tree_pairs(self, _other(other), _offset(offset), max_level, other_max_level)

    def overlap(self, other: Mask, offset: tuple[float, float]) -> tuple[int, int] | None:
        """A pixel of ``self`` that overlaps a solid pixel of ``other`` at ``offset``, or
        None.

        At a whole offset it is the pixel pygame-ce returns: the first met in pygame's
        scan of 64-pixel-wide word columns (column by column, each from the top; see
        :func:`collide2d._kernels.mask.bits.first_overlap_striped`), so a game moved over
        from ``pygame.mask`` gets the same points. At a fractional offset (which pygame
        does not have) it is the first row by row: smallest y, then smallest x.

        >>> Mask((3, 3), fill=True).overlap(Mask((2, 2), fill=True), (1.5, 1))
        (1, 1)
        >>> wide = Mask((130, 2), fill=True)
        >>> wide.overlap(wide, (0, 1)), wide.overlap(wide, (70, 0))
        ((0, 1), (70, 0))
        """
        return queries.overlap_point(self, _other(other), *_offset(offset))

    def overlap_area(self, other: Mask, offset: tuple[float, float]) -> float:
        """The area shared by the two pixel sets, as unit squares: an ``int`` when the
        offset is integral, else a float (sums of ``(1 - fx)(1 - fy)``-style shares)."""
        return queries.overlap_area(self, _other(other), *_offset(offset))

    def overlap_mask(self, other: Mask, offset: tuple[float, float]) -> Mask:
        """The pixels of ``self`` whose squares share area with a solid pixel of ``other``."""
        if type(other) is not Mask:
            other = _other(other)
        ox, oy = _offset(offset)
        return Mask._from_words(queries.overlap_words(self, other, ox, oy), self.size)

    def overlaps_rect(self, rect: Rect, offset: tuple[float, float] = (0.0, 0.0)) -> bool:
        """Whether a solid pixel overlaps ``rect`` moved by ``offset`` (mask-local coordinates).

        >>> solid = Mask((4, 4), fill=True)
        >>> solid.overlaps_rect(Rect(4, 0, 3, 3)), solid.overlaps_rect(Rect(3.5, 0, 3, 3))
        (False, True)
        """
        if not isinstance(rect, Rect):
            rect = checked_rect(rect, "rect")
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
    ) -> Hit | None:
        """The first moment any solid pixel of ``self``, moving by ``delta``, overlaps one
        of ``other``, placed at ``offset`` and moving by ``other_delta``.

        The semantics of :func:`collide2d.sweep`: touching and moving in hits at 0,
        sliding along does not hit, reaching contact exactly at the end of the frame
        does not hit, starting overlapped hits at 0 with ``started_overlapping``. With
        levels, coarse nodes count as solid: the hit is never later than the exact one.
        The hit's ``point`` is in ``self``'s coordinates at the start of the frame;
        ``pixel`` and ``other_pixel`` are the two pixels that met.

        Examples
        --------
        >>> wall = Mask((2, 10), fill=True)
        >>> ball = Mask.from_array([[0, 1, 0], [1, 1, 1], [0, 1, 0]])
        >>> hit = ball.sweep(wall, (20, -3), (30, 0))   # the wall is 20 px right
        >>> hit.fraction, hit.normal, hit.pixel, hit.other_pixel
        (0.5666666666666667, Vec2(x=-1.0, y=0.0), (2, 1), (0, 4))
        """
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
        other_delta: tuple[float, float] = (0.0, 0.0),
        max_level: int | None = None,
        **deprecated: tuple[float, float],
    ) -> Hit | None:
        """The first moment ``rect`` (in mask coordinates), moving by ``delta``, overlaps a
        solid pixel of the mask, which moves by ``other_delta`` (the mask is the other
        body the rectangle sweeps against). The normal points from the mask toward the
        rectangle; ``other_pixel`` is the mask's pixel that met; ``point`` is in mask
        coordinates at the start of the frame.

        >>> Mask((4, 4), fill=True).sweep_rect(Rect(-10, 1, 2, 2), (20, 0)).fraction
        0.4
        """
        if not isinstance(rect, Rect):
            rect = checked_rect(rect, "rect")
        other_delta = _renamed_mask_delta(other_delta, deprecated)
        return sweep_shape(
            self, rect, _delta(delta, "delta"), _delta(other_delta, "other_delta"), max_level
        )

    def sweep_circle(
        self,
        circle: Circle,
        delta: tuple[float, float],
        other_delta: tuple[float, float] = (0.0, 0.0),
        max_level: int | None = None,
        **deprecated: tuple[float, float],
    ) -> Hit | None:
        """The first moment ``circle`` (in mask coordinates), moving by ``delta``, overlaps
        a solid pixel of the mask, which moves by ``other_delta`` (the semantics of
        :func:`collide2d.sweep` for a circle and the pixel squares).

        >>> Mask((4, 4), fill=True).sweep_circle(Circle(-10, 2, 2), (20, 0)).fraction
        0.4
        """
        if not isinstance(circle, Circle):
            raise TypeError(f"circle must be a Circle, got {circle!r}")
        other_delta = _renamed_mask_delta(other_delta, deprecated)
        return sweep_shape(
            self, circle, _delta(delta, "delta"), _delta(other_delta, "other_delta"), max_level
        )

    # -- shape analysis, as pygame.mask has it (collide2d.mask.analysis) ------------------
    def get_rect(self, **place: object) -> Rect:
        """``Rect(0, 0, w, h)`` changed by ``pygame.Rect`` attribute keywords
        (``center=``, ``topleft=``, ``right=``, ``size=``...), as pygame does it; a
        fractional value is kept, not truncated.

        >>> Mask((4, 2)).get_rect(center=(10, 10))
        Rect(x=8.0, y=9.0, w=4.0, h=2.0)
        """
        return analysis.get_rect(self, **place)

    def centroid(self) -> tuple[int, int]:
        """The mean solid pixel, rounded down; ``(0, 0)`` when none is solid.

        >>> Mask.from_array([[0, 1, 1], [0, 1, 1]]).centroid()
        (1, 0)
        """
        return analysis.centroid(self)

    def angle(self) -> float:
        """The orientation of the solid pixels in degrees, from their second moments
        (pygame's integer arithmetic, so pygame's number); 0.0 when none is solid."""
        return analysis.angle(self)

    def outline(self, every: int = 1) -> list[tuple[int, int]]:
        """The pixels along the border of the first component met row by row, every
        ``every``-th one, in pygame's tracing order.

        >>> Mask.from_array([[1, 1], [1, 1]]).outline()
        [(0, 0), (1, 0), (1, 1), (0, 1), (0, 0)]
        """
        return analysis.outline(self, every)

    def connected_component(self, pos: tuple[int, int] | None = None) -> Mask:
        """The largest 8-connected component, or the one holding pixel ``pos``.

        Among equally large components, the one whose first pixel (row by row) comes
        first. pygame picks by the provisional labels of its two-pass labelling, so
        between equals it may return another (about 2 ties in 300 on small random
        masks); and pygame's count of a component can lose pixels and then return a
        smaller one; this one is exact.

        >>> twins = Mask.from_array([[1, 0, 1], [1, 0, 1]])
        >>> twins.connected_component().to_array().astype(int).tolist()
        [[1, 0, 0], [1, 0, 0]]
        """
        return analysis.connected_component(Mask, self, pos)

    def connected_components(self, minimum: int = 0) -> list[Mask]:
        """Every 8-connected component of at least ``minimum`` pixels, first pixel
        (row by row) first.

        >>> [m.count() for m in Mask.from_array([[1, 0, 1], [1, 0, 0]]).connected_components()]
        [2, 1]
        """
        return analysis.connected_components(Mask, self, minimum)

    def get_bounding_rects(self) -> list[Rect]:
        """The bounding box of each 8-connected component, first pixel first.

        >>> Mask.from_array([[1, 0, 1], [1, 0, 0]]).get_bounding_rects()
        [Rect(x=0.0, y=0.0, w=1.0, h=2.0), Rect(x=2.0, y=0.0, w=1.0, h=1.0)]
        """
        return analysis.bounding_rects(self)

    def scale(self, scale: tuple[int, int]) -> Mask:
        """The mask scaled to the size ``scale = (width, height)`` (nearest pixel, as
        pygame; the argument has pygame's name).

        >>> Mask.from_array([[1, 0]]).scale((4, 1)).to_array().astype(int).tolist()
        [[1, 1, 0, 0]]
        """
        return analysis.scale(Mask, self, scale)

    def convolve(
        self, other: Mask, output: Mask | None = None, offset: tuple[int, int] = (0, 0)
    ) -> Mask:
        """Where ``other`` overlaps this mask, for every placement (pygame's
        ``Mask.convolve``); into ``output`` if given."""
        return analysis.convolve(Mask, self, other, output, offset)


def _renamed_mask_delta(
    other_delta: tuple[float, float], deprecated: dict[str, tuple[float, float]]
) -> tuple[float, float]:
    """``mask_delta=`` (the old name of ``other_delta``), with a warning."""
    if not deprecated:
        return other_delta
    unknown = set(deprecated) - {"mask_delta"}
    if unknown:
        raise TypeError(f"unexpected keyword argument {sorted(unknown)[0]!r}")
    _deprecation.warn("mask_delta=", "other_delta=", stacklevel=4)
    return deprecated["mask_delta"]


def _offset(offset: object) -> tuple[float, float]:
    if type(offset) is tuple and len(offset) == 2:  # the common case, checked quickly
        ox, oy = offset
        try:
            # False for NaN and infinities; raises for strings and other non-numbers
            if -MASK_OFFSET_EXACT <= ox <= MASK_OFFSET_EXACT and (
                -MASK_OFFSET_EXACT <= oy <= MASK_OFFSET_EXACT
            ):
                return offset
        except TypeError:
            pass
    ox, oy = _checks.xy(offset, "offset")
    if not (
        -MASK_OFFSET_EXACT <= ox <= MASK_OFFSET_EXACT
        and -MASK_OFFSET_EXACT <= oy <= MASK_OFFSET_EXACT
    ):
        raise ValueError(f"offset is too large to place pixels exactly: {offset!r}")
    return ox, oy


def _delta(value: object, name: str) -> tuple[float, float]:
    x, y = _checks.point(value, name)
    return x, y


def _other(other: object) -> Mask:
    if not isinstance(other, Mask):
        raise TypeError(f"other must be a Mask, got {other!r}")
    return other


def _pixels(array: ArrayLike) -> BoolArray:
    """``array`` as booleans, refusing what ``bool()`` would take silently."""
    try:
        raw = np.asarray(array)
    except (TypeError, ValueError) as error:  # ragged rows
        raise TypeError(f"array must be a 2D array of booleans or numbers: {error}") from None
    kind = raw.dtype.kind
    if kind == "O":
        for item in raw.ravel().tolist():
            if not isinstance(item, (bool, np.bool_, Real)):
                raise TypeError(f"array must hold booleans or real numbers, got {item!r}")
        raw = raw.astype(np.float64)
        kind = "f"
    elif kind not in "biuf":
        raise TypeError(f"array must hold booleans or real numbers, got dtype {raw.dtype}")
    if kind == "f" and not np.isfinite(raw).all():
        at = tuple(np.argwhere(~np.isfinite(raw))[0].tolist())
        raise ValueError(f"array must be finite; array{list(at)} is {raw[at].item()!r}")
    return np.array(raw, dtype=bool, copy=True)
