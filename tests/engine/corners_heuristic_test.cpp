// The corners heuristic for the classical players: capture points are net (what a move takes
// minus what it costs the mover), the evaluation sees material, advance and crossings, and it is
// the same for a position and its mirror image.
#include "engine/corners/corners_heuristic.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "engine/corners/corners_game.h"
#include "engine/corners/notation.h"
#include "engine/registry.h"
#include "tests/support/corners_fixtures.h"
#include "tests/support/random_games.h"

namespace pincer::corners {
namespace {

using testing::corners_position;

int reserve_of(const State& s, int player) {
  return static_cast<const CornersState&>(s).position().reserve(player);
}

TEST(CornersHeuristic, CapturePointsAreNetOfTheMoversLosses) {
  const GamePtr game = load_game("corners");
  const Heuristic& h = *game->heuristic();
  int gains = 0, losses = 0;
  for (uint64_t seed = 1; seed <= 10; ++seed) {
    pincer::testing::play_random_game(
        *game->initial_state(), seed, 400, [&](const State& s, Action) {
          if (s.outcome().over) return;
          std::vector<Action> actions;
          s.legal_actions(actions);
          std::vector<int> points;
          h.capture_points(s, actions, points);
          ASSERT_EQ(points.size(), actions.size());
          const int them = s.to_move() ^ 1;
          for (size_t i = 0; i < actions.size(); ++i) {
            auto child = s.clone();
            child->apply(actions[i]);
            // The other side's reserve grows by exactly its pieces captured.
            const int theirs = reserve_of(*child, them) - reserve_of(s, them);
            const int all = static_cast<int>(child->last_captured().size());
            EXPECT_EQ(points[i], theirs - (all - theirs)) << s.to_text();
            gains += points[i] > 0;
            losses += points[i] < 0;
          }
        });
  }
  EXPECT_GT(gains, 100);
  EXPECT_GT(losses, 100);
}

TEST(CornersHeuristic, MaterialAdvanceAndCrossings) {
  const GamePtr game = load_game("corners");
  const Heuristic& h = *game->heuristic();
  auto eval = [&](const std::string& text) { return h.evaluate(*game->parse_state(text)); };
  // A piece more is good for its side, whoever moves.
  EXPECT_GT(eval(corners_position("a2 b2", "h7", "", "")), 60);
  EXPECT_LT(eval(corners_position("a2 b2", "h7", "", "", "b")), -60);
  // The same piece further up is worth more.
  EXPECT_GT(eval(corners_position("a5", "h7", "", "")), eval(corners_position("a3", "h7", "", "")));
  // The mover about to cross is nearly won; the other side about to cross is a danger.
  EXPECT_GT(eval(corners_position("c7", "h7", "", "")), 2000);
  EXPECT_LT(eval(corners_position("c2", "h2", "", "")), -300);
  // A point piece on the last row with a reserve crosses by a divide.
  const Position p = parse_text(static_cast<const CornersGame&>(*game).rules(),
                                corners_position("a1", "h7", "c7'", "", "w", 1));
  EXPECT_EQ(crossings(p, kWhite), bit(2 + 56) | bit(3 + 56));
}

TEST(CornersHeuristic, SameValueForTheMirrorImage) {
  const GamePtr game = load_game("corners");
  const Heuristic& h = *game->heuristic();
  int checked = 0;
  for (uint64_t seed = 1; seed <= 4; ++seed) {
    pincer::testing::play_random_game(
        *game->initial_state(), seed, 400, [&](const State& s, Action) {
          if (s.outcome().over || s.hash() % 3) return;
          const std::string text = s.to_text();
          std::string sq = text.substr(0, 71), pt = text.substr(72, 55), rest = text.substr(128);
          for (size_t i = 0; i < sq.size(); i += 9)
            std::reverse(sq.begin() + i, sq.begin() + i + 8);
          for (size_t i = 0; i < pt.size(); i += 8)
            std::reverse(pt.begin() + i, pt.begin() + i + 7);
          EXPECT_EQ(h.evaluate(*game->parse_state(sq + " " + pt + " " + rest)), h.evaluate(s))
              << text;
          ++checked;
        });
  }
  EXPECT_GT(checked, 100);
}

}  // namespace
}  // namespace pincer::corners
