"""Convex outlines (polygons, segments, boxes) against pixel masks, exact.

The mask's solid pixels are taken as its non-overlapping boxes
(:meth:`~collide2d.mask.storage.MaskStorage.boxes`: runs of a row, stacked where
rows repeat); the region they cover is the union of the solid pixels' squares,
so the outline overlaps the mask exactly when it overlaps one of the boxes, and
first meets it at the earliest first contact with any of them. Only boxes that
meet the outline's (swept) bounding box are tested. Every box corner is the mask's
float corner plus whole pixels, scaled to integers with the outline, so each test
is the exact separating-axis test of :mod:`collide2d.geometry.convex`, and the
earliest contact is chosen by comparing the exact times.
"""

from __future__ import annotations

import math

import numpy as np

from collide2d.continuous.hit import Hit
from collide2d.continuous.polygon import sweep_integers
from collide2d.geometry.convex import Interval, Outline, extent, integers, overlaps_outlines
from collide2d.mask.storage import MaskStorage


def _candidates(
    mask: MaskStorage, mx: float, my: float, left: float, top: float, right: float, bottom: float
) -> np.ndarray:
    """The mask's boxes (rows ``x0, y0, x1, y1`` in pixels) that may touch the world
    box ``[left, right] x [top, bottom]``; a pixel of slack on each side covers
    rounding of ``left - mx``."""
    boxes = mask.boxes()
    if boxes.shape[0] == 0:
        return boxes
    width, height = mask.size
    # clamped to just around the mask before rounding (so that no inf is rounded)
    u0 = math.floor(min(max(left - mx, -2.0), width + 2.0)) - 1
    u1 = math.ceil(min(max(right - mx, -2.0), width + 2.0)) + 1
    v0 = math.floor(min(max(top - my, -2.0), height + 2.0)) - 1
    v1 = math.ceil(min(max(bottom - my, -2.0), height + 2.0)) + 1
    keep = (boxes[:, 2] >= u0) & (boxes[:, 0] <= u1) & (boxes[:, 3] >= v0) & (boxes[:, 1] <= v1)
    return boxes[keep]


def _box_ints(mxi: int, myi: int, unit: int, box: np.ndarray) -> tuple[list[int], list[int]]:
    """A pixel box as an exact outline: the mask's corner plus whole pixels."""
    x0, y0, x1, y1 = (int(v) for v in box)
    left, right = mxi + x0 * unit, mxi + x1 * unit
    top, bottom = myi + y0 * unit, myi + y1 * unit
    return [left, right, right, left], [top, top, bottom, bottom]


def _box_floats(mx: float, my: float, box: np.ndarray) -> list[tuple[float, float]]:
    x0, y0, x1, y1 = (float(v) for v in box)
    return [(mx + x0, my + y0), (mx + x1, my + y0), (mx + x1, my + y1), (mx + x0, my + y1)]


def overlaps_mask_outline(mask: MaskStorage, mx: float, my: float, shape: Outline) -> bool:
    """Whether a convex outline overlaps the solid pixels of ``mask`` placed at
    ``(mx, my)``, strictly.

    >>> from collide2d import Mask, Polygon
    >>> ring = Mask.from_array([[1, 1, 1], [1, 0, 1], [1, 1, 1]])
    >>> overlaps_mask_outline(ring, 0, 0, Polygon.box(1.5, 1.5, 0.6, 0.6, 0.7).vertices)
    False
    >>> overlaps_mask_outline(ring, 0, 0, Polygon.box(1.5, 1.5, 1.2, 1.2, 0.7).vertices)
    True
    """
    boxes = _candidates(mask, mx, my, *extent(shape))
    if boxes.shape[0] == 0:
        return False
    (si,), (mxi, myi, unit), _ = integers((shape,), (mx, my, 1.0))
    return any(overlaps_outlines(si, _box_ints(mxi, myi, unit, box)) for box in boxes)


def sweep_mask_outline(
    mask: MaskStorage,
    mx: float,
    my: float,
    m_delta: tuple[float, float],
    shape: Outline,
    s_delta: tuple[float, float],
) -> Hit | None:
    """Sweep a convex outline moving by ``s_delta`` against ``mask`` placed at
    ``(mx, my)`` and moving by ``m_delta``: the earliest exact first contact with any
    of its solid pixels, ``other_pixel`` the pixel met (world coordinates)."""
    left, top, right, bottom = extent(shape)
    rdx = s_delta[0] - m_delta[0]
    rdy = s_delta[1] - m_delta[1]
    boxes = _candidates(
        mask,
        mx,
        my,
        left + min(rdx, 0.0),
        top + min(rdy, 0.0),
        right + max(rdx, 0.0),
        bottom + max(rdy, 0.0),
    )
    if boxes.shape[0] == 0:
        return None
    (si,), (mxi, myi, unit, adx, ady, bdx, bdy), e = integers(
        (shape,), (mx, my, 1.0, *s_delta, *m_delta)
    )
    best: tuple[Interval, Hit, np.ndarray] | None = None
    for box in boxes:
        found = sweep_integers(
            shape,
            si,
            s_delta,
            _box_floats(mx, my, box),
            _box_ints(mxi, myi, unit, box),
            m_delta,
            adx - bdx,
            ady - bdy,
            e,
        )
        if found is None:
            continue
        span, hit = found
        if best is None or _earlier(span, hit, best[0], best[1]):
            best = (span, hit, box)
    if best is None:
        return None
    _, hit, box = best
    return hit._replace(other_pixel=_pixel_at(hit, mx, my, m_delta, box))


def _earlier(span: Interval, hit: Hit, best_span: Interval, best_hit: Hit) -> bool:
    """Whether a box's contact comes before the best so far (exactly; a started
    overlap first, the deeper one among those)."""
    if hit.started_overlapping or best_hit.started_overlapping:
        if hit.started_overlapping and best_hit.started_overlapping:
            return hit.depth > best_hit.depth
        return hit.started_overlapping
    lo, best_lo = span.lo, best_span.lo
    if lo is None or best_lo is None:  # pragma: no cover - only started spans have these
        return lo is None
    return lo[0] * best_lo[1] < best_lo[0] * lo[1]


def _pixel_at(
    hit: Hit, mx: float, my: float, m_delta: tuple[float, float], box: np.ndarray
) -> tuple[int, int]:
    """The pixel of ``box`` at the contact point (clamped into the box)."""
    x0, y0, x1, y1 = (int(v) for v in box)
    u = math.floor(hit.point[0] - (mx + m_delta[0] * hit.fraction))
    v = math.floor(hit.point[1] - (my + m_delta[1] * hit.fraction))
    return min(max(u, x0), x1 - 1), min(max(v, y0), y1 - 1)


def rasterize(vertices: Outline, size: tuple[int, int]) -> np.ndarray:
    """The pixels of a ``size`` grid whose centres the convex polygon covers, as a bool
    array ``[y, x]``, decided exactly.

    A centre on the boundary counts when it lies on a left or top edge (an edge whose
    outward normal points left, or straight up), not on a right or bottom one: the
    top-left rule of rasterisers, so that polygons sharing an edge never both take a
    pixel and a box ``[a, b]`` with integer ``a``, ``b`` and half-integer centres takes
    exactly ``b - a`` pixels a row.
    """
    from fractions import Fraction

    width, height = size
    bits = np.zeros((height, width), dtype=bool)
    points = [(Fraction(x), Fraction(y)) for x, y in vertices]
    n = len(points)
    edges = [(points[i], points[(i + 1) % n]) for i in range(n)]
    top = max(0, math.floor(min(p[1] for p in points) - 1))
    bottom = min(height, math.ceil(max(p[1] for p in points) + 1))
    half = Fraction(1, 2)
    for v in range(top, bottom):
        cy = v + half
        lo, lo_strict = Fraction(-(10**9) - width), False
        hi, hi_strict = Fraction(10**9 + width), False
        empty = False
        for (px, py), (qx, qy) in edges:
            ex, ey = qx - px, qy - py
            if ey == 0:  # a horizontal edge bounds the rows: top inclusive, bottom not
                if (ex > 0 and cy < py) or (ex < 0 and cy >= py):
                    empty = True
                continue
            # inside when ex (cy - py) - ey (cx - px) >= 0, i.e. cx on one side of x:
            x = px + ex * (cy - py) / ey
            if ey < 0:  # a left edge (normal points left): cx >= x, inclusive
                if x > lo or (x == lo and lo_strict):
                    lo, lo_strict = x, False
            elif x < hi or x == hi:  # a right edge: cx < x, strict
                hi, hi_strict = x, True
        if empty:
            continue
        # centres u + 1/2 with lo <= u + 1/2 (strict if lo_strict) and u + 1/2 < hi
        first = math.ceil(lo - half) if not lo_strict else math.floor(lo - half) + 1
        last = math.ceil(hi - half) - 1 if hi_strict else math.floor(hi - half)
        first = max(first, 0)
        last = min(last, width - 1)
        if first <= last:
            bits[v, first : last + 1] = True
    return bits
