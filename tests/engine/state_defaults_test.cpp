// State::eval_key() and State::winning_actions(): the overrides of the shipped games against the
// interface's defaults.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "engine/registry.h"
#include "tests/support/random_games.h"
#include "tests/support/tictactoe.h"

namespace pincer {
namespace {

std::vector<float> planes_of(const State& s) {
  std::vector<float> p(static_cast<size_t>(s.game().input_shape().size()));
  s.encode(p.data());
  return p;
}

// The same position text with its last `from_end`-th word replaced.
std::string with_word(const std::string& text, int from_end, const std::string& word) {
  std::vector<std::string> words;
  size_t i = 0;
  while (i < text.size()) {
    const size_t j = text.find(' ', i);
    words.push_back(text.substr(i, j == std::string::npos ? std::string::npos : j - i));
    i = j == std::string::npos ? text.size() : j + 1;
  }
  words[words.size() - 1 - from_end] = word;
  std::string out;
  for (const std::string& w : words) out += (out.empty() ? "" : " ") + w;
  return out;
}

// Two texts of one position that differ only in a counter the encoding reads: same hash, other
// planes, other eval_key (from the override and from the default alike).
void expect_counter_in_key(const Game& game, const std::string& a_text, const std::string& b_text) {
  SCOPED_TRACE(a_text + " | " + b_text);
  const auto a = game.parse_state(a_text), b = game.parse_state(b_text);
  ASSERT_EQ(a->hash(), b->hash());
  ASSERT_NE(planes_of(*a), planes_of(*b));
  EXPECT_NE(a->eval_key(), b->eval_key());
  EXPECT_NE(a->State::eval_key(), b->State::eval_key());
  EXPECT_EQ(a->eval_key(), game.parse_state(a_text)->eval_key());
}

TEST(EvalKey, SeizeCountersTheEncodingReads) {
  const GamePtr reference = load_game("seize-reference");
  const std::string start = reference->initial_state()->to_text();  // ... r PLY POINTS
  expect_counter_in_key(*reference, start, with_word(start, 1, "10"));
  expect_counter_in_key(*reference, start, with_word(start, 0, "2-0"));
  const GamePtr v0 = load_game("seize-v0");
  const std::string v0_start = v0->initial_state()->to_text();  // ... HALFMOVE
  expect_counter_in_key(*v0, v0_start, with_word(v0_start, 0, "7"));
}

TEST(EvalKey, SeegaCaptureFreeCounter) {
  const GamePtr game = load_game("seega-5x5");
  // A position of the movement phase, from a random game.
  std::string text;
  testing::play_random_game(*game->initial_state(), 7, 40, [&](const State& s, Action) {
    const std::string t = s.to_text();
    // Past the placements, with room in the ply count for one more capture-free ply.
    if (text.empty() && t.find("place") == std::string::npos &&
        std::stoi(t.substr(t.rfind(' ') + 1)) > 2 * 12 + 1) {
      text = t;
    }
  });
  ASSERT_FALSE(text.empty());
  // ... HALFMOVE PLY: another capture-free count.
  const std::string halfmove = with_word(text, 1, "0") == text ? "1" : "0";
  const std::string other = with_word(text, 1, halfmove);
  expect_counter_in_key(*game, text, other);
}

// Over random games of every shipped ruleset and tic-tac-toe (the default), states have equal
// eval_keys exactly when they have equal planes and hashes (the default key's inputs).
TEST(EvalKey, EqualKeysExactlyForEqualInputs) {
  std::vector<GamePtr> games = {testing::make_tictactoe()};
  for (const char* rules : {"seize-reference", "seize-v0", "seega-5x5", "seega-7x7"}) {
    games.push_back(load_game(rules));
  }
  for (const GamePtr& game : games) {
    SCOPED_TRACE(game->ruleset_name());
    std::map<uint64_t, uint64_t> key_of_default, default_of_key;
    int states = 0;
    for (uint64_t seed = 1; seed <= 20; ++seed) {
      testing::play_random_game(*game->initial_state(), seed, 150, [&](const State& s, Action) {
        const uint64_t key = s.eval_key(), base = s.State::eval_key();
        auto [i, fresh_i] = key_of_default.emplace(base, key);
        auto [j, fresh_j] = default_of_key.emplace(key, base);
        EXPECT_EQ(i->second, key) << s.to_text();
        EXPECT_EQ(j->second, base) << s.to_text();
        ++states;
      });
    }
    EXPECT_GT(states, 100);
    EXPECT_GT(key_of_default.size(), 50u);
  }
}

}  // namespace
}  // namespace pincer

namespace pincer {
namespace {

// winning_actions(): the overrides agree with the interface's default (play each action on a
// copy, ask outcome()) over random games of every shipped ruleset, and wins do turn up.
TEST(WinningActions, OverridesAgreeWithTheDefault) {
  for (const char* rules : {"seize-reference", "seize-v0", "seega-5x5", "seega-7x7"}) {
    SCOPED_TRACE(rules);
    const GamePtr game = load_game(rules);
    int positions_with_wins = 0;
    std::vector<Action> fast, slow;
    for (uint64_t seed = 1; seed <= 30; ++seed) {
      testing::play_random_game(*game->initial_state(), seed, 300, [&](const State& s, Action) {
        s.winning_actions(fast);
        s.State::winning_actions(slow);
        std::sort(fast.begin(), fast.end());
        std::sort(slow.begin(), slow.end());
        EXPECT_EQ(fast, slow) << s.to_text();
        EXPECT_EQ(s.has_winning_action(), !slow.empty()) << s.to_text();
        positions_with_wins += !slow.empty();
      });
    }
    // Random SE!ZE games meet wins at once (Seega's random games rarely do).
    if (game->game_name() == "seize") {
      EXPECT_GT(positions_with_wins, 0);
    }
  }
}

}  // namespace
}  // namespace pincer
