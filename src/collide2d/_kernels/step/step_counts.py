"""What an event counts for a body in ``World.step``'s events (``step_events``,
``step_start``): a body changed by an event keeps its new velocity and counts the
event against the event cap; contacts of rounding size are counted a moment at a
time.
"""

from __future__ import annotations

from collide2d._kernels.jit import inlined_helper
from collide2d._kernels.step.step_respond import (
    APPROACH_ULPS,
    CAPPED,
    ROUNDED_AT,
    ROUNDED_COUNT,
    SLACK,
    freeze,
)
from collide2d._kernels.step.step_shapes import COUNTER, FROZEN, MVX, MVY, NEVENTS, VX, VY

ROUNDED_AT_ONCE = 4
"""Contacts of rounding size (a pair overlapping or touching by an ulp, not
approaching) a body that can move takes apart at one moment (``SLACK``); the next
are left to the end's cleanup (``step_settle.settle``, which takes a wedge apart
along the sum of its normals). Taken apart one pair at a time, a disc at rest in a
wedge of two walls was pushed out of one into the other and back, by a share of
an ulp that rounding undid or redid, at one moment until the event cap: that was
two thirds of the bodies capped on the dense random scenes (``bench_jams.py``)."""


@inlined_helper
def rounded_again(i, j, inv_i, inv_j, t, held_t, held_by):
    """Count a contact of rounding size between ``i`` and ``j`` at moment ``t`` for
    each that can move (inverse masses ``inv_i``, ``inv_j``); whether one of them had
    ``ROUNDED_AT_ONCE`` such contacts at this moment already."""
    over = False
    for b, inv in ((i, inv_i), (j, inv_j)):
        if inv == 0.0:
            continue
        if t - held_t[b, ROUNDED_AT] > SLACK * max(1.0, abs(t)):
            held_t[b, ROUNDED_AT] = t
            held_by[b, ROUNDED_COUNT] = 0
        held_by[b, ROUNDED_COUNT] += 1
        over = over or held_by[b, ROUNDED_COUNT] > ROUNDED_AT_ONCE
    return over


@inlined_helper
def mark_changed(fb, ib, b, cap):
    """Body ``b``, changed by an event: its velocity kept (unless frozen), the event
    counted against the cap ``cap`` (over it, the body is frozen: returns True), a
    new event counter (its events listed under other bodies go stale). A velocity
    that is only rounding of the one before the event (a disc slid into a wedge of
    two walls: 1e-28 of its 10) is made zero: compared with itself, such dust met the
    walls again, at every later step."""
    capped = False
    if ib[b, FROZEN] == 0:
        before = abs(fb[b, VX]) + abs(fb[b, VY])
        if abs(fb[b, MVX]) + abs(fb[b, MVY]) <= APPROACH_ULPS * before:
            fb[b, MVX] = 0.0
            fb[b, MVY] = 0.0
        fb[b, VX] = fb[b, MVX]
        fb[b, VY] = fb[b, MVY]
        ib[b, NEVENTS] += 1
        if ib[b, NEVENTS] > cap:
            freeze(fb, ib, b)
            ib[b, FROZEN] = CAPPED
            capped = True
    ib[b, COUNTER] += 1
    return capped
