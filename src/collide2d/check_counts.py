"""The check-count table: how many exact checks each broadphase makes, against brute force."""

from __future__ import annotations

from collections.abc import Sequence

from collide2d.batch import overlapping_circle_pairs
from collide2d.broadphase import Quadtree, SortAndSweep, SortedStrips, UniformGrid
from collide2d.geometry.circle import Circle
from collide2d.geometry.rect import Rect
from collide2d.scenes import moving_bodies
from collide2d.stats import Stats

SIZES = (10, 50, 100, 166, 500, 1000, 2000)
ARENA = Rect(0, 0, 960, 640)


def check_count_rows(sizes: Sequence[int] = SIZES) -> list[list[str]]:
    """For balls scattered in a 960 x 640 window (radius 4 to 12, as in the ``balls``
    demo): objects, brute-force checks, and the checks each broadphase makes
    finding every overlapping pair from scratch, with the ratio.

    Examples
    --------
    >>> rows = check_count_rows([166])
    >>> rows[0][0], rows[0][1]
    ('166', '13,695')
    """
    rows = []
    for n in sizes:
        pos, _, sizes_ = moving_bodies(n, ARENA.w, ARENA.h, seed=7, size=8.0)
        circles = [Circle(x, y, r) for (x, y), r in zip(pos.tolist(), sizes_.tolist(), strict=True)]
        brute = n * (n - 1) // 2
        row = [f"{n:,}", f"{brute:,}"]
        structures = (
            Quadtree(ARENA, capacity=4, max_depth=8),
            UniformGrid(48),
            SortAndSweep(),
            SortedStrips(),
        )
        for index in structures:
            for key, circle in enumerate(circles):
                index.add(key, circle)
            index.pairs()
            made = index.stats.tests
            row.append(f"{made:,} ({brute / made:.0f}x)" if made else "0")
        stats = Stats()
        array = [[c.x, c.y, c.r] for c in circles]
        overlapping_circle_pairs(array, stats=stats)
        row.append(f"{stats.tests:,} ({brute / stats.tests:.0f}x)" if stats.tests else "0")
        rows.append(row)
    return rows


HEADER = [
    "objects",
    "brute-force checks",
    "Quadtree(cap 4)",
    "UniformGrid(48)",
    "SortAndSweep",
    "SortedStrips",
    "overlapping_circle_pairs",
]


def check_count_table(sizes: Sequence[int] = SIZES) -> str:
    """:func:`check_count_rows` as a markdown table."""
    lines = ["| " + " | ".join(HEADER) + " |", "|" + "---|" * len(HEADER)]
    lines += ["| " + " | ".join(row) + " |" for row in check_count_rows(sizes)]
    return "\n".join(lines)
