// `pincer serve --book` (book/serve_book.h): analyses of book positions carry the book's moves,
// the bot plays the book's move when asked, positions outside the book are left alone, and a
// book of a ruleset not served is refused.
#include "book/serve_book.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "book/build.h"
#include "book/player.h"
#include "engine/registry.h"
#include "mcts/evaluators.h"

namespace pincer::book {
namespace {

std::string book_path(const GamePtr& game) {
  mcts::UniformEvaluator eval;
  OpeningBook book(*game);
  BuildOptions o;
  o.positions = 4;
  o.search.simulations = 8;
  o.evaluator_id = "uniform";
  build(book, game, *game->initial_state(), eval, o);
  const auto dir = std::filesystem::temp_directory_path() /
                   ("pincer-serve-book-test-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string path = (dir / "serve.book").string();
  book.save(path);
  return path;
}

TEST(ServeBook, AnalysesShowTheBookAndTheBotPlaysIt) {
  GamePtr game = load_game("seize-v0");
  const std::string path = book_path(game);
  const OpeningBook book = OpeningBook::load(path, *game);
  std::vector<std::shared_ptr<serve::Analyzer>> analyzers{
      serve::make_player_analyzer(game, "alphabeta:depth=1", 1)};
  add_books(analyzers, {path}, true);
  serve::Analyzer& a = *analyzers[0];
  EXPECT_NE(a.description().find(path), std::string::npos);

  const auto start = game->initial_state();
  serve::TurnRequest analysis;
  const serve::Json r = a.analyze(*start, analysis);
  ASSERT_TRUE(r.contains("book"));
  std::vector<Action> legal;
  start->legal_actions(legal);
  EXPECT_EQ(r["book"]["moves"].size(), legal.size());
  EXPECT_EQ(r["moveInfos"].size(), legal.size()) << "an analysis still searches every move";

  serve::TurnRequest bot;
  bot.early_stop = true;
  const serve::Json b = a.analyze(*start, bot);
  ASSERT_EQ(b["moveInfos"].size(), 1u);
  const Action expected = book_move(book, *start, BookPlayOptions{}, 0);
  EXPECT_EQ(b["moveInfos"][0]["move"], game->action_text(*start, expected, true));
  EXPECT_TRUE(b.value("fromBook", false));

  // Two plies deep the 4-position book has nothing: a plain analysis.
  auto deep = start->clone();
  deep->apply(legal.back());
  std::vector<Action> replies;
  deep->legal_actions(replies);
  deep->apply(replies.back());
  if (!book.find(deep->hash())) {
    const serve::Json d = a.analyze(*deep, bot);
    EXPECT_FALSE(d.contains("book"));
    EXPECT_GT(d["moveInfos"].size(), 1u);
  }
}

TEST(ServeBook, RefusesABookOfAnotherRuleset) {
  GamePtr game = load_game("seize-v0");
  const std::string path = book_path(game);
  std::vector<std::shared_ptr<serve::Analyzer>> analyzers{
      serve::make_player_analyzer(load_game("seize-reference"), "alphabeta:depth=1", 1)};
  try {
    add_books(analyzers, {path}, false);
    FAIL() << "a seize-v0 book was attached to seize-reference";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("not among the served --rules"), std::string::npos)
        << e.what();
  }
  EXPECT_THROW(add_books(analyzers, {path + ".missing"}, false), BookError);
}

}  // namespace
}  // namespace pincer::book
