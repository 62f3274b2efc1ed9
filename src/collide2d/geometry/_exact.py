"""Exact arithmetic on floats as Python integers, for the polygon predicates.

Every finite float is ``m * 2**k`` for integers ``m`` and ``k``. Scaling a handful
of floats to one common power of two turns them into integers with the same
ratios, so sums, differences and products of them (orientation determinants,
dot products, the times of a sweep) are exact, and comparing two such numbers
(or two ratios of them, by cross-multiplying) decides exactly what rational
arithmetic on the floats would decide. CPython's integers of a hundred bits or
so cost about what floats cost, so this is the cheap way to be exact in plain
Python (``fractions.Fraction`` does the same with a gcd per operation).
"""

from __future__ import annotations

import math


def scale(values: list[float]) -> tuple[list[int], int]:
    """Return ``(ints, e)`` with ``values[i] == ints[i] * 2**e`` exactly and ``e <= 0``.

    >>> scale([0.5, 3.0, -0.25])
    ([2, 12, -1], -2)
    """
    ratios = [value.as_integer_ratio() for value in values]
    shift = max(denominator.bit_length() - 1 for _, denominator in ratios)
    return [
        numerator << (shift - denominator.bit_length() + 1) for numerator, denominator in ratios
    ], -shift


def ratio_floor(numerator: int, denominator: int) -> float:
    """The largest float not above ``numerator / denominator`` (``denominator > 0``).

    Python's ``int / int`` is correctly rounded to the nearest float; one step
    down when that rounded up gives the floor.

    >>> ratio_floor(1, 3) <= 1 / 3, ratio_floor(1, 2)
    (True, 0.5)
    """
    value = numerator / denominator
    top, bottom = value.as_integer_ratio()
    if top * denominator > numerator * bottom:
        value = math.nextafter(value, -math.inf)
    return value + 0.0  # no negative zero
