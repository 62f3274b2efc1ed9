"""The first predictions, and the predictions again of the bodies frozen at time 0,
cut into parts (threads) give the step one thread gives."""

from __future__ import annotations

import copy
import math
import os
import signal
import time
import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from collide2d import Circle, Rect, World, _threads
from collide2d.world import step_parts
from collide2d.world.examples import gas_world
from tests.world.step_reference import reference_step
from tests.world.test_step_start import pressed_shots


def crowd(seed: int) -> World:
    """Boxes and circles of two groups among fixed walls and tiles, every response
    kind, some bodies fast enough to meet many others in one step."""
    rng = np.random.default_rng(seed)
    world = World()
    world.set_response("a", "a", "bounce", restitution=0.5)
    world.set_response("a", "b", "cross")
    world.set_response("b", "b", "touch")
    world.set_response("a", "wall", "slide")
    world.set_response("b", "wall", "bounce")
    for k in range(40):
        world.add(("wall", k), Rect(k * 5.0, 100.0, 4.0, 1.0 + k % 3), group="wall", mass=math.inf)
    for k in range(300):
        x, y = rng.uniform(0, 200), rng.uniform(0, 95)
        size = rng.uniform(0.5, 3.0)
        shape = Rect(x, y, size, size * 0.7) if k % 2 else Circle(x, y, size / 2)
        speed = 60.0 if k % 25 == 0 else 6.0
        velocity = (rng.uniform(-speed, speed), rng.uniform(-speed, speed))
        world.add(k, shape, velocity=velocity, group="ab"[k % 3 == 0],
                  mass=math.inf if k % 17 == 0 else rng.uniform(0.5, 2.0))  # fmt: skip
    return world


def run(world: World, steps: int, dt: float) -> list[object]:
    out: list[object] = []
    for _ in range(steps):
        result = world.step(dt)
        out.append(result.contacts)
        out.append(result.stats[:6])
        out.append([(world.shape(i), world.velocity(i)) for i in world])
    return out


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_two_threads_step_as_one_does(monkeypatch: pytest.MonkeyPatch, seed: int) -> None:
    monkeypatch.setattr(step_parts, "PARALLEL_MIN_MOVING", 1)
    monkeypatch.setattr(step_parts, "THREADS", 1)
    one = run(crowd(seed), 6, 0.5)
    monkeypatch.setattr(step_parts, "THREADS", 2)
    assert step_parts.parts_for(300, step_parts.PARALLEL_MIN_MOVING) == 2
    two = run(crowd(seed), 6, 0.5)
    assert one == two
    assert sum(len(contacts) for contacts in one[::3]) > 100  # (a busy scene)


def test_a_gas_in_three_parts_steps_as_in_one(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(step_parts, "PARALLEL_MIN_MOVING", 1)
    monkeypatch.setattr(step_parts, "THREADS", 1)
    one = run(gas_world(1500, 0.5, seed=4), 3, 1.0)
    monkeypatch.setattr(step_parts, "THREADS", 3)
    assert step_parts.parts_for(1500, step_parts.PARALLEL_MIN_MOVING) == 3
    two = run(gas_world(1500, 0.5, seed=4), 3, 1.0)
    assert one == two


def test_a_body_with_more_first_events_than_its_list_holds(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A fast box crosses 30 posts in one step: 30 first events, more than a list's
    # first room (step_queue.ROOM), left over by its part and predicted after.
    def posts() -> World:
        world = World()
        world.set_response("box", "post", "cross")
        for k in range(30):
            world.add(("post", k), Rect(10.0 + 3 * k, 0.0, 1.0, 1.0), group="post",
                      mass=math.inf)  # fmt: skip
        for k in range(4):
            world.add(("box", k), Rect(0.0, 20.0 * k, 1.0, 1.0), group="box",
                      velocity=(200.0, 0.0))  # fmt: skip
        return world

    monkeypatch.setattr(step_parts, "PARALLEL_MIN_MOVING", 1)
    monkeypatch.setattr(step_parts, "THREADS", 1)
    one = run(posts(), 1, 1.0)
    monkeypatch.setattr(step_parts, "THREADS", 2)
    two = run(posts(), 1, 1.0)
    assert one == two
    contacts = one[0]
    assert isinstance(contacts, list)
    assert [(c.a, c.b) for c in contacts] == [(("post", k), ("box", 0)) for k in range(30)]


def pressed(seed: int) -> World:
    """Shots pressed against walls (``touch``: resolved before the loop, then
    predicted again in parts), crossing each other and the boxes moving among
    them."""
    rng = np.random.default_rng(seed)
    world = World()
    world.set_response("shot", "wall", "touch")
    world.set_response("shot", "shot", "cross")
    world.set_response("shot", "box", "cross")
    world.set_response("box", "wall", "bounce")
    for k in range(4):
        world.add(("wall", k), Rect(20.0 + 20 * k, -50.0, 1.0, 100.0), group="wall", mass=math.inf)
    for k in range(240):
        x = 20.0 + 20 * (k % 4)
        y = rng.uniform(-45, 45)
        r = float(rng.choice([0.5, 1.0, 1.5]))  # (dyadic: pressed exactly against the wall)
        world.add(("shot", k), Circle(x - r, y, r), velocity=(rng.uniform(1, 9), 0.0),
                  group="shot")  # fmt: skip
    for k in range(30):
        x, y = 2.0 + 20 * (k % 4) + rng.uniform(0, 14), rng.uniform(-45, 45)
        world.add(("box", k), Rect(x, y, 1.5, 1.5), group="box",
                  velocity=(rng.uniform(-8, 8), rng.uniform(-8, 8)))  # fmt: skip
    return world


@pytest.mark.parametrize("threads", [2, 3])
def test_shots_pressed_against_walls_step_in_parts_as_in_one(
    monkeypatch: pytest.MonkeyPatch, threads: int
) -> None:
    monkeypatch.setattr(step_parts, "PARALLEL_MIN_MOVING", 1)
    monkeypatch.setattr(step_parts, "THREADS", 1)
    one = run(pressed(threads), 4, 1.0)
    monkeypatch.setattr(step_parts, "THREADS", threads)
    two = run(pressed(threads), 4, 1.0)
    assert one == two
    last = one[-3]
    assert isinstance(last, list)
    early = sum(1 for c in last if c.time == 0.0 and c.response == "touch")
    assert early > 200  # (most shots touch their wall at time 0, every step)
    assert any(c.response == "cross" for c in last)


@settings(
    max_examples=80,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(pressed_shots(), st.sampled_from([1.0, 2.0]))
def test_pressed_shots_step_in_three_parts_as_in_one(
    monkeypatch: pytest.MonkeyPatch, world: World, dt: float
) -> None:
    # Shots into, along and away from their walls (touches at time 0 reported, or
    # not: their rows' stale events dropped after every part is done), crossing or
    # ignoring each other and the boxes: resolved by three parts as by one.
    monkeypatch.setattr(step_parts, "PARALLEL_MIN_MOVING", 1)
    twin = copy.deepcopy(world)
    monkeypatch.setattr(step_parts, "THREADS", 1)
    one = run(world, 3, dt)
    monkeypatch.setattr(step_parts, "THREADS", 3)
    three = run(twin, 3, dt)
    assert one == three


def chased(world: World) -> World:
    """A shot pressed against a wall, twelve small boxes beside it moving with it:
    frozen at time 0, it is predicted again against all twelve, more events than a
    list's first room (``step_queue.ROOM``; its first predictions listed one event)."""
    world.set_response("shot", "wall", "touch")
    world.set_response("shot", "shot", "ignore")  # (unset, "slide": not resolved before the loop)
    world.set_response("shot", "box", "cross")
    world.set_response("box", "box", "ignore")
    world.set_response("box", "wall", "ignore")
    world.add("wall", Rect(20.0, -30.0, 1.0, 60.0), group="wall", mass=math.inf)
    world.add("shot", Circle(19.0, 0.0, 1.0), velocity=(4.0, 0.0), group="shot")
    for k in range(12):  # in the shot's bounds' corners, outside the disc
        y = -1.0 + 0.01 * k if k % 2 else 0.8 - 0.01 * k
        world.add(("box", k), Rect(18.0, y, 0.2, 0.2), velocity=(4.0, 0.0), group="box")
    return world


@pytest.mark.parametrize("threads", [1, 2])
def test_a_frozen_body_with_more_events_than_its_list_holds(
    monkeypatch: pytest.MonkeyPatch, threads: int
) -> None:
    monkeypatch.setattr(step_parts, "PARALLEL_MIN_MOVING", 1)
    monkeypatch.setattr(step_parts, "THREADS", threads)
    expected = reference_step(chased(World()), 1.0)
    result = chased(world := World()).step(1.0)
    got = [(c.a, c.b, c.response) for c in result.contacts]
    assert got == [(c[1], c[2], c[7]) for c in expected.contacts]
    assert got[0] == ("wall", "shot", "touch") and len(got) == 13
    for c, w in zip(result.contacts, expected.contacts, strict=True):
        assert c.time == pytest.approx(float(w[0]), abs=1e-9)
    assert world.shape("shot").x == 19.0


def test_parts_for() -> None:
    for least in (step_parts.PARALLEL_MIN_MOVING, step_parts.PARALLEL_MIN_ROWS):
        assert step_parts.parts_for(least - 1, least) == 1
        assert step_parts.parts_for(least, least) == step_parts.THREADS


@pytest.mark.skipif(not hasattr(os, "fork"), reason="fork is POSIX only")
def test_a_forked_child_steps_with_threads_of_its_own(monkeypatch: pytest.MonkeyPatch) -> None:
    # The parent's pool has no thread in a forked child: the child makes its own
    # (the parent's would take the part and never run it).
    monkeypatch.setattr(step_parts, "PARALLEL_MIN_MOVING", 1)
    monkeypatch.setattr(step_parts, "THREADS", 2)
    want = run(crowd(5), 2, 0.5)
    assert _threads._pool is not None
    read, write = os.pipe()
    with warnings.catch_warnings():  # (Python 3.12 warns of fork in a threaded process)
        warnings.simplefilter("ignore", DeprecationWarning)
        pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        ok = run(crowd(5), 2, 0.5) == want
        os.write(write, b"1" if ok else b"0")
        os._exit(0)
    os.close(write)
    deadline = time.monotonic() + 120.0
    while (done := os.waitpid(pid, os.WNOHANG))[0] == 0 and time.monotonic() < deadline:
        time.sleep(0.05)
    if done[0] == 0:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
    assert done[0] == pid, "the child never finished its step"
    assert os.read(read, 1) == b"1"


def test_worlds_stepped_at_once_from_threads_step_as_alone(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Two callers share the pool's thread: each runs its first part itself and waits
    # for the other part, queued behind the other caller's (never for each other).
    from concurrent.futures import ThreadPoolExecutor

    monkeypatch.setattr(step_parts, "PARALLEL_MIN_MOVING", 1)
    monkeypatch.setattr(step_parts, "THREADS", 2)
    alone = [run(crowd(seed), 4, 0.5) for seed in (6, 7, 8)]
    with ThreadPoolExecutor(3) as callers:
        together = list(callers.map(lambda seed: run(crowd(seed), 4, 0.5), (6, 7, 8)))
    assert together == alone


@pytest.mark.parametrize("changed", [3, 1_150])
def test_kept_rows_checked_in_parts_find_a_changed_tile(
    monkeypatch: pytest.MonkeyPatch, changed: int
) -> None:
    # 1,200 tiles: their kept rows are checked in two parts. A tile raised into a
    # ball's way (in the first part or the second) makes the step build them again:
    # the ball meets it, as in a fresh world (with the rows kept, it would pass).
    from collide2d.world.step_scratch import StepScratch

    monkeypatch.setattr(step_parts, "THREADS", 2)
    monkeypatch.setattr(step_parts, "PARALLEL_MIN_ROWS", 1_000)
    tile = ("tile", changed)
    x, y = 4.0 * (changed % 40), 4.0 * (changed // 40)
    world = World()
    for k in range(1_200):
        world.add(("tile", k), Rect(4.0 * (k % 40), 4.0 * (k // 40), 3.0, 2.0),
                  mass=math.inf)  # fmt: skip
    world.add("ball", Circle(x - 6.0, y - 1.0, 0.5), velocity=(4.0, 0.0))
    assert step_parts.parts_for(len(world), step_parts.PARALLEL_MIN_ROWS) == 2
    assert not world.step(0.5).contacts
    assert not world.step(0.5).contacts  # (lists built in the kept pool, then kept)
    world.update(tile, (x, y - 0.75))
    fresh = copy.deepcopy(world)
    fresh._scratch = StepScratch()
    got, want = world.step(1.0), fresh.step(1.0)
    assert (want.contacts[0].a, want.contacts[0].b) == (tile, "ball")
    assert got.contacts == want.contacts
    assert world.shape("ball") == fresh.shape("ball")
