// Corners perft regressions from the start and from middle-game positions, checked live against
// the independent slow referee (tests/support/corners_slow), and move-by-move agreement of the
// two over random games: the legal moves, captures, results and the successor positions.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <random>

#include "engine/corners/corners_game.h"
#include "engine/corners/notation.h"
#include "engine/registry.h"
#include "tests/support/corners_fixtures.h"
#include "tests/support/corners_slow.h"

namespace pincer::corners {
namespace {

using testing::SlowCorners;

struct PerftCase {
  const char* position;  // "" for the start
  std::vector<uint64_t> nodes;
  int slow_depth;
};

// Start, depth 1 by hand: 32 runs (each rank-3 piece one step up, each rank-2 piece over it to
// rank 4; each piece down to rank 1, the rank-3 ones over rank 2) and 56 moves to a corner (the
// 7 points below rank 2 from 2 squares each, the 7 between ranks 2 and 3 from 4, the 7 above
// rank 3 from 2). Depth 2 is 88 * 88: no move of either side reaches the other's. The middle
// positions come from random games; the slow referee recomputes the shallow depths live.
const PerftCase kCases[] = {
    {"", {88, 7744, 721140, 67072206}, 2},
    {"....B.../....B.../.......B/......../.WW...../W....WW./.WW....W/.....W.. "
     "......./...B.../B....../..W..../W....../...W..W/.....W. b 2 11 45",
     {50, 6333, 296702, 36700899},
     3},
    {"..B.B.../..B.BB../BB.....B/...B..../.W.B.W../...W..../W.WWW.W./WW...W.. "
     "......./.B....B/B....B./B....../.....W./..WW.../.....W. b 1 1 45",
     {103, 9280, 963888, 89084140},
     2},
    {"......../..B.BBB./...BB..B/....BB../...W...B/...W...W/WW.....W/.W.W.... "
     "......./.B....B/B....B./B....../......./W....../W.W.... w 5 1 80",
     {69, 8583, 608213, 74229502},
     2},
    {"B......B/.....BB./BBBBBB../B....B../W......./W...W.../......../W...WW.. "
     "......./B....../..B..../......./......./......./...WW.. w 8 2 80",
     {47, 3949, 200159, 17450171},
     3},
};

const CornersRules& rules_of(const Game& game) {
  return static_cast<const CornersRuleset&>(game.ruleset()).rules();
}

TEST(CornersPerft, RegressionsAgreeWithTheSlowReferee) {
  const GamePtr game = load_game("corners");
  for (const PerftCase& c : kCases) {
    const std::string text = c.position;
    const auto state = text.empty() ? game->initial_state() : game->parse_state(text);
    const SlowCorners slow =
        text.empty() ? SlowCorners(rules_of(*game)) : SlowCorners(rules_of(*game), text);
    for (size_t i = 0; i < c.nodes.size(); ++i) {
      const int depth = static_cast<int>(i) + 1;
      SCOPED_TRACE("'" + text + "' depth " + std::to_string(depth));
      EXPECT_EQ(game->perft(*state, depth), c.nodes[i]);
      if (depth <= c.slow_depth) {
        EXPECT_EQ(slow.perft(depth), c.nodes[i]);
      }
    }
  }
}

TEST(CornersPerft, GenericWalkAgreesWithTheFastPath) {
  const GamePtr game = load_game("corners");
  const auto state = game->parse_state(kCases[1].position);
  EXPECT_EQ(game->Game::perft(*state, 3), kCases[1].nodes[2]);
}

std::vector<std::string> names(const Game& game, const State& s) {
  std::vector<Action> legal;
  s.legal_actions(legal);
  std::vector<std::string> out;
  for (Action a : legal) out.push_back(game.action_text(s, a, false));
  std::sort(out.begin(), out.end());
  return out;
}

// Plays games where each move is the most forward of three random picks (so that games reach
// crossings and captures) and checks the engine against the referee at every ply.
void check_agreement(const Game& game, const std::string& start, uint64_t seed,
                     std::map<std::string, int>& reasons, int& captures) {
  const CornersRules& rules = rules_of(game);
  std::unique_ptr<State> s = start.empty() ? game.initial_state() : game.parse_state(start);
  SlowCorners slow = start.empty() ? SlowCorners(rules) : SlowCorners(rules, start);
  std::mt19937_64 rng(seed);
  std::vector<Action> legal;
  for (int ply = 0;; ++ply) {
    SCOPED_TRACE("seed " + std::to_string(seed) + " at " + s->to_text());
    ASSERT_EQ(s->to_text(), slow.text());
    const Outcome o = s->outcome();
    const testing::SlowResult r = slow.result();
    ASSERT_EQ(o.over, r.over);
    if (o.over) {
      EXPECT_EQ(o.winner, r.winner);
      EXPECT_EQ(std::string(o.reason), r.reason);
      ++reasons[r.reason];
      return;
    }
    ASSERT_EQ(s->to_move(), slow.to_move());
    ASSERT_EQ(names(game, *s), slow.legal());
    s->legal_actions(legal);
    if (ply % 16 == 0) {  // every successor, now and then
      for (Action a : legal) {
        auto child = s->clone();
        child->apply(a);
        SlowCorners slow_child = slow;
        slow_child.play(game.action_text(*s, a, false));
        ASSERT_EQ(child->to_text(), slow_child.text()) << game.action_text(*s, a, false);
      }
    }
    Action pick = legal[rng() % legal.size()];
    auto forward = [&](Action a) {
      const Move m = decode(a);
      const int rank = m.to / 8;
      return s->to_move() == kWhite ? rank : 7 - rank;
    };
    for (int i = 0; i < 2; ++i) {
      const Action other = legal[rng() % legal.size()];
      if (forward(other) > forward(pick)) pick = other;
    }
    const std::string move = game.action_text(*s, pick, false);
    s->apply(pick);
    slow.play(move);
    std::vector<std::string> captured = s->last_captured();
    std::sort(captured.begin(), captured.end());
    ASSERT_EQ(captured, slow.last_captured()) << move;
    captures += !captured.empty();
  }
}

TEST(CornersPerft, EngineAgreesWithTheSlowRefereeOverRandomGames) {
  const GamePtr game = load_game("corners");
  std::map<std::string, int> reasons;
  int captures = 0;
  for (uint64_t seed = 1; seed <= 24; ++seed) check_agreement(*game, "", seed, reasons, captures);
  for (uint64_t seed = 1; seed <= 8; ++seed)
    check_agreement(*game, kCases[4].position, seed, reasons, captures);
  // The games must have seen crossings and many captures to mean anything.
  EXPECT_GT(reasons["crossed"], 4);
  EXPECT_GT(captures, 50);
  for (const auto& [reason, n] : reasons) std::printf("%s: %d games\n", reason.c_str(), n);
  std::printf("moves with captures: %d\n", captures);
}

}  // namespace
}  // namespace pincer::corners
