// Every worked example of seed 000 (reference rules) and the rules of seed 001 (v0), each in a
// position set up to match the text.
#include <gtest/gtest.h>

#include <sstream>

#include "engine/registry.h"
#include "engine/seize/notation.h"
#include "engine/seize/seize_game.h"

namespace pincer::seize {
namespace {

class SeizeRulesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    reference_ = load_game("seize-reference");
    v0_ = load_game("seize-v0");
  }
  const Rules& ref() const { return static_cast<const SeizeGame&>(*reference_).rules(); }
  const Rules& v0() const { return static_cast<const SeizeGame&>(*v0_).rules(); }

  // "B@d4 g+@h6 ...": uppercase = bottom side, lowercase = top; B boss, G guard; an optional
  // +, x or * after the letter is the piece's power. All tokens are on their squares.
  static Position setup(const Rules& r, int to_move, const std::string& pieces) {
    Position p = Position::empty(r, to_move);
    std::istringstream in(pieces);
    for (std::string t; in >> t;) {
      const size_t at = t.find('@');
      const char letter = t[0];
      const char suffix = at > 1 ? t[1] : ' ';
      const Power power = suffix == '+'   ? kPlus
                          : suffix == 'x' ? kCross
                          : suffix == '*' ? kCrown
                                          : kNoPower;
      const int sq = parse_square(t.substr(at + 1));
      EXPECT_GE(sq, 0) << t;
      p.put(sq, std::isupper(static_cast<unsigned char>(letter)) ? kBottom : kTop,
            letter == 'B' || letter == 'b', power);
    }
    p.set_tokens(r.marked_squares());
    validate(p);
    return p;
  }
  static bool legal(const Position& p, const std::string& move) {
    try {
      parse_move(p, move);
      return true;
    } catch (const GameError&) {
      return false;
    }
  }
  static Position after(Position p, const std::string& move) {
    p.apply(parse_move(p, move));
    return p;
  }
  static std::string captured(const Position& p) {
    std::string out;
    for (Bitboard b = p.last_captured(); b;)
      out += (out.empty() ? "" : " ") + square_name(pop_lsb(b));
    return out;
  }
  static int sq(const char* name) { return parse_square(name); }

  GamePtr reference_, v0_;
};

// "Guard c6 to b7." A guard steps one square in any of the eight directions.
TEST_F(SeizeRulesTest, GuardStepsInEightDirections) {
  const Position start = Position::start(ref());
  EXPECT_EQ(start.to_move(), kTop) << "Red moves first";
  EXPECT_TRUE(legal(start, "c6-b7"));
  const Position p = after(start, "c6-b7");
  EXPECT_EQ(p.owner(sq("b7")), kTop);
  EXPECT_EQ(p.owner(sq("c6")), -1);
  EXPECT_EQ(popcount(start.targets(sq("c6"))), 5);  // b5 b6 b7 c7 d7
  EXPECT_FALSE(legal(start, "c6-c8")) << "no two-square guard move";
}

// "The boss on e5 slides two squares to g7." One or two squares, no jumping.
TEST_F(SeizeRulesTest, BossMovesOneOrTwoWithoutJumping) {
  const std::string base = "b@e5 b@d5 g@c6 g@c5 B@d4 B@e4 G@c3 G@f3";
  const Position p = setup(ref(), kTop, base);
  EXPECT_TRUE(legal(p, "e5-g7"));
  EXPECT_TRUE(legal(p, "e5-f6"));
  EXPECT_TRUE(legal(p, "e5-e7"));
  EXPECT_FALSE(legal(p, "e5-e8")) << "three squares";
  const Position blocked = setup(ref(), kTop, base + " g@f6");
  EXPECT_FALSE(legal(blocked, "e5-g7")) << "the first square must be free";
  EXPECT_FALSE(legal(blocked, "e5-f6")) << "a move lands on an empty square";
}

// "Red slides one square down the file to h5: a plus cap moves along ranks and files only."
TEST_F(SeizeRulesTest, PlusCapSlidesAlongRanksAndFilesOnly) {
  const Position p = setup(ref(), kTop, "g+@h6 b@d5 b@e5 g@c6 B@d4 B@e4 G@c3 G@f3");
  EXPECT_TRUE(legal(p, "h6-h5"));
  EXPECT_TRUE(legal(p, "h6-h2")) << "any distance";
  EXPECT_TRUE(legal(p, "h6-d6")) << "along the rank";
  EXPECT_FALSE(legal(p, "h6-b6")) << "blocked by the guard on c6";
  EXPECT_FALSE(legal(p, "h6-g5")) << "the plus cap has no diagonal step";
  EXPECT_FALSE(legal(p, "h6-g7"));
  // Landing on a + square gives the cap; landing on the other kind swaps it.
  const Position q = after(setup(ref(), kTop, "g@g7 b@d5 b@e5 g@c6 B@d4 B@e4 G@c3 G@f3"), "g7-h6");
  EXPECT_EQ(q.power_at(sq("h6")), kPlus);
  const Position r = after(setup(ref(), kTop, "g+@h6 b@d5 b@e5 g@c6 B@d4 B@e4 G@c3 G@f3"), "h6-h3");
  EXPECT_EQ(r.power_at(sq("h3")), kCross);
  EXPECT_FALSE(legal(after(r, "c3-b3"), "h3-h2")) << "the x cap has no straight step";
}

// "Gold guard c4 lands on the centre square d4 and takes the boss cap."
TEST_F(SeizeRulesTest, CrownGivesTheBossCap) {
  const Position p = setup(ref(), kBottom, "G@c4 B@b2 B@g2 G@c3 b@b7 b@g7 g@c7 g@f7");
  const Position q = after(p, "c4-d4");
  EXPECT_EQ(q.power_at(sq("d4")), kCrown);
  EXPECT_FALSE(q.is_boss(sq("d4"))) << "it stays a guard";
  const Position r = after(q, "c7-c6");
  EXPECT_TRUE(legal(r, "d4-d6")) << "moves one or two squares like a boss";
  EXPECT_FALSE(legal(r, "d4-d7"));
  // A + square replaces the boss cap.
  const Position s =
      after(setup(ref(), kBottom, "G*@b3 B@d4 B@e4 G@c3 b@b7 b@g7 g@c7 g@f7"), "b3-a3");
  EXPECT_EQ(s.power_at(sq("a3")), kPlus);
  // Bosses never take caps.
  const Position t = after(setup(ref(), kBottom, "B@b3 B@d4 G@c3 b@b7 b@g7 g@c7 g@f7"), "b3-a3");
  EXPECT_EQ(t.power_at(sq("a3")), kNoPower);
}

// "Gold boss e4 to d5: the red boss on d4 is sandwiched between d3 and d5 and is captured."
TEST_F(SeizeRulesTest, SandwichCapturesFromTheMovedPiece) {
  const Position p = setup(ref(), kBottom, "B@e4 B@b2 G@d3 G@g2 b@d4 b@g7 g@b7 g@c7");
  const Position q = after(p, "e4-d5");
  EXPECT_EQ(captured(q), "d4");
  EXPECT_EQ(q.owner(sq("d4")), -1);
  EXPECT_EQ(q.points(kBottom), 3) << "a boss is worth 3";
}

// "Red walks into b4 between two gold guards. Nothing happens."
TEST_F(SeizeRulesTest, SafeEntry) {
  const Position p = setup(ref(), kTop, "g@c5 b@d6 b@e6 g@f6 G@a4 G@c4 B@d3 B@e3");
  const Position q = after(p, "c5-b4");
  EXPECT_EQ(captured(q), "");
  EXPECT_EQ(q.owner(sq("b4")), kTop);
}

// "The gold boss moves two squares from e4 to e6: the red boss on d5 and the guard on f5 are
// both sandwiched. Two captures."
TEST_F(SeizeRulesTest, DoubleStrike) {
  const Position p = setup(ref(), kBottom, "B@e4 B@b2 G@c4 G@g4 b@d5 g@f5 b@b7 g@g7 g@c7");
  const Position q = after(p, "e4-e6");
  EXPECT_EQ(captured(q), "d5 f5");
  EXPECT_EQ(q.points(kBottom), 4);
}

// "The red guard on a4 is captured": boxed in by gold on every side, edges as walls.
TEST_F(SeizeRulesTest, PinCapturesABoxedGuard) {
  const std::string gold = "G@a3 G@b3 G@b4 G@a5 G@c6 B@d2 B@e2";
  const std::string red = " g@a4 b@g7 b@f7 g@h5";
  const Position q = after(setup(ref(), kBottom, gold + red), "c6-b5");
  EXPECT_EQ(captured(q), "a4");
  EXPECT_EQ(q.points(kBottom), 1);
  // Own pieces never trap: with a red piece among the neighbours the guard stays.
  const Position own =
      after(setup(ref(), kBottom, "G@a3 g@b3 G@b4 G@a5 G@c6 B@d2 B@e2" + red), "c6-b5");
  EXPECT_EQ(captured(own), "");
  // Original bosses are never pinned.
  const Position boss = after(setup(ref(), kBottom, gold + " b@a4 b@g7 g@f7 g@h5"), "c6-b5");
  EXPECT_EQ(captured(boss), "");
  // A capped guard is pinned too, and scores 2.
  const Position capped = after(setup(ref(), kBottom, gold + " g+@a4 b@g7 b@f7 g@h5"), "c6-b5");
  EXPECT_EQ(captured(capped), "a4");
  EXPECT_EQ(capped.points(kBottom), 2);
  // The switch turns pins off (seize-v0 has none; a diagonal-free board here).
  const Position v = after(
      setup(v0(), kBottom, "G@a3 G@b3 G@b4 G@a5 G@b6 B@d2 B@e2 g@a4 b@g7 b@f7 g@h5"), "b6-b5");
  EXPECT_EQ(captured(v), "");
}

// "The guard on f6 steps onto e5: all four crowns are Gold's."
TEST_F(SeizeRulesTest, CrownsWin) {
  const Position q =
      after(setup(ref(), kBottom, "B@d4 B@e4 G@d5 G@f6 b@b7 b@g7 g@c7 g@h5"), "f6-e5");
  const Result r = q.result();
  EXPECT_EQ(r.reason, Reason::kCrowns);
  EXPECT_EQ(r.winner, kBottom);
}

// "Gold guard c5 to d6: both red bosses are sandwiched at once. Gold wins."
TEST_F(SeizeRulesTest, BossesWin) {
  const Position q =
      after(setup(ref(), kBottom, "G@c5 B@d4 G@f6 B@b2 b@d5 b@e6 g@b7 g@g7 g@h5 g@a6"), "c5-d6");
  EXPECT_EQ(captured(q), "d5 e6");
  const Result r = q.result();
  EXPECT_EQ(r.reason, Reason::kBosses);
  EXPECT_EQ(r.winner, kBottom);
}

// "The gold boss steps to d4 and sandwiches the guard on d5. Red has two left: Gold wins."
TEST_F(SeizeRulesTest, ForceWin) {
  const Position q = after(setup(ref(), kBottom, "B@e3 B@b2 G@d6 G@g2 g@d5 b@a6 b@h5"), "e3-d4");
  EXPECT_EQ(captured(q), "d5");
  const Result r = q.result();
  EXPECT_EQ(r.reason, Reason::kForce);
  EXPECT_EQ(r.winner, kBottom);
}

TEST_F(SeizeRulesTest, NoLegalMoveLoses) {
  const Position p = setup(ref(), kTop, "b@b8 b@a7 g@b7 G@c8 G@c7 G@c6 G@b6 G@a6 B@d4 B@e4");
  EXPECT_FALSE(p.has_legal_move());
  const Result r = p.result();
  EXPECT_EQ(r.reason, Reason::kStalemate);
  EXPECT_EQ(r.winner, kBottom);
}

TEST_F(SeizeRulesTest, PlyLimitGoesToPointsThenGold) {
  // 599 plies played; the next move reaches the limit.
  Position tie = parse_sfen(ref(), "8/2g5/8/1b1b4/1B1B4/8/2G5/8 r 599 2-2");
  tie = after(tie, "c7-c8");
  EXPECT_EQ(tie.result().reason, Reason::kLimit);
  EXPECT_EQ(tie.result().winner, kBottom) << "level points go to Gold";
  Position red = after(parse_sfen(ref(), "8/2g5/8/1b1b4/1B1B4/8/2G5/8 r 599 2-3"), "c7-c8");
  EXPECT_EQ(red.result().winner, kTop);
  EXPECT_FALSE(parse_sfen(ref(), "8/2g5/8/1b1b4/1B1B4/8/2G5/8 r 598 2-3").result().over());
}

// seize-v0: orthogonal guards, tokens that add powers and leave the board, orthogonal sandwich.
TEST_F(SeizeRulesTest, V0GuardsStepOrthogonally) {
  const Position start = Position::start(v0());
  EXPECT_EQ(start.to_move(), kBottom) << "Ivory moves first";
  EXPECT_TRUE(legal(start, "c3-c2"));
  EXPECT_TRUE(legal(start, "c3-b3"));
  EXPECT_FALSE(legal(start, "c3-b2"));
}

TEST_F(SeizeRulesTest, V0TokensAddPowersAndLeave) {
  Position p = after(after(Position::start(v0()), "c3-c2"), "c6-b6");
  p = after(p, "c2-c1");
  EXPECT_EQ(p.power_at(sq("c1")), kCross);
  EXPECT_FALSE(p.tokens() & bit(sq("c1"))) << "the token leaves the board";
  p = after(p, "b6-b7");
  EXPECT_TRUE(legal(p, "c1-b2")) << "x adds diagonal slides";
  EXPECT_TRUE(legal(p, "c1-c2")) << "the guard keeps its own step";
  EXPECT_TRUE(legal(p, "c1-d1"));
  EXPECT_FALSE(legal(p, "c1-c3")) << "no two-square straight move";
  // A powered piece takes nothing more and the token stays.
  const Position blocked =
      after(setup(v0(), kBottom, "Gx@e1 B@d4 B@e4 G@d3 b@d5 b@e5 g@d6 g@e6"), "e1-f1");
  EXPECT_EQ(blocked.power_at(sq("f1")), kCross);
  EXPECT_TRUE(blocked.tokens() & bit(sq("f1")));
  // Bosses take powers under v0.
  const Position boss =
      after(setup(v0(), kBottom, "B@c2 B@e4 G@d3 G@d2 b@d5 b@e5 g@d6 g@e6"), "c2-c1");
  EXPECT_EQ(boss.power_at(sq("c1")), kCross);
}

TEST_F(SeizeRulesTest, V0SandwichIsOrthogonalOnly) {
  // Diagonal line e4 - d5 - c6: captures under the reference rules, not under v0.
  const std::string pieces = "B@e3 B@b2 G@c6 G@g2 b@d5 b@g7 g@b7 g@h5";
  EXPECT_EQ(captured(after(setup(ref(), kBottom, pieces), "e3-e4")), "d5");
  EXPECT_EQ(captured(after(setup(v0(), kBottom, pieces), "e3-e4")), "");
  EXPECT_EQ(
      captured(after(setup(v0(), kBottom, "B@e3 B@b2 G@c5 G@g2 b@d5 b@g7 g@b7 g@h5"), "e3-e5")),
      "d5");
}

TEST_F(SeizeRulesTest, V0CaptureFreePliesDraw) {
  Position p = parse_sfen(v0(), "8/2g5/8/1b1b4/1B1B4/8/2G5/8 i - 599");
  p = after(p, "c2-c1");
  EXPECT_EQ(p.result().reason, Reason::kDraw);
  EXPECT_EQ(p.result().winner, -1);
}

}  // namespace
}  // namespace pincer::seize
