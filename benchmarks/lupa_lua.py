"""Run a Lua script as ``luajit SCRIPT ARGS...`` or ``lua5.1 SCRIPT ARGS...`` would, on
the interpreters that the ``lupa`` wheel carries (LuaJIT 2.1 and Lua 5.1), for
machines without them installed.

    python benchmarks/lupa_lua.py luajit SCRIPT [ARGS...]
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable

RUNTIMES = {"luajit": "lupa.luajit21", "lua5.1": "lupa.lua51"}


def available(lua: str) -> bool:
    """Whether ``lupa`` has the runtime standing in for ``lua``."""
    try:
        importlib.import_module(RUNTIMES[lua])
    except (ImportError, KeyError):
        return False
    return True


def frame(lua: str, script: str, *args: str) -> Callable[[], object]:
    """Run ``script`` in this process with ``args`` and ``"frame"`` as its arguments,
    and return what it returns (``bump_driver.lua``: its frame function, for a caller
    that times frames in turn with its own)."""
    runtime = importlib.import_module(RUNTIMES[lua]).LuaRuntime()
    arg = runtime.table(*args, "frame")
    arg[0] = script
    runtime.globals().arg = arg
    with open(script, encoding="utf-8") as source:
        return runtime.execute(source.read())  # type: ignore[no-any-return]


def main(argv: list[str]) -> int:
    lua, script, *args = argv
    runtime = importlib.import_module(RUNTIMES[lua]).LuaRuntime()
    arg = runtime.table(*args)  # arg[1], arg[2]...
    arg[0] = script
    runtime.globals().arg = arg
    with open(script, encoding="utf-8") as source:
        runtime.execute(source.read())
    runtime.execute("io.stdout:flush()")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
