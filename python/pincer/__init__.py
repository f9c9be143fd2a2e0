"""pincer from Python: the rules, the records and the players of pincer (docs/python.md).

    import pincer
    g = pincer.Game("seize-reference")
    g.play(g.legal_moves()[0])
    planes = g.planes()            # numpy float32 (channels, height, width)
    data = pincer.read_run("runs/seize")   # numpy arrays of every self-play position
"""
import os as _os
import sys as _sys


def _torch_library():
    """Where pincer-torch.so (the network half of pincer) is: beside this package once installed
    (python/install.py copies it), else where the build that made this package put it."""
    here = _os.path.join(_os.path.dirname(__file__), "pincer-torch.so")
    if _os.path.exists(here):
        return here
    try:
        from ._build_paths import torch_library
    except ImportError:
        return ""
    return torch_library


# pincer-torch.so takes the engine, search and players from the module that loads it, as it takes
# them from the `pincer` executable: _core's symbols must be global for it to find them.
_flags = _sys.getdlopenflags()
_sys.setdlopenflags(_flags | _os.RTLD_GLOBAL)
try:
    from . import _core
finally:
    _sys.setdlopenflags(_flags)

# $PINCER_TORCH_LIBRARY, when set, overrides this.
_core._set_torch_library(_torch_library())

from ._core import (  # noqa: E402
    Analyzer,
    Game,
    GameError,
    Player,
    RecordError,
    load_sgn,
    read_chunk,
    read_chunk_games,
    read_run,
    read_sgn,
    rulesets,
)



def policy_batch(data, rows):
    """Dense policy targets, float32 (len(rows), num_actions), for the positions `rows` of
    records read with policy="sparse" (read_run, read_chunk, read_sgn)."""
    import numpy as np

    rows = np.asarray(rows, dtype=np.int64)
    start = data["policy_start"][rows]
    counts = data["policy_start"][rows + 1] - start
    out = np.zeros((len(rows), data["num_actions"]), dtype=np.float32)
    row_of = np.repeat(np.arange(len(rows)), counts)
    entry = np.arange(counts.sum()) + np.repeat(start - (np.cumsum(counts) - counts), counts)
    out[row_of, data["policy_index"][entry]] = data["policy_share"][entry]
    return out


__all__ = [
    "Analyzer",
    "Game",
    "GameError",
    "Player",
    "RecordError",
    "load_sgn",
    "policy_batch",
    "read_chunk",
    "read_chunk_games",
    "read_run",
    "read_sgn",
    "rulesets",
]
