"""The World's way out of overlaps: the minimum translation of an item that starts a
move overlapping what it would stop at (bump.lua pushes it back along its motion,
through the obstacle if need be; see docs/world.md, "No teleport")."""

from __future__ import annotations

from collide2d.broadphase import Broadphase
from collide2d.geometry.vec2 import Vec2
from collide2d.shapes import AnyShape, overlaps
from collide2d.world.collision import Filter, Item
from collide2d.world.contact import PUSHES, at, bounds, position, push_distance, snap
from collide2d.world.responses import Response
from collide2d.world.shape_store import WorldShapes


class WorldPushOut(WorldShapes):
    """The push-out methods of :class:`~collide2d.World` (a mixin: they read its
    items and responses)."""

    @property
    def broadphase(self) -> Broadphase:
        """The World's broadphase (defined there)."""
        raise NotImplementedError

    _responses: dict[str, Response]

    def _push_out(
        self, shape: AnyShape, motion: Vec2, filter: Filter, item: Item | None
    ) -> tuple[Vec2, Vec2]:
        """The minimum translation out of every item ``shape`` overlaps and would stop
        at: the smallest of the four axis pushes (left, right, up, down) after which it
        overlaps none of them, counting those a push runs into on its way (a push
        along a row of tiles goes on to the row's end). Ties: the push most opposed to
        ``motion``, then up, down, left, right. Returns the position and the normal."""
        pushes = [self._push_distance(shape, direction, filter, item) for direction in PUSHES]
        keys = [
            (distance, direction.dot(motion), order)
            for order, ((distance, _), direction) in enumerate(zip(pushes, PUSHES, strict=True))
        ]
        distance, _, order = min(keys)
        direction = PUSHES[order]
        x, y = position(shape)
        pos = Vec2(x + direction[0] * distance, y + direction[1] * distance)
        for other in pushes[order][1]:
            pos = snap(shape, pos, other, direction)
        return pos, direction

    def _stops_at(self, filter: Filter, item: Item | None, other: Item) -> bool:
        """Whether the filter's response to ``other`` would stop the item (any known
        response but ``cross``); an unknown name is an error, as in a projection."""
        response = filter(item, other)
        if not response or response == "cross":
            return False
        if response not in self._responses:
            raise ValueError(
                f"unknown response {response!r} (the filter's answer for {other!r}); "
                f"known: {', '.join(sorted(self._responses))}"
            )
        return True

    def _push_distance(
        self, shape: AnyShape, direction: Vec2, filter: Filter, item: Item | None
    ) -> tuple[float, list[AnyShape]]:
        """How far ``shape`` must go along ``direction`` to overlap nothing it would
        stop at, and the shapes it pushed past. Each item is pushed past once: what an
        exact push leaves of an overlap is rounding, which the caller's snap removes."""
        x, y = position(shape)
        total = 0.0
        passed: set[Item] = set()
        met: list[AnyShape] = []
        while True:
            moved = at(shape, x + direction[0] * total, y + direction[1] * total)
            pushes = []
            for other in self.broadphase.query_candidates(bounds(moved)):
                if other == item or other in passed or not self._stops_at(filter, item, other):
                    continue
                other_shape = self._shapes[other]
                if overlaps(moved, other_shape):
                    pushes.append(push_distance(moved, other_shape, direction))
                    passed.add(other)
                    met.append(other_shape)
            if not pushes:
                return total, met
            total += max(pushes)
