"""The codes and limits the kernels and their Python callers share, named once.

One numbering of the responses for the World's compiled moves (``world_moves``),
the step (``step_respond`` ...) and the Python that builds their tables
(``world/step.py``, ``world/move_all.py``, ``world/step_filter.py``); one numbering
of the item table's kinds, which the step's bodies keep (a mask's pixel boxes are
rectangles there). Plain Python constants, no numba: a kernel reads them as
constants compiled in, and the World imports this module directly without loading
any kernel.

>>> RESPONSES[TOUCH], RESPONSES[CROSS]
('touch', 'cross')
"""

from __future__ import annotations

RESPONSES = ("ignore", "cross", "touch", "slide", "bounce")
"""The responses by code: ``RESPONSES[code]`` is the name."""
IGNORE, CROSS, TOUCH, SLIDE, BOUNCE = range(len(RESPONSES))

RECT, CIRCLE, MASK, POLYGON = 0, 1, 2, 3
"""The kinds of the World's items (``world/table.py``) and of the step's bodies
(``step_shapes``: a mask becomes rectangles, its pixel boxes; the step takes no
polygon yet)."""

MAX_RESPONSES = 64
"""Responses one ``World.move`` makes before it stops where its next leg starts."""
SNAP_STEPS = 2200
"""Doublings from one unit in the last place that a snap or a nudge tries (they
outgrow any gap between two floats)."""
ROUNDING_STEPS = 12
"""Doublings from an ulp that clearing a rounding overlap at a move's end tries (up to
4095 ulps; ``world/slope_rules.py`` and the compiled moves)."""
EVENT_CAP = 64
"""Contacts one body may take part in during a step before it is stopped for the rest
of the step (the Zeno guard: a jammed stack or a ball squeezed into a corner would
otherwise make events without end at one moment)."""
