"""Run a Lua script as ``luajit SCRIPT ARGS...`` or ``lua5.1 SCRIPT ARGS...`` would, on
the interpreters that the ``lupa`` wheel carries (LuaJIT 2.1 and Lua 5.1), for
machines without them installed.

    python benchmarks/lupa_lua.py luajit SCRIPT [ARGS...]
"""

from __future__ import annotations

import importlib
import sys

RUNTIMES = {"luajit": "lupa.luajit21", "lua5.1": "lupa.lua51"}


def available(lua: str) -> bool:
    """Whether ``lupa`` has the runtime standing in for ``lua``."""
    try:
        importlib.import_module(RUNTIMES[lua])
    except (ImportError, KeyError):
        return False
    return True


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
