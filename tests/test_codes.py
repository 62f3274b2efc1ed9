"""One numbering of responses and kinds, one value of each limit: ``_kernels/codes.py``."""

from __future__ import annotations

import ast
import importlib
import pkgutil
from pathlib import Path

import pytest

import collide2d
from collide2d._kernels import codes
from collide2d.world import move_all, step_filter

SHARED = ("IGNORE", "CROSS", "TOUCH", "SLIDE", "BOUNCE", "RECT", "CIRCLE", "MASK",
          "MAX_RESPONSES", "SNAP_STEPS", "EVENT_CAP", "RESPONSES")  # fmt: skip
SOURCE = Path(collide2d.__file__).parent


def test_no_module_but_codes_assigns_a_shared_name():
    assigned = []
    for path in sorted(SOURCE.rglob("*.py")):
        if path.name == "codes.py" and path.parent.name == "_kernels":
            continue
        for node in ast.parse(path.read_text()).body:
            targets = node.targets if isinstance(node, ast.Assign) else []
            names = [n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)]
            assigned += [(path.name, name) for name in names if name in SHARED]
    assert assigned == []


@pytest.mark.parametrize(
    "name",
    [m.name for m in pkgutil.walk_packages(collide2d._kernels.__path__, "collide2d._kernels.")],
)
def test_every_kernel_module_sees_the_shared_values(name):
    module = importlib.import_module(name)
    for shared in SHARED:
        if hasattr(module, shared):
            assert getattr(module, shared) == getattr(codes, shared), (name, shared)


def test_the_moves_and_the_step_number_responses_alike():
    for name, code in move_all.CODES.items():
        assert codes.RESPONSES[code] == name
        assert move_all.RESPONSE_NAMES[code] == name
    assert set(move_all.CODES) == {"touch", "cross", "slide"}
    for name, code in step_filter.CODES.items():
        assert code == (codes.RESPONSES.index(name) if name else codes.IGNORE)
    assert (codes.IGNORE, codes.CROSS, codes.TOUCH) == (0, 1, 2)
