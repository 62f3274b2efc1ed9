"""The reference broadphase: test everything against everything."""

from __future__ import annotations

from collections.abc import Iterable

from collide2d.broadphase._index import Box, Index
from collide2d.broadphase.protocol import Key
from collide2d.geometry.overlap import overlaps


class BruteForce(Index):
    """Every query tests every shape; ``pairs`` tests all ``n (n - 1) / 2`` pairs.

    The obviously correct reference the other broadphases are tested against,
    and the baseline their check counts are compared with.

    Examples
    --------
    >>> from collide2d import Rect
    >>> index = BruteForce()
    >>> index.add("a", Rect(0, 0, 10, 10))
    >>> index.add("b", Rect(5, 5, 10, 10))
    >>> index.add("c", Rect(10, 0, 5, 7))  # touches "a", overlaps "b"
    >>> index.pairs()
    [('a', 'b'), ('b', 'c')]
    >>> index.stats.tests
    3
    """

    method = "brute_force"

    def _insert(self, key: Key, box: Box) -> None:
        pass

    def _delete(self, key: Key, box: Box) -> None:
        pass

    def _candidates(self, box: Box) -> Iterable[Key]:
        self.stats.count(visits=len(self._shapes))
        return self._shapes

    def pairs(self) -> list[tuple[Key, Key]]:
        """Every overlapping pair, by testing all pairs (no cache)."""
        self._begin_pairs()
        keys = list(self._shapes)  # insertion order, which is the result order
        shapes = [self._shapes[key] for key in keys]
        found = []
        for i, a in enumerate(shapes):
            for j in range(i + 1, len(shapes)):
                if overlaps(a, shapes[j]):
                    found.append((keys[i], keys[j]))
        n = len(keys)
        self.stats.count(tests=n * (n - 1) // 2, visits=n)
        return found
