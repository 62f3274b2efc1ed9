"""pygame.Rect, pygame.FRect and (x, y, w, h) sequences wherever a Rect is expected."""

from __future__ import annotations

import math

import numpy as np
import pygame
import pytest
from hypothesis import given
from hypothesis import strategies as st

from collide2d import (
    BruteForce,
    Circle,
    Mask,
    PlacedMask,
    Polygon,
    Quadtree,
    Rect,
    SortAndSweep,
    SortedStrips,
    UniformGrid,
    World,
    overlaps,
    raycast,
    sweep,
)
from collide2d.geometry.rect_like import checked_rect, rect_like


def forms(x: int, y: int, w: int, h: int) -> list[object]:
    """The same rectangle in every accepted form."""
    return [
        pygame.Rect(x, y, w, h),
        pygame.FRect(x, y, w, h),
        (x, y, w, h),
        [x, y, w, h],
        np.array([x, y, w, h], dtype=np.float64),
        np.array([x, y, w, h], dtype=np.int32),
    ]


def test_every_form_becomes_the_same_rect() -> None:
    for value in forms(1, 2, 3, 4):
        rect = rect_like(value, "shape")
        assert type(rect) is Rect and rect == Rect(1, 2, 3, 4)


def test_frect_arrives_as_its_float32_values() -> None:
    rect = rect_like(pygame.FRect(0.1, 0, 2, 2), "shape")
    assert rect is not None and rect.x == float(np.float32(0.1)) != 0.1


def test_what_is_not_rect_like_is_left_alone_and_bad_numbers_name_the_argument() -> None:
    for value in ["abcd", 3, (1, 2, 3), (1, 2, 3, 4, 5), np.zeros((2, 2)), None, Circle(0, 0, 1)]:
        assert rect_like(value, "shape") is None
    with pytest.raises(ValueError, match="shape as a Rect: w must be >= 0"):
        rect_like(pygame.Rect(0, 0, -1, 2), "shape")
    with pytest.raises(ValueError, match="shape as a Rect: h must be finite"):
        rect_like([0, 0, 1, math.inf], "shape")
    with pytest.raises(TypeError, match="shape as a Rect"):
        rect_like(("a", 0, 1, 1), "shape")
    with pytest.raises(TypeError, match=r"rect must be a Rect or rect-like.*\(builtins\.str\)"):
        checked_rect("abcd", "rect")


@given(
    st.integers(-50, 50),
    st.integers(-50, 50),
    st.integers(0, 30),
    st.integers(0, 30),
    st.integers(-50, 50),
    st.integers(-50, 50),
)
def test_the_front_answers_as_for_the_rect(
    x: int, y: int, w: int, h: int, dx: int, dy: int
) -> None:
    rect = Rect(x, y, w, h)
    other = Rect(3, -4, 10, 7)
    polygon = Polygon.box(5, 5, 8, 4, 0.5)
    circle = Circle(-3, 6, 4)
    placed = PlacedMask(Mask((6, 6), fill=True), 2, 2)
    for value in forms(x, y, w, h):
        for target in (other, polygon, circle, placed):
            assert overlaps(value, target) == overlaps(rect, target)
            assert overlaps(target, value) == overlaps(target, rect)
            assert sweep(value, (dx, dy), target) == sweep(rect, (dx, dy), target)
            assert sweep(target, (dx, dy), value) == sweep(target, (dx, dy), rect)
        assert raycast((dx, dy), (x, y), value) == raycast((dx, dy), (x, y), rect)
        assert placed.mask.overlaps_rect(value) == placed.mask.overlaps_rect(rect)


@pytest.mark.parametrize("make", [UniformGrid, Quadtree, BruteForce, SortAndSweep, SortedStrips])
def test_broadphases_take_every_form(make: type) -> None:
    index = make()
    reference = make()
    for key, (x, y) in enumerate([(0, 0), (3, 3), (20, 0), (21, 2)]):
        for value in forms(x, y, 5, 5)[key % 6 : key % 6 + 1]:
            index.add(key, value)
        reference.add(key, Rect(x, y, 5, 5))
    index.update(0, pygame.FRect(18, 1, 5, 5))
    reference.update(0, Rect(18, 1, 5, 5))
    assert sorted(index.pairs()) == sorted(reference.pairs())
    for value in forms(1, 1, 19, 2):
        assert index.query_rect(value) == reference.query_rect(Rect(1, 1, 19, 2))
        assert sorted(index.query_candidates(value)) == sorted(
            reference.query_candidates(Rect(1, 1, 19, 2))
        )
        assert index.query_shape(value) == reference.query_shape(Rect(1, 1, 19, 2))
    index.validate()


def test_the_world_takes_every_form() -> None:
    world = World()
    world.add("wall", pygame.Rect(10, 0, 5, 10), mass=math.inf)
    world.add("player", pygame.FRect(0, 2, 2, 2))
    world.add("crate", (30, 0, 3, 3))
    world.add("coin", [40, 0, 1, 1])
    assert world.shape("wall") == Rect(10, 0, 5, 10) and world.shape("coin") == Rect(40, 0, 1, 1)
    assert world.move("player", (20, 2)).position == (8, 2)
    world.update("crate", pygame.Rect(50, 50, 4, 4))
    assert world.shape("crate") == Rect(50, 50, 4, 4)
    world.update("crate", (1, 100))  # a pair is still a position
    assert world.shape("crate") == Rect(1, 100, 4, 4)
    world.update("crate", np.array([60, 60, 2, 2]))
    assert world.shape("crate") == Rect(60, 60, 2, 2)
    assert world.query_rect(pygame.Rect(0, 0, 12, 5)) == ["wall", "player"]
    assert world.query_rect((0, 0, 12, 5)) == world.query_rect(Rect(0, 0, 12, 5))
    projected = world.project(pygame.Rect(0, 5, 1, 1), (20, 5))
    assert [(c.other, c.fraction) for c in projected] == [("wall", 0.45)]


def test_the_world_refuses_other_types_naming_their_module() -> None:
    world = World()
    with pytest.raises(TypeError, match=r"shape must be .*rect-like.*\(builtins\.str\)"):
        world.add("x", "wall")
    with pytest.raises(TypeError, match=r"\(pygame\.math\.Vector2\)"):
        world.add("x", pygame.Vector2(1, 2))
    with pytest.raises(ValueError, match="shape as a Rect: w must be >= 0"):
        world.add("x", pygame.Rect(0, 0, -3, 3))
    assert len(world) == 0
