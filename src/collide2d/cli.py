"""The ``collide2d`` command: ``demo``, ``bench`` and ``info``."""

from __future__ import annotations

import argparse
import platform
import sys
from collections.abc import Sequence
from importlib import metadata
from pathlib import Path

from collide2d import demos

DEFAULT_OUT = Path("collide2d-screenshots")


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="collide2d", description="Exact 2D collision detection: demos and information."
    )
    commands = parser.add_subparsers(dest="command", required=True)
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
    )
    bench.add_argument(
        "--sizes",
        type=int,
        nargs="+",
        default=None,
        help="numbers of balls (default: 10 50 100 166 500 1000 2000)",
    )
    commands.add_parser("info", help="print versions and whether numba compiles")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status."""
    parser = _parser()
    args = parser.parse_args(argv)
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
        for name in demos.names():
            print(name)
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
            print(f"no display: running {len(names)} demo(s) headless into {args.out}/")
            for name in names:
                path = app.run_headless(demos.load(name)(), args.frames, args.out)
                print(f"  {name}: wrote {path}")
        else:
            app.run_window([demos.load(name) for name in names])
    finally:
        app.close()
    return 0


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
