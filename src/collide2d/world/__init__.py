"""The World: items that move, collide and respond, in bump.lua's model, exact."""

from collide2d._kernels.codes import MAX_RESPONSES
from collide2d.world.collision import Collision, Movement, SegmentHit
from collide2d.world.group_filter import GroupFilter
from collide2d.world.move_arrays import MoveArrays
from collide2d.world.responses import bounce, cross, slide, touch
from collide2d.world.step_result import Contact, ContactArrays, StepResult, StepStats
from collide2d.world.walking import walk
from collide2d.world.world import World

__all__ = [
    "MAX_RESPONSES",
    "Collision",
    "Contact",
    "ContactArrays",
    "GroupFilter",
    "MoveArrays",
    "Movement",
    "SegmentHit",
    "StepResult",
    "StepStats",
    "World",
    "bounce",
    "cross",
    "slide",
    "touch",
    "walk",
]
