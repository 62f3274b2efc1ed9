"""Traversals of two mask quadtrees (see ``collide2d.mask.quadtree`` for the pyramid).

A node is ``(level, i, j)``. Levels up to ``depth`` read the pyramid's ``solid`` and
``full`` grids; the three levels below read the 8 x 8 block patterns. Node pairs
are visited depth first, larger node first, skipping empty nodes and pairs whose
(open) rectangles do not overlap once ``b`` is moved by the offset.
"""

from __future__ import annotations

import numpy as np

from collide2d._kernels.jit import inline_kernel, kernel

EMPTY = 0
FULL = 1
MIXED = 2


@inline_kernel
def node_box(level, i, j, depth, width, height):
    """Pixel bounds ``x0, y0, x1, y1`` of a node, clipped to the image."""
    side = (8 << depth) >> level
    x0 = j * side
    y0 = i * side
    return x0, y0, min(x0 + side, width), min(y0 + side, height)


@inline_kernel
def node_kind(level, i, j, solid, full, offsets, blocks, depth, width, height):
    """EMPTY, FULL or MIXED (a node outside the image is EMPTY)."""
    x0, y0, x1, y1 = node_box(level, i, j, depth, width, height)
    if x0 >= x1 or y0 >= y1:
        return EMPTY
    if level <= depth:
        at = offsets[level] + i * (1 << level) + j
        if not solid[at]:
            return EMPTY
        return FULL if full[at] else MIXED
    pattern = blocks[y0 >> 3, x0 >> 3]
    region = np.uint64(0)
    for y in range(y0, y1):
        for x in range(x0, x1):
            region |= np.uint64(1) << np.uint64(8 * (y & 7) + (x & 7))
    have = pattern & region
    if have == np.uint64(0):
        return EMPTY
    return FULL if have == region else MIXED


@kernel
def tree_pairs(
    a_solid, a_full, a_offsets, a_blocks, a_depth, a_width, a_height, a_limit,
    b_solid, b_full, b_offsets, b_blocks, b_depth, b_width, b_height, b_limit,
    ox, oy, stop_at_first, out_a, out_b,
):  # fmt: skip
    """Pairs of non-empty nodes, ``a``'s at level ``a_limit`` (or full, with
    ``stop_at_first``) and ``b``'s likewise, whose rectangles overlap with ``b`` moved by
    ``(ox, oy)``. Fills ``out_a`` / ``out_b`` rows ``level, x0, y0, x1, y1`` and returns
    how many pairs there are (counted beyond the buffers). With ``stop_at_first`` it
    returns 1 at the first pair of solid leaves (full nodes count as leaves then)."""
    cap = out_a.shape[0]
    size = 8 * (a_limit + b_limit + 4) + 16
    stack = np.empty((size, 6), dtype=np.int64)
    top = 0
    if (
        node_kind(0, 0, 0, a_solid, a_full, a_offsets, a_blocks, a_depth, a_width, a_height)
        == EMPTY
    ):
        return 0
    if (
        node_kind(0, 0, 0, b_solid, b_full, b_offsets, b_blocks, b_depth, b_width, b_height)
        == EMPTY
    ):
        return 0
    stack[0, 0] = 0
    stack[0, 1] = 0
    stack[0, 2] = 0
    stack[0, 3] = 0
    stack[0, 4] = 0
    stack[0, 5] = 0
    top = 1
    found = 0
    while top > 0:
        top -= 1
        la = stack[top, 0]
        ia = stack[top, 1]
        ja = stack[top, 2]
        lb = stack[top, 3]
        ib = stack[top, 4]
        jb = stack[top, 5]
        ax0, ay0, ax1, ay1 = node_box(la, ia, ja, a_depth, a_width, a_height)
        bx0, by0, bx1, by1 = node_box(lb, ib, jb, b_depth, b_width, b_height)
        if not (ax0 < bx1 + ox and bx0 + ox < ax1 and ay0 < by1 + oy and by0 + oy < ay1):
            continue
        ka = node_kind(la, ia, ja, a_solid, a_full, a_offsets, a_blocks, a_depth, a_width, a_height)
        kb = node_kind(lb, ib, jb, b_solid, b_full, b_offsets, b_blocks, b_depth, b_width, b_height)
        if ka == EMPTY or kb == EMPTY:
            continue
        a_leaf = la >= a_limit or (stop_at_first and ka == FULL)
        b_leaf = lb >= b_limit or (stop_at_first and kb == FULL)
        if a_leaf and b_leaf:
            if stop_at_first:
                return 1
            if found < cap:
                out_a[found, 0] = la
                out_a[found, 1] = ax0
                out_a[found, 2] = ay0
                out_a[found, 3] = ax1
                out_a[found, 4] = ay1
                out_b[found, 0] = lb
                out_b[found, 1] = bx0
                out_b[found, 2] = by0
                out_b[found, 3] = bx1
                out_b[found, 4] = by1
            found += 1
            continue
        # Split the larger node (or the one that is not a leaf); push children so that
        # the top-left child is visited first.
        split_a = not a_leaf and (b_leaf or (ax1 - ax0) * (ay1 - ay0) >= (bx1 - bx0) * (by1 - by0))
        for c in range(3, -1, -1):
            di = c >> 1
            dj = c & 1
            if split_a:
                stack[top, 0] = la + 1
                stack[top, 1] = 2 * ia + di
                stack[top, 2] = 2 * ja + dj
                stack[top, 3] = lb
                stack[top, 4] = ib
                stack[top, 5] = jb
            else:
                stack[top, 0] = la
                stack[top, 1] = ia
                stack[top, 2] = ja
                stack[top, 3] = lb + 1
                stack[top, 4] = 2 * ib + di
                stack[top, 5] = 2 * jb + dj
            top += 1
    return found
