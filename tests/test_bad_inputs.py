"""One catalogue of bad inputs, run against every public entry point.

Each bad value must give a ``TypeError`` or ``ValueError`` whose message names the
argument, no warning may leak (numpy's ``ComplexWarning`` and ``RuntimeWarning``
included), and a structure the call was made on must be as it was before.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable

import numpy as np
import pytest

import collide2d
from collide2d import (
    Circle,
    Mask,
    PlacedMask,
    PlacedPolygon,
    Polygon,
    Rect,
    Segment,
    Vec2,
    World,
    overlapping_circle_pairs,
    overlapping_pairs,
    overlaps,
    query_pairs,
    query_points,
    raycast,
    sweep,
    walk,
)
from collide2d.broadphase import BruteForce, Quadtree, SortAndSweep, SortedStrips, UniformGrid

NUMBERS = [math.nan, math.inf, -math.inf, "x", None, complex(1, 1), [1.0]]
"""What a number argument must refuse (bool is refused where a number is a size)."""
POINTS = [(math.nan, 0.0), (0.0, math.inf), ("x", 0.0), (None, 1.0), None, (1.0, 2.0, 3.0), "ab"]
"""What a point argument must refuse."""
ARRAYS_4 = [
    [[0, 0, 1, math.nan]],
    [[0, 0, 1, 1j]],
    np.array([[0, 0, 1, 1], [None, 0, 1, 1]], dtype=object),
    [["a", 0, 1, 1]],
    [[0, 0, 1]],
    [[0, 0, -1, 1]],
    "boxes",
]
"""What an (N, 4) array argument must refuse."""

SCALARS: list[tuple[str, str, Callable[[object], object]]] = [
    ("Vec2", "x", lambda v: Vec2(v, 0.0)),
    ("Vec2", "y", lambda v: Vec2(0.0, v)),
    ("Rect", "x", lambda v: Rect(v, 0, 1, 1)),
    ("Rect", "w", lambda v: Rect(0, 0, v, 1)),
    ("Circle", "r", lambda v: Circle(0, 0, v)),
    ("PlacedMask", "x", lambda v: PlacedMask(Mask((2, 2), True), v, 0)),
    ("PlacedPolygon", "x", lambda v: PlacedPolygon(Polygon.box(0, 0, 1, 1), v, 0)),
    ("PlacedPolygon", "y", lambda v: PlacedPolygon(Polygon.box(0, 0, 1, 1), 0, v)),
    ("PlacedPolygon.box", "cx", lambda v: PlacedPolygon.box(v, 0, 1, 1)),
    ("PlacedPolygon.turned", "angle", lambda v: PlacedPolygon.box(0, 0, 1, 1).turned(v)),
    ("walk", "snap", lambda v: walk(_walker(), "w", (1, 0), snap=v)),
    ("walk", "step", lambda v: walk(_walker(), "w", (1, 0), step=v)),
    ("World", "cell_size", lambda v: World(cell_size=v)),
    ("UniformGrid", "cell_size", lambda v: UniformGrid(cell_size=v)),
]


def _walker() -> World:
    world = World()
    world.add("w", Rect(0, 0, 1, 1))
    return world


POINTED: list[tuple[str, str, Callable[[object], object]]] = [
    ("walk", "goal", lambda p: walk(_walker(), "w", p)),
    ("PlacedPolygon.moved", "delta", lambda p: PlacedPolygon(Polygon.box(0, 0, 1, 1)).moved(p)),
    ("Segment", "start", lambda p: Segment(p, (1, 1))),
    ("sweep", "a_delta", lambda p: sweep(Rect(0, 0, 1, 1), p, Rect(5, 0, 1, 1))),
    ("sweep", "b_delta", lambda p: sweep(Rect(0, 0, 1, 1), (1, 0), Rect(5, 0, 1, 1), p)),
    ("raycast", "origin", lambda p: raycast(p, (1, 0), Rect(5, 0, 1, 1))),
    ("raycast", "delta", lambda p: raycast((0, 0), p, Rect(5, 0, 1, 1))),
]
ARRAYS: list[tuple[str, str, Callable[[object], object]]] = [
    ("overlapping_pairs", "boxes", lambda a: overlapping_pairs(a)),
    ("query_pairs", "queries", lambda a: query_pairs([[0, 0, 1, 1]], a)),
    ("query_pairs", "boxes", lambda a: query_pairs(a, [[0, 0, 1, 1]])),
]


def refuses(call: Callable[[], object], name: str) -> None:
    """``call()`` raises TypeError/ValueError naming ``name``, with no warning."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises((TypeError, ValueError)) as caught:
            call()
    assert name in str(caught.value), f"{caught.value!r} does not name {name!r}"


@pytest.mark.parametrize("bad", NUMBERS, ids=repr)
@pytest.mark.parametrize(("entry", "name", "call"), SCALARS, ids=lambda v: str(v)[:12])
def test_number_arguments_refuse_bad_numbers(entry, name, call, bad):
    refuses(lambda: call(bad), name)


@pytest.mark.parametrize("bad", POINTS, ids=repr)
@pytest.mark.parametrize(("entry", "name", "call"), POINTED, ids=lambda v: str(v)[:12])
def test_point_arguments_refuse_bad_points(entry, name, call, bad):
    refuses(lambda: call(bad), name)


@pytest.mark.parametrize("bad", ARRAYS_4, ids=lambda v: repr(v)[:30])
@pytest.mark.parametrize(("entry", "name", "call"), ARRAYS, ids=lambda v: str(v)[:20])
def test_array_arguments_refuse_bad_arrays(entry, name, call, bad):
    refuses(lambda: call(bad), name)


def test_the_other_batch_arguments():
    refuses(lambda: overlapping_pairs([[0, 0, 1, 1]], stats="x"), "stats")
    refuses(lambda: overlapping_pairs([[0, 0, 1, 1]], method="kd"), "method")
    refuses(lambda: overlapping_circle_pairs([[0, 0, 1j]]), "circles")
    refuses(lambda: overlapping_circle_pairs([[0, 0, -1]]), "circles")
    refuses(lambda: query_points([[0, 0, 1, 1]], [[0, math.nan]]), "points")
    refuses(lambda: query_points([[0, 0, 1, 1]], np.array([[None, 0]], dtype=object)), "points")


def test_value_types_cannot_be_made_invalid_by_their_methods():
    refuses(lambda: Rect(0, 0, 1, 1)._replace(w=-5), "w")
    refuses(lambda: Circle(0, 0, 1)._replace(r=math.nan), "r")
    refuses(lambda: Vec2(0, 0)._replace(x="x"), "x")
    refuses(lambda: Rect._make([0, 0, 1, -1]), "h")
    refuses(lambda: Rect(0, 0, 1, 1)._replace(z=1), "z")
    refuses(lambda: Vec2(1e308, 0) * 10, "x")  # overflow is not a vector
    assert Vec2(1, 2) == (1.0, 2.0) and type(Vec2(1, 2).x) is float  # ints become floats
    assert Rect(0, 0, 1, 1)._replace(w=3) == Rect(0, 0, 3, 1)


def test_masks_refuse_what_bool_would_take_silently():
    refuses(lambda: Mask.from_array([[math.nan, 1.0]]), "array")
    refuses(lambda: Mask.from_array([["a", "b"]]), "array")
    refuses(lambda: Mask.from_array([[None, 1]]), "array")
    refuses(lambda: Mask.from_array([[1j, 0]]), "array")
    refuses(lambda: Mask.from_array([1, 0]), "array")
    refuses(lambda: Mask((3, 3), fill="yes"), "fill")
    refuses(lambda: Mask((3, -1)), "size")
    assert Mask.from_array([[0, 2.5], [True, False]]).count() == 2


def test_a_zero_radius_circle_landing_on_a_top_face_reports_the_top_normal():
    """The report: the point's two widened boxes coincide and the x one won."""
    hit = sweep(Circle(0, -10, 0), (5, 20), Rect(-100, 0, 200, 50))
    assert hit.fraction == 0.5 and hit.normal == (0.0, -1.0)


def test_sweep_is_one_name_the_function():
    import importlib

    assert callable(collide2d.sweep)
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("collide2d.sweep")


# -- structures are unchanged by refused calls ---------------------------------------------
STRUCTURES = {
    "brute": BruteForce,
    "grid": UniformGrid,
    "quadtree": Quadtree,
    "sort-and-sweep": SortAndSweep,
    "strips": SortedStrips,
}


def snapshot_index(index):
    return list(index), [index.get(key) for key in index], index.pairs()


@pytest.mark.parametrize("name", list(STRUCTURES))
def test_broadphases_refuse_bad_shapes_and_points_and_stay_as_they_were(name):
    index = STRUCTURES[name]()
    index.add("a", Rect(0, 0, 8, 8))
    index.add("b", Circle(4, 4, 3))
    before = snapshot_index(index)
    for shape in [(0, 0, -1, 1), (0, 0, 1), None, "rect", Vec2(0, 0), [0, 0, 1, float("nan")]]:
        refuses(lambda shape=shape: index.add("c", shape), "shape")
        refuses(lambda shape=shape: index.update("a", shape), "shape")
    for bad in POINTS:
        refuses(lambda bad=bad: index.query_point(bad), "point")
        refuses(lambda bad=bad: index.query_segment(bad, (1, 1)), "origin")
    refuses(lambda: index.add(["unhashable"], Rect(0, 0, 1, 1)), "hashable")
    assert snapshot_index(index) == before
    index.validate()


def snapshot_world(world):
    return (
        list(world),
        [world.shape(item) for item in world],
        [world.velocity(item) for item in world],
        [world.mass(item) for item in world],
    )


def test_the_world_refuses_bad_input_and_stays_as_it_was():
    world = World()
    world.add("player", Rect(0, 0, 10, 10), velocity=(1, 0))
    world.add("ball", Circle(30, 5, 2))
    before = snapshot_world(world)
    for bad in POINTS:
        refuses(lambda bad=bad: world.move("player", bad), "goal")
        refuses(lambda bad=bad: world.update("player", bad), "shape_or_position")
        refuses(lambda bad=bad: world.set_velocity("ball", bad), "velocity")
        refuses(lambda bad=bad: world.add("new", Rect(0, 0, 1, 1), velocity=bad), "velocity")
        refuses(lambda bad=bad: world.query_point(bad), "point")
    for bad in NUMBERS:
        refuses(lambda bad=bad: world.step(bad), "dt")
    for bad in [math.nan, -math.inf, 0.0, -1.0, "x", None, complex(1, 1)]:  # inf: a wall
        refuses(lambda bad=bad: world.add("new", Circle(0, 0, 1), mass=bad), "mass")
    refuses(lambda: world.add("new", "circle"), "shape")
    refuses(lambda: world.move("player", (25, 0), filter=lambda a, b: "fly"), "fly")
    refuses(lambda: world.move_all({"player": (math.nan, 0)}), "goal")
    assert snapshot_world(world) == before
    world.validate()


@pytest.mark.parametrize("bad", [(0, 0, 1), (0, 0, -1, 1), None, "rect", Vec2(0, 0), 3.0], ids=repr)
def test_shape_arguments_refuse_what_is_not_a_shape(bad):
    refuses(lambda: overlaps(bad, Rect(0, 0, 1, 1)), "a")
    refuses(lambda: overlaps(Rect(0, 0, 1, 1), bad), "b")
    refuses(lambda: sweep(Rect(0, 0, 1, 1), (1, 0), bad), "b")
    refuses(lambda: raycast((0, 0), (1, 0), bad), "shape")
