"""Every demo runs headless and draws what it is about."""

import os

import numpy as np
import pygame
import pytest

from collide2d import demos
from collide2d.cli import main
from collide2d.demos._app import Input
from collide2d.demos.sweep import COLLISION, SweepDemo


def _pixels(path):
    surface = pygame.image.load(str(path))
    return np.transpose(pygame.surfarray.array3d(surface), (1, 0, 2))


def _count(image, colour):
    return int(np.all(image == np.array(colour), axis=-1).sum())


def test_cli_writes_a_screenshot_of_every_demo(tmp_path, capsys):
    assert main(["demo", "--headless", "--frames", "30", "--out", str(tmp_path)]) == 0
    written = sorted(p.stem for p in tmp_path.glob("*.png"))
    assert written == sorted(demos.names())
    assert "wrote" in capsys.readouterr().out


def test_sweep_screenshot_shows_the_collision(app, tmp_path):
    demo = SweepDemo()
    path = app.run_headless(demo, 60, tmp_path)
    assert demo.hit is not None and not demo.hit.started_overlapping
    image = _pixels(path)
    assert _count(image, COLLISION) > 500  # both shapes outlined at the moment of contact


def test_sweep_screenshot_has_no_collision_colour_when_shapes_miss(app, tmp_path):
    demo = SweepDemo()
    demo.b.center = demo.b.center + (0, 400)
    path = app.run_headless(demo, 1, tmp_path)
    assert demo.hit is None
    assert _count(_pixels(path), COLLISION) == 0


def test_sweep_demo_circle_toggle_and_pre_collision(app, tmp_path):
    demo = SweepDemo()
    demo.handle_event(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_z))
    demo.handle_event(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_x))
    assert demo.a.kind == demo.b.kind == "circle"
    demo.a.center = demo.b.center + (10, 0)
    app.run_headless(demo, 1, tmp_path)
    assert demo.hit is not None and demo.hit.started_overlapping
    assert any("pre-collision" in line for line in demo.hud())


def test_sweep_demo_keys_move_destinations_and_shapes(app):
    from collide2d.demos._app import Input

    demo = SweepDemo()
    before_delta, before_center = demo.a.delta, demo.a.center
    demo.update(0.5, Input({pygame.K_d}))
    assert demo.a.delta.x > before_delta.x and demo.a.center == before_center
    demo.update(0.5, Input({pygame.K_d}, mods=pygame.KMOD_SHIFT))
    assert demo.a.center.x > before_center.x
    slow = SweepDemo()
    slow.update(0.5, Input({pygame.K_d, pygame.K_SPACE}))
    assert slow.a.delta.x - before_delta.x < demo.a.delta.x - before_delta.x


def test_balls_screenshot_shows_cells_and_colliding_balls(app, tmp_path):
    from collide2d.demos._broadphase_view import CELL, HIT
    from collide2d.demos.balls import START_BALLS, BallsDemo

    demo = BallsDemo()
    image = _pixels(app.run_headless(demo, 60, tmp_path))
    assert len(demo.pos) > START_BALLS  # the scripted mouse press added balls
    assert demo.view.kind == "quadtree" and demo.view.pairs
    assert _count(image, HIT) > 50 and _count(image, CELL) > 500
    n = len(demo.pos)
    assert 0 < demo.view.index.stats.tests < n * (n - 1) // 2 / 10
    hud = "\n".join(demo.hud())
    assert "checks brute force would make" in hud and "fewer" in hud


def test_balls_demo_switches_broadphase_with_identical_pairs(app):
    from collide2d.demos._app import Input
    from collide2d.demos.balls import BallsDemo

    demo = BallsDemo()
    demo.update(1 / 60, Input())
    found = {}
    for _ in range(5):
        demo.view.step(demo.shapes())
        found[demo.view.kind] = demo.view.pairs
        demo.handle_event(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_b))
    assert set(found) == {"quadtree", "grid", "sort-and-sweep", "sorted strips", "brute force"}
    assert all(pairs == found["brute force"] for pairs in found.values())


def test_rects_screenshot_and_slider(app, tmp_path):
    from collide2d.demos._broadphase_view import CELL, HIT
    from collide2d.demos.rects import RectsDemo

    demo = RectsDemo()
    image = _pixels(app.run_headless(demo, 40, tmp_path))
    assert demo.count > 300 and demo.view.kind == "quadtree"  # slider moved, switched twice
    assert len(demo.view.index) == demo.count
    assert _count(image, HIT) > 100 and _count(image, CELL) > 500
    demo.set_count(20)
    demo.update(1 / 60, Input())
    assert len(demo.view.index) == 20


def test_cli_bench_prints_the_check_count_table(capsys):
    assert main(["bench", "--sizes", "20", "166"]) == 0
    out = capsys.readouterr().out
    assert "| 166 | 13,695 |" in out and "Quadtree" in out


def test_cli_info_reports_numba(capsys):
    assert main(["info"]) == 0
    assert "numba status: compiles and runs" in capsys.readouterr().out


def test_importing_collide2d_loads_neither_pygame_nor_numba():
    import subprocess
    import sys

    code = "import sys, collide2d; print('pygame' in sys.modules, 'numba' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "False"]


def test_masks_screenshot_shows_the_stop_and_the_nodes(app, tmp_path):
    from collide2d.demos.masks import BLOCKER, STOP, MasksDemo

    demo = MasksDemo()
    before = demo.collider.count()
    image = _pixels(app.run_headless(demo, 20, tmp_path))
    assert demo.collider.count() > before  # the scripted stroke drew on the canvas
    assert demo.levels["blocker"] == 3  # lowered twice from 5 by the script
    assert demo.stop is not None and demo.hit is not None and 0 < demo.hit.fraction < 1
    assert _count(image, STOP) > 200 and _count(image, BLOCKER) > 500
    # At a coarse level the stop is short of the ring by design: the HUD says so and
    # the node that was hit is outlined (a report read it as a bug).
    node = demo._coarse_node("blocker", demo.hit.other_pixel)
    assert node is not None and node.w > 1
    assert "level 3: stops at the first" in "\n".join(demo.hud())
    demo.levels["blocker"] = demo.blocker.quadtree().max_level
    demo.update(1 / 60, Input())
    assert demo._coarse_node("blocker", demo.hit.other_pixel) is None
    assert "stops at the first" not in "\n".join(demo.hud())


def test_masks_demo_modes_and_running(app):
    from collide2d.demos.masks import MasksDemo

    demo = MasksDemo()
    for _ in range(3):
        demo.handle_event(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_m))
        demo.update(1 / 60, Input())
        assert demo.stop is not None  # every mode finds where the collider stops
    demo.handle_event(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_r))
    start = demo.positions["collider"]
    for _ in range(400):
        demo.update(1 / 60, Input())
        if not demo.running:
            break
    assert not demo.running and demo.positions["collider"] != start
    assert not demo.collider.overlaps(demo.blocker, demo._offset())  # stopped, not inside


def test_platformer_lands_walks_across_seams_picks_up_a_coin(app, tmp_path):
    from collide2d.demos.platformer import CONTACT, PLAYER_COLOUR, PlatformerDemo

    demo = PlatformerDemo()
    image = _pixels(app.run_headless(demo, 220, tmp_path))
    assert demo.landings > 0 and demo.seams_crossed >= 10  # walked over many tile seams
    assert demo.collected >= 1  # a coin crossed and picked up
    assert all(c.normal == (0, -1) for c in demo.contacts)  # never stopped by a seam
    assert _count(image, PLAYER_COLOUR) > 100 and _count(image, CONTACT) > 10
    demo.world.validate()


def test_platformer_with_step_jumps_up_through_a_one_way_platform(app):
    from collide2d import Rect, overlaps
    from collide2d.demos.platformer import PlatformerDemo

    demo = PlatformerDemo()
    demo.handle_event(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_s))
    assert demo.stepping
    walk = Input([pygame.K_RIGHT])
    for _ in range(150):
        demo.update(1 / 60, walk)
    assert demo.landings > 0 and demo.on_ground and demo.seams_crossed >= 5
    ledge = demo.world.shape(("ledge", 3))
    demo.world.update("player", (ledge.x, ledge.bottom + 1))  # under the one-way ledge
    demo.world.set_velocity("player", (0, 0))
    demo.on_ground = True
    demo.handle_event(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_SPACE))
    for _ in range(90):
        demo.update(1 / 60, Input())
    player = demo.world.shape("player")
    assert player.bottom == pytest.approx(ledge.top) and demo.on_ground  # on top of it
    assert "normal for the player (+0, -1)" in "\n".join(demo.hud())
    for item in demo.world:  # the balls bounced in the level, never inside it
        if demo.kinds[item] == "ball":
            for other in demo.world:
                if demo.kinds[other] == "tile":
                    assert not overlaps(demo.world.shape(item), demo.world.shape(other))
    demo.handle_event(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_s))
    assert not demo.stepping and isinstance(player, Rect)
    demo.update(1 / 60, Input())  # back to move: the velocities came along
    demo.world.validate()


def test_platformer_slopes_level_walks_up_and_down_ramps_over_the_hill_to_the_wall(app):
    from collide2d import PlacedPolygon, overlaps
    from collide2d.demos.platformer import PlatformerDemo

    demo = PlatformerDemo()
    demo.handle_event(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_l))
    assert demo.level == "slopes" and any(
        isinstance(demo.world.shape(item), PlacedPolygon) for item in demo.world
    )
    walk, normals, xs = Input([pygame.K_RIGHT]), set(), []
    bar = demo.world.shape("bar")
    for _ in range(420):
        demo.update(1 / 60, walk)
        xs.append(demo.player().x)
        if xs[-1] < 880:  # before the wall at the right edge
            normals.update((round(c.normal.x, 2), round(c.normal.y, 2)) for c in demo.contacts)
        for item in demo.world:  # the player and the balls are never inside the level
            kind = demo.kinds[item]
            if kind in ("player", "ball"):
                for other in demo.world:
                    if demo.kinds[other] in ("tile", "ramp", "hill"):
                        assert not overlaps(demo.world.shape(item), demo.world.shape(other))
    assert (-0.45, -0.89) in normals and (0.45, -0.89) in normals  # up and down the ramps
    assert all(ny < 0 for _, ny in normals)  # floors and slopes: no seam and no step a wall
    assert xs[-1] > 900 and demo.on_ground and demo.collected >= 2
    assert demo.world.shape("bar") != bar  # the bar turned between frames
    demo.handle_event(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_l))
    assert demo.level == "tiles" and demo.slopes is None
    demo.world.validate()


def test_platformer_slopes_level_with_step_walks_up_the_ramp_among_the_ball_and_bar(app):
    """S on the slopes level: one ``World.step`` for the player, the ball (a circle
    among polygons) and the turning bar; the player walks from the floor onto the
    ramp's foot and up its face (no corner stops it), nothing ends inside the level."""
    from collide2d import overlaps
    from collide2d.demos.platformer import PlatformerDemo

    demo = PlatformerDemo()
    demo.handle_event(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_l))
    demo.handle_event(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_s))
    assert demo.stepping and "World.step" in demo.hud()[0]
    walk, normals, heights, lines = Input([pygame.K_RIGHT]), set(), [], set()
    floor = demo.slopes.floor_y
    bar = demo.world.shape("bar")
    for _ in range(120):
        demo.update(1 / 60, walk)
        normals.update((round(n.x, 2), round(n.y, 2)) for _, n in demo.marks)
        lines.update(demo.lines)  # (the HUD's contact lines: a slope's normal, 2 decimals)
        heights.append(floor - demo.player().bottom)
        for item in demo.world:
            if demo.kinds[item] in ("player", "ball"):
                for other in demo.world:
                    if demo.kinds[other] in ("tile", "ramp", "hill"):
                        assert not overlaps(demo.world.shape(item), demo.world.shape(other))
    assert (-0.45, -0.89) in normals  # up the ramp's face, as the player sees it
    assert any("normal for the player (-0.45, -0.89)" in line for line in lines)
    assert not any("-0," in line or "-0)" in line for line in lines)  # (no -0.0 shown)
    assert max(heights) >= 90  # up to the plateau, 96 above the floor
    assert demo.world.shape("bar") != bar
    demo.world.validate()


def test_platformer_digs_a_hole_and_resets(app):
    from collide2d.demos.platformer import PlatformerDemo

    demo = PlatformerDemo()
    before = demo.hill.mask.count()
    demo.world.update("player", (620, 470))  # on the hill
    demo.dig()
    assert demo.hill.mask.count() < before
    demo.reset()
    assert demo.collected == 0 and "player" in demo.world


def test_gas_histogram_converges_to_maxwell_boltzmann(app, tmp_path):
    from collide2d.demos.gas import BINS, CELL, CURVE, DISKS, TOP_SPEED, GasDemo

    demo = GasDemo()
    path = app.run_headless(demo, 40, tmp_path)
    assert demo.speed > 1.0 and demo.show_predicted  # the script turned the wheel and P
    assert demo.events > 0 and 0.99 * 40 * DISKS < demo.counts.sum() <= 40 * DISKS
    density = demo.counts / (demo.counts.sum() * TOP_SPEED / BINS)
    centres = (np.arange(BINS) + 0.5) * TOP_SPEED / BINS
    expected = centres * np.exp(-(centres**2) / 2)
    assert np.abs(density - expected).max() < 0.08
    state = demo.state
    assert (state[:, :2] > 0).all() and (state[:, :2] < demo.side).all()
    assert _count(_pixels(path), CURVE) > 100
    assert demo.predicted(4.0)  # pairs about to meet
    assert demo.cell_size > 0 and _count(_pixels(path), CELL) > 500  # the grid's lines


def test_the_gas_rate_leaves_out_a_slow_first_step(app, tmp_path):
    # The first step of a fresh install compiles the kernels (tens of seconds in the
    # core): the HUD's rate is of the last frames, so it drops out.
    from collide2d.demos.gas import RATE_FRAMES, GasDemo

    demo = GasDemo()
    step = demo.world.step
    calls = []

    def first_slow(dt):
        result = step(dt)
        calls.append(dt)
        if len(calls) == 1:
            result.stats = result.stats._replace(seconds=result.stats.seconds + 30.0)
        return result

    demo.world.step = first_slow
    app.run_headless(demo, 2, tmp_path)
    assert demo.rate() < 1e3  # (the slow step counted)
    app.run_headless(demo, RATE_FRAMES, tmp_path)
    assert demo.rate() > 1e4
    assert f"{demo.rate() / 1e3:.0f} k events/s" in demo.hud()[1]


def test_the_gas_box_is_not_under_the_text(app, tmp_path):
    # The box's top and bottom edges show along their length: the HUD and the help
    # are drawn over the scene, and once hid the box's top rows and bottom rows.
    from collide2d.demos.gas import WALL, GasDemo

    demo = GasDemo()
    image = _pixels(app.run_headless(demo, 2, tmp_path))
    (x0, y0), (x1, y1) = demo._to_screen(0.0, 0.0), demo._to_screen(demo.side, demo.side)
    for y in (int(y0), int(y1) - 1):
        row = image[y, int(x0) : int(x1)]
        assert _count(row, WALL) > 0.8 * (x1 - x0), y


def test_rush_nothing_passes_through_and_contacts_flash(app, tmp_path):
    from collide2d.demos.rush import FLASH, RushDemo

    demo = RushDemo()
    path = app.run_headless(demo, 120, tmp_path)
    assert demo.escaped == 0 and demo.outside() == 0
    assert demo.flashes
    assert _count(_pixels(path), FLASH) > 20


def test_crush_marks_the_bodies_lifts_drive_into_the_ceiling(app, tmp_path):
    from collide2d.demos.crush import CRUSHED, LIFTS, CrushDemo
    from tests.world.test_step_properties import stopping_overlaps

    demo = CrushDemo()
    path = app.run_headless(demo, 120, tmp_path)
    # the lifts that stop 14 and 10 px under the ceiling crushed what rode them,
    # and the picture marks where
    assert demo.crushed_total >= 8 and demo.marks
    assert _count(_pixels(path), CRUSHED) > 200
    # the bodies of the lifts that stop far enough below it are all still there
    safe = [k for k in range(len(demo.world) - len(LIFTS) - 2) if LIFTS[k % len(LIFTS)][1] >= 60]
    assert not set(safe) & set(demo.waiting)
    assert stopping_overlaps(demo.world) == []  # (crushed bodies were taken out)


def test_the_rush_corridor_is_not_under_the_text(app, tmp_path):
    from collide2d.demos.rush import BOTTOM, TOP, WALL, RushDemo

    image = _pixels(app.run_headless(RushDemo(), 2, tmp_path))
    for y in (int(TOP) - 1, int(BOTTOM)):  # the walls' rows, across the screen
        assert _count(image[y], WALL) > 0.9 * image.shape[1], y


def test_a_bare_command_prints_the_usage_and_the_commands(capsys):
    assert main([]) == 0
    out = capsys.readouterr().out
    assert "usage: collide2d" in out
    assert all(name in out for name in ("demo", "bench", "info", "warmup"))


def test_every_command_has_a_description(capsys):
    for command in ("demo", "bench", "info", "warmup"):
        with pytest.raises(SystemExit) as done:
            main([command, "--help"])
        assert done.value.code == 0
        text = capsys.readouterr().out
        description = text.split("\n\n")[1]  # argparse: usage, blank line, description
        assert not description.lstrip().startswith(("positional", "options")), command
        assert len(description.split()) >= 8, (command, description)


def test_demo_list_gives_each_demo_a_line(capsys):
    from collide2d import demos

    assert main(["demo", "--list"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in lines] == demos.names()
    assert all(len(line.split()) > 5 for line in lines)


def test_warmup_runs_every_task_and_reports_it(capsys):
    from collide2d.warmup import TASKS

    assert main(["warmup"]) == 0
    out = capsys.readouterr().out
    assert all(f"] {name} ..." in out for name, _ in TASKS) and "done in" in out


def test_the_first_compile_is_announced_once_and_only_through_logging(tmp_path):
    import subprocess
    import sys

    code = (
        "import logging, sys\n"
        "if sys.argv[1] == 'log': logging.basicConfig(level=logging.INFO)\n"
        "from collide2d import overlapping_pairs\n"
        "overlapping_pairs([[0, 0, 1, 1]], method='brute_force')\n"
        "overlapping_pairs([[0, 0, 2, 2]], method='brute_force')\n"
    )

    def run(mode, cache):
        env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / cache)}
        done = subprocess.run(
            [sys.executable, "-c", code, mode], capture_output=True, text=True, env=env, check=True
        )
        return done.stderr

    first = run("log", "a")  # an empty cache: compiles, and says so once
    assert first.count("collide2d is compiling its kernels") == 1
    assert "collide2d warmup" in first
    assert "compiling" not in run("log", "a")  # cached: nothing to say
    assert run("quiet", "b") == ""  # silent unless logging is configured, even compiling


def test_sort_and_sweep_draws_its_sorted_intervals(app, tmp_path):
    from collide2d.demos._broadphase_view import CELL
    from collide2d.demos.rects import RectsDemo

    demo = RectsDemo()
    demo.update(1 / 60, Input())
    while demo.view.kind != "sort-and-sweep":
        demo.handle_event(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_b))
    demo.update(1 / 60, Input())
    app.draw_frame(demo, "")
    image = np.transpose(pygame.surfarray.array3d(app.screen), (1, 0, 2))
    assert _count(image, CELL) > 200
    assert "C: sorted x-intervals on" in "\n".join(demo.hud())


def test_the_pacer_never_runs_more_updates_than_fit_in_a_frame():
    from collide2d.demos._app import SLOW_FRAMES, STEP, Pacer, footer

    pacer = Pacer()
    assert pacer.steps(STEP * 3.5) == 3 and not pacer.slow
    pacer.took(0.124)  # 3,000 rects on the grid: 124 ms an update
    for _ in range(20):  # frames of 130 ms: one update each, never fifteen
        assert pacer.steps(0.130) == 1 and pacer.slow
    assert pacer.lag < STEP  # the backlog is dropped, not kept
    pacer.took(0.001)
    assert pacer.steps(STEP) == 1 and pacer.slow  # the words stay a while: no flicker
    for _ in range(SLOW_FRAMES - 2):
        pacer.steps(STEP)
    assert pacer.slow
    assert pacer.steps(STEP) == 1 and not pacer.slow
    assert "Tab" not in footer(1, False) and "Tab: next demo" in footer(7, False)
    assert "slow motion" in footer(7, True)
    assert footer(1, False, "60 fps   update 2.0 ms").startswith("60 fps")


def test_masks_demo_shows_the_shape_analysis_and_the_forbidden_corners(app, tmp_path):
    from collide2d.demos.masks import COMPONENT, FORBIDDEN, MasksDemo

    demo = MasksDemo()
    for key in (pygame.K_k, pygame.K_v):
        demo.handle_event(pygame.event.Event(pygame.KEYDOWN, key=key))
    demo.update(1 / 60, Input())
    app.draw_frame(demo, "")
    image = np.transpose(pygame.surfarray.array3d(app.screen), (1, 0, 2))
    assert _count(image, COMPONENT) > 100 and _count(image, FORBIDDEN) > 50
    legend = "\n".join(demo.legend())
    assert "blocker: 1 component(s)" in legend and "must not go" in legend
    # The red region is the set of the collider's corners that overlap the blocker.
    region = demo.blocker.convolve(demo.collider)
    w, h = demo.collider.size
    for cx, cy in ((100, 20), (150, 10), (120, 40), (10, 60), (165, 35)):
        demo.positions["collider"] = demo.positions["collider"].__class__(cx, cy)
        bx, by = demo.positions["blocker"]
        x, y = int(cx - bx + w - 1), int(cy - by + h - 1)
        inside = 0 <= x < region.width and 0 <= y < region.height and region.get_at((x, y))
        assert inside == demo.collider.overlaps(demo.blocker, demo._offset())


def test_polygons_screenshot_shows_the_contact_the_push_and_the_pairs(app, tmp_path):
    from collide2d import Polygon, overlaps, sweep
    from collide2d.demos.polygons import AHEAD, CONTACT, HIT_BOX, MEET_BOX, PUSHED, PolygonsDemo

    demo = PolygonsDemo()
    path = app.run_headless(demo, 20, tmp_path)
    image = _pixels(path)
    assert demo.hit is not None and not demo.hit.started_overlapping
    assert _count(image, CONTACT) > 300  # ship and crate outlined at first contact
    assert demo.push is not None and demo.push.started_overlapping
    # the push separates them (in floats, to within rounding of normal * depth)
    pushed = demo.lodged.translated(demo.push.normal * (demo.push.depth + 1e-9))
    assert not overlaps(pushed, demo.block)
    short = demo.lodged.translated(demo.push.normal * (demo.push.depth - 1e-6))
    assert overlaps(short, demo.block)
    assert _count(image, PUSHED) > 100
    assert len(demo.pairs) > 0 and _count(image, HIT_BOX) > 500
    assert len(demo.meets) > 0 and _count(image, MEET_BOX) > 200
    for i, j in demo.meets[:5].tolist():  # each meets within the look-ahead, not before
        hit = sweep(
            Polygon.box(*demo.boxes[i]), tuple(demo.drift[i] * AHEAD),
            Polygon.box(*demo.boxes[j]), tuple(demo.drift[j] * AHEAD),
        )  # fmt: skip
        assert hit is not None and not hit.started_overlapping
    assert "ms" in demo.hud()[-1] and "sweep_box_pairs" in demo.hud()[-1]


def test_demo_texts_read_as_meant(app):
    from collide2d.demos._broadphase_view import BAND_CLEARANCE
    from collide2d.demos.masks import MasksDemo
    from collide2d.demos.rects import RectsDemo
    from collide2d.demos.sweep import SweepDemo

    demo = RectsDemo()
    demo.update(1 / 60, Input())
    while demo.view.kind != "brute force":
        demo.handle_event(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_b))
    demo.update(1 / 60, Input())
    text = "\n".join(demo.hud())
    assert "nothing to draw" not in text and "C: -" in text
    assert "1.0x fewer" not in text and "no saving" in text
    demo.handle_event(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_SPACE))
    assert "PAUSED" in "\n".join(demo.hud())
    assert BAND_CLEARANCE > 18 * 3  # the band ends above the help panel's lines
    masks = MasksDemo()  # no update yet: the HUD already names the contact
    assert masks.stop is not None and "stops at" in masks.hud()[1]
    masks.handle_event(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_m))
    masks.update(1 / 60, Input())  # the collider as a rectangle: no pixel of its own
    assert "None" not in masks.hud()[1]
    sweep = SweepDemo()
    for _ in range(400):  # B's destination held far to the right
        sweep.update(1 / 60, Input([pygame.K_RIGHT]))
    assert 0 <= (sweep.b.center + sweep.b.delta).x <= sweep.size[0]
    sweep.handle_event(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_r))
    assert sweep.b.delta == (-160, -30)
