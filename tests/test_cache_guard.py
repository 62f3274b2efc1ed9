"""Numba's cache kept in step with every kernel source (``_kernels/cache_guard.py``)."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

from collide2d._kernels import cache_guard
from collide2d._kernels.step import step_queue


def _dispatcher(path: Path) -> SimpleNamespace:
    return SimpleNamespace(_cache=SimpleNamespace(_cache_path=str(path)))


def test_cache_files_made_from_other_sources_are_dropped_once(tmp_path: Path) -> None:
    for name in ("core.run-1.py311.nbi", "core.run-1.py311.1.nbc", "notes.txt"):
        (tmp_path / name).write_text("x")
    (tmp_path / cache_guard.STAMP).write_text("an older digest\n")
    cache_guard.check(_dispatcher(tmp_path))
    assert sorted(p.name for p in tmp_path.iterdir()) == [cache_guard.STAMP, "notes.txt"]
    assert (tmp_path / cache_guard.STAMP).read_text().strip() == cache_guard.digest()
    (tmp_path / "core.run-1.py311.nbi").write_text("made from these sources")
    cache_guard.check(_dispatcher(tmp_path))  # checked already in this process
    assert (tmp_path / "core.run-1.py311.nbi").exists()


def test_cache_files_made_from_these_sources_are_kept(tmp_path: Path) -> None:
    (tmp_path / "core.run-1.py311.nbi").write_text("x")
    (tmp_path / cache_guard.STAMP).write_text(cache_guard.digest() + "\n")
    cache_guard.check(_dispatcher(tmp_path))
    assert (tmp_path / "core.run-1.py311.nbi").exists()


def test_a_missing_directory_or_a_foreign_dispatcher_is_left_alone(tmp_path: Path) -> None:
    cache_guard.check(SimpleNamespace())  # no numba cache attributes: nothing to do
    cache_guard.check(_dispatcher(tmp_path / "new"))  # made, stamped
    assert (tmp_path / "new" / cache_guard.STAMP).exists()


def test_every_kernel_is_checked_and_the_digest_covers_every_kernel_source() -> None:
    assert step_queue.pack._cache._cache_path in cache_guard._checked
    sources = sorted(Path(cache_guard.__file__).parent.rglob("*.py"))
    assert any(p.name == "step_shapes.py" and p.parent.name == "step" for p in sources)
    assert len(cache_guard.digest()) == 40
