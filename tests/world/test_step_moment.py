"""The slides of one moment resolved together (``_kernels/step/step_moment.py``): a jam
that ran to the event cap now takes a few events, and crowds that only slide never
gain kinetic energy, never overlap, and make few events at one moment."""

from __future__ import annotations

import itertools
import math
from collections import Counter
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from collide2d import Circle, Rect, Vec2, World, overlaps
from collide2d._kernels.step.step_moment import SOLVE_CONTACTS, SOLVE_ROWS, _solve
from collide2d._kernels.step.step_respond import (
    HELD_BODIES,
    HELD_NORMALS,
    HELD_TIMES,
    PARTNER,
    PARTNER_COUNT,
    PARTNER_NORMAL,
    PARTNERS,
    PARTNERS_AT,
)
from collide2d._kernels.step.step_shapes import FIXED, FLOATS, INTS, INV, MVX, MVY
from tests.world.test_step_properties import stopping_overlaps


def energy(world: World) -> float:
    return sum(
        0.5 * world.mass(item) * (world.velocity(item).x ** 2 + world.velocity(item).y ** 2)
        for item in world
        if world.mass(item) != math.inf
    )


def jam() -> World:
    """Found in the swarm: a box on a tile, a disc against its right side, a disc
    pushing it down and right from its upper left. One slide at a time: the pusher's
    slide sent the box along the tile into the disc, that slide slowed it, the pusher
    met it again, each time with a smaller approach: 68 events, the box capped."""
    world = World()
    world.add("tile", Rect(720.0, 5056.0, 16.0, 16.0), mass=math.inf)
    world.add("box", Rect(724.59, 5036.0, 12.0, 20.0), velocity=(0.5, 1.0))
    world.add("right", Circle(742.59, 5050.0, 6.0), velocity=(0.5, 0.0))
    world.add("slant", Circle(720.67465, 5031.44643, 6.0), velocity=(2.0, 2.0))
    return world


def test_a_box_pushed_slantwise_along_a_tile_into_a_disc_takes_a_few_events():
    world = jam()
    before = energy(world)
    result = world.step(1.0)
    assert result.stats.capped == 0 and result.stats.events <= 8
    times = Counter(round(c.time, 9) for c in result.contacts)
    assert max(times.values()) <= 5  # the moment's slides: box-slant, tile-box, box-right
    assert energy(world) <= before
    items = list(world)
    for a in items:
        for b in items:
            if a != b:
                assert not overlaps(world.shape(a), world.shape(b))
    # the three move on together: none approaches another at the step's end
    box, slant, right = (world.velocity(k) for k in ("box", "slant", "right"))
    assert abs(box.y) < 1e-12  # held by the tile
    assert right.x >= box.x - 1e-12  # the box does not run into the disc
    last = [c for c in result.contacts if (c.a, c.b) == ("box", "slant")][-1]
    approach = (box.x - slant.x) * last.normal.x + (box.y - slant.y) * last.normal.y
    assert approach >= -1e-12  # nor the pusher into the box


@st.composite
def crowds(draw):
    """3 to 8 discs and boxes on a floor, a few units apart, sliding in any direction."""
    world = World()
    world.add("floor", Rect(-40, 20, 80, 4), mass=math.inf)
    n = draw(st.integers(3, 8))
    spots = draw(st.lists(st.integers(0, 23), min_size=n, max_size=n, unique=True))
    for k, spot in enumerate(spots):
        x, y = -12 + (spot % 8) * 3.0, 11 + (spot // 8) * 3.0
        v = (draw(st.integers(-6, 6)), draw(st.integers(-2, 8)))
        m = draw(st.sampled_from([1.0, 2.0, 0.5]))
        if draw(st.booleans()):
            world.add(k, Circle(x + 1.25, y + 1.25, 1.25), velocity=v, mass=m)
        else:
            world.add(k, Rect(x, y, 2.5, 2.5), velocity=v, mass=m)
    return world


@settings(suppress_health_check=[HealthCheck.too_slow], max_examples=150)
@given(crowds(), st.sampled_from([0.5, 1.0, 3.0]))
def test_sliding_crowds_lose_energy_and_never_overlap(world, dt):
    for _ in range(3):
        before = energy(world)
        result = world.step(dt)
        assert energy(world) <= before * (1 + 1e-9) + 1e-9
        items = list(world)
        for a in range(len(items)):
            for b in range(a + 1, len(items)):
                assert not overlaps(world.shape(items[a]), world.shape(items[b]))
        assert result.stats.capped == 0 or result.stats.events < 64 * len(items)


@pytest.mark.parametrize(("gap", "r", "big"), [(3, 1.5, 2), (3.7, 2, 3), (2.5, 1.5, 2), (4, 3, 2)])
@pytest.mark.parametrize("speed", [10.0, 6.5])
@pytest.mark.parametrize("drift", [0.0, 1e-9, -3e-9])
def test_a_disc_landing_on_a_disc_in_a_wedge_rests_at_once(gap, r, big, speed, drift):
    """Two discs falling one on the other into the wedge of two immovable discs: the
    moment the upper lands, the lower is pushed into both walls. Its slides taken
    pair by pair took four orders of magnitude of the approach a call (20 passes),
    the moment repeated to the event cap (66 to 68 events, the lower disc capped),
    and the nudges of the lower disc off the upper one put it an ulp into the walls.
    Now the moment is solved at once and the arriving disc is the one nudged, in a
    few events: the lower disc rests (velocity exactly zero), and so does the upper
    unless a drift landed it off the top (it then slides off, slowly)."""
    world = World()
    world.set_response("disc", "wall", "slide")
    world.set_response("disc", "disc", "slide")
    world.add("low", Circle(0, 20, r), velocity=(drift, -speed), group="disc")
    world.add("high", Circle(0, 20 + 2 * r + 0.5, r), velocity=(drift, -speed), group="disc")
    for name, x in (("left", -gap), ("right", gap)):
        world.add(name, Circle(x, 0, big), mass=math.inf, group="wall")
    first = world.step(4.0)
    assert first.stats.capped == 0 and first.stats.events <= 12
    assert world.velocity("low") == Vec2(0.0, 0.0)  # held by both walls
    high = world.velocity("high")
    if drift == 0.0:
        assert high == Vec2(0.0, 0.0)
    else:  # landed a few 1e-9 off the top: it keeps sliding off, slowly
        last = [c for c in first.contacts if {c.a, c.b} == {"low", "high"}][-1]
        sign = 1.0 if last.a == "high" else -1.0
        # (not approaching, but for rounding of the speeds of the landing, 10)
        assert sign * (high.x * last.normal.x + high.y * last.normal.y) >= -1e-15
        assert abs(high.x) + abs(high.y) < 1e-6
    rest = world.shape("low")
    for _ in range(3):
        assert [c for c in world.step(4.0).contacts if "low" in (c.a, c.b)] == []
    assert world.shape("low") == rest
    assert stopping_overlaps(world) == []


def moment_arrays(masses, velocities, slides):
    """A moment's rows as ``step_moment`` reads them: bodies with inverse masses
    (``inf`` mass: 0, cannot move) and velocities; ``slides`` ``(b, o, nx, ny)``
    (normal from ``o`` to ``b``) remembered by both bodies at time 0."""
    n = len(masses)
    fb = np.zeros((n, FLOATS))
    ib = np.zeros((n, INTS), dtype=np.int64)
    for b, (m, (vx, vy)) in enumerate(zip(masses, velocities, strict=True)):
        fb[b, INV] = 0.0 if m == math.inf else 1.0 / m
        ib[b, FIXED] = 1 if m == math.inf else 0
        fb[b, MVX], fb[b, MVY] = vx, vy
    held_t = np.full((n, HELD_TIMES), -1.0)
    held_by = np.zeros((n, HELD_BODIES), dtype=np.int64)
    held_n = np.zeros((n, HELD_NORMALS))
    for b, o, nx, ny in slides:
        for body, other, sx, sy in ((b, o, nx, ny), (o, b, -nx, -ny)):
            held_t[body, PARTNERS_AT] = 0.0
            k = held_by[body, PARTNER_COUNT]
            held_by[body, PARTNER + k] = other
            held_n[body, PARTNER_NORMAL + 2 * k] = sx
            held_n[body, PARTNER_NORMAL + 1 + 2 * k] = sy
            held_by[body, PARTNER_COUNT] = k + 1
    return fb, ib, held_t, held_by, held_n


def exact_moment(masses, velocities, slides):
    """The reference: the velocities nearest the given ones in kinetic energy that
    leave no slide approaching (the inelastic contacts' complementarity problem),
    in exact rational arithmetic: every set of slides taken as the ones that touch,
    its impulses solved (Gaussian elimination on fractions), the feasible one with
    non-negative impulses and the least kinetic energy kept. Returns its velocities
    and impulses."""
    inv = [Fraction(0) if m == math.inf else 1 / Fraction(m) for m in masses]
    v0 = [(Fraction(vx), Fraction(vy)) for vx, vy in velocities]
    rows = [(b, o, Fraction(nx), Fraction(ny)) for b, o, nx, ny in slides]

    def velocities_after(impulses):
        v = [list(p) for p in v0]
        for (b, o, nx, ny), p in zip(rows, impulses, strict=True):
            v[b][0] += p * inv[b] * nx
            v[b][1] += p * inv[b] * ny
            v[o][0] -= p * inv[o] * nx
            v[o][1] -= p * inv[o] * ny
        return v

    def approach(v, c):
        b, o, nx, ny = rows[c]
        return (v[b][0] - v[o][0]) * nx + (v[b][1] - v[o][1]) * ny

    best = None
    for size in range(len(rows) + 1):
        for chosen in itertools.combinations(range(len(rows)), size):
            # the approach of each chosen slide is linear in the impulses: columns
            unit = []
            for c in chosen:
                e = [Fraction(0)] * len(rows)
                e[c] = Fraction(1)
                unit.append(velocities_after(e))
            base = velocities_after([Fraction(0)] * len(rows))
            matrix = [
                [approach(unit[k], c) - approach(base, c) for k in range(size)]
                + [-approach(base, c)]
                for c in chosen
            ]
            p = solve_exactly(matrix)
            if p is None or any(x < 0 for x in p):
                continue
            impulses = [Fraction(0)] * len(rows)
            for c, x in zip(chosen, p, strict=True):
                impulses[c] = x
            v = velocities_after(impulses)
            if any(approach(v, c) < 0 for c in range(len(rows))):
                continue
            energy = sum(
                (v[b][0] - v0[b][0]) ** 2 / inv[b] + (v[b][1] - v0[b][1]) ** 2 / inv[b]
                for b in range(len(v))
                if inv[b] != 0
            )
            if best is None or energy < best[0]:
                best = (energy, v, impulses)
    assert best is not None
    return best[1], best[2]


def solve_exactly(matrix):
    """The solution of the augmented square system ``matrix`` in fractions, or None
    if it is singular."""
    m = [row[:] for row in matrix]
    size = len(m)
    for col in range(size):
        pivot = next((r for r in range(col, size) if m[r][col] != 0), None)
        if pivot is None:
            return None
        m[col], m[pivot] = m[pivot], m[col]
        for r in range(size):
            if r != col and m[r][col] != 0:
                f = m[r][col] / m[col][col]
                m[r] = [a - f * b for a, b in zip(m[r], m[col], strict=True)]
    return [m[r][size] / m[r][r] for r in range(size)]


@st.composite
def moments(draw):
    """2 to 4 bodies that can move (masses 0.5 to 4) and 0 to 2 that cannot, 1 to 6
    slides between them (at most one a pair, at most 4 a body), unit normals at any
    tenth of a degree (parallel ones too), the bodies' velocities integers up to 10."""
    movable = draw(st.integers(2, 4))
    still = draw(st.integers(0, 2))
    masses = [draw(st.sampled_from([0.5, 1.0, 2.0, 4.0])) for _ in range(movable)]
    masses += [math.inf] * still
    n = movable + still
    velocities = [
        (float(draw(st.integers(-10, 10))), float(draw(st.integers(-10, 10))))
        if b < movable
        else (0.0, 0.0)
        for b in range(n)
    ]
    pairs = [(b, o) for b in range(movable) for o in range(b + 1, n)]
    chosen = draw(st.lists(st.sampled_from(pairs), min_size=1, max_size=6, unique=True))
    slides, count = [], [0] * n
    for b, o in chosen:
        if count[b] == PARTNERS or count[o] == PARTNERS:
            continue
        count[b] += 1
        count[o] += 1
        angle = draw(st.integers(0, 3599)) * math.pi / 1800.0  # (tenths of a degree)
        slides.append((b, o, math.cos(angle), math.sin(angle)))
    return masses, velocities, slides


@settings(max_examples=300, deadline=None)
@given(moments())
def test_the_moment_solved_at_once_equals_the_exact_solution(moment):
    masses, velocities, slides = moment
    fb, ib, held_t, held_by, held_n = moment_arrays(masses, velocities, slides)
    bodies = np.arange(len(masses), dtype=np.int64)
    pairs = np.zeros(2 * SOLVE_CONTACTS, dtype=np.int64)
    system = np.zeros((SOLVE_ROWS, SOLVE_CONTACTS + 1))
    exact, impulses = exact_moment(masses, velocities, slides)
    solved = _solve(fb, ib, held_t, held_by, held_n, 0.0, bodies, len(masses), pairs, system)
    assert solved
    # Rounding grows with the impulses: nearly parallel normals need a thousand
    # times the velocities (the solve keeps about nine digits of them)
    scale = max(abs(v) for pair in velocities for v in pair) + float(max(impulses))
    for b in range(len(masses)):
        assert fb[b, MVX] == pytest.approx(float(exact[b][0]), abs=1e-9 * scale)
        assert fb[b, MVY] == pytest.approx(float(exact[b][1]), abs=1e-9 * scale)
