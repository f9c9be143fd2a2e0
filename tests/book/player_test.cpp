// Playing from a book (book/player.h): book moves while the position is in the book, the inner
// player once it has left; book_temperature samples only among near-best moves; bad book files
// and arguments are refused with clear errors.
#include "book/player.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>

#include "book/build.h"
#include "engine/registry.h"
#include "mcts/evaluators.h"
#include "tests/book/helpers.h"
#include "tests/support/tictactoe.h"

namespace pincer::book {
namespace {

using pincer::testing::make_tictactoe;
using testing::after;
using testing::scratch_path;

// A tic-tac-toe book of `positions` positions grown from `root`, saved to `name`.
std::string book_file(const GamePtr& game, const State& root, int64_t positions,
                      const std::string& name) {
  mcts::UniformEvaluator eval;
  OpeningBook book(*game);
  BuildOptions o;
  o.positions = positions;
  o.search.simulations = 16;
  o.evaluator_id = "uniform";
  build(book, game, root, eval, o);
  const std::string path = scratch_path("book-player", name);
  book.save(path);
  return path;
}

std::unique_ptr<Player> random_with_book(const GamePtr& game, const std::string& args,
                                         uint64_t seed) {
  return with_book(player_kind_factory("random"))(game, parse_player_spec("random:" + args), seed);
}

TEST(BookPlayer, PlaysTheBooksBestMoveInBookThenItsOwn) {
  GamePtr game = make_tictactoe();
  const std::string path = book_file(game, *game->initial_state(), 6, "small.book");
  const OpeningBook book = OpeningBook::load(path, *game);
  for (uint64_t seed = 1; seed <= 5; ++seed) {
    auto player = random_with_book(game, "book=" + path, seed);
    EXPECT_EQ(player->spec(), "random:book=" + path);
    auto s = game->initial_state();
    int in_book = 0, out_of_book = 0;
    while (!s->outcome().over) {
      const BookPosition* p = book.find(s->hash());
      const Action a = player->choose(*s);
      std::vector<Action> legal;
      s->legal_actions(legal);
      ASSERT_NE(std::find(legal.begin(), legal.end(), a), legal.end());
      if (p && p->searched()) {
        ++in_book;
        // The book's best move: its value is the position's backed-up value.
        const BookMove* played = nullptr;
        for (const BookMove& m : p->moves()) played = m.action() == a ? &m : played;
        ASSERT_NE(played, nullptr);
        EXPECT_EQ(move_value(book, *p, *played), p->value()) << s->to_text();
        EXPECT_EQ(player->last_info().rfind("book:", 0), 0u) << player->last_info();
      } else {
        ++out_of_book;
        EXPECT_EQ(player->last_info().rfind("book:", 0), std::string::npos);
      }
      s->apply(a);
    }
    EXPECT_GE(in_book, 1);
    EXPECT_GE(out_of_book, 1) << "a 6-position book cannot cover a whole game";
  }
}

TEST(BookPlayer, TemperatureSamplesOnlyNearBestMoves) {
  GamePtr game = make_tictactoe();
  // A hand-made book position: three near-best moves and six clearly worse ones.
  auto root = game->initial_state();
  OpeningBook book(*game);
  BookPosition& p = book.at(*root);
  p.set_searched(true);
  std::vector<Action> legal;
  root->legal_actions(legal);
  std::set<Action> near_best;
  for (size_t i = 0; i < legal.size(); ++i) {
    BookMove* m = p.add_moves();
    m->set_action(legal[i]);
    m->set_text(game->action_text(*root, legal[i], true));
    m->set_visits(10);
    m->set_q(i < 3 ? 0.5f - 0.02f * i : -0.5f);
    auto child = root->clone();
    child->apply(legal[i]);
    m->set_child_hash(child->hash());
    if (i < 3) near_best.insert(legal[i]);
  }
  p.set_value(0.5f);
  const std::string path = scratch_path("book-player", "hand.book");
  book.save(path);
  std::set<Action> greedy, sampled, hot;
  for (uint64_t seed = 0; seed < 60; ++seed) {
    greedy.insert(random_with_book(game, "book=" + path, seed)->choose(*root));
    sampled.insert(
        random_with_book(game, "book=" + path + ",book_temperature=0.05", seed)->choose(*root));
    hot.insert(random_with_book(game, "book=" + path + ",book_temperature=1", seed)->choose(*root));
  }
  EXPECT_EQ(greedy, std::set<Action>{legal[0]});
  EXPECT_EQ(sampled, near_best) << "all near-best moves, and only they, are drawn";
  EXPECT_GT(hot.size(), near_best.size()) << "a high temperature reaches the worse moves";
}

void expect_refused(const GamePtr& game, const std::string& args, const std::string& needle) {
  try {
    random_with_book(game, args, 1);
    FAIL() << "accepted: " << args;
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
  }
}

TEST(BookPlayer, RefusesBadBooksAndArguments) {
  GamePtr game = make_tictactoe();
  const std::string missing = scratch_path("book-player", "missing.book");
  expect_refused(game, "book=" + missing, missing);
  const std::string garbage = scratch_path("book-player", "garbage.book");
  std::ofstream(garbage, std::ios::binary) << "not a book at all";
  expect_refused(game, "book=" + garbage, garbage);
  // A book of another ruleset: its fingerprint is named.
  const std::string tictactoe = book_file(game, *game->initial_state(), 3, "ttt.book");
  GamePtr seize = load_game("seize-v0");
  try {
    with_book(player_kind_factory("random"))(seize, parse_player_spec("random:book=" + tictactoe),
                                             1);
    FAIL() << "a book of another game was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find(tictactoe), std::string::npos) << e.what();
  }
  expect_refused(game, "book_temperature=0.5", "book_temperature needs book=PATH");
  expect_refused(game, "book=" + tictactoe + ",book_temperature=-1", "book_temperature");
  expect_refused(game, "book=", "no value for 'book'");
  // The inner kind still refuses its own unknown arguments.
  expect_refused(game, "book=" + tictactoe + ",depth=3", "depth");
}

TEST(BookPlayer, NeverPlaysAnIllegalBookMove) {
  GamePtr game = make_tictactoe();
  const std::string path = book_file(game, *game->initial_state(), 1, "one.book");
  OpeningBook book = OpeningBook::load(path, *game);
  auto root = game->initial_state();
  BookPosition* p = book.find(root->hash());
  ASSERT_NE(p, nullptr);
  BookPlayOptions o;
  EXPECT_GE(book_move(book, *root, o, 0.5), 0);
  for (BookMove& m : *p->mutable_moves()) m.set_action(77);  // not a square
  EXPECT_EQ(book_move(book, *root, o, 0.5), -1);
  // A position the book does not hold.
  EXPECT_EQ(book_move(book, *after(*game, {"a1"}), o, 0.5), -1);
}

}  // namespace
}  // namespace pincer::book
