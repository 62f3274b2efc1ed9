"""The step core's event queue (``_kernels/step_queue.py``): per-body lists of events
and a heap of the bodies by their earliest one, against a sorted list."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from collide2d._kernels import step_queue as q
from collide2d._kernels.step_shapes import COUNTER, INTS

ops = st.lists(
    st.tuples(
        st.sampled_from(["add", "take", "bump"]),
        st.integers(0, 5),  # the row (body) it is about
        st.integers(0, 5),  # the other body
        st.sampled_from([0.0, 0.5, 1.0, 1.5, 2.0]),  # few times: many ties
        st.integers(1, 3),  # order (1..3: contacts; stale when the other changes)
    ),
    max_size=80,
)


@pytest.mark.parametrize("pool", [0, 100], ids=["fresh arrays", "pools holding garbage"])
@settings(max_examples=300, deadline=None)
@given(script=ops)
def test_the_queue_gives_the_earliest_live_event_as_a_sorted_list_would(pool, script):
    rows = 6
    ib = np.zeros((rows, INTS), dtype=np.int64)
    ints = np.full(pool, 12345, dtype=np.int64)
    *queue, iused = q.new_queue(rows, 2, ints, 3)
    assert iused == 3 + 3 * rows * 2 + 6 * rows
    et, ek, elen, emin, ht, hk, hpos = queue
    live: list[tuple[float, int, int, int]] = []  # (time, key, row, other's counter)
    pt, pk, px = np.empty(1), np.empty(1, dtype=np.int64), np.empty(1, dtype=np.int64)
    for action, r, other, t, order in script:
        if action == "add" and other != r:
            lo, hi = min(r, other), max(r, other)
            key = int(q.pack(order, lo, hi))
            npend = q.pend(pt, pk, px, 0, t, key, 2 * int(ib[other, COUNTER]) + 1)
            if elen[r] + npend > q.room_of(ek):
                et, ek = q.lists_grown(ek, elen[r] + npend)
            q.flush(et, ek, elen, r, pt, pk, px, npend)
            q.refresh(et, ek, elen, emin, ht, hk, hpos, r, r, ib)
            live.append((t, key, r, int(ib[other, COUNTER])))
        elif action == "bump":  # body r changed: events naming it go stale
            ib[r, COUNTER] += 1
            elen[r] = 0  # its own list is predicted again from scratch (empty here)
            q.refresh(et, ek, elen, emin, ht, hk, hpos, r, r, ib)
        elif action == "take":
            valid = [e for e in live if ib[_other(e[1], e[2]), COUNTER] == e[3]]
            for row in range(rows):  # drop the stale ones (the core does it lazily)
                q.refresh(et, ek, elen, emin, ht, hk, hpos, row, row, ib)
            assert sum(elen) == len(valid)
            if not valid:
                assert ht[0, 0] == np.inf
                continue
            best = min((e[0], e[1]) for e in valid)
            assert (ht[0, 0], hk[0, 1]) == best
            row = int(hk[0, 2])
            t_, key_, extra = q.take(et, ek, elen, emin, row)
            taken = (float(t_), int(key_), row, int(extra) >> 1)
            # one of the earliest live events (the same pair predicted from both of its
            # bodies' rows ties: either comes first), not a stale twin
            assert taken in valid and taken[:2] == best
            live.remove(taken)
        if action == "bump":
            live = [e for e in live if e[2] != r]
        # the heap: every row's key is its list's earliest, and parents come first
        for p in range(1, rows):
            parent = (p - 1) >> 1
            assert (ht[parent, 0], hk[parent, 1]) <= (ht[p, 0], hk[p, 1])
        assert sorted(hk[:, 2].tolist()) == list(range(rows))
        assert all(hk[hpos[row], 2] == row for row in range(rows))


def _other(key: int, row: int) -> int:
    _, lo, hi = (int(v) for v in q.unpack(key))
    return hi if lo == row else lo
