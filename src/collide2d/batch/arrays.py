"""Checking and converting array arguments: the one place that validates batch input."""

from __future__ import annotations

from numbers import Real

import numpy as np
from numpy.typing import ArrayLike

from collide2d import _deprecation
from collide2d._kernels.pairs.search import widen_outward
from collide2d._typing import FloatArray

RENAMED_METHODS = {"grid": "strips"}
"""Method names kept for one release after a rename."""


def check_method(method: object, allowed: tuple[str, ...]) -> str:
    """``method`` if it is one of ``allowed`` (a renamed one is translated, with a
    warning); otherwise a ``ValueError`` naming it."""
    if isinstance(method, str) and method in RENAMED_METHODS:
        new = RENAMED_METHODS[method]
        _deprecation.warn(f"method={method!r}", f"method={new!r}", stacklevel=4)
        method = new
    if not isinstance(method, str) or method not in allowed:
        raise ValueError(f"method must be one of {', '.join(allowed)}; got {method!r}")
    return method


def _as_rows(value: ArrayLike, name: str, columns: int, layout: str) -> FloatArray:
    expected = f"{name} must be an array of real numbers of shape (N, {columns})"
    try:
        raw = np.asarray(value)
    except (TypeError, ValueError) as error:  # ragged rows
        raise TypeError(f"{expected}: {error}") from None
    kind = raw.dtype.kind
    if kind == "O":  # numpy would turn None into NaN and silently take bools
        for flat, item in enumerate(raw.ravel().tolist()):
            if isinstance(item, bool) or not isinstance(item, Real):
                row = flat // columns if raw.ndim == 2 else flat
                raise TypeError(f"{expected}; row {row} holds {item!r}")
    elif kind not in "iuf":  # complex (numpy drops the imaginary part), strings, bools
        raise TypeError(f"{expected}, got dtype {raw.dtype}")
    array = raw.astype(np.float64, copy=False)
    if array.ndim == 1 and array.shape[0] == 0:
        array = array.reshape(0, columns)
    if array.ndim != 2 or array.shape[1] != columns:
        raise ValueError(
            f"{name} must have shape (N, {columns}) with rows {layout}, got shape {array.shape}"
        )
    finite = np.isfinite(array)
    if not finite.all():
        row = int(np.flatnonzero(~finite.all(axis=1))[0])
        raise ValueError(f"{name} must be finite; row {row} is {array[row].tolist()}")
    return np.ascontiguousarray(array)


def as_boxes(value: ArrayLike, name: str = "boxes") -> FloatArray:
    """``value`` as a C-contiguous float64 ``(N, 4)`` array of rows ``x, y, w, h``.

    Raises
    ------
    TypeError
        If the values are not numbers.
    ValueError
        If the shape is wrong, a value is NaN or infinite, or a size is negative.
    """
    boxes = _as_rows(value, name, 4, "x, y, w, h")
    # column by column: numpy's any(axis=1) over two columns took 28 ms of 1e6 rows
    if (boxes[:, 2] < 0.0).any() or (boxes[:, 3] < 0.0).any():
        row = int(np.flatnonzero((boxes[:, 2] < 0.0) | (boxes[:, 3] < 0.0))[0])
        raise ValueError(f"{name} sizes must be >= 0; row {row} is {boxes[row].tolist()}")
    return boxes


def as_circles(value: ArrayLike, name: str = "circles") -> FloatArray:
    """``value`` as a C-contiguous float64 ``(N, 3)`` array of rows ``x, y, r``."""
    circles = _as_rows(value, name, 3, "x, y, r")
    negative = circles[:, 2] < 0.0
    if negative.any():
        row = int(np.flatnonzero(negative)[0])
        raise ValueError(f"{name} radii must be >= 0; row {row} is {circles[row].tolist()}")
    return circles


def as_points(value: ArrayLike, name: str = "points") -> FloatArray:
    """``value`` as a C-contiguous float64 ``(N, 2)`` array of rows ``x, y``."""
    return _as_rows(value, name, 2, "x, y")


def bounds(boxes: FloatArray) -> FloatArray:
    """Closed bounds of ``(N, 4)`` boxes: an ``(N, 4)`` array of rows ``lo_x, lo_y, hi_x, hi_y``.

    ``hi = x + w`` is rounded exactly as :attr:`collide2d.Rect.right` is (``inf`` when
    it overflows, as for ``Rect(1e308, 0, 1e308, 1)``: such boxes are accepted).
    """
    box = boxes.copy()
    with np.errstate(over="ignore"):
        box[:, 2] += box[:, 0]
        box[:, 3] += box[:, 1]
    return box


def circle_bounds(circles: FloatArray) -> FloatArray:
    """Closed bounds of ``(N, 3)`` circles, one unit in the last place wider than
    ``x - r, x + r`` (see :func:`collide2d._kernels.pairs.search.widen_outward`)."""
    box = np.empty((circles.shape[0], 4))
    with np.errstate(over="ignore"):
        box[:, 0] = circles[:, 0] - circles[:, 2]
        box[:, 1] = circles[:, 1] - circles[:, 2]
        box[:, 2] = circles[:, 0] + circles[:, 2]
        box[:, 3] = circles[:, 1] + circles[:, 2]
    widen_outward(box)
    return box
