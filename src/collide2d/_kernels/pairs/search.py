"""Searching arrays of closed bounds for overlapping pairs: the one engine behind the
batch API and :class:`collide2d.SortAndSweep`.

Input is already checked by the caller: ``box`` is a C-contiguous float64 ``(N, 4)``
array of rows ``lo_x, lo_y, hi_x, hi_y`` and ``method`` a valid name. Each search
builds what its method needs, allocates the output (growing it if a kernel reports
more rows than fit), calls the kernel and returns the rows with the counters
``(exact tests, visits)`` and the method that ran.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from collide2d._kernels import lazy
from collide2d._kernels.pairs.strip_layout import build_strips
from collide2d._threads import THREADS as MACHINE_THREADS
from collide2d._threads import in_parts
from collide2d._typing import FloatArray, IndexArray

pairs = lazy("pairs.pairs")
strips = lazy("pairs.strips")

PAIR_METHODS = ("auto", "strips", "sort_and_sweep", "brute_force")
QUERY_METHODS = ("auto", "strips", "brute_force")


def widen_outward(box: FloatArray) -> None:
    """Move each edge of the closed bounds ``box`` (rows ``lo_x, lo_y, hi_x, hi_y``,
    in place) one unit in the last place outward. A circle's bounds are searched so:
    where its radius is below the spacing of its centre (1 at 1e150), or at 1e308,
    ``x - r`` and ``x + r`` collapse to a segment, which the searches treat as a
    point, and the circle's pairs would be missed. Candidates only: each pair is then
    decided by the circles themselves."""
    with np.errstate(over="ignore"):
        box[:, :2] = np.nextafter(box[:, :2], -np.inf)
        box[:, 2:] = np.nextafter(box[:, 2:], np.inf)


THREADS = MACHINE_THREADS
"""Threads that share a large ``strips`` search (the kernels release the GIL)."""
PARALLEL_MIN_ITEMS = 100_000
"""Below this many items one thread is faster than starting a second."""
BRUTE_FORCE_BELOW = 48
"""``auto`` tests all pairs below this many items (cheaper than building anything)."""


def find_pairs(
    box: FloatArray, circles: FloatArray, mode: int, method: str
) -> tuple[IndexArray, IndexArray, str]:
    """Every overlapping pair ``(i, j)``, ``i < j``, sorted; the counters; the method used.

    ``mode`` 0 tests the boxes, ``mode`` 1 the circles ``circles`` (rows ``x, y, r``)
    whose bounds the boxes are. ``method`` is one of ``PAIR_METHODS``.
    """
    n = box.shape[0]
    if method == "auto":
        method = "brute_force" if n < BRUTE_FORCE_BELOW else "strips"
    if method == "strips" and n and not finite_span(box):
        method = "sort_and_sweep"  # coordinates so far apart that differences overflow
    parts = THREADS if method == "strips" and n >= PARALLEL_MIN_ITEMS else 1
    if method == "strips":
        built = build_strips(box)
        ordered = circles[built.e_item] if mode == 1 else circles

        def run(out: IndexArray, counters: IndexArray, part: int) -> int:
            return int(strips.strip_pairs(*built, ordered, mode, out, counters, part, parts))

    elif method == "sort_and_sweep":
        order = sweep_order(box)

        def run(out: IndexArray, counters: IndexArray, part: int) -> int:
            return int(pairs.sort_and_sweep_pairs(order, box, circles, mode, out, counters))

    else:

        def run(out: IndexArray, counters: IndexArray, part: int) -> int:
            return int(pairs.brute_force_pairs(box, circles, mode, out, counters))

    found, counters = run_parts(run, parts, 4 * n // parts + 64)
    return sorted_pairs(found, n), counters, method


def sorted_pairs(found: IndexArray, n: int) -> IndexArray:
    """``found`` (rows ``i < j < n``) sorted lexicographically, by numpy's sort of
    the keys ``i * n + j`` (five times faster than the compiled counting sort it
    replaces, and nothing to compile: half a second of the first call)."""
    if not found.shape[0]:
        return np.empty((0, 2), dtype=np.intp)
    if n > (2**62) // n:  # keys would overflow: sort the rows themselves
        result: IndexArray = found[np.lexsort((found[:, 1], found[:, 0]))]
        return result
    keys = found[:, 0].astype(np.int64) * n + found[:, 1]
    keys.sort()
    out = np.empty(found.shape, dtype=np.intp)
    np.divmod(keys, n, out=(out[:, 0], out[:, 1]))
    return out


def sweep_order(box: FloatArray) -> IndexArray:
    """The items sorted by left edge: the order sort and sweep walks (Ericson 7.5.2)."""
    order: IndexArray = np.argsort(box[:, 0], kind="stable")
    return order


def match_sorted(old: IndexArray, new: IndexArray) -> IndexArray:
    """For each value of the increasing ``new``, its index in the increasing ``old``,
    or -1 where ``old`` does not hold it (one merge)."""
    result: IndexArray = pairs.match_sorted(old, new)
    return result


def find_query_pairs(
    box: FloatArray, query: FloatArray, method: str
) -> tuple[IndexArray, IndexArray, str]:
    """Rows ``(q, i)`` where query row ``q`` overlaps box ``i`` strictly, sorted; the
    counters; the method used. ``method`` is one of ``QUERY_METHODS``."""
    n = box.shape[0]
    if method == "auto":
        method = "strips"
    if method == "strips" and n and not finite_span(box):
        method = "brute_force"
    if method == "strips":
        built = build_strips(box)

        def run(out: IndexArray, counters: IndexArray, part: int) -> int:
            return int(strips.strip_query_pairs(query, *built, out, counters))

    else:

        def run(out: IndexArray, counters: IndexArray, part: int) -> int:
            return int(strips.brute_force_query_pairs(query, box, out, counters))

    found, counters = run_parts(run, 1, 4 * max(n, query.shape[0]) + 64)
    return found.copy(), counters, method


def finite_span(box: FloatArray) -> bool:
    """Whether differences of the bounds' coordinates stay finite (no overflow)."""
    return math.isfinite(float(box[:, 2].max()) - float(box[:, 0].min())) and math.isfinite(
        float(box[:, 3].max()) - float(box[:, 1].min())
    )


def run_parts(
    run: Callable[[IndexArray, IndexArray, int], int], parts: int, capacity: int
) -> tuple[IndexArray, IndexArray]:
    """Call ``run(out, counters, part)`` for each part (in threads if several), growing
    a part's output buffer and calling it again if it was too small.

    Returns the rows found by all parts, concatenated, and the summed counters.
    """

    def one(part: int) -> tuple[IndexArray, IndexArray]:
        counters = np.zeros(2, dtype=np.int64)
        out = np.empty((capacity, 2), dtype=np.intp)
        found = run(out, counters, part)
        if found > capacity:  # the buffer was too small: run again with the exact size
            counters[:] = 0
            out = np.empty((found, 2), dtype=np.intp)
            found = run(out, counters, part)
        return out[:found], counters

    if parts == 1:
        return one(0)
    results = in_parts(lambda part, _, __: one(part), parts, parts)
    rows = np.concatenate([rows for rows, _ in results])
    return rows, sum((counters for _, counters in results), np.zeros(2, dtype=np.int64))
