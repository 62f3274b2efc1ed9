"""The World's compiled moves: ``World.move``, ``move_all`` and ``move_arrays`` of
rectangles among rectangles (``world_moves``), driven by ``collide2d/world/move_all.py``."""
