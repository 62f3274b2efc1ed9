"""Kernel modules load on first use, once, whichever threads ask at once."""

from __future__ import annotations

import sys
import threading

import pytest

from collide2d._kernels import lazy, lazy_module


def test_threads_asking_at_once_all_see_the_whole_module(tmp_path, monkeypatch):
    runs = tmp_path / "runs.txt"
    (tmp_path / "slow_kernels_for_test.py").write_text(
        "import time\n"
        f"with open({str(runs)!r}, 'a') as log:\n"
        "    log.write('ran\\n')\n"
        "FIRST = 1\n"
        "time.sleep(0.3)  # a compile: long enough for the other threads to ask\n"
        "LAST = 42\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    module = lazy_module("slow_kernels_for_test")
    assert not runs.exists()  # nothing runs before an attribute is asked for
    seen: list[object] = []

    def ask() -> None:
        try:
            seen.append(module.LAST)
        except Exception as error:  # recorded for the assertion
            seen.append(error)

    threads = [threading.Thread(target=ask) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert seen == [42, 42, 42, 42]
    assert runs.read_text() == "ran\n"  # once
    assert lazy_module("slow_kernels_for_test") is module
    assert type(module).__name__ == "module"  # a plain module from then on
    sys.modules.pop("slow_kernels_for_test", None)


def test_a_module_whose_code_fails_raises_again_on_the_next_access(tmp_path, monkeypatch):
    (tmp_path / "broken_kernels_for_test.py").write_text("raise RuntimeError('broken')\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    module = lazy_module("broken_kernels_for_test")
    for _ in range(2):
        with pytest.raises(RuntimeError, match="broken"):
            _ = module.anything
    sys.modules.pop("broken_kernels_for_test", None)


def test_unknown_kernel_modules_are_named():
    with pytest.raises(ModuleNotFoundError, match="no_such_kernels"):
        lazy("no_such_kernels")
