"""The region quadtree of :class:`collide2d.Quadtree`, built in one compiled pass.

Boxes arrive as one ``(N, 4)`` float64 array of closed bounds (rows ``lo_x, lo_y,
hi_x, hi_y``). The tree is a set of node arrays: ``node_box`` (M, 4) each node's
closed region, ``node_depth``, ``node_child`` (the first of four children, or -1 for
a leaf), and each leaf's items as the segment ``buf[node_start:node_start +
node_count]`` of the item buffer. Children are, in order, top-left, top-right,
bottom-left, bottom-right; an item is listed in every leaf its box touches.

A leaf holding more than ``capacity`` items splits into its four quadrants, unless
it is at ``max_depth``, its region can no longer be halved in floats, or every
quadrant would hold all its items (every box spans the centre). The kernels that
emit write at most the room they were given and return how much they needed, so the
caller grows the arrays and calls again.
"""

from __future__ import annotations

import numpy as np

from collide2d._kernels.jit import kernel
from collide2d._kernels.pairs.overlap import overlap_items


@kernel
def build(box, items, root, capacity, max_depth, node_box, node_depth, node_child,
          node_start, node_count, buf, quads, stack):  # fmt: skip
    """Build the tree of ``items`` (indices into ``box``, all inside ``root``) over
    the region ``root`` (4,). Returns ``(nodes, buffer used)``; either may exceed the
    arrays' lengths, and then the arrays were too short (call again with more).
    ``quads`` (``int8``, as long as ``buf``) is working room: a split classifies each
    of its items once (the quadrants it touches, four bits), then copies each
    quadrant's items by their bit (no box read again, no array made a split)."""
    m = items.shape[0]
    room_nodes = node_box.shape[0]
    room_buf = buf.shape[0]
    for k in range(m):
        if k < room_buf:
            buf[k] = items[k]
    used = m
    nodes = 1
    if room_nodes > 0:
        for c in range(4):
            node_box[0, c] = root[c]
        node_depth[0] = 0
        node_child[0] = -1
        node_start[0] = 0
        node_count[0] = m
    if room_nodes == 0 or used > room_buf:
        return nodes, used
    top = 0
    stack[0] = 0
    top = 1
    while top > 0:
        top -= 1
        node = stack[top]
        count = node_count[node]
        depth = node_depth[node]
        if count <= capacity or depth >= max_depth:
            continue
        left = node_box[node, 0]
        up = node_box[node, 1]
        right = node_box[node, 2]
        down = node_box[node, 3]
        mx = (left + right) * 0.5
        my = (up + down) * 0.5
        if not (left < mx < right and up < my < down):
            continue  # the region can no longer be halved
        start = node_start[node]
        # One pass: each item's quadrants as four bits (in ``quads``, beside it).
        c0 = c1 = c2 = c3 = 0
        for k in range(start, start + count):
            i = buf[k]
            west = box[i, 0] <= mx
            east = mx <= box[i, 2]
            north = box[i, 1] <= my
            south = my <= box[i, 3]
            bits = 0
            if west and north:
                bits |= 1
                c0 += 1
            if east and north:
                bits |= 2
                c1 += 1
            if west and south:
                bits |= 4
                c2 += 1
            if east and south:
                bits |= 8
                c3 += 1
            quads[k] = bits
        if c0 == count and c1 == count and c2 == count and c3 == count:
            continue  # every box spans the centre: no quadrant would hold fewer
        first = nodes
        total = c0 + c1 + c2 + c3
        if nodes + 4 > room_nodes or used + total > room_buf or top + 4 > stack.shape[0]:
            return nodes + 4 + 4 * count, used + total + 4 * count  # grow and retry
        node_child[node] = first
        for q in range(4):
            child = first + q
            node_box[child, 0] = left if q % 2 == 0 else mx
            node_box[child, 1] = up if q < 2 else my
            node_box[child, 2] = mx if q % 2 == 0 else right
            node_box[child, 3] = my if q < 2 else down
            node_depth[child] = depth + 1
            node_child[child] = -1
            node_start[child] = used
            bit = 1 << q
            for k in range(start, start + count):
                if quads[k] & bit:
                    buf[used] = buf[k]
                    used += 1
            node_count[child] = used - node_start[child]
            stack[top] = child
            top += 1
        nodes += 4
    return nodes, used


@kernel
def leaf_pair_codes(box, buf, node_box, node_child, node_start, node_count, nodes, n, out):
    """The candidate pairs of the leaves (two items listed in one leaf) whose boxes
    overlap strictly (a zero-size box is a point or a segment: strictly inside),
    as codes ``i * n + j`` with ``i < j``, each pair once: in the leaf that holds the
    top-left corner of the two boxes' overlap, ``(max of the lefts, max of the tops)``,
    a leaf's region taken with its left and top edges and without its right and
    bottom ones (leaves share edges; that corner lies in both boxes, so both are
    listed in that leaf, and strictly before the root's right and bottom edges, as
    the overlap is strict). Returns ``(codes, candidate pairs tested, leaves)``;
    codes beyond ``len(out)`` are counted, not written."""
    found = 0
    candidates = 0
    leaves = 0
    room = out.shape[0]
    no_circles = np.zeros((0, 3))
    for node in range(nodes):
        if node_child[node] >= 0:
            continue
        leaves += 1
        start = node_start[node]
        stop = start + node_count[node]
        left, up = node_box[node, 0], node_box[node, 1]
        right, down = node_box[node, 2], node_box[node, 3]
        for a in range(start, stop):
            i = buf[a]
            for b in range(a + 1, stop):
                j = buf[b]
                candidates += 1
                if overlap_items(box, no_circles, 0, i, j):
                    cx = max(box[i, 0], box[j, 0])
                    cy = max(box[i, 1], box[j, 1])
                    if not (left <= cx < right and up <= cy < down):
                        continue  # listed in the leaf that holds the corner
                    if found < room:
                        out[found] = i * n + j if i < j else j * n + i
                    found += 1
    return found, candidates, leaves


@kernel
def query(node_box, node_child, node_start, node_count, buf, q, seen, epoch, out):
    """The items of the leaves that the closed box ``q`` touches, each once (``seen``
    marks them with ``epoch``). Returns ``(items, nodes visited)``; items beyond
    ``len(out)`` are counted, not written."""
    found = 0
    visits = 0
    stack = np.empty(64 * 4 + 4, dtype=np.int64)
    top = 0
    if not (q[0] <= node_box[0, 2] and node_box[0, 0] <= q[2]
            and q[1] <= node_box[0, 3] and node_box[0, 1] <= q[3]):  # fmt: skip
        return 0, 1
    stack[0] = 0
    top = 1
    while top > 0:
        top -= 1
        node = stack[top]
        visits += 1
        first = node_child[node]
        if first >= 0:
            for child in range(first, first + 4):
                if (q[0] <= node_box[child, 2] and node_box[child, 0] <= q[2]
                        and q[1] <= node_box[child, 3] and node_box[child, 1] <= q[3]):  # fmt: skip
                    if top >= stack.shape[0]:
                        grown = np.empty(2 * stack.shape[0], dtype=np.int64)
                        grown[:top] = stack[:top]
                        stack = grown
                    stack[top] = child
                    top += 1
            continue
        start = node_start[node]
        for k in range(start, start + node_count[node]):
            i = buf[k]
            if seen[i] != epoch:
                seen[i] = epoch
                if found < out.shape[0]:
                    out[found] = i
                found += 1
    return found, visits


# -- the uniform grid ---------------------------------------------------------------------
@kernel
def grid_cells(box, items, cell, limit, far, span, counts):
    """Each item's cell range ``span[k] = (x0, y0, x1, y1)`` (cells of side ``cell``)
    and cell count ``counts[k]``; 0 for an item whose cell numbers reach ``far`` (at
    most ``2**30``) in either axis, or that covers more than ``limit`` cells (a large
    shape, kept apart). Returns the total of ``counts``."""
    total = np.int64(0)
    for k in range(items.shape[0]):
        i = items[k]
        fx0 = np.floor(box[i, 0] / cell)
        fy0 = np.floor(box[i, 1] / cell)
        fx1 = np.floor(box[i, 2] / cell)
        fy1 = np.floor(box[i, 3] / cell)
        if not (-(2.0**30) < fx0 <= fx1 < 2.0**30 and -(2.0**30) < fy0 <= fy1 < 2.0**30):
            counts[k] = 0
            continue
        x0 = np.int64(fx0)
        y0 = np.int64(fy0)
        x1 = np.int64(fx1)
        y1 = np.int64(fy1)
        area = (x1 - x0 + 1) * (y1 - y0 + 1)
        if area > limit:
            counts[k] = 0
            continue
        span[k, 0] = x0
        span[k, 1] = y0
        span[k, 2] = x1
        span[k, 3] = y1
        counts[k] = area
        total += area
    return total


@kernel
def grid_entries(items, span, counts, keys, values):
    """One entry per (cell, item): the cell's key ``(x + 2**30) * 2**31 + (y + 2**30)``
    and the item."""
    e = 0
    for k in range(items.shape[0]):
        if counts[k] == 0:
            continue
        for x in range(span[k, 0], span[k, 2] + 1):
            for y in range(span[k, 1], span[k, 3] + 1):
                keys[e] = (x + 2**30) * 2**31 + (y + 2**30)
                values[e] = items[k]
                e += 1


@kernel
def grid_pair_codes(box, keys, values, span_of, n, out):
    """The pairs of items that share a cell, each decided once (in the first cell both
    list: the one at the largest of their first columns and rows), whose boxes overlap
    strictly, as codes ``i * n + j``, ``i < j``. ``keys`` sorted with ``values``;
    ``span_of[i]`` is item ``i``'s cell range. Returns ``(codes, candidates, cells)``;
    codes beyond ``len(out)`` are counted, not written."""
    found = 0
    candidates = 0
    cells = 0
    m = keys.shape[0]
    room = out.shape[0]
    no_circles = np.zeros((0, 3))
    a = 0
    while a < m:
        b = a
        while b < m and keys[b] == keys[a]:
            b += 1
        cells += 1
        x = keys[a] // 2**31 - 2**30
        y = keys[a] % 2**31 - 2**30
        for p in range(a, b):
            i = values[p]
            for q in range(p + 1, b):
                j = values[q]
                if max(span_of[i, 0], span_of[j, 0]) != x or max(span_of[i, 1], span_of[j, 1]) != y:
                    continue  # decided in another cell they share
                candidates += 1
                if overlap_items(box, no_circles, 0, i, j):
                    if found < room:
                        out[found] = i * n + j if i < j else j * n + i
                    found += 1
        a = b
    return found, candidates, cells


@kernel
def grid_query(keys, values, x0, y0, x1, y1, seen, epoch, out):
    """The items listed in the cells ``x0..x1`` by ``y0..y1``, each once. Returns
    ``(items, cells visited)``; items beyond ``len(out)`` are counted, not written."""
    found = 0
    visits = 0
    for x in range(x0, x1 + 1):
        for y in range(y0, y1 + 1):
            key = (x + 2**30) * 2**31 + (y + 2**30)
            at = np.searchsorted(keys, key)
            visits += 1
            while at < keys.shape[0] and keys[at] == key:
                i = values[at]
                if seen[i] != epoch:
                    seen[i] = epoch
                    if found < out.shape[0]:
                        out[found] = i
                    found += 1
                at += 1
    return found, visits
