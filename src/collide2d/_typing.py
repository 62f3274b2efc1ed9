"""Array type aliases, defined once for the whole package."""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

FloatArray = NDArray[np.float64]
"""A float64 array (boxes ``(N, 4)``, circles ``(N, 3)``, points ``(N, 2)``)."""
IndexArray = NDArray[np.intp]
"""An index array (pairs ``(K, 2)``, orders ``(N,)``)."""
BoolArray = NDArray[np.bool_]
"""A bool array (mask pixels ``[y, x]``)."""
WordArray = NDArray[np.uint64]
"""Packed 64-bit words (mask rows, quadtree blocks)."""
