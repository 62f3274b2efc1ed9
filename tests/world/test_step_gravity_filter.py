"""``World.step(dt, gravity=..., filter=...)``: semi-implicit gravity, and per-pair
answers (one-way platforms for many actors)."""

from __future__ import annotations

import math
import random

import pytest

from collide2d import Circle, Mask, PlacedMask, Rect, World, overlaps


def test_gravity_is_semi_implicit_euler_for_movable_bodies_only() -> None:
    world = World()
    world.add("ball", Circle(0, 0, 1))
    world.add("box", Rect(10, 0, 2, 2), velocity=(1, 0), mass=3.0)
    world.add("lift", Rect(20, 0, 2, 2), velocity=(0, -1), mass=math.inf)
    world.add("wall", Rect(30, 0, 2, 2), mass=math.inf)
    world.add("rock", PlacedMask(Mask((2, 2), fill=True), 40, 0))
    world.step(0.5, gravity=(0, 8))
    assert world.velocity("ball") == (0, 4) and world.shape("ball") == Circle(0, 2, 1)
    assert world.velocity("box") == (1, 4) and world.shape("box") == Rect(10.5, 2, 2, 2)
    assert world.velocity("lift") == (0, -1) and world.shape("lift") == Rect(20, -0.5, 2, 2)
    assert world.velocity("wall") == (0, 0) and world.shape("wall") == Rect(30, 0, 2, 2)
    assert world.velocity("rock") == (0, 0)


def test_gravity_lands_a_body_on_a_floor_and_keeps_it_there() -> None:
    world = World()
    world.add("floor", Rect(0, 10, 50, 5), mass=math.inf)
    world.add("player", Rect(0, 0, 4, 4))
    for _ in range(60):
        world.step(1 / 30, gravity=(0, 200))
    player = world.shape("player")
    assert 6 - 1e-9 < player.y <= 6 and not overlaps(player, world.shape("floor"))
    assert world.velocity("player") == (0, 0)  # slide: the normal part taken away


def test_bad_gravity_and_filter_change_nothing() -> None:
    world = World()
    world.add("ball", Circle(0, 0, 1), velocity=(1, 1))
    world.add("wall", Rect(1.5, -5, 1, 10), mass=math.inf)
    for bad, error in [
        ((math.nan, 0), ValueError),
        ("down", TypeError),
        ((0, math.inf), ValueError),
    ]:
        with pytest.raises(error, match="gravity"):
            world.step(1.0, gravity=bad)
    with pytest.raises(ValueError, match="overflow"):
        world.step(1e300, gravity=(0, 1e300))
    with pytest.raises(TypeError, match="filter"):
        world.step(1.0, filter="slide")
    with pytest.raises(ValueError, match="must answer"):
        world.step(1.0, gravity=(0, 10), filter=lambda a, b: "fly")
    assert world.velocity("ball") == (1, 1) and world.shape("ball") == Circle(0, 0, 1)


@pytest.mark.parametrize("gravity", [(0.0, 0.0), (0.0, 1.0)])
def test_a_step_beyond_the_floats_changes_nothing(gravity: tuple[float, float]) -> None:
    """A position that would leave the floats is a ValueError naming the item; the
    world is as it was (gravity's change undone too) and keeps stepping."""
    world = World()
    world.add("tile", Rect(0, 50, 10, 10), mass=math.inf)
    world.add("slow", Circle(0, 0, 1), velocity=(1, 0))
    world.add("fast", Rect(0, 10, 2, 2), velocity=(1e308, 0))
    for _ in range(2):  # (the second time over the kept rows and cell lists)
        with pytest.raises(ValueError, match=r"item 'fast' beyond the largest float"):
            world.step(10.0, gravity=gravity)
        assert world.shape("fast") == Rect(0, 10, 2, 2) and world.shape("slow") == Circle(0, 0, 1)
        assert world.velocity("fast") == (1e308, 0) and world.velocity("slow") == (1, 0)
    world.set_velocity("fast", (0, 2))
    world.step(1.0)
    assert world.shape("fast") == Rect(0, 12, 2, 2) and world.shape("slow") == Circle(1, 0, 1)


def one_way_world(actors: int, seed: int) -> tuple[World, list[str]]:
    """Actors jumping up through, and falling onto, platforms they may pass upward."""
    rng = random.Random(seed)
    world = World()
    world.add("floor", Rect(0, 100, 400, 10), mass=math.inf)
    for k in range(4):
        world.add(f"platform{k}", Rect(20 + 90 * k, 50, 60, 4), mass=math.inf)
    names = []
    for k in range(actors):
        name = f"actor{k}"
        x = rng.uniform(0, 396)
        if rng.random() < 0.5:  # on the floor, jumping
            world.add(name, Rect(x, 96, 4, 4), velocity=(0, -rng.uniform(200, 260)))
        else:  # falling from above
            world.add(name, Rect(x, rng.uniform(0, 40), 4, 4))
        world.set_response("default", "default", "cross")  # actors pass each other
        names.append(name)
    return world, names


def platform_filter(world: World):  # type: ignore[no-untyped-def]
    def answer(a: str, b: str) -> str | None:
        if a.startswith("platform") and b.startswith("actor"):
            actor, platform = world.shape(b), world.shape(a)
            return "slide" if actor.bottom <= platform.top else None  # from above only
        if a == "floor" or b == "floor":
            return "slide"
        return "cross"

    return answer


@pytest.mark.parametrize("seed", range(4))
def test_one_way_platforms_for_many_actors(seed: int) -> None:
    world, actors = one_way_world(30, seed)
    answer = platform_filter(world)
    lowest = {name: world.shape(name).bottom for name in actors}
    for _ in range(180):
        before = {name: world.shape(name) for name in actors}
        contacts, _ = world.step(1 / 60, gravity=(0, 300), filter=answer)
        for name in actors:
            now = world.shape(name)
            for k in range(4):
                platform = world.shape(f"platform{k}")
                # an actor that started a step above a platform never ends inside it
                if before[name].bottom <= platform.top:
                    assert not overlaps(now, platform), (name, now, platform)
            lowest[name] = max(lowest[name], now.bottom)
        for contact in contacts:
            if contact.response == "slide" and {contact.a, contact.b} & {
                f"platform{k}" for k in range(4)
            }:
                actor = contact.other(contact.a) if contact.a.startswith("platform") else contact.a
                assert contact.normal_for(actor) == (0, -1)  # landed from above
    # every actor ends resting on the floor or on a platform's top
    for name in actors:
        bottom = world.shape(name).bottom
        assert math.isclose(bottom, 100) or math.isclose(bottom, 50), (name, world.shape(name))
        assert world.velocity(name).y == 0
    rising = [name for name in actors if math.isclose(lowest[name], 100)]
    assert any(math.isclose(world.shape(name).bottom, 50) for name in rising)  # jumped through


def test_a_filter_that_answers_the_group_table_changes_nothing() -> None:
    rng = random.Random(7)

    def scene() -> World:
        world = World()
        world.set_response("balls", "walls", "bounce", restitution=0.5)
        world.set_response("balls", "balls", "touch")
        for k in range(12):
            world.add(
                f"wall{k}",
                Rect(rng.uniform(0, 90), rng.uniform(0, 90), 5, 5),
                mass=math.inf,
                group="walls",
            )
        for k in range(25):
            world.add(f"ball{k}", Circle(rng.uniform(0, 100), rng.uniform(0, 100), 1.5),
                      velocity=(rng.uniform(-30, 30), rng.uniform(-30, 30)), group="balls")  # fmt: skip
        return world

    state = rng.getstate()
    plain = scene()
    rng.setstate(state)
    filtered = scene()
    table = {
        ("balls", "walls"): "bounce",
        ("walls", "balls"): "bounce",
        ("balls", "balls"): "touch",
    }

    def same_as_table(a: str, b: str) -> str:
        key = (
            "balls" if a.startswith("ball") else "walls",
            "balls" if b.startswith("ball") else "walls",
        )
        return table.get(key, "slide")

    for _ in range(10):
        expected = plain.step(0.1).contacts
        got = filtered.step(0.1, filter=same_as_table).contacts
        assert got == expected
        assert [plain.shape(i) for i in plain] == [filtered.shape(i) for i in filtered]


def test_a_pair_can_answer_otherwise_than_its_groups() -> None:
    world = World()
    world.add("wall", Rect(10, 0, 2, 10), mass=math.inf)
    world.add("ghost", Rect(0, 0, 2, 2), velocity=(5, 0))
    world.add("box", Rect(0, 5, 2, 2), velocity=(5, 0))
    contacts, _ = world.step(2.0, filter=lambda a, b: None if b == "ghost" else "slide")
    assert world.shape("ghost") == Rect(10, 0, 2, 2)  # passed into the wall, no contact
    assert world.shape("box") == Rect(8, 5, 2, 2)
    assert [(c.a, c.b) for c in contacts] == [("wall", "box")]
