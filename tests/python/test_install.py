"""python/install.py: the documented command installs the built module into a folder, from which a
fresh Python imports it, with the network half beside it."""
import os
import pathlib
import subprocess
import sys

import pincer
from conftest import SOURCE_DIR

BUILD = pathlib.Path(pincer.__file__).resolve().parents[2]


def test_install_into_a_folder_and_import_from_there(tmp_path, has_torch):
    target = tmp_path / "site"
    for _ in range(2):  # a second install replaces the first whole
        done = subprocess.run([sys.executable, str(SOURCE_DIR / "python" / "install.py"), "--build",
                               str(BUILD), "--target", str(target)], capture_output=True,
                              text=True, timeout=120)
        assert done.returncode == 0, done.stderr
    assert sorted(p.name for p in target.iterdir()) == ["pincer"]
    assert (target / "pincer" / "pincer-torch.so").exists() == has_torch
    model = SOURCE_DIR / "models" / "seize-reference.pt"
    script = ("import pincer; g = pincer.Game(); print(pincer.__file__); "
              + (f"print(pincer.Player('net:model={model},sims=8').choose(g))" if has_torch
                 else "print(pincer.Player('greedy').choose(g))"))
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PINCER_TORCH_LIBRARY")}
    env["PYTHONPATH"] = str(target)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=120, env=env, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    where, move = done.stdout.split()
    assert where.startswith(str(target)) and move in pincer.Game().legal_moves()


def test_install_refuses_a_missing_build(tmp_path):
    done = subprocess.run([sys.executable, str(SOURCE_DIR / "python" / "install.py"), "--build",
                           str(tmp_path), "--target", str(tmp_path / "site")],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode != 0 and "build it first" in done.stderr
    assert not (tmp_path / "site" / "pincer").exists()
