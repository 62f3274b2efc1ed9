"""Kernels over masks stored as runs: each row's solid pixels as ``[x0, x1)`` spans.

For shapes with few runs per row (sprites, disks, solid blobs) overlap and area
cost O(rows + runs) instead of O(words). With ``other`` at offset ``(ox, oy)``, its
run ``[u0, u1)`` of row ``v`` covers ``[u0 + ox, u1 + ox)`` of the rows it meets:
row ``v`` shares ``1 - fy`` of row ``y = v + sy0`` and ``fy`` of row ``y + 1``
(``oy = sy0 + fy``). The area of two runs is the length of their intersection
times that share: exact for whole offsets.
"""

from __future__ import annotations

import numpy as np

from collide2d._kernels.jit import inline_kernel, kernel
from collide2d._kernels.mask.bits import lowest_bit, popcount

_ONE = np.uint64(1)
_ZERO = np.uint64(0)

INT_MAX = 2**63 - 1
INT_MIN = -(2**63)
BLOCK_ROWS = 32
"""Rows per block of the block extents, which let a query skip 32 rows at a time."""


@kernel
def block_extents(starts, x0, x1, block):
    """``(lo, hi)`` per block of ``block`` rows: the smallest run start and the largest
    run end in those rows (``lo > hi`` for a block without runs)."""
    h = starts.shape[0] - 1
    blocks = (h + block - 1) // block
    lo = np.full(blocks, np.iinfo(np.int64).max, dtype=np.int64)
    hi = np.full(blocks, np.iinfo(np.int64).min, dtype=np.int64)
    for y in range(h):
        k = y // block
        for r in range(starts[y], starts[y + 1]):
            if x0[r] < lo[k]:
                lo[k] = x0[r]
            if x1[r] > hi[k]:
                hi[k] = x1[r]
    return lo, hi


@kernel
def runs_from_words(words, width):
    """``(starts, x0, x1)`` of the packed words (``words[k, y]``, as
    :meth:`MaskStorage.words` stores them): row ``y``'s runs are
    ``x0[starts[y]:starts[y+1]]`` and ``x1[...]``. A run starts at each bit set whose
    lower neighbour is clear and ends at each bit clear whose lower neighbour is
    set, so a word without such a transition (all solid or all empty: most words
    of a sprite) costs one test instead of 64 pixel reads. Bits at or past
    ``width`` are ignored."""
    columns, h = words.shape
    spare = width & 63
    last = ((_ONE << np.uint64(spare)) - _ONE) if spare else ~_ZERO
    count = np.int64(0)
    for y in range(h):
        carry = _ZERO
        for k in range(columns):
            word = words[k, y]
            if k == columns - 1:
                word &= last
            count += np.int64(popcount(word & ~((word << _ONE) | carry)))
            carry = word >> np.uint64(63)
    starts = np.empty(h + 1, dtype=np.int64)
    x0 = np.empty(count, dtype=np.int64)
    x1 = np.empty(count, dtype=np.int64)
    r = 0
    for y in range(h):
        starts[y] = r
        carry = _ZERO
        for k in range(columns):
            word = words[k, y]
            if k == columns - 1:
                word &= last
            before = (word << _ONE) | carry
            carry = word >> np.uint64(63)
            edges = word ^ before  # starts: word & ~before; ends: ~word & before
            while edges:
                bit = edges & (~edges + _ONE)
                x = 64 * k + np.int64(lowest_bit(edges))
                if word & bit:
                    x0[r] = x
                else:
                    x1[r] = x
                    r += 1
                edges ^= bit
        if carry:
            x1[r] = width
            r += 1
    starts[h] = r
    return starts, x0, x1


@kernel
def blocks_to_scan(y_lo, y_hi, shift, a_lo, a_hi, b_lo, b_hi, ox, margin, out):
    """Write into ``out`` the blocks of ``a`` (rows clipped to ``[y_lo, y_hi)``) worth
    scanning against ``b`` shifted by ``(ox, shift)``, and return how many: not a block
    without runs, nor one whose extent cannot meet the extents of the ``b`` blocks its
    rows face (widened by ``margin`` on the left).

    One loop over all the blocks, not a helper called per block: as an inlined
    helper the same test cost 80 ns a block instead of 2 (numba's inlining made slow
    code of it), and a 2048 px near miss checks 64 blocks, an 8192 px one 256."""
    block = BLOCK_ROWS
    count = 0
    for y_block in range(y_lo // block, (y_hi + block - 1) // block):
        first = max(y_lo, y_block * block)
        last = min(y_hi, (y_block + 1) * block)
        if first >= last or a_lo[y_block] > a_hi[y_block]:
            continue
        lo_b = INT_MAX
        hi_b = INT_MIN
        for b_block in range((first - shift) // block, (last - 1 - shift) // block + 1):
            lo_b = min(lo_b, b_lo[b_block])
            hi_b = max(hi_b, b_hi[b_block])
        if lo_b > hi_b:
            continue
        if min(a_hi[y_block], hi_b + ox) - max(a_lo[y_block], lo_b + ox - margin) <= 0.0:
            continue
        out[count] = y_block
        count += 1
    return count


@kernel
def runs_overlap(
    a_starts, a_x0, a_x1, a_lo, a_hi, b_starts, b_x0, b_x1, b_lo, b_hi, ox, oy, stop_at_first
):  # fmt: skip
    """The shared area of the two run sets (``b`` at ``(ox, oy)``); with
    ``stop_at_first``, 1.0 as soon as any positive area is found (0.0 if none).

    ``a_lo, a_hi`` / ``b_lo, b_hi`` are the block extents (:func:`block_extents`): a
    block of ``a`` whose extent cannot meet the extents of the ``b`` blocks its rows
    face is skipped whole."""
    ha = a_starts.shape[0] - 1
    hb = b_starts.shape[0] - 1
    block = BLOCK_ROWS
    chosen = np.empty(a_lo.shape[0], dtype=np.int64)
    sy0 = int(np.floor(oy))
    fy = oy - sy0
    area = 0.0
    for k in range(2):
        share = 1.0 - fy if k == 0 else fy
        if share <= 0.0:
            continue
        shift = sy0 + k  # b's row v meets a's row v + shift
        y_lo = max(0, shift)
        y_hi = min(ha, hb + shift)
        count = blocks_to_scan(y_lo, y_hi, shift, a_lo, a_hi, b_lo, b_hi, ox, 0.0, chosen)
        for t in range(count):
            y_block = chosen[t]
            for y in range(max(y_lo, y_block * block), min(y_hi, (y_block + 1) * block)):
                v = y - shift
                p = a_starts[y]
                p_end = a_starts[y + 1]
                q = b_starts[v]
                q_end = b_starts[v + 1]
                while p < p_end and q < q_end:
                    left_b = b_x0[q] + ox
                    right_b = b_x1[q] + ox
                    length = min(a_x1[p], right_b) - max(a_x0[p], left_b)
                    if length > 0.0:
                        if stop_at_first:
                            return 1.0
                        area += share * length
                    if a_x1[p] < right_b:
                        p += 1
                    else:
                        q += 1
    return area


@kernel
def spans_overlap(a_x0, a_x1, b_x0, b_x1, ox, sy):
    """The pixels shared by two masks of one run a row (``Mask.spans``), ``b`` at the
    whole offset ``(ox, sy)``: one contiguous loop over the rows both have, which
    LLVM vectorizes (no merging, no branch)."""
    y_lo = max(0, sy)
    y_hi = min(a_x0.shape[0], b_x0.shape[0] + sy)
    area = np.int64(0)
    if y_hi <= y_lo:
        return area
    a0 = a_x0[y_lo:y_hi]
    a1 = a_x1[y_lo:y_hi]
    b0 = b_x0[y_lo - sy : y_hi - sy]
    b1 = b_x1[y_lo - sy : y_hi - sy]
    for i in range(y_hi - y_lo):
        length = min(a1[i], b1[i] + ox) - max(a0[i], b0[i] + ox)
        area += max(length, 0)
    return area


@inline_kernel
def set_bits(row, x0, x1):
    """Set bits ``x0 .. x1 - 1`` of a packed row (``words[:, y]`` of a mask's words:
    a strided view is fine)."""
    x = x0
    while x < x1:
        k = x >> 6
        start = x & 63
        stop = min(64, start + (x1 - x))
        span = stop - start
        if span == 64:
            mask = np.uint64(0xFFFFFFFFFFFFFFFF)
        else:
            mask = ((np.uint64(1) << np.uint64(span)) - np.uint64(1)) << np.uint64(start)
        row[k] |= mask
        x += span


@kernel
def runs_overlap_words(
    a_starts, a_x0, a_x1, a_lo, a_hi, b_starts, b_x0, b_x1, b_lo, b_hi, ox, oy, columns
):  # fmt: skip
    """The packed words (``columns`` word columns, as ``Mask.words``) of ``a``'s pixels
    that share area with ``b`` at ``(ox, oy)``, or an empty array when there are none
    (masks that do not meet cost no output). Pixel ``x`` meets ``b``'s span
    ``[u0 + ox, u1 + ox)`` when ``u0 + ox - 1 < x < u1 + ox``."""
    ha = a_starts.shape[0] - 1
    hb = b_starts.shape[0] - 1
    out = np.zeros((0, 0), dtype=np.uint64)
    block = BLOCK_ROWS
    chosen = np.empty(a_lo.shape[0], dtype=np.int64)
    sy0 = int(np.floor(oy))
    fy = oy - sy0
    for k in range(2):
        if (k == 0 and fy >= 1.0) or (k == 1 and fy <= 0.0):
            continue
        shift = sy0 + k
        y_lo = max(0, shift)
        y_hi = min(ha, hb + shift)
        # The row walk repeats runs_overlap's on purpose: there it sums lengths, here
        # it sets bits; the merge of two run lists is the inner loop of both.
        count = blocks_to_scan(y_lo, y_hi, shift, a_lo, a_hi, b_lo, b_hi, ox, 1.0, chosen)
        for t in range(count):
            y_block = chosen[t]
            for y in range(max(y_lo, y_block * block), min(y_hi, (y_block + 1) * block)):
                v = y - shift
                p = a_starts[y]
                p_end = a_starts[y + 1]
                q = b_starts[v]
                q_end = b_starts[v + 1]
                while p < p_end and q < q_end:
                    # b's span as the pixels of a it meets: x_first <= x < x_stop
                    x_first = int(np.floor(b_x0[q] + ox - 1.0)) + 1
                    x_stop = int(np.ceil(b_x1[q] + ox))
                    lo = max(a_x0[p], x_first)
                    hi = min(a_x1[p], x_stop)
                    if lo < hi:
                        if out.shape[0] == 0:
                            out = np.zeros((columns, ha), dtype=np.uint64)
                        set_bits(out[:, y], lo, hi)
                    if a_x1[p] < x_stop:
                        p += 1
                    else:
                        q += 1
    return out


@kernel
def stacked_boxes(starts, x0, x1):
    """The solid pixels as boxes ``(x0, y0, x1, y1)``, sorted by ``(y0, x0)``: each
    run of a row extends the box of the same run in the row above, or starts a box.
    The boxes' union is the solid pixels, and no two overlap."""
    h = starts.shape[0] - 1
    n = x0.shape[0]
    out = np.empty((n, 4), dtype=np.int64)
    open_ = np.empty(n, dtype=np.int64)  # box number of each run of the row above
    count = 0
    for y in range(h):
        p = starts[y - 1] if y > 0 else 0
        p_end = starts[y] if y > 0 else 0
        for r in range(starts[y], starts[y + 1]):
            while p < p_end and x0[p] < x0[r]:
                p += 1
            if p < p_end and x0[p] == x0[r] and x1[p] == x1[r]:
                box = open_[p]
                out[box, 3] = y + 1
            else:
                box = count
                count += 1
                out[box, 0] = x0[r]
                out[box, 1] = y
                out[box, 2] = x1[r]
                out[box, 3] = y + 1
            open_[r] = box
    return out[:count]


@kernel
def row_moments(starts, x0, x1):
    """Per row: the solid pixels, the sum of their ``x`` and of their ``x**2``, from the
    runs in closed form (a run ``[a, b)`` has ``b - a`` pixels, ``x`` summing to
    ``(b - a) (a + b - 1) / 2`` and ``x**2`` to ``S(b) - S(a)``, ``S(k) = (k - 1) k
    (2k - 1) / 6``). Exact in int64 for rows narrower than a million pixels."""
    h = starts.shape[0] - 1
    count = np.zeros(h, dtype=np.int64)
    sum_x = np.zeros(h, dtype=np.int64)
    sum_xx = np.zeros(h, dtype=np.int64)
    for y in range(h):
        for r in range(starts[y], starts[y + 1]):
            a = x0[r]
            b = x1[r]
            count[y] += b - a
            sum_x[y] += (b - a) * (a + b - 1) // 2
            sum_xx[y] += ((b - 1) * b * (2 * b - 1) - (a - 1) * a * (2 * a - 1)) // 6
    return count, sum_x, sum_xx


@kernel
def moments(starts, x0, x1):
    """``m00, m10, m01, m20, m02, m11`` of the solid pixels, in int64: exact while
    ``max(w, h)**2 * w * h < 2**62`` (the caller checks)."""
    count, sum_x, sum_xx = row_moments(starts, x0, x1)
    m00 = m10 = m01 = m20 = m02 = m11 = 0
    for y in range(count.shape[0]):
        m00 += count[y]
        m10 += sum_x[y]
        m01 += y * count[y]
        m20 += sum_xx[y]
        m02 += y * y * count[y]
        m11 += y * sum_x[y]
    return m00, m10, m01, m20, m02, m11


@kernel
def scaled_words(starts, x0, x1, width, new_width, words):
    """Fill ``words[0]`` (``(columns, new_h)``, zeroed) with the mask of these runs
    (``width`` pixels wide) scaled by nearest pixel to ``new_width`` by ``new_h``:
    output pixel ``(i, j)`` is pixel ``(i * w // new_w, j * h // new_h)``. A run
    ``[a, b)`` covers the output columns ``i`` with ``a <= i * w // new_w < b``, that
    is ``ceil(a * new_w / w) <= i < ceil(b * new_w / w)``; a repeated source row is
    a copy of the output row before it."""
    h = starts.shape[0] - 1
    new_h = words.shape[2]
    columns = words.shape[1]
    last = -1
    for j in range(new_h):
        y = j * h // new_h
        if y == last:
            for k in range(columns):
                words[0, k, j] = words[0, k, j - 1]
            continue
        last = y
        for r in range(starts[y], starts[y + 1]):
            first = (x0[r] * new_width + width - 1) // width
            stop = (x1[r] * new_width + width - 1) // width
            set_bits(words[0, :, j], first, stop)
