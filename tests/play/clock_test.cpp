// Clocks in played games (play/time_manager.h, play_game): the clock text, who wins when it runs
// out (one clock for the whole game: more points; a clock per side: the other side), players
// told the time left, and alpha-beta managing its time: a search of unbounded depth finishes
// its moves on the clock, and with little time left it plays for points.
#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "engine/registry.h"
#include "play/match.h"
#include "play/players.h"
#include "play/time_manager.h"

namespace pincer {
namespace {

TEST(Clock, ParsesTheClockText) {
  EXPECT_FALSE(parse_clock("none").on());
  EXPECT_FALSE(parse_clock("").on());
  const GameClock g = parse_clock("game:10");
  EXPECT_EQ(g.mode, ClockMode::kGame);
  EXPECT_DOUBLE_EQ(g.seconds, 600);
  const GameClock s = parse_clock("side:0.5");
  EXPECT_EQ(s.mode, ClockMode::kSide);
  EXPECT_DOUBLE_EQ(s.seconds, 30);
  for (const char* bad :
       {"game", "game:", "game:0", "game:-1", "game:x", "game:5x", "game:601", "sides:5", "5"}) {
    EXPECT_THROW(parse_clock(bad), std::invalid_argument) << bad;
  }
}

TEST(Clock, RunningOutDecidesByPointsOrBySide) {
  const GamePtr game = load_game("seize-reference");
  auto s = game->initial_state();
  // Equal points (none yet): seed 000's site gives the game to Gold.
  const Outcome g = clock_outcome({ClockMode::kGame, 60}, *s);
  EXPECT_TRUE(g.over);
  EXPECT_EQ(g.winner, game->points_tie_winner());
  EXPECT_EQ(game->side_name(g.winner), "gold");
  EXPECT_STREQ(g.reason, "time, points");
  const Outcome side = clock_outcome({ClockMode::kSide, 60}, *s);
  EXPECT_EQ(side.winner, 1 - s->to_move());
  EXPECT_STREQ(side.reason, "time");
}

// Plays the first legal move after `delay`, remembering the time left it was told.
class TimedPlayer : public Player {
 public:
  explicit TimedPlayer(double delay) : delay_(delay) {}
  std::string spec() const override { return "timed"; }
  void set_time_left(double s) override { told.push_back(s); }
  Action choose(const State& state) override {
    std::this_thread::sleep_for(std::chrono::duration<double>(delay_));
    std::vector<Action> legal;
    state.legal_actions(legal);
    return legal.front();
  }
  std::vector<double> told;

 private:
  double delay_;
};

TEST(Clock, PlayGameRunsTheGameClockWhileEitherSideThinks) {
  const GamePtr game = load_game("seize-reference");
  TimedPlayer slow(0.02), fast(0);
  const int first = game->initial_state()->to_move();
  Player* players[2];
  players[first] = &slow;
  players[1 - first] = &fast;
  const PlayedGame g =
      play_game(*game->initial_state(), players, 1000, {}, {ClockMode::kGame, 0.2});
  EXPECT_TRUE(g.on_time);
  EXPECT_STREQ(g.outcome.reason, "time, points");
  EXPECT_EQ(g.time_left[0], 0);
  // One clock: each is told what is left of it, less and less, whoever moves.
  ASSERT_GE(slow.told.size(), 3u);
  ASSERT_GE(fast.told.size(), 3u);
  EXPECT_DOUBLE_EQ(slow.told[0], 0.2);
  EXPECT_LT(fast.told[0], 0.2 - 0.015);
  EXPECT_LT(slow.told[1], fast.told[0]);
  // About ten slow moves fit (0.2 s of 0.02 s each), not a hundred.
  EXPECT_LT(g.actions.size(), 30u);
}

TEST(Clock, ASideWhoseClockRunsOutLoses) {
  const GamePtr game = load_game("seize-reference");
  TimedPlayer slow(0.02), fast(0);
  Player* players[2] = {&fast, &slow};
  const PlayedGame g =
      play_game(*game->initial_state(), players, 1000, {}, {ClockMode::kSide, 0.1});
  EXPECT_TRUE(g.on_time);
  EXPECT_STREQ(g.outcome.reason, "time");
  EXPECT_EQ(g.outcome.winner, 0);  // the fast side
  EXPECT_EQ(g.time_left[1], 0);
  EXPECT_GT(g.time_left[0], 0.05);
  EXPECT_EQ(slow.told[0], 0.1);
  for (double t : fast.told) EXPECT_GT(t, 0.05);
  // Without a clock nobody is told a time.
  TimedPlayer a(0), b(0);
  Player* untimed[2] = {&a, &b};
  play_game(*game->initial_state(), untimed, 4);
  for (double t : a.told) EXPECT_EQ(t, -1);
}

TEST(Clock, AlphaBetaOfUnboundedDepthMovesOnTheClock) {
  const GamePtr game = load_game("seize-reference");
  // Depth 60 would take ages per move; the clock (6 s per side) bounds each move instead.
  auto ab = make_player(game, "alphabeta:depth=60", 1);
  auto rnd = make_player(game, "random", 2);
  Player* players[2] = {ab.get(), rnd.get()};
  const auto t0 = std::chrono::steady_clock::now();
  const PlayedGame g = play_game(*game->initial_state(), players, 16, {}, {ClockMode::kSide, 6});
  const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_FALSE(g.on_time) << "alpha-beta ran out of time";
  EXPECT_GT(g.time_left[0], 0);
  EXPECT_LT(took, 6);
}

TEST(Clock, AlphaBetaPlaysForPointsWithLittleTimeLeft) {
  const GamePtr game = load_game("seize-reference");
  auto ab = make_player(game, "alphabeta:depth=4", 1);
  auto rnd = make_player(game, "random", 2);
  Player* players[2] = {ab.get(), rnd.get()};
  int checked = 0;
  // 10 s on the game clock: under the 15 s of TimeControl::panic_s from the start.
  play_game(*game->initial_state(), players, 40,
            [&](const State& before, Action a, int player) {
              if (player != 0) return;
              EXPECT_EQ(a, points_move(before));
              ++checked;
            },
            {ClockMode::kGame, 10});
  EXPECT_GT(checked, 5);
}

}  // namespace
}  // namespace pincer
