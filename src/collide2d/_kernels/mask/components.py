"""Kernels for pygame.mask's shape analysis: connected components and the outline.

The components are labelled on the mask's row runs, not its pixels: a run in one
row joins the runs of the row above that it touches (8-connectivity), in a
union-find whose roots are the smallest run indices. Runs are stored in raster
order, so the components come out in pygame's order (by first pixel, row by row),
and a solid 1024 px disk is 960 runs instead of 720,000 pixels. Sizes are counted
exactly (pygame's count can lose pixels; see ``tests/mask/test_pygame_parity.py``).
The outline is pygame's tracing loop, carried over step for step.
"""

from __future__ import annotations

import numpy as np

from collide2d._kernels.jit import inline_kernel, kernel
from collide2d._kernels.mask.runs import set_bits

STEP_X = np.array([1, 1, 0, -1, -1, -1, 0, 1, 1, 1, 0, -1, -1, -1, 0, 1], dtype=np.int64)
STEP_Y = np.array([0, 1, 1, 1, 0, -1, -1, -1, 0, 1, 1, 1, 0, -1, -1, -1], dtype=np.int64)
"""pygame's outline directions (its two arrays of 14, continued to 16: the search
can reach index 14); global arrays are constants to numba."""


@kernel
def run_components(starts, x0, x1, minimum):
    """Label the 8-connected components of a mask given as row runs.

    Returns ``(number, count, sizes)``: each run's component number from 1 (0: in a
    component of fewer than ``minimum`` pixels), how many components are numbered,
    and the pixels of each (``sizes[k - 1]`` for component ``k``). Components are
    numbered in the order of their first pixel, row by row, as pygame numbers them.

    Runs ``[a0, a1)`` of row ``y`` and ``[b0, b1)`` of row ``y - 1`` touch (8-connected)
    when ``b0 <= a1`` and ``a0 <= b1``; each pair of rows is merged like two sorted
    lists. The union-find keeps the smaller run index as the root, so a root is its
    component's first run: runs are stored in raster order.
    """
    n = x0.shape[0]
    h = starts.shape[0] - 1
    parent = np.arange(n)
    for y in range(1, h):
        i = starts[y - 1]
        i_end = starts[y]
        j = i_end
        j_end = starts[y + 1]
        while i < i_end and j < j_end:
            if x0[j] <= x1[i] and x0[i] <= x1[j]:
                ri = i
                while parent[ri] != ri:
                    parent[ri] = parent[parent[ri]]
                    ri = parent[ri]
                rj = j
                while parent[rj] != rj:
                    parent[rj] = parent[parent[rj]]
                    rj = parent[rj]
                if ri < rj:
                    parent[rj] = ri
                elif rj < ri:
                    parent[ri] = rj
            if x1[i] < x1[j]:
                i += 1
            else:
                j += 1
    size = np.zeros(n, dtype=np.int64)
    for r in range(n):  # a parent's index is smaller: it is flat already
        parent[r] = parent[parent[r]]
        size[parent[r]] += x1[r] - x0[r]
    number = np.zeros(n, dtype=np.int64)
    count = 0
    for r in range(n):
        if parent[r] == r and size[r] >= minimum:
            count += 1
            number[r] = count
    sizes = np.zeros(count, dtype=np.int64)
    for r in range(n):
        number[r] = number[parent[r]]
        if parent[r] == r and number[r]:
            sizes[number[r] - 1] = size[r]
    return number, count, sizes


@kernel
def component_words(starts, x0, x1, number, keep, words):
    """Set the pixels of each component in its packed words (``words[c, k, y]``:
    component ``c + 1``'s word column ``k``, row ``y``, as
    :meth:`MaskStorage.words` stores them), or only of component ``keep`` when
    ``keep > 0`` (then ``c`` is 0). ``words`` comes zeroed from the caller: numpy
    asks the system for zeroed pages, which are mapped only where pixels are set, so
    two thousand components of a 512 px mask cost their pixels, not 68 MB of
    zeros."""
    h = starts.shape[0] - 1
    for y in range(h):
        for r in range(starts[y], starts[y + 1]):
            c = number[r]
            if c == 0 or (keep > 0 and c != keep):
                continue
            set_bits(words[c - 1 if keep <= 0 else 0, :, y], x0[r], x1[r])


@kernel
def component_boxes(starts, x0, x1, number, count):
    """Rows ``x, y, w, h`` of each component's bounding box, component 1 first."""
    h = starts.shape[0] - 1
    boxes = np.zeros((count, 4), dtype=np.int64)
    big = np.iinfo(np.int64).max
    left = np.full(count, big, dtype=np.int64)
    top = np.full(count, big, dtype=np.int64)
    right = np.zeros(count, dtype=np.int64)
    bottom = np.zeros(count, dtype=np.int64)
    for y in range(h):
        for r in range(starts[y], starts[y + 1]):
            c = number[r] - 1
            if c < 0:
                continue
            left[c] = min(left[c], x0[r])
            right[c] = max(right[c], x1[r])
            top[c] = min(top[c], y)
            bottom[c] = y + 1
    for c in range(count):
        boxes[c, 0] = left[c]
        boxes[c, 1] = top[c]
        boxes[c, 2] = right[c] - left[c]
        boxes[c, 3] = bottom[c] - top[c]
    return boxes


@inline_kernel
def _solid(bits, y, x):
    """Pixel ``(x - 1, y - 1)``: pygame traces a copy of the mask with a border of
    one empty pixel; reading through this costs nothing where the copy cost a pass
    over every pixel."""
    h, w = bits.shape
    return 1 <= y <= h and 1 <= x <= w and bits[y - 1, x - 1]


@kernel
def outline(bits, every, first_x, first_y):
    """pygame's outline of the first component met in raster order, whose first
    pixel is ``(first_x, first_y)``: rows ``x, y`` of every ``every``-th pixel along
    its border, the first pixel first."""
    h, w = bits.shape
    m = bits
    da = STEP_X
    db = STEP_Y
    out = np.empty((4 * (h + w) + 16, 2), dtype=np.int64)
    count = 0
    x = first_x + 1  # in the bordered copy's coordinates
    y = first_y + 1
    out[count, 0] = x - 1
    out[count, 1] = y - 1
    count += 1
    firstx = x
    firsty = y
    secx = 0
    secy = 0
    currx = 0
    curry = 0
    e = every
    n = 0
    for n in range(8):
        if _solid(m, y + db[n], x + da[n]):
            currx = secx = x + da[n]
            curry = secy = y + db[n]
            e -= 1
            if e == 0:
                e = every
                out[count, 0] = secx - 1
                out[count, 1] = secy - 1
                count += 1
            break
    if secx == 0:
        return out[:count]
    nextx = 0
    nexty = 0
    while True:
        n = (n + 6) & 7
        while True:
            if _solid(m, curry + db[n], currx + da[n]):
                nextx = currx + da[n]
                nexty = curry + db[n]
                e -= 1
                if e == 0:
                    e = every
                    if curry == firsty and currx == firstx and secx == nextx and secy == nexty:
                        break
                    if count == out.shape[0]:  # grow (pygame's list has no bound)
                        bigger = np.empty((2 * count, 2), dtype=np.int64)
                        for r in range(count):
                            bigger[r, 0] = out[r, 0]
                            bigger[r, 1] = out[r, 1]
                        out = bigger
                    out[count, 0] = nextx - 1
                    out[count, 1] = nexty - 1
                    count += 1
                break
            n += 1
        if curry == firsty and currx == firstx and secx == nextx and secy == nexty:
            break
        curry = nexty
        currx = nextx
    return out[:count]
