"""The array engine: compiled kernels and the plain numpy code that drives them.

Kernels are grouped by what they serve, a subpackage each: ``step`` (``World.step``'s
core), ``moves`` (the World's compiled moves), ``mask`` (pixel masks) and ``pairs``
(the batch pair searches and the broadphases). What several of them share stays
here: ``jit`` (the only module that imports numba: the compile settings),
``cache_guard`` (numba's cache kept in step with the sources), ``codes`` (one
numbering of responses and kinds, one value of each limit), ``intervals`` (the slab
and disc intervals), ``sorting``, ``expansions`` (exact sums and products of
floats). Kernel modules are numba functions: arrays and scalars in, counts or
filled arrays out; nothing in them checks input or raises.
``pairs.search`` and ``pairs.strip_layout`` are numpy code that builds the
structures and calls the kernels for the batch API and the broadphases.

Every caller reaches a kernel module through :func:`lazy`, so that ``import
collide2d`` neither imports numba nor compiles anything: numba loads on the first
call that needs a kernel.
"""

from __future__ import annotations

import importlib.util
import sys
import threading
from importlib.machinery import ModuleSpec
from types import ModuleType
from typing import Any


def lazy(name: str) -> ModuleType:
    """The kernel module ``collide2d._kernels.<name>``, executed on first attribute
    access (numba then compiles the kernels, or loads them from its cache).

    One module object per name (kept in ``sys.modules``), so a later plain import
    gets the same module.

    >>> pairs = lazy("pairs.pairs")
    >>> lazy("pairs.pairs") is pairs
    True
    """
    return lazy_module(f"{__name__}.{name}")


def lazy_module(full: str) -> ModuleType:
    """The module ``full``, executed on first attribute access, once, whichever
    threads ask at once.

    ``importlib.util.LazyLoader`` is not safe there before Python 3.13 (CPython
    gh-114763): it turns the module into a plain one *before* running its code, so
    a second thread asking meanwhile finds a half-made module (a batch call's two
    threads, each reaching for the kernel, raised ``AttributeError``). Here the
    module stays lazy until its code has run, and the first access runs it under a
    lock that the other threads wait on."""
    module = sys.modules.get(full)
    if module is not None:
        return module
    with _LOADING:
        module = sys.modules.get(full)
        if module is not None:
            return module
        spec = importlib.util.find_spec(full)
        if spec is None or spec.loader is None:
            raise ModuleNotFoundError(f"no kernel module {full}")
        module = importlib.util.module_from_spec(spec)
        _PENDING[full] = spec
        module.__class__ = _LazyModule
        sys.modules[full] = module
        return module


_LOADING = threading.RLock()
_PENDING: dict[str, ModuleSpec] = {}
"""The lazy modules not yet run, by name (their specs)."""


class _LazyModule(ModuleType):
    """A module whose code runs on its first attribute access (see
    :func:`lazy_module`); a plain module from then on."""

    def __getattribute__(self, attr: str) -> Any:
        if object.__getattribute__(self, "__class__") is _LazyModule:
            with _LOADING:  # (re-entrant: the thread running the code passes again)
                name = ModuleType.__getattribute__(self, "__name__")
                spec = _PENDING.pop(name, None)
                if spec is not None:
                    try:
                        spec.loader.exec_module(self)  # type: ignore[union-attr]
                    except BaseException:
                        _PENDING[name] = spec
                        raise
                    object.__setattr__(self, "__class__", ModuleType)
        return ModuleType.__getattribute__(self, attr)
