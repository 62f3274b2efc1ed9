"""The one place that imports numba, with the project's compilation settings."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import numba

F = TypeVar("F", bound=Callable[..., Any])


def kernel(func: F) -> F:
    """Compile ``func`` lazily with numba: ``nopython``, cached on disk, no fastmath.

    No fastmath because the slab tests rely on IEEE infinities and exact rounding.
    """
    compiled: F = numba.njit(cache=True, nogil=True)(func)
    return compiled
