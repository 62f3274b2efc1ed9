"""The array engine: compiled kernels and the plain numpy code that drives them.

Kernels are grouped by what they serve, a subpackage each: ``step`` (``World.step``'s
core), ``moves`` (the World's compiled moves), ``mask`` (pixel masks) and ``pairs``
(the batch pair searches and the broadphases). What several of them share stays
here: ``jit`` (the only module that imports numba: the compile settings),
``cache_guard`` (numba's cache kept in step with the sources), ``codes`` (one
numbering of responses and kinds, one value of each limit), ``intervals`` (the slab
and disc intervals), ``sorting``. Kernel modules are numba functions: arrays and
scalars in, counts or filled arrays out; nothing in them checks input or raises.
``pairs.search`` and ``pairs.strip_layout`` are numpy code that builds the
structures and calls the kernels for the batch API and the broadphases.

Every caller reaches a kernel module through :func:`lazy`, so that ``import
collide2d`` neither imports numba nor compiles anything: numba loads on the first
call that needs a kernel.
"""

from __future__ import annotations

import importlib.util
import sys
from types import ModuleType


def lazy(name: str) -> ModuleType:
    """The kernel module ``collide2d._kernels.<name>``, executed on first attribute
    access (numba then compiles the kernels, or loads them from its cache).

    One module object per name (kept in ``sys.modules``), so a later plain import
    gets the same module.

    >>> pairs = lazy("pairs.pairs")
    >>> lazy("pairs.pairs") is pairs
    True
    """
    full = f"{__name__}.{name}"
    module = sys.modules.get(full)
    if module is not None:
        return module
    spec = importlib.util.find_spec(full)
    if spec is None or spec.loader is None:
        raise ModuleNotFoundError(f"no kernel module {full}")
    loader = importlib.util.LazyLoader(spec.loader)
    spec.loader = loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[full] = module
    loader.exec_module(module)
    return module
