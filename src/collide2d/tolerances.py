"""Every numerical tolerance of collide2d, named once, with its reason.

The rectangle tests use none: they are exact comparisons and correctly rounded
divisions (see ``docs/concepts.md``, "Exactness").
"""

CIRCLE_EXACT_FALLBACK = 1e-3
"""Relative size below which a circle sweep's discriminant (against ``a r^2``) or
start distance ``c`` (against ``|p|^2``) is recomputed with exact rationals.

Floating-point rounding of ``b^2 - a c`` costs about ``2**-52 / D`` relative error in
the time of impact, where ``D`` is that ratio; below ``1e-3`` we pay for exact
arithmetic so the fraction stays within ``1e-12`` of the exact root everywhere the
discriminant is not itself within ``1e-9`` of zero."""
