"""Records read in Python: a tiny self-play run's chunks against what `pincer checkrun` reads,
each position against the game replayed in Python, and SGN files."""
import pathlib
import random
import shutil

import numpy as np
import pytest

import pincer
from conftest import run_pincer

TINY_CONFIG = """
rules: "seize-reference"
seed: 3
network { blocks: 1 channels: 8 policy_channels: 2 value_channels: 1 value_hidden: 16 }
inference { max_batch: 32 max_wait_us: 500 threads: 1 }
selfplay {
  search { simulations: 6 leaves_per_batch: 2 }
  parallel_games: 4
  threads: 1
  max_moves: 40
  games_per_chunk: 2
}
trainer {
  optimizer { kind: "adam" learning_rate: 0.002 }
  batch_size: 16
  window_positions: 5000
  min_positions: 60
  samples_per_position: 2
  checkpoint_every: 5
  threads: 1
}
gating { games: 2 search { simulations: 4 } random_opening_plies: 2 }
"""


@pytest.fixture(scope="module")
def tiny_run(pincer_bin, has_torch, tmp_path_factory):
    """A run dir with a few self-play chunks of a tiny network (`pincer selfplay`)."""
    if not has_torch:
        pytest.skip("no pincer-torch.so: self-play needs the network half of pincer")
    run = tmp_path_factory.mktemp("run")
    (run / "config.textproto").write_text(TINY_CONFIG)
    run_pincer(pincer_bin, ["selfplay", "--dir", str(run), "--games", "6"], timeout=300)
    assert list((run / "records").glob("*.chunk")), "self-play wrote no chunk"
    return run


def checkrun(pincer_bin, run):
    out = run_pincer(pincer_bin, ["checkrun", "--dir", str(run)])
    return dict(field.split("=", 1) for field in out.split())


def test_run_read_in_python_matches_checkrun(pincer_bin, tiny_run):
    counts = checkrun(pincer_bin, tiny_run)
    data = pincer.read_run(str(tiny_run))
    assert len(data["chunks"]) == int(counts["chunks"])
    assert data["games"] == int(counts["games"])
    assert data["rules"] == "seize-reference"
    n = len(data["planes"])
    assert n > 0 and data["planes"].shape == (n, *pincer.Game("seize-reference").input_shape)
    for key in ("policy", "has_policy", "value", "points", "to_move", "game", "ply"):
        assert len(data[key]) == n, key
    # Targets as the trainer makes them: policies and values are distributions.
    assert np.allclose(data["policy"][data["has_policy"]].sum(axis=1), 1, atol=1e-4)
    assert (data["policy"][~data["has_policy"]] == 0).all()
    assert np.allclose(data["value"].sum(axis=1), 1, atol=1e-5)
    assert data["has_policy"].any()


def test_each_position_is_the_game_replayed_in_python(tiny_run):
    chunks = sorted((tiny_run / "records").glob("*.chunk"))
    for chunk in chunks:
        data = pincer.read_chunk(str(chunk))
        games = pincer.read_chunk_games(str(chunk), "seize-reference")
        assert data["games"] == len(games)
        row = 0
        for k, record in enumerate(games):
            g = pincer.Game("seize-reference", position=record["start"] or None)
            for ply, action in enumerate(record["actions"]):
                assert data["game"][row] == k and data["ply"][row] == ply
                assert np.array_equal(data["planes"][row], g.planes())
                assert data["to_move"][row] == g.to_move()
                policy = data["policy"][row]
                if data["has_policy"][row]:
                    # The policy target lies on legal moves only.
                    legal = set(g.policy_indices().tolist())
                    assert set(np.flatnonzero(policy).tolist()) <= legal
                us = g.to_move()
                if record["winner"] == -1:
                    assert data["value"][row].tolist() == [0, 1, 0]
                else:
                    assert data["value"][row].tolist() == ([1, 0, 0] if record["winner"] == us else [0, 0, 1])
                if record["final_points"]:
                    fp = record["final_points"]
                    assert data["points"][row] == fp[us] - fp[1 - us]
                g.play(int(action))
                row += 1
            if record["reason"] != "max_moves":
                assert g.is_over()
        assert row == len(data["planes"])


def test_newest_and_root_value_weight(tiny_run):
    newest = pincer.read_run(str(tiny_run), newest=1)
    assert len(newest["chunks"]) == 1
    mixed = pincer.read_run(str(tiny_run), root_value_weight=0.5)
    assert np.allclose(mixed["value"].sum(axis=1), 1, atol=1e-5)
    with pytest.raises(ValueError):
        pincer.read_run(str(tiny_run), root_value_weight=2)


def test_damaged_or_foreign_chunks_are_refused(tiny_run, tmp_path):
    chunk = sorted((tiny_run / "records").glob("*.chunk"))[0]
    cut = tmp_path / "cut.chunk"
    cut.write_bytes(chunk.read_bytes()[: chunk.stat().st_size // 2])
    with pytest.raises(pincer.RecordError):
        pincer.read_chunk(str(cut))
    with pytest.raises(pincer.RecordError, match="fingerprint"):
        pincer.read_chunk(str(chunk), "seize-v0")
    with pytest.raises(RuntimeError):
        pincer.read_chunk(str(tmp_path / "missing.chunk"))
    with pytest.raises(RuntimeError):
        pincer.read_run(str(tmp_path))  # no config.textproto


def test_sgn_positions(tmp_path):
    rng = random.Random(11)
    g = pincer.Game("seize-reference")
    before = []
    while not g.is_over() and len(before) < 30:
        before.append(g.copy())
        g.play(int(rng.choice(g.legal_actions())))
    path = tmp_path / "game.sgn"
    path.write_text(g.sgn())
    data = pincer.read_sgn(str(path))
    assert data["games"] == 1 and len(data["planes"]) == len(before)
    for row, (b, action) in enumerate(zip(before, g.actions())):
        assert np.array_equal(data["planes"][row], b.planes())
        played = b.policy_indices()[b.legal_actions().tolist().index(action)]
        assert data["policy"][row][played] == 1 and data["policy"][row].sum() == 1
        assert data["value"][row].tolist() == [0, 1, 0]  # unfinished: a draw
    bad = tmp_path / "bad.sgn"
    bad.write_text(g.sgn().replace("Fingerprint \"", "Fingerprint \"0"))
    with pytest.raises(pincer.GameError):
        pincer.read_sgn(str(bad))


def test_sparse_policy_is_the_dense_one(tiny_run):
    dense = pincer.read_run(str(tiny_run))
    sparse = pincer.read_run(str(tiny_run), policy="sparse")
    assert "policy" not in sparse and len(sparse["policy_start"]) == len(dense["planes"]) + 1
    assert np.array_equal(sparse["planes"], dense["planes"])
    rows = np.arange(len(dense["planes"]))[::-1]  # any order
    assert np.array_equal(pincer.policy_batch(sparse, rows), dense["policy"][rows])
    assert np.array_equal(pincer.policy_batch(sparse, []), dense["policy"][:0])
    with pytest.raises(ValueError, match="sparse"):
        pincer.read_run(str(tiny_run), policy="csr")
