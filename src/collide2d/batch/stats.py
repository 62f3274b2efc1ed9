"""What a batch call cost."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class BatchStats:
    """Filled in by a batch call given ``stats=BatchStats()``.

    Attributes
    ----------
    method : str
        The method that ran (what ``"auto"`` chose).
    tests : int
        Exact pair tests performed.
    visits : int
        Grid cells (or list entries) visited.
    brute_force_tests : int
        The tests brute force would make: ``n (n - 1) / 2`` for pairs, ``n * m``
        for queries.
    """

    method: str = ""
    tests: int = 0
    visits: int = 0
    brute_force_tests: int = 0

    @property
    def ratio(self) -> float:
        """How many times fewer tests than brute force (``inf`` if none were made)."""
        if self.tests == 0:
            return float("inf")
        return self.brute_force_tests / self.tests
