"""Shared test settings."""

import os

from hypothesis import settings

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

settings.register_profile("dev", max_examples=100, deadline=None)
# CI draws the same examples every run (derandomize): a red run is a regression, not a
# rare draw. The dev and thorough profiles draw new ones each run, to find more.
settings.register_profile("ci", max_examples=300, deadline=None, derandomize=True)
settings.register_profile("thorough", max_examples=5000, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev"))


import pytest  # noqa: E402

from collide2d.world import listed_move  # noqa: E402

# Every single move takes the cell lists' route from the first (compiled where the
# test stands): the route must not depend on how long a background compile takes.
# tests/world/test_cell_lists.py tests the background compile itself.
listed_move.READY_NOW = True


@pytest.fixture(scope="module")
def monkeypatch_module():
    """A monkeypatch usable inside hypothesis tests (function fixtures are not)."""
    with pytest.MonkeyPatch.context() as patch:
        yield patch
