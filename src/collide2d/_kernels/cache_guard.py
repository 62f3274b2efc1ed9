"""Numba's on-disk cache, kept in step with every kernel source.

Numba drops a kernel's cached machine code when the kernel's own file changes, not
when a constant or an inlined helper it imports from another file does: edit the
column numbers in ``step_shapes.py`` alone and ``step_core``'s cached kernel keeps
the old ones (found in session 12: a cached core read one column where the
Python side wrote another). :func:`check` keeps, in each cache directory our kernels
use, a digest of all the kernel sources; when it differs from the sources', the
directory's cache files are dropped once, before any is loaded, and compiled again.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
from functools import cache
from pathlib import Path
from typing import Any

STAMP = "collide2d-kernels.sha1"
"""The file, in a cache directory, holding the digest its cache files were made from."""
_checked: set[str] = set()


@cache
def digest() -> str:
    """The SHA-1 of every ``.py`` file of ``collide2d._kernels`` and its subpackages,
    by path."""
    sha = hashlib.sha1()
    top = Path(__file__).parent
    for path in sorted(top.rglob("*.py")):
        sha.update(path.relative_to(top).as_posix().encode())
        sha.update(path.read_bytes())
    return sha.hexdigest()


def check(dispatcher: Any) -> None:
    """Drop the cache files of ``dispatcher``'s cache directory if they were made
    from other kernel sources (module docstring); once a directory a process.

    Numba's own attributes locate the directory; if they are missing (another
    numba), nothing is done. Errors of the file system (a read-only install, a
    file another process removed first) are ignored: the worst case is numba's
    own behaviour."""
    path = getattr(getattr(dispatcher, "_cache", None), "_cache_path", None)
    if not isinstance(path, str) or path in _checked:
        return
    _checked.add(path)
    stamp = os.path.join(path, STAMP)
    try:
        with open(stamp, encoding="ascii") as file:
            if file.read().strip() == digest():
                return
    except OSError:
        pass
    try:
        names = os.listdir(path)
    except OSError:
        names = []
    for name in names:
        if name.endswith((".nbi", ".nbc")):
            with contextlib.suppress(OSError):
                os.remove(os.path.join(path, name))
    try:
        os.makedirs(path, exist_ok=True)
        with open(stamp, "w", encoding="ascii") as file:
            file.write(digest() + "\n")
    except OSError:
        pass


def cached(dispatcher: Any) -> bool:
    """Whether numba's cache holds ``dispatcher``'s machine code for these kernel
    sources (its index file, in a directory stamped with their digest): its first
    call then loads it (under a second) rather than compiling. True for a function
    numba does not cache (nothing to wait for)."""
    cache = getattr(dispatcher, "_cache", None)
    path = getattr(cache, "_cache_path", None)
    index = getattr(getattr(cache, "_cache_file", None), "_index_path", None)
    if not isinstance(path, str) or not isinstance(index, str):
        return True
    try:
        with open(os.path.join(path, STAMP), encoding="ascii") as file:
            return file.read().strip() == digest() and os.path.exists(index)
    except OSError:
        return False
