"""Broadphases whose shapes live in numpy arrays and whose ``pairs()`` runs a compiled
search of the array engine (``collide2d._kernels.pairs.search``): the common base of
:class:`~collide2d.SortAndSweep` and :class:`~collide2d.SortedStrips`."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import chain, repeat
from typing import cast

import numpy as np
from numpy.typing import NDArray

from collide2d._kernels.pairs.search import find_pairs, match_sorted, widen_outward
from collide2d.broadphase._index import Box, Index, Indexed, needs_exact_test
from collide2d.broadphase.protocol import Key
from collide2d.gc_pause import collector_paused
from collide2d.geometry.circle import Circle
from collide2d.geometry.overlap import overlaps
from collide2d.geometry.rect import Rect

_NO_CIRCLES = np.zeros((0, 3))


class ArrayIndex(Index):
    """Shapes kept in numpy arrays; ``pairs`` runs the compiled search named by the
    subclass's ``method``.

    ``add``, ``update`` and ``remove`` only write a row of an array, so moving many
    shapes each frame is cheap. ``pairs`` searches the bounds in compiled code, tests
    pairs with a circle exactly, and returns the cached answer when nothing changed
    since the last call. Queries test every shape's bounds with numpy, then the
    candidates exactly.
    """

    def __init__(self) -> None:
        # update_rects' shapes and bounds, not yet in the dicts (see _catch_up)
        self._deferred: tuple[list[Key], NDArray[np.float64], NDArray[np.float64]] | None = None
        super().__init__()
        self._box = np.zeros((16, 4))  # closed bounds, one row a slot
        self._alive = np.zeros(16, dtype=bool)
        self._round = np.zeros(16, dtype=bool)  # the slot holds a circle
        self._slot_keys: list[Key | None] = []  # slots in the order keys were added
        self._slot: dict[Key, int] = {}
        self._dead = 0
        self._pending: dict[int, Box] = {}  # rows written to the arrays at the next search
        self._cached: list[tuple[Key, Key]] | None = None
        self._built: object = None  # a structure a subclass derives from the rows
        self._moved: dict[int, None] = {}  # slots moved since it was built
        # The last answer as sorted pair codes (slot_a * size + slot_b) and tuples.
        self._last: tuple[NDArray[np.int64], NDArray[np.object_]] = (
            np.zeros(0, dtype=np.int64),
            np.zeros(0, dtype=object),
        )
        self._last_size = np.int64(0)

    # -- the shapes, made when read ------------------------------------------------------
    # ``update_rects`` writes the rows and keeps its rectangles as an array: the
    # ``Rect`` and bounds tuples of thousands of keys (two thirds of a frame of
    # ``update_rects`` and ``pairs``, 3,000 rectangles) are made only when something
    # reads a shape. Key-only reads go through ``_order``.
    @property
    def _shapes(self) -> dict[Key, Indexed]:
        if self._deferred is not None:
            self._catch_up()
        return self._shapes_now

    @_shapes.setter
    def _shapes(self, value: dict[Key, Indexed]) -> None:
        self._shapes_now = value

    @property
    def _boxes(self) -> dict[Key, Box]:
        if self._deferred is not None:
            self._catch_up()
        return self._boxes_now

    @_boxes.setter
    def _boxes(self, value: dict[Key, Box]) -> None:
        self._boxes_now = value

    def _catch_up(self) -> None:
        """Put the rectangles ``update_rects`` deferred into the dicts."""
        deferred, self._deferred = self._deferred, None
        if deferred is None:
            return
        keys, rows, bounds = deferred
        new = tuple.__new__  # the rows passed Rect's checks
        with collector_paused():  # thousands of new tuples, no cycles
            self._shapes_now.update(zip(keys, map(new, repeat(Rect), rows.tolist()), strict=True))
            self._boxes_now.update(zip(keys, map(tuple, bounds.tolist()), strict=True))

    # -- storage -------------------------------------------------------------------------
    def _insert(self, key: Key, box: Box) -> None:
        self._flush()
        slot = len(self._slot_keys)
        if slot == self._box.shape[0]:
            self._grow()
        self._box[slot] = box
        self._alive[slot] = True
        self._slot_keys.append(key)
        self._slot[key] = slot
        self._cached = self._built = None

    def _grow(self) -> None:
        size = 2 * self._box.shape[0]
        for name in ("_box", "_alive", "_round"):
            old = getattr(self, name)
            new = np.zeros((size, *old.shape[1:]), dtype=old.dtype)
            new[: old.shape[0]] = old
            setattr(self, name, new)

    def _delete(self, key: Key, box: Box) -> None:
        self._flush()
        slot = self._slot.pop(key)
        self._alive[slot] = False
        self._round[slot] = False
        self._slot_keys[slot] = None
        self._dead += 1
        self._cached = self._built = None
        if self._dead > 64 and self._dead > len(self._slot) // 2:
            self._compact()

    def _compact(self) -> None:
        """Drop dead slots, keeping the order in which keys were added."""
        live = np.flatnonzero(self._alive[: len(self._slot_keys)])
        size = max(16, 2 * live.shape[0])
        box = np.zeros((size, 4))
        box[: live.shape[0]] = self._box[live]
        round_ = np.zeros(size, dtype=bool)
        round_[: live.shape[0]] = self._round[live]
        alive = np.zeros(size, dtype=bool)
        alive[: live.shape[0]] = True
        self._box, self._round, self._alive = box, round_, alive
        self._slot_keys = [self._slot_keys[slot] for slot in live.tolist()]
        self._slot = {key: slot for slot, key in enumerate(self._slot_keys)}
        self._dead = 0
        self._last = (np.zeros(0, dtype=np.int64), np.zeros(0, dtype=object))  # slots moved

    def _move(self, key: Key, old: Box, new: Box) -> None:
        slot = self._slot[key]
        self._pending[slot] = new  # one numpy write per search, not per move
        self._moved[slot] = None
        self._cached = None

    def _flush(self) -> None:
        if self._pending:
            count = len(self._pending)
            slots = np.fromiter(self._pending.keys(), dtype=np.intp, count=count)
            values = chain.from_iterable(self._pending.values())
            self._box[slots] = np.fromiter(values, dtype=np.float64, count=4 * count).reshape(-1, 4)
            self._pending.clear()

    def update(self, key: Key, shape: Indexed) -> None:
        """Replace ``key``'s shape (a teleport: no sweep and no response).

        The fast path (a ``Rect`` replacing a ``Rect``, a ``Circle`` a ``Circle``)
        does what ``Index.update`` does with fewer steps: this is the call a game
        makes for every moving shape.
        """
        if self._deferred is not None:
            self._catch_up()
        shapes = self._shapes_now
        try:
            old = shapes.get(key)
        except TypeError:  # unhashable: the general path says so
            old = None
        kind = type(shape)
        if type(old) is not kind or (kind is not Rect and kind is not Circle):
            was = type(self._shapes[key]) if key in self._shapes else None
            super().update(key, shape)
            if type(self._shapes[key]) is not was:
                self._round[self._slot[key]] = needs_exact_test(self._shapes[key])
                self._built = None
            self._cached = None
            return
        box: Box
        if kind is Rect:
            x, y, w, h = cast(Rect, shape)
            box = (x, y, x + w, y + h)
        else:
            cx, cy, r = cast(Circle, shape)
            box = (cx - r, cy - r, cx + r, cy + r)  # (bounds_of's)
        shapes[key] = shape
        boxes = self._boxes_now
        if box != boxes[key]:
            boxes[key] = box
            slot = self._slot[key]
            self._pending[slot] = box
            self._moved[slot] = None
            self._cached = None
        elif kind is Circle and shape != old:
            self._cached = None  # (a circle is tested exactly: bounds alike are not enough)

    def update_rects(self, keys: Sequence[Key], rects: object) -> None:
        keys, rows = self._checked_rects(keys, rects)
        if not keys:
            return
        with collector_paused():  # thousands of new tuples, no cycles
            self._write_rects(keys, rows)

    update_rects.__doc__ = Index.update_rects.__doc__

    def _write_rects(self, keys: list[Key], rows: NDArray[np.float64]) -> None:
        self._flush()
        slot = self._slot
        slots = np.fromiter((slot[key] for key in keys), dtype=np.intp, count=len(keys))
        bounds = np.empty_like(rows)
        bounds[:, :2] = rows[:, :2]
        bounds[:, 2:] = rows[:, :2] + rows[:, 2:]
        self._box[slots] = bounds
        self._round[slots] = False
        # The last call's rectangles are replaced when it named the same keys (a frame
        # loop); else they go into the dicts first.
        if self._deferred is not None and self._deferred[0] != keys:
            self._catch_up()
        self._deferred = (keys, rows.copy(), bounds)  # (rows may be the caller's array)
        self._moved.update(dict.fromkeys(slots.tolist()))
        self._cached = None

    def add(self, key: Key, shape: Indexed) -> None:
        """Insert ``shape`` under a new ``key`` (see :meth:`Index.add`)."""
        super().add(key, shape)
        self._round[self._slot[key]] = needs_exact_test(self._shapes[key])

    # -- searching -----------------------------------------------------------------------
    def _candidates(self, box: Box) -> Iterable[Key]:
        self._flush()
        used = len(self._slot_keys)
        rows = self._box[:used]
        hit = (
            self._alive[:used]
            & (rows[:, 0] <= box[2])
            & (box[0] <= rows[:, 2])
            & (rows[:, 1] <= box[3])
            & (box[1] <= rows[:, 3])
        )
        self.stats.count(visits=used)
        keys = self._slot_keys
        return [keys[slot] for slot in np.flatnonzero(hit).tolist()]

    def pairs(self) -> list[tuple[Key, Key]]:
        """Every pair of keys whose shapes overlap (strictly), each once.

        Sorted by the order in which keys were added, like every broadphase.
        """
        self._begin_pairs()
        if self._cached is None:
            live, box = self._live_rows()
            found, tests, visits = self._search(box)
            slots = live[found]  # pairs of slots: sorted, as live is increasing
            round_ = self._round[slots]
            either = round_[:, 0] | round_[:, 1]
            if either.any():  # bounds overlap; a pair with a circle needs the exact test
                shapes = self._shapes
                keys = self._slot_keys
                keep = np.ones(slots.shape[0], dtype=bool)
                for row in np.flatnonzero(either).tolist():
                    a, b = keys[slots[row, 0]], keys[slots[row, 1]]
                    keep[row] = overlaps(shapes[a], shapes[b])
                tests += int(either.sum())
                slots = slots[keep]
            self.stats.count(tests=tests, visits=visits)
            with collector_paused():  # thousands of new tuples, no cycles
                self._cached = self._as_key_pairs(slots)
        return list(self._cached)

    def _live_rows(self) -> tuple[NDArray[np.intp], NDArray[np.float64]]:
        """The live slots, in the order their keys were added, and their closed bounds
        (see :meth:`_rows_of`)."""
        self._flush()
        live = np.flatnonzero(self._alive[: len(self._slot_keys)])
        return live, self._rows_of(live)

    def _rows_of(self, slots: NDArray[np.intp]) -> NDArray[np.float64]:
        """The closed bounds of ``slots`` as searched (a copy; circles' and polygons'
        an ulp wider, see ``widen_outward``); pending rows written first."""
        self._flush()
        box = self._box[slots]
        rounded = self._round[slots]
        if rounded.any():
            widened = box[rounded]
            widen_outward(widened)
            box[rounded] = widened
        return box

    def _search(self, box: NDArray[np.float64]) -> tuple[NDArray[np.intp], int, int]:
        """The pairs ``(i, j)``, ``i < j``, sorted, of the rows of ``box`` (the live
        slots' closed bounds, circles' widened) that overlap strictly; the tests made;
        the visits."""
        found, counters, _ = find_pairs(box, _NO_CIRCLES, 0, self.method)
        return found, int(counters[0]), box.shape[0]

    def _as_key_pairs(self, slots: NDArray[np.intp]) -> list[tuple[Key, Key]]:
        """The slot pairs as key pairs, reusing the tuples of pairs that persist from
        the last call (most do, from one frame to the next)."""
        size = np.int64(len(self._slot_keys))
        codes = slots[:, 0].astype(np.int64) * size + slots[:, 1]
        rows = np.empty(codes.shape[0], dtype=object)
        old_codes, old_rows = self._last
        if old_codes.shape[0] and self._last_size == size:
            at = match_sorted(old_codes, codes)  # both increasing: slots pairs are sorted
            same = at >= 0
            rows[same] = old_rows[at[same]]
        else:
            same = np.zeros(codes.shape[0], dtype=bool)
        fresh = np.flatnonzero(~same)
        keys = self._slot_keys
        rows[fresh] = [(keys[a], keys[b]) for a, b in slots[fresh].tolist()]
        self._last = (codes, rows)
        self._last_size = size
        result: list[tuple[Key, Key]] = rows.tolist()
        return result

    def _validate_structure(self) -> None:
        self._flush()
        if set(self._slot) != set(self._shapes):
            raise AssertionError("slots hold other keys than the index")
        for key, slot in self._slot.items():
            if self._slot_keys[slot] != key or not self._alive[slot]:
                raise AssertionError(f"slot of {key!r} is stale")
            if tuple(self._box[slot].tolist()) != self._boxes[key]:
                raise AssertionError(f"array row of {key!r} is stale")
            if bool(self._round[slot]) != needs_exact_test(self._shapes[key]):
                raise AssertionError(f"circle flag of {key!r} is stale")
        if int(self._alive.sum()) != len(self._slot):
            raise AssertionError("dead slots marked alive")
        order = [key for key in self._slot_keys if key is not None]
        if order != sorted(self._shapes, key=self._order.__getitem__):
            raise AssertionError("slots are not in the order keys were added")


def apart_pairs(box: NDArray[np.float64], apart: NDArray[np.intp]) -> tuple[NDArray[np.int64], int]:
    """The codes ``i * n + j`` (``i < j``) of the pairs of a row in ``apart`` (shapes a
    structure keeps out of its cells or tree) and any other row of ``box`` whose
    bounds overlap strictly, sorted and unique; the tests made."""
    n = box.shape[0]
    codes = []
    for k in apart.tolist():
        hit = overlapping_rows(box, box[k])
        hit[k] = False
        others = np.flatnonzero(hit)
        low, high = np.minimum(others, k), np.maximum(others, k)
        codes.append(low.astype(np.int64) * n + high)
    tests = len(apart) * (n - 1)
    return (np.unique(np.concatenate(codes)) if codes else np.zeros(0, dtype=np.int64)), tests


def decoded(codes: NDArray[np.int64], n: int) -> NDArray[np.intp]:
    """Pair codes ``i * n + j`` back to rows ``(i, j)``."""
    pairs = np.empty((len(codes), 2), dtype=np.intp)
    np.divmod(codes, n, out=(pairs[:, 0], pairs[:, 1]))
    return pairs


def overlapping_rows(rows: NDArray[np.float64], box: NDArray[np.float64]) -> NDArray[np.bool_]:
    """Which ``rows`` (closed bounds) overlap the closed bounds ``box`` strictly."""
    result: NDArray[np.bool_] = (
        (rows[:, 0] < box[2])
        & (box[0] < rows[:, 2])
        & (rows[:, 1] < box[3])
        & (box[1] < rows[:, 3])
    )
    return result


def touching_rows(rows: NDArray[np.float64], box: Sequence[float]) -> NDArray[np.bool_]:
    """Which ``rows`` (closed bounds) touch the closed bounds ``box``."""
    result: NDArray[np.bool_] = (
        (rows[:, 0] <= box[2])
        & (box[0] <= rows[:, 2])
        & (rows[:, 1] <= box[3])
        & (box[1] <= rows[:, 3])
    )
    return result
