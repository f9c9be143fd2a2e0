"""Players and search from Python: a search finds a free capture, with the shipped model when the
network half of pincer is built and with the classical players always."""
import random

import pytest

import pincer
from conftest import SOURCE_DIR

MODEL = SOURCE_DIR / "models" / "seize-reference.pt"


def captures(g, action):
    after = g.copy()
    after.play(int(action))
    return after


def free_capture_position():
    """A position of a seeded random SE!ZE game where exactly one move captures and no reply
    captures back, and no move wins at once: (game, the capturing move's long text)."""
    for seed in range(1, 400):
        rng = random.Random(seed)
        g = pincer.Game("seize-reference")
        for _ in range(rng.randrange(6, 40)):
            if g.is_over():
                break
            g.play(int(rng.choice(g.legal_actions())))
        if g.is_over():
            continue
        taking, wins = [], False
        for a, text in zip(g.legal_actions(), g.legal_moves()):
            after = captures(g, a)
            wins |= after.is_over()
            if after.captured():
                taking.append((text, after))
        if wins or len(taking) != 1:
            continue
        text, after = taking[0]
        if any(captures(after, r).captured() for r in after.legal_actions()):
            continue
        return g, text
    pytest.fail("no position with one free capture in 400 random games")


@pytest.fixture(scope="module")
def capture_position():
    return free_capture_position()


def best_move(analysis, g):
    return g.move_text(g.parse_move(analysis["moveInfos"][0]["move"]))


def test_model_search_finds_the_capture(capture_position, has_torch):
    if not has_torch:
        pytest.skip("no pincer-torch.so: the model needs the network half of pincer")
    g, capture = capture_position
    analyzer = pincer.Analyzer(str(MODEL), sims=200)
    assert analyzer.ruleset_name == "seize-reference"
    analysis = analyzer.analyse(g)
    assert best_move(analysis, g) == capture, analysis["moveInfos"][:3]
    assert analysis["rootInfo"]["visits"] >= 200
    info = analysis["moveInfos"][0]
    assert 0 <= info["win"] <= 1 and info["pv"]


def test_alphabeta_finds_the_capture(capture_position):
    g, capture = capture_position
    assert pincer.Player("alphabeta:depth=3", g).choose(g) == capture
    analysis = pincer.Analyzer(player="alphabeta:depth=3", rules="seize-reference").analyse(g)
    assert best_move(analysis, g) == capture


def test_net_player_plays_a_game_against_alphabeta(has_torch):
    if not has_torch:
        pytest.skip("no pincer-torch.so")
    g = pincer.Game("seize-reference")
    players = [pincer.Player(f"net:model={MODEL},sims=16"), pincer.Player("alphabeta:depth=1")]
    for _ in range(12):
        if g.is_over():
            break
        g.play(players[g.to_move()].choose(g))
    assert len(g.actions()) == 12 or g.is_over()


def test_bad_player_and_analyzer_arguments():
    with pytest.raises(ValueError):
        pincer.Player("no-such-kind")
    with pytest.raises(ValueError):
        pincer.Analyzer()  # neither a model nor a player
    with pytest.raises(ValueError):
        pincer.Analyzer(player="alphabeta:depth=2")  # no rules
    with pytest.raises(ValueError):
        pincer.Analyzer(model="no-such-model.pt")
    g = pincer.Game("seize-reference")
    with pytest.raises(pincer.GameError):
        pincer.Player("greedy").choose(pincer.Game("seega-5x5"))
