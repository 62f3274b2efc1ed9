"""Broadphases whose structure (a tree, cells) is built from the rows in compiled code
and kept while few shapes move: the common base of :class:`~collide2d.Quadtree` and
:class:`~collide2d.UniformGrid`.

``add``, ``update`` and ``remove`` write rows (:class:`ArrayIndex`). The structure is
built when a query or ``pairs()`` needs it and none is kept, after a shape came or
went, or when more than a small share of the shapes moved since the last build.
Until then it is kept and the shapes that moved since are handled apart: a query
takes the structure's candidates that did not move and tests the moved ones itself;
``pairs()`` takes the pairs of the build (found once from the structure), drops
those of the moved shapes and finds theirs anew (against the structure, and among
themselves). A frame that moves a few shapes among many costs what they cost; one
that moves most builds once.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np
from numpy.typing import NDArray

from collide2d.broadphase._index import Box
from collide2d.broadphase.array_index import (
    ArrayIndex,
    apart_pairs,
    decoded,
    overlapping_rows,
    touching_rows,
)
from collide2d.broadphase.protocol import Key

QUERY_SHARE = 64
"""A query rebuilds when more than ``1 / QUERY_SHARE`` of the shapes (and more than
``REBUILD_MIN``) moved since the last build: it tests the moved ones itself, each
time."""
PAIRS_SHARE = 200
"""``pairs()`` rebuilds when more than ``1 / PAIRS_SHARE`` of the shapes (and more
than ``REBUILD_MIN``) moved: each moved shape costs a query of its own, about 1/200 of
a build."""
REBUILD_MIN = 16


class Built:
    """What a subclass builds, with what every structure needs: the live slots it was
    built from (item ``k`` is slot ``live[k]``), their bounds then, the items kept out
    of it (tested against everything), each slot's item, and the pairs of the build
    once found (codes ``i * n + j``)."""

    __slots__ = ("apart", "base", "box", "item_of", "live", "parts", "tests", "visits")

    def __init__(
        self, parts: Any, live: NDArray[np.intp], box: NDArray[np.float64],
        apart: NDArray[np.intp], slots: int,
    ) -> None:  # fmt: skip
        self.parts = parts
        self.live = live
        self.box = box
        self.apart = apart
        self.item_of = np.full(max(slots, 1), -1, dtype=np.intp)
        self.item_of[live] = np.arange(len(live))
        self.base: NDArray[np.int64] | None = None
        self.tests = 0
        self.visits = 0


class RebuiltIndex(ArrayIndex):
    """An :class:`ArrayIndex` with a structure built from its rows (see the module
    docstring). Subclasses say how to build, list the pairs and answer a query."""

    def __init__(self) -> None:
        super().__init__()
        self._seen = np.zeros(16, dtype=np.int64)  # query marks
        self._epoch = 0

    # -- what a subclass provides ----------------------------------------------------------
    def _build(self, box: NDArray[np.float64]) -> tuple[Any, NDArray[np.intp]]:
        """The structure of the rows ``box`` and the items it keeps apart."""
        raise NotImplementedError

    def _structure_pairs(self, built: Built) -> tuple[NDArray[np.int64], int, int]:
        """The codes of the pairs of the build's boxes that overlap strictly (unique,
        any order), without the items kept apart; the tests and visits made."""
        raise NotImplementedError

    def _structure_query(self, built: Built, box: Box) -> tuple[NDArray[np.int64], int] | None:
        """The items the structure lists near the closed ``box`` (a superset of those
        whose build-time boxes touch it, each once); the visits. None to have every
        row tested instead (a query far larger than the structure)."""
        raise NotImplementedError

    # -- the structure -------------------------------------------------------------------
    def _structure(self, share: int = QUERY_SHARE) -> Built:
        """The structure, built again when none is kept or more than ``1 / share`` of
        the shapes moved since."""
        built = self._built
        if isinstance(built, Built):
            moved = len(self._moved)
            if moved <= REBUILD_MIN or moved * share <= len(built.live):
                return built
        live, box = self._live_rows()
        parts, apart = self._build(box)
        built = Built(parts, live, box, apart, len(self._slot_keys))
        self._built = built
        self._moved = {}
        return built

    def _moved_items(self, built: Built) -> NDArray[np.intp]:
        """The items (indices into ``built.live``) moved since the build, sorted."""
        if not self._moved:
            return np.zeros(0, dtype=np.intp)
        slots = np.fromiter(self._moved, dtype=np.intp, count=len(self._moved))
        return np.sort(built.item_of[slots])

    # -- searching -----------------------------------------------------------------------
    def _search(self, box: NDArray[np.float64]) -> tuple[NDArray[np.intp], int, int]:
        built = self._structure(PAIRS_SHARE)
        n = len(built.live)
        if built.base is None:  # the pairs of the build, found once
            codes, tests, visits = self._structure_pairs(built)
            codes = np.sort(codes)  # (unique already)
            if len(built.apart):
                extra, made = apart_pairs(built.box, built.apart)
                codes = np.union1d(codes, extra)
                tests += made
            built.base, built.tests, built.visits = codes, tests, visits + len(built.apart)
        moved = self._moved_items(built)
        if not len(moved):
            return decoded(built.base, n), built.tests, built.visits
        # the build's pairs without the moved shapes, and the moved shapes' pairs now
        base = built.base
        is_moved = np.zeros(n, dtype=bool)
        is_moved[moved] = True
        keep = ~(is_moved[base // n] | is_moved[base % n])
        found = [base[keep]]
        tests = visits = 0
        for k in moved.tolist():
            row = box[k]
            near = self._structure_query(built, tuple(row.tolist()))
            if near is None:
                others = np.arange(n)
            else:
                others, seen = near
                visits += seen
                others = np.union1d(others, built.apart)
            others = others[~is_moved[others]]  # the moved ones: among themselves below
            tests += len(others)
            hit = overlapping_rows(box[others], row)
            low, high = np.minimum(others[hit], k), np.maximum(others[hit], k)
            found.append(low.astype(np.int64) * n + high)
        sub = box[moved]
        tests += len(moved) * (len(moved) - 1) // 2
        i, j = np.nonzero(np.triu(_all_overlapping(sub), 1))
        found.append(moved[i].astype(np.int64) * n + moved[j])
        return decoded(np.unique(np.concatenate(found)), n), tests, visits

    def _candidates(self, box: Box) -> Iterable[Key]:
        built = self._structure()
        near = self._structure_query(built, box)
        if near is None:
            return super()._candidates(box)
        items, visits = near
        keys = self._slot_keys
        moved = self._moved_items(built)
        apart = built.apart
        if len(moved):  # listed where they were; tested where they are
            current = self._rows_of(built.live[moved])
            is_moved = np.zeros(len(built.live), dtype=bool)
            is_moved[moved] = True
            items = np.concatenate([items[~is_moved[items]], moved[touching_rows(current, box)]])
            apart = apart[~is_moved[apart]]  # each key once
        self.stats.count(visits=visits + len(built.apart))
        chosen = np.concatenate([apart, items]) if len(apart) else items
        return [keys[slot] for slot in built.live[chosen].tolist()]

    def _query_marks(self, n: int) -> tuple[NDArray[np.int64], int]:
        """A mark array of at least ``n`` entries and a fresh epoch for one query."""
        if self._seen.shape[0] < n:
            self._seen = np.zeros(2 * n, dtype=np.int64)
        self._epoch += 1
        return self._seen, self._epoch


def _all_overlapping(rows: NDArray[np.float64]) -> NDArray[np.bool_]:
    """Which pairs of ``rows`` overlap strictly (a square matrix)."""
    lo, hi = rows[:, :2], rows[:, 2:]
    before = np.all(lo[:, None, :] < hi[None, :, :], axis=2)
    after = np.all(lo[None, :, :] < hi[:, None, :], axis=2)
    return np.asarray(before & after)
