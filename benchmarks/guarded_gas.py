"""The textbook hard-disk loop with ``World.step``'s guarantees added one at a time:
what a core of its own for equal disks could reach on this machine.

``textbook_gas.py`` is the yardstick of ``bench_step.py``'s gas (one event per disk,
each disk in the cell of its centre, no guarantees). Here the same loop is run in
variants, each a step nearer the guarantees of ``World.step``'s general core, all in
one process and in turn (so a slow minute slows them all):

- ``rows``: the textbook loop, its disks in the step's body rows (``fb``, ``ib``);
- ``exact``: the prediction of a pair is the step's own (``step_shapes.predict``: the
  overlap test first, the sweep from the moment either body's motion was set, the
  interval arithmetic of ``sweep``), instead of the textbook's quadratic;
- ``exact-circles``: the same arithmetic for two circles written out in the loop, the
  predicting disk's position computed once (what a core for disks alone could do;
  checked to give the same state, bit for bit, as ``exact``);
- ``guards-quadratic``: ``exact-circles`` with the textbook's quadratic in place of
  the interval arithmetic (the overlap test and the sweep from the moment either
  motion was set kept): which of the two the prediction's cost is in;
- ``guarded``: and a contact handled as the step handles a bounce (its normal, the
  approach test, the nudge test, the contact written to a log, the event counters
  and the cap), equal times ordered by the step's key (order, lower body, higher).

Walls stay the textbook's (the box's sides, not bodies), as do crossings (each disk
in the cell of its centre). The general core's own rate, measured the same way, is
``bench_step.py``'s gas row.

    python benchmarks/guarded_gas.py [--gas 10000] [--measure 10] [--rounds 3]
"""

from __future__ import annotations

import argparse
import math
import time

import numba
import numpy as np
from textbook_gas import LINE_X, LINE_Y, WALL_X, WALL_Y
from textbook_gas import run as textbook_run

from collide2d._kernels.codes import BOUNCE
from collide2d._kernels.intervals import disc_entry_inline
from collide2d._kernels.step.step_log import log
from collide2d._kernels.step.step_respond import APPROACH_ULPS, apart, mark_changed, respond
from collide2d._kernels.step.step_shapes import (
    CIRCLE,
    COUNTER,
    FLOATS,
    INTS,
    INV,
    KIND,
    MVX,
    MVY,
    ORDER_FACE,
    ORDER_STARTED,
    OWNER,
    TREF,
    VX,
    VY,
    H,
    W,
    X,
    Y,
    _moment_set,
    advance,
    contact_normal,
    contact_point,
    position,
    predict,
)
from collide2d.scenes import gas_scene

VARIANTS = {  # name: (exact prediction, written out for circles, step's contact and ties,
    # the textbook's quadratic inside the guards)
    "rows": (False, False, False, False),
    "exact": (True, False, False, False),
    "exact-circles": (True, True, False, False),
    "guards-quadratic": (True, True, False, True),
    "guarded": (True, True, True, False),
}
NO_CAP = 1 << 40


@numba.njit(inline="always")
def _circles_sweep(fb, i, j, now, end):
    """``step_shapes._sweep_pair`` for two circles, written out."""
    xi, yi = position(fb, i, now)
    xj, yj = position(fb, j, now)
    horizon = end - now
    dx = (fb[i, MVX] - fb[j, MVX]) * horizon
    dy = (fb[i, MVY] - fb[j, MVY]) * horizon
    if dx == 0.0 and dy == 0.0:
        return np.inf
    fraction = disc_entry_inline(xi - xj, yi - yj, dx, dy, fb[i, W] + fb[j, W])
    t = now + fraction * horizon
    return np.inf if fraction == np.inf or t >= end else t


@numba.njit(inline="always")
def _quadratic_sweep(fb, i, j, now, end):
    """:func:`_circles_sweep` with the textbook's quadratic."""
    xi, yi = position(fb, i, now)
    t = _quadratic(fb, i, xi, yi, j, now, (fb[i, W] + fb[j, W]) ** 2)
    return np.inf if t >= end else t


@numba.njit(inline="always")
def _circles_predict(fb, i, xi, yi, j, now, end, quadratic):
    """``step_shapes.predict`` for two circles (``i`` at ``xi, yi`` at ``now``):
    ``(time, order)`` (without its scaling of radii too small to square); with the
    textbook's quadratic if ``quadratic``."""
    xj, yj = position(fb, j, now)
    reach = fb[i, W] + fb[j, W]
    if (xi - xj) * (xi - xj) + (yi - yj) * (yi - yj) < reach * reach:
        return now, ORDER_STARTED
    base = max(_moment_set(fb, i), _moment_set(fb, j))
    if -np.inf < base < now:
        if quadratic:
            t = _quadratic_sweep(fb, i, j, base, end)
        else:
            t = _circles_sweep(fb, i, j, base, end)
        if t >= now:
            return t, ORDER_FACE
    if quadratic:
        return _quadratic_sweep(fb, i, j, now, end), ORDER_FACE
    return _circles_sweep(fb, i, j, now, end), ORDER_FACE


def make(exact: bool, written: bool, guarded: bool, quadratic: bool):
    """The loop of one variant (see the module docstring), compiled."""

    @numba.njit(inline="always")
    def earlier(t1, k1, t2, k2):
        return t1 < t2 or (guarded and t1 == t2 and k1 < k2)

    @numba.njit(inline="always")
    def sift_down(ht, hk, hid, hpos, p, n):
        t, k, b = ht[p], hk[p], hid[p]
        while 2 * p + 1 < n:
            c = 2 * p + 1
            if c + 1 < n and earlier(ht[c + 1], hk[c + 1], ht[c], hk[c]):
                c += 1
            if not earlier(ht[c], hk[c], t, k):
                break
            ht[p], hk[p], hid[p] = ht[c], hk[c], hid[c]
            hpos[hid[p]] = p
            p = c
        ht[p], hk[p], hid[p] = t, k, b
        hpos[b] = p

    @numba.njit(inline="always")
    def requeue(ht, hk, hid, hpos, b, t, k, n):
        p = hpos[b]
        if not earlier(t, k, ht[p], hk[p]):
            ht[p], hk[p] = t, k
            sift_down(ht, hk, hid, hpos, p, n)
            return
        while p > 0 and earlier(t, k, ht[(p - 1) >> 1], hk[(p - 1) >> 1]):
            q = (p - 1) >> 1
            ht[p], hk[p], hid[p] = ht[q], hk[q], hid[q]
            hpos[hid[p]] = p
            p = q
        ht[p], hk[p], hid[p] = t, k, b
        hpos[b] = p

    @numba.njit(inline="always")
    def next_event(i, now, end, fb, ib, cells, nc, cs, side, ev):
        cx, cy, head, nxt = cells
        xi, yi = position(fb, i, now)
        vx, vy, r = fb[i, MVX], fb[i, MVY], fb[i, W]
        best, what = np.inf, -1
        if vx != 0.0:
            t = ((side - r if vx > 0 else r) - xi) / vx
            if t < best:
                best, what = t, WALL_X
        if vy != 0.0:
            t = ((side - r if vy > 0 else r) - yi) / vy
            if t < best:
                best, what = t, WALL_Y
        a, b = cx[i], cy[i]
        if (vx > 0.0 and a < nc - 1) or (vx < 0.0 and a > 0):
            t = ((a + (vx > 0.0)) * cs - xi) / vx
            if t < best:
                best, what = t, LINE_X
        if (vy > 0.0 and b < nc - 1) or (vy < 0.0 and b > 0):
            t = ((b + (vy > 0.0)) * cs - yi) / vy
            if t < best:
                best, what = t, LINE_Y
        best, key = now + max(best, 0.0), 0
        for gy in range(max(b - 1, 0), min(b + 2, nc)):
            for gx in range(max(a - 1, 0), min(a + 2, nc)):
                j = head[gy * nc + gx]
                while j >= 0:
                    if j != i:
                        if written:
                            t, order = _circles_predict(fb, i, xi, yi, j, now, end, quadratic)
                        elif exact:
                            t, order, _axis = predict(fb, ib, i, j, now, end)
                        else:
                            t, order = _quadratic(fb, i, xi, yi, j, now, 4.0 * r * r), ORDER_FACE
                        if order == ORDER_STARTED:  # overlapping by rounding: left to the nudges
                            t = np.inf
                        k = (order << 40) | (min(i, j) << 20) | max(i, j) if guarded else 0
                        if earlier(t, k, best, key):
                            best, key, what = t, k, j
                    j = nxt[j]
        ev[i, 0], ev[i, 1] = what, ib[what, COUNTER] if what >= 0 else 0
        return best, key

    @numba.njit
    def run(fb, ib, side, until, dt, lf, li):
        n = fb.shape[0]
        nc = max(int(side / (2.0 * fb[0, W])), 1)
        cs = side / nc
        head = np.full(nc * nc, -1, np.int64)
        nxt, prv = np.full(n, -1, np.int64), np.full(n, -1, np.int64)
        cx, cy = np.empty(n, np.int64), np.empty(n, np.int64)
        ev = np.zeros((n, 2), np.int64)
        for i in range(n):
            cx[i] = min(int(fb[i, X] / cs), nc - 1)
            cy[i] = min(int(fb[i, Y] / cs), nc - 1)
            _link(head, nxt, prv, cy[i] * nc + cx[i], i)
        cells = (cx, cy, head, nxt)
        ht, hk = np.empty(n), np.zeros(n, np.int64)
        hid, hpos = np.empty(n, np.int64), np.empty(n, np.int64)
        events = logged = 0
        start = 0.0
        while start < until:
            end = start + dt
            for i in range(n):
                ht[i], hk[i] = next_event(i, start, end, fb, ib, cells, nc, cs, side, ev)
                hid[i] = hpos[i] = i
            for p in range(n // 2 - 1, -1, -1):
                sift_down(ht, hk, hid, hpos, p, n)
            while ht[0] < end:
                i, t = hid[0], ht[0]
                j = ev[i, 0]
                if j >= 0 and ib[j, COUNTER] == ev[i, 1]:
                    events += 1
                    if guarded:
                        logged = _step_contact(fb, ib, i, j, t, lf, li, logged)
                    else:
                        _textbook_contact(fb, ib, i, j, t)
                    tj, kj = next_event(j, t, end, fb, ib, cells, nc, cs, side, ev)
                    requeue(ht, hk, hid, hpos, j, tj, kj, n)
                elif j in (WALL_X, WALL_Y):
                    events += 1
                    advance(fb, i, t)
                    fb[i, MVX if j == WALL_X else MVY] *= -1.0
                    ib[i, COUNTER] += 1
                elif j in (LINE_X, LINE_Y):
                    _unlink(head, nxt, prv, cy[i] * nc + cx[i], i)
                    if j == LINE_X:
                        cx[i] += 1 if fb[i, MVX] > 0.0 else -1
                    else:
                        cy[i] += 1 if fb[i, MVY] > 0.0 else -1
                    _link(head, nxt, prv, cy[i] * nc + cx[i], i)
                ti, ki = next_event(i, t, end, fb, ib, cells, nc, cs, side, ev)
                requeue(ht, hk, hid, hpos, i, ti, ki, n)
            for i in range(n):
                advance(fb, i, end)
            start = end
        fb[:, TREF] = 0.0
        return events

    return run


@numba.njit(inline="always")
def _quadratic(fb, i, xi, yi, j, now, d2):
    """The textbook's pair prediction (``textbook_gas._predict``'s inner loop; ``d2``
    the diameter squared)."""
    xj, yj = position(fb, j, now)
    dx, dy = xi - xj, yi - yj
    dvx, dvy = fb[i, MVX] - fb[j, MVX], fb[i, MVY] - fb[j, MVY]
    bb = dx * dvx + dy * dvy
    if bb < 0.0:
        c = dx * dx + dy * dy - d2
        disc = bb * bb - (dvx * dvx + dvy * dvy) * c
        if disc > 0.0:
            return now + max(c / (-bb + math.sqrt(disc)), 0.0)
    return np.inf


@numba.njit(inline="always")
def _textbook_contact(fb, ib, i, j, t):
    """An elastic contact of equal disks, as ``textbook_gas.run`` makes it."""
    advance(fb, i, t)
    advance(fb, j, t)
    dx, dy = fb[i, X] - fb[j, X], fb[i, Y] - fb[j, Y]
    inv = 1.0 / math.sqrt(dx * dx + dy * dy)
    nx, ny = dx * inv, dy * inv
    u = (fb[i, MVX] - fb[j, MVX]) * nx + (fb[i, MVY] - fb[j, MVY]) * ny
    fb[i, MVX] -= u * nx
    fb[i, MVY] -= u * ny
    fb[j, MVX] += u * nx
    fb[j, MVY] += u * ny
    ib[i, COUNTER] += 1
    ib[j, COUNTER] += 1


@numba.njit(inline="always")
def _step_contact(fb, ib, i, j, t, lf, li, logged):
    """A bounce as ``step_events.run_events`` handles one between two disks."""
    xi, yi = position(fb, i, t)
    xj, yj = position(fb, j, t)
    nx, ny = contact_normal(fb, ib, i, xi, yi, j, xj, yj, 0)
    u = (fb[i, MVX] - fb[j, MVX]) * nx + (fb[i, MVY] - fb[j, MVY]) * ny
    speeds = abs(fb[i, MVX]) + abs(fb[i, MVY]) + abs(fb[j, MVX]) + abs(fb[j, MVY])
    advance(fb, i, t)
    advance(fb, j, t)
    apart(fb, ib, i, j, t, nx, ny, 1.0, 1.0)
    respond(fb, i, j, nx, ny, 1.0, 1.0, 1.0)
    if u < -APPROACH_ULPS * speeds:
        xi, yi = position(fb, i, t)
        xj, yj = position(fb, j, t)
        px, py = contact_point(fb, ib, i, xi, yi, j, xj, yj)
        logged = log(lf, li, logged, t, ib[i, OWNER], ib[j, OWNER], nx, ny, px, py, BOUNCE, 0)
        logged %= lf.shape[0]  # (a ring: the log's writes are what is measured)
    mark_changed(fb, ib, i, NO_CAP)
    mark_changed(fb, ib, j, NO_CAP)
    return logged


@numba.njit(inline="always")
def _link(head, nxt, prv, c, i):
    nxt[i], prv[i] = head[c], -1
    if head[c] >= 0:
        prv[head[c]] = i
    head[c] = i


@numba.njit(inline="always")
def _unlink(head, nxt, prv, c, i):
    if prv[i] >= 0:
        nxt[prv[i]] = nxt[i]
    else:
        head[c] = nxt[i]
    if nxt[i] >= 0:
        prv[nxt[i]] = prv[i]


def body_rows(n: int, eta: float) -> tuple[np.ndarray, np.ndarray, float, np.ndarray]:
    """``textbook_gas.gas``'s scene as the step's body rows, and as the textbook's."""
    centres, velocities, side = gas_scene(n, eta, seed=0)
    fb = np.zeros((n, FLOATS))
    ib = np.zeros((n, INTS), np.int64)
    fb[:, X], fb[:, Y] = centres[:, 0], centres[:, 1]
    fb[:, W] = fb[:, H] = 1.0
    fb[:, VX], fb[:, VY] = fb[:, MVX], fb[:, MVY] = velocities[:, 0], velocities[:, 1]
    fb[:, INV] = 1.0
    ib[:, KIND], ib[:, OWNER] = CIRCLE, np.arange(n)
    return fb, ib, side, np.ascontiguousarray(np.column_stack([centres, velocities]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--gas", type=int, default=10_000)
    parser.add_argument("--melt", type=float, default=10.0)
    parser.add_argument("--measure", type=float, default=10.0)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    lf, li = np.empty((1 << 16, 5)), np.empty((1 << 16, 4), np.int64)
    runs = {name: make(*flags) for name, flags in VARIANTS.items()}
    for eta in (0.4, 0.6):
        fb0, ib0, side, s = body_rows(args.gas, eta)
        state = {}
        melted = {"textbook": textbook_run(s, side, 1.0, args.melt, 1.0)[0]}
        for name, run in runs.items():
            fb, ib = fb0.copy(), ib0.copy()
            melted[name] = run(fb, ib, side, args.melt, 1.0, lf, li)  # compiled, melted
            state[name] = (fb, ib)
        agree = "the same" if melted["textbook"] == melted["rows"] else "DIFFERENT"
        print(f"events while melting: {melted} (the textbook's and rows' {agree})")
        rates: dict[str, list[float]] = {name: [] for name in ["textbook", *runs]}
        for _ in range(args.rounds):
            for name in rates:
                begin = time.perf_counter()
                if name == "textbook":
                    events = textbook_run(s, side, 1.0, args.measure, 1.0)[0]
                else:
                    events = runs[name](*state[name], side, args.measure, 1.0, lf, li)
                rates[name].append(events / (time.perf_counter() - begin) / 1e6)
        same = all(
            np.array_equal(a, b)
            for a, b in zip(state["exact"], state["exact-circles"], strict=True)
        )
        print(f"area fraction {eta}: M events/s, best of {args.rounds} (exact-circles and "
              f"exact {'the same' if same else 'DIFFERENT'}, bit for bit)")  # fmt: skip
        print("| variant | M events/s | of the textbook |\n|---|---|---|")
        for name, values in rates.items():
            print(f"| {name} | {max(values):.3f} | {max(values) / max(rates['textbook']):.2f} |")


if __name__ == "__main__":
    main()
