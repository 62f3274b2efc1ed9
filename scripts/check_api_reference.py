#!/usr/bin/env python3
"""Check that the built API reference documents every public name and member.

    python scripts/check_api_reference.py build/docs/api.html

A public member is a name without a leading underscore that a class exported in
``collide2d.__all__`` (or ``collide2d.distributed.__all__``) defines or inherits
from one of collide2d's own classes (not ``tuple.count`` or ``Exception.args``).
Each must have an anchor ``id="collide2d.Class.member"`` in the page with some
text after its signature. Exits with 1 and the list of what is missing.
"""

from __future__ import annotations

import inspect
import re
import sys
from collections.abc import Iterable
from pathlib import Path
from types import ModuleType


def public_members(module: ModuleType) -> list[str]:
    """Every ``Class.member`` and module-level name that the reference must show."""
    names = []
    for name in module.__all__:
        value = getattr(module, name)
        names.append(name)
        if not inspect.isclass(value):
            continue
        for member in dir(value):
            if member.startswith("_"):
                continue
            owner = next(c for c in value.__mro__ if member in c.__dict__)
            if owner.__module__.split(".")[0] == "collide2d":
                names.append(f"{name}.{member}")
    return names


def missing(page: str, names: Iterable[str], prefix: str) -> list[str]:
    """The names without an anchor, or whose entry has no description, in ``page``."""
    absent = []
    for name in names:
        anchor = f'id="{prefix}.{name}"'
        at = page.find(anchor)
        if at < 0:
            absent.append(name)
            continue
        # the entry is <dt id=...>signature</dt><dd>description</dd>
        entry = re.match(r".*?</dt>\s*<dd>(.*?)</dd>", page[at:], re.DOTALL)
        text = re.sub(r"<[^>]+>", "", entry.group(1)).strip() if entry else ""
        if not text:
            absent.append(f"{name} (no description)")
    return absent


def main(argv: list[str]) -> int:
    import collide2d
    import collide2d.distributed

    page = Path(argv[0] if argv else "build/docs/api.html").read_text(encoding="utf-8")
    problems = missing(page, public_members(collide2d), "collide2d")
    problems += missing(page, public_members(collide2d.distributed), "collide2d.distributed")
    if problems:
        print("the API reference leaves out:", *problems, sep="\n  ")
        return 1
    print(f"the API reference documents all {len(public_members(collide2d))} public names")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
