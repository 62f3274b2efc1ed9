"""The structure docs/architecture.md promises: imports point down, modules stay small,
no package imports itself in a circle."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "src" / "collide2d"
MAX_LINES = 500

ALLOWED_UPWARD = {
    ("collide2d.mask.mask", "collide2d.interop.image"): (
        "the deprecated Mask.from_image forwards to interop.image.mask_from_image for one "
        "release (removed in 0.3.0)"
    ),
}
"""Imports that break the layer rule on purpose, each with its reason."""


def layer_table() -> dict[str, int]:
    """Unit -> layer number (0 is the bottom), read from docs/architecture.md."""
    text = (ROOT / "docs" / "architecture.md").read_text()
    block = text.split("<!-- layers:")[1].split("<!-- end layers -->")[0]
    rows = [line for line in block.splitlines() if line.startswith("| ") and "`" in line]
    layers: dict[str, int] = {}
    for number, row in enumerate(reversed(rows)):
        units_cell = row.split("|")[2]
        for unit in re.findall(r"`([\w.]+)`", units_cell):
            layers[unit] = number
    return layers


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def unit_of(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "collide2d"


def is_module(name: str) -> bool:
    relative = Path(*name.split("."))
    base = PACKAGE.parent / relative
    return base.with_suffix(".py").exists() or (base / "__init__.py").exists()


def imports_of(path: Path) -> list[tuple[str, int]]:
    """Every collide2d module ``path`` imports (anywhere in it), with the line."""
    tree = ast.parse(path.read_text())
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(alias.name, node.lineno) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:
                candidate = f"{node.module}.{alias.name}"
                found.append((candidate if is_module(candidate) else node.module, node.lineno))
    return [(name, line) for name, line in found if name.split(".")[0] == "collide2d"]


SOURCES = sorted(PACKAGE.rglob("*.py"))


def test_the_layer_table_names_every_unit():
    layers = layer_table()
    units = {unit_of(module_name(path)) for path in SOURCES}
    assert units <= set(layers), f"units missing from docs/architecture.md: {units - set(layers)}"


def test_imports_point_down_only():
    layers = layer_table()
    wrong = []
    for path in SOURCES:
        source = module_name(path)
        for target, line in imports_of(path):
            a, b = unit_of(source), unit_of(target)
            if a == b or layers[b] < layers[a] or (source, target) in ALLOWED_UPWARD:
                continue
            direction = "sideways" if layers[b] == layers[a] else "up"
            wrong.append(
                f"{path.relative_to(ROOT)}:{line}: {source} imports {target} ({direction})"
            )
    assert not wrong, "\n".join(wrong)


def test_no_package_imports_itself_in_a_circle():
    graph: dict[str, set[str]] = {}
    for path in SOURCES:
        source = module_name(path)
        graph[source] = {
            target
            for target, _ in imports_of(path)
            if unit_of(target) == unit_of(source)
            and target != source
            and not source.startswith(target + ".")  # a module and its own package __init__
        }
    state: dict[str, int] = {}

    def visit(node: str, trail: list[str]) -> None:
        state[node] = 1
        for nxt in graph.get(node, ()):
            if state.get(nxt) == 1:
                cycle = trail[trail.index(nxt) :] if nxt in trail else trail
                raise AssertionError(f"import cycle: {' -> '.join([*cycle, nxt])}")
            if nxt not in state:
                visit(nxt, [*trail, nxt])
        state[node] = 2

    for node in graph:
        if node not in state:
            visit(node, [node])


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_modules_stay_under_500_lines(path):
    assert len(path.read_text().splitlines()) <= MAX_LINES


def test_importing_the_package_loads_no_numba_pygame_pillow_or_dask():
    code = (
        "import sys, collide2d, collide2d.mask, collide2d.broadphase, collide2d.batch\n"
        "print(sorted(m for m in ('numba', 'pygame', 'PIL', 'dask') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
