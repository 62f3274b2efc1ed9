"""``UniformGrid.update_rects`` of many keys leaves the grid exactly as ``update`` one
key at a time does, for shapes that change cells, stay, grow past the cell limit, or
go where cell numbers overflow; its cells are the ones the shapes' bounds touch."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from collide2d import BruteForce, Circle, Rect, UniformGrid

edges = st.one_of(
    st.floats(-100, 100),
    st.sampled_from([0.0, 15.999999999999998, 16.0, -16.0, 1e17, -3e20, 1e300, 2.0**60]),
)
sizes = st.one_of(st.floats(0, 40), st.sampled_from([0.0, 1e5, 1e300]))  # 1e5: past the limit
rows = st.tuples(edges, edges, sizes, sizes)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(rows, min_size=8, max_size=30),
    st.data(),
    st.sampled_from([1.0, 16.0, 0.1]),
)
def test_bulk_update_equals_update_one_by_one(start, data, cell):
    new = data.draw(st.lists(rows, min_size=len(start), max_size=len(start)))
    keys = data.draw(st.permutations(range(len(start))))
    if data.draw(st.booleans()):  # a key told twice: the last row wins, as in turn
        keys = [*keys[:-1], keys[0]]
    bulk, single, reference = UniformGrid(cell), UniformGrid(cell), BruteForce()
    for k, row in enumerate(start):
        shape = Circle(row[0], row[1], 3.0) if k % 4 == 0 else Rect(*row)
        for index in (bulk, single, reference):
            index.add(k, shape)
    bulk.pairs()
    single.pairs()
    table = np.array([new[k] for k in keys], dtype=float).reshape(-1, 4)
    bulk.update_rects(keys, table)
    for key, row in zip(keys, table.tolist(), strict=True):
        single.update(key, Rect(*row))
        reference.update(key, Rect(*row))
    bulk.validate()  # cells and large shapes as the boxes say
    assert bulk.cells() == single.cells()
    assert [bulk.get(k) for k in range(len(start))] == [single.get(k) for k in range(len(start))]
    assert bulk.pairs() == single.pairs() == reference.pairs()
    probe = Rect(-20, -20, 60, 50)
    assert bulk.query_rect(probe) == single.query_rect(probe) == reference.query_rect(probe)


def test_cells_are_those_the_bounds_touch_edges_included():
    grid = UniformGrid(cell_size=10)
    grid.add("a", Rect(5, 5, 5, 5))  # right and bottom edges on the lines x = 10, y = 10
    grid.add("far", Rect(1e308, 0, 1e308, 1))  # kept apart
    grid.add("big", Rect(0, 0, 1000, 1000))  # 10,201 cells: kept apart
    assert grid.cells() == [Rect(0, 0, 10, 10), Rect(0, 10, 10, 10),
                            Rect(10, 0, 10, 10), Rect(10, 10, 10, 10)]  # fmt: skip
    assert grid.query_point((10, 10)) == ["big"]  # a's corner: touching is no overlap
    assert set(grid.query_candidates(Rect(12, 12, 1, 1))) == {"a", "far", "big"}
    assert grid.query_rect(Rect(1e300, 0, 1e308, 1e308)) == ["far"]
    grid.validate()
