"""What the ``balls`` and ``rects`` demos share: the broadphase switch, the drawing
of cells and tree nodes, and the check-count lines of the HUD."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable

import numpy as np
import pygame

from collide2d import BruteForce, Quadtree, Rect, SortAndSweep, SortedStrips, UniformGrid
from collide2d.broadphase import Broadphase
from collide2d.broadphase.protocol import Key
from collide2d.geometry import Shape

CELL = (70, 90, 120)
"""Grid cells and tree leaves are outlined in this colour (the smoke tests look for it)."""
HIT = (255, 80, 80)
"""Shapes that overlap another are drawn in this colour."""
IDLE = (90, 200, 140)
BRUTE_FORCE_CAP = 400
"""Brute force tests at most this many shapes (80,000 pairs, in Python): more would
take seconds a frame and the keys would stop answering."""
ROWS = 24
"""Rows of the band in which sort and sweep's x-intervals are drawn."""
BAND_CLEARANCE = 80
"""How far above the scene's foot the band ends: the help panel covers the foot."""

KINDS: dict[str, Callable[[Rect], Broadphase]] = {
    "quadtree": lambda bounds: Quadtree(bounds, capacity=4, max_depth=8),
    "grid": lambda bounds: UniformGrid(cell_size=48),
    "sort-and-sweep": lambda bounds: SortAndSweep(),
    "sorted strips": lambda bounds: SortedStrips(),
    "brute force": lambda bounds: BruteForce(),
}


class BroadphaseView:
    """A broadphase of one of ``KINDS`` over keyed shapes, switchable at run time."""

    def __init__(self, kind: str, bounds: Rect) -> None:
        self.bounds = bounds
        self.kind = kind
        self.index: Broadphase = KINDS[kind](bounds)
        self.show_cells = True
        self.pairs: list[tuple[Key, Key]] = []
        self.seconds = 0.0

    def switch(self, shapes: Iterable[tuple[Key, Shape]]) -> None:
        """Move to the next kind of broadphase, re-adding ``shapes``."""
        names = list(KINDS)
        self.kind = names[(names.index(self.kind) + 1) % len(names)]
        self.index = KINDS[self.kind](self.bounds)
        shapes = list(shapes)
        for key, shape in shapes[: self.cap(len(shapes))]:
            self.index.add(key, shape)

    def cap(self, count: int) -> int:
        """How many of ``count`` shapes this broadphase takes (brute force: at most
        ``BRUTE_FORCE_CAP``)."""
        return min(count, BRUTE_FORCE_CAP) if self.kind == "brute force" else count

    def step(self, shapes: Iterable[tuple[Key, Shape]]) -> set[Key]:
        """Update every shape, find the pairs; return the keys that overlap another.
        The shapes past the cap (brute force) are left out, and removed if held."""
        start = time.perf_counter()
        index = self.index
        shapes = list(shapes)
        kept = self.cap(len(shapes))
        if len(index) > kept:  # fewer shapes than it holds: drop the others
            wanted = {key for key, _ in shapes[:kept]}
            for key in [key for key in index if key not in wanted]:
                index.remove(key)
        update = index.update
        for key, shape in shapes[:kept]:
            if key in index:
                update(key, shape)
            else:
                index.add(key, shape)
        self.pairs = index.pairs()
        self.seconds = time.perf_counter() - start
        return {key for pair in self.pairs for key in pair}

    def step_rects(self, rows: np.ndarray) -> set[Key]:
        """``step`` for rectangles kept in an array (rows ``x, y, w, h``, keyed by row
        number): one ``update_rects`` call instead of one ``update`` a shape."""
        start = time.perf_counter()
        index = self.index
        n = self.cap(len(rows))
        held = len(index)
        for key in range(n, held):  # fewer than it holds: drop the others
            index.remove(key)
        for key in range(held, n):
            index.add(key, Rect(*rows[key].tolist()))
        index.update_rects(range(n), rows[:n])
        self.pairs = index.pairs()
        self.seconds = time.perf_counter() - start
        return {key for pair in self.pairs for key in pair}

    def draw_cells(self, surface: pygame.Surface) -> None:
        """Outline the quadtree's leaves or the grid's occupied cells; for sort and
        sweep, draw the sorted x-intervals it sweeps."""
        if not self.show_cells:
            return
        index = self.index
        rects: list[Rect] = []
        if isinstance(index, Quadtree):
            self._draw_splits(surface, index)
        elif isinstance(index, UniformGrid):
            rects = index.cells()
        elif isinstance(index, SortAndSweep):
            self._draw_intervals(surface)
        rect = pygame.draw.rect
        for r in rects:
            rect(surface, CELL, r, 1)  # (a Rect is a tuple: no FRect made)

    @staticmethod
    def _draw_splits(surface: pygame.Surface, index: Quadtree) -> None:
        """The quadtree's leaves as last built, drawn as the root's outline and the
        cross through the centre of each node that split: every leaf's edges, in a
        third fewer lines than an outline a leaf (3,000 shapes: 4,500 leaves, 1,500
        splits), read from the tree's node arrays (``leaves()`` makes a ``Rect`` a
        leaf: as long again as drawing them)."""
        tree = index._structure().parts
        split = tree.node_box[np.flatnonzero(tree.node_child[: tree.nodes] >= 0)]
        mx = (split[:, 0] + split[:, 2]) * 0.5  # (the children's shared edges)
        my = (split[:, 1] + split[:, 3]) * 0.5
        line = pygame.draw.line
        for (left, top, right, bottom), x, y in zip(split.tolist(), mx.tolist(), my.tolist(),
                                                    strict=True):  # fmt: skip
            line(surface, CELL, (x, top), (x, bottom))
            line(surface, CELL, (left, y), (right, y))
        root = index.bounds
        if root is not None:
            pygame.draw.rect(surface, CELL, root, 1)

    def _draw_intervals(self, surface: pygame.Surface) -> None:
        """Each shape's x-interval as a bar in a band at the foot of the scene, in the
        order the sweep visits them (by left edge), wrapped over ``ROWS`` rows: the
        bars that overlap along x are the candidate pairs it tests."""
        # the bounds the structure files (x0, y0, x1, y1), read from its rows: a get()
        # and bounds_of() a shape cost more than drawing it
        _, box = self.index._live_rows()  # type: ignore[attr-defined]
        spans = box[np.lexsort((box[:, 2], box[:, 0]))][:, [0, 2]].tolist()
        bottom = self.bounds.bottom - BAND_CLEARANCE  # above the help panel
        line = pygame.draw.line
        for k, (left, right) in enumerate(spans):
            y = bottom - 3 * (k % ROWS)
            line(surface, CELL, (left, y), (max(right, left + 1), y), 2)

    def hud(self) -> list[str]:
        """Objects, the checks brute force would make, the checks made, the ratio."""
        n = len(self.index)
        brute = n * (n - 1) // 2
        made = self.index.stats.tests
        if not made:
            ratio = "no checks at all" if brute else "-"
        elif made >= brute:
            ratio = "as many as brute force (no saving)"
        else:
            ratio = f"{brute / made:.1f}x fewer"
        drawing = self._drawing()
        shown = f"C: {drawing} {'on' if self.show_cells else 'off'}" if drawing else "C: -"
        return [
            f"broadphase: {self.kind} (B to switch, {shown})",
            f"objects: {n}   overlapping pairs: {len(self.pairs)}"
            + (
                f" (brute force: capped at {BRUTE_FORCE_CAP})"
                if n == BRUTE_FORCE_CAP and self.kind == "brute force"
                else ""
            ),
            # (two lines: one would reach under the rects demo's slider at the top right)
            f"checks brute force would make: {brute:,}",
            f"checks made: {made:,}   ratio: {ratio}",
            f"update + pairs: {self.seconds * 1e3:.2f} ms",
        ]

    def _drawing(self) -> str:
        """What C shows for the current broadphase ("" when it has nothing to show)."""
        if isinstance(self.index, SortAndSweep):
            return "sorted x-intervals"
        if isinstance(self.index, (Quadtree, UniformGrid)):
            return "cells"
        return ""

    def handle_key(self, key: int, shapes: Iterable[tuple[Key, Shape]]) -> bool:
        """B switches the broadphase, C toggles the cells; True if the key was used."""
        if key == pygame.K_b:
            self.switch(shapes)
            return True
        if key == pygame.K_c:
            self.show_cells = not self.show_cells
            return True
        return False
