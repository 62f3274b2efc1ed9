"""``World.step``'s per-pair ``filter``: answers for pairs, turned into the group table
the compiled core reads.

The core decides every pair by its two bodies' groups (``set_response``'s table).
A Python ``filter(a, b)`` answers for one pair. Before the core runs, it is asked
for each pair whose boxes, swept by their velocities over ``dt``, meet (touching
included): the pairs that can come into contact unless pushed. Where an answer
differs from the group table's, both bodies get a group of their own for the step,
their rows and columns copied from their groups' and the pair's entry set to the
answer. The core is unchanged and compiled once; the table grows by the bodies
whose answers differ (``k`` of them: ``(groups + k)**2`` entries), usually a few
(the actors under a one-way platform). A pair the filter was not asked about (a
body pushed further than its velocity takes it) has its groups' response.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from collide2d._kernels.codes import MASK, RESPONSES
from collide2d.batch import query_pairs
from collide2d.world.table import ItemTable

StepFilter = Callable[[Any, Any], Any]
"""``filter(a, b) -> "touch" | "slide" | "bounce" | "cross" | None``, ``a`` added first."""

CODES: dict[object, int] = {
    None: 0,
    False: 0,
    **{name: code for code, name in enumerate(RESPONSES)},
}
"""The core's response codes of a filter's answers (``_kernels.codes.RESPONSES``)."""


def swept_boxes(table: ItemTable, live: np.ndarray, dt: float) -> np.ndarray:
    """Each live body's box over the step, ``x, y, w, h``, grown by a few units in the
    last place of the largest coordinate so that touching boxes overlap."""
    box = table.box[live]
    moved = box[:, :2] + table.velocity[live] * dt
    low = np.minimum(box[:, :2], moved)
    high = np.maximum(box[:, :2], moved) + box[:, 2:]
    margin = 4.0 * np.spacing(max(np.abs(low).max(), np.abs(high).max()))
    low -= margin
    high += margin
    return np.hstack([low, high - low])


def filtered_table(
    table: ItemTable,
    live: np.ndarray,
    dt: float,
    filter: StepFilter,
    responses: np.ndarray,
    restitution: np.ndarray,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
    """``(group, responses, restitution, asked)``: the group column and tables the
    core runs with, and how many pairs the filter was asked about.

    Raises
    ------
    ValueError
        If the filter answers something else than a response name or None; nothing
        has changed then.
    """
    group = table.group
    if len(live) < 2:
        return group, responses, restitution, 0
    fixed = (table.kind[live] == MASK) | (
        np.isinf(table.mass[live]) & ~table.velocity[live].any(axis=1)
    )
    moving = np.flatnonzero(~fixed)
    boxes = swept_boxes(table, live, dt)
    # the moving bodies' boxes against all (two fixed bodies are never a pair)
    found = query_pairs(boxes, boxes[moving])
    pairs = np.column_stack([moving[found[:, 0]], found[:, 1]])
    pairs = np.sort(pairs[pairs[:, 0] != pairs[:, 1]], axis=1)
    pairs = np.unique(pairs, axis=0)  # two moving bodies were found twice
    if not len(pairs):
        return group, responses, restitution, 0
    slots = live[pairs]  # in insertion order: a added first
    items = table.items
    groups = table.group
    overrides: list[tuple[int, int, int]] = []
    for a, b in slots.tolist():
        answer = filter(items[a], items[b])
        try:
            code = CODES[answer]
        except (KeyError, TypeError):
            raise ValueError(
                f"filter({items[a]!r}, {items[b]!r}) must answer 'touch', 'slide', 'bounce',"
                f" 'cross', 'ignore' or None, got {answer!r}"
            ) from None
        if code != responses[groups[a], groups[b]]:
            overrides.append((a, b, code))
    if not overrides:
        return group, responses, restitution, len(slots)
    own = np.unique(np.array([(a, b) for a, b, _ in overrides]).ravel())
    count = len(responses)
    column = groups.copy()
    column[own] = count + np.arange(len(own))
    origin = np.concatenate([np.arange(count), groups[own]])
    codes = responses[np.ix_(origin, origin)]
    bounce = restitution[np.ix_(origin, origin)]
    for a, b, code in overrides:
        codes[column[a], column[b]] = code
        codes[column[b], column[a]] = code
    return column, codes, bounce, len(slots)
