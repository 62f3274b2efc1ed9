"""Sort and sweep: shapes sorted by left edge and swept along x in compiled code."""

from __future__ import annotations

from collide2d.broadphase.array_index import ArrayIndex


class SortAndSweep(ArrayIndex):
    """Sort and sweep (Baraff 1992; Ericson, Real-Time Collision Detection, 7.5.2).

    ``pairs()`` sorts the shapes by left edge and sweeps along x: each shape is
    tested against the shapes that start before its right edge. Shapes live in numpy
    arrays, so ``update`` is cheap, and the sweep runs in compiled code.

    Sort and sweep is at its best when shapes are spread along one axis (a side
    scroller, a timeline). Over a crowded plane each shape meets every shape of its
    column, about ``sqrt(n)`` of them: :class:`SortedStrips` sweeps only within
    strips of similar y and tests far fewer pairs there.

    Examples
    --------
    >>> from collide2d import Rect
    >>> index = SortAndSweep()
    >>> index.add("a", Rect(0, 0, 10, 10))
    >>> index.add("b", Rect(5, 5, 10, 10))
    >>> index.pairs()
    [('a', 'b')]
    >>> index.update("b", Rect(50, 5, 10, 10))
    >>> index.pairs()
    []
    """

    method = "sort_and_sweep"
