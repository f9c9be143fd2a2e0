// The net player under a clock (play/time_manager.h), as tests/play/clock_test.cpp checks
// alpha-beta: a search of unbounded visits moves on the clock and never runs out of it, it thinks
// less when less time is left, and with little time left in a game that counts points it plays
// for points. Over a stand-in network (uniform priors, an even value), so that only the clock
// stops its search.
#include <gtest/gtest.h>

#include <chrono>

#include "engine/registry.h"
#include "play/match.h"
#include "play/player.h"
#include "play/time_manager.h"
#include "train/net_player.h"

namespace pincer::testing {
namespace {

class EvenNet : public Evaluator {
 public:
  void evaluate(const std::vector<EvalRequest>& requests, std::vector<Evaluation>& out) override {
    out.resize(requests.size());
    for (size_t i = 0; i < requests.size(); ++i) {
      out[i].priors.assign(requests[i].legal->size(), 1.0f);
      out[i].wdl = {0.3f, 0.4f, 0.3f};
    }
  }
};

std::unique_ptr<Player> unbounded_net(const GamePtr& game) {
  NetPlayerOptions o;
  o.search.simulations = 100'000'000;  // only the clock ends a move
  o.search.reuse_tree = false;
  o.spec = "net:sims=100000000";
  return make_net_player(game, std::make_shared<EvenNet>(), o);
}

double seconds_to_choose(Player& p, const State& s, double time_left) {
  p.set_time_left(time_left);
  const auto t0 = std::chrono::steady_clock::now();
  p.choose(s);
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

TEST(NetClock, ThinksLessWithLessTimeLeft) {
  const GamePtr game = load_game("seega-5x5");  // counts no points: never plays for them
  auto net = unbounded_net(game);
  const auto start = game->initial_state();
  const TimeControl tc;
  const double plenty = 32, little = 4;  // move times about 1 s and 0.07 s
  const double long_move = seconds_to_choose(*net, *start, plenty);
  const double short_move = seconds_to_choose(*net, *start, little);
  const double slack = 0.25;  // one evaluator step past the limit, and a loaded machine
  EXPECT_LT(long_move, move_time(tc, plenty, 1) + slack);
  EXPECT_GT(long_move, 0.5 * move_time(tc, plenty, 0)) << long_move;  // it uses its time
  EXPECT_LT(short_move, move_time(tc, little, 1) + slack);
  EXPECT_LT(short_move, long_move / 2) << short_move << " s, then " << long_move << " s";
}

TEST(NetClock, UnboundedSearchMovesOnTheClockAndNeverRunsOut) {
  const GamePtr game = load_game("seega-5x5");
  auto net = unbounded_net(game);
  auto rnd = make_player(game, "random", 2);
  Player* players[2] = {net.get(), rnd.get()};
  const PlayedGame g = play_game(*game->initial_state(), players, 40, {}, {ClockMode::kSide, 3});
  EXPECT_FALSE(g.on_time) << "the net player ran out of time";
  EXPECT_GT(g.time_left[0], 0);
  EXPECT_GE(g.moves[0], 10);
  EXPECT_LT(g.think_seconds[0], 3);
}

TEST(NetClock, PlaysForPointsWithLittleTimeLeft) {
  const GamePtr game = load_game("seize-reference");
  auto net = unbounded_net(game);
  auto rnd = make_player(game, "random", 2);
  Player* players[2] = {net.get(), rnd.get()};
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
}  // namespace pincer::testing
