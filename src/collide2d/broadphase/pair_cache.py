"""Incremental ``pairs()`` for the structures that file shapes by their bounds.

After the first call the overlapping pairs are kept per key, and later calls
re-test only the keys added or updated since, through the structure's
``_candidates``. A frame in which few objects move costs little; one in which many
moved searches from scratch, in compiled code where the structure has a search
(:class:`~collide2d.UniformGrid`'s cells). Used by :class:`~collide2d.UniformGrid`.
"""

from __future__ import annotations

from collections.abc import Iterable
from operator import itemgetter

from collide2d.broadphase._index import Index, Indexed
from collide2d.broadphase.protocol import Key
from collide2d.geometry.overlap import overlaps

MANY_SHARE = 32
"""``pairs()`` searches from scratch, in compiled code where the structure has it,
when more than ``1 / MANY_SHARE`` of the keys (and more than ``MANY_MIN``) changed
since the last call: re-testing them one by one would cost more."""
MANY_MIN = 16
_KEYS = itemgetter(2, 3)
"""A row's two keys, ``(key a, key b)``."""


class CachedPairsIndex(Index):
    """An :class:`Index` whose ``pairs()`` keeps last call's answer and re-tests only
    the keys that changed since."""

    def __init__(self) -> None:
        super().__init__()
        # Filled by the first pairs(): each key's overlapping partners, and the last
        # result as rows (order a, order b, key a, key b), sorted.
        self._partners: dict[Key, set[Key]] | None = None
        self._rows: list[tuple[int, int, Key, Key]] = []
        self._dirty: set[Key] = set()
        self._partners_stale = False  # the partners are to be filled from the rows

    def _candidate_pairs(self) -> Iterable[tuple[Key, Key]]:
        """Pairs of distinct keys whose boxes may touch, each at least once."""
        raise NotImplementedError

    # -- keeping the cache current -------------------------------------------------------
    def add(self, key: Key, shape: Indexed) -> None:
        if self._partners_stale:
            self._fill_partners()
        super().add(key, shape)
        if self._partners is not None:
            self._partners[key] = set()
            self._dirty.add(key)

    add.__doc__ = Index.add.__doc__

    def remove(self, key: Key) -> None:
        if self._partners_stale:
            self._fill_partners()
        super().remove(key)
        if self._partners is not None:
            others = self._partners.pop(key)
            for other in others:
                self._partners[other].discard(key)
            if others:
                self._rows = [row for row in self._rows if row[2] != key and row[3] != key]
            self._dirty.discard(key)

    remove.__doc__ = Index.remove.__doc__

    def update(self, key: Key, shape: Indexed) -> None:
        super().update(key, shape)
        if self._partners is not None:
            self._dirty.add(key)

    update.__doc__ = Index.update.__doc__

    # -- answering -----------------------------------------------------------------------
    def pairs(self) -> list[tuple[Key, Key]]:
        self._begin_pairs()
        dirty = len(self._dirty)
        if self._partners is None or (dirty > MANY_MIN and dirty * MANY_SHARE > len(self._shapes)):
            found = self._compiled_pairs()
            if found is None:
                self._pairs_from_scratch()
            else:
                self._rows = found
                self._partners = {}  # filled from the rows when next needed
                self._partners_stale = True
        elif dirty:
            self._pairs_of_dirty_keys()
        self._dirty = set()
        return list(map(_KEYS, self._rows))  # in C: thousands of rows

    def _compiled_pairs(self) -> list[tuple[int, int, Key, Key]] | None:
        """The rows of every overlapping pair found from scratch in compiled code, or
        None where the structure has no such search."""
        return None

    def _fill_partners(self) -> None:
        """Each key's partners from the rows (after a compiled search)."""
        partners: dict[Key, set[Key]] = {key: set() for key in self._shapes}
        for _, _, a, b in self._rows:
            partners[a].add(b)
            partners[b].add(a)
        self._partners = partners
        self._partners_stale = False

    pairs.__doc__ = Index.pairs.__doc__

    def _pairs_from_scratch(self) -> None:
        shapes = self._shapes
        order = self._order
        partners: dict[Key, set[Key]] = {key: set() for key in shapes}
        tested: set[tuple[int, int]] = set()
        rows = []
        for a, b in self._candidate_pairs():
            oa = order[a]
            ob = order[b]
            if oa > ob:
                a, b, oa, ob = b, a, ob, oa
            if (oa, ob) in tested:
                continue
            tested.add((oa, ob))
            if overlaps(shapes[a], shapes[b]):
                partners[a].add(b)
                partners[b].add(a)
                rows.append((oa, ob, a, b))
        self.stats.count(tests=len(tested))
        rows.sort()  # rows are unique in (oa, ob): the keys are never compared
        self._partners = partners
        self._rows = rows

    def _pairs_of_dirty_keys(self) -> None:
        """Re-test only the keys added or updated since the last call."""
        if self._partners_stale:
            self._fill_partners()
        partners = self._partners
        if partners is None:  # pragma: no cover - only called once the cache exists
            raise RuntimeError("no pair cache")
        shapes = self._shapes
        order = self._order
        dirty = self._dirty
        old: set[tuple[int, int]] = set()
        for key in dirty:
            mine = order[key]
            for other in partners[key]:
                theirs = order[other]
                old.add((mine, theirs) if mine < theirs else (theirs, mine))
                partners[other].discard(key)
            partners[key] = set()
        new: dict[tuple[int, int], tuple[Key, Key]] = {}
        tests = 0
        for key in dirty:
            shape = shapes[key]
            mine = order[key]
            for other in self._candidates(self._boxes[key]):
                theirs = order[other]
                pair = (mine, theirs) if mine < theirs else (theirs, mine)
                if other == key or pair in new:
                    continue
                tests += 1
                if overlaps(shape, shapes[other]):
                    partners[key].add(other)
                    partners[other].add(key)
                    new[pair] = (key, other) if mine < theirs else (other, key)
        self.stats.count(tests=tests)
        gone = old.difference(new)
        rows = self._rows
        if gone:
            rows = [row for row in rows if (row[0], row[1]) not in gone]
        added = [(*pair, *keys) for pair, keys in new.items() if pair not in old]
        if added:
            rows.extend(added)
            rows.sort()  # a sorted run and a short tail: nearly linear
        self._rows = rows

    def validate(self) -> None:
        super().validate()
        if self._partners_stale:
            self._fill_partners()
        if self._partners is not None:
            if self._partners.keys() != self._shapes.keys():
                raise AssertionError("the pair cache has other keys than the index")
            if not self._dirty:
                from_partners = {
                    (self._order[a], self._order[b])
                    for a, others in self._partners.items()
                    for b in others
                    if self._order[a] < self._order[b]
                }
                if from_partners != {(row[0], row[1]) for row in self._rows}:
                    raise AssertionError("the cached pairs and partners disagree")

    validate.__doc__ = Index.validate.__doc__
