"""The World: items that move, collide and respond (bump.lua's model, exact)."""

from __future__ import annotations

import math
from collections.abc import Iterator
from functools import partial
from typing import Any

from collide2d._kernels.codes import MAX_RESPONSES
from collide2d.broadphase import Broadphase, DuplicateKeyError, UniformGrid, UnknownKeyError
from collide2d.continuous.hit import Hit
from collide2d.continuous.rect import sweep_rect_rect
from collide2d.geometry import _checks
from collide2d.geometry.circle import Circle
from collide2d.geometry.placed_polygon import PlacedPolygon
from collide2d.geometry.polygon import Polygon
from collide2d.geometry.rect import Rect
from collide2d.geometry.rect_like import rect_like
from collide2d.geometry.vec2 import Vec2
from collide2d.mask.placed import PlacedMask
from collide2d.shapes import AnyShape, sweep
from collide2d.stats import Stats
from collide2d.world.cell_lists import CellLists
from collide2d.world.checks import (
    checked_filter,
    checked_goal,
    checked_shape,
    index_shape,
    outward,
    plain_goal,
)
from collide2d.world.collision import Collision, Filter, Item, Movement
from collide2d.world.contact import (
    STOPPING,
    at,
    bounds,
    centre_distance2,
    contact,
    corner_normal,
    is_corner,
    overlap_depth,
    position,
    simultaneous,
    snap,
)
from collide2d.world.dynamics import WorldDynamics
from collide2d.world.listed_move import ELSEWHERE, move_listed
from collide2d.world.many_moves import WorldManyMoves
from collide2d.world.move_all import CODES
from collide2d.world.push_out import WorldPushOut
from collide2d.world.queries import WorldQueries
from collide2d.world.responses import BUILT_IN, Response, slide
from collide2d.world.single_move import move_one
from collide2d.world.slope_rules import clear_rounded_end, wedged
from collide2d.world.table import ItemTable

_SHAPES = (Rect, Circle, PlacedMask, PlacedPolygon, Polygon)
"""What ``update`` takes as a new shape (anything else is a position or a rectangle)."""


class World(WorldQueries, WorldPushOut, WorldManyMoves, WorldDynamics):
    """Items that move, collide and respond, in bump.lua's model, exact and deterministic;
    or all at once, with velocities and masses, in :meth:`step`.

    Parameters
    ----------
    cell_size : float, default 64
        The cell side of the default broadphase, a :class:`~collide2d.UniformGrid`.
    broadphase : Broadphase, optional
        An empty broadphase to use instead (a ``Quadtree``, ``SortedStrips``...); the
        answers do not depend on it.

    Examples
    --------
    >>> from collide2d import Rect
    >>> world = World()
    >>> world.add("floor", Rect(0, 100, 200, 20))
    'floor'
    >>> world.add("player", Rect(10, 50, 16, 32))
    'player'
    >>> position, collisions = world.move("player", (60, 90))   # falls onto the floor
    >>> position, [(c.other, c.normal) for c in collisions]
    (Vec2(x=60.0, y=68.0), [('floor', Vec2(x=0.0, y=-1.0))])
    """

    _compiled_moves = True
    """Whether ``move``/``check`` of a rectangle run the compiled moves where they can
    (``move_all``'s kernel for one mover); the tests set it False on a twin world to
    compare with the Python check loop, the reference."""

    _listed_moves = True  # the cell lists first (listed_move); the tests set False

    def __init__(self, cell_size: float = 64.0, *, broadphase: Broadphase | None = None) -> None:
        if broadphase is None:
            size = _checks.real(cell_size, "cell_size")
            if size <= 0.0:
                raise ValueError(f"cell_size must be > 0, got {cell_size!r}")
            broadphase = UniformGrid(cell_size=size)
        elif not isinstance(broadphase, Broadphase):
            raise TypeError(f"broadphase must be a Broadphase, got {broadphase!r}")
        elif len(broadphase):
            raise ValueError("broadphase must be empty: the World fills it")
        self._broadphase = broadphase
        self._stale: dict[Item, None] = {}  # items the broadphase has an old shape of
        self._shape_dict: dict[Item, AnyShape] = {}  # see WorldShapes
        self._order: dict[Item, int] = {}
        self._next_order = 0
        self._responses: dict[str, Response] = dict(BUILT_IN)
        self._compiled = dict(CODES)  # the responses compiled moves may run
        self._table = ItemTable()
        # the items by cell for single moves (a grid of the broadphase's cells, if it has)
        self._cell_lists = CellLists(getattr(broadphase, "cell_size", 64.0))
        self._moving = False
        self.stats = Stats(method="world")
        self._init_dynamics()

    # -- items -------------------------------------------------------------------------
    def add(
        self,
        item: Item,
        shape: AnyShape,
        *,
        velocity: tuple[float, float] = (0.0, 0.0),
        group: Any = "default",
        mass: float = 1.0,
    ) -> Item:
        """Add ``item`` with ``shape`` (a Rect, Circle, PlacedMask or PlacedPolygon);
        return ``item``.

        A plain ``Polygon`` is taken as ``PlacedPolygon(polygon, 0, 0)``: its
        vertices where they are, its position ``(0, 0)`` (terrain that never moves;
        give a mover a ``PlacedPolygon`` anchored where its moves should aim). A
        ``pygame.Rect``, a ``pygame.FRect`` or an ``(x, y, w, h)`` sequence is taken as
        the ``Rect`` of the same numbers (``collide2d.geometry.rect_like``).

        ``velocity``, ``group`` and ``mass`` are for :meth:`step`: how far the item
        moves per unit of time, which responses it has with other groups
        (:meth:`set_response`), and how hard it is to push (``math.inf``: never, as a
        wall, a tile or a platform that moves only by its own velocity).

        Raises
        ------
        DuplicateKeyError
            If ``item`` is already in the world.
        TypeError, ValueError
            If ``item`` is not hashable or ``shape`` is not a valid shape.
        """
        if self._has(item):
            raise DuplicateKeyError(f"item {item!r} is already in the world")
        shape = checked_shape(shape, "shape")
        motion = self._checked_body(shape, velocity, mass, group)
        self._broadphase.add(item, index_shape(shape))  # stale others stay so till read
        self._table.add(item, shape, *motion)
        self._cell_lists.placed(self._table, self._table.slot[item])
        self._shape_dict[item] = shape
        self._order[item] = self._next_order
        self._next_order += 1
        return item

    def remove(self, item: Item) -> None:
        """Remove ``item``. Raises ``UnknownKeyError`` if it is not in the world."""
        self._require(item)
        self._broadphase.remove(item)  # stale others stay so till read
        self._stale.pop(item, None)
        table = self._table
        slot, count = table.slot[item], len(table.items)
        table.remove(item)
        self._cell_lists.removed(table, slot, count)
        del self._shape_dict[item]
        del self._order[item]

    def update(self, item: Item, shape_or_position: AnyShape | tuple[float, float]) -> None:
        """Teleport ``item`` (no collisions): to a new shape, or to a new ``(x, y)``
        keeping its size (a Rect's top-left corner, a Circle's centre, a mask's offset,
        a placed polygon's anchor). A new ``PlacedPolygon`` turns a polygon between
        moves.

        A ``pygame.Rect``, a ``pygame.FRect`` or an ``(x, y, w, h)`` sequence is a new
        rectangle; a pair is a position."""
        old = self._require(item)
        value = shape_or_position
        rect = None
        if not isinstance(value, _SHAPES):
            rect = rect_like(value, "shape_or_position")
        if rect is not None or isinstance(value, _SHAPES):
            shape = checked_shape(value if rect is None else rect, "shape_or_position")
            self._checked_velocity(shape, self.velocity(item))
        else:
            x, y = _checks.point(value, "shape_or_position")
            shape = at(old, x, y)
        self._place(item, shape)

    def shape(self, item: Item) -> AnyShape:
        """The shape of ``item``."""
        return self._require(item)

    def __contains__(self, item: object) -> bool:
        try:
            return item in self._shape_dict
        except TypeError:  # an unhashable value is in no world
            return False

    def __len__(self) -> int:
        return len(self._shape_dict)

    def __iter__(self) -> Iterator[Item]:
        """The items in the order they were added."""
        return iter(list(self._shape_dict))

    def __repr__(self) -> str:
        return f"<World with {len(self)} items>"

    def add_response(self, name: str, response: Response) -> None:
        """Register (or replace) a response: ``response(world, collision, shape, goal,
        filter) -> (new_goal, collisions)``, as the built-ins in
        ``collide2d.world.responses``."""
        if not isinstance(name, str) or not name:
            raise TypeError(f"name must be a non-empty str, got {name!r}")
        if not callable(response):
            raise TypeError(f"response must be callable, got {response!r}")
        self._responses[name] = response
        self._compiled = {n: code for n, code in CODES.items() if self._responses[n] is BUILT_IN[n]}

    # -- moving --------------------------------------------------------------------------
    def project(
        self,
        shape: AnyShape,
        goal: tuple[float, float] | None = None,
        filter: Filter | None = None,
        *,
        item: Item | None = None,
    ) -> list[Collision]:
        """Every contact of ``shape`` moving straight to ``goal`` (no response).

        ``item`` (which need not be in the world) is left out. Sorted: contacts that
        started overlapped first (deepest first), then by fraction, face contacts
        before corner contacts at the same fraction, then by distance between the
        centres, then by the order the items were added.
        """
        shape = checked_shape(shape, "shape")
        target = position(shape) if goal is None else checked_goal(goal)
        if not self._moving:  # a response's projection counts toward its move
            self.stats.begin()
        return self._project(shape, target, checked_filter(filter), item)

    def check(
        self, item: Item, goal: tuple[float, float], filter: Filter | None = None
    ) -> Movement:
        """Where ``item`` would end moving toward ``goal``, and what it would meet;
        the world is not changed. See :meth:`move`."""
        return self._checked(item, goal, filter, False)[0]

    def move(self, item: Item, goal: tuple[float, float], filter: Filter | None = None) -> Movement:
        """Move ``item`` toward ``goal``, responding to what it meets; return where it
        ended and the collisions it responded to.

        ``filter(item, other)`` names the response for each other item (``"slide"``,
        the default, ``"touch"``, ``"cross"``, ``"bounce"`` or a registered one), or
        returns a falsy value to ignore it. The move is :meth:`check` followed by
        :meth:`update`; on any error the world is left as it was.
        """
        movement, placed = self._checked(item, goal, filter, True)
        if not placed:
            x, y = movement.position
            self._place(item, at(self._shape_of(item), x, y))
        return movement

    def _checked(
        self, item: Item, goal: tuple[float, float], filter: Filter | None, place: bool
    ) -> tuple[Movement, bool]:
        """:meth:`check`, and whether the item was placed where it ends (a rectangle
        moved through the cell lists, when ``place``)."""
        try:  # (_require, written out: the frame loop's call)
            shape = self._shape_dict[item] if not self._table.pending_any else self._require(item)
        except (KeyError, TypeError):
            shape = self._require(item)  # its errors
        target = plain_goal(goal) or checked_goal(goal)  # (one call in the common case)
        self.stats.begin()
        use = filter if filter is not None and callable(filter) else checked_filter(filter)
        if type(shape) is Rect and self._compiled_moves:
            done: tuple[Movement, int, int] | int | None = (
                move_listed(self, item, shape, target, use, self._compiled, place)
                if self._listed_moves else ELSEWHERE)  # fmt: skip
            if done == ELSEWHERE:  # move_one does not place the item
                done, place = move_one(self._shapes, self._table, self.broadphase.query_candidates,
                                       item, shape, target, use, self._compiled), False  # fmt: skip
            if isinstance(done, tuple):
                movement, tests, visits = done
                self.stats.count(tests=tests, visits=visits)
                return movement, place
        return self._resolve(item, shape, target, use), False

    # -- checking ------------------------------------------------------------------------
    def validate(self) -> None:
        """Check that the broadphase holds exactly the items' shapes; raise
        ``AssertionError`` if not."""
        self.broadphase.validate()
        if set(self.broadphase) != set(self._shapes):
            raise AssertionError("the broadphase holds other items than the world")
        for item, shape in self._shapes.items():
            if self.broadphase.get(item) != index_shape(shape):
                raise AssertionError(f"the broadphase has a stale shape for {item!r}")
        if list(self._order) != list(self._shapes):
            raise AssertionError("the insertion order is out of step")
        self._table.validate(self._shapes)
        self._cell_lists.validate(self._table)

    # -- internals -----------------------------------------------------------------------
    def _has(self, item: object) -> bool:
        try:
            return item in self._shape_dict
        except TypeError:
            raise TypeError(f"item must be hashable, got {item!r}") from None

    def _require(self, item: Item) -> AnyShape:
        if not self._has(item):
            raise UnknownKeyError(f"unknown item {item!r}")
        return self._shape_of(item)

    def _place(self, item: Item, shape: AnyShape) -> None:
        self._broadphase.update(item, index_shape(shape))  # others stale stay so till read
        self._stale.pop(item, None)
        self._table.place(item, shape)
        self._cell_lists.placed(self._table, self._table.slot[item])
        self._shape_dict[item] = shape

    def _place_rows_written(self, items: list[Item], shapes: list[Rect]) -> None:
        """``_place`` for rectangles whose table rows the caller wrote already; the
        broadphase learns of them when it is next read (``move_all`` does not read it)."""
        self._shape_dict.update(zip(items, shapes, strict=True))
        self._stale.update(dict.fromkeys(items))

    @property
    def broadphase(self) -> Broadphase:
        """The broadphase holding the items (brought up to date when read)."""
        if self._table.pending_any:
            self._make_pending()  # pending rows become stale shapes
        stale = self._stale
        if stale:
            index, shapes = self._broadphase, self._shape_dict
            for item in stale:
                index.update(item, index_shape(shapes[item]))
            stale.clear()
        return self._broadphase

    def _project(
        self, shape: AnyShape, goal: Vec2, filter: Filter, item: Item | None
    ) -> list[Collision]:
        """The sorted contacts of ``shape`` moving straight to ``goal``."""
        x0, y0 = position(shape)
        dx, dy = goal[0] - x0, goal[1] - y0
        if not (-math.inf < dx < math.inf and -math.inf < dy < math.inf):
            raise ValueError(
                f"goal {tuple(goal)!r} is too far from the start {(x0, y0)!r}: the move's"
                " length overflows a float (make it in two moves)"
            )
        delta = Vec2(dx, dy)
        start, end = bounds(shape), bounds(at(shape, goal[0], goal[1]))
        # The swept box's edges themselves (a Rect's x + w could round an ulp short).
        left, top = min(start[0], end[0]), min(start[1], end[1])
        right = max(start[0] + start[2], end[0] + end[2])
        bottom = max(start[1] + start[3], end[1] + end[3])
        candidates = self.broadphase.query_candidates(outward(left, top, right, bottom))
        shapes = self._shapes
        responses = self._responses
        is_rect = type(shape) is Rect
        found: list[tuple[Collision, Hit, bool | None]] = []
        pushed: tuple[Vec2, Vec2] | None = None  # the way out of overlaps, found once
        tests = 0
        for other in candidates:
            if other == item:
                continue
            other_shape = shapes[other]
            ob = other_shape if type(other_shape) is Rect else bounds(other_shape)
            # What the sweep can meet overlaps the swept box strictly: skip the rest.
            if not (
                ob[0] < right and left < ob[0] + ob[2] and ob[1] < bottom and top < ob[1] + ob[3]
            ):
                continue
            response = filter(item, other)
            if not response:
                continue
            if response not in responses:
                raise ValueError(
                    f"unknown response {response!r} (the filter's answer for {other!r}); "
                    f"known: {', '.join(sorted(responses))}"
                )
            tests += 1
            if is_rect and type(other_shape) is Rect:  # deltas are checked: skip the front
                hit = sweep_rect_rect(shape, dx, dy, other_shape)  # type: ignore[arg-type]
            else:
                hit = sweep(shape, delta, other_shape)
            if hit is None:
                continue
            corner = None  # found when sorted, except for polygons: found here
            if not hit.started_overlapping:
                if type(shape) is PlacedPolygon or type(other_shape) is PlacedPolygon:
                    seam = corner_normal(shape, delta, other_shape)  # the seam rule
                    corner = seam is not None
                    if seam is not None:
                        hit = hit._replace(normal=seam)
                touch, normal = contact(shape, delta, hit, other_shape), hit.normal
            elif response == "cross":
                touch, normal = Vec2(x0, y0), hit.normal
            else:
                pushed = pushed or self._push_out(shape, delta, filter, item)
                touch, normal = pushed
            col = Collision(
                item, other, response, hit.fraction, normal, touch, delta, shape, other_shape,
                hit.started_overlapping,
            )  # fmt: skip
            found.append((col, hit, corner))
        self.stats.count(tests=tests, visits=len(candidates))
        if len(found) > 1:
            found.sort(key=self._order_key)
        return [col for col, _, _ in found]

    def _order_key(self, found: tuple[Collision, Hit, bool | None]) -> tuple[object, ...]:
        """How contacts of one projection are ordered: overlaps first (deepest first),
        then by fraction, face before corner, nearer centre, earlier added."""
        col, hit, corner = found
        tail = (centre_distance2(col.item_shape, col.other_shape), self._order[col.other])
        if col.started_overlapping:
            return (0, -overlap_depth(col.item_shape, col.other_shape), False, *tail)
        if corner is None:
            corner = is_corner(col.item_shape, col.delta, hit, col.other_shape)
        return (1, col.fraction, corner, *tail)

    def _resolve(self, item: Item, shape: AnyShape, goal: Vec2, filter: Filter) -> Movement:
        """The check loop: project, respond to the first contact, repeat."""
        visited: set[Item] = set()

        def skip_visited(mover: Any, other: Any) -> Any:
            return None if other in visited else filter(mover, other)

        collisions: list[Collision] = []
        projection = self._project(shape, goal, skip_visited, item)
        self._moving = True  # the responses' projections count toward this move
        try:
            goal = self._respond(projection, collisions, shape, goal, skip_visited, visited)
        finally:
            self._moving = False
        end = self._clear(shape, goal, collisions)
        if self._table.polygons:
            stops_at = partial(self._stops_at, skip_visited)
            end = clear_rounded_end(
                self.broadphase.query_candidates, self._shapes, stops_at, item, shape, end,
                collisions, self._table.slot.__getitem__,
            )  # fmt: skip
        return Movement(end, collisions)

    def _respond(
        self,
        projection: list[Collision],
        collisions: list[Collision],
        shape: AnyShape,
        goal: Vec2,
        filter: Filter,
        visited: set[Item],
    ) -> Vec2:
        """Respond to the first contact of each projection until none is left (or
        ``MAX_RESPONSES`` were made); append what was met to ``collisions``; return
        where the move ends."""
        responses = 0
        while projection:
            if responses == MAX_RESPONSES:  # stop where the pending leg starts
                return position(projection[0].item_shape)
            col = projection[0]
            if col.response not in ("slide", "bounce"):
                visited.add(col.other)
            new_goal, following = self._responses[col.response](self, col, shape, goal, filter)
            new_goal = _checks.point(new_goal, f"the goal the {col.response!r} response returned")
            if col.response == "slide":
                if self._responses["slide"] is slide and wedged(collisions, col, new_goal):
                    new_goal, following = col.touch, []  # in a wedge: nowhere left to go
                col = col._replace(slide=new_goal)
            elif col.response == "bounce":
                col = col._replace(bounce=new_goal)
            collisions.append(col)
            collisions += simultaneous(projection, col)
            goal, projection = new_goal, list(following)
            responses += 1
        return goal

    @staticmethod
    def _clear(shape: AnyShape, goal: Vec2, collisions: list[Collision]) -> Vec2:
        """``goal``, snapped clear of everything the move stopped at: a contact listed
        beside the one resolved (at the same moment) can be an ulp short of clear."""
        for col in collisions:
            if col.response in STOPPING:
                goal = snap(shape, goal, col.other_shape, col.normal)
        return goal
