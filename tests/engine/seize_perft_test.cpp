// Perft regressions for both SE!ZE rulesets, checked live against the independent slow
// generator, and move-by-move agreement of the two generators over random games.
#include <gtest/gtest.h>

#include "engine/registry.h"
#include "engine/seize/notation.h"
#include "engine/seize/seize_game.h"
#include "tests/support/random_games.h"
#include "tests/support/slow_seize.h"

namespace pincer {
namespace {

using seize::Position;
using testing::SlowSeize;

const seize::SeizeGame& seize_game(const GamePtr& g) {
  return static_cast<const seize::SeizeGame&>(*g);
}

struct PerftCase {
  const char* rules;
  std::vector<uint64_t> nodes;  // depths 1..5 from the start
};

// Values produced by the bitboard generator and confirmed by the slow one (the test below
// recomputes them with both).
const PerftCase kCases[] = {
    {"seize-reference", {22, 492, 13886, 399938, 12930800}},
    {"seize-v0", {8, 70, 1030, 15810, 282430}},
};

TEST(SeizePerft, StartPositionBothGenerators) {
  for (const PerftCase& c : kCases) {
    const GamePtr game = load_game(c.rules);
    const Position start = Position::start(seize_game(game).rules());
    const SlowSeize slow = SlowSeize::from(start);
    for (int depth = 1; depth <= 5; ++depth) {
      SCOPED_TRACE(std::string(c.rules) + " depth " + std::to_string(depth));
      EXPECT_EQ(seize::perft(start, depth), c.nodes[depth - 1]);
      EXPECT_EQ(testing::slow_perft(slow, depth), c.nodes[depth - 1]);
    }
  }
}

TEST(SeizePerft, GenericInterfaceAgreesWithFastPath) {
  for (const PerftCase& c : kCases) {
    const GamePtr game = load_game(c.rules);
    const auto start = game->initial_state();
    // The base-class walk over the virtual interface, not the override.
    EXPECT_EQ(game->Game::perft(*start, 3), c.nodes[2]) << c.rules;
    EXPECT_EQ(game->perft(*start, 3), c.nodes[2]) << c.rules;
  }
}

// Over many random games, every position has the same moves, result and successor under both
// generators, and the incremental hash equals the hash of the same position built from text.
TEST(SeizePerft, GeneratorsAgreeOverRandomGames) {
  for (const char* rules : {"seize-reference", "seize-v0"}) {
    const GamePtr game = load_game(rules);
    const auto& sg = seize_game(game);
    int positions = 0, finished = 0;
    for (uint64_t seed = 1; seed <= 150; ++seed) {
      testing::play_random_game(*game->initial_state(), seed, 700, [&](const State& s, Action a) {
        if (::testing::Test::HasFatalFailure()) return;
        const Position& pos = static_cast<const seize::SeizeState&>(s).position();
        const SlowSeize slow = SlowSeize::from(pos);
        ++positions;
        std::vector<std::pair<int, int>> fast_moves;
        std::vector<Action> actions;
        s.legal_actions(actions);
        for (Action x : actions) {
          const seize::Move m = seize::action_to_move(x);
          fast_moves.emplace_back(m.from, m.to);
        }
        std::sort(fast_moves.begin(), fast_moves.end());
        std::vector<std::pair<int, int>> slow_moves = slow.moves();
        std::sort(slow_moves.begin(), slow_moves.end());
        ASSERT_EQ(fast_moves, slow_moves)
            << rules << " seed " << seed << " at " << seize::to_sfen(pos);
        const seize::Result r = pos.result();
        const std::string fast_result = r.over()
                                            ? (r.winner < 0 ? "draw" : std::to_string(r.winner)) +
                                                  ":" + seize::reason_name(r.reason)
                                            : "";
        ASSERT_EQ(fast_result, slow.result()) << seize::to_sfen(pos);
        ASSERT_EQ(pos.key(), seize::parse_sfen(sg.rules(), seize::to_sfen(pos)).key())
            << seize::to_sfen(pos);
        if (a < 0) {
          finished += r.over();
          return;
        }
        const seize::Move m = seize::action_to_move(a);
        Position next = pos;
        next.apply(m);
        SlowSeize slow_next = slow;
        slow_next.play(m.from, m.to);
        ASSERT_EQ(slow_next.difference(next), "")
            << "after " << seize::long_move(m) << " from " << seize::to_sfen(pos);
      });
    }
    EXPECT_GT(positions, 10000) << rules;
    EXPECT_GT(finished, 100) << rules << ": random games should mostly end";
  }
}

}  // namespace
}  // namespace pincer
