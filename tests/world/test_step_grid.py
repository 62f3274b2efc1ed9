"""The step core's grid (``_kernels/step_grid.py``): which lanes a group looks in at
the first predictions."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from collide2d._kernels import step_grid
from collide2d._kernels import step_shapes as shapes


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
