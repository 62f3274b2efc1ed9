"""Run hypothesis property tests far beyond the suite's examples, hunting for the
rare scene that breaks them.

The suite draws a few hundred examples a test, the same ones every CI run (the "ci"
profile is derandomized); the bugs the step's properties found were one scene in
2,000 to 25,000. Here each named test runs ``--examples`` new random examples, with
no deadline and no health checks, one after another, and a failure is printed with
hypothesis' shrunk example. With ``--log FILE`` each example's arguments are written
to FILE before it runs (a ``World`` as the code that builds it), so a scene that
never returns (compiled code cannot be interrupted) is named by the file when one
example runs longer than ``--timeout`` seconds (every thread's traceback is printed
and the process exits). With a timeout, the kernels are loaded (or compiled, after a
kernel's source changed) by ``collide2d.warmup`` first, so that a compile is not
taken for a scene that never returns.

    python scripts/hunt.py --examples 100000 \
        tests/world/test_step_properties.py::test_the_step_equals_the_exact_reference

Exit status 1 if any test failed or the time ran out.
"""

from __future__ import annotations

import argparse
import faulthandler
import importlib
import inspect
import io
import sys
import time
import traceback
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def load(spec: str) -> Any:
    """The test function named ``path/to/test_file.py::test_name``."""
    path, _, name = spec.partition("::")
    module = ".".join(Path(path).resolve().relative_to(ROOT).with_suffix("").parts)
    return getattr(importlib.import_module(module), name)


def describe(name: str, value: Any) -> str:
    """``name = value`` as code: a ``World`` as the calls that build it again."""
    from collide2d import PlacedMask, World
    from collide2d.world.step import RESPONSES

    if not isinstance(value, World):
        return f"{name} = {value!r}"
    groups = {number: group for group, number in value._groups.items()}
    lines = [f"{name} = World()"]
    for (a, b), (code, e) in sorted(value._pair_responses.items()):
        if a <= b:
            response = RESPONSES[code]
            lines.append(
                f"{name}.set_response({groups[a]!r}, {groups[b]!r}, {response!r}, "
                f"restitution={e!r})"
            )
    for item in value:
        group = groups[int(value._table.group[value._table.slot[item]])]
        velocity = tuple(value.velocity(item))
        shape = value.shape(item)
        shown = repr(shape)
        if isinstance(shape, PlacedMask):  # (its pixels, not its size and count)
            pixels = shape.mask.to_array().astype(int).tolist()
            shown = f"PlacedMask(Mask.from_array({pixels!r}), {shape.x!r}, {shape.y!r})"
        lines.append(
            f"{name}.add({item!r}, {shown}, velocity={velocity!r}, "
            f"group={group!r}, mass={value.mass(item)!r})"
        )
    return "\n".join(lines).replace("inf)", "math.inf)")


def hunt(test: Any, examples: int, log: Path | None, timeout: float) -> bool:
    """Run ``test`` (a hypothesis test) for ``examples`` new examples; True if all pass."""
    from hypothesis import HealthCheck, settings

    fixtures = list(inspect.signature(test).parameters)
    if fixtures:  # (what @given leaves to pytest)
        print(f"  needs pytest's fixtures {fixtures}: not run here", flush=True)
        return False

    test._hypothesis_internal_use_settings = settings(
        test._hypothesis_internal_use_settings,
        max_examples=examples,
        deadline=None,
        derandomize=False,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    if log is not None:
        inner = test.hypothesis.inner_test

        def logged(*args: Any, **kwargs: Any) -> Any:
            shown = [describe(f"arg{i}", a) for i, a in enumerate(args)]
            shown += [describe(k, v) for k, v in kwargs.items()]
            log.write_text("\n".join(shown) + "\n")
            if timeout > 0:  # (each call starts the clock again)
                faulthandler.dump_traceback_later(timeout, exit=True)  # (exit status 1)
            return inner(*args, **kwargs)

        test.hypothesis.inner_test = logged
    try:
        test()
    except Exception:
        traceback.print_exc()
        return False
    return True


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("tests", nargs="+", help="path/to/test_file.py::test_name")
    parser.add_argument("--examples", type=int, default=10_000)
    parser.add_argument("--log", type=Path, help="each example's arguments, written before it runs")
    parser.add_argument("--timeout", type=float, default=0.0, help="seconds an example (0: none)")
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    if args.timeout > 0:
        from collide2d.warmup import warmup

        print(f"kernels loaded in {warmup(out=io.StringIO()):.0f} s", flush=True)
    failed = 0
    for spec in args.tests:
        start = time.perf_counter()
        print(f"{spec}: {args.examples} examples ...", flush=True)
        passed = hunt(load(spec), args.examples, args.log, args.timeout)
        failed += not passed
        state = "passed" if passed else "FAILED"
        print(f"  {state} in {time.perf_counter() - start:.0f} s", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
