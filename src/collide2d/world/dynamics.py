"""The World's simultaneous step: velocities, masses, groups and their responses, and
:meth:`WorldDynamics.step` (every body moves at once; see ``docs/step.md``)."""

from __future__ import annotations

import math
from collections.abc import Hashable
from typing import Any

import numpy as np

from collide2d._kernels.codes import EVENT_CAP, MASK, POLYGON
from collide2d.broadphase import UnknownKeyError
from collide2d.gc_pause import collector_paused
from collide2d.geometry import _checks
from collide2d.geometry.vec2 import Vec2
from collide2d.mask.placed import PlacedMask
from collide2d.shapes import AnyShape
from collide2d.world.cell_lists import CellLists
from collide2d.world.collision import Item
from collide2d.world.group_filter import GroupFilter
from collide2d.world.shape_store import WorldShapes
from collide2d.world.step import checked_cap, checked_dt, response_code, run
from collide2d.world.step_filter import StepFilter, filtered_table
from collide2d.world.step_recover import pushed_out
from collide2d.world.step_result import StepResult, StepStats
from collide2d.world.step_scratch import StepScratch
from collide2d.world.table import ItemTable

DEFAULT_RESPONSE = "slide"
"""The response between two groups no :meth:`~WorldDynamics.set_response` named."""


class WorldDynamics(WorldShapes):
    """The step's part of :class:`~collide2d.World` (a mixin over its item table)."""

    _table: ItemTable
    _stale: dict[Item, None]
    _cell_lists: CellLists

    def _place(self, item: Item, shape: AnyShape) -> None:
        """Put ``item`` at ``shape`` (defined by the World)."""
        raise NotImplementedError

    def _init_dynamics(self) -> None:
        self._groups: dict[Hashable, int] = {}
        self._pair_responses: dict[tuple[int, int], tuple[int, float]] = {}
        self._response_arrays: tuple[np.ndarray, np.ndarray] | None = None
        self._scratch = StepScratch()  # the steps' memory, kept between them
        self._crushed: list[Item] = []  # the last step's (pushed out by the next)
        self._group_id("default")
        self._group_filter = GroupFilter(self._table, lambda: self._responses_table()[0])

    @property
    def group_filter(self) -> GroupFilter:
        """A filter for ``move``, ``check``, ``move_all`` and :meth:`move_arrays` that
        answers from :meth:`set_response`'s table: the response of the two items'
        groups (``"slide"`` where none was set), None for ``"ignore"``. The compiled
        moves read that table whole instead of calling a filter for every pair; see
        :class:`~collide2d.GroupFilter`."""
        return self._group_filter

    # -- bodies --------------------------------------------------------------------------
    def velocity(self, item: Item) -> Vec2:
        """The velocity of ``item`` (per unit of ``dt``)."""
        slot = self._slot(item)
        vx, vy = self._table.velocity[slot].tolist()
        return Vec2(vx, vy)

    def set_velocity(self, item: Item, velocity: tuple[float, float]) -> None:
        """Set the velocity ``item`` moves with in :meth:`step`.

        Raises ``ValueError`` for a NaN or infinite component, or a non-zero velocity
        for a pixel mask (masks are terrain: they take part in a step fixed).
        """
        slot = self._slot(item)
        value = self._checked_velocity(self._shape_dict[item], velocity)  # its kind only
        self._table.velocity[slot] = value
        self._table.changed()
        self._cell_lists.unmoved(self._table)

    def mass(self, item: Item) -> float:
        """The mass of ``item`` (``math.inf``: never pushed by contacts)."""
        return float(self._table.mass[self._slot(item)])

    def set_response(
        self, group_a: Hashable, group_b: Hashable, name: str, *, restitution: float = 1.0
    ) -> None:
        """How bodies of ``group_a`` and ``group_b`` meet in :meth:`step` (symmetric;
        the last call for a pair wins; unset pairs ``slide``).

        Parameters
        ----------
        group_a, group_b : hashable
            Group names, as given to ``add(..., group=...)`` (before or after).
        name : {"slide", "touch", "bounce", "cross", "ignore"}
            The response.
        restitution : float, default 1
            For ``bounce``: the share of the approaching normal speed given back,
            in ``[0, 1]`` (1 elastic).

        Examples
        --------
        >>> from collide2d import World, Circle
        >>> world = World()
        >>> world.set_response("ball", "ball", "bounce", restitution=0.5)
        >>> world.add("a", Circle(0, 0, 1), velocity=(1, 0), group="ball")
        'a'
        >>> world.add("b", Circle(4, 0, 1), group="ball")
        'b'
        >>> contact = world.step(dt=3.0).contacts[0]
        >>> contact.time, contact.response, world.velocity("a"), world.velocity("b")
        (2.0, 'bounce', Vec2(x=0.25, y=0.0), Vec2(x=0.75, y=0.0))
        """
        for group, label in ((group_a, "group_a"), (group_b, "group_b")):
            try:
                hash(group)
            except TypeError:
                raise TypeError(f"{label} must be hashable, got {group!r}") from None
        code = response_code(name)
        e = _checks.real(restitution, "restitution")
        if not 0.0 <= e <= 1.0:
            raise ValueError(f"restitution must lie in [0, 1], got {restitution!r}")
        a, b = self._group_id(group_a), self._group_id(group_b)
        self._pair_responses[(a, b)] = self._pair_responses[(b, a)] = (code, e)
        self._response_arrays = None

    # -- the step ------------------------------------------------------------------------
    def step(
        self,
        dt: float = 1.0,
        *,
        gravity: tuple[float, float] = (0.0, 0.0),
        filter: StepFilter | None = None,
        event_cap: int = EVENT_CAP,
    ) -> StepResult:
        """Move every body along ``velocity * dt`` at the same time, resolving the
        earliest contact first, then the next, to the end of the step.

        Parameters
        ----------
        dt : float, default 1
            The step's duration, finite and ``>= 0`` (``0`` does nothing).
        gravity : (float, float), default (0, 0)
            Added, times ``dt``, to the velocity of every body of finite mass at the
            start of the step, before it moves (semi-implicit Euler, as games
            integrate: a body falling from rest moves ``gravity * dt**2`` in its first
            step). Bodies of infinite mass and masks keep their velocities.
        filter : callable, optional
            ``filter(a, b)`` answers for one pair, as ``move``'s filter does:
            ``"touch"``, ``"slide"``, ``"bounce"``, ``"cross"``, or None (or
            ``"ignore"``) to pass through without a contact; ``a`` is the one added
            first. It is asked once a step for each pair whose boxes, swept by their
            velocities over ``dt``, meet (touching included), not both fixed; other
            pairs answer from :meth:`set_response`'s table of their groups, which stays
            the compiled route (``docs/step.md``, "Per-pair answers"). Where an
            answer differs from the table, the pair's restitution is its groups'.
        event_cap : int, default 64
            Contacts one body may take part in during the step before it is stopped
            where it is for the rest of the step (``StepStats.capped`` counts them).

        Returns
        -------
        StepResult
            The contacts in time order and the core's counts.

        Examples
        --------
        >>> from collide2d import World, Rect
        >>> world = World()
        >>> world.add("wall", Rect(10, 0, 2, 10), mass=math.inf)
        'wall'
        >>> world.add("box", Rect(0, 0, 2, 2), velocity=(4, 1))
        'box'
        >>> result = world.step(dt=3.0)
        >>> [(c.time, c.a, c.b, c.normal, c.response) for c in result.contacts]
        [(2.0, 'wall', 'box', Vec2(x=1.0, y=0.0), 'slide')]
        >>> world.shape("box"), world.velocity("box")
        (Rect(x=8.0, y=3.0, w=2.0, h=2.0), Vec2(x=0.0, y=1.0))
        """
        length = checked_dt(dt)
        cap = checked_cap(event_cap)
        gx, gy = _checks.point(gravity, "gravity")
        if filter is not None and not callable(filter):
            raise TypeError(f"filter must be callable or None, got {filter!r}")
        if length == 0.0 or not self._shape_dict:
            return StepResult([], StepStats())
        responses, restitution = self._responses_table()
        table = self._table
        live = table.live()
        polygon_slots = None
        if table.polygons:
            kinds = table.kind[live]
            polygon_slots = live[kinds == POLYGON]
        fell = self._fall(live, gx * length, gy * length) if gx or gy else None
        try:
            group = None
            if filter is not None:
                group, responses, restitution, _ = filtered_table(
                    table, live, length, filter, responses, restitution
                )
            shapes, items = self._shape_dict, table.items  # masks: never pending
            masks: dict[int, Any] = {  # (found in the table's kinds, not by a loop)
                slot: shapes[items[slot]] for slot in table.mask_slots().tolist()
            }
            # what the last step left crushed, pushed out first (its groups' table)
            moved = (
                pushed_out(self, self._crushed, self._responses_table()[0]) if self._crushed else []
            )
            try:
                with collector_paused():  # thousands of new shapes and contacts, no cycles
                    result = run(table, masks, responses, restitution, length, cap,
                                 self._scratch, group, polygon_slots, self._shape_dict,
                                 self._place)  # fmt: skip
            except BaseException:
                for item, shape in reversed(moved):  # the step did not happen
                    self._place(item, shape)
                raise
            finally:
                self._cell_lists.forget()  # the step writes its rows without counting
        except BaseException:
            if fell is not None:  # the step did not happen: no fall either
                movable, before = fell
                table.velocity[movable] = before
            raise
        self._crushed = result.crushed
        return result

    def _fall(self, live: np.ndarray, dvx: float, dvy: float) -> tuple[np.ndarray, np.ndarray]:
        """Add ``(dvx, dvy)`` to the velocity of every live body of finite mass (not a
        mask); a ``ValueError`` and no change if one would overflow. Returns the slots
        changed and their velocities before, to undo it."""
        table = self._table
        movable = live[np.isfinite(table.mass[live]) & (table.kind[live] != MASK)]
        before = table.velocity[movable]
        velocity = before + (dvx, dvy)
        if not np.isfinite(velocity).all():
            raise ValueError(f"gravity * dt = {(dvx, dvy)!r} makes a velocity overflow a float")
        table.velocity[movable] = velocity
        return movable, before

    # -- internals -----------------------------------------------------------------------
    def _slot(self, item: Item) -> int:
        try:
            return self._table.slot[item]
        except TypeError:
            raise TypeError(f"item must be hashable, got {item!r}") from None
        except KeyError:
            raise UnknownKeyError(f"unknown item {item!r}") from None

    def _group_id(self, group: Hashable) -> int:
        groups = self._groups
        found = groups.get(group)
        if found is None:
            found = groups[group] = len(groups)
            self._response_arrays = None
        return found

    def _checked_body(
        self, shape: AnyShape, velocity: object, mass: object, group: object
    ) -> tuple[tuple[float, float], float, int]:
        """``add``'s step arguments, checked (nothing is changed before they pass)."""
        value = self._checked_velocity(shape, velocity)
        if isinstance(mass, (int, float)) and not isinstance(mass, bool) and mass == math.inf:
            weight = math.inf
        else:
            weight = _checks.real(mass, "mass")
            if weight <= 0.0:
                raise ValueError(f"mass must be > 0 (math.inf: never pushed), got {mass!r}")
        try:
            hash(group)
        except TypeError:
            raise TypeError(f"group must be hashable, got {group!r}") from None
        return value, weight, self._group_id(group)

    @staticmethod
    def _checked_velocity(shape: AnyShape, velocity: object) -> tuple[float, float]:
        vx, vy = _checks.point(velocity, "velocity")
        if type(shape) is PlacedMask and (vx or vy):
            raise ValueError(
                f"velocity must be (0, 0) for a PlacedMask, got {velocity!r}: masks take "
                "part in a step as fixed terrain"
            )
        return vx, vy

    def _responses_table(self) -> tuple[np.ndarray, np.ndarray]:
        arrays = self._response_arrays
        if arrays is None:
            count = len(self._groups)
            codes = np.full((count, count), response_code(DEFAULT_RESPONSE), dtype=np.int64)
            restitution = np.ones((count, count))
            for (a, b), (code, e) in self._pair_responses.items():
                codes[a, b] = code
                restitution[a, b] = e
            arrays = self._response_arrays = (codes, restitution)
        return arrays
