"""The ``collide2d`` command: ``demo``, ``bench``, ``info`` and ``warmup``."""

from __future__ import annotations

import argparse
import logging
import platform
import sys
import time
from collections.abc import Sequence
from importlib import metadata
from pathlib import Path

from collide2d import demos

DEFAULT_OUT = Path("collide2d-screenshots")


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="collide2d",
        description="Exact 2D collision detection: demos, benchmarks and information.",
        epilog="Run `collide2d COMMAND --help` for a command's options.",
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    demo = commands.add_parser(
        "demo",
        help="run the demo showcase (headless without a display: writes screenshots)",
        description="Run one demo, or the showcase of all of them. With no display "
        "(or with --headless) each demo plays a scripted scene and writes a PNG.",
    )
    demo.add_argument("name", nargs="?", help="the demo to run; all of them when omitted")
    demo.add_argument("--list", action="store_true", help="list the demos and exit")
    demo.add_argument("--headless", action="store_true", help="run without a window")
    demo.add_argument(
        "--frames", type=int, default=120, help="frames to play headless (default 120)"
    )
    demo.add_argument(
        "--out", type=Path, default=DEFAULT_OUT, help=f"screenshot folder (default {DEFAULT_OUT})"
    )
    bench = commands.add_parser(
        "bench",
        help="print the check-count table: checks each broadphase makes against brute force",
        description="Count the exact checks each broadphase (uniform grid, quadtree, "
        "sort and sweep, sorted strips) makes to find every overlapping pair of balls, "
        "against brute force's n(n-1)/2, and print the table.",
    )
    bench.add_argument(
        "--sizes",
        type=int,
        nargs="+",
        default=None,
        help="numbers of balls (default: 10 50 100 166 500 1000 2000)",
    )
    commands.add_parser(
        "info",
        help="print versions and whether numba compiles",
        description="Print the versions of collide2d, Python and the dependencies, and "
        "whether numba can compile here (what to paste into a bug report).",
    )
    warm = commands.add_parser(
        "warmup",
        help="compile every kernel now, so no later first call waits",
        description="Compile and cache every compiled kernel (numba compiles each one "
        "the first time it runs on a machine; afterwards it loads from the cache). "
        "Prints a progress line per area and its time.",
    )
    warm.add_argument(
        "--kernels", action="store_true", help="also list each kernel compiled and its time"
    )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status."""
    parser = _parser()
    args = parser.parse_args(argv)
    if args.command is None:  # a bare `collide2d`: what it can do, not an error
        parser.print_help()
        return 0
    _show_compile_notice()
    if args.command == "warmup":
        from collide2d.warmup import warmup

        warmup(kernels=args.kernels)
        return 0
    if args.command == "info":
        print(info())
        return 0
    if args.command == "bench":
        from collide2d.check_counts import SIZES, check_count_table

        sizes = args.sizes or SIZES
        if min(sizes) < 1:
            parser.error(f"--sizes must be positive, got {sizes}")
        print("Exact checks made to find every overlapping pair of balls (radius 4 to 12)")
        print("in a 960 x 640 window, and how many times fewer than brute force:\n")
        print(check_count_table(sizes))
        return 0
    return _demo(parser, args)


def _demo(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    if args.list:
        width = max(map(len, demos.names()))
        for name in demos.names():
            print(f"{name:<{width}}  {demos.DESCRIPTIONS[name]}")
        return 0
    if args.frames < 1:
        parser.error(f"--frames must be at least 1, got {args.frames}")
    if args.name is not None and args.name not in demos.REGISTRY:
        parser.error(f"unknown demo {args.name!r}; choose one of {', '.join(demos.names())}")
    names = [args.name] if args.name else demos.names()
    try:
        from collide2d.demos._app import App, headless_default
    except ImportError as error:
        print(f"the demos need pygame-ce: pip install 'collide2d[demo]' ({error})", file=sys.stderr)
        return 1
    headless = args.headless or headless_default()
    app = App(headless=headless)
    try:
        if headless:
            why = "--headless" if args.headless else "no display"
            print(f"{why}: running {len(names)} demo(s) headless into {args.out}/")
            kinds = [demos.load(name) for name in names]
            app.prepare(kinds)  # the later demos' slow kernels compile meanwhile
            for name, kind in zip(names, kinds, strict=True):
                start = time.perf_counter()
                app.ready(kind)
                path = app.run_headless(kind(), args.frames, args.out)
                # (the first run on a machine includes compiling the demo's kernels)
                print(f"  {name}: wrote {path} in {time.perf_counter() - start:.1f} s")
        else:
            app.run_window([demos.load(name) for name in names])
    finally:
        app.close()
    return 0


def _show_compile_notice() -> None:
    """Let the one-time "compiling kernels" message of the ``collide2d`` logger reach
    the terminal (a library stays silent unless its user configures logging)."""
    logger = logging.getLogger("collide2d")
    if not logger.handlers:
        logger.addHandler(_Stderr())
        logger.setLevel(logging.INFO)


class _Stderr(logging.Handler):
    """Prints a record's message to the standard error of the moment."""

    def emit(self, record: logging.LogRecord) -> None:
        print(record.getMessage(), file=sys.stderr)


def info() -> str:
    """Versions of collide2d and its dependencies, and whether numba compiles here."""
    lines = [f"collide2d {metadata.version('collide2d')}"]
    lines.append(f"python {platform.python_version()} ({platform.python_implementation()})")
    lines.append(f"platform {platform.platform()}")
    for package in ("numpy", "numba", "llvmlite", "pygame-ce", "pillow"):
        try:
            lines.append(f"{package} {metadata.version(package)}")
        except metadata.PackageNotFoundError:
            lines.append(f"{package} not installed")
    lines.append(f"numba status: {_numba_status()}")
    return "\n".join(lines)


def _numba_status() -> str:
    try:
        import numba
    except ImportError as error:
        return f"unavailable ({error})"
    try:
        add = numba.njit(lambda x, y: x + y)
        ok = add(1, 2) == 3
    except Exception as error:  # any failure to compile is the answer we report
        return f"import ok, compile failed ({type(error).__name__}: {error})"
    return "compiles and runs" if ok else "compiled but returned a wrong result"
