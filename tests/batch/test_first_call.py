"""The first ``overlapping_pairs`` in a fresh environment compiles only what it needs.

Its cost is numba compiling kernels (``benchmarks/bench_cold.py`` times it: 2.3 to
2.8 s on a quiet hour for 1e6 boxes, the goal being under 3 s). Time is never
asserted in a test; what made it slow is: compiling kernels of other areas, more
kernels than the pair search uses, or numba's own sort machinery (seconds each).
"""

import json
import os
import subprocess
import sys

CODE = """
import json, numpy as np
from collide2d import overlapping_pairs
from collide2d._kernels import jit
rng = np.random.default_rng(0)
boxes = np.hstack([rng.random((5000, 2)) * 300, rng.random((5000, 2)) * 5 + 0.1])
overlapping_pairs(boxes)
overlapping_pairs(boxes * 1.5, method="strips")
print(json.dumps([name for name, _ in jit.COMPILED]))
"""

EXPECTED = {
    "pairs.strips.strip_of", "pairs.strips.group_entries", "pairs.strips.permute_entries",
    "pairs.strips._emit", "pairs.strips.level_candidates", "pairs.strips.strip_pairs",
    "pairs.overlap.overlap_items", "sorting.argsort_range", "sorting.sort_range",
    "sorting.search_left", "sorting.search_right_column",
}  # fmt: skip


def test_the_first_pair_search_compiles_only_the_pair_search(tmp_path):
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    done = subprocess.run(
        [sys.executable, "-c", CODE], capture_output=True, text=True, env=env, check=True
    )
    compiled = [name.removeprefix("collide2d._kernels.") for name in json.loads(done.stdout)]
    assert set(compiled) <= EXPECTED, set(compiled) - EXPECTED
    assert len(compiled) <= 12, compiled  # each once (_emit: one per kind of pair)
