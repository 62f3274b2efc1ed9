"""The contact log of ``World.step``'s compiled core: a contact's numbers written as
rows of two tables, floats (time, normal, point) and integers (items, response,
whether it started overlapping), grown between the event loop's calls
(``step_core.finish``), and the contacts resolved before the loop
(``step_start``) merged into it in order of time and key."""

from __future__ import annotations

import numpy as np

from collide2d._kernels.jit import inlined_helper, kernel


@inlined_helper
def log(lf, li, count, t, a, b, nx, ny, px, py, response, started):
    """Write contact ``count`` (the caller made room); return the new count."""
    lf[count, 0] = t
    lf[count, 1] = nx
    lf[count, 2] = ny
    lf[count, 3] = px
    lf[count, 4] = py
    li[count, 0] = a
    li[count, 1] = b
    li[count, 2] = response
    li[count, 3] = started
    return count + 1


@kernel
def log_grown(lf, li):
    """The contact log with twice the room."""
    count = lf.shape[0]
    nf = np.empty((2 * count, 5))
    ni = np.empty((2 * count, 4), dtype=np.int64)
    nf[:count] = lf
    ni[:count] = li
    return nf, ni


@inlined_helper
def write_early(lf, li, logged, pre_f, pre_i, pre_k, pre, npre, t, key):
    """Write the contacts resolved before the loop (``step_start``, at time 0, sorted
    by key) that come before the event ``(t, key)``; returns ``(logged, pre)``."""
    while pre < npre and (t > 0.0 or pre_k[pre] < key):
        for c in range(5):
            lf[logged, c] = pre_f[pre, c]
        for c in range(4):
            li[logged, c] = pre_i[pre, c]
        logged += 1
        pre += 1
    return logged, pre
