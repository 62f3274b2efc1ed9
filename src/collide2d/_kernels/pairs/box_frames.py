"""Rotated boxes' frames: a quick sure answer for most candidate pairs of
:func:`collide2d.overlapping_box_pairs`, before the exact test.

A rotated box's corners ``v0, v1, v2, v3`` are rounded, so its outline ``Q`` is a
rectangle only up to rounding. Its frame is the parallelogram ``P`` of float centre
``c = (v0 + v2) / 2`` and half-edges ``e = (v1 - v0) / 2``, ``f = (v3 - v0) / 2``
(each rounded once; ``P`` is exactly the set ``c + s e + t f``, ``|s|, |t| <= 1``, of
those floats), and ``slack``, a bound on how far each corner of ``Q`` lies from the
corner of ``P`` (``c -+ e -+ f``), measured and raised past every rounding. Then ``Q``
lies within ``slack`` of ``P`` and holds ``P`` eroded by ``slack`` (both are convex
and their corners are that near), and since ``P`` is a rectangle up to rounding
its erosion moves a support by at most ``sqrt(2) slack``: the frames store twice
the slack.

Two parallelograms are apart exactly when one of their four edge normals separates
them (the separating axis theorem), and along a normal ``n`` each one's extent is
``|n x e| + |n x f|`` about its centre. So along each normal the gap ``|n x d| -
extents`` (``d`` the centres' difference) with a margin for both slacks and every
rounding of the test decides for certain: a gap above the margin on one normal
proves the boxes apart; on all four below minus the margin, overlapping. The
margin is small beside any box that is not within a few thousand ulps of
touching another, so almost every candidate is decided in about thirty float
operations; the rest go to the exact test (:func:`polygons.outlines_overlap`).
"""

from __future__ import annotations

import math

import numpy as np

from collide2d._kernels.jit import inlined_helper, kernel, prefetch
from collide2d._kernels.pairs.polygons import AHEAD, ask_for_rows, outlines_overlap

EPS = 2.0**-53
"""The relative error of one rounding."""

WIDTH = 8
"""A frame's columns: ``cx, cy, ex, ey, fx, fy``, then ``|e x f|`` (the extent of a
box along its own normals) and its pad: twice the slack plus ``16 EPS`` times its
half-edges' sizes (the rounding of every cross product the test makes with them)."""


@kernel
def box_frames(vertices: np.ndarray, tame: np.ndarray, frames: np.ndarray) -> None:
    """Each box's frame (see the module) into ``frames`` ``(N, WIDTH)``; a pad of
    infinity (never sure) for a row that is not tame or whose slack is not small
    beside its size."""
    for i in range(vertices.shape[0]):
        x0, y0 = vertices[i, 0, 0], vertices[i, 0, 1]
        x1, y1 = vertices[i, 1, 0], vertices[i, 1, 1]
        x2, y2 = vertices[i, 2, 0], vertices[i, 2, 1]
        x3, y3 = vertices[i, 3, 0], vertices[i, 3, 1]
        cx = (x0 + x2) * 0.5
        cy = (y0 + y2) * 0.5
        ex = (x1 - x0) * 0.5
        ey = (y1 - y0) * 0.5
        fx = (x3 - x0) * 0.5
        fy = (y3 - y0) * 0.5
        # how far each corner is from its frame corner, as computed; each computed
        # frame corner is within 4 EPS of (|c| + |e| + |f|) of the exact one
        off = max(
            max(abs(x0 - (cx - ex - fx)), abs(y0 - (cy - ey - fy))),
            max(abs(x1 - (cx + ex - fx)), abs(y1 - (cy + ey - fy))),
        )
        off = max(
            off,
            max(abs(x2 - (cx + ex + fx)), abs(y2 - (cy + ey + fy))),
            max(abs(x3 - (cx - ex + fx)), abs(y3 - (cy - ey + fy))),
        )
        size = abs(ex) + abs(ey) + abs(fx) + abs(fy)
        reach = abs(cx) + abs(cy) + size
        # the Euclidean distance is at most sqrt(2) times the largest coordinate's
        slack = (off + 8.0 * EPS * reach) * 1.5
        frames[i, 0] = cx
        frames[i, 1] = cy
        frames[i, 2] = ex
        frames[i, 3] = ey
        frames[i, 4] = fx
        frames[i, 5] = fy
        frames[i, 6] = abs(ex * fy - ey * fx)
        small = 16.0 * slack < min(abs(ex) + abs(ey), abs(fx) + abs(fy))
        frames[i, 7] = 2.0 * slack + 16.0 * EPS * size if tame[i] and small else math.inf


@kernel
def keep_box_overlapping(
    frames: np.ndarray, vertices: np.ndarray, counts: np.ndarray, tame: np.ndarray,
    pairs: np.ndarray, keep: np.ndarray, unsure: np.ndarray,
) -> None:  # fmt: skip
    """:func:`polygons.keep_overlapping` for rotated boxes with their frames: each
    candidate pair decided by the frames where they are sure, else by the exact
    test (``unsure`` for untamed rows, as there)."""
    for m in range(pairs.shape[0]):
        ask_for_frames(pairs, m + AHEAD, frames)
        i = pairs[m, 0]
        j = pairs[m, 1]
        decided = _frames_decide(frames, i, j)
        if decided >= 0:
            keep[m] = decided == 1
            continue
        ask_for_rows(pairs, m, vertices, counts, tame)
        if not (tame[i] and tame[j]):
            unsure[m] = True
            continue
        keep[m] = outlines_overlap(vertices, counts, i, j)


@inlined_helper
def ask_for_frames(pairs: np.ndarray, m: int, frames: np.ndarray) -> None:
    """Ask for the frames of candidate pair ``m`` (if there is one) without waiting."""
    if m < pairs.shape[0]:
        prefetch(frames, pairs[m, 0], 0)
        prefetch(frames, pairs[m, 1], 0)


@inlined_helper
def _frames_decide(frames: np.ndarray, i: int, j: int) -> int:
    """1 when the frames of boxes ``i`` and ``j`` prove them overlapping, 0 apart,
    -1 when they cannot tell."""
    ax, ay, aex, aey, afx, afy = (
        frames[i, 0], frames[i, 1], frames[i, 2], frames[i, 3], frames[i, 4], frames[i, 5]
    )  # fmt: skip
    bx, by, bex, bey, bfx, bfy = (
        frames[j, 0], frames[j, 1], frames[j, 2], frames[j, 3], frames[j, 4], frames[j, 5]
    )  # fmt: skip
    dx = bx - ax
    dy = by - ay
    pad = frames[i, 7] + frames[j, 7] + 16.0 * EPS * (abs(dx) + abs(dy))
    ee = abs(aex * bey - aey * bex)
    ef = abs(aex * bfy - aey * bfx)
    fe = abs(afx * bey - afy * bex)
    ff = abs(afx * bfy - afy * bfx)
    a_own = frames[i, 6]
    b_own = frames[j, 6]
    # along the normals of a's e and f, then of b's e and f: the gap and its margin
    g0 = abs(aex * dy - aey * dx) - a_own - ee - ef
    m0 = (abs(aex) + abs(aey)) * pad
    g1 = abs(afx * dy - afy * dx) - a_own - fe - ff
    m1 = (abs(afx) + abs(afy)) * pad
    g2 = abs(bex * dy - bey * dx) - b_own - ee - fe
    m2 = (abs(bex) + abs(bey)) * pad
    g3 = abs(bfx * dy - bfy * dx) - b_own - ef - ff
    m3 = (abs(bfx) + abs(bfy)) * pad
    if g0 > m0 or g1 > m1 or g2 > m2 or g3 > m3:
        return 0
    if g0 < -m0 and g1 < -m1 and g2 < -m2 and g3 < -m3:
        return 1
    return -1
