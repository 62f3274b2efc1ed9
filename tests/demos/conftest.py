"""The demos' app shell, headless, for every test that runs a demo."""

import pytest

from collide2d.demos._app import App


@pytest.fixture
def app():
    shell = App(headless=True)
    yield shell
    shell.close()
