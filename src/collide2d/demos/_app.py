"""The app shell every demo runs in: window, fixed timestep, HUD and headless mode.

A demo subclasses :class:`Demo` and implements ``update`` (fixed timestep, reads
an :class:`Input`), ``draw`` and optionally ``handle_event``, ``hud`` and
``script``. Headless runs replace the keyboard by the demo's ``script`` and save
the last frame as a PNG.
"""

from __future__ import annotations

import gc
import os
import sys
import threading
import time
from collections.abc import Iterable, Sequence
from pathlib import Path

import pygame

from collide2d.warmup import Background

SIZE = (960, 640)
STEP = 1.0 / 60.0
BUDGET = STEP
"""Seconds of updates run per drawn frame at most (but always one): what does not fit
is dropped and the demo runs in slow motion, so input is read every frame."""
MAX_LAG = 0.25
"""Seconds owed at most (after a stall, such as a window being dragged)."""
SCREENSHOTS = Path("collide2d-screenshots")
"""Where F12 writes its PNG files (the folder ``collide2d demo --headless`` uses)."""
BACKGROUND = (18, 20, 28)
TEXT = (220, 224, 235)
DIM = (120, 126, 145)
SLOW_FRAMES = 30
"""Frames the footer keeps saying "slow motion" after the last dropped update."""
QUIET_START = 0.2
"""Seconds a demo may take to start before the window says what it is waiting for
(the first start on a machine compiles the kernels it needs: tens of seconds)."""


class Input:
    """The keys held this frame: read from pygame, or given by a script."""

    def __init__(self, held: Iterable[int] = (), mods: int = 0, live: bool = False) -> None:
        self._held = set(held)
        self._mods = mods
        self._live = live

    @classmethod
    def from_keyboard(cls) -> Input:
        """The real keyboard state."""
        return cls(mods=pygame.key.get_mods(), live=True)

    def pressed(self, key: int) -> bool:
        """Whether ``key`` (a ``pygame.K_*`` constant) is held."""
        if self._live:
            return bool(pygame.key.get_pressed()[key])
        return key in self._held

    @property
    def shift(self) -> bool:
        """Whether a Shift key is held."""
        return bool(self._mods & pygame.KMOD_SHIFT)

    @property
    def ctrl(self) -> bool:
        """Whether a Ctrl key is held."""
        return bool(self._mods & pygame.KMOD_CTRL)


class Demo:
    """Base class of the demos: override what the demo needs."""

    name = "demo"
    title = "Demo"
    help: Sequence[str] = ()
    warms: Sequence[str] = ()
    """Tasks of ``collide2d.warmup.TASKS`` whose kernels the demo needs and that take
    long to compile: a showcase compiles them in a process of its own from its
    start, while the demos before this one run (see :meth:`App.prepare`)."""

    def __init__(self, size: tuple[int, int] = SIZE) -> None:
        self.size = size

    def handle_event(self, event: pygame.event.Event) -> None:
        """React to one pygame event (key presses, mouse)."""

    def update(self, dt: float, keys: Input) -> None:
        """Advance the demo by one fixed step of ``dt`` seconds."""

    def draw(self, surface: pygame.Surface) -> None:
        """Draw the scene (the shell draws the HUD on top)."""

    def hud(self) -> list[str]:
        """Status lines for the HUD."""
        return []

    def script(self, frame: int) -> tuple[list[pygame.event.Event], Input]:
        """Scripted input for headless frame ``frame``: events and held keys."""
        return [], Input()


def headless_default() -> bool:
    """Whether this machine has no display to open a window on."""
    if os.environ.get("SDL_VIDEODRIVER") in ("dummy", "offscreen"):
        return True
    if sys.platform.startswith(("linux", "freebsd")):
        return not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))
    return False


class App:
    """Runs demos in a window, or headless into PNG files."""

    def __init__(self, headless: bool) -> None:
        self.headless = headless
        if headless:
            os.environ["SDL_VIDEODRIVER"] = "dummy"
            os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
        pygame.display.init()
        pygame.font.init()
        self.screen = pygame.display.set_mode(SIZE)
        self.font = pygame.font.Font(None, 20)
        self.background: Background | None = None

    def prepare(self, demos: Sequence[type[Demo]]) -> None:
        """Start compiling the kernels of the demos after the first (their ``warms``)
        in a process of its own: the first start on a machine compiles ``World.step``
        for about two minutes, which then happens while the first demos run."""
        names = [task for kind in demos[1:] for task in kind.warms]
        if names and self.background is None:
            self.background = Background(names)

    def ready(self, kind: type[Demo]) -> None:
        """Return when the background compiles nothing ``kind`` needs."""
        if self.background is not None:
            self.background.wait(kind.warms)

    def close(self) -> None:
        """Stop the background compiling, if any, and shut pygame down."""
        if self.background is not None:
            self.background.stop()
        pygame.quit()

    def draw_frame(self, demo: Demo, footer: str) -> None:
        """Draw the demo and the HUD onto the screen surface."""
        self.screen.fill(BACKGROUND)
        demo.draw(self.screen)
        lines = [demo.title, *demo.hud()]
        self._panel(lines, 8, [TEXT] + [DIM] * (len(lines) - 1))
        help_lines = [*demo.help, footer]
        self._panel(help_lines, SIZE[1] - 8 - 18 * len(help_lines), [DIM] * len(help_lines))

    def _panel(self, lines: list[str], top: int, colours: list[tuple[int, int, int]]) -> None:
        """Text lines on a translucent dark panel, readable over any scene."""
        rendered = [
            self.font.render(line, True, colour)
            for line, colour in zip(lines, colours, strict=True)
        ]
        width = max((image.get_width() for image in rendered), default=0) + 12
        # Opaque, and drawn after the scene: no shape is ever drawn over the text.
        self.screen.fill(BACKGROUND, pygame.Rect(4, top - 3, width, 18 * len(lines) + 6))
        for row, image in enumerate(rendered):
            self.screen.blit(image, (10, top + 18 * row))

    def run_headless(self, demo: Demo, frames: int, out: Path) -> Path:
        """Play ``demo``'s script for ``frames`` steps and save the last frame."""
        for frame in range(frames):
            events, keys = demo.script(frame)
            for event in events:
                demo.handle_event(event)
            demo.update(STEP, keys)
        self.draw_frame(demo, "headless: scripted scene")
        out.mkdir(parents=True, exist_ok=True)
        path = out / f"{demo.name}.png"
        pygame.image.save(self.screen, str(path))
        return path

    def started(self, kind: type[Demo]) -> Demo | None:
        """A demo of class ``kind``, made and updated once in a thread of its own; while it
        takes longer than ``QUIET_START`` (numba compiling the kernels it needs, the
        first time on a machine), the window says so with the seconds elapsed and the
        kernels compiled, and keeps answering its close button and Esc. Returns the
        demo, or ``None`` if the window was closed meanwhile (the thread finishes
        alone). An error in the demo's start is raised here."""
        made: list[Demo] = []
        failed: list[BaseException] = []

        def start() -> None:
            try:
                self.ready(kind)  # its kernels compiling in the background: wait for them
                demo = kind()
                demo.update(STEP, Input())
                made.append(demo)
            except BaseException as error:  # (raised again in the window's thread)
                failed.append(error)

        worker = threading.Thread(target=start, name="collide2d-demo-start", daemon=True)
        began = time.perf_counter()
        worker.start()
        clock = pygame.time.Clock()
        while worker.is_alive():
            worker.join(timeout=1 / 30)
            for event in pygame.event.get():
                if event.type == pygame.QUIT or (
                    event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE
                ):
                    return None
            elapsed = time.perf_counter() - began
            if worker.is_alive() and elapsed > QUIET_START:
                waiting = self.background is not None and self.background.pending(kind.warms)
                self.draw_compiling(kind.title, elapsed, waiting)
                pygame.display.flip()
                clock.tick(30)
        if failed:
            raise failed[0]
        gc.freeze()  # what the demo set up is never walked by the collector again
        return made[0]

    def draw_compiling(self, title: str, elapsed: float, background: bool = False) -> None:
        """The screen shown while a demo waits for its kernels: what is happening, that
        it happens once per machine, and how long it has taken so far; ``background``
        when they are compiling in the showcase's background process."""
        jit = sys.modules.get("collide2d._kernels.jit")  # (loaded by the first kernel)
        compiled = len(jit.COMPILED) if jit is not None else 0
        self.screen.fill(BACKGROUND)
        lines = [
            f"{title}: starting",
            "compiling, once per machine: collide2d's kernels are being compiled by numba",
            "for this processor; later starts load them from numba's cache in a moment",
            "(`collide2d warmup` compiles them all ahead)",
            "",
            f"{elapsed:.0f} s, {compiled} kernels compiled so far   Esc: quit",
        ]
        if background:  # (this process compiles nothing meanwhile: no count to show)
            lines[-1] = f"{elapsed:.0f} s   Esc: quit"
            lines.insert(-1, "this demo's kernels are compiling in a background process,")
            lines.insert(-1, "started with the showcase while the first demos ran")
        self._panel(lines, SIZE[1] // 2 - 9 * len(lines), [TEXT] + [DIM] * (len(lines) - 1))

    def run_window(self, demos: Sequence[type[Demo]]) -> None:
        """Run the showcase in a window: Tab switches demo, F12 saves, Esc quits."""
        self.prepare(demos)
        index = 0
        first = self.started(demos[index])
        if first is None:
            return
        demo = first
        clock = pygame.time.Clock()
        pacer = Pacer()
        while True:
            pygame.display.set_caption(f"collide2d - {demo.title}")
            for event in pygame.event.get():
                if event.type == pygame.QUIT or (
                    event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE
                ):
                    return
                if event.type == pygame.KEYDOWN and event.key == pygame.K_TAB and len(demos) > 1:
                    index = (index + 1) % len(demos)
                    following = self.started(demos[index])
                    if following is None:
                        return
                    demo = following
                    clock.tick()  # (the wait is not owed as updates)
                    continue
                if event.type == pygame.KEYDOWN and event.key == pygame.K_F12:
                    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
                    path = SCREENSHOTS / f"{demo.name}.png"
                    pygame.image.save(self.screen, str(path))
                    print(f"screenshot: wrote {path.resolve()}")
                demo.handle_event(event)
            work = 0.0
            for _ in range(pacer.steps(clock.tick(60) / 1000.0)):
                start = time.perf_counter()
                demo.update(STEP, Input.from_keyboard())
                pacer.took(time.perf_counter() - start)
                work += pacer.cost
            rate = f"{clock.get_fps():.0f} fps   update {work * 1e3:.1f} ms"
            if getattr(demo, "paused", False):
                rate += "   PAUSED"
            self.draw_frame(demo, footer(len(demos), pacer.slow, rate))
            pygame.display.flip()


def footer(demos: int, slow: bool, rate: str = "") -> str:
    """The key help under a demo in a window (Tab only when there is another demo),
    after ``rate``: the frame rate and what the frame's updates took (the collision
    work and the demo's own).

    >>> footer(1, False)
    'F12: screenshot   Esc: quit'
    >>> footer(2, True, "58 fps   update 3.1 ms")
    '58 fps   update 3.1 ms   Tab: next demo   F12: screenshot   Esc: quit   slow motion'
    """
    keys = "Tab: next demo   " if demos > 1 else ""
    motion = "   slow motion" if slow else ""
    return f"{rate + '   ' if rate else ''}{keys}F12: screenshot   Esc: quit{motion}"


class Pacer:
    """How many fixed updates to run before drawing the next frame.

    Time owed accumulates as frames pass; it is paid in updates of ``STEP``, as many
    as fit in ``BUDGET`` seconds at the cost the last update took, and at least one.
    Owed time beyond that is dropped (the demo runs in slow motion and says so, for
    at least ``SLOW_FRAMES`` frames: the words do not flicker) instead of piling up:
    a slow demo never runs many updates between two reads of the keyboard.

    Examples
    --------
    >>> pacer = Pacer()
    >>> pacer.steps(0.05), pacer.slow     # 3 steps owed, updates cost nothing yet
    (3, False)
    >>> pacer.took(0.120)                # an update takes 120 ms
    >>> pacer.steps(0.25), pacer.slow     # 15 steps owed: one is run, the rest dropped
    (1, True)
    """

    def __init__(self) -> None:
        self.lag = 0.0
        self.cost = 0.0
        self.slow = False
        self._slow_left = 0  # frames the "slow motion" words still stay

    def steps(self, elapsed: float) -> int:
        """The updates to run now, ``elapsed`` seconds after the last frame."""
        self.lag = min(self.lag + max(elapsed, 0.0), MAX_LAG)
        owed = int(self.lag / STEP)
        fit = max(1, int(BUDGET / self.cost)) if self.cost > 0.0 else owed
        run = min(owed, fit)
        dropped = run < owed
        self.lag = self.lag - run * STEP if not dropped else self.lag % STEP
        self._slow_left = SLOW_FRAMES if dropped else max(self._slow_left - 1, 0)
        self.slow = self._slow_left > 0
        return run

    def took(self, seconds: float) -> None:
        """Record what one update cost (the latest is what the next frame plans by)."""
        self.cost = seconds
