"""Which moves the compiled moves leave to the World's check loop because floats
lose a rectangle's size there.

Far from the origin ``x + w`` rounds; where it loses more than ``2**-20`` of ``w``
(``Rect(3e15, 0, 0.1, 1)``: ``x + w == x``) the slab sweep of floats no longer sees
the box given, and ``sweep_rect_rect`` takes its exact route
(``collide2d.continuous.rect_exact``). The compiled moves and their Python twin
(``one_move``) work in floats only, so a move that touches such a rectangle runs in
the check loop, which takes that route: every route gives the same answers.
"""

from __future__ import annotations

import numpy as np

from collide2d.continuous.rect_exact import KEPT, sizes_kept

NEAR = 2.0**32
"""A size ``w`` is kept at every coordinate below ``NEAR * w`` in magnitude: the
rounding of ``x + w`` there is below ``2**-52 * NEAR * w = KEPT * w``."""


def mover_kept(lo: float, hi: float, size: float) -> bool:
    """Whether a mover of side ``size`` keeps it everywhere in ``[lo, hi]`` (one axis
    of the box its move never leaves)."""
    return size == 0.0 or max(-lo, hi) < NEAR * size


def rect_kept(x: float, y: float, w: float, h: float) -> bool:
    """Whether ``x + w`` and ``y + h`` keep the sizes (``rect_exact.sizes_kept``)."""
    return sizes_kept(x, w, x + w, y, h, y + h)


def rows_kept(box: np.ndarray) -> np.ndarray:
    """:func:`rect_kept` of every row ``x, y, w, h`` of ``box`` (the same floats)."""
    size = box[:, 2:]
    spread = (box[:, :2] + size) - box[:, :2]
    lost = (spread != size) & (np.abs(spread - size) > KEPT * size)
    kept: np.ndarray = ~lost.any(axis=1)
    return kept


def movers_kept(lo: np.ndarray, hi: np.ndarray, size: np.ndarray) -> np.ndarray:
    """:func:`mover_kept` of every mover on both axes: rows of ``lo``, ``hi`` (the
    corners of their regions) and ``size`` (their ``w, h``)."""
    kept = (size == 0.0) | (np.maximum(-lo, hi) < NEAR * size)
    found: np.ndarray = kept.all(axis=1)
    return found
