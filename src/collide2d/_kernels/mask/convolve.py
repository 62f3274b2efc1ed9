"""pygame's ``Mask.convolve`` on packed words: a Minkowski sum built run by run.

The result is ``dense (+) sparse`` moved by an offset: every solid pixel ``u`` of
the sparse mask ORs a copy of the dense mask shifted by ``u`` into the output.
pygame ORs one shifted copy per solid pixel. Here the sparse mask is read as row
runs: a run ``[x0, x0 + L)`` ORs the dense rows *dilated* by ``L`` (each row OR-ed
with itself shifted by ``0 .. L - 1``), shifted by ``x0``. A dilation by ``2**k`` is
the one by ``2**(k-1)`` OR-ed with itself shifted by ``2**(k-1)``, and a dilation by
``L`` with ``2**k <= L < 2**(k+1)`` is two copies of the one by ``2**k``, at ``0`` and
``L - 2**k``. So the runs are taken in order of ``k``, the dense rows dilated one
doubling at a time in place, and each run costs two shifted ORs per dense row:
a solid 32 px disk, 800 pixels in 32 runs, costs 64 row ORs instead of 800.

Rows are packed row by row here (``words[y, k]``: pixels ``64 k + i`` in bit ``i``).
All arithmetic on words stays in uint64 (numba would make floats of mixed
signed and unsigned integers).
"""

from __future__ import annotations

import numpy as np

from collide2d._kernels.jit import inline_kernel, kernel

_SIXTY_FOUR = np.uint64(64)


@inline_kernel
def _or_shifted(out, row, src, srow, shift):
    """``out[row] |= src[srow]`` moved toward higher pixels by ``shift`` (negative:
    lower), clipped to ``out``'s words."""
    n_out = out.shape[1]
    n_src = src.shape[1]
    if shift >= 0:
        q = shift >> 6
        r = np.uint64(shift & 63)
        for j in range(min(n_src, n_out - q)):
            out[row, j + q] |= src[srow, j] << r
        if r:
            back = _SIXTY_FOUR - r
            for j in range(min(n_src, n_out - q - 1)):
                out[row, j + q + 1] |= src[srow, j] >> back
    else:
        q = (-shift) >> 6
        r = np.uint64((-shift) & 63)
        for j in range(min(n_out, n_src - q)):
            out[row, j] |= src[srow, j + q] >> r
        if r:
            back = _SIXTY_FOUR - r
            for j in range(min(n_out, n_src - q - 1)):
                out[row, j] |= src[srow, j + q + 1] << back


@kernel
def dilate_sum(starts, x0, x1, dense, dense_width, out, out_width, xoffset, yoffset):
    """OR into ``out`` (rows of words) the sum of the runs ``starts, x0, x1`` and the
    rows of words ``dense`` (``dense_width`` pixels wide), moved by ``(xoffset,
    yoffset)``: pixel ``(x + u + xoffset, y + v + yoffset)`` for every solid ``(x, y)``
    of the runs and ``(u, v)`` of ``dense``. Bits at or past ``out_width`` are cleared."""
    n = x0.shape[0]
    dh = dense.shape[0]
    oh = out.shape[0]
    if n == 0 or dh == 0 or oh == 0:
        return
    level = np.empty(n, dtype=np.int64)  # k: 2**k <= L < 2**(k+1)
    top = 0
    for r in range(n):
        length = x1[r] - x0[r]
        k = 0
        while (2 << k) <= length:
            k += 1
        level[r] = k
        top = max(top, k)
    rows = np.empty(n, dtype=np.int64)
    for y in range(starts.shape[0] - 1):
        for r in range(starts[y], starts[y + 1]):
            rows[r] = y
    first_of = np.zeros(top + 2, dtype=np.int64)  # the runs by level (counting sort)
    for r in range(n):
        first_of[level[r] + 1] += 1
    for k in range(top + 1):
        first_of[k + 1] += first_of[k]
    order = np.empty(n, dtype=np.int64)
    fill = first_of.copy()
    for r in range(n):
        order[fill[level[r]]] = r
        fill[level[r]] += 1
    width = (dense_width + (1 << top) - 1 + 63) >> 6
    grown = np.zeros((dh, width), dtype=np.uint64)
    for v in range(dh):
        for j in range(dense.shape[1]):
            grown[v, j] = dense[v, j]
    for k in range(top + 1):
        if k > 0:  # grown rows: dilated by 2**(k-1) -> by 2**k, in place, high words first
            step = 1 << (k - 1)
            q = step >> 6
            bit = np.uint64(step & 63)
            for v in range(dh):
                for j in range(width - 1, -1, -1):
                    add = np.uint64(0)
                    if j - q >= 0:
                        add = grown[v, j - q] << bit
                        if bit and j - q - 1 >= 0:
                            add |= grown[v, j - q - 1] >> (_SIXTY_FOUR - bit)
                    grown[v, j] |= add
        for at in range(first_of[k], first_of[k + 1]):
            run = order[at]
            first = x0[run] + xoffset
            second = first + (x1[run] - x0[run]) - (1 << k)
            dy = rows[run] + yoffset
            for v in range(max(0, -dy), min(dh, oh - dy)):
                _or_shifted(out, v + dy, grown, v, first)
                if second != first:
                    _or_shifted(out, v + dy, grown, v, second)
    spare = out_width & 63
    if spare:
        keep = (np.uint64(1) << np.uint64(spare)) - np.uint64(1)
        last = out.shape[1] - 1
        for y in range(oh):
            out[y, last] &= keep
