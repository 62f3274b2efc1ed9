"""The pixel masks' kernels: packed words (``bits``), row runs (``runs``), the
quadtree of a mask (``mask_tree``), components and outlines (``components``),
convolution (``convolve``); driven by ``collide2d/mask/``."""
