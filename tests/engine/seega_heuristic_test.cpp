// The Seega heuristic for the classical players: capture values agree with what the moves
// capture, the evaluation sees material and threats, and it does not depend on the board's turn.
#include "engine/seega/seega_heuristic.h"

#include <gtest/gtest.h>

#include "engine/heuristic.h"
#include "tests/support/random_games.h"
#include "tests/support/seega_fixtures.h"

namespace pincer::seega {
namespace {

using testing::position_of;

TEST(SeegaHeuristic, CapturePointsAreThePiecesEachMoveTakes) {
  const GamePtr game = load_game("seega-5x5");
  ASSERT_NE(game->heuristic(), nullptr);
  int captures = 0;
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    pincer::testing::play_random_game(
        *game->initial_state(), seed, 3000, [&](const State& s, Action) {
          std::vector<Action> actions;
          s.legal_actions(actions);
          std::vector<int> points;
          game->heuristic()->capture_points(s, actions, points);
          ASSERT_EQ(points.size(), actions.size());
          for (size_t i = 0; i < actions.size(); ++i) {
            auto child = s.clone();
            child->apply(actions[i]);
            EXPECT_EQ(points[i], static_cast<int>(child->last_captured().size())) << s.to_text();
            captures += points[i] > 0;
          }
        });
  }
  EXPECT_GT(captures, 100);
  // The double capture is worth two.
  const auto s = game->parse_state("2D2/2L2/DL1L1/2D2/5 0-0 move dark 0 30");
  std::vector<int> points;
  game->heuristic()->capture_points(*s, {game->parse_action(*s, "c2-c3")}, points);
  EXPECT_EQ(points, std::vector<int>{2});
}

TEST(SeegaHeuristic, MaterialAndThreats) {
  const GamePtr game = load_game("seega-5x5");
  const Heuristic& h = *game->heuristic();
  // Dark three pieces to light's one: good for dark, bad for light.
  EXPECT_GT(h.evaluate(*game->parse_state("4L/5/1D1D1/3D1/5 0-0 move dark 0 40")), 150);
  EXPECT_LT(h.evaluate(*game->parse_state("4L/5/1D1D1/3D1/5 0-0 move light 0 40")), -150);
  // Light's c3 can be taken by d2-d3 next move: worse for light than with dark's d2 on e1.
  const int threatened = h.evaluate(*game->parse_state("4L/L4/1DL2/3D1/5 0-0 move light 0 40"));
  const int safe = h.evaluate(*game->parse_state("4L/L4/1DL2/5/4D 0-0 move light 0 40"));
  EXPECT_LT(threatened, safe);
}

TEST(SeegaHeuristic, SameValueUnderEveryBoardSymmetry) {
  const GamePtr g = load_game("seega-7x7");
  const auto& game = static_cast<const SeegaGame&>(*g);
  int checked = 0;
  for (uint64_t seed = 1; seed <= 4; ++seed) {
    pincer::testing::play_random_game(
        *game.initial_state(), seed, 2000, [&](const State& s, Action) {
          if (s.outcome().over || s.hash() % 5) return;
          const Position& p = position_of(s);
          for (int sym = 1; sym < 8; ++sym) {
            Position q = Position::empty(game.rules());
            for (int sq = 0; sq < game.rules().num_squares; ++sq)
              if (p.owner(sq) >= 0) q.put(game.map_square(sym, sq), p.owner(sq));
            q.set_hands(p.hand(0), p.hand(1));
            q.set_turn(p.turn());
            q.set_counters(p.halfmove(), p.ply());
            q.finish();
            EXPECT_EQ(evaluate(q), evaluate(p)) << s.to_text() << " sym " << sym;
            ++checked;
          }
        });
  }
  EXPECT_GT(checked, 100);
}

}  // namespace
}  // namespace pincer::seega
