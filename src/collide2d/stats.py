"""What a query cost: the one statistics record of every structure and batch call."""

from __future__ import annotations

from dataclasses import dataclass

from collide2d import _deprecation


@dataclass
class Stats:
    """What the last query, and all queries so far, cost.

    Every broadphase and mask quadtree keeps one in its ``stats`` attribute; batch
    functions fill in one given as ``stats=Stats()``. A "test" is an exact shape
    test (``overlaps``, a sweep or a ray cast of two shapes, a pair of quadtree
    leaves); a "visit" is an element of the structure looked at (a tree node or
    node pair, a grid cell, a strip, a list entry).

    The fields are listed below.

    Examples
    --------
    >>> from collide2d import overlapping_pairs
    >>> stats = Stats()
    >>> pairs = overlapping_pairs([[0, 0, 2, 2], [1, 1, 2, 2], [9, 9, 1, 1]], stats=stats)
    >>> stats.method, stats.tests, stats.brute_force_tests
    ('brute_force', 3, 3)
    """

    method: str = ""
    """The algorithm that ran (for batch calls, what ``"auto"`` chose)."""
    tests: int = 0
    """Exact tests of the last query."""
    visits: int = 0
    """Visits of the last query."""
    brute_force_tests: int = 0
    """The tests brute force would have made for the last query (``n (n - 1) / 2``
    for pairs, ``n * m`` for ``m`` queries); 0 where not known."""
    total_tests: int = 0
    """Exact tests over every query so far."""
    total_visits: int = 0
    """Visits over every query so far."""
    queries: int = 0
    """Queries (including ``pairs``) so far."""

    def begin(self, method: str = "", brute_force_tests: int = 0) -> None:
        """Start counting a new query."""
        if method:
            self.method = method
        self.tests = 0
        self.visits = 0
        self.brute_force_tests = brute_force_tests
        self.queries += 1

    def count(self, tests: int = 0, visits: int = 0) -> None:
        """Add to both the last query and the totals."""
        self.tests += tests
        self.visits += visits
        self.total_tests += tests
        self.total_visits += visits

    @property
    def ratio(self) -> float:
        """How many times fewer tests than brute force the last query made (``inf`` if
        it made none, ``nan`` if the brute-force count is not known)."""
        if self.brute_force_tests == 0:
            return float("nan")
        if self.tests == 0:
            return float("inf")
        return self.brute_force_tests / self.tests

    @property
    def last_tests(self) -> int:
        """Deprecated: ``tests``."""
        _deprecation.warn("Stats.last_tests", "Stats.tests", stacklevel=3)
        return self.tests

    @property
    def last_visits(self) -> int:
        """Deprecated: ``visits``."""
        _deprecation.warn("Stats.last_visits", "Stats.visits", stacklevel=3)
        return self.visits


def check_stats(stats: object) -> Stats | None:
    """``stats`` if it is a :class:`Stats` or None; otherwise a ``TypeError`` naming it."""
    if stats is None or isinstance(stats, Stats):
        return stats
    raise TypeError(f"stats must be a collide2d.Stats or None, got {stats!r}")
