// Every rule of the corners game (seed 003, as issue 9 reads it) on hand-made positions: runs
// over own pieces and own-guarded squares, the no-overlap rule, point moves, divides and the
// reserve, each capture pattern (alone, two at once, costing the mover), the results.
#include <gtest/gtest.h>

#include <algorithm>

#include "engine/corners/corners_game.h"
#include "engine/corners/corners_heuristic.h"
#include "engine/registry.h"
#include "tests/support/corners_fixtures.h"
#include "tests/support/errors.h"

namespace pincer::corners {
namespace {

using testing::corners_position;

// Expects `expr` to throw a GameError whose message contains `text`.
#define EXPECT_ERROR_HAS(expr, text)                                                    \
  do {                                                                                  \
    const std::string message = pincer::testing::error_of([&] { (void)(expr); });       \
    EXPECT_NE(message.find(text), std::string::npos) << "message: '" << message << "'"; \
  } while (0)

class CornersRulesTest : public ::testing::Test {
 protected:
  GamePtr game = load_game("corners");

  std::unique_ptr<State> at(const std::string& text) { return game->parse_state(text); }
  // Legal moves of `s` starting with `prefix` (e.g. "c3-"), sorted.
  std::vector<std::string> moves(const State& s, const std::string& prefix = "") {
    std::vector<Action> legal;
    s.legal_actions(legal);
    std::vector<std::string> out;
    for (Action a : legal) {
      const std::string t = game->action_text(s, a, false);
      if (t.compare(0, prefix.size(), prefix) == 0) out.push_back(t);
    }
    std::sort(out.begin(), out.end());
    return out;
  }
  // Runs only (no moves to a point) among moves(s, prefix).
  std::vector<std::string> runs(const State& s, const std::string& prefix) {
    std::vector<std::string> out;
    for (const auto& m : moves(s, prefix))
      if (m.find('\'') == std::string::npos) out.push_back(m);
    return out;
  }
  std::unique_ptr<State> play(const State& s, const std::string& move) {
    auto child = s.clone();
    child->apply(game->parse_action(s, move));
    return child;
  }
  static std::vector<std::string> captured(const State& s) {
    auto c = s.last_captured();
    std::sort(c.begin(), c.end());
    return c;
  }
  using V = std::vector<std::string>;
};

TEST_F(CornersRulesTest, RunsPassOwnPiecesAndStopOnTheFirstEmptySquare) {
  auto s = game->initial_state();
  // b2 passes its own b3 and must stop on b4 (not guarded); it may also go down to b1.
  EXPECT_EQ(runs(*s, "b2-b"), (V{"b2-b1", "b2-b4"}));
  EXPECT_EQ(runs(*s, "b3-b"), (V{"b3-b1", "b3-b4"}));
  EXPECT_EQ(moves(*s, "b2-"), (V{"b2-a1'", "b2-a2'", "b2-b1", "b2-b1'", "b2-b2'", "b2-b4"}));
}

TEST_F(CornersRulesTest, RunsContinueOverOwnGuardedSquaresAndMayStopOnAny) {
  // White point c4' guards c4, d4, c5, d5: c3 may stop on c4 or c5 and ends on c6.
  auto s = at(corners_position("c3", "a8", "c4'", ""));
  EXPECT_EQ(runs(*s, "c3-c"), (V{"c3-c2", "c3-c4", "c3-c5", "c3-c6"}));
  // Sideways from c5 is guarded too: d5 guarded, e5 the first that is not.
  auto t = at(corners_position("c5", "a8", "c4'", ""));
  EXPECT_EQ(moves(*t, "c5-"), (V{"c5-b4'", "c5-b5", "c5-b5'", "c5-c3", "c5-c4", "c5-c5'", "c5-c6",
                                 "c5-d5", "c5-e5"}));
  // Two points guard c4..c7: c3 may stop anywhere up to c8, which it reaches.
  auto u = at(corners_position("c3", "a8", "c4' c6'", ""));
  EXPECT_EQ(runs(*u, "c3-c"), (V{"c3-c2", "c3-c4", "c3-c5", "c3-c6", "c3-c7", "c3-c8"}));
}

TEST_F(CornersRulesTest, AnEnemyPieceEndsARunAndEnemyGuardsSpoilOwnGuard) {
  // Black on c5 ends the walk: c4 is a landing, c5 is not, nothing beyond.
  auto s = at(corners_position("c3", "c5", "c4'", ""));
  EXPECT_EQ(runs(*s, "c3-c"), (V{"c3-c2", "c3-c4"}));
  // A black point on b4' also guards c4 and c5: they are not white's own, so c3 stops on c4.
  auto t = at(corners_position("c3", "a8", "c4'", "b4'"));
  EXPECT_EQ(runs(*t, "c3-c"), (V{"c3-c2", "c3-c4"}));
  // Own square pieces are passed, enemy ones end the walk even right after own ones.
  auto u = at(corners_position("c3 c4", "c6", "c4'", ""));
  EXPECT_EQ(runs(*u, "c3-c"), (V{"c3-c2", "c3-c5"}));
}

TEST_F(CornersRulesTest, NoMoveToAPointWhoseSquaresAnEnemyPointGuards) {
  // Black point e5' guards e5, f5, e6, f6. White d4's corners: c3', d3', c4', d4'. d4' has e5.
  auto s = at(corners_position("d4", "a8", "c5'", "e5'"));
  EXPECT_EQ(moves(*s, "d4-"), (V{"d4-c3'", "d4-c4", "d4-c4'", "d4-d3", "d4-d3'", "d4-d5", "d4-d6",
                                 "d4-d7", "d4-e4"}));
  EXPECT_ERROR_HAS(game->parse_action(*s, "d4-d4'"), "guard zones may not overlap");
}

TEST_F(CornersRulesTest, PointPiecesStepToTheirEmptySquares) {
  auto s = at(corners_position("d5", "a8", "d4'", ""));
  EXPECT_EQ(moves(*s, "d4'-"), (V{"d4'-d4", "d4'-e4", "d4'-e5"}));
  auto t = play(*s, "d4'-e5");
  EXPECT_EQ(t->to_text(), corners_position("d5 e5", "a8", "", "", "b", 0, 0, 11));
}

TEST_F(CornersRulesTest, DividesPlaceUpToFourAndNoMoreThanTheReserve) {
  const auto count = [&](int reserve) {
    return moves(*at(corners_position("", "a8", "d4'", "", "w", reserve)), "d4'*").size();
  };
  EXPECT_EQ(count(0), 1u);      // d4'* only
  EXPECT_EQ(count(1), 1u + 4);  // and each single square
  EXPECT_EQ(count(2), 1u + 4 + 6);
  EXPECT_EQ(count(3), 1u + 4 + 6 + 4);
  EXPECT_EQ(count(4), 16u);
  EXPECT_EQ(count(15), 16u);
  // Placements go on empty squares only.
  auto s = at(corners_position("e4", "a8", "d4'", "", "w", 4));
  EXPECT_EQ(moves(*s, "d4'*"), (V{"d4'*", "d4'*d4", "d4'*d4d5", "d4'*d4d5e5", "d4'*d4e5", "d4'*d5",
                                  "d4'*d5e5", "d4'*e5"}));
  // The divider goes to the reserve, but the placements come out of the old reserve.
  auto t = play(*at(corners_position("", "a8", "d4'", "", "w", 2)), "d4'*d4e5");
  EXPECT_EQ(t->to_text(), corners_position("d4 e5", "a8", "", "", "b", 1, 0, 11));
  auto u = play(*at(corners_position("", "a8", "d4'", "", "w", 0)), "d4'*");
  EXPECT_EQ(u->to_text(), corners_position("", "a8", "", "", "b", 1, 0, 11));
  EXPECT_ERROR_HAS(
      game->parse_action(*at(corners_position("", "a8", "d4'", "", "w", 1)), "d4'*d4e5"),
      "has 1 pieces in reserve");
}

TEST_F(CornersRulesTest, SquarePieceBetweenTwoEnemyPointsIsCapturedWithThem) {
  // 4.2: white e6 moves to d5'; black d5 then has white points on c4' and d5'.
  auto s = at(corners_position("e6 a1", "d5 h8", "c4'", ""));
  auto t = play(*s, "e6-d5'");
  EXPECT_EQ(captured(*t), (V{"c4'", "d5", "d5'"}));
  EXPECT_EQ(t->to_text(), corners_position("a1", "h8", "", "", "b", 2, 1, 11));
}

TEST_F(CornersRulesTest, PointPieceBetweenTwoEnemySquaresIsCapturedWithThem) {
  // 4.3: black e6 steps down to e5; the white point d4' then has black on d4 and e5. The mover
  // loses both of its pieces, white its point.
  auto s = at(corners_position("a1", "d4 e6 h8", "d4'", "", "b"));
  auto t = play(*s, "e6-e5");
  EXPECT_EQ(captured(*t), (V{"d4", "d4'", "e5"}));
  EXPECT_EQ(t->to_text(), corners_position("a1", "h8", "", "", "w", 1, 2, 11));
}

TEST_F(CornersRulesTest, CrossCapturesAllFiveWhateverTheirSides) {
  // 4.4: d2 runs over d3 into d4 between c4, e4 and d5: all five go, four of them white.
  auto s = at(corners_position("d2 d3 c4 e4 a1", "d5 h8", "", ""));
  auto t = play(*s, "d2-d4");
  EXPECT_EQ(captured(*t), (V{"c4", "d3", "d4", "d5", "e4"}));
  EXPECT_EQ(t->to_text(), corners_position("a1", "h8", "", "", "b", 4, 1, 11));
  // The heuristic counts it net: one black piece for four white ones.
  const auto& cs = static_cast<const CornersState&>(*s);
  EXPECT_EQ(net_capture(cs.position(), game->parse_action(*s, "d2-d4")), 1 - 4);
}

TEST_F(CornersRulesTest, TwoPatternsAtOnceShareTheirPieces) {
  // White e6 to d5': black d5 sits between white c4' and d5' (4.2), and d5' has black d5 and d6
  // on its squares (4.3). The union goes once: d5, d6, c4', d5'.
  auto s = at(corners_position("e6 a1", "d5 d6 h8", "c4'", ""));
  auto t = play(*s, "e6-d5'");
  EXPECT_EQ(captured(*t), (V{"c4'", "d5", "d5'", "d6"}));
  EXPECT_EQ(t->to_text(), corners_position("a1", "h8", "", "", "b", 2, 2, 11));
}

TEST_F(CornersRulesTest, SteppingBetweenTwoEnemyPointsCostsTheStepper) {
  // White d3 steps to d4 between black c3' and d4': white loses d4, black both points.
  auto s = at(corners_position("d3 a1", "h8", "", "c4' d4'"));
  auto t = play(*s, "d3-d4");
  EXPECT_EQ(captured(*t), (V{"c4'", "d4", "d4'"}));
  EXPECT_EQ(t->to_text(), corners_position("a1", "h8", "", "", "b", 1, 2, 11));
}

TEST_F(CornersRulesTest, ReachingTheFarRankWins) {
  auto s = at(corners_position("c7 a1", "h8", "", ""));
  auto t = play(*s, "c7-c8");
  EXPECT_TRUE(t->outcome().over);
  EXPECT_EQ(t->outcome().winner, kWhite);
  EXPECT_STREQ(t->outcome().reason, "crossed");
  std::vector<Action> none;
  t->legal_actions(none);
  EXPECT_TRUE(none.empty());
  // A divide placement on the far rank wins too; black's far rank is rank 1.
  auto u = play(*at(corners_position("a3", "a8", "", "c1'", "b", 0, 1)), "c1'*c1");
  EXPECT_EQ(u->outcome().winner, kBlack);
  EXPECT_STREQ(u->outcome().reason, "crossed");
}

TEST_F(CornersRulesTest, APieceCapturedOnArrivalDoesNotWin) {
  // c6 runs over its own c7 to c8; black b7' then has white c7 and c8 on its squares (4.3).
  auto s = at(corners_position("c6 c7 a1", "h8", "", "b7'"));
  auto t = play(*s, "c6-c8");
  EXPECT_EQ(captured(*t), (V{"b7'", "c7", "c8"}));
  EXPECT_FALSE(t->outcome().over);
}

TEST_F(CornersRulesTest, ASideWithoutMovesLoses) {
  // White takes black's last piece on the board (d5, with c4' and d5'); black has a reserve but
  // no piece to move.
  auto s = at(corners_position("e6 a1", "d5", "c4'", ""));
  auto t = play(*s, "e6-d5'");
  EXPECT_TRUE(t->outcome().over);
  EXPECT_EQ(t->outcome().winner, kWhite);
  EXPECT_STREQ(t->outcome().reason, "no-moves");
  // A side with only point pieces always has the empty divide.
  EXPECT_FALSE(at(corners_position("a1", "", "", "d4'", "b"))->outcome().over);
}

TEST_F(CornersRulesTest, ThePlyLimitDraws) {
  auto s = at(corners_position("a1", "h8", "", "", "w", 0, 0, 399));
  EXPECT_FALSE(s->outcome().over);
  auto t = play(*s, "a1-a2");
  EXPECT_TRUE(t->outcome().over);
  EXPECT_EQ(t->outcome().winner, -1);
  EXPECT_STREQ(t->outcome().reason, "limit");
  // A crossing on the last ply still wins: crossed comes first.
  auto u = play(*at(corners_position("c7 a1", "h8", "", "", "w", 0, 0, 399)), "c7-c8");
  EXPECT_STREQ(u->outcome().reason, "crossed");
}

TEST_F(CornersRulesTest, RulesetSwitchesChangeTheGame) {
  // Each switch as its own file: the fingerprint changes and the rule follows.
  auto load = [](const std::string& from, const std::string& to) {
    RulesetSource src = find_ruleset("corners");
    const size_t at = src.text.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    src.text.replace(at, from.size(), to);
    src.origin = "test";
    return make_game(src);
  };
  const GamePtr no_cross = load("capture { cross: true }", "capture { cross: false }");
  EXPECT_NE(no_cross->fingerprint(), game->fingerprint());
  auto s = no_cross->parse_state(corners_position("d2 d3 c4 e4 a1", "d5 h8", "", ""));
  auto t = s->clone();
  t->apply(no_cross->parse_action(*s, "d2-d4"));
  EXPECT_TRUE(t->last_captured().empty());

  const GamePtr overlap = load("no_overlap: true", "no_overlap: false");
  auto o = overlap->parse_state(corners_position("d4", "a8", "c5'", "e5'"));
  EXPECT_NO_THROW(overlap->parse_action(*o, "d4-d4'"));

  const GamePtr no_empty = load("empty_allowed: true", "empty_allowed: false");
  auto e = no_empty->parse_state(corners_position("", "a8", "d4'", "", "w", 0));
  EXPECT_EQ(moves(*e, "d4'*").size(), 0u);

  const GamePtr black_first = load("first: WHITE", "first: BLACK");
  EXPECT_EQ(black_first->initial_state()->to_move(), kBlack);

  EXPECT_ERROR_HAS(load("max_placements: 4", "max_placements: 5"),
                   "divide.max_placements: must be 1 to 4");
  EXPECT_ERROR_HAS(load("plies: 400", "plies: 0"), "limit.plies");
  EXPECT_ERROR_HAS(load("rows: 2", "rows: 3"), "setup.rows");
}

}  // namespace
}  // namespace pincer::corners
