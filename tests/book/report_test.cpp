// The report page's data and HTML (book/report.h): the root's moves with their book values, links
// only to positions shown, the board script inlined, nothing that ends the data's <script> early,
// and a damaged book refused.
#include "book/report.h"

#include <gtest/gtest.h>

#include <set>

#include "book/build.h"
#include "engine/registry.h"
#include "mcts/evaluators.h"

namespace pincer::book {
namespace {

OpeningBook small_book(const GamePtr& game, int64_t positions, int simulations = 8) {
  mcts::UniformEvaluator eval;
  OpeningBook book(*game);
  BuildOptions o;
  o.positions = positions;
  o.search.simulations = simulations;
  o.evaluator_id = "uniform";
  build(book, game, *game->initial_state(), eval, o);
  return book;
}

TEST(BookReport, ShowsTheRootsMovesAndLinksPositionsInTheBook) {
  GamePtr game = load_game("seize-v0");
  const OpeningBook book = small_book(game, 6);
  const serve::Json d = report_data(book, *game, ReportOptions{});
  const auto root = game->initial_state();
  const std::string root_key = d["root"];
  ASSERT_TRUE(d["positions"].contains(root_key));
  const serve::Json& r = d["positions"][root_key];
  std::vector<Action> legal;
  root->legal_actions(legal);
  std::set<std::string> expected, shown;
  for (Action a : legal) expected.insert(game->action_text(*root, a, true));
  int linked = 0;
  for (const auto& m : r["moves"]) {
    shown.insert(m["move"].get<std::string>());
    if (m.contains("child")) {
      ++linked;
      EXPECT_TRUE(d["positions"].contains(m["child"].get<std::string>()));
    }
  }
  EXPECT_EQ(shown, expected);
  EXPECT_EQ(linked, 5);  // the five positions searched after the root
  // Best first, and the first move's value is the root's book value.
  EXPECT_FLOAT_EQ(r["moves"][0]["value"].get<float>(), r["value"].get<float>());
  EXPECT_EQ(r["view"]["piece"].size(), game->board_layout().cells.size());
  EXPECT_EQ(d["layout"]["cells"].size(), game->board_layout().cells.size());
}

TEST(BookReport, MovesTheSearchNeverVisitedHaveNoValue) {
  GamePtr game = load_game("seize-v0");
  // Four simulations over the root's eight moves.
  const OpeningBook book = small_book(game, 1, 4);
  const serve::Json d = report_data(book, *game, ReportOptions{});
  const serve::Json& r = d["positions"][d["root"].get<std::string>()];
  int unvisited = 0;
  for (const auto& m : r["moves"]) {
    if (m["visits"].get<int>() > 0) {
      EXPECT_TRUE(m.contains("q")) << m.dump();
      EXPECT_TRUE(m.contains("value")) << m.dump();
    } else {
      ++unvisited;
      EXPECT_FALSE(m.contains("q")) << m.dump();
      EXPECT_FALSE(m.contains("value")) << m.dump();
    }
  }
  EXPECT_EQ(unvisited, 4) << r.dump();
}

TEST(BookReport, HidesRarePositionsKnownOnlyFromGames) {
  GamePtr game = load_game("seize-v0");
  OpeningBook book = small_book(game, 2);
  auto s = game->initial_state();
  std::vector<Action> legal;
  s->legal_actions(legal);
  s->apply(legal.back());
  s->legal_actions(legal);
  s->apply(legal.front());
  BookPosition& rare = book.at(*s);
  rare.mutable_stats()->set_games(3);
  ReportOptions o;
  o.min_games = 4;
  EXPECT_EQ(report_data(book, *game, o)["positions"].size(), 2u);
  o.min_games = 3;
  EXPECT_EQ(report_data(book, *game, o)["positions"].size(), 3u);
}

TEST(BookReport, MaxPliesKeepsPositionsNearTheRoot) {
  GamePtr game = load_game("seize-v0");
  const OpeningBook book = small_book(game, 12);
  const serve::Json all = report_data(book, *game, ReportOptions{});
  ReportOptions o;
  o.max_plies = 0;
  const serve::Json root_only = report_data(book, *game, o);
  ASSERT_EQ(root_only["positions"].size(), 1u);
  for (const auto& m : root_only["positions"][root_only["root"].get<std::string>()]["moves"]) {
    EXPECT_FALSE(m.contains("child")) << "no link to a position left out";
  }
  o.max_plies = 1;
  const serve::Json near = report_data(book, *game, o);
  const serve::Json& r = near["positions"][near["root"].get<std::string>()];
  std::set<std::string> children{near["root"].get<std::string>()};
  for (const auto& m : r["moves"]) {
    if (m.contains("child")) children.insert(m["child"].get<std::string>());
  }
  EXPECT_GT(near["positions"].size(), 1u);
  for (const auto& [k, p] : near["positions"].items()) EXPECT_TRUE(children.count(k)) << k;
  EXPECT_LE(near["positions"].size(), all["positions"].size());
  EXPECT_EQ(near["header"]["maxPlies"], 1);
  // Deep enough: the same as no limit.
  o.max_plies = 100;
  EXPECT_EQ(report_data(book, *game, o)["positions"].size(), all["positions"].size());
}

TEST(BookReport, IsOnePageWithTheBoardScript) {
  GamePtr game = load_game("seize-v0");
  OpeningBook book = small_book(game, 3);
  book.header().set_model_id("</script><b>x");  // must not end the data early
  const std::string html = report_html(book, *game, ReportOptions{});
  EXPECT_NE(html.find("export function drawBoard"), std::string::npos);
  EXPECT_EQ(html.find("</script><b>"), std::string::npos);
  EXPECT_NE(html.find("<\\/script><b>x"), std::string::npos);
  EXPECT_EQ(html.find("src="), std::string::npos) << "the page loads nothing else";
}

TEST(BookReport, RefusesADamagedPosition) {
  GamePtr game = load_game("seize-v0");
  OpeningBook book = small_book(game, 2);
  book.at_hash(12345, "not a position", 0).set_searched(true);
  EXPECT_THROW(report_data(book, *game, ReportOptions{}), BookError);
}

}  // namespace
}  // namespace pincer::book
