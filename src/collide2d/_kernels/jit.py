"""The one place that imports numba, with the project's compilation settings."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

import numba

F = TypeVar("F", bound=Callable[..., Any])


def kernel(func: F) -> F:
    """Compile ``func`` lazily with numba: ``nopython``, cached on disk, no fastmath.

    No fastmath because the slab tests rely on IEEE infinities and exact rounding.
    """
    return cast(F, numba.njit(cache=True, nogil=True)(func))


def inline_kernel(func: F) -> F:
    """Like :func:`kernel`, for small helpers that are inlined into their callers
    (a call passing several arrays costs more than the helper's own work)."""
    return cast(F, numba.njit(cache=True, nogil=True, inline="always")(func))
