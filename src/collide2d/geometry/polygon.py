"""Convex polygons: rotated boxes, ramps, hulls of sprites.

A :class:`Polygon` is immutable and checked once, when it is made: convex, no
repeated or collinear vertices, finite coordinates. Its vertices are stored in one
order, the one whose shoelace area is positive: counter-clockwise in y-up
mathematics, which is clockwise as seen on a y-down screen. Given in the other
order they are reversed (the first vertex stays first); a concave outline is an
error, never silently replaced by its hull.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator
from fractions import Fraction
from typing import Any

from collide2d.geometry import _checks
from collide2d.geometry._exact import scale
from collide2d.geometry.normals import edge_normal
from collide2d.geometry.rect import Rect
from collide2d.geometry.vec2 import Vec2

_HALF_PI = math.pi / 2.0
_QUARTERS = ((1.0, 0.0), (0.0, 1.0), (-1.0, 0.0), (0.0, -1.0))


def _turns(xs: list[int], ys: list[int]) -> list[int]:
    """The exact cross product of the edges into and out of each vertex."""
    n = len(xs)
    out = []
    for i in range(n):
        ax, ay = xs[i - 1], ys[i - 1]
        bx, by = xs[i], ys[i]
        cx, cy = xs[(i + 1) % n], ys[(i + 1) % n]
        out.append((bx - ax) * (cy - by) - (by - ay) * (cx - bx))
    return out


def _sign_changes(values: list[int]) -> int:
    """How often the sign of a cyclic sequence changes, zeros skipped."""
    signs = [v > 0 for v in values if v != 0]
    return sum(1 for i in range(len(signs)) if signs[i] != signs[i - 1])


def cos_sin(angle: float) -> tuple[float, float]:
    """``(cos(angle), sin(angle))``, exactly ``0`` and ``+-1`` at whole quarter turns.

    ``math.cos(math.pi / 2)`` is ``6e-17``, not ``0``: an angle that is a whole
    number of ``math.pi / 2`` (as a float: ``math.pi``, ``-math.pi / 2``, ...) gets
    the exact values, so a box turned by it has exact axis-aligned edges.

    >>> cos_sin(math.pi / 2), cos_sin(-math.pi)
    ((0.0, 1.0), (-1.0, 0.0))
    """
    quarters = round(angle / _HALF_PI)
    if angle == quarters * _HALF_PI:
        return _QUARTERS[quarters % 4]
    return math.cos(angle), math.sin(angle)


class Polygon:
    """An immutable convex polygon.

    Parameters
    ----------
    points : iterable of points
        At least 3 vertices in order around the polygon, in either winding.

    Raises
    ------
    TypeError
        If ``points`` is not a sequence of ``(x, y)`` points.
    ValueError
        If a coordinate is NaN or infinite, there are fewer than 3 vertices, two
        vertices coincide, three consecutive ones are collinear, or the outline is
        not convex (it turns both ways, or winds around more than once). The
        message says which vertex.

    Notes
    -----
    Overlap is strict, as for every shape (touching is not overlapping), and every
    predicate on polygons is exact: it decides what rational arithmetic on the
    stored float vertices decides.

    Examples
    --------
    >>> tri = Polygon([(0, 0), (0, 4), (4, 0)])  # given clockwise in y-up terms
    >>> tri.vertices                               # stored with positive area
    (Vec2(x=0.0, y=0.0), Vec2(x=4.0, y=0.0), Vec2(x=0.0, y=4.0))
    >>> tri.area, tri.bounding_rect
    (8.0, Rect(x=0.0, y=0.0, w=4.0, h=4.0))
    >>> Polygon([(0, 0), (4, 0), (4, 4), (2, 1)])
    Traceback (most recent call last):
    ...
    ValueError: points must form a convex polygon: the turn at points[3] goes the other way
    """

    __slots__ = ("_bounds", "_exact", "_hash", "_packed", "_vertices")

    _vertices: tuple[Vec2, ...]

    def __init__(self, points: Iterable[tuple[float, float]]) -> None:
        if isinstance(points, (str, bytes)) or not isinstance(points, Iterable):
            raise TypeError(f"points must be a sequence of (x, y) points, got {points!r}")
        vertices = [_checks.point(p, f"points[{i}]") for i, p in enumerate(points)]
        if len(vertices) < 3:
            raise ValueError(f"points must have at least 3 vertices, got {len(vertices)}")
        seen: dict[Vec2, int] = {}
        for i, v in enumerate(vertices):
            if v in seen:
                raise ValueError(f"points[{seen[v]}] and points[{i}] are the same point {tuple(v)}")
            seen[v] = i
        ints, _ = scale([c for v in vertices for c in v])
        xs, ys = ints[0::2], ints[1::2]
        turns = _turns(xs, ys)
        n = len(vertices)
        for i, turn in enumerate(turns):
            if turn == 0:
                raise ValueError(
                    f"points[{(i - 1) % n}], points[{i}] and points[{(i + 1) % n}] are collinear"
                )
        positive = sum(1 for t in turns if t > 0)
        if positive not in (0, n):
            minority = positive < n - positive
            odd = next(i for i, t in enumerate(turns) if (t > 0) == minority)
            raise ValueError(
                f"points must form a convex polygon: the turn at points[{odd}] goes the other way"
            )
        dxs = [xs[(i + 1) % n] - xs[i] for i in range(n)]
        dys = [ys[(i + 1) % n] - ys[i] for i in range(n)]
        if _sign_changes(dxs) > 2 or _sign_changes(dys) > 2:
            raise ValueError("points must form a convex polygon: they wind around more than once")
        if positive == 0:
            vertices = [vertices[0], *vertices[:0:-1]]
        self._vertices = tuple(vertices)
        self._hash = hash(self._vertices)
        self._exact: tuple[list[int], list[int], int] | None = None
        self._bounds: Rect | None = None
        self._packed: Any = None  # what a layer above keeps with the polygon

    # -- constructors ---------------------------------------------------------

    @classmethod
    def box(cls, cx: float, cy: float, w: float, h: float, angle: float = 0.0) -> Polygon:
        """A ``w`` by ``h`` rectangle centred at ``(cx, cy)``, turned by ``angle``.

        ``angle`` is in radians; a positive angle turns the x axis toward the y
        axis, which is clockwise on a y-down screen. Whole quarter turns are exact
        (see :func:`cos_sin`). Corner ``k`` is ``cx + (c * hx - s * hy)``,
        ``cy + (s * hx + c * hy)`` for the half-size offsets ``(hx, hy)`` in the order
        ``(-w/2, -h/2), (w/2, -h/2), (w/2, h/2), (-w/2, h/2)``, each rounded once; the
        batch functions on ``(N, 5)`` arrays compute the same floats.

        Raises
        ------
        ValueError
            If a size is not positive, or a value is not finite, or the box is so
            thin beside its coordinates that its rounded corners are degenerate.

        Examples
        --------
        >>> Polygon.box(0, 0, 4, 2).vertices[:2]
        (Vec2(x=-2.0, y=-1.0), Vec2(x=2.0, y=-1.0))
        >>> Polygon.box(0, 0, 4, 2, math.pi / 2).bounding_rect  # exact quarter turn
        Rect(x=-1.0, y=-2.0, w=2.0, h=4.0)
        """
        cx = _checks.real(cx, "cx")
        cy = _checks.real(cy, "cy")
        w = _checks.real(w, "w")
        h = _checks.real(h, "h")
        angle = _checks.real(angle, "angle")
        if w <= 0.0 or h <= 0.0:
            raise ValueError(f"w and h must be > 0, got w={w!r}, h={h!r}")
        return cls(box_corners(cx, cy, w, h, *cos_sin(angle)))

    @classmethod
    def regular(
        cls, cx: float, cy: float, radius: float, sides: int, angle: float = 0.0
    ) -> Polygon:
        """A regular polygon of ``sides`` vertices on the circle of ``radius`` about
        ``(cx, cy)``, the first vertex at ``angle`` (radians, x toward y).

        Examples
        --------
        >>> hexagon = Polygon.regular(0, 0, 2, 6)
        >>> len(hexagon.vertices), hexagon.vertices[0]
        (6, Vec2(x=2.0, y=0.0))
        >>> Polygon.regular(0, 0, 1, 4).vertices[1]  # quarter turns exact
        Vec2(x=0.0, y=1.0)
        """
        cx = _checks.real(cx, "cx")
        cy = _checks.real(cy, "cy")
        radius = _checks.real(radius, "radius")
        angle = _checks.real(angle, "angle")
        if radius <= 0.0:
            raise ValueError(f"radius must be > 0, got {radius!r}")
        if type(sides) is not int and not (isinstance(sides, int) and not isinstance(sides, bool)):
            raise TypeError(f"sides must be an int, got {sides!r}")
        if sides < 3:
            raise ValueError(f"sides must be >= 3, got {sides}")
        c0, s0 = cos_sin(angle)
        points = []
        for k in range(sides):
            if (4 * k) % sides == 0:  # a whole quarter turn from the first vertex: exact
                qc, qs = _QUARTERS[(4 * k) // sides]
                c, s = c0 * qc - s0 * qs, s0 * qc + c0 * qs
            else:
                c, s = cos_sin(angle + 2.0 * math.pi * k / sides)
            points.append((cx + radius * c, cy + radius * s))
        return cls(points)

    # -- values ----------------------------------------------------------------

    @property
    def vertices(self) -> tuple[Vec2, ...]:
        """The vertices, in the stored order (positive shoelace area)."""
        return self._vertices

    def __len__(self) -> int:
        return len(self._vertices)

    def __iter__(self) -> Iterator[Vec2]:
        return iter(self._vertices)

    @property
    def normals(self) -> tuple[Vec2, ...]:
        """The unit outward normal of each edge, edge ``i`` from vertex ``i`` to ``i + 1``:
        the normals sweeps and the World report, bit for bit.

        >>> Polygon.box(0, 0, 2, 2).normals
        (Vec2(x=0.0, y=-1.0), Vec2(x=1.0, y=0.0), Vec2(x=0.0, y=1.0), Vec2(x=-1.0, y=0.0))
        """
        vs = self._vertices
        return tuple(Vec2(*edge_normal(vs, i)[:2]) for i in range(len(vs)))

    @property
    def area(self) -> float:
        """The area, computed exactly and rounded once."""
        xs, ys, e = self.exact()
        twice = sum(xs[i - 1] * ys[i] - xs[i] * ys[i - 1] for i in range(len(xs)))
        return float(Fraction(twice, 2) * Fraction(2) ** (2 * e))

    @property
    def centroid(self) -> Vec2:
        """The centre of mass of the area, computed exactly and rounded once.

        >>> Polygon([(0, 0), (3, 0), (0, 3)]).centroid
        Vec2(x=1.0, y=1.0)
        """
        xs, ys, e = self.exact()
        twice = 0
        sx = 0
        sy = 0
        for i in range(len(xs)):
            cross = xs[i - 1] * ys[i] - xs[i] * ys[i - 1]
            twice += cross
            sx += (xs[i - 1] + xs[i]) * cross
            sy += (ys[i - 1] + ys[i]) * cross
        unit = Fraction(2) ** e
        return Vec2(float(Fraction(sx, 3 * twice) * unit), float(Fraction(sy, 3 * twice) * unit))

    @property
    def bounding_rect(self) -> Rect:
        """The smallest ``Rect`` that contains the polygon (its right and bottom
        edges, ``x + w`` and ``y + h`` in floats, reach the extreme vertices)."""
        if self._bounds is None:  # found once: the World asks for it at every move
            xs = [v[0] for v in self._vertices]
            ys = [v[1] for v in self._vertices]
            self._bounds = covering_rect(min(xs), min(ys), max(xs), max(ys))
        return self._bounds

    def exact(self) -> tuple[list[int], list[int], int]:
        """``(xs, ys, e)``: the vertices as integers times ``2**e`` (cached)."""
        if self._exact is None:
            ints, e = scale([c for v in self._vertices for c in v])
            self._exact = (ints[0::2], ints[1::2], e)
        return self._exact

    # -- new polygons -----------------------------------------------------------

    def translated(self, delta: tuple[float, float]) -> Polygon:
        """The polygon moved by ``delta`` (each coordinate rounded once).

        >>> Polygon([(0, 0), (2, 0), (0, 2)]).translated((1, 1)).vertices[0]
        Vec2(x=1.0, y=1.0)
        """
        dx, dy = _checks.point(delta, "delta")
        if dx == 0.0 and dy == 0.0:
            return self
        return Polygon([(x + dx, y + dy) for x, y in self._vertices])

    moved = translated

    def rotated(self, angle: float, about: tuple[float, float] | None = None) -> Polygon:
        """The polygon turned by ``angle`` radians (x toward y) about a point.

        ``about`` defaults to the centroid. Whole quarter turns use exact cosines and
        sines (see :func:`cos_sin`).

        >>> square = Polygon.box(0, 0, 2, 2)
        >>> set(square.rotated(math.pi / 2).vertices) == set(square.vertices)
        True
        """
        angle = _checks.real(angle, "angle")
        return self.rotated_by(*cos_sin(angle), about=about)

    def rotated_by(
        self, cos: float, sin: float, about: tuple[float, float] | None = None
    ) -> Polygon:
        """The polygon turned by the rotation whose cosine and sine are given.

        Use it to turn exactly by a rotation you already hold, such as a quarter
        turn ``(0, 1)`` or a Pythagorean ``(0.6, 0.8)``. ``(cos, sin)`` must be a unit
        vector to within rounding; ``about`` defaults to the centroid.

        >>> Polygon([(0, 0), (2, 0), (0, 1)]).rotated_by(0, 1, about=(0, 0)).vertices
        (Vec2(x=0.0, y=0.0), Vec2(x=0.0, y=2.0), Vec2(x=-1.0, y=0.0))
        """
        c = _checks.real(cos, "cos")
        s = _checks.real(sin, "sin")
        if abs(math.hypot(c, s) - 1.0) > 1e-9:
            raise ValueError(f"(cos, sin) must be a unit vector, got ({cos!r}, {sin!r})")
        ax, ay = self.centroid if about is None else _checks.point(about, "about")
        points = []
        for x, y in self._vertices:
            rx, ry = x - ax, y - ay
            points.append((ax + (c * rx - s * ry), ay + (s * rx + c * ry)))
        return Polygon(points)

    def quarter_turned(self, turns: int, about: tuple[float, float] | None = None) -> Polygon:
        """The polygon turned by ``turns`` quarter turns (x toward y), exactly.

        >>> Polygon.box(0, 0, 4, 2).quarter_turned(1).bounding_rect
        Rect(x=-1.0, y=-2.0, w=2.0, h=4.0)
        """
        if not isinstance(turns, int) or isinstance(turns, bool):
            raise TypeError(f"turns must be an int, got {turns!r}")
        c, s = _QUARTERS[turns % 4]
        return self.rotated_by(c, s, about)

    # -- value semantics ----------------------------------------------------------

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Polygon):
            return NotImplemented
        return self._vertices == other._vertices

    def __hash__(self) -> int:
        return self._hash

    def __repr__(self) -> str:
        inner = ", ".join(f"({x!r}, {y!r})" for x, y in self._vertices)
        return f"Polygon([{inner}])"

    def __reduce__(self) -> tuple[type[Polygon], tuple[list[tuple[float, float]]]]:
        return (Polygon, ([tuple(v) for v in self._vertices],))  # type: ignore[misc]


def box_corners(
    cx: float, cy: float, w: float, h: float, c: float, s: float
) -> list[tuple[float, float]]:
    """The four corners of :meth:`Polygon.box`, rounded as documented there."""
    hx = w * 0.5
    hy = h * 0.5
    return [
        (cx + (c * ox - s * oy), cy + (s * ox + c * oy))
        for ox, oy in ((-hx, -hy), (hx, -hy), (hx, hy), (-hx, hy))
    ]


def covering_rect(left: float, top: float, right: float, bottom: float) -> Rect:
    """The ``Rect`` from ``(left, top)`` whose float edges ``x + w``, ``y + h`` reach
    ``right`` and ``bottom`` (the size is rounded up where rounding would fall short)."""
    w = right - left
    while left + w < right:
        w = math.nextafter(w, math.inf)
    h = bottom - top
    while top + h < bottom:
        h = math.nextafter(h, math.inf)
    return Rect(left, top, w, h)
