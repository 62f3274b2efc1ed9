"""The documents a user reads speak to users, and the package says what it holds."""

import re
from pathlib import Path

import collide2d

ROOT = Path(__file__).resolve().parent.parent
INTERNAL = re.compile(
    r"DESIGN\.md|write-ups?\b|the issue\b|issue's|\bthe team\b|this session", re.I
)
"""Words from how the project is run, not from what it does."""


def user_texts():
    yield ROOT / "README.md"
    yield from sorted((ROOT / "docs").glob("*.md"))
    yield from sorted((ROOT / "src" / "collide2d").rglob("*.py"))


def test_docs_and_docstrings_use_no_internal_words():
    found = [
        f"{path.relative_to(ROOT)}:{n}: {line.strip()}"
        for path in user_texts()
        for n, line in enumerate(path.read_text().splitlines(), 1)
        if INTERNAL.search(line)
    ]
    assert found == []


def test_the_license_file_ships_with_the_metadata():
    meta = (ROOT / "pyproject.toml").read_text()
    assert 'license = "MIT"' in meta and 'license-files = ["LICENSE"]' in meta
    assert (ROOT / "LICENSE").read_text().startswith("MIT License")


def test_the_package_docstring_maps_every_part_of_the_library():
    doc = collide2d.__doc__
    for name in ("Rect", "sweep", "Mask", "UniformGrid", "overlapping_pairs", "World",
                 "world.step", "collide2d.distributed", "collide2d warmup"):  # fmt: skip
        assert name in doc, name
