"""The exact pair test shared by every pair kernel."""

from __future__ import annotations

from collide2d._kernels.jit import kernel


@kernel
def overlap_items(lo_x, lo_y, hi_x, hi_y, circles, mode, i, j):  # type: ignore[no-untyped-def]
    """Strict overlap of items ``i`` and ``j`` (mode 0: boxes, 1: the circles
    ``circles[:, (x, y, r)]``), with the scalar API's arithmetic so that every
    method agrees with :func:`collide2d.overlaps`."""
    if mode == 0:
        return lo_x[i] < hi_x[j] and lo_x[j] < hi_x[i] and lo_y[i] < hi_y[j] and lo_y[j] < hi_y[i]
    dx = circles[i, 0] - circles[j, 0]
    dy = circles[i, 1] - circles[j, 1]
    reach = circles[i, 2] + circles[j, 2]
    return dx * dx + dy * dy < reach * reach
