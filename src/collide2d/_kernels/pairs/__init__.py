"""Pair searches over many boxes: the batch API's and the broadphases' kernels
(``search`` and ``strip_layout`` drive ``strips``, ``pairs``; ``quadtree`` for the
grid and the quadtree; ``overlap`` their shared tests; ``polygons`` for rotated
boxes and convex polygons)."""
