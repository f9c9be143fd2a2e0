// Game sessions: clocks end the game (on points for a game clock, on time for a side clock),
// moves and resignation.
#include "serve/session.h"

#include <gtest/gtest.h>

#include <thread>

#include "tests/serve/support.h"

namespace pincer::testing {
namespace {

serve::GameSession session(const std::string& rules, serve::ClockMode mode, double seconds) {
  serve::SessionSettings s;
  s.bot_plays = {false, false};
  s.clock = mode;
  s.clock_seconds = seconds;
  GamePtr game = load_game(rules);
  auto analyzer =
      std::shared_ptr<serve::Analyzer>(serve::make_player_analyzer(game, "alphabeta:depth=1", 1));
  return serve::GameSession("1", analyzer, game->initial_state(), s);
}

TEST(Session, GameClockDecidesOnPointsAndTiesGoToTheRulesetsSide) {
  auto s = session("seize-reference", serve::ClockMode::kGame, 0.05);
  EXPECT_TRUE(s.describe()["result"].is_null());
  std::this_thread::sleep_for(std::chrono::milliseconds(80));
  const serve::Json g = s.describe();
  ASSERT_FALSE(g["result"].is_null());
  EXPECT_EQ(g["result"]["winner"], "gold");  // 0 : 0, level points go to Gold (seed 000)
  EXPECT_EQ(g["result"]["reason"], "time, points");
  EXPECT_EQ(g["clock"]["remaining"], 0.0);
  EXPECT_FALSE(s.turn().has_value());
  EXPECT_THROW(s.play("cc7"), serve::QueryError);
}

TEST(Session, SideClockLosesOnTime) {
  auto s = session("seega-5x5", serve::ClockMode::kSide, 0.05);
  s.play("a1");  // dark places twice: dark's clock keeps running
  std::this_thread::sleep_for(std::chrono::milliseconds(80));
  const serve::Json g = s.describe();
  EXPECT_EQ(g["result"]["winner"], "light");
  EXPECT_EQ(g["result"]["reason"], "time");
  EXPECT_GT(g["clock"]["remaining"][1].get<double>(), 0.04);  // light's clock never ran
}

TEST(Session, MovesAndResignation) {
  auto s = session("seize-reference", serve::ClockMode::kNone, 0);
  s.play("cc7");
  EXPECT_THROW(s.play("zz"), serve::QueryError);
  const serve::Json g = s.describe();
  ASSERT_EQ(g["moves"].size(), 1u);
  EXPECT_EQ(g["moves"][0]["long"], "c6-c7");
  EXPECT_EQ(g["moves"][0]["side"], "red");
  auto turn = s.turn();
  ASSERT_TRUE(turn.has_value());
  EXPECT_EQ(turn->ply, 1);
  EXPECT_FALSE(s.play_at(0, 0));  // the game moved on
  s.resign(-1);                   // gold, to move, resigns
  EXPECT_EQ(s.describe()["result"]["winner"], "red");
  EXPECT_NE(s.record().find("1. cc7"), std::string::npos);
}

}  // namespace
}  // namespace pincer::testing
