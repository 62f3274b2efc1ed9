"""The number checks every value type and entry point share (below ``Vec2``, which
uses them too). Nothing here uses ``assert``: checks must survive ``python -O``."""

from __future__ import annotations

import math
from numbers import Real
from typing import Any


def real(value: object, name: str) -> float:
    """Return ``value`` as a finite float, or raise naming ``name``."""
    kind = type(value)
    if kind is float or kind is int or isinstance(value, float):  # numpy floats too
        number = float(value)  # type: ignore[arg-type]
    elif isinstance(value, Real) and not isinstance(value, bool):
        number = float(value)
    else:
        raise TypeError(f"{name} must be a real number, got {value!r} ({kind.__name__})")
    if not math.isfinite(number):
        raise ValueError(f"{name} must be finite, got {value!r}")
    return number


def size(value: object, name: str) -> float:
    """Return ``value`` as a finite float ``>= 0``, or raise naming ``name``."""
    number = real(value, name)
    if number < 0.0:
        raise ValueError(f"{name} must be >= 0, got {value!r}")
    return number


def replaced(value: Any, changes: dict[str, Any]) -> Any:
    """``value._replace(**changes)`` through the type's constructor, so the copy is
    checked as a new value is (``NamedTuple._replace`` skips ``__new__``'s checks)."""
    fields = type(value)._fields
    unknown = set(changes) - set(fields)
    if unknown:
        raise ValueError(f"{type(value).__name__} has no fields {sorted(unknown)}")
    return type(value)(*(changes.get(name, old) for name, old in zip(fields, value, strict=True)))
