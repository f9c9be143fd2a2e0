// Dice perft regressions from fixed setups and middle positions on all three board sizes,
// checked live against the independent slow referee (tests/support/dice_slow), and move-by-move
// agreement of the two over random games from drawn starts under every shipped ruleset and
// switch: the legal moves, the board and counters, captures and results.
#include <gtest/gtest.h>

#include "engine/dice/notation.h"
#include "tests/support/dice_fixtures.h"
#include "tests/support/dice_slow.h"
#include "tests/support/random_games.h"

namespace pincer::dice {
namespace {

using testing::SlowDice;
using testing::variant;

struct PerftCase {
  const char* rules;
  const char* start;  // a setup string or a position text
  std::vector<uint64_t> nodes;
  int slow_depth;
};

// Depth 1 from the setups by hand: the pawn steps plus the knights' jumps (the other back-row
// dice are boxed in by their own pawns). 354K612: seven pawns and the a1 knight to b3 (c2 is
// its own pawn): 8. 35K612/21K543 b: black's six pawns and the f6 knight to e4: 7. 354K6123:
// eight pawns and the knights a1-b3, h1-g3: 10. Depth 2 from a start is depth 1 squared (the
// sides cannot touch yet). The rest came from the bitboard generator; the slow referee confirms
// them live up to slow_depth.
const PerftCase kCases[] = {
    {"dice-7x7", "354K612/216K543", {8, 64, 664, 6771, 92153}, 4},
    {"dice-6x6", "35K612/21K543 b", {7, 49, 403, 3396, 34592}, 4},
    {"dice-8x8", "354K6123/216K5434", {10, 100, 1200, 14628}, 3},
    {"dice-7x7",
     "b1fkedc/1b1bbbb/2a4/1B1C3/3E3/BB1BB1B/C2KFAB w 20 3 0-0",
     {25, 275, 6203, 85287},
     3},
    {"dice-7x7-scored",
     "b1fkedc/1b1bbbb/2a4/1B1C3/3E3/BB1BB1B/C2KFAB b 20 3 4-2",
     {11, 274, 3767, 84136},
     3},
    {"dice-6x6-promotion-timed",
     "1ak2c/B3b1/2d3/2F3/b3BB/C1K3 w 30 2 0-0",
     {23, 360, 7087, 102636, 1811771},
     3},
    {"dice-8x8-promotion-scored",
     "bafk1dcd/bb1bbAbb/8/3e4/2C5/8/BB1BBBBB/C1DKFA1C b 11 0 3-1",
     {25, 447, 11162, 192764},
     3},
};

const DiceRules& rules_of(const Game& g) {
  return static_cast<const DiceRuleset&>(g.ruleset()).rules();
}

bool is_setup(const std::string& text) {
  return text.find(' ') == std::string::npos || text.size() < 20;
}

TEST(DicePerft, RegressionsAgreeWithTheSlowReferee) {
  for (const PerftCase& c : kCases) {
    const GamePtr game = load_game(c.rules);
    const auto state = game->parse_start(c.start);
    const SlowDice slow(rules_of(*game), c.start, is_setup(c.start));
    ASSERT_EQ(slow.text(), state->to_text()) << c.rules << " " << c.start;
    for (size_t i = 0; i < c.nodes.size(); ++i) {
      const int depth = static_cast<int>(i) + 1;
      SCOPED_TRACE(std::string(c.rules) + " '" + c.start + "' depth " + std::to_string(depth));
      EXPECT_EQ(game->perft(*state, depth), c.nodes[i]);
      if (depth <= c.slow_depth) {
        EXPECT_EQ(slow.perft(depth), c.nodes[i]);
      }
    }
  }
}

TEST(DicePerft, GenericInterfaceAgreesWithFastPath) {
  for (const PerftCase& c : kCases) {
    const GamePtr game = load_game(c.rules);
    const auto state = game->parse_start(c.start);
    EXPECT_EQ(game->Game::perft(*state, 3), c.nodes[2]) << c.rules << " " << c.start;
  }
}

struct Variant {
  std::string name;
  std::shared_ptr<const DiceGame> game;
  int games;
};

std::vector<Variant> variants() {
  std::vector<Variant> v;
  for (const char* name :
       {"dice-7x7", "dice-6x6", "dice-8x8", "dice-7x7-promotion", "dice-7x7-timed",
        "dice-7x7-scored", "dice-6x6-promotion-timed", "dice-8x8-promotion-scored"})
    v.push_back({name, variant(name), 12});
  v.push_back({"7x7 no wall, no-moves draws, limit 30",
               variant("dice-7x7",
                       [](DiceRules& r) {
                         r.mutable_moves()->set_pawn_wall(false);
                         r.mutable_end()->set_no_moves(DiceRules::DRAW);
                         r.mutable_end()->set_capture_free_plies(30);
                       }),
               12});
  v.push_back({"6x6 pawns show 1, rolled first mover, scored 3/2/4",
               variant("dice-6x6",
                       [](DiceRules& r) {
                         r.mutable_setup()->set_pawn_face(1);
                         r.mutable_setup()->set_first_mover(DiceRules::ROLLED);
                         r.mutable_scoring()->set_target(4);
                         r.mutable_scoring()->set_die_points(2);
                         r.mutable_scoring()->set_king_points(3);
                       }),
               12});
  return v;
}

TEST(DicePerft, FastAndSlowAgreeOverRandomGames) {
  int plies = 0;
  for (const Variant& v : variants()) {
    for (int g = 0; g < v.games; ++g) {
      const uint64_t seed = 1000 * g + 17;
      const std::string setup = v.game->draw_setup(seed);
      auto start = v.game->start_state(seed);
      SlowDice slow(rules_of(*v.game), setup, true);
      pincer::testing::play_random_game(*start, seed, 400, [&](const State& s, Action a) {
        SCOPED_TRACE(v.name + " setup " + setup + " at " + s.to_text());
        ++plies;
        ASSERT_EQ(s.to_text(), slow.text());
        const Outcome o = s.outcome();
        const auto sr = slow.result();
        ASSERT_EQ(o.over, sr.over);
        if (o.over) {
          EXPECT_EQ(o.winner, sr.winner);
          EXPECT_EQ(o.reason, sr.reason);
        }
        ASSERT_EQ(testing::legal_texts(s), slow.legal());
        const std::vector<std::string> captured = s.last_captured();
        EXPECT_EQ(captured.empty() ? "" : captured[0], slow.last_captured());
        // The text reads back as the same position, hash and moves.
        const auto back = v.game->parse_state(s.to_text());
        ASSERT_TRUE(back->equals(s));
        ASSERT_EQ(back->hash(), s.hash());
        if (a >= 0) slow.play(s.game().action_text(s, a, false));
      });
    }
  }
  EXPECT_GT(plies, 5000);
}

TEST(DicePerft, HashFollowsThePositionNotThePath) {
  const GamePtr game = load_game("dice-7x7");
  const auto start = game->setup_state("354K612/216K543");
  // Two orders of the same two white and two black moves reach one position with one hash.
  auto a = start->clone(), b = start->clone();
  for (const char* m : {"a2-a3", "a6-a5", "g2-g3", "g6-g5"}) a->apply(game->parse_action(*a, m));
  for (const char* m : {"g2-g3", "g6-g5", "a2-a3", "a6-a5"}) b->apply(game->parse_action(*b, m));
  EXPECT_EQ(a->to_text(), b->to_text());
  EXPECT_EQ(a->hash(), b->hash());
  EXPECT_NE(a->hash(), start->hash());
  EXPECT_NE(game->setup_state("354K612/216K543 b")->hash(), start->hash());
}

}  // namespace
}  // namespace pincer::dice
