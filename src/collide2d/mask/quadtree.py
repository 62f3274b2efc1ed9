"""The quadtree of a pixel mask, as a pyramid of flat arrays.

The mask is cut into 8 x 8 blocks, each packed into a 64-bit word (bit ``8 r + c``
is pixel ``(c, r)`` of the block). Above the blocks, level ``l`` is a
``2**l x 2**l`` grid of nodes; level 0 is the root and level ``D`` the blocks, so
a node of level ``l <= D`` is the square of ``8 * 2**(D - l)`` pixels at its grid
position. Below the blocks, levels ``D + 1``, ``D + 2`` and ``D + 3`` split a block
into 4 x 4, 2 x 2 and single pixels. Every node is clipped to the image: the
quadrants split at powers of two from the top-left corner (so an odd or
non-power-of-two size simply leaves the last row and column of nodes narrower),
and a node wholly outside the image does not exist.

A node is *empty* (no solid pixel), *full* (every pixel inside the image solid) or
*mixed*. For each level of the pyramid two bool grids say which nodes have any
solid pixel and which are full; children of node ``(i, j)`` are
``(2 i + di, 2 j + dj)``, so there are no pointers to follow.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numpy.typing import NDArray

from collide2d._typing import BoolArray
from collide2d.geometry.rect import Rect
from collide2d.stats import Stats

BLOCK = 8


class Pyramid(NamedTuple):
    """The flat arrays a kernel traverses."""

    solid: NDArray[np.bool_]  # any solid pixel, levels 0..D concatenated (level l: 4**l cells)
    full: NDArray[np.bool_]  # every pixel of the node inside the image is solid
    offsets: NDArray[np.int64]  # (D + 2,) where each level starts
    blocks: NDArray[np.uint64]  # (2**D, 2**D) block patterns, row-major by block row
    depth: int  # D: the level of the blocks
    width: int
    height: int


class MaskQuadtree:
    """The quadtree of a pixel array (see the module docstring for its levels).

    :meth:`collide2d.Mask.quadtree` builds it and caches it until the mask changes.
    ``stats`` counts what the traversals that took this tree cost (a query between
    two masks counts in both trees): node pairs popped (``visits``) and leaf pairs
    reached or node sweeps computed (``tests``).

    Parameters
    ----------
    bits : ndarray of bool, shape (height, width)
        The pixels, ``[y, x]``.

    Examples
    --------
    >>> from collide2d import Mask
    >>> tree = Mask((20, 10), fill=True).quadtree()
    >>> tree.depth, tree.max_level, tree.kind(0, 0, 0)
    (2, 5, 'full')
    >>> tree.validate()
    """

    def __init__(self, bits: BoolArray) -> None:
        self.height, self.width = (int(n) for n in bits.shape)
        self.stats = Stats(method="mask_quadtree")
        side = max(1, -(-max(self.width, self.height) // BLOCK))
        depth = max(0, (side - 1).bit_length())
        grid = 1 << depth
        padded = np.zeros((grid * BLOCK, grid * BLOCK), dtype=bool)
        padded[: self.height, : self.width] = bits
        inside = np.zeros_like(padded)
        inside[: self.height, : self.width] = True
        blocks = _pack_blocks(padded, grid)
        inside_blocks = _pack_blocks(inside, grid)
        solid = blocks != 0
        full = (blocks == inside_blocks) & (inside_blocks != 0)
        exists = inside_blocks != 0
        # Build the pyramid upward; a node outside the image counts as full for the
        # "all full" test and empty for the "any solid" test.
        solid_levels = [solid]
        full_levels = [full | ~exists]
        while solid_levels[-1].shape[0] > 1:
            s = solid_levels[-1]
            f = full_levels[-1]
            n = s.shape[0] // 2
            solid_levels.append(s.reshape(n, 2, n, 2).any(axis=(1, 3)))
            full_levels.append(f.reshape(n, 2, n, 2).all(axis=(1, 3)))
        solid_levels.reverse()
        full_levels.reverse()
        sizes = [level.size for level in solid_levels]
        offsets = np.zeros(len(sizes) + 1, dtype=np.int64)
        offsets[1:] = np.cumsum(sizes)
        self.depth = depth
        self.pyramid = Pyramid(
            np.concatenate([level.ravel() for level in solid_levels]),
            np.concatenate(
                [(f & s).ravel() for f, s in zip(full_levels, solid_levels, strict=True)]
            ),
            offsets,
            np.ascontiguousarray(blocks),
            depth,
            self.width,
            self.height,
        )

    @property
    def max_level(self) -> int:
        """The level of single pixels: ``depth + 3``."""
        return self.depth + 3

    def node_rect(self, level: int, i: int, j: int) -> Rect:
        """The pixels of node ``(i, j)`` (row ``i``, column ``j``) of ``level``, clipped
        to the image (zero-sized if the node lies outside it)."""
        side = BLOCK << self.depth >> level
        x0, y0 = j * side, i * side
        x1, y1 = min(x0 + side, self.width), min(y0 + side, self.height)
        return Rect(x0, y0, max(0, x1 - x0), max(0, y1 - y0))

    def kind(self, level: int, i: int, j: int) -> str:
        """``"empty"``, ``"full"`` or ``"mixed"``."""
        rect = self.node_rect(level, i, j)
        if rect.w == 0 or rect.h == 0:
            return "empty"
        if level <= self.depth:
            at = int(self.pyramid.offsets[level]) + i * (1 << level) + j
            if not self.pyramid.solid[at]:
                return "empty"
            return "full" if self.pyramid.full[at] else "mixed"
        x0, y0, x1, y1 = int(rect.left), int(rect.top), int(rect.right), int(rect.bottom)
        window = self._bits_of(x0, y0, x1, y1)
        if not window.any():
            return "empty"
        return "full" if window.all() else "mixed"

    def _bits_of(self, x0: int, y0: int, x1: int, y1: int) -> NDArray[np.bool_]:
        block = self.pyramid.blocks[y0 // BLOCK, x0 // BLOCK]
        bits = np.unpackbits(np.array([block], dtype="<u8").view(np.uint8), bitorder="little")
        square = bits.reshape(BLOCK, BLOCK).astype(bool)
        r0, c0 = y0 % BLOCK, x0 % BLOCK
        return square[r0 : r0 + (y1 - y0), c0 : c0 + (x1 - x0)]

    def nodes(self, max_level: int | None = None) -> list[tuple[Rect, int, str]]:
        """The leaves of the tree cut at ``max_level``: every full node, and every mixed
        node at ``max_level``, as ``(rect, level, kind)`` (for drawing)."""
        limit = self.max_level if max_level is None else max(0, min(max_level, self.max_level))
        out: list[tuple[Rect, int, str]] = []
        stack = [(0, 0, 0)]
        while stack:
            level, i, j = stack.pop()
            kind = self.kind(level, i, j)
            if kind == "empty":
                continue
            if kind == "full" or level == limit:
                out.append((self.node_rect(level, i, j), level, kind))
                continue
            for di in (0, 1):
                for dj in (0, 1):
                    stack.append((level + 1, 2 * i + di, 2 * j + dj))
        out.sort(key=lambda item: (item[1], item[0].y, item[0].x))
        return out

    def validate(self, bits: BoolArray | None = None) -> None:
        """Check the pyramid's invariants (and, given ``bits``, that it describes them);
        raise ``AssertionError`` if one fails."""
        p = self.pyramid
        grid = 1 << self.depth
        if p.blocks.shape != (grid, grid) or p.offsets[-1] != p.solid.shape[0]:
            raise AssertionError("pyramid arrays have the wrong shapes")
        if bits is not None:
            if bits.shape != (self.height, self.width):
                raise AssertionError("the tree was built for another size")
            padded = np.zeros((grid * BLOCK, grid * BLOCK), dtype=bool)
            padded[: self.height, : self.width] = bits
            if not np.array_equal(_pack_blocks(padded, grid), p.blocks):
                raise AssertionError("block patterns differ from the pixels")
        for level in range(self.depth + 1):
            n = 1 << level
            at = int(p.offsets[level])
            solid = p.solid[at : at + n * n].reshape(n, n)
            full = p.full[at : at + n * n].reshape(n, n)
            if (full & ~solid).any():
                raise AssertionError(f"a full node without solid pixels at level {level}")
            if level == self.depth:
                if not np.array_equal(solid, p.blocks != 0):
                    raise AssertionError("solid blocks differ from the block patterns")
                continue
            below = int(p.offsets[level + 1])
            child = p.solid[below : below + 4 * n * n].reshape(n, 2, n, 2).any(axis=(1, 3))
            if not np.array_equal(solid, child):
                raise AssertionError(f"solid flags of level {level} differ from their children")
        for i in range(grid):
            for j in range(grid):
                kind = self.kind(self.depth, i, j)
                rect = self.node_rect(self.depth, i, j)
                if kind == "full" and rect.w and rect.h:
                    window = self._bits_of(
                        int(rect.x), int(rect.y), int(rect.right), int(rect.bottom)
                    )
                    if not window.all():
                        raise AssertionError(f"block ({i}, {j}) is marked full but is not")


def _pack_blocks(bits: NDArray[np.bool_], grid: int) -> NDArray[np.uint64]:
    """8 x 8 blocks of a ``(8 grid, 8 grid)`` bool array as uint64 patterns."""
    tiles = bits.reshape(grid, BLOCK, grid, BLOCK).transpose(0, 2, 1, 3).reshape(grid, grid, 64)
    packed = np.packbits(tiles, axis=2, bitorder="little")
    return np.ascontiguousarray(packed).view("<u8").reshape(grid, grid).astype(np.uint64)
