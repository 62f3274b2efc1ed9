"""Kernels over pixels packed into 64-bit words, stored by word column: ``words[k, y]``
holds pixels ``x = 64 k + i`` (bit ``i``) of row ``y``, and each column ``words[k]``
is contiguous (pygame.mask's layout). AND, count, first set bit, with ``other``
shifted by whole pixels.

Mask ``b`` placed with its pixel ``u`` at ``a``'s pixel ``x = u + sx`` (and rows
``y = v + sy``) overlaps ``a`` where ``a_row[y] & b_row[y - sy] << sx``. Walking
down a word column keeps the word shift fixed, so the loops are long and contiguous
even for narrow masks (a row of a 512-pixel mask is only 8 words). A fractional
offset is two whole shifts per axis (see ``collide2d.mask.queries``), passed as
the first shift and their number: ``sx0, nsx, sy0, nsy`` (scalars dispatch faster
than arrays). All arithmetic stays in uint64: numba would turn
mixed signed and unsigned integers into floats.
"""

from __future__ import annotations

import numpy as np

from collide2d._kernels.jit import inline_kernel, kernel

_M1 = np.uint64(0x5555555555555555)
_M2 = np.uint64(0x3333333333333333)
_M4 = np.uint64(0x0F0F0F0F0F0F0F0F)
_H01 = np.uint64(0x0101010101010101)
_ONE = np.uint64(1)
_ZERO = np.uint64(0)


@inline_kernel
def popcount(x):
    """Set bits of a uint64 (the SWAR count, Hacker's Delight 5-1)."""
    x = x - ((x >> _ONE) & _M1)
    x = (x & _M2) + ((x >> np.uint64(2)) & _M2)
    x = (x + (x >> np.uint64(4))) & _M4
    return (x * _H01) >> np.uint64(56)


@inline_kernel
def lowest_bit(x):
    """Index of the lowest set bit of a non-zero uint64."""
    return popcount((x & (~x + _ONE)) - _ONE)


@inline_kernel
def shifted_word(row, start):
    """The 64 bits of one pixel row's words ``row`` from bit ``start`` on (may be
    negative or past the end: missing bits are zero)."""
    q = start >> 6  # floor division by 64, also for negative start
    r = np.uint64(start & 63)
    n = row.shape[0]
    lo = row[q] if 0 <= q < n else _ZERO
    if r == _ZERO:
        return lo
    hi = row[q + 1] if 0 <= q + 1 < n else _ZERO
    return (lo >> r) | (hi << (np.uint64(64) - r))


@inline_kernel
def _rows_range(ha, hb, sy):
    return max(0, sy), min(ha, hb + sy)


@inline_kernel
def _combine(a, b, sx, sy, mode, out):
    """Combine ``a`` with ``b`` shifted by ``(sx, sy)`` pixels, one word column at a time.

    ``mode`` 0: return 1 as soon as a word of ``a & b`` is set; 1: return the set bits
    of ``a & b``; 2: OR ``a & b`` into ``out`` (returns 0). ``b``'s word for ``a``'s
    word column ``k`` is ``b[k + qoff] >> r | b[k + qoff + 1] << (64 - r)`` with
    ``qoff`` and ``r`` fixed by the shift, so each column is one loop down the rows
    of contiguous, 0-based slices: numba drops its negative-index handling and LLVM
    vectorizes the loop. A missing column of ``b`` (past either edge) reads as zeros.
    """
    wa, ha = a.shape
    nb, hb = b.shape
    qoff = (-sx) >> 6
    r = np.uint64((-sx) & 63)
    back = np.uint64(63) - r  # shifted by this and then by 1: r = 0 gives 0, not UB
    y0, y1 = _rows_range(ha, hb, sy)
    n = y1 - y0
    total = _ZERO
    if n <= 0:
        return total
    v0 = y0 - sy
    k_first = max(0, -qoff - (0 if r == _ZERO else 1))  # b's column q or q + 1 exists
    k_stop = min(wa, nb - qoff)
    zero = np.zeros(n if r != _ZERO else 0, dtype=np.uint64)
    for k in range(k_first, k_stop):
        q = k + qoff
        a_seg = a[k, y0:y1]
        if r == _ZERO:  # word-aligned: b's column q as it is
            b_lo = b[q, v0 : v0 + n]
            if mode == 0:
                seen = _ZERO
                for t in range(n):
                    seen |= a_seg[t] & b_lo[t]
                if seen != _ZERO:
                    return _ONE
            elif mode == 1:
                for t in range(n):
                    total += popcount(a_seg[t] & b_lo[t])
            else:
                o_seg = out[k, y0:y1]
                for t in range(n):
                    o_seg[t] |= a_seg[t] & b_lo[t]
            continue
        b_lo = b[q, v0 : v0 + n] if q >= 0 else zero
        b_hi = b[q + 1, v0 : v0 + n] if q + 1 < nb else zero
        if mode == 0:
            seen = _ZERO
            for t in range(n):
                seen |= a_seg[t] & ((b_lo[t] >> r) | ((b_hi[t] << back) << _ONE))
            if seen != _ZERO:
                return _ONE
        elif mode == 1:
            for t in range(n):
                total += popcount(a_seg[t] & ((b_lo[t] >> r) | ((b_hi[t] << back) << _ONE)))
        else:
            o_seg = out[k, y0:y1]
            for t in range(n):
                o_seg[t] |= a_seg[t] & ((b_lo[t] >> r) | ((b_hi[t] << back) << _ONE))
    return total


@kernel
def any_overlap(a, b, sx0, nsx, sy0, nsy):
    """Whether ``a & (b shifted)`` has a set bit for any pair of shifts."""
    for sy in range(sy0, sy0 + nsy):
        for sx in range(sx0, sx0 + nsx):
            if _combine(a, b, sx, sy, 0, a) != _ZERO:
                return True
    return False


@kernel
def overlap_counts(a, b, sx0, nsx, sy0, nsy):
    """The set bits of ``a & (b shifted by (sx0 + j, sy0 + i))`` for ``i < nsy`` and
    ``j < nsx``, as ``(c00, c01, c10, c11)`` with ``cij`` at ``2 i + j`` (zero for the
    pairs past ``nsx`` or ``nsy``)."""
    counts = np.zeros(4, dtype=np.int64)
    for i in range(nsy):
        for j in range(nsx):
            counts[2 * i + j] = _combine(a, b, sx0 + j, sy0 + i, 1, a)
    return counts[0], counts[1], counts[2], counts[3]


@kernel
def overlap_words(a, b, sx0, nsx, sy0, nsy):
    """The word columns of ``a`` that meet ``b`` under any of the shifts (OR over shifts)."""
    out = np.zeros_like(a)
    for sy in range(sy0, sy0 + nsy):
        for sx in range(sx0, sx0 + nsx):
            _combine(a, b, sx, sy, 2, out)
    return out


@kernel
def first_overlap(a, b, sx0, nsx, sy0, nsy):
    """``(x, y)`` of the first pixel of ``a`` in row-major order meeting ``b`` under any
    of the shifts, or ``(-1, -1)``."""
    wa, ha = a.shape
    hb = b.shape[1]
    lo_y = ha
    hi_y = 0
    for sy in range(sy0, sy0 + nsy):
        y0, y1 = _rows_range(ha, hb, sy)
        lo_y = min(lo_y, y0)
        hi_y = max(hi_y, y1)
    for y in range(lo_y, hi_y):
        for k in range(wa):
            word = _ZERO
            for sy in range(sy0, sy0 + nsy):
                v = y - sy
                if v < 0 or v >= hb:
                    continue
                for sx in range(sx0, sx0 + nsx):
                    word |= a[k, y] & shifted_word(b[:, v], 64 * k - sx)
            if word != _ZERO:
                return 64 * k + np.int64(lowest_bit(word)), y
    return -1, -1
