// Strength levels: the table is monotone and the pick follows its temperature and noise.
#include "play/levels.h"

#include <gtest/gtest.h>

#include <set>

#include "engine/registry.h"
#include "play/player.h"

namespace pincer {
namespace {

TEST(Levels, TableIsMonotone) {
  for (int l = kMinLevel + 1; l <= kMaxLevel; ++l) {
    const LevelSetting a = level_setting(l - 1), b = level_setting(l);
    EXPECT_LT(a.visit_fraction, b.visit_fraction);
    EXPECT_GE(a.temperature, b.temperature);
    EXPECT_GE(a.policy_noise, b.policy_noise);
  }
  EXPECT_EQ(level_visits(level_setting(10), 800), 800);
  EXPECT_EQ(level_visits(level_setting(1), 800), 2);
  EXPECT_EQ(level_visits(level_setting(1), 10), 1);
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
  EXPECT_GT(counts[1], 200);  // the policy's favourite comes up through the noise
  EXPECT_GT(counts[2], 50);
  EXPECT_LT(counts[0], 700);
  // Values without visits (alpha-beta): temperature over values.
  const std::vector<Candidate> ab = {{0, 0.9, 0.3}, {0, 0.2, 0.3}, {0, 0.1, 0.4}};
  int best = 0;
  for (int i = 0; i < 100; ++i) best += pick_candidate(level_setting(7), ab, 0.9, i / 100.0) == 0;
  EXPECT_EQ(best, 100);  // a much worse move is never picked at a cool temperature
}

// The classical levels (mcts:...,level=N): a level-1 bot (one simulation, a hot pick, half its
// moves any move at all) spreads its moves. On SE!ZE's start, where a full search settles on a
// few moves (Seega's placement start has many equal ones, so a full search spreads there too).
TEST(Levels, ClassicalMctsLevels) {
  const GamePtr game = load_game("seize-reference");
  std::set<Action> low, high;
  for (uint64_t seed = 1; seed <= 24; ++seed) {
    low.insert(make_player(game, "mcts:sims=200,rollout=30,level=1", seed)
                   ->choose(*game->initial_state()));
    high.insert(
        make_player(game, "mcts:sims=200,rollout=30", seed)->choose(*game->initial_state()));
  }
  EXPECT_GE(low.size(), 6u);
  EXPECT_LT(high.size(), low.size());
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
