"""The grid's sizing pass (``_kernels/step/step_sizing.py``) against the numpy expressions
it replaced in ``world/step_cells.py``, bit for bit (the cost model: the same size
chosen), ``jit.prefetch``, ``jit.stack_array`` and ``jit.points_at``."""

from __future__ import annotations

import numba
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from collide2d._kernels.jit import points_at, prefetch, stack_array
from collide2d._kernels.step import step_rows, step_sizing
from collide2d._kernels.step import step_shapes as shapes
from collide2d.world import step_cells

FINITE = st.floats(-1e6, 1e6, allow_nan=False, allow_infinity=False)
HUGE = st.sampled_from([1e300, -1e300, 1.7e308, -1.7e308, 5e-324, 0.0])
SPEED = st.one_of(FINITE, HUGE)
SIZE = st.one_of(st.floats(0.0, 1e3), st.sampled_from([0.0, 1e-300, 1e300]))
BODY = st.tuples(st.booleans(), FINITE, FINITE, SIZE, SIZE, SPEED, SPEED)


def _rows(bodies: list[tuple[bool, float, float, float, float, float, float]]):
    n = len(bodies)
    fb = np.zeros((n + 2, shapes.FLOATS))
    ib = np.zeros((n + 2, shapes.INTS), dtype=np.int64)
    for k, (circle, x, y, w, h, vx, vy) in enumerate(bodies):
        ib[k + 1, shapes.KIND] = shapes.CIRCLE if circle else shapes.RECT
        fb[k + 1, [shapes.X, shapes.Y, shapes.W, shapes.H]] = x, y, w, w if circle else h
        fb[k + 1, [shapes.VX, shapes.VY]] = vx, vy
    return fb, ib, np.arange(1, n + 1)[::-1].copy()  # rows 0 and n + 1 are not moving


def _reference(fb, ib, moving, dt):
    """The numpy expressions of ``step_cells.grid`` before the kernel."""
    x, y = fb[moving, shapes.X], fb[moving, shapes.Y]
    w, h = fb[moving, shapes.W], fb[moving, shapes.H]
    circle = ib[moving, shapes.KIND] == shapes.CIRCLE
    x0, y0 = np.where(circle, x - w, x), np.where(circle, y - w, y)
    x1, y1 = x + w, np.where(circle, y + w, y + h)
    with np.errstate(over="ignore", invalid="ignore"):
        ex = fb[moving, shapes.VX] * dt
        ey = fb[moving, shapes.VY] * dt
        region = (
            float(np.min(np.minimum(x0, x0 + ex))),
            float(np.min(np.minimum(y0, y0 + ey))),
            float(np.max(np.maximum(x1, x1 + ex))),
            float(np.max(np.maximum(y1, y1 + ey))),
        )
        travel = np.abs(ex) + np.abs(ey)
        extent = np.maximum(x1 - x0, y1 - y0)
    return x0, y0, x1, y1, extent, travel, region


@settings(max_examples=300, deadline=None)
@given(st.lists(BODY, min_size=1, max_size=12), st.sampled_from([1.0, 0.5, 1 / 60, 1e10]))
def test_moving_bounds_are_the_numpy_expressions_bit_for_bit(bodies, dt) -> None:
    fb, ib, moving = _rows(bodies)
    got = step_sizing.moving_bounds(fb, ib, moving, dt)
    want = _reference(fb, ib, moving, dt)
    for a, b in zip(got[:6], want[:6], strict=True):
        np.testing.assert_array_equal(a, b)  # (NaNs equal; zeros' signs too, below)
        assert np.array_equal(np.signbit(a), np.signbit(b))
    np.testing.assert_array_equal(np.array(got[6:10]), np.array(want[6]))
    assert len(got) == 10


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.tuples(BODY, st.booleans()), min_size=1, max_size=14),
    st.sampled_from([1.0, 0.5, 1 / 60, 1e10]),
    st.integers(1, 4),
)
def test_bounds_written_with_the_rows_in_parts_are_moving_bounds(bodies, dt, parts) -> None:
    # step_rows.body_rows writes each moving body's bounds as it writes its row, a
    # part at a time; merged (step_sizing.bounds_of_parts), they are moving_bounds'
    # of the rows written, bit for bit (zeros' signs and NaNs too).
    n = len(bodies)
    kind = np.array([shapes.CIRCLE if b[0] else 0 for b, _ in bodies], dtype=np.int8)
    box = np.array([[x - w, y - w, 2 * w, 2 * w] if c else [x, y, w, h]
                    for (c, x, y, w, h, _, _), _ in bodies])  # fmt: skip
    origin = np.array([[x, y] for (_, x, y, *_), _ in bodies])
    radius = np.array([w for (_, _, _, w, *_), _ in bodies])
    velocity = np.array([[0.0, 0.0] if still else [vx, vy] for (*_, vx, vy), still in bodies])
    mass = np.array([np.inf if still else 1.0 for _, still in bodies])
    group = np.zeros(n, dtype=np.int64)
    fb = np.full((n, shapes.FLOATS), np.nan)
    ib = np.full((n, shapes.INTS), -1, dtype=np.int64)
    rows = np.arange(n)
    sized = np.full((6, n + 1), np.nan)
    regions = np.full((parts, 4), np.nan)
    starts = [n * p // parts for p in range(parts)] + [n]
    moving_before = 0
    for p in range(parts):
        a, b = starts[p], starts[p + 1]
        assert step_rows.body_rows(fb, ib, rows[a:b], rows[a:b], rows[a:b], kind, box, origin,
                                   radius, velocity, mass, group, False, dt, sized,
                                   moving_before, regions[p])  # fmt: skip
        moving_before += sum(1 for _, still in bodies[a:b] if not still)
    moving = np.flatnonzero(ib[:, shapes.FIXED] == 0)
    assert len(moving) == moving_before
    got = step_sizing.bounds_of_parts(sized, len(moving), regions)
    want = step_sizing.moving_bounds(fb, ib, moving, dt)
    for a, b in zip(got, want, strict=True):
        np.testing.assert_array_equal(a, b)
        assert np.array_equal(np.signbit(a), np.signbit(b))


@settings(max_examples=200, deadline=None)
@given(
    st.lists(BODY, min_size=1, max_size=12),
    st.floats(1e-3, 1e3),
    st.integers(1, 10**7),
)
def test_cover_room_is_the_numpy_expression(bodies, cell, cells) -> None:
    fb, ib, moving = _rows(bodies)
    x0, y0, x1, y1 = step_sizing.moving_bounds(fb, ib, moving, 1.0)[:4]
    margin = cell / 16.0
    with np.errstate(over="ignore", invalid="ignore"):
        per = (np.ceil((x1 - x0 + 2 * margin) / cell) + 2) * (
            np.ceil((y1 - y0 + 2 * margin) / cell) + 2
        )
    want = int(np.minimum(per, cells).sum())
    assert int(step_sizing.cover_room(x0, y0, x1, y1, cell, margin, cells)) == want


def test_a_sweep_beyond_floats_gives_an_infinite_or_nan_region() -> None:
    fb, ib, moving = _rows([(False, 0.0, 0.0, 1.0, 1.0, 1.7e308, 0.0),
                            (True, 5.0, 5.0, 1.0, 1.0, -1.7e308, 0.0)])  # fmt: skip
    *_, extent, _, left, top, right, bottom = step_sizing.moving_bounds(fb, ib, moving, 10.0)
    assert left == -np.inf and right == np.inf and (top, bottom) == (0.0, 6.0)
    assert np.median(extent) == 1.5


@numba.njit
def _prefetched_sum(a, b, far):
    total = 0.0
    for k in range(a.shape[0]):
        prefetch(a, k, 0)
        prefetch(a, far, far)  # out of range: a hint, never a fault
        prefetch(b, k + far)
        total += a[k, 1] + b[k]
    return total


def test_prefetch_changes_nothing_and_is_harmless_out_of_range() -> None:
    a = np.arange(12.0).reshape(6, 2)
    b = np.arange(6, dtype=np.int64)
    assert _prefetched_sum(a, b, 10**9) == a[:, 1].sum() + b.sum()


def test_prefetch_wants_an_array_and_one_integer_index_a_dimension() -> None:
    @numba.njit
    def wrong(a):
        prefetch(a, 0)  # a 2-D array, one index

    with pytest.raises(numba.core.errors.TypingError):
        wrong(np.zeros((2, 2)))


@numba.njit
def _on_stack(n, fill):
    # three stack arrays of three shapes and two types, written through and read
    # back, the last one passed to a kernel (numba counts it as an array without an
    # owner: nothing to free)
    a = stack_array(np.float64, 4)
    b = stack_array(np.intp, 3, 5)
    c = stack_array(np.float64, 2, 3, 4)
    total = 0.0
    for _ in range(n):  # (the same memory each time round: made once, in the frame)
        a[:] = fill
        for i in range(3):
            for j in range(5):
                b[i, j] = i * 5 + j
        for k in range(24):
            c[k // 12, (k // 4) % 3, k % 4] = k
        total += a.sum() + b.sum() + _passed_on(c)
    return total, a.shape, b.shape, c.shape, c.strides


@numba.njit
def _passed_on(c):
    return c.sum()


def test_stack_array_is_an_array_of_its_shape_and_type() -> None:
    total, *shapes_and_strides = _on_stack(3, 1.5)
    assert total == 3 * (4 * 1.5 + sum(range(15)) + sum(range(24)))
    assert shapes_and_strides == [(4,), (3, 5), (2, 3, 4), (96, 32, 8)]


def test_stack_array_wants_constant_positive_dimensions() -> None:
    @numba.njit
    def variable(n):
        return stack_array(np.float64, n).shape

    @numba.njit
    def empty():
        return stack_array(np.float64, 0).shape

    for wrong, argument in ((variable, (3,)), (empty, ())):
        with pytest.raises(numba.core.errors.TypingError):
            wrong(*argument)


def _numpy_model(meets, count, mean, fcount, fsides, fareas, crossings, area, cell, most):
    """The cost model's numpy loop in ``step_cells._cheapest`` before the kernel."""
    best, best_cost = cell, np.inf
    size = cell
    for _ in range(step_cells.DOUBLINGS + 1):
        reach = size + mean[:, None] + mean[None, :]
        moving_looks = (meets * count[None, :] * reach * reach).sum(axis=1)
        near = size + mean[:, None]
        fixed_looks = (meets * (fcount * near * near + fsides * near + fareas)).sum(axis=1)
        looks = step_cells.GATHERS * float(np.dot(count, moving_looks + fixed_looks)) / area
        cost = step_cells.CROSSING_COST * crossings / size + looks
        if cost < best_cost:
            best, best_cost = size, cost
        if size >= most:
            break
        size *= 2.0
    return best


POSITIVE = st.floats(0.0, 1e4, allow_nan=False)


@settings(max_examples=300, deadline=None)
@given(
    st.integers(1, 10).flatmap(
        lambda g: st.tuples(
            st.lists(st.booleans(), min_size=g * g, max_size=g * g),
            *[st.lists(POSITIVE, min_size=g, max_size=g) for _ in range(5)],
        )
    ),
    st.floats(1.0, 1e8),
    st.floats(1.0, 1e9),
    st.floats(0.01, 100.0),
    st.floats(0.01, 1e5),
)
def test_the_compiled_cost_model_picks_the_numpy_models_size(groups, crossings, area, cell, most):
    flat, *columns = groups
    g = len(columns[0])
    meets = np.array(flat, dtype=np.bool_).reshape((g, g))
    meets = meets | meets.T
    count, mean, fcount, fsides, fareas = (np.array(c) for c in columns)
    count = np.floor(count)
    args = (meets, count, mean, fcount, fsides, fareas, crossings, area, cell, most)
    got = step_sizing.cheapest_size(
        *args, step_cells.DOUBLINGS, step_cells.CROSSING_COST, step_cells.GATHERS
    )
    assert got == _numpy_model(*args)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 5), POSITIVE), min_size=0, max_size=40))
def test_group_means_are_the_bincounts(bodies) -> None:
    ib = np.zeros((len(bodies) + 1, shapes.INTS), dtype=np.int64)
    moving = np.arange(1, len(bodies) + 1)[::-1].copy()
    extent = np.array([e for _, e in bodies], dtype=float)
    for k, (group, _) in enumerate(bodies):
        ib[moving[k], shapes.GROUP] = group
    count, mean = step_sizing.group_means(ib, moving, extent, 6)
    want_count = np.bincount(ib[moving, shapes.GROUP], minlength=6).astype(float)
    want_total = np.bincount(ib[moving, shapes.GROUP], weights=extent, minlength=6)
    assert np.array_equal(count, want_count)
    assert np.array_equal(mean, want_total / np.maximum(want_count, 1.0))


def _numpy_fixed_sums(fb, ib, fixed, left, top, right, bottom, groups):
    """The numpy expressions of ``step_cells._cheapest`` before ``fixed_sums``."""
    x, y = fb[fixed, shapes.X], fb[fixed, shapes.Y]
    w, h = fb[fixed, shapes.W], fb[fixed, shapes.H]
    circle = ib[fixed, shapes.KIND] == shapes.CIRCLE
    fx0, fy0 = np.where(circle, x - w, x), np.where(circle, y - w, y)
    fx1, fy1 = x + w, np.where(circle, y + w, y + h)
    inside = (fx1 > left) & (fx0 < right) & (fy1 > top) & (fy0 < bottom)
    fw = np.minimum(fx1 - fx0, right - left)[inside]
    fh = np.minimum(fy1 - fy0, bottom - top)[inside]
    fgroup = ib[fixed[inside], shapes.GROUP]
    return (
        np.bincount(fgroup, minlength=groups).astype(float),
        np.bincount(fgroup, weights=fw + fh, minlength=groups),
        np.bincount(fgroup, weights=fw * fh, minlength=groups),
    )


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.tuples(BODY, st.integers(0, 3)), max_size=15),
    st.tuples(FINITE, FINITE, st.floats(0.0, 1e4), st.floats(0.0, 1e4)),
)
def test_fixed_sums_are_the_numpy_expressions_bit_for_bit(bodies, region) -> None:
    fb, ib, fixed = _rows([body for body, _ in bodies])
    for row, (_, group) in zip(fixed[::-1], bodies, strict=True):
        ib[row, shapes.GROUP] = group
    left, top, width, height = region
    box = (left, top, left + width, top + height)
    got = step_sizing.fixed_sums(fb, ib, fixed, *box, 4)
    for a, b in zip(got, _numpy_fixed_sums(fb, ib, fixed, *box, 4), strict=True):
        assert np.array_equal(a, b)


@numba.njit
def _read_at(address, n):
    points = points_at(address, n)
    return points.copy(), points.shape, points.strides, _passed_on(points)


def test_points_at_reads_the_outline_at_its_address_without_copying() -> None:
    outline = np.array([[0.0, 1.0], [2.5, -3.0], [4.0, 7.25]])
    copy, shape, strides, total = _read_at(outline.ctypes.data, 3)
    assert np.array_equal(copy, outline) and shape == (3, 2) and strides == (16, 8)
    assert total == outline.sum()
    prefix, _, _, _ = _read_at(outline.ctypes.data, 2)  # the first rows only
    assert np.array_equal(prefix, outline[:2])


def test_points_at_wants_integers() -> None:
    @numba.njit
    def by_float(address):
        return points_at(address, 3).shape

    with pytest.raises(numba.core.errors.TypingError):
        by_float(1.5)
