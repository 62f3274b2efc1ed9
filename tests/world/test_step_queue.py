"""The step core's event queue (``_kernels/step/step_queue.py``): per-body lists of events
and a heap of the bodies by their earliest one, against a sorted list."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from collide2d._kernels.step import step_queue as q
from collide2d._kernels.step.step_shapes import COUNTER, INTS

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
    assert iused == 3 + 3 * rows * q.ROOM + 4 * (rows + 1) + 4 * rows + 1
    et, ek, eh, ht, hk, hpos = queue
    elen = eh[:rows, q.LEN]
    live: list[tuple[float, int, int, int]] = []  # (time, key, row, other's counter)
    pt, pk, px = np.empty(1), np.empty(1, dtype=np.int64), np.empty(1, dtype=np.int64)
    for action, r, other, t, order in script:
        if action == "add" and other != r:
            lo, hi = min(r, other), max(r, other)
            key = int(q.pack(order, lo, hi))
            npend = q.pend(pt, pk, px, 0, t, key, 2 * int(ib[other, COUNTER]) + 1)
            if elen[r] + npend > eh[r, q.CAP]:
                et, ek = q.row_grown(et, ek, eh, r, elen[r] + npend)
            q.flush(et, ek, eh, r, pt, pk, px, npend)
            q.refresh(et, ek, eh, ht, hk, hpos, r, r, ib, True)
            live.append((t, key, r, int(ib[other, COUNTER])))
        elif action == "bump":  # body r changed: events naming it go stale
            ib[r, COUNTER] += 1
            elen[r] = 0  # its own list is predicted again from scratch (empty here)
            q.refresh(et, ek, eh, ht, hk, hpos, r, r, ib, True)
        elif action == "take":
            valid = [e for e in live if ib[_other(e[1], e[2]), COUNTER] == e[3]]
            for row in range(rows):  # drop the stale ones (the core does it lazily)
                q.refresh(et, ek, eh, ht, hk, hpos, row, row, ib, True)
            assert sum(elen) == len(valid)
            if not valid:
                assert ht[0, 0] == np.inf
                continue
            best = min((e[0], e[1]) for e in valid)
            assert (ht[0, 0], hk[0, 1]) == best
            row = int(hk[0, 2])
            t_, key_, extra = q.take(et, ek, eh, row)
            taken = (float(t_), int(key_), row, int(extra) >> 1)
            # one of the earliest live events (the same pair predicted from both of its
            # bodies' rows ties: either comes first), not a stale twin
            assert taken in valid and taken[:2] == best
            live.remove(taken)
        if action == "bump":
            live = [e for e in live if e[2] != r]
        # the heap: every row's key is its list's earliest, and parents come first
        for p in range(1, rows):
            parent = (p - 1) >> q.ARITY_BITS
            assert (ht[parent, 0], hk[parent, 1]) <= (ht[p, 0], hk[p, 1])
        assert sorted(hk[:, 2].tolist()) == list(range(rows))
        assert all(hk[hpos[row], 2] == row for row in range(rows))
        # the heap holds exactly the rows with an event (a finite key: the row taken
        # from keeps its key until refreshed), in its first places
        size = int(q.heap_size(hpos))
        assert all((ht[p, 0] < np.inf) == (p < size) for p in range(rows))
        assert size >= sum(1 for row in range(rows) if elen[row] > 0)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(0, 6), st.integers(0, 6), st.sampled_from([0.0, 0.25, 1.0, 3.0])),
        max_size=40,
    ),
    st.lists(st.integers(0, 6), max_size=5),
)
def test_rows_refreshed_before_the_heap_is_built_keep_their_places(events, bumped):
    """Before ``heapify`` (``step_start``'s touches), ``refresh`` without a sift drops
    a row's stale events and gives its own place its earliest live one, moving no
    other row; the heap built after gives the events in sorted order."""
    rows = 7
    ib = np.zeros((rows, INTS), dtype=np.int64)
    et, ek, eh, ht, hk, hpos, _ = q.new_queue(rows, 0, np.empty(0, dtype=np.int64), 0)
    live: list[tuple[float, int]] = []
    for r, other, t in events:  # listed as the first predictions list them
        if other == r:
            continue
        key = int(q.pack(1, min(r, other), max(r, other)))
        pt, pk = np.array([t]), np.array([key], dtype=np.int64)
        px = np.array([2 * int(ib[other, COUNTER])], dtype=np.int64)
        if eh[r, q.LEN] + 1 > eh[r, q.CAP]:
            et, ek = q.row_grown(et, ek, eh, r, int(eh[r, q.LEN]) + 1)
        q.flush(et, ek, eh, r, pt, pk, px, 1)
        live.append((t, key, r, other))
    for r in range(rows):
        q.first_key(et, ek, eh, ht, hk, r)
    for b in bumped:  # body b changed: the others' events with it are stale
        ib[b, COUNTER] += 1
    valid = [(t, key) for t, key, r, other in live if other not in bumped]
    dropped = 0
    for r in range(rows):
        dropped += q.refresh(et, ek, eh, ht, hk, hpos, r, r, ib, False)
        mine = [(t, key) for t, key, row, other in live if row == r and other not in bumped]
        assert hpos[r] == r and hk[r, 2] == r  # no row moved
        assert (ht[r, 0], hk[r, 1]) == (min(mine) if mine else (np.inf, 0))
    assert dropped == len(live) - len(valid)
    q.heapify(ht, hk, hpos)
    popped = []
    while ht[0, 0] < np.inf:
        row = int(hk[0, 2])
        t, key, _ = q.take(et, ek, eh, row)
        popped.append((float(t), int(key)))
        q.refresh(et, ek, eh, ht, hk, hpos, row, row, ib, True)
    assert popped == sorted(valid)


def _other(key: int, row: int) -> int:
    _, lo, hi = (int(v) for v in q.unpack(key))
    return hi if lo == row else lo


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.tuples(st.integers(0, 4), st.integers(1, 40)), max_size=30),
    st.sampled_from([0, 10_000]),
)
def test_a_list_that_grows_moves_alone_with_its_events(script, pool):
    """``row_grown`` moves one list to the pool's end (the pool doubled when full);
    every list keeps its events, and the others do not move."""
    rows = 5
    ints = np.full(pool, -7, dtype=np.int64)
    et, ek, eh, *_ = q.new_queue(rows, 0, ints, 0)
    model: list[list[tuple[float, int, int]]] = [[] for _ in range(rows)]
    for r, count in script:
        need = len(model[r]) + count
        others = {k: int(eh[k, q.BASE]) for k in range(rows) if k != r}
        if need > eh[r, q.CAP]:
            et, ek = q.row_grown(et, ek, eh, r, need)
            assert eh[r, q.CAP] >= need and eh[r, q.BASE] + 3 * eh[r, q.CAP] <= len(ek)
        assert all(int(eh[k, q.BASE]) == base for k, base in others.items())
        new = [(float(len(model[r]) + m) / 7, 1000 * r + m, -m) for m in range(count)]
        pt = np.array([e[0] for e in new])
        pk = np.array([e[1] for e in new], dtype=np.int64)
        px = np.array([e[2] for e in new], dtype=np.int64)
        q.flush(et, ek, eh, r, pt, pk, px, count)
        model[r] += new
        for k in range(rows):
            base = int(eh[k, q.BASE])
            got = [
                (float(et[base + 3 * m]), int(ek[base + 3 * m + 1]), int(ek[base + 3 * m + 2]))
                for m in range(int(eh[k, q.LEN]))
            ]
            assert got == model[k]
    # the lists never overlap, and all lie below the pool's first free place
    spans = sorted((int(eh[k, q.BASE]), int(eh[k, q.BASE] + 3 * eh[k, q.CAP])) for k in range(rows))
    assert all(a[1] <= b[0] for a, b in itertools.pairwise(spans))
    assert spans[-1][1] <= eh[rows, q.BASE] <= len(ek)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 3), st.integers(1, 30)), max_size=20),
       st.integers(0, 400))  # fmt: skip
def test_a_list_moves_within_the_pool_or_nothing_changes(script, spare):
    """``row_moved`` (the event loop's, which may not allocate) moves a list as
    ``row_grown`` would when the pool has the room, and otherwise changes nothing."""
    rows = 4
    ints = np.empty(0, dtype=np.int64)
    et, ek, eh, *_ = q.new_queue(rows, 3 * q.ROOM * rows + spare, ints, 0)
    for r, count in script:
        need = int(eh[r, q.LEN]) + count
        if need <= eh[r, q.CAP]:
            continue
        before_eh, before_ek = eh.copy(), ek.copy()
        if q.row_moved(ek, eh, r, need):
            room = int(eh[r, q.CAP])
            assert need <= room and eh[r, q.BASE] == before_eh[rows, q.BASE]
            assert eh[rows, q.BASE] == eh[r, q.BASE] + 3 * room <= len(ek)
            # what row_grown gives from the same place
            ge, gk = before_eh.copy(), before_ek.copy()
            _, gk = q.row_grown(gk.view(np.float64), gk, ge, r, need)
            assert np.array_equal(ge, eh) and len(gk) == len(ek)
        else:
            assert np.array_equal(eh, before_eh) and np.array_equal(ek, before_ek)
            _, bigger = q.row_grown(et, ek, eh, r, need)
            assert len(bigger) > len(ek)  # row_grown had to grow the pool
            break
        pt = np.zeros(count)
        pk = np.arange(count, dtype=np.int64)
        q.flush(et, ek, eh, r, pt, pk, pk, count)


def struck_into_tiles(tiles: int):
    """A light ball strikes a heavy one at rest: the heavy one goes on, the light one
    comes back. Each has ``tiles`` small tiles in a corner of its box (outside the
    circle, so in its cells from the start), met only after that contact: there,
    both changed bodies have more events than a list's first room."""
    from collide2d import Circle, Rect, World

    world = World()
    for near, far in (("A", "B"), ("B", "A")):
        world.set_response(near, near + "-tiles", "bounce")
        world.set_response(near, far + "-tiles", "ignore")
    world.set_response("A", "B", "bounce")
    for k in range(tiles):
        d = 0.75 + 0.005 * k
        world.add(("tile", "a", k), Rect(-3.0 - d - 0.004, -3.0 - d - 0.004, 0.004, 0.004),
                  mass=np.inf, group="A-tiles")  # fmt: skip
        world.add(("tile", "b", k), Rect(d, d, 0.004, 0.004), mass=np.inf, group="B-tiles")
    world.add("a", Circle(-3.0, -3.0, 1.0), velocity=(4.0, 4.0), group="A")
    world.add("b", Circle(0.0, 0.0, 1.0), mass=3.0, group="B")
    return world


def crossing_into_tiles(tiles: int):
    """A ball crossing into a cell of ``tiles`` tiles far from where it starts."""
    from collide2d import Circle, Rect, World

    world = World(cell_size=4.0)
    for k in range(tiles):
        world.add(("tile", k), Rect(40.0 + 0.05 * k, -0.5 + 0.01 * k, 0.1, 1.0), mass=np.inf)
    world.add("ball", Circle(0.0, 0.0, 1.0), velocity=(30.0, 0.0))
    return world


@pytest.mark.parametrize("scene", [struck_into_tiles, crossing_into_tiles])
@pytest.mark.parametrize("tiles", [4, 12, 40])
def test_a_list_grown_past_the_pool_in_the_event_loop_changes_nothing(scene, tiles):
    """A first step starts with a queue pool of exactly its lists' first room: a
    list that grows during the events (after a contact, or a cell crossing) finds
    no room, the loop pauses, its caller grows the pool and the loop goes on from
    the same place (``step_events.POOL_FULL``). The step equals the same step with
    a pool large enough never to pause."""
    paused, roomy = scene(tiles), scene(tiles)
    roomy._scratch.queue_size = 1_000_000
    got, want = paused.step(3.0), roomy.step(3.0)
    assert got.contacts == want.contacts
    assert (got.stats.events, got.stats.stale, got.stats.predictions, got.stats.crossings) == (
        want.stats.events, want.stats.stale, want.stats.predictions, want.stats.crossings,
    )  # fmt: skip
    for item in paused:
        assert paused.shape(item) == roomy.shape(item)
        assert paused.velocity(item) == roomy.velocity(item)
    moving = 2 if scene is struck_into_tiles else 1
    grew = paused._scratch.queue_size > 3 * q.ROOM * moving
    assert grew == (tiles > q.ROOM)  # (a pause happened exactly when lists grew)
    assert any(isinstance(c.a, tuple) and c.a[0] == "tile" for c in got.contacts)


def test_one_busy_body_does_not_widen_every_list() -> None:
    """A box among hundreds of bullets: its list grows, the others keep their room
    (the lists were once as wide as the longest, for every body)."""
    from collide2d import Circle, Rect, World

    world = World()
    world.set_response("bullet", "box", "cross")
    world.set_response("bullet", "bullet", "ignore")
    world.add("box", Rect(0.0, 0.0, 50.0, 50.0), velocity=(100.0, 0.0), group="box")
    for k in range(400):
        world.add(k, Circle(60.0 + (k % 20) * 3.0, 1.0 + (k // 20) * 2.5, 1.0), group="bullet",
                  velocity=(0.0, 1e-3))  # fmt: skip
    result = world.step(1.0)
    assert sum(c.response == "cross" for c in result.contacts) == 400
    scratch = world._scratch  # the queue's pool the step needed
    assert scratch.queue_size < 3 * q.ROOM * 401 + 3 * 2048


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.sampled_from([0.0, 0.5, 1.0, np.inf]), st.integers(0, 9)),
                min_size=1, max_size=40))  # fmt: skip
def test_heapify_orders_keys_set_in_any_order(keys):
    """``first_key`` then ``heapify`` (the first predictions) give the heap that a
    ``refresh`` of every row would: parents first, every row at its place."""
    rows = len(keys)
    ints = np.empty(0, dtype=np.int64)
    et, ek, eh, ht, hk, hpos, _ = q.new_queue(rows, 0, ints, 0)
    pt, pk, px = np.empty(1), np.empty(1, dtype=np.int64), np.empty(1, dtype=np.int64)
    for r, (t, k) in enumerate(keys):
        if t != np.inf:
            q.flush(et, ek, eh, r, pt, pk, px, q.pend(pt, pk, px, 0, t, k, 0))
        q.first_key(et, ek, eh, ht, hk, r)
    q.heapify(ht, hk, hpos)
    for p in range(1, rows):
        parent = (p - 1) >> q.ARITY_BITS
        assert (ht[parent, 0], hk[parent, 1]) <= (ht[p, 0], hk[p, 1])
    assert sorted(hk[:, 2].tolist()) == list(range(rows))
    assert all(hk[hpos[r], 2] == r for r in range(rows))
    size = int(q.heap_size(hpos))  # the rows with an event, first; the others out
    assert size == sum(t < np.inf for t, _ in keys)
    assert all((ht[p, 0] < np.inf) == (p < size) for p in range(rows))
    for p in range(rows):
        t, k = keys[int(hk[p, 2])]
        assert ht[p, 0] == t and (t == np.inf or hk[p, 1] == k)
