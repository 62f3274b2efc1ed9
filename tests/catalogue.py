"""Awkward cases shared by every test family (shapely's ``tests/common.py`` pattern).

Each case names itself, so a failure says which configuration broke. The answers
are written from the conventions of docs/concepts.md, by hand: touching is not
overlapping, sliding along or grazing a corner is no hit, arriving exactly at the
end of the frame is no hit, an exact corner hit reports the x axis.
"""

from __future__ import annotations

import math
from typing import NamedTuple

from collide2d import Circle, Rect

BIG = 2.0**40
TINY = 1e-300


class Static(NamedTuple):
    """Two shapes and whether they overlap."""

    name: str
    a: Rect | Circle
    b: Rect | Circle
    overlaps: bool


class Moving(NamedTuple):
    """Two moving shapes and the first contact: ``fraction`` (None: no hit), the normal
    (from ``b`` toward ``a``) and whether they started overlapping."""

    name: str
    a: Rect | Circle
    a_delta: tuple[float, float]
    b: Rect | Circle
    b_delta: tuple[float, float]
    fraction: float | None
    normal: tuple[float, float] | None = None
    started: bool = False


STATIC = [
    Static("shared edge", Rect(0, 0, 10, 10), Rect(10, 0, 10, 10), False),
    Static("shared corner", Rect(0, 0, 10, 10), Rect(10, 10, 5, 5), False),
    Static("overlap by a sliver", Rect(0, 0, 10, 10), Rect(9.999999, 0, 10, 10), True),
    Static("identical", Rect(3, 3, 4, 4), Rect(3, 3, 4, 4), True),
    Static("nested", Rect(0, 0, 10, 10), Rect(2, 2, 1, 1), True),
    Static("x ranges meet, y ranges do not", Rect(0, 0, 10, 10), Rect(5, 20, 10, 10), False),
    Static("point inside", Rect(5, 5, 0, 0), Rect(0, 0, 10, 10), True),
    Static("point on an edge", Rect(0, 5, 0, 0), Rect(0, 0, 10, 10), False),
    Static("point on a corner", Rect(10, 10, 0, 0), Rect(0, 0, 10, 10), False),
    Static("two equal points", Rect(1, 1, 0, 0), Rect(1, 1, 0, 0), False),
    Static("zero-width rect across", Rect(5, -5, 0, 20), Rect(0, 0, 10, 10), True),
    Static("zero-width rect on an edge", Rect(10, 0, 0, 10), Rect(0, 0, 10, 10), False),
    Static("huge coordinates", Rect(BIG, BIG, 10, 10), Rect(BIG + 5, BIG + 5, 10, 10), True),
    Static("huge, touching", Rect(BIG, BIG, 10, 10), Rect(BIG + 10, BIG, 10, 10), False),
    Static("tiny coordinates", Rect(0, 0, TINY, TINY), Rect(TINY / 2, 0, TINY, TINY), True),
    Static("negative coordinates", Rect(-20, -20, 10, 10), Rect(-15, -15, 10, 10), True),
    Static("circles touching", Circle(0, 0, 1), Circle(2, 0, 1), False),
    Static("circles overlapping", Circle(0, 0, 1), Circle(1.5, 0, 1), True),
    Static("concentric", Circle(0, 0, 1), Circle(0, 0, 3), True),
    Static("circle on a rect edge", Circle(-1, 5, 1), Rect(0, 0, 10, 10), False),
    Static("circle on a rect corner", Circle(-3, -4, 5), Rect(0, 0, 10, 10), False),
    Static("circle near a rect corner", Circle(-3, -4, 5.0001), Rect(0, 0, 10, 10), True),
    Static("point circle inside a rect", Circle(5, 5, 0), Rect(0, 0, 10, 10), True),
    Static("point circle on a rect edge", Circle(0, 5, 0), Rect(0, 0, 10, 10), False),
    Static("point circle inside a circle", Circle(0.5, 0, 0), Circle(0, 0, 1), True),
    Static("point circles", Circle(0, 0, 0), Circle(0, 0, 0), False),
]

STILL = (0.0, 0.0)
LEFT, RIGHT, UP, DOWN = (-1.0, 0.0), (1.0, 0.0), (0.0, -1.0), (0.0, 1.0)

MOVING = [
    Moving(
        "touching, moving in", Rect(0, 0, 10, 10), (5, 0), Rect(10, 0, 10, 10), STILL, 0.0, LEFT
    ),
    Moving("touching, sliding along", Rect(0, 0, 10, 10), (0, 5), Rect(10, 0, 10, 10), STILL, None),
    Moving("touching, moving away", Rect(0, 0, 10, 10), (-5, 0), Rect(10, 0, 10, 10), STILL, None),
    Moving("touching, not moving", Rect(0, 0, 10, 10), STILL, Rect(10, 0, 10, 10), STILL, None),
    Moving(
        "contact exactly at the end", Rect(0, 0, 10, 10), (10, 0), Rect(20, 0, 10, 10), STILL, None
    ),
    Moving(
        "contact just before the end",
        Rect(0, 0, 10, 10),
        (10.5, 0),
        Rect(20, 0, 10, 10),
        STILL,
        10 / 10.5,
        LEFT,
    ),
    Moving(
        "exact corner hit", Rect(0, 0, 10, 10), (20, 20), Rect(20, 20, 10, 10), STILL, 0.5, LEFT
    ),
    Moving("corner graze", Rect(0, 0, 10, 10), (20, 20), Rect(20, 0, 10, 10), STILL, None),
    Moving("landing on top", Rect(0, 0, 10, 10), (3, 20), Rect(-5, 15, 30, 10), STILL, 0.25, UP),
    Moving(
        "sliding on top, diagonal in",
        Rect(0, 0, 10, 10),
        (5, 5),
        Rect(-5, 10, 30, 10),
        STILL,
        0.0,
        UP,
    ),
    Moving(
        "zero motion, overlapping",
        Rect(0, 0, 10, 10),
        STILL,
        Rect(5, 5, 10, 10),
        STILL,
        0.0,
        LEFT,
        True,
    ),
    Moving(
        "already overlapping, moving",
        Rect(0, 0, 10, 10),
        (5, 0),
        Rect(8, 1, 10, 10),
        STILL,
        0.0,
        LEFT,
        True,
    ),
    Moving(
        "both moving head on",
        Rect(0, 0, 10, 10),
        (10, 0),
        Rect(25, 0, 10, 10),
        (-10, 0),
        0.75,
        LEFT,
    ),
    Moving("same motion", Rect(0, 0, 10, 10), (100, 0), Rect(20, 0, 10, 10), (100, 0), None),
    Moving(
        "obstacle runs into a still mover",
        Rect(0, 0, 10, 10),
        STILL,
        Rect(20, 0, 10, 10),
        (-20, 0),
        0.5,
        LEFT,
    ),
    Moving(
        "fast through a thin wall",
        Rect(0, 0, 1, 1),
        (1e6, 0),
        Rect(1000, -10, 1, 30),
        STILL,
        999 / 1e6,
        LEFT,
    ),
    Moving(
        "huge coordinates",
        Rect(BIG, 0, 10, 10),
        (100, 0),
        Rect(BIG + 50, 0, 10, 10),
        STILL,
        0.4,
        LEFT,
    ),
    Moving(
        "negative coordinates",
        Rect(-100, -100, 10, 10),
        (50, 0),
        Rect(-70, -100, 10, 10),
        STILL,
        0.4,
        LEFT,
    ),
    Moving("point into a rect", Rect(0, 5, 0, 0), (20, 0), Rect(10, 0, 10, 10), STILL, 0.5, LEFT),
    Moving("point along an edge", Rect(0, 0, 0, 0), (20, 0), Rect(10, 0, 10, 10), STILL, None),
    Moving(
        "point through a corner", Rect(0, 0, 0, 0), (20, 20), Rect(10, 10, 10, 10), STILL, 0.5, LEFT
    ),
    Moving("circles head on", Circle(0, 0, 1), (4, 0), Circle(6, 0, 1), (-4, 0), 0.5, LEFT),
    Moving("circle grazing a circle", Circle(0, 2, 1), (10, 0), Circle(5, 0, 1), STILL, None),
    Moving(
        "circle into a rect face", Circle(0, 5, 1), (10, 0), Rect(5, 0, 10, 10), STILL, 0.4, LEFT
    ),
    Moving("circle along a rect face", Circle(0, -1, 1), (30, 0), Rect(5, 0, 10, 10), STILL, None),
    Moving("rect into a circle", Rect(0, -1, 2, 2), (10, 0), Circle(10, 0, 1), STILL, 0.7, LEFT),
    Moving(
        "point circle onto a wide rect",
        Circle(0, -10, 0),
        (5, 20),
        Rect(-100, 0, 200, 50),
        STILL,
        0.5,
        UP,
    ),
]

BAD_NUMBERS = [math.nan, math.inf, -math.inf]
"""Values every coordinate, size and delta must refuse with a ``ValueError``."""
BAD_TYPES = ["x", None, [1.0], object()]
"""Values every number argument must refuse with a ``TypeError``."""
NEGATIVE_SIZES = [-1.0, -TINY]
"""Sizes and radii every shape must refuse with a ``ValueError``."""


def shapes() -> list[Rect | Circle]:
    """Every shape of the catalogue, once each, in a stable order."""
    found: list[Rect | Circle] = []
    for case in STATIC:
        found += [case.a, case.b]
    for move in MOVING:
        found += [move.a, move.b]
    unique: list[Rect | Circle] = []
    for shape in found:
        if not any(type(shape) is type(seen) and shape == seen for seen in unique):
            unique.append(shape)
    return unique
