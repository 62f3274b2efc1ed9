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
    assert all(elapsed > QUIET_START and not background for _, elapsed, background in shown)
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


class Later(Demo):
    """A demo whose kernels (a cheap task's) a showcase compiles in the background."""

    name = "later"
    title = "later: a demo after the first"
    warms = ("batch pairs of circles",)


def test_a_showcase_compiles_the_later_demos_kernels_in_a_process_of_its_own(app):
    app.prepare([Later])  # the first demo compiles its own: nothing in the background
    assert app.background is None
    app.prepare([Demo, Later, Later])
    background = app.background
    assert background is not None and background.names == ["batch pairs of circles"]
    demo = app.started(Later)  # waits for the task, then starts
    assert isinstance(demo, Later)
    assert not background.pending(Later.warms)
    assert background._done == {"batch pairs of circles"}  # the task ran to its end
    assert background._process.wait(timeout=60) == 0


def test_closing_the_app_stops_its_background_compiling(app):
    app.prepare([Demo, SlowStart, Later])
    assert app.background is not None
    app.close()
    assert app.background._process.poll() is not None  # stopped, not left running


def test_a_background_task_must_be_a_warmup_task():
    from collide2d.warmup import Background

    with pytest.raises(ValueError, match="unknown warmup task 'nope'"):
        Background(["World.step", "nope"])
