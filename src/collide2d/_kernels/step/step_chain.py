"""A row of bodies sliding into each other at one moment, resolved as one (part of
``World.step``'s responses, ``step_events``).

Three boxes side by side, the last pushing: one pair's slide at a time, the middle
box's slide with the pusher sent it into the first box, that slide slowed it, the
pusher ran into it again, each time with a smaller approach, without end at that
moment; every such body reached the event cap (the swarm scene: 26 bodies a step,
about 1,700 of its 2,900 events). The limit of those slides is what this computes
at once: along the row's axis, the velocities that no pair of neighbours approaches
with, closest to the bodies' own in the least squares weighted by mass (their
isotonic regression, pooling adjacent violators: a pooled run moves together with
its momentum's mean velocity, or with the velocity of a body in it that cannot
move); across the axis nothing changes.

A row is known from the slides of this moment: two bodies that slid with a normal
along an axis are linked (the one on the normal's side after the other); a body
linked to two others on one side (a branch) or a normal off the axes ends the row
there. Rows of 3 to ``CHAIN_MAX`` bodies are resolved so; two bodies are the plain
slide's (``step_respond.slide_held``).
"""

from __future__ import annotations

from collide2d._kernels.jit import borrowing_kernel
from collide2d._kernels.step.step_respond import LINK_AXIS, LINK_HI, LINK_LO, LINKS, mobility
from collide2d._kernels.step.step_shapes import MVX, MVY, advance

CHAIN_MAX = 32
"""Bodies a row may hold (a longer one is left to the slides one pair at a time)."""


@borrowing_kernel
def _fresh(held_t, held_by, b, t, axis):
    """Body ``b``'s links as of ``t`` along ``axis`` (cleared if of another)."""
    if held_t[b, LINKS] != t or held_by[b, LINK_AXIS] != axis:
        held_t[b, LINKS] = t
        held_by[b, LINK_AXIS] = axis
        held_by[b, LINK_LO] = -1
        held_by[b, LINK_HI] = -1


@borrowing_kernel
def _linked(held_t, held_by, k, b, t, axis, side):
    """Whether ``k`` is linked, at ``t`` along ``axis``, to ``b`` on ``side``
    (``LINK_LO``: ``b`` before ``k``; ``LINK_HI``: after)."""
    return (
        k >= 0 and held_t[k, LINKS] == t and held_by[k, LINK_AXIS] == axis and held_by[k, side] == b
    )


@borrowing_kernel
def slide_chain(fb, ib, i, j, nx, ny, t, held_t, held_by, out, work, values):
    """Link ``i`` and ``j`` (sliding at ``t``, normal ``(nx, ny)`` from ``j`` to ``i``)
    and, if they are now in a row of three or more, give the row its velocities
    along the axis (module docstring). The bodies other than ``i`` and ``j`` whose
    velocity changed are brought to ``t`` first and listed in ``out``; returns how
    many, or -1 if the pair is left to the plain slide (no row, a branch, a row too
    long, or two bodies that cannot move pressed together). ``work`` and ``values``
    are scratch, integers and floats, three rows of ``CHAIN_MAX + 1`` each."""
    if nx != 0.0 and ny != 0.0:
        return -1
    axis = 0 if ny == 0.0 else 1
    column = MVX if axis == 0 else MVY
    lo, hi = (j, i) if (nx if axis == 0 else ny) > 0.0 else (i, j)
    _fresh(held_t, held_by, lo, t, axis)
    _fresh(held_t, held_by, hi, t, axis)
    up, down = held_by[lo, LINK_HI], held_by[hi, LINK_LO]
    if (up != -1 and up != hi) or (down != -1 and down != lo):
        return -1  # a branch
    held_by[lo, LINK_HI] = hi
    held_by[hi, LINK_LO] = lo
    start = lo
    for _ in range(CHAIN_MAX):
        k = held_by[start, LINK_LO]
        if not _linked(held_t, held_by, k, start, t, axis, LINK_HI):
            break
        start = k
    count = 1  # (counted first: most slides are of a pair, and need no arrays)
    b = start
    while count <= CHAIN_MAX:
        k = held_by[b, LINK_HI]
        if not _linked(held_t, held_by, k, b, t, axis, LINK_LO):
            break
        b = k
        count += 1
    if count < 3 or count > CHAIN_MAX:
        return -1
    row, first, fixed = work[0], work[1], work[2]
    row[0] = start
    for k in range(1, count):
        row[k] = held_by[row[k - 1], LINK_HI]
    # Pool adjacent violators: blocks of the row, each its weight (mass; a body that
    # cannot move fixes its block's velocity), its momentum, its first body.
    weight, momentum, value = values[0], values[1], values[2]
    blocks = 0
    for k in range(count):
        b = row[k]
        v = fb[b, column]
        inv = mobility(fb, ib, b)
        weight[blocks] = 1.0 / inv if inv > 0.0 else 0.0
        momentum[blocks] = v / inv if inv > 0.0 else 0.0
        fixed[blocks] = 1 if inv == 0.0 else 0
        value[blocks] = v if inv == 0.0 else momentum[blocks] / weight[blocks]
        first[blocks] = k
        blocks += 1
        while blocks >= 2 and value[blocks - 2] > value[blocks - 1]:
            a, c = blocks - 2, blocks - 1
            if fixed[a] != 0 and fixed[c] != 0:
                return -1  # two that cannot move pressed together: a crush
            weight[a] += weight[c]
            momentum[a] += momentum[c]
            if fixed[c] != 0:
                value[a] = value[c]
            elif fixed[a] == 0:
                value[a] = momentum[a] / weight[a]
            fixed[a] = max(fixed[a], fixed[c])
            blocks -= 1
    first[blocks] = count
    changed = 0
    for m in range(blocks):
        for k in range(first[m], first[m + 1]):
            b = row[k]
            if mobility(fb, ib, b) == 0.0 or fb[b, column] == value[m]:
                continue
            if b != i and b != j:
                advance(fb, b, t)  # (before its velocity changes)
                out[changed] = b
                changed += 1
            fb[b, column] = value[m]
    return changed
