"""The records ``World.step`` returns: a ``Contact``, ``StepStats``, a ``StepResult``,
and the contacts as columns, ``ContactArrays``."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np

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
        circle's centre. For the normal as one body sees it, whichever it is, use
        :meth:`normal_for`.
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

    def normal_for(self, item: Item) -> Vec2:
        """The normal as ``item`` sees it: from the other body toward ``item``.

        The convention of :attr:`Collision.normal <collide2d.Collision.normal>` (from
        what was met toward the mover): a body that lands on a floor gets ``(0, -1)``
        whether it was added before the floor or after.

        Parameters
        ----------
        item : hashable
            ``a`` or ``b``.

        Returns
        -------
        Vec2
            ``normal`` for ``a``, ``-normal`` for ``b``.

        Raises
        ------
        ValueError
            If ``item`` is neither of the two.

        Examples
        --------
        >>> from collide2d import Rect, World
        >>> world = World()
        >>> world.add("floor", Rect(0, 10, 50, 5), mass=float("inf"))
        'floor'
        >>> world.add("player", Rect(0, 0, 4, 4), velocity=(0, 10))
        'player'
        >>> contact = world.step(dt=1.0).contacts[0]
        >>> contact.normal_for("player"), contact.normal_for("floor")
        (Vec2(x=0.0, y=-1.0), Vec2(x=0.0, y=1.0))
        """
        if item == self.a:
            return self.normal
        if item == self.b:
            return Vec2(0.0 - self.normal.x, 0.0 - self.normal.y)  # no -0.0
        raise ValueError(f"item must be {self.a!r} or {self.b!r} of this contact, got {item!r}")

    def other(self, item: Item) -> Item:
        """The body ``item`` met: ``b`` for ``a``, ``a`` for ``b``.

        Raises
        ------
        ValueError
            If ``item`` is neither of the two.

        Examples
        --------
        >>> from collide2d import Rect, World
        >>> world = World()
        >>> world.add("floor", Rect(0, 10, 50, 5), mass=float("inf"))
        'floor'
        >>> world.add("player", Rect(0, 0, 4, 4), velocity=(0, 10))
        'player'
        >>> world.step(dt=1.0).contacts[0].other("player")
        'floor'
        """
        if item == self.a:
            return self.b
        if item == self.b:
            return self.a
        raise ValueError(f"item must be {self.a!r} or {self.b!r} of this contact, got {item!r}")


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
    cell_size : float
        The side of the square cells the core sorted the bodies into (0 when the
        step had no body to move): cell lines start at ``grid_origin`` and repeat
        every ``cell_size`` (the ``gas`` demo draws them).
    grid_origin : tuple of float
        The top-left corner of the core's first cell.
    put_back : int
        Bodies the end's cleanup could not take apart by nudges (a jam, its bodies
        capped at one moment) and put back where the step began, with the
        velocities the step left them (carried as far as a kinematic body that
        would overlap them there moved), so that no stopping pair ends the step
        overlapping; a body put back twice counts twice (``docs/step.md``,
        "Piles, and the last resort").
    """

    events: int = 0
    stale: int = 0
    predictions: int = 0
    crossings: int = 0
    capped: int = 0
    nudged: int = 0
    seconds: float = 0.0
    cell_size: float = 0.0
    grid_origin: tuple[float, float] = (0.0, 0.0)
    put_back: int = 0


@dataclass(frozen=True, eq=False)
class ContactArrays:
    """A step's contacts as columns (:attr:`StepResult.contact_arrays`): row ``k`` is
    the fields of ``contacts[k]``, in the same order.

    Thousands of ``Contact`` records a frame cost their making and, after, a pass of
    Python's garbage collector over them (each a tuple with two ``Vec2``, objects the
    collector tracks), which lands in whatever runs next: the columns make two lists
    and a few arrays.

    Attributes
    ----------
    time : numpy.ndarray, shape (k,)
        ``Contact.time``.
    a, b : list
        ``Contact.a`` and ``Contact.b``.
    normal : numpy.ndarray, shape (k, 2)
        ``Contact.normal``.
    point : numpy.ndarray, shape (k, 2)
        ``Contact.point``.
    response : numpy.ndarray, shape (k,), object
        ``Contact.response``, the names.
    started_overlapping : numpy.ndarray, shape (k,), bool
        ``Contact.started_overlapping``.

    Examples
    --------
    >>> from collide2d import Circle, Rect, World
    >>> world = World()
    >>> world.set_response("default", "default", "bounce")
    >>> world.add("floor", Rect(-10, 5, 20, 1), mass=float("inf"))
    'floor'
    >>> world.add("ball", Circle(0, 0, 1), velocity=(0, 2))
    'ball'
    >>> found = world.step(dt=4.0).contact_arrays
    >>> found.time.tolist(), found.b, found.normal.tolist(), found.response.tolist()
    ([2.0], ['ball'], [[0.0, 1.0]], ['bounce'])
    """

    time: np.ndarray
    a: list[Item]
    b: list[Item]
    normal: np.ndarray
    point: np.ndarray
    response: np.ndarray
    started_overlapping: np.ndarray

    def __len__(self) -> int:
        return len(self.a)

    @classmethod
    def of(cls, contacts: list[Contact]) -> ContactArrays:
        """The columns of a list of contacts."""
        k = len(contacts)
        return cls(
            np.array([c.time for c in contacts], dtype=np.float64).reshape(k),
            [c.a for c in contacts],
            [c.b for c in contacts],
            np.array([tuple(c.normal) for c in contacts], dtype=np.float64).reshape(k, 2),
            np.array([tuple(c.point) for c in contacts], dtype=np.float64).reshape(k, 2),
            np.array([c.response for c in contacts], dtype=object).reshape(k),
            np.array([c.started_overlapping for c in contacts], dtype=np.bool_).reshape(k),
        )


class StepResult:
    """What :meth:`World.step <collide2d.World.step>` returns: the contacts in time
    order, and the core's counts. Unpacks as ``contacts, stats``.

    The ``Contact`` records are made when ``contacts`` is first read (a simulation
    that only reads positions never pays for thousands of them); the items they
    name are those of the step, whatever the world did since.

    Attributes
    ----------
    stats : StepStats
        The core's counts for the step (events, predictions, capped bodies...).
    overlaps : list of (item, item)
        The stopping pairs (``slide``, ``touch``, ``bounce``) that end the step
        overlapping, each ``(a, b)`` with ``a`` added first, in insertion order. Empty
        whenever the step keeps its promise; a pair is listed when something the step
        cannot move drove a body into something it could not leave (a lift pressing
        a box into a ceiling), or a jam the step gave up on was left so. Two bodies of
        infinite mass pass as ``cross`` and are never listed.
    crushed : list of item
        The bodies of finite mass in ``overlaps`` (not masks: they are fixed terrain in
        a step), each once, in insertion order: the bodies a kinematic or pushed body
        drove into something they could not leave. The next step pushes each out
        first, by the World's shortest push (``docs/step.md``).

    Examples
    --------
    >>> from collide2d import Rect, World
    >>> world = World()
    >>> world.add("wall", Rect(10, 0, 1, 10), mass=float("inf"))
    'wall'
    >>> world.add("box", Rect(0, 0, 2, 2), velocity=(4, 0))
    'box'
    >>> contacts, stats = world.step(dt=3.0)
    >>> [(c.time, c.b, c.response) for c in contacts], stats.events
    ([(2.0, 'box', 'slide')], 1)
    """

    __slots__ = (
        "_arrays", "_contacts", "_make_arrays", "_make_contacts", "crushed", "overlaps", "stats"
    )  # fmt: skip

    def __init__(
        self,
        contacts: list[Contact] | None = None,
        stats: StepStats = StepStats(),  # noqa: B008 (an immutable default)
        *,
        make_contacts: Callable[[], list[Contact]] | None = None,
        make_arrays: Callable[[], ContactArrays] | None = None,
        overlaps: list[tuple[Item, Item]] | None = None,
        crushed: list[Item] | None = None,
    ) -> None:
        self._contacts = contacts
        self._make_contacts = make_contacts  # builds the list when it is first read
        self._arrays: ContactArrays | None = None
        self._make_arrays = make_arrays  # builds the columns when first read
        self.stats = stats
        self.overlaps = [] if overlaps is None else overlaps
        self.crushed = [] if crushed is None else crushed

    @property
    def contact_arrays(self) -> ContactArrays:
        """The contacts as columns (:class:`ContactArrays`), made when first read,
        without making the ``Contact`` records."""
        if self._arrays is None:
            make = self._make_arrays
            self._arrays = make() if make is not None else ContactArrays.of(self.contacts)
            self._make_arrays = None
        return self._arrays

    @property
    def contacts(self) -> list[Contact]:
        """The contacts, in time order."""
        if self._contacts is None:
            make = self._make_contacts
            self._contacts = make() if make is not None else []
            self._make_contacts = None
        return self._contacts

    def __iter__(self) -> Iterator[Any]:
        return iter((self.contacts, self.stats))

    def __len__(self) -> int:
        return 2

    def __getitem__(self, index: int) -> Any:
        return (self.contacts, self.stats)[index]

    def __eq__(self, other: object) -> bool:
        if isinstance(other, StepResult):
            return (self.contacts, self.stats, self.overlaps, self.crushed) == (
                other.contacts, other.stats, other.overlaps, other.crushed
            )  # fmt: skip
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"StepResult(contacts=<{len(self.contacts)} contacts>, stats={self.stats!r})"
