"""Kernels over pixel rows packed into 64-bit words (bit ``i`` of word ``k`` is pixel
``x = 64 k + i``): AND, count, first set bit, with ``other`` shifted by whole pixels.

Mask ``b`` placed with its pixel ``u`` at ``a``'s pixel ``x = u + sx`` (and rows
``y = v + sy``) overlaps ``a`` where ``a_row[y] & b_row[y - sy] << sx``. A fractional
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
    """The 64 bits of ``row`` from bit ``start`` on (may be negative or past the end:
    missing bits are zero)."""
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
    """Combine ``a`` with ``b`` shifted by ``(sx, sy)`` pixels, row by row.

    ``mode`` 0: return 1 as soon as a word of ``a & b`` is set; 1: return the set bits
    of ``a & b``; 2: OR ``a & b`` into ``out`` (returns 0). ``b``'s word for ``a``'s word
    ``k`` is ``b[k + qoff] >> r | b[k + qoff + 1] << (64 - r)`` with ``qoff`` and ``r``
    fixed by the shift: only the first and last words of a row need bounds checks,
    and the interior loop runs without them.
    """
    ha, wa = a.shape
    hb, nb = b.shape
    qoff = (-sx) >> 6
    r = np.uint64((-sx) & 63)
    back = np.uint64(64) - r
    y0, y1 = _rows_range(ha, hb, sy)
    k_min = max(0, -qoff - 1)
    k_max = min(wa, nb - qoff + 1)
    lo_k = min(max(k_min, -qoff), k_max)  # interior: both b words exist
    hi_k = max(min(k_max, nb - 1 - qoff), lo_k)
    total = _ZERO
    for y in range(y0, y1):
        v = y - sy
        for part in range(3):
            if part == 1:
                continue
            first = k_min if part == 0 else hi_k
            last = lo_k if part == 0 else k_max
            for k in range(first, last):
                q = k + qoff
                lo = b[v, q] if 0 <= q < nb else _ZERO
                hi = b[v, q + 1] if 0 <= q + 1 < nb else _ZERO
                word = a[y, k] & (lo if r == _ZERO else (lo >> r) | (hi << back))
                if mode == 0:
                    if word != _ZERO:
                        return _ONE
                elif mode == 1:
                    total += popcount(word)
                else:
                    out[y, k] |= word
        # The interior, on slices indexed from 0: numba then drops its negative-index
        # handling, and LLVM vectorizes the loops.
        n = hi_k - lo_k
        a_seg = a[y, lo_k:hi_k]
        b_lo = b[v, lo_k + qoff : hi_k + qoff]
        b_hi = b[v, lo_k + qoff + 1 : hi_k + qoff + 1] if r != _ZERO else b_lo
        if mode == 0:  # OR the row together, then test
            seen = _ZERO
            if r == _ZERO:
                for t in range(n):
                    seen |= a_seg[t] & b_lo[t]
            else:
                for t in range(n):
                    seen |= a_seg[t] & ((b_lo[t] >> r) | (b_hi[t] << back))
            if seen != _ZERO:
                return _ONE
        elif mode == 1:
            if r == _ZERO:
                for t in range(n):
                    total += popcount(a_seg[t] & b_lo[t])
            else:
                for t in range(n):
                    total += popcount(a_seg[t] & ((b_lo[t] >> r) | (b_hi[t] << back)))
        else:
            o_seg = out[y, lo_k:hi_k]
            if r == _ZERO:
                for t in range(n):
                    o_seg[t] |= a_seg[t] & b_lo[t]
            else:
                for t in range(n):
                    o_seg[t] |= a_seg[t] & ((b_lo[t] >> r) | (b_hi[t] << back))
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
def overlap_counts(a, b, sx0, nsx, sy0, nsy, counts):
    """``counts[i, j]`` = set bits of ``a & (b shifted by sx0 + j, sy0 + i)``."""
    for i in range(nsy):
        for j in range(nsx):
            counts[i, j] = _combine(a, b, sx0 + j, sy0 + i, 1, a)


@kernel
def overlap_rows(a, b, sx0, nsx, sy0, nsy):
    """The words of ``a`` that meet ``b`` under any of the shifts (OR over shifts)."""
    out = np.zeros_like(a)
    for sy in range(sy0, sy0 + nsy):
        for sx in range(sx0, sx0 + nsx):
            _combine(a, b, sx, sy, 2, out)
    return out


@kernel
def first_overlap(a, b, sx0, nsx, sy0, nsy):
    """``(x, y)`` of the first pixel of ``a`` in row-major order meeting ``b`` under any
    of the shifts, or ``(-1, -1)``."""
    ha, wa = a.shape
    hb = b.shape[0]
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
                    word |= a[y, k] & shifted_word(b[v], 64 * k - sx)
            if word != _ZERO:
                return 64 * k + np.int64(lowest_bit(word)), y
    return -1, -1
