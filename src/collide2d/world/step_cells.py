"""The cell grid of ``World.step``'s compiled core, sized in Python before the core
runs (``world/step.py``; the core's use of it is ``_kernels/step/step_grid.py``).

Cells start at twice the moving bodies' median extent (the cell of hard-disk codes is
a diameter; rectangles and circles of mixed sizes see fewer cells per body at twice),
grown while the region would need more than ``CELLS_PER_MOVER`` cells a moving body.
Then a cost model may grow them further, for bodies that move far in a step: a
body's edges cross about ``2 * (|vx| + |vy|) * dt / cell`` cell lines (its leading
edges' each a crossing event, with a gather of the cells it enters; its trailing
edges' dropped at the next, ``step_grid.trim``: the model still counts both, which
picked the same sizes as counting the leading edges alone in all three scenes of
``benchmarks/bench_step.py``), while every gather looks at about ``(cell +
its extent + the other's)**2 / area`` of each group it meets (moving bodies of a group
it ignores are never looked at, ``step_grid.lanes``). Bullets of 2 px that fly 200 px
a frame crossed 40 cells of 12 px each; at 192 px they cross two. The size chosen is
then taken three quarters (``SHRINK``; three fifths, ``DENSE_SHRINK``, where the moving
bodies fill seven tenths of the region or more) and rounded to a power of ``2 ** (1/4)``.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from collide2d._kernels import codes, lazy

sizing = lazy("step.step_sizing")

MAX_CELLS = 1 << 22
"""The grid never has more cells than this (nor more than a few per moving body)."""
CELLS_PER_MOVER = 8
"""The grid has at most this many cells per moving body: cells twice the bodies' size
over a sparse level (the swarm: 10,000 actors over a level of 4,000 x 20,000) need
eight; at four they grew to 88 px for 20 px actors and the core took 45% longer
(more candidates to gather and test, at the first predictions and at the end)."""
CROSSING_COST = 15.0
"""A cell crossing costs about as much as looking at this many candidates (measured on
the bullets scene: 0.56 us a crossing with its gather, against 20 to 40 ns a
candidate)."""
GATHERS = 3.0
"""Gathers a moving body makes in a step: its first predictions, one after an event,
the end-of-step check."""
DOUBLINGS = 8
"""The cost model tries the first cell size and up to this many doublings of it."""

SHRINK = 0.75
"""The size chosen above, times this. Once a body left a crowded cell in constant
time (``step_grid.unlink``) and its neighbours were fetched ahead, smaller cells
paid in all three scenes of ``benchmarks/bench_step.py`` (fewer candidates a gather,
more crossings); measured with two worlds in one process, a step of each in turn:
the gas's step -2 to -3 % (cells of 3.36 for disks of 2, not 4), the swarm's -1 to
-4 % (27 px, not 32), the bullets' -5 % (152 px, not 215). The grid keeps to
``MAX_CELLS``."""

DENSE = 0.7
"""Moving bodies are *dense* when there are ``DENSE_BODIES`` or more and their extents'
squares add up to this share of the region they sweep or more (a hard-disk gas at area
fraction 0.4: 0.49, at 0.5: 0.61, at 0.55: 0.67, at 0.6: 0.74; the swarm and the
bullets of ``benchmarks/bench_step.py``: under 0.05). A quarter until session 27,
when the 10,000-disk gas ran faster in the larger cells below this share (two worlds
in one process, a step of each in turn, 40 steps, best / median M events/s, cells of
2.38 against 3.36 for disks of 2): area fraction 0.3: 0.664 / 0.646 -> 0.729 / 0.712;
0.4: 0.770 / 0.709 -> 0.825 / 0.763; 0.5: 0.827 / 0.813 -> 0.845 / 0.826; 0.55:
0.861 / 0.842 -> 0.869 / 0.851; 0.6: 0.825 / 0.793 -> 0.827 / 0.776. Near this share
the two sizes cost the same."""
DENSE_BODIES = 64
"""Fewer moving bodies are never dense (a lone body fills the region it sweeps)."""
DENSE_SHRINK = 0.6
"""``SHRINK`` for dense moving bodies: each meets its neighbours again after each of
its contacts, so a gather's candidates count more than crossings. Measured in session
18 with worlds side by side in one process, a step of each in turn: the 10,000-disk
gas at area fraction 0.4, cells of 2.38 for disks of 2 instead of 3.36, 0.61-0.66 ->
0.66-0.71 M events/s (median and best of 60 steps), at 0.6: 0.58 -> 0.68; cells of 2.83
gave less (0.64 / 0.68), of 2.0 less again (0.62 / 0.65). The swarm, given it, was 6 %
slower, the bullets the same. Since then (covers trimmed lazily, gathers without a
branch) it pays only in denser gases (``DENSE``)."""

MARGIN = 1.0 / 256.0
"""A cover is the cells met by a body's bounds widened by this share of a cell (or by
``ROUNDING`` of the largest coordinate, if more, up to ``MARGIN_MOST``): two bodies
whose edges meet share a cell even where rounding moved an edge. A sixteenth until
session 18; covers of fewer cells since (worlds side by side in one process: the gas
0.72 -> 0.76 M events/s median, the swarm's and the bullets' steps 3 to 6 % shorter).
The cells and the margin decide which bodies meet as candidates, not when they meet: a
gas's steps are the same bit for bit either way; the end-of-step cleanup's nudges may
come out an ulp apart (the swarm: one body, at its 41st step)."""
ROUNDING = 1e-12
"""A relative size far above the rounding of a position (an ulp is 2.2e-16 of it)."""
MARGIN_MOST = 1.0 / 16.0
"""The widest margin, a share of a cell (the margin before session 18): coordinates so
large that ``ROUNDING`` of them is more, or infinite, widen covers no further."""

BLOCK = 8
"""The grid's corner and size are whole numbers of blocks of this many cells."""
STEPS_PER_OCTAVE = 4
"""Cell sizes are powers of ``2 ** (1 / 4)`` (at most a fifth larger than asked, or a
few percent smaller: ``_steady``)."""

Grid = tuple[float, float, float, float, int, int]


def grid(
    fb: np.ndarray,
    ib: np.ndarray,
    moving: np.ndarray,
    fixed: np.ndarray,
    responses: np.ndarray,
    dt: float,
    bounds: tuple[Any, ...] | None = None,
) -> tuple[Grid, int]:
    """The core's grid ``(ox, oy, cell, margin, cols, rows)`` over where the moving
    bodies go at their starting velocities, and the room its cell lists need.
    ``bounds`` is ``step_sizing.moving_bounds``' result if already known (the rows'
    pass wrote it, ``step_sizing.bounds_of_parts``)."""
    if len(moving) == 0:
        return (0.0, 0.0, 1.0, 1.0 / 16.0, 1, 1), 1
    if bounds is None:
        bounds = sizing.moving_bounds(fb, ib, moving, dt)
    x0, y0, x1, y1, extent, travel, left, top, right, bottom = bounds
    median = _median(extent)
    width, height = right - left, bottom - top  # (floats: inf or nan, no warning)
    if not (math.isfinite(width) and math.isfinite(height)):  # sweeps beyond floats
        left, top = float(x0.min()), float(y0.min())
        right, bottom = float(x1.max()), float(y1.max())
        width, height = right - left, bottom - top
    cell = 2.0 * float(median)
    limit = min(MAX_CELLS, max(64, CELLS_PER_MOVER * len(moving)))
    cell = max(cell, math.sqrt(width * height / limit), max(width, height) / limit)
    if not (cell > 0.0 and math.isfinite(cell)):
        cell = 1.0
    while (width / cell + 3) * (height / cell + 3) > limit:
        cell *= 2.0
    region = (left, top, right, bottom)
    with np.errstate(over="ignore", invalid="ignore"):  # (one context: 4 us each)
        crossings = 2.0 * float(np.add.reduce(travel))
        filled = float(np.add.reduce(extent * extent))
    cell = _cheapest(fb, ib, moving, fixed, responses, crossings, region, extent, cell)
    dense = len(moving) >= DENSE_BODIES and filled >= DENSE * width * height
    shrink = DENSE_SHRINK if dense else SHRINK
    if (width / (shrink * cell) + 3) * (height / (shrink * cell) + 3) <= MAX_CELLS:
        cell *= shrink
    cell = _steady(cell)
    # The grid's corner on a lattice of BLOCK cells and its size in BLOCK cells: the
    # same grid step after step while the bodies stay in it (step_scratch keeps the
    # fixed bodies' cell lists for as long as it lasts).
    span = BLOCK * cell
    ox = math.floor(left / span) * span - cell
    oy = math.floor(top / span) * span - cell
    cols = BLOCK * math.ceil((right - ox + cell) / span)
    rows = BLOCK * math.ceil((bottom - oy + cell) / span)
    reach = max(abs(left), abs(right), abs(top), abs(bottom))
    margin = min(max(cell * MARGIN, ROUNDING * reach), cell * MARGIN_MOST)
    room = int(sizing.cover_room(x0, y0, x1, y1, cell, margin, cols * rows))
    return (ox, oy, cell, margin, cols, rows), room


SMALL = 32
"""Below this many moving bodies the extents' median is taken in Python: numpy's
``np.median`` costs about 20 us a call whatever the size (a small world's step is a
few tens)."""


def _median(values: np.ndarray) -> float:
    """``np.median(values)``, the same float: the middle value, or the mean of the two
    middle ones (their sum halved, as numpy's mean of two), NaN if one is NaN.

    >>> _median(np.array([3.0, 1.0, 2.0, 10.0])), float(np.median([3.0, 1.0, 2.0, 10.0]))
    (2.5, 2.5)
    """
    if len(values) >= SMALL:
        return float(np.median(values))
    ordered = sorted(values.tolist())
    if any(map(math.isnan, ordered)):
        return math.nan
    half = len(ordered) // 2
    middle: float = ordered[half] if len(ordered) % 2 else (ordered[half - 1] + ordered[half]) / 2.0
    return middle


def _steady(cell: float) -> float:
    """``cell`` rounded to a power of ``2 ** (1 / STEPS_PER_OCTAVE)``: up, or down
    when it is within a few percent above one (sizes a hair above a power of two
    are common, and rounded up they went back and forth between two sizes): a size
    that stays the same while the bodies' spread changes a little."""
    if not (0.0 < cell < math.inf):
        return cell
    steady = 2.0 ** (math.ceil(math.log2(cell) * STEPS_PER_OCTAVE - 0.1) / STEPS_PER_OCTAVE)
    return steady if 0.0 < steady < math.inf else cell


def _cheapest(
    fb: np.ndarray,
    ib: np.ndarray,
    moving: np.ndarray,
    fixed: np.ndarray,
    responses: np.ndarray,
    crossings: float,
    region: tuple[float, float, float, float],
    extent: np.ndarray,
    cell: float,
) -> float:
    """The cell size, among ``cell`` and its doublings up to the region's size, of
    the least modelled cost (module docstring); ``cell`` when no body moves far.
    ``crossings`` is twice the sum of each moving body's ``(|vx| + |vy|) dt``."""
    if not math.isfinite(crossings) or crossings <= CROSSING_COST * len(moving) * cell * 0.1:
        return cell  # nobody goes far (or the model cannot say): the first size
    left, top, right, bottom = region
    area = max((right - left) * (bottom - top), 1e-300)
    groups = responses.shape[0]
    # Per group: moving bodies, their mean extent; fixed bodies in the region, with
    # the sums the expected overlap of covers needs.
    count, mean = sizing.group_means(ib, moving, extent, groups)
    fcount, fsides, fareas = sizing.fixed_sums(fb, ib, fixed, left, top, right, bottom, groups)
    return float(sizing.cheapest_size(
        responses != codes.IGNORE, count, mean, fcount, fsides, fareas, crossings, area,
        cell, max(right - left, bottom - top), DOUBLINGS, CROSSING_COST, GATHERS,
    ))  # fmt: skip
