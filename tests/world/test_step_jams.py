"""Jams in ``World.step`` that are no jams: a body at rest in a wedge, or pressed
between two others, whose contacts are of rounding size (an ulp inside, not
approaching) is not run to the event cap by them (``step_counts.ROUNDED_AT_ONCE``:
past four such contacts of one body at one moment, the rest are the end's
cleanup's); a body a touch froze yields to a kinematic body that meets it or
pushes another into it (``step_respond.yielding``) instead of being passed through
and put back; a pair held on its far sides by two closing bodies of infinite mass
is crushed at once (``step_respond.slide_held``)."""

from __future__ import annotations

import math

import pytest

from collide2d import Circle, Rect, World
from tests.world.test_step_properties import stopping_overlaps

INF = math.inf

# Found on seeded random scenes (bodies in cells of 10, three groups of mixed
# responses), shrunk to the bodies that still ran one to the cap: each ran one
# body to the event cap (64) in its first step, pushed from one neighbour into the
# other and back by ulps at one moment.
SCENES = {
    "a disc slid into the corner of an immovable disc and an immovable box": (
        [(0, 2, "touch", 0.0), (1, 2, "slide", 1.0), (2, 2, "cross", 0.0)],
        [
            (11, Circle(15.0, 35.0, 4.1034630057298145), (60.30207823297447, 497.17704313970694),
             0.5, 1),
            (14, Circle(15.0, 45.0, 2.805550297226955), (0.0, 0.0), INF, 2),
            (19, Rect(22.313729196666586, 32.96911925320969, 5.372541606666827,
                      4.061761493580624), (0.0, 0.0), INF, 2),
        ],
        1.7805799380555727,
    ),
    "a box bouncing between two discs, pushed by a third": (
        [(0, 0, "bounce", 0.0), (0, 1, "bounce", 0.0), (0, 2, "bounce", 0.5),
         (1, 1, "cross", 0.0), (1, 2, "slide", 0.0), (2, 2, "slide", 0.5)],
        [
            (8, Circle(25.0, 5.0, 3.584583488812509), (0.0, 0.0), INF, 0),
            (12, Rect(22.942882677335003, 11.02838037561536, 4.114234645329995,
                      7.943239248769282), (362.3624393045182, -627.8606963532438), 0.5, 0),
            (17, Circle(15.0, 15.0, 1.2845216838480933), (0.0, 0.0), INF, 0),
            (26, Circle(35.0, 5.0, 1.9173389515652723), (-711.5653467515888, 555.2553951755959),
             2.0, 1),
        ],
        0.06814752905279657,
    ),
    "three discs bouncing off one another and an immovable disc": (
        [(0, 1, "slide", 0.5), (0, 2, "touch", 0.0), (1, 1, "bounce", 0.5),
         (1, 2, "bounce", 0.5), (2, 2, "bounce", 0.0)],
        [
            (0, Circle(25.0, 35.0, 4.021202814974667), (-395.8498850089128, -7.286424741507725),
             0.5, 2),
            (2, Circle(5.0, 25.0, 2.5278490457263625), (0.0, 0.0), INF, 2),
            (7, Circle(25.0, 45.0, 4.42775229371618), (-364.0335228039371, -424.3679246153414),
             1.0, 2),
            (16, Circle(25.0, 5.0, 2.019770813682401), (-228.29008532948865, 516.6833856440736),
             0.5, 1),
        ],
        0.07401428701223925,
    ),
    "two discs and a box sliding into an immovable disc": (
        [(0, 0, "touch", 1.0), (0, 1, "bounce", 0.5), (0, 2, "slide", 0.5),
         (1, 1, "slide", 1.0), (1, 2, "cross", 1.0), (2, 2, "slide", 0.0)],
        [
            (1, Circle(15.0, 25.0, 4.523164588726452), (-36.532979821287846, -16.365391407733025),
             0.5, 0),
            (2, Rect(0.8499904416644872, 23.532776723432168, 8.300019116671026,
                     2.934446553135665), (27.587959681308792, 15.395800442987854), 2.0, 0),
            (6, Circle(25.0, 25.0, 4.630528835441056), (-65.62630361536621, 38.73952882436587),
             2.0, 2),
            (16, Circle(25.0, 35.0, 3.4040733754424912), (0.0, 0.0), INF, 2),
        ],
        2.4325575178190024,
    ),
}  # fmt: skip


@pytest.mark.parametrize("name", sorted(SCENES))
def test_contacts_of_rounding_size_do_not_run_a_body_to_the_cap(name):
    """Each scene ran one body to the cap (66 or 67 events); now none is capped, the
    step takes a few dozen events at most, and it leaves no stopping pair
    overlapping, then or in the steps after."""
    table, bodies, dt = SCENES[name]
    world = World()
    for a, b, response, restitution in table:
        world.set_response(a, b, response, restitution=restitution)
    for item, shape, velocity, mass, group in bodies:
        world.add(item, shape, velocity=velocity, mass=mass, group=group)
    for _ in range(3):
        result = world.step(dt)
        assert result.stats.capped == 0
        assert result.stats.events < 40
        assert result.overlaps == [] and stopping_overlaps(world) == []


def test_a_body_a_touch_froze_yields_to_a_kinematic_pusher():
    """A disc stops against a wall (``touch``); a kinematic plate rising under it
    (``slide``) pushes it up along the wall. Before, the two "could not move" and
    passed as ``cross``; the end found the disc inside the plate and put it back
    where the step began."""
    world = World()
    world.set_response("disc", "wall", "touch")
    world.set_response("disc", "plate", "slide")
    world.add("wall", Rect(0, 0, 4, 40), mass=INF, group="wall")
    world.add("disc", Circle(7, 20, 2), velocity=(-4, 0), group="disc")
    world.add("plate", Rect(4, 26, 6, 2), velocity=(0, -8), mass=INF, group="plate")
    result = world.step(1.0)
    assert [(c.time, c.a, c.b, c.response) for c in result.contacts] == [
        (0.25, "wall", "disc", "touch"),
        (0.5, "disc", "plate", "slide"),
    ]
    assert world.shape("disc") == Circle(6, 16, 2) and world.velocity("disc") == (0, -8)
    assert result.stats.put_back == 0 and result.overlaps == result.crushed == []


def test_a_frozen_body_yields_to_a_kinematic_body_pushing_through_another():
    """A box stops against a post (``touch``); a kinematic plate rising pushes a
    second box up into it. Before, the second box went between the plate and the
    frozen box (which could not move) and was put back where the step began; now
    the frozen box yields (``step_respond.yielding``, ``slide_held``) and both
    go up with the plate."""
    world = World()
    world.set_response("f", "post", "touch")
    for a, b in (("b", "f"), ("b", "k"), ("f", "k")):
        world.set_response(a, b, "slide")
    for a in ("b", "k"):
        world.set_response(a, "post", "cross")
    world.add("post", Rect(10, 0, 2, 10), mass=INF, group="post")
    world.add("frozen", Rect(6, 4, 3, 2), velocity=(10, 0), group="f")
    world.add("box", Rect(6, 6, 3, 2), group="b")
    world.add("plate", Rect(4, 10, 8, 1), velocity=(0, -4), mass=INF, group="k")
    result = world.step(1.0)
    assert world.shape("frozen") == Rect(7, 2, 3, 2) and world.shape("box") == Rect(6, 4, 3, 2)
    assert world.velocity("frozen") == world.velocity("box") == (0, -4)
    assert result.stats.put_back == result.stats.capped == 0
    assert result.overlaps == [] and stopping_overlaps(world) == []


def test_two_boxes_between_a_wall_and_a_pusher_are_crushed_at_once():
    """Two boxes side by side between a wall and a kinematic pusher closing on them:
    each held on its far side (one by the wall, one by the pusher), the pair can go
    nowhere. Both are crushed at once (``step_respond.slide_held``); before, the
    boxes went from one to the other to the event cap (68 events) and were put back
    and carried into the wall."""
    world = World()
    world.add("wall", Rect(0, 0, 2, 10), mass=INF)
    world.add("a", Rect(2, 2, 3, 3))
    world.add("b", Rect(5, 2, 3, 3))
    world.add("pusher", Rect(10, 0, 2, 10), velocity=(-4, 0), mass=INF)
    result = world.step(1.0)
    assert result.stats.events < 10 and result.stats.capped == result.stats.put_back == 0
    assert world.shape("a") == Rect(2, 2, 3, 3) and world.shape("b") == Rect(5, 2, 3, 3)
    # the pusher goes on into the box next to it: that pair is named
    assert result.overlaps == [("b", "pusher")] and result.crushed == ["b"]
    assert stopping_overlaps(world) == [("b", "pusher")]
