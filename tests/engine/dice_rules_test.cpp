// Every rule of issue 10 / seed 004 on hand-made positions: each face, blocking, captures, the
// pawn wall both ways, the knight's jump, decay (1->6, the King never), promotion on and off,
// the knight landing on the farthest rank, each ending, each board size's setup.
#include <gtest/gtest.h>

#include "engine/dice/notation.h"
#include "tests/support/dice_fixtures.h"
#include "tests/support/errors.h"

namespace pincer::dice {
namespace {

using testing::after;
using testing::targets;
using testing::variant;
using V = std::vector<std::string>;

std::unique_ptr<State> pos(const Game& g, const std::string& text) { return g.parse_state(text); }

TEST(DiceRules, StartOfEachBoardSize) {
  const GamePtr g7 = load_game("dice-7x7");
  EXPECT_EQ(g7->setup_state("354K612/216K543")->to_text(),
            "bafkedc/bbbbbbb/7/7/7/BBBBBBB/CEDKFAB w 0 0 0-0");
  const GamePtr g6 = load_game("dice-6x6");
  EXPECT_EQ(g6->setup_state("35K612/21K543 b")->to_text(),
            "bakedc/bbbbbb/6/6/BBBBBB/CEKFAB b 0 0 0-0");
  const GamePtr g8 = load_game("dice-8x8");
  EXPECT_EQ(g8->setup_state("354K6123/216K5434")->to_text(),
            "bafkedcd/bbbbbbbb/8/8/8/8/BBBBBBBB/CEDKFABC w 0 0 0-0");
  // 2N dice a side; each drawn setup rolls every back-row die 1-6 and keeps the King's file.
  for (uint64_t seed = 0; seed < 50; ++seed) {
    const std::string setup = g7->draw_setup(seed);
    ASSERT_EQ(setup.size(), 15u) << setup;
    EXPECT_EQ(setup[3], 'K');
    EXPECT_EQ(setup[11], 'K');
    EXPECT_EQ(g7->start_state(seed)->to_text(), g7->setup_state(setup)->to_text());
  }
  EXPECT_NE(g7->draw_setup(1), g7->draw_setup(2));
  EXPECT_EQ(g7->draw_setup(7), g7->draw_setup(7));
  EXPECT_TRUE(g7->random_start());
}

TEST(DiceRules, PawnMovesOneSquareStraightForwardOnly) {
  const GamePtr g = load_game("dice-7x7");
  // White pawn d3 (face 2) with enemies on the diagonals: no diagonal capture.
  auto s = pos(*g, "3k3/7/7/2c1c2/3B3/7/3K3 w 0 0 0-0");
  EXPECT_EQ(targets(*s, "d3"), V{"d4"});
  // Black pawn (face 1) moves down.
  s = pos(*g, "3k3/7/3a3/7/7/7/K6 b 0 0 0-0");
  EXPECT_EQ(targets(*s, "d5"), V{"d4"});
  // A pawn takes the non-pawn ahead of it, the King too, but never its own die.
  s = pos(*g, "3k3/7/7/3e3/3B3/7/K6 w 0 0 0-0");
  EXPECT_EQ(targets(*s, "d3"), V{"d4"});
  s = pos(*g, "7/7/7/3k3/3B3/7/K6 w 0 0 0-0");
  EXPECT_EQ(targets(*s, "d3"), V{"d4"});
  s = pos(*g, "3k3/7/7/3C3/3B3/7/K6 w 0 0 0-0");
  EXPECT_EQ(targets(*s, "d3"), V{});
  // On its farthest rank a pawn has no move.
  s = pos(*g, "A2k3/7/7/7/7/7/K6 w 0 0 0-0");
  EXPECT_EQ(targets(*s, "a7"), V{});
}

TEST(DiceRules, PawnWallBlocksBothWays) {
  const GamePtr g = load_game("dice-7x7");
  auto s = pos(*g, "3k3/7/7/3b3/3A3/7/K6 w 0 0 0-0");
  EXPECT_EQ(targets(*s, "d3"), V{});
  s = pos(*g, "3k3/7/7/3b3/3A3/7/K6 b 0 0 0-0");
  EXPECT_EQ(targets(*s, "d4"), V{});
  // Without the wall (a ruleset switch), facing pawns take each other.
  const auto open =
      variant("dice-7x7", [](DiceRules& r) { r.mutable_moves()->set_pawn_wall(false); });
  s = open->parse_state("3k3/7/7/3b3/3A3/7/K6 w 0 0 0-0");
  EXPECT_EQ(targets(*s, "d3"), V{"d4"});
  s = open->parse_state("3k3/7/7/3b3/3A3/7/K6 b 0 0 0-0");
  EXPECT_EQ(targets(*s, "d4"), V{"d3"});
}

TEST(DiceRules, KnightJumps) {
  const GamePtr g = load_game("dice-7x7");
  // Knight d4 boxed in by dice on every neighbour: it jumps to all 8 L-squares except its own die.
  auto s = pos(*g, "3k3/7/2bbb1A/2BCB2/2bbb2/4E2/K6 w 0 0 0-0");
  EXPECT_EQ(targets(*s, "d4"), (V{"b3", "b5", "c2", "c6", "e6", "f3", "f5"}));
  // In a corner: two squares.
  s = pos(*g, "3k3/7/7/7/7/7/C2K3 w 0 0 0-0");
  EXPECT_EQ(targets(*s, "a1"), (V{"b3", "c2"}));
}

TEST(DiceRules, SlidersStopAtTheFirstDieAndMayTakeAnEnemy) {
  const GamePtr g = load_game("dice-7x7");
  // Bishop d4: own die f6 (stops before), enemy b2 (takes), open to the others' edges.
  auto s = pos(*g, "3k3/5A1/7/3D3/7/1b5/6K w 0 0 0-0");
  EXPECT_EQ(targets(*s, "d4"), (V{"a7", "b2", "b6", "c3", "c5", "e3", "e5", "f2"}));  // not g1 (K)
  s = pos(*g, "3k3/5A1/7/3D3/7/1b5/K6 w 0 0 0-0");
  EXPECT_EQ(targets(*s, "d4"), (V{"a7", "b2", "b6", "c3", "c5", "e3", "e5", "f2", "g1"}));
  // Rook d4: enemy d5 ends the file upwards (taken), own d2 downwards, enemy b4 sideways.
  s = pos(*g, "k6/7/3c3/Ab1E3/7/3A3/6K w 0 0 0-0");
  EXPECT_EQ(targets(*s, "d4"), (V{"b4", "c4", "d3", "d5", "e4", "f4", "g4"}));
  // Queen = rook + bishop.
  s = pos(*g, "k6/7/7/3F3/7/7/6K w 0 0 0-0");
  EXPECT_EQ(targets(*s, "d4").size(), 23u);  // 12 on lines, 11 on diagonals (not g1)
  // King: one square any way, never onto its own die.
  s = pos(*g, "k6/7/7/3KA2/7/7/7 w 0 0 0-0");
  EXPECT_EQ(targets(*s, "d4"), (V{"c3", "c4", "c5", "d3", "d5", "e3", "e5"}));
}

TEST(DiceRules, DecayAfterEveryMoveAndTheKingNever) {
  const GamePtr g = load_game("dice-7x7");
  auto s = pos(*g, "k6/7/7/7/1A1F3/C6/6K w 0 0 0-0");
  EXPECT_EQ(after(*s, "b3-b4")->to_text(), "k6/7/7/1F5/3F3/C6/6K b 1 1 0-0");   // 1 -> 6
  EXPECT_EQ(after(*s, "d3-d7")->to_text(), "k2E3/7/7/7/1A5/C6/6K b 1 1 0-0");   // 6 -> 5
  EXPECT_EQ(after(*s, "a2-b4")->to_text(), "k6/7/7/1B5/1A1F3/7/6K b 1 1 0-0");  // 3 -> 2
  EXPECT_EQ(after(*s, "g1-g2")->to_text(), "k6/7/7/7/1A1F3/C5K/7 b 1 1 0-0");   // K stays K
  // Capturing resets the capture-free count; the die still decays.
  s = pos(*g, "k6/7/7/3e3/7/7/3E2K w 6 4 0-0");
  EXPECT_EQ(after(*s, "d1-d4")->to_text(), "k6/7/7/3D3/7/7/6K b 7 0 0-0");
}

TEST(DiceRules, PromotionOnAndOff) {
  const GamePtr off = load_game("dice-7x7");
  const GamePtr on = load_game("dice-7x7-promotion");
  const std::string text = "k6/3B3/1C5/7/7/7/6K w 0 0 0-0";
  EXPECT_EQ(after(*off->parse_state(text), "d6-d7")->to_text(), "k2A3/7/1C5/7/7/7/6K b 1 1 0-0");
  EXPECT_EQ(after(*on->parse_state(text), "d6-d7")->to_text(), "k2F3/7/1C5/7/7/7/6K b 1 1 0-0");
  // A knight landing on the farthest rank just decays (to 2, a pawn with no move).
  const auto knight = after(*on->parse_state(text), "b5-c7");
  EXPECT_EQ(knight->to_text(), "k1B4/3B3/7/7/7/7/6K b 1 1 0-0");
  // Black promotes on rank 1.
  EXPECT_EQ(after(*on->parse_state("k6/7/7/7/7/3a3/6K b 0 0 0-0"), "d2-d1")->to_text(),
            "k6/7/7/7/7/7/3f2K w 1 1 0-0");
}

TEST(DiceRules, TakingTheKingWins) {
  const GamePtr g = load_game("dice-7x7");
  auto s = after(*pos(*g, "3k3/7/3E3/7/7/7/K6 w 0 0 0-0"), "d5-d7");
  EXPECT_TRUE(s->outcome().over);
  EXPECT_EQ(s->outcome().winner, 0);
  EXPECT_STREQ(s->outcome().reason, "king");
  EXPECT_EQ(s->last_captured(), V{"d7"});
  // Any die may take the King, a pawn too; there is no check.
  s = after(*pos(*g, "7/7/7/7/3k3/3B3/K6 w 0 0 0-0"), "d2-d3");
  EXPECT_STREQ(s->outcome().reason, "king");
}

TEST(DiceRules, ScoredPlayCountsPointsAndGoesOnAfterTheKing) {
  const GamePtr g = load_game("dice-7x7-scored");
  auto s = after(*pos(*g, "3k3/1b5/3E3/7/7/7/K6 w 0 0 0-0"), "d5-d7");
  EXPECT_FALSE(s->outcome().over);
  EXPECT_EQ(s->points(), (std::array<int, 2>{5, 0}));
  EXPECT_EQ(s->to_text(), "3D3/1b5/7/7/7/7/K6 b 1 0 5-0");
  // A side left without dice has no move and loses.
  s = after(*pos(*g, "3k3/7/3E3/7/7/7/K6 w 0 0 0-0"), "d5-d7");
  EXPECT_STREQ(s->outcome().reason, "no-moves");
  // 9 points and a die to take: 10 wins by points.
  s = after(*pos(*g, "3k3/7/3E3/3b3/7/7/K6 w 0 0 9-3"), "d5-d4");
  EXPECT_TRUE(s->outcome().over);
  EXPECT_EQ(s->outcome().winner, 0);
  EXPECT_STREQ(s->outcome().reason, "points");
}

TEST(DiceRules, TimedPlayCountsDiceAfterFiftyPlies) {
  const GamePtr g = load_game("dice-7x7-timed");
  auto s = after(*pos(*g, "3k3/2bbb2/7/7/7/7/K5E w 49 3 0-0"), "g1-g2");
  EXPECT_STREQ(s->outcome().reason, "timed");
  EXPECT_EQ(s->outcome().winner, 1);  // four black dice to two white
  s = after(*pos(*g, "3kb2/7/7/7/7/7/K5E w 49 3 0-0"), "g1-g2");
  EXPECT_STREQ(s->outcome().reason, "timed");
  EXPECT_TRUE(s->outcome().is_draw());
  // The King still wins at once in timed play.
  s = after(*pos(*g, "3k3/7/7/7/7/7/K2E3 w 49 3 0-0"), "d1-d7");
  EXPECT_STREQ(s->outcome().reason, "king");
}

TEST(DiceRules, NoMovesLoses) {
  const GamePtr g = load_game("dice-7x7");
  // Black's King boxed in by its own pawns facing white pawns, after white's move: black has none.
  auto s = after(*pos(*g, "kb5/ab5/AB5/7/7/7/6K w 0 0 0-0"), "g1-g2");
  EXPECT_STREQ(s->outcome().reason, "no-moves");
  EXPECT_EQ(s->outcome().winner, 0);
  const auto draw =
      variant("dice-7x7", [](DiceRules& r) { r.mutable_end()->set_no_moves(DiceRules::DRAW); });
  s = after(*draw->parse_state("kb5/ab5/AB5/7/7/7/6K w 0 0 0-0"), "g1-g2");
  EXPECT_STREQ(s->outcome().reason, "no-moves");
  EXPECT_TRUE(s->outcome().is_draw());
}

TEST(DiceRules, HundredCaptureFreePliesDraw) {
  const GamePtr g = load_game("dice-7x7");
  auto s = after(*pos(*g, "k6/7/7/7/7/7/6K w 120 99 0-0"), "g1-g2");
  EXPECT_STREQ(s->outcome().reason, "limit");
  EXPECT_TRUE(s->outcome().is_draw());
  s = after(*pos(*g, "k6/7/7/7/7/7/6K w 120 98 0-0"), "g1-g2");
  EXPECT_FALSE(s->outcome().over);
}

// The variant files are a few lines over their base: the merged rules and the base's notes.
TEST(DiceRules, VariantFilesMergeOverTheirBase) {
  const GamePtr v = load_game("dice-8x8-promotion-scored");
  const auto& rules = static_cast<const DiceRuleset&>(v->ruleset()).rules();
  EXPECT_EQ(rules.board().size(), 8);
  EXPECT_EQ(rules.setup().king_file(), "d");
  EXPECT_TRUE(rules.moves().promotion());
  EXPECT_EQ(rules.scoring().target(), 10);
  EXPECT_EQ(rules.end().capture_free_plies(), 100);
  EXPECT_NE(v->fingerprint(), load_game("dice-8x8")->fingerprint());
  EXPECT_EQ(static_cast<const DiceRuleset&>(v->ruleset()).notes_size(),
            static_cast<const DiceRuleset&>(load_game("dice-7x7")->ruleset()).notes_size());
}

TEST(DiceRules, BadRulesAreRefusedNamingTheField) {
  using pincer::testing::error_of;
  EXPECT_NE(error_of([] {
              variant("dice-7x7", [](DiceRules& r) { r.mutable_board()->set_size(9); });
            }).find("rules.board.size"),
            std::string::npos);
  EXPECT_NE(error_of([] {
              variant("dice-7x7", [](DiceRules& r) { r.mutable_setup()->set_king_file("h"); });
            }).find("rules.setup.king_file"),
            std::string::npos);
  EXPECT_NE(error_of([] {
              variant("dice-7x7", [](DiceRules& r) { r.mutable_end()->set_capture_free_plies(0); });
            }).find("rules.end.capture_free_plies"),
            std::string::npos);
}

}  // namespace
}  // namespace pincer::dice
