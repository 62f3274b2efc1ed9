"""Rect sweeps and ray casts far from the origin, where ``x + w`` loses part of ``w``.

There the exact route decides (``continuous/rect_exact.py``): the hit or miss is the
exact one for the stored numbers, never a tunnel, and ``fraction`` is the exact
first moment rounded down.
"""

from __future__ import annotations

import math
from fractions import Fraction as Q

from hypothesis import event, given
from hypothesis import strategies as st

from collide2d import Rect, raycast, sweep
from collide2d.continuous.rect_exact import sizes_kept
from tests.reference import ExactHit, sweep_boxes


def box(rect: Rect) -> tuple[Q, Q, Q, Q]:
    return (Q(rect.x), Q(rect.y), Q(rect.x) + Q(rect.w), Q(rect.y) + Q(rect.h))


def floor_float(value: Q) -> float:
    result = float(value)
    return math.nextafter(result, -math.inf) if Q(result) > value else result


def agrees(hit: object, exact: ExactHit | None, far: bool) -> bool:
    if exact is None or hit is None:
        return exact is None and hit is None
    if exact.started:
        return hit.started_overlapping and hit.fraction == 0.0  # type: ignore[attr-defined]
    if hit.started_overlapping:  # type: ignore[attr-defined]
        return False
    if far:
        assert hit.fraction == floor_float(exact.fraction)  # type: ignore[attr-defined]
        axis = "x" if hit.normal.x != 0.0 else "y"  # type: ignore[attr-defined]
        sign = int(hit.normal.x + hit.normal.y)  # type: ignore[attr-defined]
        return (axis, sign) == (exact.axis, exact.sign)
    return abs(hit.fraction - exact.fraction) <= 1e-9  # type: ignore[attr-defined]


def test_a_one_unit_wall_at_1e16_is_hit_not_tunnelled() -> None:
    hit = sweep(Rect(1e16, 0, 1, 1), (10, 0), Rect(1e16 + 6, 0, 1, 1))
    assert hit is not None and hit.normal.x == -1.0
    assert Q(hit.fraction) <= Q(5, 10) < Q(math.nextafter(hit.fraction, 1))
    ray = raycast((1e16, 0.5), (10, 0), Rect(1e16 + 6, 0, 1, 1))
    assert ray is not None and ray.fraction == 0.6 and ray.exit_fraction == 0.7


far_bases = st.sampled_from([2.0**53, 1e16, 3e17, 2.0**70, 1e100, 1e300, -1e16, -(2.0**60)])
small = st.integers(-8, 8)
sizes = st.integers(0, 5)


@given(far_bases, small, small, sizes, sizes, small, small, sizes, sizes, small, small)
def test_far_sweeps_are_the_exact_ones(
    base: float,
    ax: int,
    ay: int,
    aw: int,
    ah: int,
    bx: int,
    by: int,
    bw: int,
    bh: int,
    dx: int,
    dy: int,
) -> None:
    unit = math.ulp(base) / 2  # sizes below a float step there: lost without the exact route
    a = Rect(base + ax * unit * 3, ay, aw * unit, ah)
    b = Rect(base + bx * unit * 3, by, bw * unit, bh)
    delta = (dx * unit * 4, dy)
    far = not sizes_kept(a.x, a.w, a.x + a.w, b.x, b.w, b.x + b.w)
    event(f"exact route: {far}")
    exact = sweep_boxes(box(a), (Q(delta[0]), Q(delta[1])), box(b))
    assert agrees(sweep(a, delta, b), exact, far)
    origin = (a.x, a.y + 0.5)
    ray_exact = sweep_boxes(
        (Q(origin[0]), Q(origin[1]), Q(origin[0]), Q(origin[1])), (Q(delta[0]), Q(delta[1])), box(b)
    )
    far_b = not sizes_kept(b.x, b.w, b.x + b.w)
    assert agrees(raycast(origin, delta, b), ray_exact, far_b)
