"""Names kept for one release after a rename, with a ``DeprecationWarning``.

Each package that renamed a public name maps ``old -> (new name, object)`` and
calls :func:`resolve` from its module-level ``__getattr__`` (PEP 562), so the old
name still works, warns, and says what to use instead.
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping

REMOVED_IN = "0.3.0"


def resolve(package: str, name: str, renamed: Mapping[str, tuple[str, object]]) -> object:
    """The object now called ``renamed[name][0]``, with a warning; ``AttributeError``
    if ``name`` was never renamed."""
    if name not in renamed:
        raise AttributeError(f"module {package!r} has no attribute {name!r}")
    new, value = renamed[name]
    warn(f"{package}.{name}", new, stacklevel=4)
    return value


def warn(old: str, new: str, stacklevel: int = 3) -> None:
    """Warn that ``old`` is deprecated in favour of ``new``."""
    warnings.warn(
        f"{old} is deprecated and will be removed in collide2d {REMOVED_IN}; use {new}",
        DeprecationWarning,
        stacklevel=stacklevel,
    )
