"""The World's items as numpy rows, for the compiled moves.

One row a slot, slots in the order items were added: the item's bounds
(``x, y, w, h``), whether it is a rectangle, whether the slot is in use, its kind, a
polygon's outline in the world, and for ``World.step`` the shape's position (``x,
y``) and radius, velocity, mass and group number. ``add`` appends, ``remove``
empties a slot (compacting when half are empty, which keeps the order), ``place``
rewrites a row. ``World.move_all`` and ``World.step`` read the live rows instead of
turning every shape into an array on every call.

Rows the compiled code moved (``move_arrays``, ``step``) are marked *pending*: the
row holds the item's position and its shape object is made from it only when the
World reads it (:meth:`ItemTable.take_pending`, :meth:`ItemTable.shapes_at`), so a
frame loop that reads positions as arrays never makes thousands of shape tuples.
"""

from __future__ import annotations

import numpy as np

from collide2d._kernels.codes import CIRCLE, MASK, POLYGON, RECT
from collide2d.geometry.circle import Circle
from collide2d.geometry.placed_polygon import PlacedPolygon, placed_outline
from collide2d.geometry.rect import Rect
from collide2d.shapes import AnyShape
from collide2d.tolerances import SWEEP_EXACT_RANGE
from collide2d.world.collision import Item
from collide2d.world.contact import bounds

_COLUMNS = (
    "box", "rect", "alive", "kind", "origin", "radius", "velocity", "mass", "group", "pending",
    "outline", "outline_n", "outline_tame", "local",
)  # fmt: skip
_new = tuple.__new__

EMPTY = object()
"""What an emptied slot holds (any hashable value, None included, can be an item)."""


class ItemTable:
    """Rows of the items' bounds, in insertion order (see the module docstring)."""

    def __init__(self) -> None:
        self.box = np.zeros((16, 4))
        self.rect = np.zeros(16, dtype=bool)
        self.alive = np.zeros(16, dtype=bool)
        self.kind = np.zeros(16, dtype=np.int8)
        self.origin = np.zeros((16, 2))
        self.radius = np.zeros(16)
        self.velocity = np.zeros((16, 2))
        self.mass = np.ones(16)
        self.group = np.zeros(16, dtype=np.int64)
        self.pending = np.zeros(16, dtype=bool)  # the row is newer than the shape object
        # a polygon's outline in the world (vertices, their number, whether in the
        # compiled sweep's exact range), for the compiled moves
        self.outline = np.zeros((16, 4, 2))
        self.outline_n = np.zeros(16, dtype=np.int64)
        self.outline_tame = np.zeros(16, dtype=bool)
        # and its vertices about its anchor, for ``World.step``'s rows
        self.local = np.zeros((16, 4, 2))
        self.pending_any = False  # whether a row may be pending (cleared by take_pending)
        self.polygons = 0  # live rows of kind POLYGON (the step takes none yet)
        self.version = 0  # counts the World's writes (see ``changed``)
        self.items: list[object] = []
        self.slot: dict[Item, int] = {}
        self._dead = 0
        self._items_lent = False  # items_now() gave the list out: copy before writing
        self._live: np.ndarray | None = None  # live(), until a slot is added or emptied
        self._masks: np.ndarray | None = None  # mask_slots(), until a row is placed or emptied

    def add(
        self,
        item: Item,
        shape: AnyShape,
        velocity: tuple[float, float] = (0.0, 0.0),
        mass: float = 1.0,
        group: int = 0,
    ) -> None:
        """A new row at the end (values already checked)."""
        slot = len(self.items)
        if slot == self.box.shape[0]:
            self._resize(2 * slot)
        self.items.append(item)
        self.slot[item] = slot
        self.alive[slot] = True
        self._live = None
        self.velocity[slot] = velocity
        self.mass[slot] = mass
        self.group[slot] = group
        self.kind[slot] = RECT  # (a row past a compaction keeps its old values)
        self.place(item, shape)

    def place(self, item: Item, shape: AnyShape) -> None:
        """Rewrite ``item``'s row (from ``shape``: no longer pending)."""
        slot = self.slot[item]
        self.version += 1
        if type(shape) is Rect and self.rect[slot]:  # a rectangle moved: the common case
            if self.pending_any:
                self.pending[slot] = False
            x, y, w, h = shape  # element by element: a row from a tuple costs 2.5x
            box, origin = self.box, self.origin
            box[slot, 0] = origin[slot, 0] = x
            box[slot, 1] = origin[slot, 1] = y
            box[slot, 2] = w
            box[slot, 3] = h
            return
        self.pending[slot] = False
        self._masks = None
        if self.kind[slot] == POLYGON:
            self.polygons -= 1
        if type(shape) is Rect:
            self.box[slot] = shape
            self.rect[slot] = True
            self.origin[slot] = shape[:2]
            self.kind[slot] = RECT
            return
        self.box[slot] = bounds(shape)
        self.rect[slot] = type(shape) is Rect
        self.origin[slot] = shape.x, shape.y
        if type(shape) is Circle:
            self.kind[slot] = CIRCLE
            self.radius[slot] = shape.r
        elif type(shape) is PlacedPolygon:
            self.kind[slot] = POLYGON
            self.polygons += 1
            self._outline(slot, placed_outline(shape).vertices, shape.polygon.vertices)
        else:
            self.kind[slot] = MASK

    def _outline(
        self,
        slot: int,
        vertices: tuple[tuple[float, float], ...],
        local: tuple[tuple[float, float], ...],
    ) -> None:
        """Write a polygon's outline into row ``slot``, in the world and about its
        anchor (the columns widened for more vertices than any before)."""
        n = len(vertices)
        if n > self.outline.shape[1]:
            for name in ("outline", "local"):
                old = getattr(self, name)
                wider = np.zeros((old.shape[0], n, 2))
                wider[:, : old.shape[1]] = old
                setattr(self, name, wider)
        self.outline[slot, :n] = vertices
        self.local[slot, :n] = local
        self.outline_n[slot] = n
        low, high = SWEEP_EXACT_RANGE
        self.outline_tame[slot] = all(
            c == 0.0 or low <= abs(c) <= high for vertex in vertices for c in vertex
        )

    def remove(self, item: Item) -> None:
        """Empty ``item``'s slot."""
        slot = self.slot.pop(item)
        self.version += 1
        if self._items_lent:
            self.items = list(self.items)
            self._items_lent = False
        self.items[slot] = EMPTY
        self.alive[slot] = False
        if self.kind[slot] == POLYGON:
            self.polygons -= 1
            self.kind[slot] = RECT
        self._live = None
        self._masks = None
        self.pending[slot] = False
        self._dead += 1
        if self._dead > 64 and self._dead > len(self.slot):
            self._compact()

    def changed(self) -> None:
        """A row was written other than by ``add``, ``place``, ``remove`` or
        ``mark_pending`` (which say so themselves): a velocity set, rows put back.
        ``World.step`` writes its moved rows without saying so: ``version`` counts the
        World's writes only, and a step whose last step saw the same ``version``
        knows that the rows of the bodies that could not move are as it left them
        (``world/step.py``)."""
        self.version += 1

    def mark_pending(self, slots: np.ndarray) -> None:
        """Rows ``slots`` were moved by compiled code (``box`` and ``origin`` written):
        their shape objects are made when next read."""
        self.version += 1
        if len(slots):
            self.pending[slots] = True
            self.pending_any = True

    def take_pending(self) -> np.ndarray:
        """The pending slots, in insertion order; none is pending afterwards."""
        slots = np.flatnonzero(self.pending[: len(self.items)])
        self.pending[slots] = False
        self.pending_any = False
        return slots

    def shapes_at(self, slots: np.ndarray, old: list[AnyShape]) -> list[AnyShape]:
        """The shapes the rows ``slots`` hold now, ``old`` their shapes before (a
        rectangle's size and a circle's radius are the old objects' own)."""
        origin = self.origin[slots].tolist()
        return [
            _new(type(shape), (x, y, *shape[2:])) for (x, y), shape in zip(origin, old, strict=True)
        ]

    def items_now(self) -> list[Item]:
        """The items by slot as they are now, a list that stays so (the table copies
        it before it next empties a slot; adding only appends): the step's contacts
        name their items from it when read, with no copy made every step."""
        self._items_lent = True
        return self.items

    def live(self) -> np.ndarray:
        """The slots in use, in insertion order: the same array until a slot is added
        or emptied (read it, never write into it; a step compares it with the last
        step's, and 60,000 slots found again took 30 us of every step)."""
        if self._live is None:
            self._live = np.flatnonzero(self.alive[: len(self.items)])
        return self._live

    def mask_slots(self) -> np.ndarray:
        """The slots in use that hold a pixel mask, in insertion order: the same array
        until a row is placed or emptied (a step asks for them every time: 5 us of a
        small world's step)."""
        if self._masks is None:
            found = np.flatnonzero(self.kind[: len(self.items)] == MASK)
            self._masks = found[self.alive[found]]
        return self._masks

    def _resize(self, size: int) -> None:
        for name in _COLUMNS:
            old = getattr(self, name)
            new = np.zeros((size, *old.shape[1:]), dtype=old.dtype)
            new[: min(size, old.shape[0])] = old[:size]
            setattr(self, name, new)

    def _compact(self) -> None:
        live = self.live()
        for name in _COLUMNS:
            column = getattr(self, name)
            column[: len(live)] = column[live]
        self.alive[:] = False
        self.alive[: len(live)] = True
        self._live = None
        self._masks = None
        self.items = [self.items[slot] for slot in live.tolist()]
        self._items_lent = False
        self.slot = {item: slot for slot, item in enumerate(self.items)}
        self._dead = 0

    def validate(self, shapes: dict[Item, AnyShape]) -> None:
        """Check the rows against the shapes; raise ``AssertionError`` if one differs."""
        if not np.array_equal(self.live(), np.flatnonzero(self.alive[: len(self.items)])):
            raise AssertionError("the item table's live slots are stale")
        found = np.flatnonzero(self.kind[: len(self.items)] == MASK)
        if not np.array_equal(self.mask_slots(), found[self.alive[found]]):
            raise AssertionError("the item table's mask slots are stale")
        if self.polygons != int(np.count_nonzero(self.kind[self.live()] == POLYGON)):
            raise AssertionError("the item table's count of polygons is stale")
        if [self.items[slot] for slot in self.live().tolist()] != list(shapes):
            raise AssertionError("the item table is out of order")
        for item, shape in shapes.items():
            slot = self.slot[item]
            row = (*self.box[slot].tolist(), *self.origin[slot].tolist())
            if row != (*bounds(shape), shape.x, shape.y):
                raise AssertionError(f"the item table has a stale row for {item!r}")
            if type(shape) is PlacedPolygon:
                n = int(self.outline_n[slot])
                if self.outline[slot, :n].tolist() != [list(v) for v in placed_outline(shape)]:
                    raise AssertionError(f"the item table has a stale outline for {item!r}")
                if self.local[slot, :n].tolist() != [list(v) for v in shape.polygon.vertices]:
                    raise AssertionError(f"the item table has a stale outline for {item!r}")
