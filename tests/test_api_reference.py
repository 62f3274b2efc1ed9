"""The check that the built API reference shows every public member.

``scripts/run.py test`` runs ``scripts/check_api_reference.py`` on the built site;
these tests make sure the check itself can fail, and that it asks for the members
a user looks for first (those ``World`` inherits from its helper classes).
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import collide2d

SCRIPT = Path(__file__).resolve().parent.parent / "scripts" / "check_api_reference.py"


def _checker() -> ModuleType:
    spec = importlib.util.spec_from_file_location("check_api_reference", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _entry(name: str, text: str) -> str:
    return f'<dl><dt class="sig" id="collide2d.{name}">{name}</dt>\n<dd><p>{text}</p>\n</dd></dl>'


def test_inherited_world_members_are_required() -> None:
    names = _checker().public_members(collide2d)
    for member in ("step", "set_velocity", "move_all", "query_rect", "group_filter", "add"):
        assert f"World.{member}" in names
    assert "Rect.count" not in names  # tuple's own method
    assert "DuplicateKeyError.args" not in names  # Exception's


def test_a_missing_member_is_reported() -> None:
    check = _checker()
    page = _entry("World", "A world.") + _entry("World.add", "Add an item.")
    assert check.missing(page, ["World", "World.add", "World.step"], "collide2d") == ["World.step"]


def test_a_member_without_text_is_reported() -> None:
    check = _checker()
    page = _entry("Stats.tests", "")
    assert check.missing(page, ["Stats.tests"], "collide2d") == ["Stats.tests (no description)"]


def test_every_exported_name_is_counted() -> None:
    names = _checker().public_members(collide2d)
    assert set(collide2d.__all__) <= set(names)
