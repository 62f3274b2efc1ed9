"""Timing helpers shared by the benchmarks: best-of-N per-call cost, markdown tables."""

from __future__ import annotations

import argparse
import timeit
from collections.abc import Callable, Collection, Sequence


def per_call(func: Callable[[], object], repeat: int = 7) -> float:
    """Best per-call time in seconds of ``func()`` over ``repeat`` autoranged runs."""
    timer = timeit.Timer(func)
    number, _ = timer.autorange()
    return min(timer.repeat(repeat=repeat, number=number)) / number


def in_turn(
    func: Callable[[], object], twin: Callable[[], object], rounds: int = 101, number: int = 1000
) -> tuple[float, float, float]:
    """``func`` and ``twin`` timed in turn, ``number`` calls each, ``rounds`` times:
    the best per-call seconds of each and the median of the rounds' ratios
    ``twin / func``. The turns are short (milliseconds), so that both sides of a
    ratio see the machine at the same speed: this one's swings twofold within
    seconds."""
    ours = timeit.Timer(func)
    theirs = timeit.Timer(twin)
    mine, peer = [], []
    for _ in range(rounds):
        mine.append(ours.timeit(number) / number)
        peer.append(theirs.timeit(number) / number)
    ratios = sorted(t / o for o, t in zip(mine, peer, strict=True))
    return min(mine), min(peer), ratios[len(ratios) // 2]


def ab_arguments(description: str, known: Collection[str], revisions: str) -> argparse.Namespace:
    """The arguments of an A/B benchmark of two revisions (``ab_step.py``,
    ``ab_together.py``): ``a``, ``b`` (``revisions`` says what they may be),
    ``--rounds`` (at least 1) and ``--scenes`` (a list of ``known`` ones, checked)."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("a", help=f"the revision before ({revisions})")
    parser.add_argument("b", help="the revision after")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--scenes", default="gas,swarm,bullets")
    args = parser.parse_args()
    args.scenes = args.scenes.split(",")
    for scene in args.scenes:
        if scene not in known:
            parser.error(f"--scenes: unknown scene {scene!r} (known: {', '.join(known)})")
    if args.rounds < 1:
        parser.error(f"--rounds must be >= 1, got {args.rounds}")
    return args


def table(header: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    """A markdown table."""
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(str(cell) for cell in row) + " |" for row in rows]
    return "\n".join(lines)


DOC_IMAGES = __import__("pathlib").Path(__file__).resolve().parent.parent / "docs" / "images"
"""Where the benchmarks draw their charts (the documentation site shows them)."""


def bar_chart(
    name: str, title: str, labels: Sequence[str], values: Sequence[float], unit: str,
    highlight: Sequence[bool] | None = None, log: bool = False,
) -> str:  # fmt: skip
    """Draw a horizontal bar chart into ``docs/images/<name>.png`` with matplotlib and
    return where (or why not: matplotlib is in the ``bench`` extra)."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return "chart not drawn: pip install matplotlib"
    DOC_IMAGES.mkdir(parents=True, exist_ok=True)
    path = DOC_IMAGES / f"{name}.png"
    marks = highlight if highlight is not None else [True] * len(labels)
    colours = ["#d9534f" if mark else "#7a8699" for mark in marks]
    figure, axes = plt.subplots(figsize=(8, 0.45 * len(labels) + 1.2), dpi=100)
    rows = range(len(labels))
    axes.barh(list(rows), list(values), color=colours)
    axes.set_yticks(list(rows), list(labels))
    axes.invert_yaxis()
    axes.set_xlabel(unit)
    if log:
        axes.set_xscale("log")
    axes.set_title(title)
    for row, value in zip(rows, values, strict=True):
        axes.annotate(f" {value:.3g}", (value, row), va="center", fontsize=8)
    figure.tight_layout()
    figure.savefig(path)
    plt.close(figure)
    return f"chart: {path}"
