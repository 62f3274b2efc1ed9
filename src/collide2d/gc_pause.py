"""Pausing Python's cyclic garbage collector while a call builds many records.

A frame of ``move_all`` or a ``World.step`` makes thousands of new tuples (shapes,
contacts, collisions) that hold no reference cycles. Each few hundred allocations
would start a collection of the youngest generation, every tenth of those an older
one, and now and then one over every object of the process: with a world of 60,000
items that last one costs 70 to 100 ms, a step's worth. Paused for the call, the
collector runs once afterwards over the new objects only.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def collector_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector, if it runs, for the block.

    >>> import gc
    >>> with collector_paused():
    ...     gc.isenabled()
    False
    """
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            gc.enable()
