"""``sweep``: the exact first contact of two shapes that both move in one frame."""

from __future__ import annotations

from collide2d.geometry import _checks
from collide2d.geometry.circle import Circle
from collide2d.geometry.overlap import Shape, as_shape
from collide2d.geometry.rect import Rect
from collide2d.geometry.vec2 import Vec2
from collide2d.sweep.circle import sweep_circle_circle, sweep_circle_rect
from collide2d.sweep.hit import Hit
from collide2d.sweep.rect import sweep_rect_rect

_STILL = Vec2(0.0, 0.0)


def sweep(
    a: Shape,
    a_delta: tuple[float, float],
    b: Shape,
    b_delta: tuple[float, float] = _STILL,
) -> Hit | None:
    """Find the first moment of the frame at which two moving shapes overlap.

    ``a`` moves by ``a_delta`` and ``b`` by ``b_delta`` over the same frame. The
    test works in ``b``'s frame (relative motion ``a_delta - b_delta``), so nothing
    tunnels at any speed.

    Parameters
    ----------
    a : Rect, Circle or PlacedMask
        The mover.
    a_delta : Vec2 or 2-sequence of float
        ``a``'s translation over the frame.
    b : Rect, Circle or PlacedMask
        The obstacle. With a ``PlacedMask`` on either side the result is a
        ``MaskHit`` (a ``Hit`` with the pixels that met), its point in world
        coordinates.
    b_delta : Vec2 or 2-sequence of float, optional
        ``b``'s translation over the frame; still by default.

    Returns
    -------
    Hit or None
        ``None`` when the shapes do not start to overlap during ``[0, 1)``. Touching
        and moving into each other hits at ``fraction == 0``; sliding along or moving
        apart does not hit; reaching contact exactly at the end of the frame does not
        hit; shapes that already overlap give ``fraction == 0`` and
        ``started_overlapping``. ``a`` may move by ``a_delta * hit.fraction``.

    Raises
    ------
    TypeError
        If a shape is neither a ``Rect`` nor a ``Circle``, or a delta is not a point.
    ValueError
        If a delta is NaN or infinite.

    Notes
    -----
    For rectangles with integer coordinates, sizes and deltas up to ``2**20`` every
    decision equals exact rational arithmetic and ``fraction`` is the correctly
    rounded exact value.

    Examples
    --------
    >>> hit = sweep(Rect(0, 0, 10, 10), (30, 0), Rect(25, 5, 10, 10))
    >>> hit.fraction, hit.normal, hit.point
    (0.5, Vec2(x=-1.0, y=0.0), Vec2(x=25.0, y=7.5))
    >>> sweep(Rect(0, 0, 10, 10), (10, 0), Rect(20, 0, 10, 10)) is None  # contact at 1
    True
    >>> sweep(Circle(0, 0, 1), (4, 0), Circle(6, 0, 1), (-4, 0)).fraction
    0.5
    """
    ax, ay = _checks.xy(a_delta, "a_delta")
    bx, by = _checks.xy(b_delta, "b_delta")
    dx = ax - bx
    dy = ay - by
    ta = type(a)
    tb = type(b)
    if ta is Rect and tb is Rect:
        return sweep_rect_rect(a, dx, dy, b, bx, by)  # type: ignore[arg-type]
    if ta is Circle and tb is Circle:
        return sweep_circle_circle(a, dx, dy, b, bx, by)  # type: ignore[arg-type]
    if ta is Circle and tb is Rect:
        return sweep_circle_rect(a, dx, dy, b, bx, by)  # type: ignore[arg-type]
    if ta is Rect and tb is Circle:
        # Swap roles: the circle moves by -d in the frame of the rectangle, which moves by
        # a_delta; the normal must point from b back toward a, so it flips.
        hit = sweep_circle_rect(b, -dx, -dy, a, ax, ay)  # type: ignore[arg-type]
        if hit is None:
            return None
        fraction, normal, point, started = hit
        flipped = Vec2(0.0 - normal[0], 0.0 - normal[1])  # no negative zeros
        return Hit(fraction, flipped, point, started)
    from collide2d.mask.placed import PlacedMask

    if isinstance(a, PlacedMask) or isinstance(b, PlacedMask):
        from collide2d.mask.sweep import sweep_placed

        return sweep_placed(a, (ax, ay), b, (bx, by))
    return sweep(as_shape(a, "a"), (ax, ay), as_shape(b, "b"), (bx, by))
