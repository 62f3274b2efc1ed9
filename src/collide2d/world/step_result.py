"""The records ``World.step`` returns: a ``Contact``, ``StepStats``, a ``StepResult``."""

from __future__ import annotations

from typing import NamedTuple

from collide2d.geometry.vec2 import Vec2
from collide2d.world.collision import Item


class Contact(NamedTuple):
    """One contact resolved (or, for ``cross``, reported) during a step.

    Attributes
    ----------
    time : float
        When, from the start of the step, in ``[0, dt)``.
    a, b : hashable
        The two items, ``a`` the one added first.
    normal : Vec2
        Unit normal from ``b`` toward ``a``: an axis between rectangles (and pixels),
        the line of centres between circles, from the rectangle's nearest point to a
        circle's centre.
    point : Vec2
        Where they touch: a circle's surface point, or the middle of the shared part
        of two boxes' edges (of their overlap, when they started overlapping).
    response : str
        ``"touch"``, ``"slide"``, ``"bounce"`` or ``"cross"`` (two bodies that cannot
        be moved, both of infinite mass or frozen, always pass as ``"cross"``).
    started_overlapping : bool
        Whether the two overlapped at the start of the step (they were put there with
        ``update`` or ``add``; then ``time`` is 0 and they are pushed apart). A pair
        left touching by an earlier event and found an ulp inside each other later
        is a contact at that time, not a started one.
    """

    time: float
    a: Item
    b: Item
    normal: Vec2
    point: Vec2
    response: str
    started_overlapping: bool


class StepStats(NamedTuple):
    """What a step's event-driven core did.

    Attributes
    ----------
    events : int
        Contacts taken from the queue and handled (reported or not).
    stale : int
        Events dropped from the queue because one of their bodies had changed since
        they were predicted (lazy invalidation).
    predictions : int
        Pair predictions computed.
    crossings : int
        Cell crossings handled (a moving body's set of nearby cells changed).
    capped : int
        Bodies that reached the per-step event cap and were stopped for the rest of
        the step (the Zeno guard).
    nudged : int
        Overlaps of rounding size taken apart by nudges of a few units in the last
        place, unreported.
    seconds : float
        Time spent in the compiled core.
    """

    events: int = 0
    stale: int = 0
    predictions: int = 0
    crossings: int = 0
    capped: int = 0
    nudged: int = 0
    seconds: float = 0.0


class StepResult(NamedTuple):
    """What :meth:`World.step <collide2d.World.step>` returns: the contacts in time
    order, and the core's counts."""

    contacts: list[Contact]
    stats: StepStats
