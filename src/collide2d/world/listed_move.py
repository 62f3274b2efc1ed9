"""``World.move`` and ``check`` of one rectangle through the World's cell lists
(:mod:`collide2d.world.cell_lists`): the game's frame loop of single moves.

Two compiled calls a move: the search of the cells the move's region covers (the
region of :func:`collide2d.world.single_move.move_one`: the box spanned by the start
and the goal, padded), then, after the filter has answered for each item found,
``world_moves.move_rects`` over the item table's own rows, which writes the mover's
row and changes its cells. Between them the filter is called once for each item
whose box overlaps the region, in insertion order. The World's broadphase and shape
objects are brought up to date in Python (the new ``Rect``; the broadphase when next
read).

Where this route does not go, it says which does: :data:`ELSEWHERE` (polygons in the
World, a region over too many cells or far out: ``move_one`` decides) or
:data:`CHECK_LOOP` (a curve, a mask or a rounded far rectangle to respond to, a
response the kernel does not run, a start already overlapped: the World's Python
check loop). Either way nothing has changed.

The kernels compile in about 15 s on a machine that never ran them (numba's cache
then loads them in under a second). A script's first move should not wait that
long, so where they are not in the cache, :func:`ready` has them compiled by a
process of their own (``python -m collide2d.warmup "World.move"``: the warmup's task
of that name, :func:`load_kernels`) and answers :data:`ELSEWHERE` meanwhile:
``move_one`` moves the item, as fast as before the cell lists, with the same
answers. Once that process is done, the
next move loads them and takes this route from then on.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, Protocol

from collide2d._kernels import cache_guard, lazy
from collide2d._kernels.codes import IGNORE
from collide2d.geometry.rect import Rect
from collide2d.geometry.vec2 import Vec2
from collide2d.shapes import AnyShape
from collide2d.world.collision import Collision, Filter, Item, Movement
from collide2d.world.move_all import NORMALS, RESPONSE_NAMES

if TYPE_CHECKING:
    from collide2d.world.cell_lists import CellLists
    from collide2d.world.table import ItemTable


class Holder(Protocol):
    """What a single move reads and writes of its ``World`` (``world/world.py``, which
    imports this module)."""

    _table: ItemTable
    _cell_lists: CellLists
    _shape_dict: dict[Item, AnyShape]
    _stale: dict[Item, None]

    def _make_pending(self) -> None: ...


lists = lazy("moves.cell_lists")

READY_NOW = False
"""Compile the kernels at the first move that needs them, rather than in a process of
their own while the moves take the other route (:func:`ready`); the tests set it, so
that every move takes the same route."""

ELSEWHERE = 1
"""Returned where ``move_one`` decides (polygons, a region over many cells, far out)."""
CHECK_LOOP = 2
"""Returned where the World's Python check loop moves the item."""

_new = tuple.__new__
_NAMES = tuple(RESPONSE_NAMES.tolist())  # (a tuple indexes faster than numpy's arrays)
_NORMALS = tuple(NORMALS.tolist())


_state: dict[str, Any] = {"ready": False, "process": None, "search": None, "move": None}


def ready(world_class: Callable[[], Any]) -> bool:
    """Whether the cell lists' kernels can be called now: loaded, in numba's cache, or
    compiled by the process started at the first call that found them missing (see
    the module docstring). Loads them when they can be (with ``world_class``'s
    moves)."""
    if _state["ready"]:
        return True
    process = _state["process"]
    if (
        not READY_NOW
        and process is None
        and not all(
            cache_guard.cached(kernel) for kernel in (lists.search, lists.move, lists.build)
        )
    ):
        _state["process"] = _start()
        if _state["process"] is not False:
            return False
    elif process and process.poll() is None:
        return False
    load_kernels(world_class)  # loaded now (or compiled, if that process failed)
    return True


def _start() -> Any:
    """The process that compiles the kernels into numba's cache (``collide2d warmup
    World.move``'s task), or False where none can be started."""
    try:
        return subprocess.Popen(
            [sys.executable, "-m", "collide2d.warmup", "World.move"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
    except OSError:
        return False


def load_kernels(world_class: Callable[[], Any]) -> None:
    """Compile the cell lists' kernels, or load them from numba's cache, with a few
    single moves of a small ``world_class`` (``World``; the warmup's ``World.move``
    task); the lists' route is open from then on."""
    _state.update(ready=True, search=lists.search, move=lists.move)  # (the moves below)
    world = world_class()
    for k in range(8):
        world.add(("tile", k), Rect(16.0 * k, 32.0, 16.0, 16.0))
    world.add("actor", Rect(4.0, 0.0, 12.0, 20.0))
    # single moves through the cell lists, and the lists kept by the other changes
    world.move("actor", (20.0, 40.0))
    world.move("actor", (20.0, 8.0))
    world.check("actor", (60.0, 20.0), lambda item, other: "touch")
    world.update("actor", (4.0, 0.0))
    world.add("spare", Rect(500.0, 0.0, 1.0, 1.0))
    world.remove("spare")
    _state["search"], _state["move"] = _entry(lists.search), _entry(lists.move)


def _entry(dispatcher: Any) -> Any:
    """The compiled entry point of a kernel compiled for one set of argument types
    (numba's dispatcher spends about a third of a small call choosing among its
    overloads), else the dispatcher itself."""
    try:
        (signature,) = dispatcher.signatures
        return dispatcher.overloads[signature].entry_point
    except (AttributeError, KeyError, TypeError, ValueError):  # several, or numba changed
        return dispatcher


def move_listed(
    world: Holder, item: Item, shape: Rect, goal: Vec2, filter: Filter, codes: Mapping[str, int],
    place: bool,
) -> tuple[Movement, int, int] | int:  # fmt: skip
    """``world.check(item, goal, filter)`` of the rectangle ``shape`` (and the item
    placed where it ends, when ``place``): the movement and the counts for
    ``World.stats`` (the tests: items the move was tested against; the visits: items
    the search looked at), or where else to go (:data:`ELSEWHERE`,
    :data:`CHECK_LOOP`). ``codes`` are the responses the kernel may run."""
    table = world._table
    if table.polygons or not (_state["ready"] or ready(type(world))):
        return ELSEWHERE
    if table.pending_any:  # rows the compiled moves wrote: their shapes made first
        world._make_pending()
    shapes = world._shape_dict
    kept = world._cell_lists
    if kept.version != table.version or kept.box is not table.box:
        kept.ready(table)
    slot = table.slot[item]
    gx, gy = goal
    search = _state["search"]
    status, k, met, epoch = search(table.box, table.kind, table.origin, slot, gx, gy, place,
                                   kept.cell, kept.ints, kept.floats)  # fmt: skip
    if status == lists.WIDE or status == lists.FAR:
        return ELSEWHERE
    if k > kept.candidates:  # more than the scratch holds: larger, and again
        kept.ready(table, k)
        status, k, met, epoch = search(table.box, table.kind, table.origin, slot, gx, gy, place,
                                       kept.cell, kept.ints, kept.floats)  # fmt: skip
    if not k:  # nothing on the way: at the goal (and placed there, when placing)
        if place:
            _placed(world, table, kept, status, item, gx, gy, shape)
        return _new(Movement, (goal, [])), 0, met
    items = table.items
    answers = 0  # three bits a candidate (up to 21; past them, in the array)
    codes_found: list[int] = []
    tests = 0
    version = table.version
    for i, found in enumerate(kept.found[:k].tolist()):
        response = filter(item, items[found >> 1])
        if not response:
            codes_found.append(IGNORE)  # (IGNORE is 0: no bits)
            continue
        code = codes.get(response) if isinstance(response, str) else None
        if code is None or found & 1:
            return CHECK_LOOP
        tests += 1
        answers |= code << (3 * i)
        codes_found.append(code)
    if table.version != version:  # the filter changed the World: the check loop
        return CHECK_LOOP
    if k > 21:
        kept.cands[:k, 1] = codes_found
        answers = -1
    status, end, listed, px, py = _state["move"](
        table.box, table.kind, table.origin, slot, gx, gy, k, answers, epoch, place, kept.cell,
        kept.ints, kept.floats,
    )  # fmt: skip
    if status != lists.DONE:
        return CHECK_LOOP
    _, _, w, h = shape
    if place:
        _placed(world, table, kept, listed, item, px, py, shape)
    if not end:
        return _new(Movement, (_new(Vec2, (px, py)), [])), tests, met
    return (
        _movement(item, kept.packed[:end].tolist(), table.items, shapes, px, py, w, h),
        tests,
        met,
    )


def _placed(
    world: Holder, table: ItemTable, kept: CellLists, listed: int, item: Item, x: float,
    y: float, shape: Rect,
) -> None:  # fmt: skip
    """What the World keeps besides the row the kernel wrote, for ``item`` now at
    ``x, y``; ``listed`` the lists' status after the change."""
    table.version += 1
    kept.version = table.version if listed == lists.OK else -1
    world._shape_dict[item] = _new(Rect, (x, y, shape[2], shape[3]))
    world._stale[item] = None  # the broadphase learns of it when next read


def _movement(
    item: Item, packed: list[list[float]], items: list[Item], shapes: Mapping[Item, AnyShape],
    px: float, py: float, w: float, h: float,
) -> Movement:  # fmt: skip
    """The movement to ``px, py`` with the collision rows ``packed`` (the kernel's
    ``move``), ``items[slot]`` the item of a slot."""
    new, vec2, names, normals = _new, Vec2, _NAMES, _NORMALS  # (locals: a frame's hot loop)
    collisions = []
    for o, r, f, nx, ny, tx, ty, dx, dy, lx, ly, started, sx, sy in packed:
        other = items[int(o)]
        collisions.append(new(Collision, (
            item, other, names[int(r)], f,
            normals[int(3 * nx + ny + 4)] if nx == 0.0 or ny == 0.0 else new(vec2, (nx, ny)),
            new(vec2, (tx, ty)), new(vec2, (dx, dy)), new(Rect, (lx, ly, w, h)), shapes[other],
            started != 0.0, None if sx != sx else new(vec2, (sx, sy)), None,
        )))  # fmt: skip
    return new(Movement, (new(vec2, (px, py)), collisions))
