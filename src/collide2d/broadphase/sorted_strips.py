"""Sorted strips: sort and sweep within horizontal strips, levels by size."""

from __future__ import annotations

from collide2d.broadphase.array_index import ArrayIndex


class SortedStrips(ArrayIndex):
    """The search of :func:`collide2d.overlapping_pairs`, over keyed shapes.

    ``pairs()`` puts the shapes into levels by size and, within a level, into
    horizontal strips by top edge; each strip is sorted by left edge and swept along
    x together with the strip below (a hierarchical grid whose cells are sorted
    strips: Ericson, Real-Time Collision Detection, 7.2.6 and 7.5.2). Shapes live in
    numpy arrays, so ``update`` is cheap, and the search runs in compiled code: the
    fastest structure here for many moving shapes over a plane.

    Examples
    --------
    >>> from collide2d import Circle, Rect
    >>> index = SortedStrips()
    >>> index.add("a", Rect(0, 0, 10, 10))
    >>> index.add("b", Circle(12, 5, 3))
    >>> index.add("c", Rect(10, 20, 5, 5))
    >>> index.pairs()
    [('a', 'b')]
    """

    method = "strips"
