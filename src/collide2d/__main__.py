"""``python -m collide2d``: the command-line interface."""

from collide2d.cli import main

if __name__ == "__main__":
    raise SystemExit(main())
