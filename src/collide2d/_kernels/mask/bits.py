"""Kernels over pixels packed into 64-bit words, stored by word column: ``words[k, y]``
holds pixels ``x = 64 k + i`` (bit ``i``) of row ``y``, and each column ``words[k]``
is contiguous (pygame.mask's layout). AND, count, first set bit, with ``other``
shifted by whole pixels.

Mask ``b`` placed with its pixel ``u`` at ``a``'s pixel ``x = u + sx`` (and rows
``y = v + sy``) overlaps ``a`` where ``a_row[y] & b_row[y - sy] << sx``. Walking
down a word column keeps the word shift fixed, so the loops are long and contiguous
even for narrow masks (a row of a 512-pixel mask is only 8 words). A fractional
offset is two whole shifts per axis (see ``collide2d.mask.queries``). The query
kernels take the offset itself and find the shifts and where the masks meet, so
that the caller's Python does no placement arithmetic (at 512 x 512 a query's
Python costs as much as its scan); :func:`first_overlap` takes the first shift and
their number, ``sx0, nsx, sy0, nsy``. All arithmetic on words stays in uint64:
numba would turn mixed signed and unsigned integers into floats.
"""

from __future__ import annotations

import numpy as np

from collide2d._kernels.jit import borrowing_kernel, inline_kernel, kernel

_M1 = np.uint64(0x5555555555555555)
_M2 = np.uint64(0x3333333333333333)
_M4 = np.uint64(0x0F0F0F0F0F0F0F0F)
_H01 = np.uint64(0x0101010101010101)
_ONE = np.uint64(1)
_ZERO = np.uint64(0)
_ALL = np.uint64(0xFFFFFFFFFFFFFFFF)


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
    of ``a & b``; 2: OR ``a & b`` into ``out``; 3: write ``a & b`` into ``out`` and
    zeros everywhere else (2 and 3 return 0). ``b``'s word for ``a``'s
    word column ``k`` is ``b[k + qoff] >> r | b[k + qoff + 1] << (64 - r)`` with
    ``qoff`` and ``r`` fixed by the shift, so each column is one loop down the rows
    of contiguous, 0-based slices: numba drops its negative-index handling and LLVM
    vectorizes the loop. A missing column of ``b`` (past either edge) reads as zeros.
    """
    wa, ha = a.shape
    nb, hb = b.shape
    qoff = (-sx) >> 6
    r = np.uint64((-sx) & 63)
    back = np.uint64(64) - r  # used only when r > 0 (a shift by 64 is undefined)
    y0, y1 = _rows_range(ha, hb, sy)
    n = y1 - y0
    k_first = max(0, -qoff - (0 if r == _ZERO else 1))  # b's column q or q + 1 exists
    k_stop = min(wa, nb - qoff)
    if mode == 3:  # clear what the loop below does not write
        for k in range(wa):
            written = n > 0 and k_first <= k < k_stop
            for y in range(y0 if written else ha):
                out[k, y] = _ZERO
            for y in range(y1 if written else ha, ha):
                out[k, y] = _ZERO
    total = _ZERO
    if n <= 0:
        return total
    v0 = y0 - sy
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
            elif mode == 2:
                o_seg = out[k, y0:y1]
                for t in range(n):
                    o_seg[t] |= a_seg[t] & b_lo[t]
            else:
                o_seg = out[k, y0:y1]
                for t in range(n):
                    o_seg[t] = a_seg[t] & b_lo[t]
            continue
        # A missing neighbour column (past either edge of b) is read from the other
        # one and masked out.
        b_lo = b[max(q, 0), v0 : v0 + n]
        b_hi = b[min(q + 1, nb - 1), v0 : v0 + n]
        keep_lo = _ALL if q >= 0 else _ZERO
        keep_hi = _ALL if q + 1 < nb else _ZERO
        if mode == 0:
            seen = _ZERO
            for t in range(n):
                seen |= a_seg[t] & (((b_lo[t] >> r) & keep_lo) | ((b_hi[t] << back) & keep_hi))
            if seen != _ZERO:
                return _ONE
        elif mode == 1:
            for t in range(n):
                total += popcount(
                    a_seg[t] & (((b_lo[t] >> r) & keep_lo) | ((b_hi[t] << back) & keep_hi))
                )
        elif mode == 2:
            o_seg = out[k, y0:y1]
            for t in range(n):
                o_seg[t] |= a_seg[t] & (((b_lo[t] >> r) & keep_lo) | ((b_hi[t] << back) & keep_hi))
        else:
            o_seg = out[k, y0:y1]
            for t in range(n):
                o_seg[t] = a_seg[t] & (((b_lo[t] >> r) & keep_lo) | ((b_hi[t] << back) & keep_hi))
    return total


@inline_kernel
def _shifts(offset):
    """The first whole-pixel shift of one axis at a (finite) offset, and how many there
    are: 1 when the offset is whole, else 2 (see ``collide2d.mask.queries``)."""
    first = np.int64(np.floor(offset))
    return first, 1 if offset == first else 2


@kernel
def any_overlap(a, b, ox, oy):
    """Whether ``a`` and ``b`` at offset ``(ox, oy)`` share a pixel's area."""
    sx0, nsx = _shifts(ox)
    sy0, nsy = _shifts(oy)
    for sy in range(sy0, sy0 + nsy):
        for sx in range(sx0, sx0 + nsx):
            if _combine(a, b, sx, sy, 0, a) != _ZERO:
                return True
    return False


@kernel
def overlap_counts(a, b, ox, oy):
    """The set bits of ``a & (b shifted by (sx0 + j, sy0 + i))`` for the (one or two)
    shifts of each axis at offset ``(ox, oy)``, as ``(c00, c01, c10, c11)`` with
    ``cij`` at ``2 i + j`` (zero for the shifts an axis does not have)."""
    sx0, nsx = _shifts(ox)
    sy0, nsy = _shifts(oy)
    counts = np.zeros(4, dtype=np.int64)
    for i in range(nsy):
        for j in range(nsx):
            counts[2 * i + j] = _combine(a, b, sx0 + j, sy0 + i, 1, a)
    return counts[0], counts[1], counts[2], counts[3]


@kernel
def overlap_words(a, b, ox, oy, out):
    """Write into ``out`` (shaped like ``a``) the words of ``a`` that meet ``b`` at
    offset ``(ox, oy)`` (OR over the shifts)."""
    sx0, nsx = _shifts(ox)
    sy0, nsy = _shifts(oy)
    _combine(a, b, sx0, sy0, 3, out)  # the first shift writes every word
    for sy in range(sy0, sy0 + nsy):
        for sx in range(sx0, sx0 + nsx):
            if sy != sy0 or sx != sx0:
                _combine(a, b, sx, sy, 2, out)


@kernel
def overlap_point(a, b, ox, oy):
    """``(x, y)`` of the pixel ``Mask.overlap`` names at offset ``(ox, oy)``, or
    ``(-1, -1)``: pygame's (:func:`first_overlap_striped`) at a whole offset, the
    first row by row (:func:`first_overlap`) at a fractional one."""
    sx0, nsx = _shifts(ox)
    sy0, nsy = _shifts(oy)
    if nsx == 1 and nsy == 1:
        return first_overlap_striped(a, b, sx0, sy0)
    return first_overlap(a, b, sx0, nsx, sy0, nsy)


@borrowing_kernel
def first_overlap_striped(a, b, sx, sy):
    """``(x, y)`` of the overlapping pixel of ``a`` that pygame-ce's
    ``bitmask_overlap_pos`` finds first at the whole shift ``(sx, sy)``, or ``(-1, -1)``.

    pygame walks 64-pixel word columns, not rows: for each word column ``j`` of the
    mask placed to the right (``b`` when ``sx >= 0``, else ``a``), first the rows of
    the other mask's column that its low bits land in, then those of the next column
    (its high bits), each from the top, the lowest bit of a word first. With
    ``sx < 0`` pygame swaps the masks and scans from ``b``'s side.
    """
    if sx >= 0:
        return _stripe_scan(a, b, sx, sy)
    x, y = _stripe_scan(b, a, -sx, -sy)
    if y < 0:
        return x, y
    return x + sx, y + sy


@inline_kernel
def _stripe_scan(a, b, sx, sy):
    """:func:`first_overlap_striped` for ``sx >= 0``, in ``a``'s pixels."""
    wa, ha = a.shape
    wb, hb = b.shape
    y0, y1 = _rows_range(ha, hb, sy)
    base = sx >> 6
    shift = np.uint64(sx & 63)
    rshift = np.uint64(64) - shift
    rows = max(0, y1 - y0)
    for j in range(wb):
        k = base + j
        if k >= wa:
            break
        column = b[j, y0 - sy : y0 - sy + rows]  # 1D views: contiguous loops
        here = a[k, y0 : y0 + rows]
        for i in range(rows):
            word = here[i] & (column[i] << shift)
            if word != _ZERO:
                return 64 * k + np.int64(lowest_bit(word)), np.int64(y0 + i)
        if shift != _ZERO and k + 1 < wa:
            right = a[k + 1, y0 : y0 + rows]
            for i in range(rows):
                word = right[i] & (column[i] >> rshift)
                if word != _ZERO:
                    return 64 * (k + 1) + np.int64(lowest_bit(word)), np.int64(y0 + i)
    return np.int64(-1), np.int64(-1)


@borrowing_kernel
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
