"""Timing helpers shared by the benchmarks: best-of-N per-call cost, markdown tables."""

from __future__ import annotations

import timeit
from collections.abc import Callable, Sequence


def per_call(func: Callable[[], object], repeat: int = 7) -> float:
    """Best per-call time in seconds of ``func()`` over ``repeat`` autoranged runs."""
    timer = timeit.Timer(func)
    number, _ = timer.autorange()
    return min(timer.repeat(repeat=repeat, number=number)) / number


def table(header: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    """A markdown table."""
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(str(cell) for cell in row) + " |" for row in rows]
    return "\n".join(lines)
