"""Every numerical tolerance and limit of collide2d, named once, with its reason.

The rectangle tests use no tolerance: they are exact comparisons and correctly
rounded divisions (see ``docs/concepts.md``, "Exactness"). What is here are the
places where floating point forces a choice.
"""

CIRCLE_EXACT_FALLBACK = 1e-3
"""Relative size below which a circle sweep's discriminant (against ``a r^2``) or
start distance ``c`` (against ``|p|^2``) is recomputed with exact rationals.

Floating-point rounding of ``b^2 - a c`` costs about ``2**-52 / D`` relative error in
the time of impact, where ``D`` is that ratio; below ``1e-3`` we pay for exact
arithmetic so the fraction stays within ``1e-12`` of the exact root everywhere the
discriminant is not itself within ``1e-9`` of zero."""

MASK_OFFSET_EXACT = 2.0**52
"""Mask offsets up to this magnitude place pixels exactly: below it a float's
fractional part is exact, so splitting an offset into whole pixels and a fraction
loses nothing; beyond it every float is whole but pixel indices would lose their
last bits. Larger offsets are refused."""

MAX_STRIPS = 2**30
"""The sorted-strips search makes strips at least ``span / MAX_STRIPS`` tall, so strip
numbers stay small and rounding in ``(y - oy) / height`` stays far below one strip."""

MAX_STRIP = 2.0**52
"""Strip numbers are clamped below this (in floats, before conversion to an integer,
which is exact below ``2**53``)."""

SQUARE_UNDERFLOW = 2.0**-511
"""Below this, a radius's square is subnormal or zero and loses bits: circle overlap
tests then scale every length by ``UNDERFLOW_SCALE`` first (a power of two, so the
scaling is exact and the comparison stays exact)."""

UNDERFLOW_SCALE = 2.0**600
"""The exact scale applied to lengths below ``SQUARE_UNDERFLOW`` (see there)."""

SQUARE_OVERFLOW = 2.0**511
"""At or above this (or when a difference of coordinates overflows to ``inf``), a
square in a circle overlap test would overflow: the test is then made in exact
rational arithmetic instead (only shapes near ``1e154`` and beyond take that path)."""

EXACT_ORIENT_RANGE = (2.0**-400, 2.0**400)
"""Polygon coordinates that are zero or of a magnitude in this range take the compiled
exact orientation test (``collide2d._kernels.pairs.polygons``): differences of such floats
are at least ``2**-452``, so no product of two of them, nor the error term of one,
underflows, and none overflows, and the error-free products stay exact. Coordinates
beyond take the plain Python route, exact everywhere."""

SWEEP_EXACT_RANGE = (2.0**-120, 2.0**150)
"""Polygon coordinates and motions that are zero or of a magnitude in this range take
the compiled exact sweep (``collide2d._kernels.pairs.polygon_sweeps``): every value is
then a multiple of ``2**-172``, so the error-free products of up to six of them (the
comparison of two pushes' squared lengths) are multiples of ``2**-1032`` and lose no
bits, and none overflows. Other pairs take the plain Python route, exact everywhere."""

CIRCLE_POLYGON_RANGE = (2.0**-450, 2.0**450)
"""A circle's sweep against a polygon or segment estimates its entry in floats before
settling it exactly: its radius and edge lengths must lie in this range (or the radius
be zero), its coordinates and motion below the upper end, so that no square in the
estimate overflows or underflows. Outside it the sweep raises a ``ValueError``."""
