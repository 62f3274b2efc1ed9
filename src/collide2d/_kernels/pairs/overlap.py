"""The exact pair test shared by every pair kernel."""

from __future__ import annotations

from collide2d._kernels.jit import borrowing_kernel
from collide2d.tolerances import SQUARE_UNDERFLOW, UNDERFLOW_SCALE


@borrowing_kernel
def overlap_items(box, circles, mode, i, j):
    """Strict overlap of items ``i`` and ``j``.

    ``box`` rows are closed bounds ``lo_x, lo_y, hi_x, hi_y``; with ``mode`` 1 the
    items are the circles ``circles[:, (x, y, r)]`` instead. The arithmetic is the
    scalar API's, so that every method agrees with :func:`collide2d.overlaps`.
    """
    if mode == 0:  # "&" rather than "and": one unpredictable branch instead of four
        return (
            (box[i, 0] < box[j, 2])
            & (box[j, 0] < box[i, 2])
            & (box[i, 1] < box[j, 3])
            & (box[j, 1] < box[i, 3])
        )
    dx = circles[i, 0] - circles[j, 0]
    dy = circles[i, 1] - circles[j, 1]
    reach = circles[i, 2] + circles[j, 2]
    if reach < SQUARE_UNDERFLOW:  # exact scaling, as in collide2d.geometry.overlap
        dx, dy, reach = dx * UNDERFLOW_SCALE, dy * UNDERFLOW_SCALE, reach * UNDERFLOW_SCALE
    return dx * dx + dy * dy < reach * reach
