"""``World.step``'s compiled core: its state (``step_work``), its phases (``step_core``
sets a step up and runs it; ``step_first``, ``step_start``, ``step_events``,
``step_settle``) and what they are built from (cells, queue, predictions, responses).
The Python that drives it is ``collide2d/world/step*.py``."""
