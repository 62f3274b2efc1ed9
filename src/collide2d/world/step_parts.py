"""``World.step``'s work shared between threads: the first predictions, the
touches at time 0 resolved before the event loop and the predictions again of the
bodies they froze (``start_touches``, ``later_predictions``,
``_kernels/step/step_start.py``), and the check of the fixed rows it keeps between steps.

At a step's start every moving body is predicted against the bodies near it
(``_kernels/step/step_first.py``): half of the swarm scene's core, a fifth of the gas's.
Each body's predictions read the others and write only its own event list, so the
moving bodies are cut into consecutive parts, one a thread, the compiled kernel
releasing the GIL (as the batch pair search shares its strips,
``_kernels/pairs/search.py``). The result does not depend on the parts: a body's list is
the same whichever thread made it (``tests/world/test_step_parts.py`` checks one
thread against two, bit for bit). The rows a step keeps from the last are checked
against the item table in parts the same way (``step_rows.body_rows``, a row each).
"""

from __future__ import annotations

from functools import partial
from typing import Any, TypeVar

import numpy as np

from collide2d._kernels import lazy
from collide2d._threads import THREADS as MACHINE_THREADS
from collide2d._threads import in_parts, part_starts

first = lazy("step.step_first")
work_ = lazy("step.step_work")
start_ = lazy("step.step_start")
core = lazy("step.step_core")
T = TypeVar("T")

THREADS = MACHINE_THREADS
"""Threads that share the first predictions and the kept rows' check (the machine's
cores, at most two: the only count measured, on a two-core machine). Set it to 1 to
keep every step in the calling thread."""
PARALLEL_MIN_MOVING = 2_000
"""Below this many moving bodies one thread predicts them all: handing a part to a
second thread costs tens of microseconds, a body's predictions about 0.3 (a gas of
dt 0.25, best / median step with one thread and two: 300 disks 0.31 / 0.33 and
0.35 / 0.39 ms, 1,000 disks 0.77 / 0.80 and 0.73 / 0.88, 3,000 disks 2.21 / 2.35
and 1.93 / 2.23)."""
PARALLEL_MIN_ROWS = 20_000
"""Below this many kept rows one thread checks them all (a row costs about 7 ns: the
swarm's 60,000 took 0.4 ms in one thread)."""


def parts_for(count: int, least: int) -> int:
    """How many parts work on ``count`` bodies or rows is cut into: one below
    ``least`` (``PARALLEL_MIN_MOVING``, ``PARALLEL_MIN_ROWS``), else ``THREADS``.

    >>> parts_for(10, PARALLEL_MIN_MOVING), parts_for(0, 0) <= THREADS
    (1, True)
    """
    return THREADS if count >= least and THREADS > 1 else 1


def run_core(
    fb: np.ndarray,
    ib: np.ndarray,
    responses: np.ndarray,
    restitution: np.ndarray,
    dt: float,
    cap: int,
    grid: tuple[Any, ...],
    moving: np.ndarray,
    fixed: np.ndarray,
    room: int,
    stats: np.ndarray,
    memory: Any,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The compiled core's step (``_kernels/step/step_core.py``) over the body rows:
    ``step_core.begin``, then the first predictions, the touches at time 0 and the
    predictions again of the bodies they changed, each shared between the threads
    (one part below ``PARALLEL_MIN_MOVING`` moving bodies), then ``step_core.finish``.
    ``memory`` is the pools' ``step_work.Memory``. Returns the contacts and the
    stopping pairs left overlapping (``step_core.finish``).

    (Not one compiled call for one part: a kernel calling the phases carries a copy of
    all their machine code, compiled again for it, 14 s more of the first step's
    compile; a step of one part, from Python, costs about 35 us more, the conversion
    of its ``Work``.)"""
    parts = parts_for(len(moving), PARALLEL_MIN_MOVING)
    bodies = (fb, ib, responses, dt, grid, moving)
    work = core.begin(*bodies, fixed, room, parts, memory)
    in_parts(partial(first.first_predictions, *bodies, work), len(moving), parts)
    if work.state[work_.STATE_QUIET]:  # (else no touch to resolve before the loop)
        et, ek, quiet = core.touches(*bodies, stats, work)
        work = work._replace(et=et, ek=ek)  # (the queue's pool, grown)
        _start_touches(fb, ib, responses, cap, moving, work, quiet, stats)
        _later_predictions(bodies, work)
    lf, li, left = core.finish(fb, ib, responses, restitution, dt, cap, grid, moving, stats,
                               memory.used, work)  # fmt: skip
    return lf, li, left


def _start_touches(
    fb: np.ndarray,
    ib: np.ndarray,
    responses: np.ndarray,
    cap: int,
    moving: np.ndarray,
    work: Any,
    quiet: np.ndarray,
    stats: np.ndarray,
) -> None:
    """Resolve, in parts, the touches at time 0 that commute with every other event
    (``_kernels/step/step_start.py``: each part's rows write only their own bodies and
    places), then join the parts' results in one thread (``step_core.touched``), their
    counts added to ``stats``."""
    n = len(moving)
    parts = work.counts.shape[0]  # (the first predictions' parts)
    starts = np.array(part_starts(n, parts) + [n], dtype=np.int64)
    tally = np.zeros((parts, start_.TALLY_COLUMNS), dtype=np.int64)

    def run(p: int, start: int, stop: int) -> None:
        core.touch_part(fb, ib, responses, cap, moving, work, quiet, start, stop, tally[p])

    in_parts(run, n, parts)
    core.touched(stats, work, starts, tally)


def _later_predictions(bodies: tuple[Any, ...], work: Any) -> None:
    """Predict again, in parts, the bodies ``step_core.touches`` changed (the rows it
    listed in ``work.later``; ``_kernels/step/step_start.py``): each part with its own
    candidates, buffers and stamps, as the first predictions."""
    nlater = int(work.state[work_.STATE_LATER])
    if nlater == 0:
        return

    def run(p: int, start: int, stop: int) -> None:
        start_.later_predictions(*bodies, work, p, start, stop, np.empty(1, dtype=np.int64))

    in_parts(run, nlater, min(work.counts.shape[0], parts_for(nlater, PARALLEL_MIN_MOVING)))
