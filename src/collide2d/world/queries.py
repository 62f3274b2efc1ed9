"""The World's queries: points, rectangles and segments against its items."""

from __future__ import annotations

from collide2d.broadphase import Broadphase
from collide2d.geometry import _checks
from collide2d.geometry.rect import Rect
from collide2d.geometry.rect_like import checked_rect
from collide2d.geometry.vec2 import Vec2
from collide2d.shapes import overlaps, raycast
from collide2d.stats import Stats
from collide2d.world.checks import QueryFilter, checked_query_filter, checked_shape
from collide2d.world.collision import Item, SegmentHit
from collide2d.world.shape_store import WorldShapes


class WorldQueries(WorldShapes):
    """The query methods of :class:`~collide2d.World` (a mixin: they read its items)."""

    @property
    def broadphase(self) -> Broadphase:
        """The World's broadphase (defined there)."""
        raise NotImplementedError

    stats: Stats
    _order: dict[Item, int]

    # -- queries -------------------------------------------------------------------------
    def query_point(
        self, point: tuple[float, float], filter: QueryFilter | None = None
    ) -> list[Item]:
        """Items whose shapes contain ``point`` strictly, in the order they were added."""
        x, y = _checks.point(point, "point")
        probe = Rect(x, y, 0.0, 0.0)
        return self._query(self.broadphase.query_point((x, y)), probe, filter)

    def query_rect(self, rect: Rect, filter: QueryFilter | None = None) -> list[Item]:
        """Items whose shapes overlap ``rect`` strictly, in the order they were added."""
        if not isinstance(rect, Rect):
            rect = checked_rect(rect, "rect")
        rect = checked_shape(rect, "rect")  # type: ignore[assignment]
        return self._query(self.broadphase.query_rect(rect), rect, filter)

    def query_segment(
        self,
        start: tuple[float, float],
        end: tuple[float, float],
        filter: QueryFilter | None = None,
    ) -> list[Item]:
        """Items the segment enters, ordered by where it enters them (then by the order
        they were added); one it starts inside enters at 0."""
        return [hit.item for hit in self.query_segment_hits(start, end, filter)]

    def query_segment_hits(
        self,
        start: tuple[float, float],
        end: tuple[float, float],
        filter: QueryFilter | None = None,
    ) -> list[SegmentHit]:
        """Where the segment enters and leaves each item it crosses (fractions clipped to
        ``[0, 1]``), ordered as :meth:`query_segment`."""
        sx, sy = _checks.point(start, "start")
        ex, ey = _checks.point(end, "end")
        keep = checked_query_filter(filter)
        delta = (ex - sx, ey - sy)
        self.stats.begin()
        found = []
        candidates = self.broadphase.query_segment((sx, sy), delta)
        self.stats.count(visits=len(candidates))
        for item in candidates:
            if not keep(item):
                continue
            self.stats.count(tests=1)
            hit = raycast((sx, sy), delta, self._shapes[item])
            if hit is None:
                continue
            enter = hit.fraction
            leave = min(hit.exit_fraction, 1.0)
            found.append(
                (
                    (enter, self._order[item]),
                    SegmentHit(
                        item,
                        enter,
                        leave,
                        Vec2(sx + delta[0] * enter, sy + delta[1] * enter),
                        Vec2(sx + delta[0] * leave, sy + delta[1] * leave),
                    ),
                )
            )
        found.sort(key=lambda pair: pair[0])
        return [hit for _, hit in found]

    def _query(self, candidates: list[Item], probe: Rect, filter: QueryFilter | None) -> list[Item]:
        keep = checked_query_filter(filter)
        self.stats.begin()
        self.stats.count(visits=len(candidates))
        found = []
        for item in candidates:
            if keep(item):
                self.stats.count(tests=1)
                if overlaps(probe, self._shapes[item]):
                    found.append(item)
        found.sort(key=self._order.__getitem__)
        return found
