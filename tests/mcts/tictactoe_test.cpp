// The test-only tic-tac-toe game: rules, text forms, hash, encoding and symmetries.
#include "tests/support/tictactoe.h"

#include <gtest/gtest.h>

#include <set>

#include "engine/registry.h"
#include "tests/support/random_games.h"

namespace pincer {
namespace {

using testing::make_tictactoe;

TEST(TicTacToe, PerftMatchesKnownCounts) {
  const GamePtr game = make_tictactoe();
  const auto start = game->initial_state();
  // Known leaf counts of tic-tac-toe (games end at a line).
  EXPECT_EQ(game->perft(*start, 1), 9u);
  EXPECT_EQ(game->perft(*start, 2), 72u);
  EXPECT_EQ(game->perft(*start, 9), 127872u);
}

TEST(TicTacToe, OutcomeReasonsAndText) {
  const GamePtr game = make_tictactoe();
  auto s = game->parse_state("xxx/oo./... o");
  EXPECT_TRUE(s->outcome().over);
  EXPECT_EQ(s->outcome().winner, 0);
  EXPECT_STREQ(s->outcome().reason, "line");
  std::vector<Action> legal;
  s->legal_actions(legal);
  EXPECT_TRUE(legal.empty());

  auto d = game->parse_state("xox/xoo/oxx x");
  EXPECT_TRUE(d->outcome().is_draw());
  EXPECT_STREQ(d->outcome().reason, "draw");

  auto p = game->parse_state("x.o/.x./... o");
  EXPECT_EQ(p->to_text(), "x.o/.x./... o");
  EXPECT_EQ(p->to_move(), 1);
  EXPECT_FALSE(p->outcome().over);
  EXPECT_THROW(game->parse_state("x.o/.x./..."), GameError);
  EXPECT_THROW(game->parse_state("x.o/.q./... o"), GameError);
  EXPECT_THROW(game->parse_state("x.o/.x./... z"), GameError);

  EXPECT_EQ(game->action_text(*p, 4, false), "b2");
  EXPECT_EQ(game->action_text(*p, 0, true), "a1");
  EXPECT_EQ(game->parse_action(*p, "c1"), 2);
  EXPECT_THROW(game->parse_action(*p, "b2"), GameError);  // taken
  EXPECT_THROW(game->parse_action(*p, "d4"), GameError);
}

TEST(TicTacToe, HashFollowsPositionNotPath) {
  const GamePtr game = make_tictactoe();
  auto a = game->initial_state(), b = game->initial_state();
  for (Action x : {0, 4, 8}) a->apply(x);
  for (Action x : {8, 4, 0}) b->apply(x);
  EXPECT_TRUE(a->equals(*b));
  EXPECT_EQ(a->hash(), b->hash());
  EXPECT_EQ(a->hash(), game->parse_state(a->to_text())->hash());
  std::set<uint64_t> hashes;
  testing::play_random_game(*game->initial_state(), 7, 20, [&](const State& s, Action) {
    EXPECT_TRUE(hashes.insert(s.hash()).second);
    EXPECT_TRUE(game->parse_state(s.to_text())->equals(s));
  });
}

TEST(TicTacToe, EncodingIsFromTheMoversView) {
  const GamePtr game = make_tictactoe();
  auto s = game->initial_state();
  s->apply(4);  // x on b2; o to move
  std::vector<float> planes(game->input_shape().size());
  s->encode(planes.data());
  EXPECT_EQ(planes[4], 0.0f);      // o's marks: none
  EXPECT_EQ(planes[9 + 4], 1.0f);  // opponent (x) on b2
  EXPECT_EQ(planes[18], 1.0f);
}

TEST(TicTacToe, SymmetriesAreDistinctPermutations) {
  const GamePtr game = make_tictactoe();
  auto s = game->parse_state("xo./.../... x");  // x a3, o b3
  std::vector<float> base(27);
  s->encode(base.data());
  std::set<std::vector<float>> seen;
  for (int sym = 0; sym < game->num_symmetries(); ++sym) {
    std::vector<float> planes = base;
    std::vector<float> policy(9);
    for (int i = 0; i < 9; ++i) policy[i] = static_cast<float>(i);
    if (sym > 0) game->apply_symmetry(sym, planes.data(), policy.data());
    // The policy entry for square i moved to the square the symmetry maps i to.
    for (int i = 0; i < 9; ++i) {
      EXPECT_EQ(policy[testing::TicTacToeGame::map_square(sym, i)], static_cast<float>(i));
    }
    // The centre is fixed by every symmetry.
    EXPECT_EQ(policy[4], 4.0f);
    seen.insert(planes);
  }
  EXPECT_EQ(seen.size(), 8u);
}

TEST(TicTacToe, RegistersUnderItsName) {
  testing::register_tictactoe();
  const auto names = registered_games();
  EXPECT_NE(std::find(names.begin(), names.end(), "tictactoe"), names.end());
}

}  // namespace
}  // namespace pincer
