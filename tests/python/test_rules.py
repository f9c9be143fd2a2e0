"""The Python rules agree with the C++ ones: random games of every shipped ruleset compared move by
move with `pincer moves`, and perft counts walked in Python against `pincer perft`."""
import copy
import json
import random

import numpy as np
import pytest

import pincer
from conftest import run_pincer

RULESETS = pincer.rulesets()
PLIES = 600  # random games mostly end sooner: every result is seen


def test_every_shipped_ruleset_is_listed():
    assert "seize-reference" in RULESETS and len(RULESETS) >= 4


def random_game(rules, seed):
    """A seeded random game, with the state before each move: (start text, [(moves so far, game)])."""
    rng = random.Random(seed)
    g = pincer.Game(rules, seed=seed)
    start = g.start_position()
    seen = [([], g.copy())]
    moves = []
    while not g.is_over() and len(moves) < PLIES:
        move = rng.choice(g.legal_moves())
        g.play(move)
        moves.append(move)
        seen.append((list(moves), g.copy()))
    return start, seen


@pytest.mark.parametrize("rules", RULESETS)
def test_random_games_agree_with_pincer_moves(pincer_bin, rules):
    lines, games = [], []
    for seed in (1, 2, 3):
        start, seen = random_game(rules, seed)
        for moves, g in seen:
            lines.append(f"position {start}" + (" moves " + " ".join(moves) if moves else ""))
            games.append(g)
    out = run_pincer(pincer_bin, ["moves", "--rules", rules], "\n".join(lines) + "\n").splitlines()
    assert len(out) == len(lines)
    for line, answer, g in zip(lines, out, games):
        cpp = json.loads(answer)
        assert "error" not in cpp, (line, cpp)
        assert sorted(g.legal_moves()) == cpp["legal"], line
        assert g.side_name(g.to_move()) == cpp["to_move"], line
        assert g.captured() == cpp["captured"], line
        p0, p1 = g.points()
        assert {g.side_name(0): p0, g.side_name(1): p1} == cpp["points"], line
        over, winner, reason = g.outcome()
        if cpp["result"] is None:
            assert not over and g.result() == "*", line
        else:
            assert over and reason == cpp["result"]["reason"], line
            assert g.result() == cpp["result"]["winner"], line


def python_perft(g, depth):
    if depth == 0:
        return 1
    total = 0
    for a in g.legal_actions():
        child = g.copy()
        child.play(int(a))
        total += python_perft(child, depth - 1)
    return total


@pytest.mark.parametrize("rules", RULESETS)
def test_perft_walked_in_python_matches_pincer_perft(pincer_bin, rules):
    g = pincer.Game(rules)
    out = run_pincer(pincer_bin, ["perft", "--rules", rules, "--depth", "2",
                                  "--position", g.start_position()])
    last = [line for line in out.splitlines() if line.startswith("depth=2 ")]
    assert last, out
    cpp = int(last[0].split("nodes=")[1].split()[0])
    assert python_perft(g, 2) == cpp == g.perft(2)


@pytest.mark.parametrize("rules", RULESETS)
def test_planes_and_policy_indices(rules):
    g = pincer.Game(rules, seed=5)
    rng = random.Random(5)
    for _ in range(10):
        if g.is_over():
            break
        planes = g.planes()
        assert planes.dtype == np.float32 and planes.shape == g.input_shape
        assert np.isfinite(planes).all()
        idx = g.policy_indices()
        assert idx.dtype == np.int32 and len(idx) == len(g.legal_actions())
        assert ((idx >= 0) & (idx < g.num_actions)).all() and len(set(idx.tolist())) == len(idx)
        g.play(int(rng.choice(g.legal_actions())))


def test_position_text_round_trips_and_fingerprint():
    g = pincer.Game("seize-reference")
    g.play(g.legal_moves()[3])
    again = pincer.Game("seize-reference", position=g.position())
    assert again.position() == g.position() and again.legal_moves() == g.legal_moves()
    assert len(g.fingerprint) == 16 and g.fingerprint != pincer.Game("seize-v0").fingerprint
    assert g.actions().tolist() == [g.actions()[0]]
    twin = copy.deepcopy(g)
    twin.play(twin.legal_moves()[0])
    assert len(twin.actions()) == 2 and len(g.actions()) == 1  # copies go on independently


def test_bad_input_raises_game_error():
    g = pincer.Game("seize-reference")
    with pytest.raises(pincer.GameError):
        pincer.Game("no-such-ruleset")
    with pytest.raises(pincer.GameError):
        g.play("z9-z8")
    with pytest.raises(pincer.GameError):
        g.play(10**6)
    with pytest.raises(pincer.GameError):
        pincer.Game("seize-reference", position="not a position")
    with pytest.raises(TypeError):
        g.play(1.5)
    assert g.actions().size == 0  # nothing was played


def test_sgn_round_trip():
    _, seen = random_game("seize-reference", 7)
    g = seen[-1][1]
    (back,) = pincer.load_sgn(g.sgn([("Event", "test")]))
    assert back.position() == g.position()
    assert back.actions().tolist() == g.actions().tolist()
