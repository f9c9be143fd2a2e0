"""Shared fixtures of the Python module's tests (run by ctest as python.pytest, which sets
PYTHONPATH to build/python and PINCER_BIN to the build's `pincer`)."""
import os
import pathlib
import subprocess

import pytest

SOURCE_DIR = pathlib.Path(os.environ.get("PINCER_SOURCE_DIR", pathlib.Path(__file__).parents[2]))


@pytest.fixture(scope="session")
def pincer_bin():
    path = pathlib.Path(os.environ.get("PINCER_BIN", SOURCE_DIR / "build" / "cli" / "pincer"))
    if not path.exists():
        pytest.fail(f"no pincer executable at {path} (set PINCER_BIN)")
    return str(path)


@pytest.fixture(scope="session")
def has_torch(pincer_bin):
    return (pathlib.Path(pincer_bin).parent / "pincer-torch.so").exists()


def run_pincer(pincer_bin, args, stdin="", timeout=120):
    """Runs the C++ CLI; fails the test with its stderr when it fails."""
    done = subprocess.run([pincer_bin, *args], input=stdin, capture_output=True, text=True,
                          timeout=timeout)
    assert done.returncode == 0, f"pincer {' '.join(args)} failed: {done.stderr}"
    return done.stdout
