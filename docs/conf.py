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


def setup(app: object) -> None:
    app.connect("builder-inited", _draw_screenshots)  # type: ignore[attr-defined]
