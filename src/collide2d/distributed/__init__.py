"""Overlapping pairs on a Dask cluster: the batch functions for more boxes than one
machine holds, tile by tile, with the answers of one machine.

Needs the ``distributed`` extra (``pip install 'collide2d[distributed]'``: dask,
distributed, pyarrow); ``import collide2d`` never imports dask. See
``docs/distributed.md``.
"""

from collide2d.distributed.pairs import (
    overlapping_circle_pairs,
    overlapping_pairs,
    query_pairs,
    sorted_pairs,
)

__all__ = ["overlapping_circle_pairs", "overlapping_pairs", "query_pairs", "sorted_pairs"]
