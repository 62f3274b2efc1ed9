"""A moving body's predictions into the event buffers of ``World.step``'s compiled
core: one pair's next contact (``step_shapes.predict``), the body's next cell
crossing (``step_grid.next_crossing``), each kept with ``step_queue.pend`` when it
falls within the step. The first predictions (``step_first``), a crossing's and a
contact's (``step_events``) share them.
"""

from __future__ import annotations

from collide2d._kernels.jit import inlined_helper
from collide2d._kernels.step.step_grid import next_crossing
from collide2d._kernels.step.step_queue import pack, pend
from collide2d._kernels.step.step_shapes import COUNTER, CROSSING, overlap_at_end, predict


@inlined_helper
def pend_contact(fb, ib, lo, hi, other, t, dt, qt, qk, qx, npend, near, again):
    """Predict bodies ``lo < hi`` from ``t`` and keep their contact in the buffers
    (with the counter of ``other``, the body not predicting), unless it comes no
    earlier than ``dt`` or, ``again`` (a pair just resolved: met again at once only
    by rounding), no later than ``t``; otherwise mark both ``near`` if they overlap
    where the step's end leaves them. Returns the buffers' new count."""
    tp, op, axis = predict(fb, ib, lo, hi, t, dt)
    if tp < dt and not (again and tp <= t):
        npend = pend(qt, qk, qx, npend, tp, pack(op, lo, hi), 2 * ib[other, COUNTER] + axis)
    elif overlap_at_end(fb, ib, lo, hi, dt):
        near[lo] = True
        near[hi] = True
    return npend


@inlined_helper
def pend_crossing(fb, ib, b, t, dt, grid, qt, qk, qx, npend):
    """Keep body ``b``'s next cell crossing after ``t`` in the buffers if it comes
    before ``dt``. Returns the buffers' new count."""
    tc, code = next_crossing(fb, ib, b, t, grid)
    if t + tc < dt:
        npend = pend(qt, qk, qx, npend, t + tc, pack(CROSSING, b, code), 0)
    return npend
