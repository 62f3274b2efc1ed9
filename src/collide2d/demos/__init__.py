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
    "gas": ("collide2d.demos.gas", "GasDemo"),
    "rush": ("collide2d.demos.rush", "RushDemo"),
}
"""Demo name -> (module, class)."""


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


__all__ = ["REGISTRY", "load", "names"]
