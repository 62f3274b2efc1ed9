"""A textbook event-driven hard-disk gas, compiled with numba: ``bench_step.py``'s
yardstick for what an events-a-second target means on the machine it runs on.

The loop of Alder & Wainwright and Rapaport's book, lean, for equal disks only: one
event per disk (its earliest: a disk, a wall or a cell line) in an indexed binary
heap, lazy invalidation by collision counters, delayed states (each disk's position
kept at its own time), square cells of side at least a diameter with each disk in
the one cell of its centre, a disk predicted again from scratch after each of its
events. It keeps none of ``World.step``'s guarantees (disks may end an ulp inside
each other, equal times are not ordered, no shapes but equal disks, no groups, no
contacts written), so it is an upper bound of sorts for a general core: the
published C codes the step's target cites (Isobe 1999; Smallenburg 2022) are this
loop with refinements.

    python benchmarks/textbook_gas.py
"""

from __future__ import annotations

import argparse
import math
import time

import numba
import numpy as np

from collide2d.scenes import gas_scene

WALL_X, WALL_Y, LINE_X, LINE_Y = -2, -3, -4, -5  # what an event is with, if not a disk


@numba.njit(inline="always")
def _sift_up(ht, hid, hpos, p):
    """Move the disk at heap place ``p`` up past later parents (times ``ht``, disks
    ``hid``, each disk's place ``hpos``)."""
    t, b = ht[p], hid[p]
    while p > 0:
        q = (p - 1) >> 1
        if ht[q] <= t:
            break
        ht[p], hid[p] = ht[q], hid[q]
        hpos[hid[p]] = p
        p = q
    ht[p], hid[p] = t, b
    hpos[b] = p


@numba.njit(inline="always")
def _sift_down(ht, hid, hpos, p, n):
    """Move the disk at heap place ``p`` down past earlier children (``n`` places)."""
    t, b = ht[p], hid[p]
    while True:
        c = 2 * p + 1
        if c >= n:
            break
        if c + 1 < n and ht[c + 1] < ht[c]:
            c += 1
        if ht[c] >= t:
            break
        ht[p], hid[p] = ht[c], hid[c]
        hpos[hid[p]] = p
        p = c
    ht[p], hid[p] = t, b
    hpos[b] = p


@numba.njit(inline="always")
def _requeue(ht, hid, hpos, b, t, n):
    """Give disk ``b`` the time ``t`` and restore the heap's order."""
    p = hpos[b]
    old = ht[p]
    ht[p] = t
    if t < old:
        _sift_up(ht, hid, hpos, p)
    else:
        _sift_down(ht, hid, hpos, p, n)


@numba.njit(inline="always")
def _first(t, best, what, code):
    """``(t, code)`` if ``t`` is earlier than ``best``, else ``(best, what)``."""
    return (t, code) if t < best else (best, what)


@numba.njit(inline="always")
def _predict(i, now, s, cnt, cx, cy, head, nxt, nc, cs, side, r, ev):
    """Disk ``i``'s earliest event after ``now``: its time (also in ``ev``'s row)."""
    xi = s[i, 0] + s[i, 2] * (now - s[i, 4])
    yi = s[i, 1] + s[i, 3] * (now - s[i, 4])
    vx, vy = s[i, 2], s[i, 3]
    best, what = np.inf, -1
    if vx != 0.0:
        best, what = _first(((side - r if vx > 0 else r) - xi) / vx, best, what, WALL_X)
    if vy != 0.0:
        best, what = _first(((side - r if vy > 0 else r) - yi) / vy, best, what, WALL_Y)
    a, b = cx[i], cy[i]
    if (vx > 0.0 and a < nc - 1) or (vx < 0.0 and a > 0):
        best, what = _first(((a + (vx > 0.0)) * cs - xi) / vx, best, what, LINE_X)
    if (vy > 0.0 and b < nc - 1) or (vy < 0.0 and b > 0):
        best, what = _first(((b + (vy > 0.0)) * cs - yi) / vy, best, what, LINE_Y)
    d2 = 4.0 * r * r
    for gy in range(max(b - 1, 0), min(b + 2, nc)):
        for gx in range(max(a - 1, 0), min(a + 2, nc)):
            j = head[gy * nc + gx]
            while j >= 0:
                if j != i:
                    dx = xi - (s[j, 0] + s[j, 2] * (now - s[j, 4]))
                    dy = yi - (s[j, 1] + s[j, 3] * (now - s[j, 4]))
                    dvx, dvy = vx - s[j, 2], vy - s[j, 3]
                    bb = dx * dvx + dy * dvy
                    if bb < 0.0:
                        c = dx * dx + dy * dy - d2
                        disc = bb * bb - (dvx * dvx + dvy * dvy) * c
                        if disc > 0.0:
                            best, what = _first(c / (-bb + math.sqrt(disc)), best, what, j)
                j = nxt[j]
    t = now + max(best, 0.0)
    ev[i, 0], ev[i, 1] = what, cnt[what] if what >= 0 else 0
    return t


@numba.njit(inline="always")
def _move(s, i, t):
    """Bring disk ``i``'s row to time ``t`` (its position and its own time)."""
    s[i, 0] += s[i, 2] * (t - s[i, 4])
    s[i, 1] += s[i, 3] * (t - s[i, 4])
    s[i, 4] = t


@numba.njit(cache=True)
def run(s, side, r, until, dt):
    """Run the gas of disks ``s`` (rows ``x, y, vx, vy``, changed in place) of radius
    ``r`` in the box ``[0, side]^2`` for ``until`` time units in steps of ``dt`` (all
    disks brought to each step's end, predicted again from there); returns ``(events,
    disk collisions, crossings, stale)``: events are collisions with disks or walls."""
    n = s.shape[0]
    state = np.zeros((n, 5))
    state[:, :4] = s
    nc = max(int(side / (2.0 * r)), 1)
    cs = side / nc
    head = np.full(nc * nc, -1, np.int64)
    nxt = np.full(n, -1, np.int64)
    prv = np.full(n, -1, np.int64)
    cx = np.empty(n, np.int64)
    cy = np.empty(n, np.int64)
    cnt = np.zeros(n, np.int64)
    ev = np.zeros((n, 2), np.int64)
    for i in range(n):
        cx[i] = min(int(s[i, 0] / cs), nc - 1)
        cy[i] = min(int(s[i, 1] / cs), nc - 1)
        c = cy[i] * nc + cx[i]
        nxt[i] = head[c]
        if head[c] >= 0:
            prv[head[c]] = i
        head[c] = i
    ht = np.empty(n)
    hid = np.empty(n, np.int64)
    hpos = np.empty(n, np.int64)
    events = disks = crossings = stale = 0
    start = 0.0
    while start < until:
        end = start + dt
        for i in range(n):
            ht[i] = _predict(i, start, state, cnt, cx, cy, head, nxt, nc, cs, side, r, ev)
            hid[i] = hpos[i] = i
        for p in range(n // 2 - 1, -1, -1):
            _sift_down(ht, hid, hpos, p, n)
        while ht[0] < end:
            i, t = hid[0], ht[0]
            j = ev[i, 0]
            if j >= 0 and cnt[j] != ev[i, 1]:
                stale += 1
            elif j >= 0:
                events += 1
                disks += 1
                _move(state, i, t)
                _move(state, j, t)
                dx, dy = state[i, 0] - state[j, 0], state[i, 1] - state[j, 1]
                inv = 1.0 / math.sqrt(dx * dx + dy * dy)
                nx, ny = dx * inv, dy * inv
                u = (state[i, 2] - state[j, 2]) * nx + (state[i, 3] - state[j, 3]) * ny
                state[i, 2] -= u * nx
                state[i, 3] -= u * ny
                state[j, 2] += u * nx
                state[j, 3] += u * ny
                cnt[i] += 1
                cnt[j] += 1
                tj = _predict(j, t, state, cnt, cx, cy, head, nxt, nc, cs, side, r, ev)
                _requeue(ht, hid, hpos, j, tj, n)
            elif j in (WALL_X, WALL_Y):
                events += 1
                _move(state, i, t)
                state[i, 2 if j == WALL_X else 3] *= -1.0
                cnt[i] += 1
            else:
                crossings += 1
                c = cy[i] * nc + cx[i]
                if prv[i] >= 0:
                    nxt[prv[i]] = nxt[i]
                else:
                    head[c] = nxt[i]
                if nxt[i] >= 0:
                    prv[nxt[i]] = prv[i]
                if j == LINE_X:
                    cx[i] += 1 if state[i, 2] > 0.0 else -1
                else:
                    cy[i] += 1 if state[i, 3] > 0.0 else -1
                c = cy[i] * nc + cx[i]
                nxt[i] = head[c]
                if head[c] >= 0:
                    prv[head[c]] = i
                prv[i] = -1
                head[c] = i
            _requeue(ht, hid, hpos, i, _predict(i, t, state, cnt, cx, cy, head, nxt, nc, cs,
                                                side, r, ev), n)  # fmt: skip
        for i in range(n):
            _move(state, i, end)
        start = end
    s[:] = state[:, :4]
    return events, disks, crossings, stale


def gas(n: int, eta: float, melt: float, measure: float, dt: float) -> dict[str, float]:
    """``bench_step.gas``'s scene (radius 1, seed 0), melted for ``melt`` and measured
    for ``measure``: events, events a second and ``Z`` from the disk collision rate."""
    centres, velocities, side = gas_scene(n, eta, seed=0)
    s = np.ascontiguousarray(np.column_stack([centres, velocities]))
    run(s.copy(), side, 1.0, dt, dt)  # compiled (or loaded) before timing
    run(s, side, 1.0, melt, dt)
    begin = time.perf_counter()
    events, disks, crossings, stale = run(s, side, 1.0, measure, dt)
    seconds = time.perf_counter() - begin
    rate = 2.0 * disks / (n * measure)
    return {
        "events": events, "crossings": crossings, "stale": stale, "rate": events / seconds,
        "z": 1.0 + rate * 2.0 * math.sqrt(math.pi) / 4.0,
        "energy": 0.5 * float((s[:, 2:] ** 2).sum()) / n,
    }  # fmt: skip


def gas_arguments(parser: argparse.ArgumentParser) -> None:
    """The gas scene's options (``bench_step.py`` takes the same): disks, the time
    melted and the time measured, the step."""
    parser.add_argument("--gas", type=int, default=10_000)
    parser.add_argument("--melt", type=float, default=10.0)
    parser.add_argument("--measure", type=float, default=10.0)
    parser.add_argument("--dt", type=float, default=1.0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    gas_arguments(parser)
    args = parser.parse_args()
    for eta in (0.4, 0.6):
        g = gas(args.gas, eta, args.melt, args.measure, args.dt)
        print(f"area fraction {eta}: {g['events']:,} events, {g['crossings']:,} crossings, "
              f"{g['stale']:,} stale, {g['rate'] / 1e6:.3f} M events/s, Z {g['z']:.3f}, "
              f"energy a disk {g['energy']:.12f}")  # fmt: skip


if __name__ == "__main__":
    main()
