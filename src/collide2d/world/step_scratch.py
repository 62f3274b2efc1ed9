"""The memory a World keeps between its steps: the core's body rows, the pools its
working arrays are carved from (``_kernels/step/step_arena.py`` says why), and the fixed
bodies' cell lists.

The cell lists of the bodies that cannot move (tiles, walls) are kept from one step
to the next while no item comes or goes, the grid stays the same
(``step_cells`` keeps it steady) and no fixed body changed: the step then writes
only the moving bodies' rows, checks the fixed ones against the table
(``step_rows.body_rows`` with ``keep``) and neither covers nor lists the fixed
bodies again. While the World writes no row between two steps (its item table's
``version`` stays), the step writes the moving bodies' rows alone: the fixed ones
are as the last step left them. Steps with pixel masks build everything afresh.
"""

from __future__ import annotations

import numpy as np

from collide2d._kernels import lazy
from collide2d.world.step_cells import Grid

shapes = lazy("step.step_shapes")
work = lazy("step.step_work")

HEADROOM = 1.25
"""A pool or the rows, when short, grow to this many times what was needed."""


class StepScratch:
    """The step's rows, pools and kept cell lists, grown when a step needs more, never
    shrunk.

    Examples
    --------
    >>> scratch = StepScratch()
    >>> fb, ib = scratch.rows(3, 0)
    >>> fb.shape, ib.shape
    ((3, 10), (3, 12))
    >>> scratch.rows(2, 0)[0].base is fb.base
    True
    >>> scratch.rows(3, 4)[0].shape  # four rows for polygons' outlines after the bodies'
    (7, 10)
    """

    def __init__(self) -> None:
        self.ints = np.empty(0, dtype=np.int64)
        self.floats = np.empty(0)
        self.ints32 = np.empty(0, dtype=np.int32)  # moving bodies: cell lists, rows, stamps
        self.lists = np.empty(0, dtype=np.int32)  # the fixed bodies' cell lists
        self.queue_size = 0  # the queue's lists' pool: at least what its rows need
        self.log_room = 0  # the room the contact log starts with
        self.grid: Grid | None = None  # the grid the kept lists are for
        self.version = -1  # the item table's version the rows were last written at
        self._live = np.empty(0, dtype=np.int64)  # the items' slots the lists are for
        self.order = np.empty(0, dtype=np.int64)  # 0, 1, ... as many as in _live
        self.moving = np.empty(0, dtype=np.int64)  # the last step's moving rows
        self.fixed = np.empty(0, dtype=np.int64)  # and fixed rows
        self._fb = np.empty((0, shapes.FLOATS))
        self._ib = np.empty((0, shapes.INTS), dtype=np.int32)
        self._outlines = 0  # the outline rows past the bodies' in the last rows
        self._sized = np.empty((6, 0))

    def outline_rows(self) -> int:
        """The outline rows (past the bodies') of the float rows :meth:`rows` handed
        over last."""
        return self._outlines

    def rows(self, n: int, outlines: int) -> tuple[np.ndarray, np.ndarray]:
        """``n + outlines`` float rows (the bodies' then the polygons' outlines',
        ``step_columns.OUTLINE``) and ``n`` integer body rows (holding anything: the
        caller writes every column, or keeps the last step's, ``same_items``)."""
        # With polygons, the float rows are handed over as some columns of wider ones:
        # strided, so that the compiled step takes its polygon kernels for them alone
        # (``jit.by_layout``; a column more costs little: 88 bytes a row, not 80)
        wide = outlines > 0
        self._outlines = outlines
        if self._fb.shape[0] < n + outlines or self._fb.shape[1] != shapes.FLOATS + wide:
            size = int((n + outlines) * HEADROOM)
            self._fb = np.empty((size, shapes.FLOATS + wide))
        if self._ib.shape[0] < n:
            self._ib = np.empty((int(n * HEADROOM), shapes.INTS), dtype=np.int32)
        return self._fb[: n + outlines, : shapes.FLOATS], self._ib[:n]

    def memory(self, kept: bool, used: np.ndarray) -> tuple[object, ...]:
        """The pools a step carves its arrays from (``step_work.Memory``), the fixed
        bodies' cell lists ``kept`` from the last step or not, what the step used to
        be told in ``used`` (``step_arena.USED`` integers)."""
        memory: tuple[object, ...] = work.Memory(
            self.ints, self.floats, self.ints32, self.lists, self.queue_size, self.log_room,
            kept, used,
        )  # fmt: skip
        return memory

    def sized(self, n: int) -> np.ndarray:
        """Six rows of room for ``n`` moving bodies' bounds (``step_rows.body_rows``)."""
        if self._sized.shape[1] < max(n, 1):
            self._sized = np.empty((6, int(max(n, 1) * HEADROOM)))
        return self._sized

    def same_items(self, live: np.ndarray) -> bool:
        """Whether the last step's rows and fixed cell lists may be kept: it kept
        them (``grid`` set) over the same items in the same slots ``live``."""
        return self.grid is not None and (live is self._live or np.array_equal(live, self._live))

    def after_step(
        self, used: np.ndarray, grid: Grid | None, live: np.ndarray, kept: bool, version: int
    ) -> None:
        """After a step over the items in slots ``live``, the item table at
        ``version`` (``ItemTable.version``, the rows written from it): grow the pools to what it
        ``used`` (reported by the core), start the next step's queue lists' pool
        as large as this one's grew and its contact log a little larger than this
        one's; keep the fixed bodies' cell lists
        for ``grid`` if they were built (or ``kept``) in their pool (``None``: not
        to be kept, a step with masks)."""
        ints, floats, queue_size, lists, log_room, ints32 = used.tolist()
        self.log_room = log_room + log_room // 4  # (a little more than the last step)
        if ints > self.ints.shape[0]:
            self.ints = np.empty(int(ints * HEADROOM), dtype=np.int64)
        if floats > self.floats.shape[0]:
            self.floats = np.empty(int(floats * HEADROOM))
        if ints32 > self.ints32.shape[0]:
            self.ints32 = np.empty(int(ints32 * HEADROOM), dtype=np.int32)
        self.queue_size = queue_size
        self.version = version
        if kept:
            return
        self.grid, self._live = grid, live
        self.order = np.arange(len(live))
        if lists > self.lists.shape[0]:  # built in new arrays: none to keep
            self.lists = np.empty(int(lists * HEADROOM), dtype=np.int32)
            self.grid = None
