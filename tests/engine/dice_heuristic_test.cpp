// The dice evaluation: material by face with the decay cycle, a King the mover can take, the
// mover's King under attack, mobility; capture values for ordering and the greedy player.
#include "engine/dice/dice_heuristic.h"

#include <gtest/gtest.h>

#include "engine/heuristic.h"
#include "tests/support/dice_fixtures.h"

namespace pincer::dice {
namespace {

int eval(const Game& g, const std::string& text) {
  return g.heuristic()->evaluate(*g.parse_state(text));
}

TEST(DiceHeuristic, FaceValuesFollowTheDecayCycle) {
  // A pawn showing 1 becomes a queen when it moves: worth more than a pawn showing 2; a queen
  // (6, next a rook) more than a rook (5, next a bishop), and so on down.
  EXPECT_GT(die_value(1), die_value(2));
  EXPECT_GT(die_value(6), die_value(5));
  EXPECT_GT(die_value(5), die_value(4));
  EXPECT_GT(die_value(4), die_value(3));
  EXPECT_GT(die_value(3), die_value(2));
}

TEST(DiceHeuristic, MaterialAndMirrorSymmetry) {
  const GamePtr g = load_game("dice-7x7");
  // White a rook up.
  EXPECT_GT(eval(*g, "3k3/7/7/7/7/7/E2K3 w 0 0 0-0"), 300);
  EXPECT_LT(eval(*g, "3k3/7/7/7/7/7/E2K3 b 0 0 0-0"), -300);
  // The same position seen from the other side scores the same for the mover.
  EXPECT_EQ(eval(*g, "bafkedc/bbbbbbb/7/7/7/BBBBBBB/CEDKFAB w 0 0 0-0"),
            eval(*g, "cedkfab/bbbbbbb/7/7/7/BBBBBBB/BAFKEDC b 0 0 0-0"));
}

TEST(DiceHeuristic, KingInReach) {
  const GamePtr g = load_game("dice-7x7");
  // The mover can take the King: decisive.
  EXPECT_GT(eval(*g, "3k3/7/3E3/7/7/7/K6 w 0 0 0-0"), 10000);
  // The mover's King is attacked by a rook: worse than the same position without the threat.
  EXPECT_LT(eval(*g, "3k3/7/7/7/7/7/3K2e w 0 0 0-0"), eval(*g, "3k3/7/7/7/7/6e/3K3 w 0 0 0-0"));
  EXPECT_LT(eval(*g, "3k3/3e3/7/7/7/7/3K3 w 0 0 0-0"), eval(*g, "3k3/4e2/7/7/7/7/3K3 w 0 0 0-0"));
}

TEST(DiceHeuristic, CaptureValuesPutTheKingFirst) {
  const GamePtr g = load_game("dice-7x7");
  const auto s = g->parse_state("3k3/7/3F1e1/7/7/7/K6 w 0 0 0-0");
  std::vector<Action> actions;
  s->legal_actions(actions);
  std::vector<int> values;
  g->heuristic()->capture_points(*s, actions, values);
  int king = -1, rook = -1, quiet = 0;
  for (size_t i = 0; i < actions.size(); ++i) {
    const std::string t = g->action_text(*s, actions[i], false);
    if (t == "d5-d7") king = values[i];
    if (t == "d5-f5") rook = values[i];
    if (t == "d5-d4") quiet = values[i];
  }
  EXPECT_GT(king, rook);
  EXPECT_GT(rook, 0);
  EXPECT_EQ(quiet, 0);
}

}  // namespace
}  // namespace pincer::dice
