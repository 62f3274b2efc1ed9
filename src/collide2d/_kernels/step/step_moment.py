"""Bodies sliding into each other again at one moment, resolved together (part of
``World.step``'s responses, ``step_events``).

A disc pushing a box down and sideways, the box on the floor and against another
body: one pair's slide at a time, the box went into its neighbour, that slide
slowed it, the disc ran into it again, each time with a smaller approach, without
end at that moment (the rows of ``step_chain`` are one case of it; this is any
other, with normals off the axes). Every slide of a moment is remembered by both
bodies (up to ``PARTNERS`` each); when a pair slides a second time at the same
moment, the slides of that moment around it (the bodies linked by them, through
bodies that can move, up to ``MOMENT_BODIES``) are taken over and over, one after
the other, each removing its pair's approach along its normal, shared by inverse
mass, until no pair approaches (projected Gauss-Seidel: what the events did one at
a time, a few nanoseconds a slide instead of an event each), or until
``SWEEPS`` passes (the events then go on, the event cap as before). A moment with
only one body that can move (a disc in a wedge of walls) is solved exactly instead
(:func:`_against_immovable`): taken pair by pair it converged too slowly for the
passes. A moment of several bodies that can move whose passes do not converge (a
disc landing on a disc that rests in a wedge: the passes took four orders of
magnitude of the approach a call, and the moment repeated to the event cap) is
solved exactly when it has at most ``SOLVE_CONTACTS`` slides (:func:`_solve`).
"""

from __future__ import annotations

import numpy as np

from collide2d._kernels.jit import borrowing_kernel
from collide2d._kernels.step.step_respond import (
    APPROACH_ULPS,
    PARTNER,
    PARTNER_COUNT,
    PARTNER_NORMAL,
    PARTNERS,
    PARTNERS_AT,
    SLACK,
    mobility,
)
from collide2d._kernels.step.step_shapes import MVX, MVY, advance

MOMENT_BODIES = 32
"""Bodies a moment's slides are resolved together for (more: one pair at a time)."""
SWEEPS = 20
"""Passes over a moment's slides before it is left to the events (which call it again
at the next repeat). Crowds of the swarm's landing steps often converge slowly: the
core's median step (steps 3 to 14, two runs of each, one process after another)
0 passes 5.0-5.8 ms (1,586 events), 10: 3.8-8.1, 20: 3.35-3.6 (931 events), 50:
3.5-4.4, 200: 5.1-5.2 (935 events: the same events, the passes' time)."""


@borrowing_kernel
def _of(held_t, b, t):
    """Whether body ``b``'s partners are of the moment ``t``."""
    return t - held_t[b, PARTNERS_AT] <= SLACK * max(1.0, abs(t))


@borrowing_kernel
def _remember(held_t, held_by, held_n, b, other, nx, ny, t):
    """Body ``b`` slid against ``other`` at ``t`` (normal from ``other`` to ``b``);
    returns whether it had already at ``t``."""
    if not _of(held_t, b, t):
        held_t[b, PARTNERS_AT] = t
        held_by[b, PARTNER_COUNT] = 0
    count = held_by[b, PARTNER_COUNT]
    for k in range(count):
        if held_by[b, PARTNER + k] == other:
            held_n[b, PARTNER_NORMAL + 2 * k] = nx
            held_n[b, PARTNER_NORMAL + 1 + 2 * k] = ny
            return True
    if count < PARTNERS:
        held_by[b, PARTNER + count] = other
        held_n[b, PARTNER_NORMAL + 2 * count] = nx
        held_n[b, PARTNER_NORMAL + 1 + 2 * count] = ny
        held_by[b, PARTNER_COUNT] = count + 1
    return False


@borrowing_kernel
def remember(held_t, held_by, held_n, i, j, nx, ny, t):
    """Remember that ``i`` and ``j`` slide at ``t`` (normal ``(nx, ny)`` from ``j`` to
    ``i``); returns whether they had already at this moment."""
    again = _remember(held_t, held_by, held_n, i, j, nx, ny, t)
    return _remember(held_t, held_by, held_n, j, i, -nx, -ny, t) or again


@borrowing_kernel
def _clear_of(fb, b, held_by, held_n, wx, wy, scale):
    """Whether velocity ``(wx, wy)`` of body ``b`` approaches none of its partners of
    the moment (beyond rounding of ``scale``)."""
    for k in range(held_by[b, PARTNER_COUNT]):
        o = held_by[b, PARTNER + k]
        mx = held_n[b, PARTNER_NORMAL + 2 * k]
        my = held_n[b, PARTNER_NORMAL + 1 + 2 * k]
        u = (wx - fb[o, MVX]) * mx + (wy - fb[o, MVY]) * my
        if u < -0.25 * APPROACH_ULPS * (scale + abs(fb[o, MVX]) + abs(fb[o, MVY])):
            return False
    return True


@borrowing_kernel
def _against_immovable(fb, b, held_by, held_n):
    """Give body ``b``, the only one of its moment that can move, the velocity nearest
    its own that approaches none of its partners (which cannot move): in the plane at
    most two of them hold it, so the nearest is its own, one partner's slide, or the
    velocity that two partners' normal speeds fix (a 2 x 2 system). One pair's slide
    at a time, each removing a share of the approach, a disc in a wedge of two walls
    135 degrees apart kept half its approach a pass, 5e-6 of its 10 after the passes'
    limit. Returns whether one was found."""
    n = held_by[b, PARTNER_COUNT]
    vx = fb[b, MVX]
    vy = fb[b, MVY]
    scale = abs(vx) + abs(vy)
    if _clear_of(fb, b, held_by, held_n, vx, vy, scale):
        return True
    best = np.inf
    bx = vx
    by = vy
    for k in range(n):
        o = held_by[b, PARTNER + k]
        mx = held_n[b, PARTNER_NORMAL + 2 * k]
        my = held_n[b, PARTNER_NORMAL + 1 + 2 * k]
        c = fb[o, MVX] * mx + fb[o, MVY] * my
        for q in range(k, n):
            if q == k:  # the slide off partner k alone
                u = vx * mx + vy * my - c
                if not u < 0.0:
                    continue
                wx = vx - u * mx
                wy = vy - u * my
            else:  # held by partners k and q both
                p = held_by[b, PARTNER + q]
                lx = held_n[b, PARTNER_NORMAL + 2 * q]
                ly = held_n[b, PARTNER_NORMAL + 1 + 2 * q]
                d = fb[p, MVX] * lx + fb[p, MVY] * ly
                det = mx * ly - my * lx
                if abs(det) < 1e-9:
                    continue
                wx = (c * ly - d * my) / det
                wy = (mx * d - lx * c) / det
            away = (wx - vx) * (wx - vx) + (wy - vy) * (wy - vy)
            if away < best and _clear_of(fb, b, held_by, held_n, wx, wy, scale):
                best = away
                bx = wx
                by = wy
    if best == np.inf:
        return False
    fb[b, MVX] = bx
    fb[b, MVY] = by
    return True


SOLVE_CONTACTS = 8
"""Slides of one moment at most that :func:`_solve` takes (it tries every set of them)."""
SOLVE_ROWS = 2 * SOLVE_CONTACTS + 4
"""Rows of :func:`_solve`'s float scratch (``SOLVE_CONTACTS + 1`` columns at least)."""


@borrowing_kernel
def _slides(fb, ib, held_t, held_by, held_n, t, bodies, count, pairs, system):
    """The slides of the moment ``t`` among ``bodies[:count]``, each once: the places
    in ``bodies`` of its two bodies in ``pairs`` (``2 * c``, ``2 * c + 1``, the first
    able to move), its normal (from the second to the first) in ``system``'s rows
    ``2 * SOLVE_CONTACTS`` and the next. Returns how many, or -1 if more than
    ``SOLVE_CONTACTS`` or a partner is not among ``bodies``."""
    nx_row = 2 * SOLVE_CONTACTS
    n = 0
    for m in range(count):
        b = bodies[m]
        if mobility(fb, ib, b) == 0.0 or not _of(held_t, b, t):
            continue
        for k in range(held_by[b, PARTNER_COUNT]):
            o = held_by[b, PARTNER + k]
            if mobility(fb, ib, o) > 0.0 and o < b:
                continue  # (taken from o's side)
            q = -1
            for r in range(count):
                if bodies[r] == o:
                    q = r
                    break
            if q < 0 or n == SOLVE_CONTACTS:
                return -1
            pairs[2 * n] = m
            pairs[2 * n + 1] = q
            system[nx_row, n] = held_n[b, PARTNER_NORMAL + 2 * k]
            system[nx_row + 1, n] = held_n[b, PARTNER_NORMAL + 1 + 2 * k]
            n += 1
    return n


@borrowing_kernel
def _solve(fb, ib, held_t, held_by, held_n, t, bodies, count, pairs, system):
    """Give the bodies of the moment ``t`` (``bodies[:count]``) the velocities of its
    slides solved at once, exactly but for rounding: the impulses ``p >= 0`` along
    the slides' normals, shared by inverse mass, that leave no pair approaching and
    only pairs with an impulse touching (the inelastic contacts' complementarity
    problem, whose velocities are unique). Every set of slides is tried as the ones
    with an impulse, smallest first in the order of their bitmasks (none if none
    approaches), its system solved (Gaussian elimination, partial pivots), until
    one is consistent. Returns whether one was (else nothing changed): at most
    ``SOLVE_CONTACTS`` slides."""
    n = _slides(fb, ib, held_t, held_by, held_n, t, bodies, count, pairs, system)
    if n <= 0:
        return False
    K = SOLVE_CONTACTS
    nx_row, u_row, p_row = 2 * K, 2 * K + 2, 2 * K + 3
    # The approaches now, the Delassus matrix (rows 0 to n - 1), the speeds' scale,
    # the matrix's largest entry
    scale = 0.0
    largest = 0.0
    for c in range(n):
        b, o = bodies[pairs[2 * c]], bodies[pairs[2 * c + 1]]
        nx, ny = system[nx_row, c], system[nx_row + 1, c]
        system[u_row, c] = (fb[b, MVX] - fb[o, MVX]) * nx + (fb[b, MVY] - fb[o, MVY]) * ny
        scale = max(scale, abs(fb[b, MVX]) + abs(fb[b, MVY]) + abs(fb[o, MVX]) + abs(fb[o, MVY]))
        for d in range(n):
            e, f = pairs[2 * d], pairs[2 * d + 1]
            dot = nx * system[nx_row, d] + ny * system[nx_row + 1, d]
            a = 0.0
            if pairs[2 * c] == e:
                a += mobility(fb, ib, b) * dot
            if pairs[2 * c] == f:
                a -= mobility(fb, ib, b) * dot
            if pairs[2 * c + 1] == e:
                a -= mobility(fb, ib, o) * dot
            if pairs[2 * c + 1] == f:
                a += mobility(fb, ib, o) * dot
            system[c, d] = a
            largest = max(largest, abs(a))
    tol = 0.25 * APPROACH_ULPS * scale
    approaching = False
    for c in range(n):
        approaching = approaching or system[u_row, c] < -tol
    if not approaching:  # (nothing to do)
        return True
    tiny = 1e-12 * largest
    for size in range(1, n + 1):
        for mask in range(1, 1 << n):
            if _bits(mask) != size:
                continue
            if _consistent(system, n, mask, tol, tiny):
                for c in range(n):
                    p = system[p_row, c]
                    if p == 0.0:
                        continue
                    m, q = pairs[2 * c], pairs[2 * c + 1]
                    b, o = bodies[m], bodies[q]
                    nx, ny = system[nx_row, c], system[nx_row + 1, c]
                    inv_b, inv_o = mobility(fb, ib, b), mobility(fb, ib, o)
                    fb[b, MVX] += p * inv_b * nx
                    fb[b, MVY] += p * inv_b * ny
                    fb[o, MVX] -= p * inv_o * nx
                    fb[o, MVY] -= p * inv_o * ny
                return True
    return False


@borrowing_kernel
def _bits(mask):
    """How many bits of ``mask`` are set (the slides in the set)."""
    count = 0
    while mask:
        count += mask & 1
        mask >>= 1
    return count


@borrowing_kernel
def _consistent(system, n, mask, tol, tiny):
    """Whether the slides of ``mask`` (bit ``c``: slide ``c``), each given the impulse
    that leaves it touching, have impulses ``>= 0`` and leave no other slide
    approaching (beyond ``tol``, and ``1e-9`` of the impulses' effect on it: an
    ill-conditioned set, normals nearly parallel, solves with impulses a thousand
    times the velocities, to a few digits less; the passes that follow take what
    rounding left); the impulses are then in ``system``'s row
    ``2 * SOLVE_CONTACTS + 3`` (zero outside ``mask``). A pivot not above ``tiny``:
    a dependent set, not consistent (another set has the same velocities)."""
    K = SOLVE_CONTACTS
    u_row, p_row = 2 * K + 2, 2 * K + 3
    size = 0
    for c in range(n):  # the system of the slides in mask: rows K to K + size - 1
        if not (mask >> c) & 1:
            continue
        col = 0
        for d in range(n):
            if (mask >> d) & 1:
                system[K + size, col] = system[c, d]
                col += 1
        system[K + size, K] = -system[u_row, c]
        size += 1
    for col in range(size):  # Gaussian elimination, partial pivots
        best = col
        for r in range(col + 1, size):
            if abs(system[K + r, col]) > abs(system[K + best, col]):
                best = r
        if not abs(system[K + best, col]) > tiny:
            return False
        if best != col:
            for c in range(col, size):
                system[K + col, c], system[K + best, c] = system[K + best, c], system[K + col, c]
            system[K + col, K], system[K + best, K] = system[K + best, K], system[K + col, K]
        for r in range(col + 1, size):
            f = system[K + r, col] / system[K + col, col]
            for c in range(col, size):
                system[K + r, c] -= f * system[K + col, c]
            system[K + r, K] -= f * system[K + col, K]
    for col in range(size - 1, -1, -1):
        v = system[K + col, K]
        for c in range(col + 1, size):
            v -= system[K + col, c] * system[K + c, K]
        system[K + col, K] = v / system[K + col, col]
    largest = 0.0
    for col in range(size):
        largest = max(largest, abs(system[K + col, K]))
    for col in range(size):  # (an impulse of rounding size below zero is none)
        if system[K + col, K] < -1e-9 * largest:
            return False
        system[K + col, K] = max(system[K + col, K], 0.0)
    col = 0
    for c in range(n):
        if (mask >> c) & 1:
            system[p_row, c] = system[K + col, K]
            col += 1
        else:
            system[p_row, c] = 0.0
    for c in range(n):
        if (mask >> c) & 1:
            continue
        u = system[u_row, c]
        spread = 0.0  # (the rounding of u grows with the impulses')
        for d in range(n):
            u += system[c, d] * system[p_row, d]
            spread += abs(system[c, d] * system[p_row, d])
        if u < -tol - 1e-9 * spread:
            return False
    return True


@borrowing_kernel
def _passes(fb, ib, t, held_t, held_by, held_n, bodies, count):
    """Up to ``SWEEPS`` passes over the slides of the moment ``t`` among
    ``bodies[:count]``, each removing its pair's approach, shared by inverse mass;
    returns whether the last found none approaching."""
    for _ in range(SWEEPS):
        quiet = True
        for m in range(count):
            b = bodies[m]
            inv_b = mobility(fb, ib, b)
            if inv_b == 0.0 or not _of(held_t, b, t):
                continue
            for k in range(held_by[b, PARTNER_COUNT]):
                o = held_by[b, PARTNER + k]
                inv_o = mobility(fb, ib, o)  # (a pair of movable bodies is taken from
                # both, the second time most often not approaching)
                mx = held_n[b, PARTNER_NORMAL + 2 * k]
                my = held_n[b, PARTNER_NORMAL + 1 + 2 * k]
                u = (fb[b, MVX] - fb[o, MVX]) * mx + (fb[b, MVY] - fb[o, MVY]) * my
                speeds = abs(fb[b, MVX]) + abs(fb[b, MVY]) + abs(fb[o, MVX]) + abs(fb[o, MVY])
                if not u < -0.25 * APPROACH_ULPS * speeds:
                    continue
                quiet = False
                p = -u / (inv_b + inv_o)
                fb[b, MVX] += p * inv_b * mx
                fb[b, MVY] += p * inv_b * my
                fb[o, MVX] -= p * inv_o * mx
                fb[o, MVY] -= p * inv_o * my
        if quiet:
            return True
    return False


@borrowing_kernel
def _restore(fb, bodies, count, old):
    """The velocities of ``bodies[:count]`` as ``old`` kept them."""
    for m in range(count):
        fb[bodies[m], MVX] = old[0, m]
        fb[bodies[m], MVY] = old[1, m]


@borrowing_kernel
def _settle_dust(fb, ib, bodies, count, old):
    """Make zero the velocity components of ``bodies[:count]`` that can only be
    rounding of the moment's passes or solve: within ``APPROACH_ULPS`` of the
    largest speed among them before it (``old``). Two discs stacked in a wedge
    were left with 5e-16 of their 2.5, and met the walls again at the next step; a
    disc pushed along a floor kept 3e-15 across it."""
    scale = 0.0
    for m in range(count):
        scale = max(scale, abs(old[0, m]) + abs(old[1, m]))
    for m in range(count):
        b = bodies[m]
        if mobility(fb, ib, b) > 0.0:
            if abs(fb[b, MVX]) <= APPROACH_ULPS * scale:
                fb[b, MVX] = 0.0
            if abs(fb[b, MVY]) <= APPROACH_ULPS * scale:
                fb[b, MVY] = 0.0


@borrowing_kernel
def moment_slide(fb, ib, i, j, t, held_t, held_by, held_n, out, bodies, old, pairs, system):
    """Resolve the slides of the moment ``t`` around ``i`` and ``j`` together, after
    their own slide (module docstring). The bodies other than ``i`` and ``j`` whose
    velocity changed are listed in ``out`` (brought to ``t`` first); returns how
    many (0 if too many bodies: left to the events). ``bodies`` and ``old`` are
    scratch: ``MOMENT_BODIES`` integers, two rows of ``MOMENT_BODIES`` floats; so
    are ``pairs`` and ``system``, :func:`_solve`'s: ``2 * SOLVE_CONTACTS`` integers,
    ``SOLVE_ROWS`` rows of ``SOLVE_CONTACTS + 1`` floats or more."""
    bodies[0] = i
    bodies[1] = j
    count = 2
    q = 0
    while q < count:  # through the bodies that can move: a tile's slides are its own
        b = bodies[q]
        q += 1
        if not _of(held_t, b, t) or mobility(fb, ib, b) == 0.0:
            continue
        for k in range(held_by[b, PARTNER_COUNT]):
            o = held_by[b, PARTNER + k]
            known = False
            for m in range(count):
                if bodies[m] == o:
                    known = True
                    break
            if not known:
                if count == MOMENT_BODIES:
                    return 0
                bodies[count] = o
                count += 1
    for m in range(count):
        b = bodies[m]
        old[0, m] = fb[b, MVX]
        old[1, m] = fb[b, MVY]
    movable = -1
    for m in range(count):
        if mobility(fb, ib, bodies[m]) > 0.0:
            movable = bodies[m] if movable == -1 else -2
    alone = movable >= 0 and _of(held_t, movable, t)
    if alone and _against_immovable(fb, movable, held_by, held_n):
        return _brought(fb, bodies, count, old, i, j, t, out)
    if not _passes(fb, ib, t, held_t, held_by, held_n, bodies, count) and movable == -2:
        # Not converged: solved at once from the velocities before the passes (then
        # passed over, for rounding), or, too many slides, the passes' result again
        _restore(fb, bodies, count, old)
        if not _solve(fb, ib, held_t, held_by, held_n, t, bodies, count, pairs, system):
            _restore(fb, bodies, count, old)
        _passes(fb, ib, t, held_t, held_by, held_n, bodies, count)
    _settle_dust(fb, ib, bodies, count, old)
    return _brought(fb, bodies, count, old, i, j, t, out)


@borrowing_kernel
def _brought(fb, bodies, count, old, i, j, t, out):
    """List in ``out`` the bodies of ``bodies[:count]`` other than ``i`` and ``j``
    whose velocity the moment changed (from ``old``), each brought to ``t`` at its
    old velocity first; return how many. Only these: a body brought to ``t`` whose
    velocity did not change is not predicted again, and its end, computed from
    ``t`` instead of its last change, can round an ulp differently from where its
    predictions saw it (two boxes sliding side by side along a floor ended an ulp
    inside each other, unchecked: a pile of boxes and discs)."""
    changed = 0
    for m in range(count):
        b = bodies[m]
        vx = fb[b, MVX]
        vy = fb[b, MVY]
        if b in (i, j) or (vx == old[0, m] and vy == old[1, m]):
            continue
        fb[b, MVX] = old[0, m]
        fb[b, MVY] = old[1, m]
        advance(fb, b, t)
        fb[b, MVX] = vx
        fb[b, MVY] = vy
        out[changed] = b
        changed += 1
    return changed
