#!/usr/bin/env python3
"""Set up a local virtual environment and run collide2d's main jobs.

    python3 scripts/run.py demo [ARGS...]   the demo showcase (headless: writes PNGs)
    python3 scripts/run.py test [ARGS...]   lint, format check, types, tests, doctests, demo smoke,
                                            and the documentation site (warnings as errors)
    python3 scripts/run.py bench [ARGS...]  the benchmarks in benchmarks/

The environment lives in .venv/ and is (re)installed whenever pyproject.toml changes.
Only the standard library is used here, so this works with a bare Python 3.10+.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PYTHON = BIN / ("python.exe" if os.name == "nt" else "python")
STAMP = VENV / "collide2d-install.stamp"
EXTRAS = {"demo": "demo", "test": "demo,test,dev,docs", "bench": "demo,bench"}
DOCS_OUT = ROOT / "build" / "docs"


def ensure_environment(extras: str) -> None:
    """Create .venv and install the package with ``extras`` unless already current."""
    digest = hashlib.sha256((ROOT / "pyproject.toml").read_bytes() + extras.encode()).hexdigest()
    have = STAMP.read_text().split() if STAMP.exists() else []
    if PYTHON.exists() and (digest in have or _covered(extras, have)):
        return
    if not PYTHON.exists():
        print(f"creating {VENV}", flush=True)
        venv.EnvBuilder(with_pip=True).create(VENV)
    print(f"installing collide2d[{extras}] into {VENV}", flush=True)
    run([str(PYTHON), "-m", "pip", "install", "--quiet", "--upgrade", "pip"])
    run([str(PYTHON), "-m", "pip", "install", "--quiet", "-e", f"{ROOT}[{extras}]"])
    STAMP.write_text("\n".join([*have, digest]) + "\n")


def _covered(extras: str, have: list[str]) -> bool:
    """Whether a wider install done for another job already covers ``extras``."""
    pyproject = (ROOT / "pyproject.toml").read_bytes()
    wanted = set(extras.split(","))
    for other in EXTRAS.values():
        digest = hashlib.sha256(pyproject + other.encode()).hexdigest()
        if wanted <= set(other.split(",")) and digest in have:
            return True
    return False


def run(command: list[str], **kwargs: object) -> None:
    """Run a command from the repository root; exit with its status if it fails."""
    print("$", " ".join(command), flush=True)
    status = subprocess.call(command, cwd=ROOT, **kwargs)  # type: ignore[call-overload]
    if status != 0:
        sys.exit(status)


def main(argv: list[str]) -> None:
    if not argv or argv[0] not in EXTRAS:
        sys.exit(__doc__)
    job, rest = argv[0], argv[1:]
    ensure_environment(EXTRAS[job])
    if job == "demo":
        run([str(BIN / "collide2d"), "demo", *rest])
    elif job == "test":
        run([str(PYTHON), "-m", "ruff", "check", "src", "tests", "benchmarks", "scripts"])
        run(
            [
                str(PYTHON),
                "-m",
                "ruff",
                "format",
                "--check",
                "src",
                "tests",
                "benchmarks",
                "scripts",
            ]
        )
        run([str(PYTHON), "-m", "mypy"])
        env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
        run([str(PYTHON), "-m", "pytest", *rest], env=env)
        # The documentation site, warnings as errors (it runs the demos headless for
        # their screenshots): build/docs/index.html.
        run([str(PYTHON), "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html",
             str(ROOT / "docs"), str(DOCS_OUT)], env=env)  # fmt: skip
        run(
            [
                str(PYTHON),
                str(ROOT / "scripts" / "check_api_reference.py"),
                str(DOCS_OUT / "api.html"),
            ]
        )
        print(f"documentation: {DOCS_OUT / 'index.html'}")
    else:
        scripts = sorted((ROOT / "benchmarks").glob("bench_*.py"))
        for script in scripts:
            if not rest or script.stem in rest:
                run([str(PYTHON), str(script)])


if __name__ == "__main__":
    main(sys.argv[1:])
