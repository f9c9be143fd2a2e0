// Strength levels: the table is monotone and the pick follows its temperature and noise.
#include "play/levels.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>

#include "engine/registry.h"
#include "play/player.h"
#include "play/time_manager.h"
#include "tests/support/random_games.h"

namespace pincer {
namespace {

TEST(Levels, TableIsMonotone) {
  for (int l = kMinLevel + 1; l <= kMaxLevel; ++l) {
    const LevelSetting a = level_setting(l - 1), b = level_setting(l);
    // Never less search, never more blunders, a pick no hotter at the same search...
    EXPECT_LE(a.visit_fraction, b.visit_fraction);
    EXPECT_GE(a.random_move, b.random_move);
    EXPECT_GE(a.random_move + a.policy_noise, b.random_move + b.policy_noise);
    if (a.visit_fraction == b.visit_fraction) {
      EXPECT_GE(a.temperature, b.temperature);
    }
    if (a.visit_fraction > 0) {
      EXPECT_GE(a.temperature, b.temperature);
    }
    // ... and each level stronger than the one below in at least one of them.
    EXPECT_TRUE(b.visit_fraction > a.visit_fraction || b.random_move < a.random_move ||
                b.policy_noise < a.policy_noise || b.temperature < a.temperature)
        << "level " << l;
  }
  EXPECT_EQ(level_visits(level_setting(10), 800), 800);
  EXPECT_EQ(level_visits(level_setting(1), 800), 1);
  EXPECT_EQ(level_visits(level_setting(6), 800), 1);
  EXPECT_EQ(level_visits(level_setting(7), 200), 25);
  EXPECT_EQ(level_visits(level_setting(9), 200), 100);
  EXPECT_EQ(level_visits(level_setting(9), 10), 5);
  EXPECT_THROW(level_setting(0), std::invalid_argument);
  EXPECT_THROW(level_setting(11), std::invalid_argument);
}

TEST(Levels, TopLevelPlaysTheBestMove) {
  const std::vector<Candidate> c = {{50, 0.6, 0.1}, {30, 0.55, 0.8}, {20, 0.5, 0.1}};
  for (double u = 0; u < 1; u += 0.05) EXPECT_EQ(pick_candidate(level_setting(10), c, u, u), 0);
}

TEST(Levels, LowLevelsSpreadTheirMoves) {
  const std::vector<Candidate> c = {{50, 0.6, 0.1}, {30, 0.55, 0.8}, {20, 0.5, 0.1}};
  int counts[3] = {0, 0, 0};
  for (int i = 0; i < 1000; ++i) {
    const double u1 = (i % 97) / 97.0, u2 = (i % 101) / 101.0;
    ++counts[pick_candidate(level_setting(1), c, u1, u2)];
  }
  EXPECT_GT(counts[1], 200);  // the others come up through the random moves
  EXPECT_GT(counts[2], 50);
  EXPECT_LT(counts[0], 700);
  // Values without visits (alpha-beta): temperature over values.
  const std::vector<Candidate> ab = {{0, 0.9, 0.3}, {0, 0.2, 0.3}, {0, 0.1, 0.4}};
  int best = 0;
  for (int i = 0; i < 100; ++i) best += pick_candidate(level_setting(7), ab, 0.9, i / 100.0) == 0;
  EXPECT_EQ(best, 100);  // a much worse move is never picked at a cool temperature
}

// A level's random move is any legal move, also one the search and the policy ignored; the
// levels without random moves never play one.
TEST(Levels, RandomMovesReachEveryMove) {
  const std::vector<Candidate> c = {{1, 0.6, 0.9}, {0, 0.5, 0.1}, {0, 0.5, 0}, {0, 0.5, 0}};
  for (int level : {1, 2}) {
    int counts[4] = {0, 0, 0, 0};
    for (int i = 0; i < 1000; ++i)
      ++counts[pick_candidate(level_setting(level), c, i / 1000.0, (i % 97) / 97.0)];
    const double expected = 1000 * level_setting(level).random_move / 4;  // per unsearched move
    EXPECT_NEAR(counts[2], expected, 40) << level;
    EXPECT_NEAR(counts[3], expected, 40) << level;
  }
  for (int l = 6; l <= kMaxLevel; ++l) {  // no random moves from level 6
    for (int i = 0; i < 100; ++i) {
      EXPECT_LT(pick_candidate(level_setting(l), c, i / 100.0, (i % 13) / 13.0), 2) << l;
    }
  }
}

// The classical levels (mcts:...,level=N): in a position where a capture is possible, a full
// search keeps coming back to one move; a level-1 bot (one simulation, most of its moves any move
// at all) spreads its moves.
TEST(Levels, ClassicalMctsLevels) {
  const GamePtr game = load_game("seize-reference");
  std::unique_ptr<State> sharp;
  testing::play_random_game(*game->initial_state(), 3, 60, [&](const State& s, Action) {
    if (!sharp && !s.outcome().over && sharpness(s) > 0) sharp = s.clone();
  });
  ASSERT_TRUE(sharp);
  std::map<Action, int> low, high;
  for (uint64_t seed = 1; seed <= 24; ++seed) {
    ++low[make_player(game, "mcts:sims=200,rollout=30,level=1", seed)->choose(*sharp)];
    ++high[make_player(game, "mcts:sims=200,rollout=30", seed)->choose(*sharp)];
  }
  const auto most = [](const std::map<Action, int>& m) {
    int n = 0;
    for (const auto& [a, k] : m) n = std::max(n, k);
    return n;
  };
  EXPECT_GE(low.size(), 6u);
  EXPECT_LT(most(low), most(high)) << low.size() << " vs " << high.size() << " distinct moves";
  EXPECT_THROW(make_player(game, "mcts:level=0", 1), std::invalid_argument);
  EXPECT_THROW(make_player(game, "mcts:level=11", 1), std::invalid_argument);
}

}  // namespace
}  // namespace pincer

#include "play/time_manager.h"

namespace pincer {
namespace {

TEST(TimeManager, SpendsAFractionMoreWhenSharpAndNeverRunsOut) {
  const TimeControl tc;
  const double quiet = move_time(tc, 300, 0), sharp = move_time(tc, 300, 1);
  EXPECT_NEAR(quiet, 298.0 / 30, 1e-9);
  EXPECT_EQ(move_time(tc, 3000, 1), tc.max_s);
  EXPECT_NEAR(sharp, 2 * quiet, 1e-9);
  // However many moves, the time spent stays below the time there was.
  double left = 60;
  for (int i = 0; i < 500; ++i) left -= move_time(tc, left, 1);
  EXPECT_GT(left, 0);
  EXPECT_TRUE(play_for_points(tc, 10));
  EXPECT_FALSE(play_for_points(tc, 100));
  EXPECT_FALSE(play_for_points(tc, -1));  // untimed
  EXPECT_TRUE(best_is_settled(300, 100, 150));
  EXPECT_FALSE(best_is_settled(300, 100, 250));
}

}  // namespace
}  // namespace pincer
