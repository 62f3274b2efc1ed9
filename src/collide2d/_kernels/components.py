"""Kernels over a mask's pixels for pygame.mask's shape analysis.

The connected-component labelling is pygame-ce's own (``cc_label`` in
``src_c/mask.c``: one raster pass, 8-connectivity, a union-find whose roots are the
smallest labels), carried over step for step, so the components come out in
pygame's order (by first pixel, row by row). Their sizes are counted exactly, where
pygame's count can lose pixels (see :func:`_sizes`). The outline is pygame's tracing
loop likewise.
"""

from __future__ import annotations

import numpy as np

from collide2d._kernels.jit import kernel

STEP_X = np.array([1, 1, 0, -1, -1, -1, 0, 1, 1, 1, 0, -1, -1, -1, 0, 1], dtype=np.int64)
STEP_Y = np.array([0, 1, 1, 1, 0, -1, -1, -1, 0, 1, 1, 1, 0, -1, -1, -1], dtype=np.int64)
"""pygame's outline directions (its two arrays of 14, continued to 16: the search
can reach index 14); global arrays are constants to numba."""


@kernel
def _find(ufind, label):
    while ufind[label] < label:
        label = ufind[label]
    return label


@kernel
def _union(ufind, c, other):
    """pygame's union of the labels ``c`` and ``other``: both paths set to the
    smaller root, which is returned."""
    croot = c
    root = _find(ufind, c)
    if croot != other:
        temp = other
        aroot = _find(ufind, other)
        if root > aroot:
            root = aroot
        while ufind[temp] > root:
            aroot = ufind[temp]
            ufind[temp] = root
            temp = aroot
    while ufind[croot] > root:
        temp = ufind[croot]
        ufind[croot] = root
        croot = temp
    return root


@kernel
def label(bits):
    """``(image, ufind, counts, labels)``: each pixel's provisional label (0: empty),
    the union-find array, the pixels given each provisional label, and how many
    labels were made (label 0 is no label)."""
    h, w = bits.shape
    image = np.zeros((h, w), dtype=np.int64)
    ufind = np.zeros(h * w + 2, dtype=np.int64)
    counts = np.zeros(h * w + 2, dtype=np.int64)
    n = 0
    for y in range(h):
        for x in range(w):
            if not bits[y, x]:
                continue
            a = image[y - 1, x - 1] if y > 0 and x > 0 else 0
            b = image[y - 1, x] if y > 0 else 0
            c = image[y - 1, x + 1] if y > 0 and x < w - 1 else 0
            d = image[y, x - 1] if x > 0 else 0
            if y == 0:  # the first row: only d
                value = d
            elif x == 0:  # the first pixel of a row: b, then c
                value = b if b else c
            elif x == w - 1:  # the last pixel of a row: b, a, d (no c)
                value = b if b else (a if a else d)
            elif b:
                value = b
            elif c:
                if a:
                    value = _union(ufind, c, a)
                elif d:
                    value = _union(ufind, c, d)
                else:
                    value = c
            elif a:
                value = a
            else:
                value = d
            if value == 0:
                n += 1
                value = n
                ufind[n] = n
                counts[n] = 0
            image[y, x] = value
            counts[value] += 1
    return image, ufind, counts, n


@kernel
def _sizes(ufind, counts, n):
    """Flatten ``ufind`` so every label names its root, and return each root's true
    pixel count (pygame adds a label's count to its parent before flattening, so
    counts that pass through a chain of labels are lost: its ``minimum`` filter and
    its largest component can be wrong; see ``tests/mask/test_pygame_parity.py``)."""
    sizes = np.zeros(n + 1, dtype=np.int64)
    for k in range(1, n + 1):
        if ufind[k] < k:
            ufind[k] = ufind[ufind[k]]  # the lower labels are flat already
        sizes[ufind[k]] += counts[k]
    return sizes


@kernel
def components(bits, minimum):
    """Each pixel's component number from 1 (0: empty or in a component smaller
    than ``minimum``), numbered in the order of their first pixel; and how many."""
    image, ufind, counts, n = label(bits)
    sizes = _sizes(ufind, counts, n)
    number = np.zeros(n + 1, dtype=np.int64)
    relabel = 0
    for k in range(1, n + 1):
        if ufind[k] == k and sizes[k] >= minimum:
            relabel += 1
            number[k] = relabel
    h, w = bits.shape
    out = np.zeros((h, w), dtype=np.int64)
    for y in range(h):
        for x in range(w):
            out[y, x] = number[ufind[image[y, x]]]
    return out, relabel


@kernel
def largest(bits, px, py):
    """The pixels of the largest component (the first, row by row, among equals), or
    of the component holding pixel ``(px, py)`` when ``px >= 0``."""
    image, ufind, counts, n = label(bits)
    h, w = bits.shape
    out = np.zeros((h, w), dtype=np.bool_)
    if n == 0:
        return out
    sizes = _sizes(ufind, counts, n)
    best = 1
    for k in range(2, n + 1):
        if sizes[k] > sizes[best]:
            best = k
    if px >= 0:
        best = ufind[image[py, px]]
    for y in range(h):
        for x in range(w):
            out[y, x] = image[y, x] != 0 and ufind[image[y, x]] == best
    return out


@kernel
def bounding_boxes(numbers, count):
    """Rows ``x, y, w, h`` of each component's bounding box, component 1 first."""
    h, w = numbers.shape
    boxes = np.zeros((count, 4), dtype=np.int64)
    x0 = np.full(count, w, dtype=np.int64)
    y0 = np.full(count, h, dtype=np.int64)
    x1 = np.full(count, -1, dtype=np.int64)
    y1 = np.full(count, -1, dtype=np.int64)
    for y in range(h):
        for x in range(w):
            k = numbers[y, x] - 1
            if k >= 0:
                x0[k] = min(x0[k], x)
                y0[k] = min(y0[k], y)
                x1[k] = max(x1[k], x)
                y1[k] = max(y1[k], y)
    for k in range(count):
        boxes[k, 0] = x0[k]
        boxes[k, 1] = y0[k]
        boxes[k, 2] = x1[k] - x0[k] + 1
        boxes[k, 3] = y1[k] - y0[k] + 1
    return boxes


@kernel
def outline(bits, every):
    """pygame's outline of the first component met in raster order: rows ``x, y``
    of every ``every``-th pixel along its border, the first pixel first."""
    h, w = bits.shape
    m = np.zeros((h + 2, w + 2), dtype=np.bool_)
    for y in range(h):  # loops, not a 2D slice assignment: that costs seconds to compile
        for x in range(w):
            m[y + 1, x + 1] = bits[y, x]
    da = STEP_X
    db = STEP_Y
    out = np.empty((2 * (h + 2) * (w + 2) + 2, 2), dtype=np.int64)
    count = 0
    x = 0
    y = 0
    found = False
    for y in range(1, h + 1):
        for x in range(1, w + 1):
            if m[y, x]:
                found = True
                break
        if found:
            break
    if not found:
        return out[:0]
    out[count, 0] = x - 1
    out[count, 1] = y - 1
    count += 1
    if x == w + 1 and y == h + 1:  # pygame's check after its search loops
        return out[:count]
    firstx = x
    firsty = y
    secx = 0
    secy = 0
    currx = 0
    curry = 0
    e = every
    n = 0
    for n in range(8):
        if m[y + db[n], x + da[n]]:
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
            if m[curry + db[n], currx + da[n]]:
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


@kernel
def convolve(a, b, out, xoffset, yoffset):
    """OR into ``out`` a copy of ``a`` at ``(xoffset + bw - 1 - x, yoffset + bh - 1 -
    y)`` for every solid pixel ``(x, y)`` of ``b`` (pygame's ``bitmask_convolve``).

    That is the Minkowski sum of ``a`` and ``b`` turned half a turn, so it is built
    from whichever of the two has fewer solid pixels: each of those ORs a shifted copy
    of the other into ``out`` row by row (vectorised byte rows)."""
    ah, aw = a.shape
    bh, bw = b.shape
    oh, ow = out.shape
    if ah == 0 or aw == 0 or bh == 0 or bw == 0 or oh == 0 or ow == 0:
        return
    xoffset += bw - 1
    yoffset += bh - 1
    flipped = b[::-1, ::-1].copy()  # pixel (x', y') of it is b's (bw-1-x', bh-1-y')
    if np.count_nonzero(a) < np.count_nonzero(b):
        sparse, dense = a, flipped  # out = a (+) flipped, moved by the offset: symmetric
    else:
        sparse, dense = flipped, a
    sh, sw = sparse.shape
    dh, dw = dense.shape
    shift_x = xoffset - (bw - 1)
    shift_y = yoffset - (bh - 1)
    for y in range(sh):
        for x in range(sw):
            if not sparse[y, x]:
                continue
            dx = x + shift_x
            dy = y + shift_y
            u0 = max(0, -dx)
            u1 = min(dw, ow - dx)
            if u0 >= u1:
                continue
            for v in range(max(0, -dy), min(dh, oh - dy)):
                row = out[v + dy, u0 + dx : u1 + dx]
                row |= dense[v, u0:u1]
