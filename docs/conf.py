"""Sphinx configuration of the documentation site (built by ``scripts/run.py test``).

The pages are the Markdown files of this folder (read by MyST); the API reference
is generated from the numpydoc docstrings. Warnings are errors (``-W``).
"""

from __future__ import annotations

from pathlib import Path

import collide2d

project = "collide2d"
author = "The collide2d authors"
copyright = "2026, The collide2d authors"
release = collide2d.__version__

extensions = [
    "myst_parser",
    "numpydoc",
    "sphinx.ext.autodoc",
    "sphinx.ext.viewcode",
]
source_suffix = {".md": "markdown", ".rst": "restructuredtext"}
exclude_patterns = ["_build", "_generated"]
myst_heading_anchors = 3
suppress_warnings = ["myst.xref_missing"]  # links to files outside docs/ (README, sources)

autodoc_member_order = "bysource"
# Every public member, inherited ones included (World's come from helper classes),
# but not those of Python's own bases (tuple.count, Exception.args...).
autodoc_default_options = {
    "undoc-members": True,
    "inherited-members": "tuple,object,BaseException,Exception,ValueError,KeyError,"
    "LookupError,Protocol,Generic",
}
autodoc_typehints = "none"  # the signatures carry them; numpydoc sections say the rest
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False
numpydoc_validation_checks: set[str] = set()

html_theme = "alabaster"
html_static_path: list[str] = []

SCREENSHOTS = Path(__file__).parent / "_generated" / "screenshots"
"""The demos' headless pictures, drawn anew by every build (not kept in git)."""


def _draw_screenshots(app: object) -> None:
    from collide2d.cli import main

    if main(["demo", "--headless", "--frames", "120", "--out", str(SCREENSHOTS)]) != 0:
        raise RuntimeError("the demos could not draw their screenshots")


def _field_text(
    app: object, what: str, name: str, obj: object, options: object, lines: list[str]
) -> None:
    """A named-tuple field ("Alias for field number 0") takes its entry in its
    class's Attributes or Parameters section, so the text is written once."""
    if what != "attribute" or (lines and not lines[0].startswith("Alias for field")):
        return
    import importlib

    from numpydoc.docscrape import NumpyDocString

    owner, _, member = name.rpartition(".")
    module, _, class_name = owner.rpartition(".")
    cls = getattr(importlib.import_module(module), class_name)
    doc = NumpyDocString(cls.__doc__ or "")
    for section in ("Attributes", "Parameters"):
        for entry in doc[section]:
            if member in [part.strip() for part in entry.name.split(",")]:
                text = " ".join(entry.desc)
                lines[:] = [f"{entry.type}: {text}" if entry.type else text, ""]
                return
    raise RuntimeError(f"{name} has no text: add it to {class_name}'s Attributes section")


def setup(app: object) -> None:
    app.connect("builder-inited", _draw_screenshots)  # type: ignore[attr-defined]
    # before numpydoc (priority 500) rewrites the lines
    app.connect("autodoc-process-docstring", _field_text, priority=100)  # type: ignore[attr-defined]
