"""Traversals of two mask quadtrees (see ``collide2d.mask.quadtree`` for the pyramid).

A node is ``(level, i, j)``. Levels up to ``depth`` read the pyramid's ``solid`` and
``full`` grids; the three levels below read the 8 x 8 block patterns. Node pairs
are visited depth first, larger node first, skipping empty nodes and pairs whose
(open) rectangles do not overlap once ``b`` is moved by the offset.
"""

from __future__ import annotations

import numpy as np

from collide2d._kernels.intervals import (
    FACE,
    STARTED,
    box_sweep,
    circle_box_fraction,
    disc_overlaps_box,
    first_fraction,
)
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
    ox, oy, stop_at_first, out_a, out_b, counters,
):  # fmt: skip
    """Pairs of non-empty nodes, ``a``'s at level ``a_limit`` (or full, with
    ``stop_at_first``) and ``b``'s likewise, whose rectangles overlap with ``b`` moved by
    ``(ox, oy)``. Fills ``out_a`` / ``out_b`` rows ``level, x0, y0, x1, y1`` and returns
    how many pairs there are (counted beyond the buffers). With ``stop_at_first`` it
    returns 1 at the first pair of solid leaves (full nodes count as leaves then).
    ``counters`` += (leaf pairs reached, node pairs popped)."""
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
        counters[1] += 1
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
            counters[0] += 1
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


@inline_kernel
def push_nearest_last(stack, stack_fraction, stack_rank, top, kids, fractions, ranks, order, count):
    """Push ``kids[:count]`` (with their ``fractions`` and contact ``ranks``) onto ``stack``
    latest time first, so that the nearest child is popped next (an insertion sort:
    there are at most four). Returns the new top."""
    for k in range(count):
        order[k] = k
    for p in range(1, count):
        q = p
        while q > 0 and fractions[order[q - 1]] < fractions[order[q]]:
            order[q - 1], order[q] = order[q], order[q - 1]
            q -= 1
    for k in range(count):
        for m in range(kids.shape[1]):
            stack[top, m] = kids[order[k], m]
        stack_fraction[top] = fractions[order[k]]
        stack_rank[top] = ranks[order[k]]
        top += 1
    return top


@kernel
def tree_sweep(
    a_solid, a_full, a_offsets, a_blocks, a_depth, a_width, a_height, a_limit,
    b_solid, b_full, b_offsets, b_blocks, b_depth, b_width, b_height, b_limit,
    ox, oy, dx, dy, result, counters,
):  # fmt: skip
    """The first moment two quadtrees' solid leaves overlap, ``a`` moving by
    ``(dx, dy)`` against ``b`` placed at ``(ox, oy)``: branch and bound over node pairs,
    nearer pairs first, a pair skipped when its bounding sweep comes later than the
    best found (a node's pixels cannot meet earlier than its rectangle), or at the
    same time with no leaf pair that could win the tie.

    ``result`` gets ``fraction, a_x0, a_y0, b_x0, b_y0, rank`` of the winner (the
    earliest; on ties the smallest ``(rank, a_y, a_x, b_y, b_x)``, ranks as in
    ``collide2d._kernels.intervals``, so that a face contact beats a corner contact at
    the same moment); fraction ``inf`` if none. A node pair's rank bounds its leaf
    pairs' ranks from below (a pair of nodes that meet at their corners holds no leaf
    pair meeting face to face at that moment), so the pruning stays exact.
    Leaves are nodes at the level limits (single pixels at full detail). A pair's
    sweep is computed once, when it is pushed (empty children are never pushed):
    the divisions of the slab test are most of the cost. ``counters`` += (pair
    sweeps computed, node pairs popped).
    """
    size = 8 * (a_limit + b_limit + 4) + 16
    stack = np.empty((size, 6), dtype=np.int64)
    stack_fraction = np.empty(size)
    stack_rank = np.empty(size, dtype=np.int64)
    fractions = np.empty(4)
    ranks = np.empty(4, dtype=np.int64)
    order = np.empty(4, dtype=np.int64)
    kids = np.empty((4, 6), dtype=np.int64)
    best = np.inf
    best_key = (0, 0, 0, 0, 0)
    result[0] = np.inf
    if (
        node_kind(0, 0, 0, a_solid, a_full, a_offsets, a_blocks, a_depth, a_width, a_height)
        == EMPTY
        or node_kind(0, 0, 0, b_solid, b_full, b_offsets, b_blocks, b_depth, b_width, b_height)
        == EMPTY
    ):
        return
    ax0, ay0, ax1, ay1 = node_box(0, 0, 0, a_depth, a_width, a_height)
    bx0, by0, bx1, by1 = node_box(0, 0, 0, b_depth, b_width, b_height)
    enter, leave, _, rank = box_sweep(
        ax0, ay0, ax1, ay1, dx, dy, bx0 + ox, by0 + oy, bx1 + ox, by1 + oy
    )
    for k in range(6):
        stack[0, k] = 0
    stack_fraction[0] = first_fraction(enter, leave)
    stack_rank[0] = rank
    top = 1 if stack_fraction[0] < np.inf else 0
    # The pop, prune and tie test below repeat tree_box_sweep's on purpose: one
    # traversal of node pairs, one of single nodes; a shared helper would pass the
    # stack arrays and cost a call per pop in the hottest loop.
    while top > 0:
        top -= 1
        counters[1] += 1
        fraction = stack_fraction[top]
        if fraction > best:
            continue
        la = stack[top, 0]
        ia = stack[top, 1]
        ja = stack[top, 2]
        lb = stack[top, 3]
        ib = stack[top, 4]
        jb = stack[top, 5]
        ax0, ay0, ax1, ay1 = node_box(la, ia, ja, a_depth, a_width, a_height)
        bx0, by0, bx1, by1 = node_box(lb, ib, jb, b_depth, b_width, b_height)
        key = (stack_rank[top], ay0, ax0, by0, bx0)  # no leaf pair below has a smaller one
        if fraction == best and key >= best_key:
            continue
        a_leaf = la >= a_limit
        b_leaf = lb >= b_limit
        if a_leaf and b_leaf:
            best = fraction
            best_key = key
            result[0] = fraction
            result[1] = ax0
            result[2] = ay0
            result[3] = bx0
            result[4] = by0
            result[5] = stack_rank[top]
            continue
        split_a = not a_leaf and (b_leaf or (ax1 - ax0) * (ay1 - ay0) >= (bx1 - bx0) * (by1 - by0))
        side = 0 if split_a else 3
        count = 0
        for c in range(4):
            # The child's row of the stack: the split side's child, the other side kept.
            for m in range(6):
                kids[count, m] = stack[top, m]
            kl = kids[count, side] + 1
            ki = 2 * kids[count, side + 1] + (c >> 1)
            kj = 2 * kids[count, side + 2] + (c & 1)
            kids[count, side] = kl
            kids[count, side + 1] = ki
            kids[count, side + 2] = kj
            if split_a:
                kind = node_kind(
                    kl, ki, kj, a_solid, a_full, a_offsets, a_blocks, a_depth, a_width, a_height
                )
                cx0, cy0, cx1, cy1 = node_box(kl, ki, kj, a_depth, a_width, a_height)
                mx0, my0, mx1, my1 = cx0, cy0, cx1, cy1
                fx0, fy0, fx1, fy1 = bx0, by0, bx1, by1
            else:
                kind = node_kind(
                    kl, ki, kj, b_solid, b_full, b_offsets, b_blocks, b_depth, b_width, b_height
                )
                cx0, cy0, cx1, cy1 = node_box(kl, ki, kj, b_depth, b_width, b_height)
                mx0, my0, mx1, my1 = ax0, ay0, ax1, ay1
                fx0, fy0, fx1, fy1 = cx0, cy0, cx1, cy1
            if kind == EMPTY:  # (also a child outside the image)
                continue
            counters[0] += 1
            e, leave_c, _, rank_c = box_sweep(
                mx0, my0, mx1, my1, dx, dy, fx0 + ox, fy0 + oy, fx1 + ox, fy1 + oy
            )
            fraction_c = first_fraction(e, leave_c)
            if fraction_c == np.inf or fraction_c > best:
                continue
            fractions[count] = fraction_c
            ranks[count] = rank_c
            count += 1
        top = push_nearest_last(
            stack, stack_fraction, stack_rank, top, kids, fractions, ranks, order, count
        )


@kernel
def tree_box_sweep(
    solid, full, offsets, blocks, depth, width, height, limit,
    x0, y0, x1, y1, dx, dy, round_, result, counters,
):  # fmt: skip
    """The first moment the box ``(x0, y0, x1, y1)`` (with ``round_``: the circle of
    centre ``(x0, y0)`` and radius ``x1``), moving by ``(dx, dy)``, overlaps a solid
    leaf of the tree (nearest first, later nodes pruned). ``result`` gets
    ``fraction, leaf_x0, leaf_y0, rank``; fraction ``inf`` if none. Ties: the smallest
    ``(rank, leaf_y, leaf_x)`` (see :func:`tree_sweep`). As there, a node's fraction is
    computed once, when it is pushed. ``counters`` += (node sweeps computed, nodes popped)."""
    size = 4 * (limit + 4) + 16
    stack = np.empty((size, 3), dtype=np.int64)
    stack_fraction = np.empty(size)
    stack_rank = np.empty(size, dtype=np.int64)
    fractions = np.empty(4)
    ranks = np.empty(4, dtype=np.int64)
    kids = np.empty((4, 3), dtype=np.int64)
    order = np.empty(4, dtype=np.int64)
    best = np.inf
    best_key = (0, 0, 0)
    result[0] = np.inf
    top = 0
    if node_kind(0, 0, 0, solid, full, offsets, blocks, depth, width, height) != EMPTY:
        nx0, ny0, nx1, ny1 = node_box(0, 0, 0, depth, width, height)
        fraction, rank = _box_fraction(x0, y0, x1, y1, dx, dy, round_, nx0, ny0, nx1, ny1)
        if fraction < np.inf:  # push the root as the children are pushed below
            stack[0, 0] = 0
            stack[0, 1] = 0
            stack[0, 2] = 0
            stack_fraction[0] = fraction
            stack_rank[0] = rank
            top = 1
    while top > 0:
        top -= 1
        counters[1] += 1
        fraction = stack_fraction[top]
        if fraction > best:
            continue
        level = stack[top, 0]
        i = stack[top, 1]
        j = stack[top, 2]
        nx0, ny0, nx1, ny1 = node_box(level, i, j, depth, width, height)
        key = (stack_rank[top], ny0, nx0)  # no leaf below has a smaller key
        if fraction == best and key >= best_key:
            continue
        if level >= limit:
            best = fraction
            best_key = key
            result[0] = fraction
            result[1] = nx0
            result[2] = ny0
            result[3] = stack_rank[top]
            continue
        count = 0
        for c in range(4):
            ki = 2 * i + (c >> 1)
            kj = 2 * j + (c & 1)
            if (
                node_kind(level + 1, ki, kj, solid, full, offsets, blocks, depth, width, height)
                == EMPTY
            ):
                continue
            cx0, cy0, cx1, cy1 = node_box(level + 1, ki, kj, depth, width, height)
            counters[0] += 1
            fraction_c, rank_c = _box_fraction(x0, y0, x1, y1, dx, dy, round_, cx0, cy0, cx1, cy1)
            if fraction_c == np.inf or fraction_c > best:
                continue
            kids[count, 0] = level + 1
            kids[count, 1] = ki
            kids[count, 2] = kj
            fractions[count] = fraction_c
            ranks[count] = rank_c
            count += 1
        top = push_nearest_last(
            stack, stack_fraction, stack_rank, top, kids, fractions, ranks, order, count
        )


@inline_kernel
def _box_fraction(x0, y0, x1, y1, dx, dy, round_, nx0, ny0, nx1, ny1):
    """First fraction in ``[0, 1)`` at which the moving box (or, with ``round_``, circle)
    of :func:`tree_box_sweep` overlaps the node box, and the contact's rank (a circle
    meets a box face to face or at a rounded corner: never a sharp corner)."""
    if round_:
        fraction = circle_box_fraction(x0, y0, x1, dx, dy, nx0, ny0, nx1, ny1)
        started = disc_overlaps_box(x0, y0, x1, nx0, ny0, nx1, ny1)
        return fraction, STARTED if started else FACE
    enter, leave, _, rank = box_sweep(x0, y0, x1, y1, dx, dy, nx0, ny0, nx1, ny1)
    return first_fraction(enter, leave), rank
