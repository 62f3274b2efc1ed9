"""Interactive pygame-ce demos, registered by name.

The registry names each demo's module and class so that listing demos does not
import pygame; :func:`load` imports one when it is about to run.
"""

from __future__ import annotations

import importlib
import os
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collide2d.demos._app import Demo

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

REGISTRY: dict[str, tuple[str, str]] = {
    "sweep": ("collide2d.demos.sweep", "SweepDemo"),
    "balls": ("collide2d.demos.balls", "BallsDemo"),
    "rects": ("collide2d.demos.rects", "RectsDemo"),
    "masks": ("collide2d.demos.masks", "MasksDemo"),
    "platformer": ("collide2d.demos.platformer", "PlatformerDemo"),
    "slopes": ("collide2d.demos.platformer", "SlopesDemo"),
    "gas": ("collide2d.demos.gas", "GasDemo"),
    "rush": ("collide2d.demos.rush", "RushDemo"),
    "crush": ("collide2d.demos.crush", "CrushDemo"),
    "polygons": ("collide2d.demos.polygons", "PolygonsDemo"),
}
"""Demo name -> (module, class)."""

DESCRIPTIONS: dict[str, str] = {
    "sweep": "drag two shapes and their moves: the exact first contact of rects and circles",
    "balls": "hundreds of balls bouncing; pairs found by each broadphase, with check counts",
    "rects": "thousands of moving rects; uniform grid, quadtree, sort and sweep, brute force",
    "masks": "pixel masks: overlap, overlapping pixels, quadtree levels, a mask swept to a ring",
    "platformer": "a World of tiles and pixel terrain: slide, touch, cross and bounce moves",
    "slopes": "ramps of polygon pieces, a pixel hill, a turning bar and a ball in World.step",
    "gas": "a hard-disk gas by World.step; its speeds approach Maxwell-Boltzmann",
    "rush": "fast rects and circles through walls 2 px thick with World.step: none gets out",
    "crush": "lifts drive boxes into a ceiling: World.step reports every crushed body",
    "polygons": "rotated ships and crates: exact sweeps, a push-out, 1,000 turning boxes a frame",
}
"""Demo name -> what it shows, in a line (``collide2d demo --list``)."""


def names() -> list[str]:
    """The registered demo names, in showcase order.

    >>> "sweep" in names()
    True
    """
    return list(REGISTRY)


def load(name: str) -> type[Demo]:
    """Import and return the demo class registered as ``name``.

    Raises
    ------
    ValueError
        If no demo has that name.
    """
    if name not in REGISTRY:
        raise ValueError(f"unknown demo {name!r}; choose one of {', '.join(REGISTRY)}")
    module, cls = REGISTRY[name]
    demo: type[Demo] = getattr(importlib.import_module(module), cls)
    return demo


__all__ = ["DESCRIPTIONS", "REGISTRY", "load", "names"]
