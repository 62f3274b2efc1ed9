"""Rectangles of other kinds at the door: ``pygame.Rect``, ``pygame.FRect`` and
``(x, y, w, h)`` sequences, converted once to a ``Rect``.

The rule, wherever a ``Rect`` is expected (``World.add``, ``update``, ``project``,
``query_rect``, ``overlaps``, ``sweep``, ``raycast``, the broadphases, the masks'
rectangle tests):

- a ``Rect`` is taken as it is;
- an object with ``x``, ``y``, ``w`` and ``h`` attributes (``pygame.Rect``,
  ``pygame.FRect``, and the rectangles of other libraries shaped the same way) becomes
  ``Rect(value.x, value.y, value.w, value.h)``;
- a tuple, a list or a one-dimensional numpy array of four numbers becomes
  ``Rect(*value)``.

The numbers are then checked as ``Rect`` checks its own: a negative size is a
``ValueError`` (pygame keeps negative sizes as given; call its ``normalize()`` first),
NaN and infinities are refused. ``pygame.FRect`` holds 32-bit floats: its values
arrive as the 64-bit floats equal to them (``FRect(0.1, ...)`` has
``x == 0.10000000149011612``). Nothing here imports pygame.

Conversion happens only where a value is not already one of the library's shapes, so
code that passes ``Rect`` pays nothing for it.
"""

from __future__ import annotations

import numpy as np

from collide2d.geometry.rect import Rect

RECT_LIKE = "rect-like (a pygame.Rect, a pygame.FRect or (x, y, w, h))"
"""How error messages name what :func:`rect_like` converts."""


def rect_like(value: object, name: str) -> Rect | None:
    """``value`` as a ``Rect`` by the rule of this module, or ``None`` when it is not
    rectangle-like at all.

    Raises
    ------
    TypeError, ValueError
        If ``value`` is rectangle-like but its numbers are not a valid rectangle; the
        message names ``name``.

    Examples
    --------
    >>> rect_like((1, 2, 3, 4), "shape")
    Rect(x=1.0, y=2.0, w=3.0, h=4.0)
    >>> rect_like("abcd", "shape") is None
    True
    >>> rect_like([0, 0, -1, 2], "shape")
    Traceback (most recent call last):
    ...
    ValueError: shape as a Rect: w must be >= 0, got -1
    """
    if isinstance(value, Rect):
        return value if type(value) is Rect else Rect(*value)
    kind = type(value)
    numbers: tuple[object, ...]
    if kind is tuple or kind is list or (kind is np.ndarray and np.ndim(value) == 1):  # type: ignore[arg-type]
        if len(value) != 4:  # type: ignore[arg-type]
            return None
        numbers = tuple(value)  # type: ignore[arg-type]
    elif all(hasattr(value, field) for field in ("x", "y", "w", "h")):
        numbers = (value.x, value.y, value.w, value.h)  # type: ignore[attr-defined]
    else:
        return None
    try:
        return Rect(*numbers)  # type: ignore[arg-type]
    except (TypeError, ValueError) as error:
        raise type(error)(f"{name} as a Rect: {error}") from None


def checked_rect(value: object, name: str) -> Rect:
    """``value`` as a ``Rect`` by the rule of this module, or a ``TypeError`` naming
    ``name`` and the value's type.

    >>> checked_rect((0, 0, 2, 2), "rect")
    Rect(x=0.0, y=0.0, w=2.0, h=2.0)
    >>> checked_rect(3, "rect")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    TypeError: rect must be a Rect or rect-like (... (x, y, w, h)), got 3 (builtins.int)
    """
    rect = rect_like(value, name)
    if rect is None:
        raise TypeError(f"{name} must be a Rect or {RECT_LIKE}, got {described(value)}")
    return rect


def described(value: object) -> str:
    """``value`` for an error message: its repr and its type with the type's module,
    e.g. ``'abc' (builtins.str)`` or ``<rect(0, 0, 1, 1)> (pygame.rect.Rect)``."""
    kind = type(value)
    text = repr(value)
    if len(text) > 80:
        text = text[:77] + "..."
    return f"{text} ({kind.__module__}.{kind.__qualname__})"
