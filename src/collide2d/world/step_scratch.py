"""The memory a World keeps between its steps: the core's body rows and the pools its
working arrays are carved from (``_kernels/step_arena.py`` says why)."""

from __future__ import annotations

import numpy as np

from collide2d._kernels import lazy

shapes = lazy("step_shapes")
queue = lazy("step_queue")

HEADROOM = 1.25
"""A pool or the rows, when short, grow to this many times what was needed."""


class StepScratch:
    """The step's rows and pools, grown when a step needs more, never shrunk.

    Examples
    --------
    >>> scratch = StepScratch()
    >>> fb, ib = scratch.rows(3)
    >>> fb.shape, ib.shape
    ((3, 10), (3, 12))
    >>> scratch.rows(2)[0].base is fb.base
    True
    """

    def __init__(self) -> None:
        self.ints = np.empty(0, dtype=np.int64)
        self.floats = np.empty(0)
        self.width = int(queue.ROOM)
        self._fb = np.empty((0, shapes.FLOATS))
        self._ib = np.empty((0, shapes.INTS), dtype=np.int64)

    def rows(self, n: int) -> tuple[np.ndarray, np.ndarray]:
        """``n`` float and integer body rows (holding anything: the caller writes
        every column)."""
        if self._fb.shape[0] < n:
            size = int(n * HEADROOM)
            self._fb = np.empty((size, shapes.FLOATS))
            self._ib = np.empty((size, shapes.INTS), dtype=np.int64)
        return self._fb[:n], self._ib[:n]

    def grow(self, used: np.ndarray) -> None:
        """Grow the pools to what the step ``used`` (reported by the core), and start
        the next step's queue lists as wide as this one's grew."""
        ints, floats, width = used.tolist()
        if ints > self.ints.shape[0]:
            self.ints = np.empty(int(ints * HEADROOM), dtype=np.int64)
        if floats > self.floats.shape[0]:
            self.floats = np.empty(int(floats * HEADROOM))
        self.width = width
