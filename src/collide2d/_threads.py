"""The threads that share a call's work: one pool for the process, kept between calls.

A call cut into parts runs the first in the calling thread and the others in the
pool's threads, the compiled kernels releasing the GIL (``World.step``'s first
predictions, the pair search's strips, the batch polygons' tests). Starting two
threads for each call cost about 0.3 ms, a tenth of a small search.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

T = TypeVar("T")

THREADS = min(2, os.cpu_count() or 1)
"""The threads a call's parts share: the machine's cores, at most two (the only
count measured, on a two-core machine)."""

_pool: tuple[int, ThreadPoolExecutor] | None = None
"""The pool and the process it was made in (a forked child makes its own: the
parent's pool has no thread there, and would wait for ever)."""


def part_starts(n: int, parts: int) -> list[int]:
    """Where each of :func:`in_parts`' ``parts`` ranges of ``range(n)`` starts.

    >>> part_starts(10, 2)
    [0, 5]
    """
    return [n * p // parts for p in range(parts)]  # (np.linspace: 25 us a call)


def in_parts(run: Callable[[int, int, int], T], n: int, parts: int) -> list[T]:
    """``run(part, start, stop)`` for ``parts`` consecutive ranges of ``range(n)``,
    the first in this thread and the others in the pool's; their results in order.
    ``run`` must not itself call this (the pool's threads could all be waiting).

    >>> in_parts(lambda p, a, b: (p, a, b), 10, 2)
    [(0, 0, 5), (1, 5, 10)]
    """
    cuts = part_starts(n, parts) + [n]
    if parts == 1:
        return [run(0, 0, n)]
    others = [pool().submit(run, p, cuts[p], cuts[p + 1]) for p in range(1, parts)]
    return [run(0, cuts[0], cuts[1])] + [future.result() for future in others]


def pool() -> ThreadPoolExecutor:
    """The process's pool (``THREADS - 1`` threads, at least one), made when first
    asked for in this process."""
    global _pool
    if _pool is None or _pool[0] != os.getpid():
        workers = max(THREADS - 1, 1)
        _pool = (os.getpid(), ThreadPoolExecutor(workers, thread_name_prefix="collide2d"))
    return _pool[1]
