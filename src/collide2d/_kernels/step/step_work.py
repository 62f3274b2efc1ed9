"""``World.step``'s working state, named: the pools it is carved from
(:class:`Memory`, kept by the World between steps, ``world/step_scratch.py``) and
the arrays one step works in (:class:`Work`, made by ``step_core.begin``).

Both are named tuples: numba types each field on its own and reads one by name at
no cost (``work.et`` is the same load as a local variable), and a kernel that takes
``work`` takes one argument instead of 38. They are records, not objects: a kernel
that grows an array (the queue's pool, the contact log, the crossed pairs' set)
makes a new ``Work`` with :func:`renewed`. Handed from compiled code to Python, a
``Work`` costs a conversion of each of its arrays (about 35 us, a small world's
compiled core takes about as long); the phases are called from Python all the same
(``world/step_parts.run_core`` says why).
"""

from __future__ import annotations

from collections import namedtuple

from collide2d._kernels.jit import kernel

# ``Work.state``: the cell lists' free entries and the pools' use; the touches
# ``step_core.touches`` resolved, the rows it left to predict again (``step_start``)
# and the last stamp it used; whether any group is quiet (``step_start.quiet_groups``:
# else no touch is resolved before the loop and ``step_core.touches`` is not called),
# and whether ``step_core.touches`` ran
STATE_NFREE, STATE_IUSED, STATE_FUSED, STATE_EARLY, STATE_LATER, STATE_STAMP = range(6)
STATE_QUIET, STATE_TOUCHED, STATE_I32USED = 6, 7, 8

Memory = namedtuple(
    "Memory", ("ints", "floats", "ints32", "lists", "queue_size", "log_room", "kept", "used")
)
"""What a step's arrays are carved from (``step_arena.carve``): the ``int64``,
``float64`` and ``int32`` pools, the fixed bodies' cell lists' pool ``lists`` (kept
from the last step when ``kept``), the room the queue's lists' pool starts with,
the contact log's starting room, and ``used``, which the step fills with what it
used of each (``step_arena.INTS_USED`` ...)."""

Work = namedtuple(
    "Work",
    (
        # the cell lists (step_grid): the lanes' heads, which groups meet which
        # lanes, and the lanes looked in at the first predictions; the moving
        # bodies' entries, links and free entries; where a body's list starts; the
        # fixed bodies' lists (their cells' starts, their bodies)
        "head", "meets", "first_meets", "nbody", "nnext", "nlink", "bfirst", "free",
        "fstart", "fbody",
        # the queue (step_queue): each moving body's row, its events' pool and
        # their rows' heads, the heap's times, keys and places
        "row", "et", "ek", "eh", "ht", "hk", "hpos",
        # the bodies that may end the step overlapping; what slides of one moment
        # left (step_respond: HELD_TIMES ...)
        "near", "held_t", "held_by", "held_n",
        # the contact log (step_log) and the pairs reported crossing
        "lf", "li", "crossed",
        # each part's candidates, pending events, stamps, rows left over, counts
        # (step_first)
        "cand", "qt", "qk", "qx", "marks", "over", "counts",
        # the end's pins (step_settle.settle) and where the moving bodies began
        "pins", "ends",
        # the touches resolved before the loop: contacts, keys, rows to predict
        # again (step_start)
        "pre_f", "pre_i", "pre_k", "later",
        # the pools' use and the phases' flags (step_core.STATE_NFREE ...)
        "state",
    ),
)  # fmt: skip
"""The arrays of one step, set up by ``step_core.begin`` and read by name."""


@kernel
def renewed(work, et, ek, lf, li, crossed, pre_f, pre_i, pre_k):
    """``work`` with the queue's pool ``et, ek``, the contact log ``lf, li``, the
    crossed pairs ``crossed`` and the touches before the loop ``pre_f, pre_i,
    pre_k`` replaced (grown, or put in order): every other field the same array."""
    return Work(
        head=work.head, meets=work.meets, first_meets=work.first_meets, nbody=work.nbody,
        nnext=work.nnext, nlink=work.nlink, bfirst=work.bfirst, free=work.free,
        fstart=work.fstart, fbody=work.fbody, row=work.row, et=et, ek=ek, eh=work.eh,
        ht=work.ht, hk=work.hk, hpos=work.hpos, near=work.near, held_t=work.held_t,
        held_by=work.held_by, held_n=work.held_n, lf=lf, li=li, crossed=crossed,
        cand=work.cand, qt=work.qt, qk=work.qk, qx=work.qx, marks=work.marks,
        over=work.over, counts=work.counts, pins=work.pins, ends=work.ends, pre_f=pre_f,
        pre_i=pre_i, pre_k=pre_k, later=work.later, state=work.state,
    )  # fmt: skip
