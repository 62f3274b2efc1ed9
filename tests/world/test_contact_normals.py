"""``Contact.normal_for``: one normal convention for ``move`` and ``step``."""

from __future__ import annotations

import pytest

from collide2d import Circle, Rect, Vec2, World


@pytest.mark.parametrize("floor_first", [True, False])
@pytest.mark.parametrize("shape", [Rect(3, 0, 4, 4), Circle(5, 2, 2)])
def test_step_and_move_agree_on_a_landing(floor_first: bool, shape: Rect | Circle) -> None:
    def build() -> World:
        world = World()
        if floor_first:
            world.add("floor", Rect(0, 10, 50, 5), mass=float("inf"))
        world.add("player", shape, velocity=(0, 10))
        if not floor_first:
            world.add("floor", Rect(0, 10, 50, 5), mass=float("inf"))
        return world

    moved = build()
    target = (shape.x, shape.y + 10)
    collision = moved.move("player", target).collisions[0]
    contact = build().step(dt=1.0).contacts[0]
    assert collision.normal == Vec2(0, -1)
    assert contact.normal_for("player") == collision.normal
    assert contact.normal_for("floor") == Vec2(0, 1)
    assert contact.other("player") == "floor" and contact.other("floor") == "player"
    # the stored field keeps its own rule: from b toward a
    assert contact.normal == (collision.normal if contact.a == "player" else Vec2(0, 1))


def test_two_movers_see_opposite_normals() -> None:
    world = World()
    world.add("left", Circle(0, 0, 1), velocity=(5, 0))
    world.add("right", Circle(10, 0, 1), velocity=(-5, 0))
    contact = world.step(dt=1.0).contacts[0]
    assert contact.normal_for("left") == Vec2(-1, 0)
    assert contact.normal_for("right") == Vec2(1, 0)


def test_an_item_not_in_the_contact_is_refused() -> None:
    world = World()
    world.add("wall", Rect(10, 0, 1, 10), mass=float("inf"))
    world.add("box", Rect(0, 0, 2, 2), velocity=(4, 0))
    contact = world.step(dt=3.0).contacts[0]
    with pytest.raises(ValueError, match="item must be"):
        contact.normal_for("ghost")
    with pytest.raises(ValueError, match="item must be"):
        contact.other("ghost")
