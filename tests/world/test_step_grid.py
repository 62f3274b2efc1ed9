"""The step core's grid (``_kernels/step/step_grid.py``): which lanes a group looks in at
the first predictions; the lines of cells a body left, dropped lazily."""

from __future__ import annotations

import math
import threading

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from collide2d import Circle, Rect, World
from collide2d._kernels.step import step_grid
from collide2d._kernels.step import step_shapes as shapes
from collide2d.world import step_cells
from collide2d.world.step_result import StepResult


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 8).flatmap(lambda g: st.tuples(
    st.lists(st.lists(st.booleans(), min_size=g, max_size=g), min_size=g, max_size=g),
    st.lists(st.integers(0, g - 1), max_size=30),
)))  # fmt: skip
def test_each_pair_of_groups_is_looked_at_from_one_side_the_larger(case) -> None:
    rows, groups_of = case
    g = len(rows)
    meets = np.array(rows, dtype=np.bool_)
    meets = meets | meets.T  # (responses are symmetric)
    ib = np.zeros((len(groups_of), shapes.INTS), dtype=np.int64)
    ib[:, shapes.GROUP] = groups_of
    moving = np.arange(len(groups_of))
    first = step_grid.first_lanes(meets, ib, moving)
    count = np.bincount(np.array(groups_of, dtype=np.int64), minlength=g)
    for a in range(g):
        assert first[a, a] == meets[a, a]  # a group's own pairs: by number, both sides
        for b in range(a + 1, g):
            if not meets[a, b]:
                assert not first[a, b] and not first[b, a]
                continue
            assert first[a, b] != first[b, a]  # one side only
            looker = a if first[a, b] else b
            other = b if looker == a else a
            assert count[looker] >= count[other]  # the larger looks in the smaller lane


def test_one_lane_for_every_group_is_looked_at_from_both_sides() -> None:
    meets = np.ones((12, 1), dtype=np.bool_)  # more groups than lanes: one lane
    ib = np.zeros((3, shapes.INTS), dtype=np.int64)
    first = step_grid.first_lanes(meets, ib, np.arange(3))
    assert first.all()


GRID = (0.0, 0.0, 10.0, 10.0 / 16.0, 8, 8)  # ox, oy, cell, margin, cols, rows


def _one_box(x0: int, x1: int, y0: int, y1: int, x: float, y: float, vx: float, vy: float):
    """A 4 x 4 box at ``(x, y)`` moving ``(vx, vy)``, listed in cells ``x0..x1 x
    y0..y1`` of ``GRID``: its rows and the cell lists."""
    fb = np.zeros((1, shapes.FLOATS))
    ib = np.zeros((1, shapes.INTS), dtype=np.int64)
    fb[0, shapes.X], fb[0, shapes.Y], fb[0, shapes.W], fb[0, shapes.H] = x, y, 4.0, 4.0
    fb[0, shapes.MVX], fb[0, shapes.MVY] = vx, vy
    ib[0, shapes.KIND] = shapes.RECT
    ib[0, shapes.CX0], ib[0, shapes.CX1], ib[0, shapes.CY0], ib[0, shapes.CY1] = x0, x1, y0, y1
    room = 64
    head = np.full((1, 64), -1, dtype=np.int64)
    nbody, nnext = np.zeros(room, dtype=np.int64), np.zeros(room, dtype=np.int64)
    nlink = np.zeros((room, 3), dtype=np.int64)
    bfirst = np.full(1, -1, dtype=np.int64)
    free = np.arange(room - 1, -1, -1, dtype=np.int64)
    lists = (head, nbody, nnext, nlink, bfirst, free)
    nfree = step_grid.list_cover(ib, head, nbody, nnext, nlink, bfirst, free, room, 8, 0, True)
    return fb, ib, lists, nfree


def _listed(lists) -> set[int]:
    """The cells whose lists hold the body (``_one_box``'s lists)."""
    head, nnext = lists[0], lists[2]
    cells = set()
    for c in range(head.shape[1]):
        if head[0, c] >= 0:
            assert nnext[head[0, c]] == -1  # (one body: one node a list)
            cells.add(c)
    return cells


@pytest.mark.parametrize(
    ("v", "want"),
    [
        ((1.0, 0.0), (2, 2, 2, 3)),  # right: the line left behind dropped; still along y
        ((-1.0, 0.0), (1, 2, 2, 3)),  # left: the line on its left is ahead, kept
        ((0.0, 1.0), (2, 2, 2, 3)),  # still along x (either side), down: line 1 left
        ((0.0, -1.0), (2, 2, 1, 3)),  # up: line 1 is ahead, kept
        ((1.0, -1.0), (2, 2, 1, 3)),
    ],
)
def test_trim_drops_only_the_lines_a_body_left_behind(v, want) -> None:
    # Cells of 10; the box spans x 21..25 and y 26..30, widened by the margin: cells
    # x 2..2, y 2..3. It is listed in x 1..2, y 1..3.
    fb, ib, lists, nfree = _one_box(1, 2, 1, 3, 21.0, 26.0, *v)
    nfree = step_grid.trim(fb, ib, *lists, nfree, 0, 0.0, GRID)
    cover = (ib[0, shapes.CX0], ib[0, shapes.CX1], ib[0, shapes.CY0], ib[0, shapes.CY1])
    assert cover == want
    x0, x1, y0, y1 = want
    cells = {cy * 8 + cx for cy in range(y0, y1 + 1) for cx in range(x0, x1 + 1)}
    assert _listed(lists) == cells
    assert nfree == 64 - len(cells)  # the nodes of the lines dropped given back


def test_trim_keeps_a_line_the_leading_edge_only_reaches() -> None:
    # Moving right with its right edge plus margin exactly at the line of cell 3 (the
    # crossing that added cell 3 happened now): kept, though the bounds barely meet it.
    margin = GRID[3]
    fb, ib, lists, nfree = _one_box(2, 3, 2, 2, 30.0 - margin - 4.0, 21.0, 1.0, 1.0)
    step_grid.trim(fb, ib, *lists, nfree, 0, 0.0, GRID)
    assert (ib[0, shapes.CX0], ib[0, shapes.CX1]) == (2, 3)


def test_bodies_whose_edges_reach_lines_of_both_axes_at_once_end_their_step() -> None:
    # Discs on the grid's diagonal moving along it: their edges reach a line of cells
    # on both axes at the same moment. Trimmed on both sides, the second crossing
    # dropped by rounding the line the first had just added, which was added again,
    # for ever (found by the property tests). The step runs in a thread, so that the
    # test fails, not hangs, if that comes back; the kernels are compiled before.
    warm = World(cell_size=8)
    warm.add(0, Circle(0.0, 0.0, 1.5), velocity=(5.0, 0.0))
    warm.add("wall", Rect(4.0, -5.0, 1.0, 10.0), mass=math.inf)
    warm.step(1.0)
    world = World(cell_size=8)
    for k in range(40):
        a = 3.0 + 7.25 * k
        world.add(k, Circle(a, a, 1.5), velocity=(13.0 + k % 5, 13.0 + k % 5))
    world.add("wall", Rect(400.0, 400.0, 10.0, 10.0), mass=math.inf)
    done: list[StepResult] = []
    runner = threading.Thread(target=lambda: done.extend(world.step(1.0) for _ in range(20)),
                              daemon=True)  # fmt: skip
    runner.start()
    runner.join(timeout=120.0)
    assert len(done) == 20, "the steps did not end"
    assert sum(r.stats.crossings for r in done) > 0  # (the scene does cross cells)


@settings(max_examples=150, deadline=None)
@given(
    st.lists(  # bodies: fixed or in lane 0 or 1, and the cells they cover
        st.tuples(
            st.integers(-1, 1),
            st.integers(0, 4),
            st.integers(0, 2),
            st.integers(0, 4),
            st.integers(0, 2),
        ),
        min_size=1,
        max_size=14,
    ),
    st.data(),
)
def test_a_gather_finds_each_body_listed_in_its_cells_once(bodies, data) -> None:
    # The bodies listed in a range of cells, other than the gatherer and the moving
    # ones stamped already, each once, in the order first met: against sets, with the
    # lists full of repeats (bodies covering up to 3 x 3 of a 5 x 5 grid). A fixed body
    # is taken by its cover (in the first of its cells the range meets), never by a
    # stamp: stamped or not, it is taken, and it is left unstamped.
    cols = rows = 5
    n = len(bodies)
    ib = np.zeros((n, shapes.INTS), dtype=np.int64)
    for b, (lane, x0, w, y0, h) in enumerate(bodies):
        ib[b, shapes.GROUP] = max(lane, 0)
        ib[b, shapes.FIXED] = lane < 0
        x1, y1 = min(x0 + w, cols - 1), min(y0 + h, rows - 1)
        ib[b, shapes.CX0], ib[b, shapes.CX1], ib[b, shapes.CY0], ib[b, shapes.CY1] = x0, x1, y0, y1
    fixed = np.flatnonzero(ib[:, shapes.FIXED])
    fstart, fbody, _ = step_grid.fixed_lists(ib, fixed, cols, rows, np.empty(0, np.int64), 0)
    room = n * cols * rows
    head = np.full((2, cols * rows), -1, dtype=np.int64)
    nbody, nnext = np.zeros(room, dtype=np.int64), np.zeros(room, dtype=np.int64)
    nlink = np.zeros((room, 3), dtype=np.int64)
    bfirst = np.full(n, -1, dtype=np.int64)
    free = np.arange(room - 1, -1, -1, dtype=np.int64)
    nfree = room
    for b in np.flatnonzero(ib[:, shapes.FIXED] == 0):
        nfree = step_grid.list_cover(ib, head, nbody, nnext, nlink, bfirst, free, nfree, cols,
                                     b, True)  # fmt: skip
    i = data.draw(st.integers(0, n - 1))
    looks = data.draw(st.lists(st.booleans(), min_size=2, max_size=2))
    meets = np.zeros((2, 2), dtype=np.bool_)
    meets[ib[i, shapes.GROUP]] = looks
    x0, y0 = data.draw(st.integers(0, cols - 1)), data.draw(st.integers(0, rows - 1))
    x1, y1 = data.draw(st.integers(x0, cols - 1)), data.draw(st.integers(y0, rows - 1))
    stamped = data.draw(st.sets(st.integers(0, n - 1)))
    marks = np.zeros(n, dtype=np.int64)
    marks[list(stamped)] = 7
    out = np.full(n, -5, dtype=np.int64)
    count = step_grid.gather(ib, marks, fstart, fbody, head, nbody, nnext, meets, cols,
                             x0, x1, y0, y1, i, 7, out, 0)  # fmt: skip
    want = []
    for cy in range(y0, y1 + 1):
        for cx in range(x0, x1 + 1):
            c = cy * cols + cx
            listed = list(fbody[fstart[c] : fstart[c + 1]])
            for lane in range(2):
                k = head[lane, c]
                while k >= 0 and looks[lane]:
                    listed.append(nbody[k])
                    k = nnext[k]
            want += [
                j for j in listed
                if j != i and (j in fixed or j not in stamped) and j not in want
            ]  # fmt: skip
    assert out[:count].tolist() == want
    moving = set(want) - set(fixed.tolist())
    assert set(np.flatnonzero(marks == 7)) == stamped | moving | {i}


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.floats(min_value=0.0) | st.just(math.nan),
        min_size=1,
        max_size=40,
    )
)
def test_the_grids_median_is_numpys(extents):
    # (below step_cells.SMALL in Python, numpy's above: the same float either way)
    values = np.array(extents)
    with np.errstate(over="ignore", invalid="ignore"):
        want = float(np.median(values))
    got = step_cells._median(values)
    assert got == want or (math.isnan(got) and math.isnan(want))
