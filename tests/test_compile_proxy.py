"""What ``World.step``'s first call compiles, counted: a proxy for its compile time
and memory that a test can hold still (the time itself is measured in
``benchmarks/bench_cold.py``, never asserted).

numba compiles a kernel once for each combination of argument types it is called
with; a helper inlined in numba's IR (``inline="always"``) is typed again at every
call. Both once made the first step take minutes and gigabytes
(``docs/step.md``, "The first call")."""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import collide2d._kernels as kernels

# In a process of its own with an empty numba cache (what a new install compiles; a
# kernel loaded from the cache brings the helpers it calls inside its own code, and
# they are never compiled or counted): the steps of ``collide2d warmup``, then every
# step kernel's signatures.
_SIGNATURES = """
import json, re, sys
from numba.core.registry import CPUDispatcher
from collide2d.warmup import _world_step

_world_step()
kernels = {
    f"{name.rsplit('.', 1)[1]}.{attr}": obj
    for name, module in list(sys.modules.items()) if name.startswith("collide2d._kernels.step")
    for attr, obj in vars(module).items()
    if isinstance(obj, CPUDispatcher) and obj.py_func.__module__ == name and obj.signatures
}
inlined = {
    compiled.fndesc.llvm_func_name
    for obj in kernels.values() if getattr(obj, "_collide2d_inlined", False)
    for compiled in obj.overloads.values()
}
loop = kernels["step_events.run_events"]
code = str(next(iter(loop.overloads.values())).library._get_module_for_linking())
called = set(re.findall(r'call [^@\\n]*@"?([^"( ]+)', code))
print(json.dumps({
    "signatures": {name: [str(sig) for sig in obj.signatures] for name, obj in kernels.items()},
    "inlined": len(inlined),
    "called": sorted(called & inlined),
}))
"""
MOST_KERNELS = 149
"""Step kernels compiled for one step of each kind (134 when this was written; 287
compiles for 161 functions before literal and integer-width copies were removed;
142 once a frozen body yields and contacts of rounding size are counted, three small
inlined helpers and a crush check; 147 with the five one-line stand-ins a world
without polygons compiles in place of the polygon pairs' kernels, ``step_polygons``)."""
GENERIC = {"step_arena.carve": 3}
"""Kernels meant for several argument types: ``carve`` cuts pools of three dtypes."""


def _compiled() -> dict:
    with tempfile.TemporaryDirectory() as cache:
        out = subprocess.run(
            [sys.executable, "-c", _SIGNATURES],
            env=dict(os.environ, NUMBA_CACHE_DIR=cache),
            capture_output=True,
            text=True,
            check=True,
        )
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_one_step_compiles_each_kernel_once_and_inlines_its_helpers():
    compiled = _compiled()
    signatures = compiled["signatures"]
    assert 40 < len(signatures) <= MOST_KERNELS, len(signatures)
    copies = {name: sigs for name, sigs in signatures.items() if len(sigs) > GENERIC.get(name, 1)}
    assert not copies, copies
    assert not any("Literal" in sig for sigs in signatures.values() for sig in sigs)
    # LLVM inlined every helper meant to be (``jit.inlined_helper``) into the event
    # loop: none is called there
    assert compiled["inlined"] > 40
    assert compiled["called"] == []
    # Worlds without polygons compile their one-line stand-ins, never the polygon
    # pairs' kernels (``step_polygons``: about 35 s of a first step)
    polygon = sorted(name for name in signatures if name.startswith("step_polygons."))
    assert polygon and all(name.startswith("step_polygons._no_") for name in polygon), polygon


def test_no_step_helper_is_inlined_in_numbas_ir():
    """``jit.inline_kernel`` copies a helper's typed IR into each call: in the step's
    helpers, called from many places of large kernels, minutes of compiling."""
    folder = Path(kernels.__file__).parent
    decorators = {
        (path.stem, node.name, decorator.id)
        for path in sorted((folder / "step").glob("step_*.py"))
        for node in ast.parse(path.read_text()).body
        if isinstance(node, ast.FunctionDef)
        for decorator in node.decorator_list
        if isinstance(decorator, ast.Name)
    }
    assert len(decorators) > 100  # (the check reads the decorators it means to)
    assert [entry for entry in decorators if entry[2] == "inline_kernel"] == []
