"""Sort and sweep (sweep and prune) along the x axis, kept sorted incrementally."""

from __future__ import annotations

import bisect
from collections.abc import Iterable, Iterator

from collide2d.broadphase._index import Box, Index
from collide2d.broadphase.protocol import Key


class SortAndSweep(Index):
    """Shapes sorted by their left edge; pairs are found by sweeping along x.

    The order is repaired lazily with Python's sort, which is linear on the
    nearly sorted lists a frame of small motions leaves behind, and ``pairs``
    re-tests only the shapes that moved (see :class:`collide2d.broadphase.BruteForce`
    for the reference it is tested against).

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

    def __init__(self) -> None:
        super().__init__()
        self._keys: list[Key] = []  # sorted by left edge once _clean
        self._lefts: list[float] = []
        self._clean = True
        self._max_width = 0.0
        self._width_stale = False

    def _insert(self, key: Key, box: Box) -> None:
        self._keys.append(key)
        self._clean = False
        width = box[2] - box[0]
        if width > self._max_width:
            self._max_width = width

    def _delete(self, key: Key, box: Box) -> None:
        self._keys.remove(key)
        self._clean = False
        if box[2] - box[0] >= self._max_width:
            self._width_stale = True

    def _repair(self) -> None:
        if not self._clean:
            boxes = self._boxes
            self._keys.sort(key=lambda key: boxes[key][0])
            self._lefts = [boxes[key][0] for key in self._keys]
            self._clean = True
        if self._width_stale:
            self._max_width = max((b[2] - b[0] for b in self._boxes.values()), default=0.0)
            self._width_stale = False

    def _candidates(self, box: Box) -> Iterable[Key]:
        self._repair()
        # Keys whose left edge lies in [box.left - widest, box.right] may touch box.
        lo = bisect.bisect_left(self._lefts, box[0] - self._max_width)
        hi = bisect.bisect_right(self._lefts, box[2])
        boxes = self._boxes
        found = [key for key in self._keys[lo:hi] if boxes[key][2] >= box[0]]
        self.stats.count(visits=hi - lo)
        return found

    def _candidate_pairs(self) -> Iterator[tuple[Key, Key]]:
        self._repair()
        keys = self._keys
        lefts = self._lefts
        boxes = self._boxes
        n = len(keys)
        visits = 0
        for i in range(n):
            a = keys[i]
            right = boxes[a][2]
            j = i + 1
            while j < n and lefts[j] <= right:
                visits += 1
                yield a, keys[j]
                j += 1
        self.stats.count(visits=visits)

    def _validate_structure(self) -> None:
        if sorted(self._keys, key=repr) != sorted(self._shapes, key=repr):
            raise AssertionError("the sorted list holds other keys than the index")
        self._repair()
        if any(a > b for a, b in zip(self._lefts, self._lefts[1:], strict=False)):
            raise AssertionError("the keys are not sorted by left edge")
        if self._lefts != [self._boxes[key][0] for key in self._keys]:
            raise AssertionError("stale left edges")
