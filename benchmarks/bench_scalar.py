"""Per-call cost of the scalar API, side by side with pygame-ce.

    python3 scripts/run.py bench bench_scalar

pygame-ce's ``Rect.colliderect`` and ``Rect.clipline`` are C functions on integer
rectangles (``FRect`` on floats): the reference a pygame user knows, though they
answer a smaller question (no motion, no normal, no time of impact).
"""

from __future__ import annotations

import os
import platform
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame
from _timing import bar_chart, per_call, table

from collide2d import Circle, Rect, Vec2, overlaps, raycast, sweep

TARGETS_US = {
    "overlaps(rect, rect)": 0.5,
    "sweep(rect, d, rect, d)": 2.0,
    "sweep(circle, d, circle, d)": 2.0,
}


def main() -> None:
    a, b = Rect(0, 0, 10, 10), Rect(25, 5, 10, 10)
    ca, cb = Circle(0, 0, 5), Circle(30, 3, 5)
    da, db = Vec2(30, 2), Vec2(-5, 1)
    pa, pb = pygame.Rect(0, 0, 10, 10), pygame.Rect(25, 5, 10, 10)
    fa, fb = pygame.FRect(0, 0, 10, 10), pygame.FRect(25, 5, 10, 10)
    cases = [
        ("overlaps(rect, rect)", lambda: overlaps(a, b)),
        ("overlaps(rect, rect), hit", lambda: overlaps(a, a)),
        ("overlaps(circle, rect)", lambda: overlaps(ca, b)),
        ("sweep(rect, d, rect, d)", lambda: sweep(a, da, b, db)),
        ("sweep(rect, d, rect), miss", lambda: sweep(a, (0, 30), b)),
        ("sweep(circle, d, circle, d)", lambda: sweep(ca, da, cb, db)),
        ("sweep(circle, d, rect)", lambda: sweep(ca, da, b)),
        ("raycast(rect)", lambda: raycast((0, 7), (40, 0), b)),
        ("raycast(circle)", lambda: raycast((0, 3), (40, 0), cb)),
        ("pygame Rect.colliderect", lambda: pa.colliderect(pb)),
        ("pygame FRect.colliderect", lambda: fa.colliderect(fb)),
        ("pygame Rect.clipline", lambda: pb.clipline(0, 7, 40, 7)),
    ]
    base = per_call(lambda: pa.colliderect(pb))
    rows = []
    costs = []
    for name, func in cases:
        cost = per_call(func)
        costs.append(cost * 1e6)
        target = TARGETS_US.get(name)
        verdict = "" if target is None else ("ok" if cost * 1e6 <= target else "over")
        rows.append(
            [
                name,
                f"{cost * 1e6:.3f}",
                f"{cost / base:.1f}x",
                "" if target is None else f"<= {target} ({verdict})",
            ]
        )
    print(f"python {platform.python_version()}, pygame-ce {pygame.version.ver}")
    print(table(["call", "us per call", "vs Rect.colliderect", "target"], rows))
    names = [name for name, _ in cases]
    print(bar_chart(
        "bench_scalar", "One pair per call: collide2d (red) and pygame-ce (grey)", names,
        costs, "microseconds per call (log scale)", [not n.startswith("pygame") for n in names],
        log=True,
    ))  # fmt: skip


if __name__ == "__main__":
    main()
