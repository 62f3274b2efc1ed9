"""A demo that takes a while to start (kernels compiling) says so in its window."""

import time

import pygame
import pytest

from collide2d.demos._app import BACKGROUND, QUIET_START, Demo


class SlowStart(Demo):
    name = "slow"
    title = "slow: a demo whose kernels compile"

    def __init__(self) -> None:
        super().__init__()
        time.sleep(QUIET_START + 0.4)
        self.updates = 0

    def update(self, dt, keys) -> None:
        self.updates += 1


class Broken(Demo):
    def __init__(self) -> None:
        raise RuntimeError("no such level")


def test_a_slow_start_shows_the_compiling_screen(app, monkeypatch):
    shown = []
    draw = app.draw_compiling
    monkeypatch.setattr(app, "draw_compiling", lambda *a: (shown.append(a), draw(*a)))
    demo = app.started(SlowStart)
    assert isinstance(demo, SlowStart) and demo.updates == 1  # made and run once
    assert shown and shown[-1][0] == SlowStart.title
    assert all(elapsed > QUIET_START for _, elapsed in shown)
    # the screen is not blank: its text is drawn
    assert any(
        app.screen.get_at((x, y))[:3] != BACKGROUND
        for x in range(0, 960, 4)
        for y in range(200, 440, 4)
    )


def test_a_quick_start_shows_nothing(app, monkeypatch):
    monkeypatch.setattr(app, "draw_compiling", lambda *a: pytest.fail("shown"))
    assert isinstance(app.started(Demo), Demo)


def test_closing_the_window_while_waiting_gives_none(app):
    pygame.event.post(pygame.event.Event(pygame.QUIT))
    assert app.started(SlowStart) is None


def test_an_error_while_starting_is_raised_in_the_window_thread(app):
    with pytest.raises(RuntimeError, match="no such level"):
        app.started(Broken)
