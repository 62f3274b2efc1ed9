"""The step core's shapes (``_kernels/step/step_shapes.py``): a body's bounds swept over
the rest of the step, and the neighbours kept for prediction, against plain Python."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from collide2d._kernels.step import step_shapes as shapes

coordinate = st.floats(-1e3, 1e3, allow_nan=False, allow_infinity=False)
speed = st.one_of(st.sampled_from([0.0, -0.0]), st.floats(-50, 50, allow_nan=False))
body = st.tuples(st.booleans(), coordinate, coordinate, st.floats(0.5, 20), st.floats(0.5, 20),
                 speed, speed, st.floats(0.0, 0.5))  # fmt: skip


def _rows(bodies):
    fb = np.zeros((len(bodies), shapes.FLOATS))
    ib = np.zeros((len(bodies), shapes.INTS), dtype=np.int64)
    for k, (circle, x, y, w, h, vx, vy, tref) in enumerate(bodies):
        ib[k, shapes.KIND] = shapes.CIRCLE if circle else shapes.RECT
        fb[k, [shapes.X, shapes.Y, shapes.W, shapes.H]] = x, y, w, w if circle else h
        fb[k, [shapes.MVX, shapes.MVY, shapes.TREF]] = vx, vy, tref
    return fb, ib


def _swept(row, now, end):
    """The bounds swept over ``[now, end]``, padded, in plain Python."""
    circle, x, y, w, h, vx, vy, tref = row
    x, y = x + vx * (now - tref), y + vy * (now - tref)
    x0, y0, x1, y1 = (x - w, y - w, x + w, y + w) if circle else (x, y, x + w, y + h)
    dx, dy = vx * (end - now), vy * (end - now)
    x0, x1 = (x0 + dx, x1) if dx < 0 else (x0, x1 + dx)
    y0, y1 = (y0 + dy, y1) if dy < 0 else (y0, y1 + dy)
    px = 1e-9 * (abs(x0) + abs(x1)) + 1e-300
    py = 1e-9 * (abs(y0) + abs(y1)) + 1e-300
    return x0 - px, y0 - py, x1 + px, y1 + py


@settings(max_examples=200, deadline=None)
@given(st.lists(body, min_size=2, max_size=12), st.floats(0.0, 0.5), st.floats(0.5, 2.0))
def test_the_neighbours_kept_are_those_whose_swept_bounds_meet(bodies, now, end) -> None:
    # The first body against the others: swept bounds as in plain Python (with
    # branches and with selects in the core: the same numbers), and the neighbours
    # kept in their order.
    fb, ib = _rows(bodies)
    for k, row in enumerate(bodies):
        assert shapes.swept(fb, ib, k, now, end) == _swept(row, now, end)
        assert shapes.swept_selecting(fb, ib, k, now, end) == _swept(row, now, end)
    ax0, ay0, ax1, ay1 = _swept(bodies[0], now, end)
    want = []
    for k in range(1, len(bodies)):
        bx0, by0, bx1, by1 = _swept(bodies[k], now, end)
        if ax0 <= bx1 and bx0 <= ax1 and ay0 <= by1 and by0 <= ay1:
            want.append(k)
    cand = np.arange(1, len(bodies), dtype=np.int64)
    kept = shapes.keep_meeting(fb, ib, cand, len(cand), now, end, ax0, ay0, ax1, ay1)
    assert cand[:kept].tolist() == want
