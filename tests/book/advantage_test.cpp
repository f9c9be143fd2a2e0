// The first mover's advantage (book/advantage.h): known counts give the normal interval computed
// here by hand, one-sided results a Wilson interval that is not zero width, a root without games
// says so, damaged counts are refused, the rankings follow the book and the games, and a small
// book of a shipped game carries the box in its report page and data. Over every start: games of
// the dice game from two starts are scored from each start's first mover in the text, the JSON
// and the page; games from one start, and books from before, add nothing to the line.
#include "book/advantage.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <random>

#include "book/build.h"
#include "book/report.h"
#include "book/stats.h"
#include "engine/registry.h"
#include "mcts/evaluators.h"
#include "tests/support/tictactoe.h"

namespace pincer::book {
namespace {

using pincer::testing::make_tictactoe;

constexpr double kZ = 1.959963984540054;

GameStats counts(uint64_t wins0, uint64_t draws, uint64_t wins1, uint64_t unfinished = 0) {
  GameStats s;
  s.set_games(wins0 + draws + wins1 + unfinished);
  s.set_wins0(wins0);
  s.set_wins1(wins1);
  s.set_draws(draws);
  return s;
}

OpeningBook built(const GamePtr& game, int64_t positions, int visits = 16) {
  mcts::UniformEvaluator eval;
  OpeningBook book(*game);
  BuildOptions o;
  o.positions = positions;
  o.search.simulations = visits;
  o.evaluator_id = "uniform";
  build(book, game, *game->initial_state(), eval, o);
  return book;
}

BookPosition& root_of(OpeningBook& book) { return *book.find(book.header().root_hash()); }

TEST(FirstMoverAdvantage, KnownCountsGiveTheNormalInterval) {
  // 60 wins, 0 draws, 40 losses: score 0.6, one game's variance (60 * 0.4^2 + 40 * 0.6^2) / 100
  // = 0.24, half width 1.96 * sqrt(0.24 / 100) = 0.0960.
  const MoverGames g = mover_games(counts(60, 0, 40), 0);
  EXPECT_EQ(g.wins, 60u);
  EXPECT_EQ(g.losses, 40u);
  EXPECT_EQ(g.score.games, 100);
  EXPECT_DOUBLE_EQ(g.score.score, 0.6);
  const double half = kZ * std::sqrt(0.24 / 100);
  EXPECT_NEAR(half, 0.0960, 1e-4);
  EXPECT_NEAR(g.score.score_low, 0.6 - half, 1e-12);
  EXPECT_NEAR(g.score.score_high, 0.6 + half, 1e-12);
  EXPECT_NEAR(g.score.score_low, 0.50398, 1e-5);
  EXPECT_NEAR(g.score.score_high, 0.69602, 1e-5);

  // The same games from the second player's view.
  const MoverGames h = mover_games(counts(60, 0, 40), 1);
  EXPECT_DOUBLE_EQ(h.score.score, 0.4);
  EXPECT_NEAR(h.score.score_low, 0.4 - half, 1e-12);
  EXPECT_NEAR(h.score.score_high, 0.4 + half, 1e-12);

  // With draws: 50 won, 20 drawn, 30 lost: score 0.6, variance (50*0.16 + 20*0.01 + 30*0.36) /
  // 100 = 0.19.
  const MoverGames d = mover_games(counts(50, 20, 30), 0);
  EXPECT_DOUBLE_EQ(d.score.score, 0.6);
  EXPECT_NEAR(d.score.score_low, 0.6 - kZ * std::sqrt(0.19 / 100), 1e-12);
  EXPECT_NEAR(d.score.score_high, 0.6 + kZ * std::sqrt(0.19 / 100), 1e-12);
}

TEST(FirstMoverAdvantage, OneSidedResultsGiveAWilsonInterval) {
  // 20 of 20 won: Wilson's lower bound (p + z²/2n - z sqrt(z²/4n²)) / (1 + z²/n) = 0.8389.
  const MoverGames w = mover_games(counts(20, 0, 0), 0);
  EXPECT_DOUBLE_EQ(w.score.score, 1.0);
  EXPECT_EQ(w.score.variance, 0.0);
  EXPECT_GT(w.score.score_low, 0.0);
  EXPECT_LT(w.score.score_low, 1.0);
  EXPECT_LE(w.score.score_high, 1.0);
  EXPECT_NEAR(w.score.score_low, 0.8389, 1e-4);
  EXPECT_EQ(w.score.score_high, 1.0);
  // All lost, from the winner's opponent: the mirror image.
  const MoverGames l = mover_games(counts(20, 0, 0), 1);
  EXPECT_EQ(l.score.score_low, 0.0);
  EXPECT_NEAR(l.score.score_high, 1 - 0.8389, 1e-4);
  // All drawn: 0.5 with a Wilson interval of nonzero width.
  const MoverGames d = mover_games(counts(0, 10, 0), 0);
  EXPECT_DOUBLE_EQ(d.score.score, 0.5);
  EXPECT_LT(d.score.score_low, 0.5);
  EXPECT_GT(d.score.score_high, 0.5);
  // One game won: still not a point.
  const MoverGames one = mover_games(counts(1, 0, 0), 0);
  EXPECT_GT(one.score.score_low, 0.0);
  EXPECT_LT(one.score.score_low, 0.5);

  OpeningBook book = built(make_tictactoe(), 4);
  *root_of(book).mutable_stats() = counts(20, 0, 0);
  const serve::Json j = advantage_json(first_mover_advantage(book, *make_tictactoe()));
  EXPECT_EQ(j["games"]["interval"], "wilson");
  EXPECT_EQ(j["games"]["high"], 1.0);
  EXPECT_GT(j["games"]["low"].get<double>(), 0.0);
}

TEST(FirstMoverAdvantage, UnfinishedGamesAreNotScored) {
  const MoverGames g = mover_games(counts(6, 0, 4, 5), 0);
  EXPECT_EQ(g.unfinished, 5u);
  EXPECT_EQ(g.score.games, 10);
  EXPECT_DOUBLE_EQ(g.score.score, 0.6);
  const MoverGames none = mover_games(counts(0, 0, 0, 3), 0);
  EXPECT_EQ(none.score.games, 0);
  EXPECT_EQ(none.unfinished, 3u);
}

TEST(FirstMoverAdvantage, RefusesDamagedCounts) {
  GameStats s = counts(3, 0, 2);
  s.set_wins0(9);  // more wins than games
  EXPECT_THROW(mover_games(s, 0), BookError);
  s = counts(3, 3, 3);
  s.set_games(5);  // results add up to more than the games
  EXPECT_THROW(mover_games(s, 1), BookError);
  GameStats huge;
  huge.set_games(uint64_t{1} << 40);
  EXPECT_THROW(mover_games(huge, 0), BookError);

  GamePtr game = make_tictactoe();
  OpeningBook book = built(game, 4);
  *root_of(book).mutable_moves(0)->mutable_stats() = s;
  EXPECT_THROW(first_mover_advantage(book, *game), BookError);
  root_of(book).set_to_move(7);
  EXPECT_THROW(first_mover_advantage(book, *game), BookError);
  // Such a file is refused when it is read, naming it.
  const std::string path = ::testing::TempDir() + "pincer-advantage-damaged.book";
  book.save(path);
  try {
    OpeningBook::load(path, *game);
    ADD_FAILURE() << "a side to move of 7 was read";
  } catch (const BookError& e) {
    EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("side to move 7"), std::string::npos) << e.what();
  }
  std::remove(path.c_str());
}

TEST(FirstMoverAdvantage, SaysSoWhenTheRootHasNoGames) {
  GamePtr game = make_tictactoe();
  const OpeningBook book = built(game, 4);
  const FirstMoverAdvantage a = first_mover_advantage(book, *game);
  ASSERT_TRUE(a.has_root);
  EXPECT_EQ(a.side, "x");  // the game's name for the side to move at the root
  EXPECT_EQ(a.games.score.games, 0);
  EXPECT_TRUE(a.by_games.empty());
  const std::string text = advantage_text(a);
  EXPECT_EQ(text.rfind("First mover: x: no games in the book at the root", 0), 0u) << text;
  EXPECT_NE(text.find("search says"), std::string::npos) << text;
  const serve::Json j = advantage_json(a);
  EXPECT_EQ(j["games"]["games"], 0);
  EXPECT_FALSE(j["games"].contains("score"));

  // No root position at all (an empty book): a clear state, not a crash.
  const OpeningBook empty(*game);
  const FirstMoverAdvantage e = first_mover_advantage(empty, *game);
  EXPECT_FALSE(e.has_root);
  EXPECT_EQ(advantage_text(e), "First mover: the book has no root position");
  EXPECT_FALSE(advantage_json(e)["hasRoot"].get<bool>());
}

TEST(FirstMoverAdvantage, RanksFirstMovesByTheBookAndByTheGames) {
  GamePtr game = make_tictactoe();
  // Proved from the start (docs/openings.md: 4,272 positions): a draw under best play.
  OpeningBook book = built(game, 5000);
  BookPosition& root = root_of(book);
  ASSERT_TRUE(root.solved());
  // Games: the first move played 30, 20 and 10 times with different results.
  *root.mutable_stats() = counts(34, 8, 18);
  *root.mutable_moves(0)->mutable_stats() = counts(10, 0, 0);
  *root.mutable_moves(1)->mutable_stats() = counts(12, 8, 10);
  *root.mutable_moves(2)->mutable_stats() = counts(12, 0, 8);
  const FirstMoverAdvantage a = first_mover_advantage(book, *game, 3);
  EXPECT_EQ(a.games.score.games, 60);
  EXPECT_NEAR(a.games.score.score, (34 + 4) / 60.0, 1e-12);
  ASSERT_TRUE(a.book_score && a.search_score);
  EXPECT_DOUBLE_EQ(*a.book_score, 0.5);  // the proved draw
  EXPECT_TRUE(a.proved);
  EXPECT_NEAR(*a.search_score, root.wdl(0) + root.wdl(1) / 2, 1e-6);

  ASSERT_EQ(a.by_search.size(), 3u);
  for (size_t i = 1; i < a.by_search.size(); ++i) {
    EXPECT_GE(*a.by_search[i - 1].value, *a.by_search[i].value);
  }
  EXPECT_FLOAT_EQ(*a.by_search[0].value, root.value());  // the best move is the root's value

  ASSERT_EQ(a.by_games.size(), 3u);
  EXPECT_EQ(a.by_games[0].move, root.moves(1).text());  // 30 games
  EXPECT_EQ(a.by_games[1].move, root.moves(2).text());  // 20
  EXPECT_EQ(a.by_games[2].move, root.moves(0).text());  // 10
  EXPECT_DOUBLE_EQ(a.by_games[1].games.score.score, 0.6);

  const std::string text = advantage_text(a);
  EXPECT_EQ(text.rfind("First mover: x scores 63.3% [", 0), 0u) << text;
  EXPECT_NE(text.find("over 60 games"), std::string::npos) << text;
  EXPECT_NE(text.find("search says"), std::string::npos) << text;
  EXPECT_NE(text.find("book minimax 50.0%, proved"), std::string::npos) << text;
  EXPECT_NE(text.find("best first moves by search: " + a.by_search[0].move), std::string::npos)
      << text;
  EXPECT_NE(text.find("by games: " + root.moves(1).text() + " 53.3%"), std::string::npos) << text;
}

TEST(FirstMoverAdvantage, LeavesOutMovesWithoutAValueAndCountsRarelyPlayedOnes) {
  GamePtr game = make_tictactoe();
  OpeningBook book = built(game, 4);
  BookPosition& root = root_of(book);
  // A move neither visited nor in the book: its q is no value.
  BookMove* unvisited = nullptr;
  for (BookMove& m : *root.mutable_moves()) {
    const BookPosition* c = book.find(m.child_hash());
    if (!c || !c->searched()) unvisited = &m;
  }
  ASSERT_NE(unvisited, nullptr);
  unvisited->set_visits(0);
  *unvisited->mutable_stats() = counts(2, 0, 1);
  *root.mutable_moves(0)->mutable_stats() = counts(8, 2, 5);
  *root.mutable_stats() = counts(10, 2, 6);
  const FirstMoverAdvantage a = first_mover_advantage(book, *game, 9);
  EXPECT_EQ(a.by_search.size(), static_cast<size_t>(root.moves_size() - 1));
  for (const FirstMove& m : a.by_search) EXPECT_NE(m.move, unvisited->text());
  ASSERT_EQ(a.by_games.size(), 2u);  // both played moves, most played first
  EXPECT_EQ(a.by_games[1].move, unvisited->text());
  EXPECT_FALSE(a.by_games[1].value.has_value());
  const std::string text = advantage_text(a);
  EXPECT_NE(text.find("by games: " + root.moves(0).text() + " 60.0% ["), std::string::npos) << text;
  EXPECT_NE(text.find("in 15 games, 1 other move with fewer than 10 games"), std::string::npos)
      << text;
}

// A shipped game, a small book and random games through it: the page, its data and the text all
// carry the first mover's box.
TEST(FirstMoverAdvantage, ASmallBookOfARealGameShowsTheBox) {
  GamePtr game = load_game("seega-5x5");
  OpeningBook book = built(game, 8, 8);
  StatsCollector stats(*game, StatsOptions{8, 1});
  std::mt19937 rng(7);
  std::vector<Action> legal;
  for (int i = 0; i < 30; ++i) {
    auto s = game->initial_state();
    std::vector<Action> actions;
    for (int ply = 0; ply < 200 && !s->outcome().over; ++ply) {
      s->legal_actions(legal);
      const Action a = legal[rng() % legal.size()];
      s->apply(a);
      actions.push_back(a);
    }
    const Outcome o = s->outcome();
    stats.add_game(*game->initial_state(), actions, o.over, o.winner);
  }
  stats.merge_into(book);
  // A book with the games only (never built): its root is the game's start.
  OpeningBook games_only(*game);
  stats.merge_into(games_only);
  const FirstMoverAdvantage g = first_mover_advantage(games_only, *game);
  ASSERT_TRUE(g.has_root);
  EXPECT_FALSE(g.search_score.has_value());
  EXPECT_TRUE(g.by_search.empty());
  EXPECT_NE(advantage_text(g).find("the root is not searched"), std::string::npos);
  const serve::Json gd = report_data(games_only, *game, ReportOptions{});
  EXPECT_TRUE(gd["positions"].contains(gd["root"].get<std::string>())) << "the page has a root";
  const FirstMoverAdvantage a = first_mover_advantage(book, *game);
  const std::string side = game->side_name(game->initial_state()->to_move());
  EXPECT_EQ(a.side, side);
  const uint64_t finished = a.games.wins + a.games.draws + a.games.losses;
  EXPECT_EQ(finished + a.games.unfinished, 30u);
  EXPECT_FALSE(a.by_games.empty());
  EXPECT_FALSE(a.by_search.empty());

  const serve::Json d = report_data(book, *game, ReportOptions{});
  EXPECT_EQ(d["firstMover"]["side"], side);
  EXPECT_EQ(d["firstMover"]["text"], advantage_text(a));
  const std::string html = report_html(book, *game, ReportOptions{});
  const std::string box = "<p id=\"first-mover\" class=\"first-mover\">First mover: " + side;
  EXPECT_NE(html.find(box), std::string::npos);
  if (finished > 0) {
    EXPECT_NE(html.find(" scores "), std::string::npos);
    EXPECT_NE(html.find("over " + std::to_string(finished) + " game"), std::string::npos);
  }
}

// A self-play record of the dice game from `start` (a setup string) with no moves and `winner`.
GameRecord dice_record(const Game& game, const std::string& start, int winner) {
  GameRecord r;
  r.set_fingerprint(game.fingerprint());
  r.set_start(start);
  r.set_winner(winner);
  return r;
}

// Games of the dice game from two starts with different first movers, scored from each start's
// first mover: 55 won, 20 drawn, 25 lost over 100 games (player 0 won 45 and lost 35: another
// score, so the test tells the views apart).
TEST(FirstMoverEveryStart, ScoresTheGamesOfEveryStart) {
  GamePtr game = load_game("dice-7x7");
  ASSERT_TRUE(game->random_start());
  const std::string white_first = game->draw_setup(1), black_first = "354K612/216K543 b";
  ASSERT_EQ(game->parse_start(white_first)->to_move(), 0);
  ASSERT_EQ(game->parse_start(black_first)->to_move(), 1);
  StatsCollector stats(*game, StatsOptions{});
  const auto add = [&](const std::string& start, int winner, int n) {
    for (int i = 0; i < n; ++i) stats.add_record(dice_record(*game, start, winner));
  };
  add(white_first, 0, 30);   // won by white, who moved first
  add(white_first, 1, 10);   // lost
  add(white_first, -1, 10);  // cut at the move limit: drawn
  add(black_first, 1, 25);   // won by black, who moved first
  add(black_first, 0, 15);   // lost
  add(black_first, -1, 10);
  GameRecord reanalysis = dice_record(*game, black_first, 1);  // not a game: not counted
  reanalysis.mutable_reanalysis()->set_chunk("0000000000001-sp-000000.chunk");
  stats.add_record(reanalysis);
  EXPECT_EQ(stats.games(), 100u);
  EXPECT_EQ(stats.starts(), 2u);

  // A book of statistics only: a random-start game has no root, the header has every start.
  OpeningBook book(*game);
  stats.merge_into(book);
  const FirstMoverAdvantage a = first_mover_advantage(book, *game);
  EXPECT_FALSE(a.has_root);
  EXPECT_EQ(a.starts, 2u);
  EXPECT_EQ(a.every_start.wins, 55u);
  EXPECT_EQ(a.every_start.draws, 20u);
  EXPECT_EQ(a.every_start.losses, 25u);
  EXPECT_EQ(a.every_start.unfinished, 0u);
  EXPECT_EQ(a.every_start.score.games, 100);
  // Score 0.65; one game's variance (55 * 0.35² + 20 * 0.15² + 25 * 0.65²) / 100 = 0.1775.
  EXPECT_DOUBLE_EQ(a.every_start.score.score, 0.65);
  const double half = kZ * std::sqrt(0.1775 / 100);
  EXPECT_NEAR(a.every_start.score.score_low, 0.65 - half, 1e-12);
  EXPECT_NEAR(a.every_start.score.score_high, 0.65 + half, 1e-12);
  const std::string every =
      "; over every start (2 starts): the first mover scores 65.0% [56.7\u201373.3] over 100 "
      "games (55 won, 20 drawn, 25 lost)";
  EXPECT_EQ(advantage_text(a), "First mover: the book has no root position" + every);
  const serve::Json j = advantage_json(a);
  ASSERT_TRUE(j.contains("everyStart"));
  const serve::Json& e = j["everyStart"];
  EXPECT_EQ(e["games"], 100);
  EXPECT_EQ(e["wins"], 55);
  EXPECT_EQ(e["draws"], 20);
  EXPECT_EQ(e["losses"], 25);
  EXPECT_EQ(e["unfinished"], 0);
  EXPECT_EQ(e["starts"], 2);
  EXPECT_EQ(e["score"], 0.65);
  EXPECT_EQ(e["low"], round4(0.65 - half));
  EXPECT_EQ(e["high"], round4(0.65 + half));
  EXPECT_EQ(e["interval"], "normal");
  EXPECT_EQ(j["text"], advantage_text(a));
  // The report page's box is the text.
  const std::string html = report_html(book, *game, ReportOptions{});
  EXPECT_NE(html.find("<p id=\"first-mover\" class=\"first-mover\">First mover: the book has no "
                      "root position; over every start (2 starts): the first mover scores 65.0%"),
            std::string::npos);

  // A book grown from one of the starts (its root): the root's games are that start's only, from
  // white's view, and the line ends with every start's.
  const std::unique_ptr<State> root = game->parse_start(white_first);
  book.header().set_root(root->to_text());
  book.header().set_root_hash(root->hash());
  const FirstMoverAdvantage r = first_mover_advantage(book, *game);
  ASSERT_TRUE(r.has_root);
  EXPECT_EQ(r.side, "white");
  EXPECT_EQ(r.games.wins, 30u);
  EXPECT_EQ(r.games.draws, 10u);
  EXPECT_EQ(r.games.losses, 10u);
  const std::string text = advantage_text(r);
  EXPECT_EQ(text.rfind("First mover: white scores 70.0% [", 0), 0u) << text;
  EXPECT_NE(text.find("over 50 games (30 won, 10 drawn, 10 lost); the root is not searched"),
            std::string::npos)
      << text;
  ASSERT_GT(text.size(), every.size());
  EXPECT_EQ(text.substr(text.size() - every.size()), every) << text;
  EXPECT_EQ(advantage_json(r)["everyStart"], e);
}

TEST(FirstMoverEveryStart, SaysSoWhenNoGameOverEveryStartFinished) {
  GamePtr game = load_game("dice-7x7");
  StatsCollector stats(*game, StatsOptions{});
  stats.add_game(*game->start_state(1), {}, false, -1);
  stats.add_game(*game->start_state(2), {}, false, -1);
  OpeningBook book(*game);
  stats.merge_into(book);
  const FirstMoverAdvantage a = first_mover_advantage(book, *game);
  EXPECT_EQ(advantage_text(a),
            "First mover: the book has no root position; over every start (2 starts): no finished "
            "games (2 unfinished)");
  const serve::Json e = advantage_json(a)["everyStart"];
  EXPECT_EQ(e["games"], 0);
  EXPECT_EQ(e["unfinished"], 2);
  EXPECT_FALSE(e.contains("score"));
}

// Games from the one start of tic-tac-toe: the root's games say it all, so the line is the one a
// book from before every-start results gives (the header's fields absent), and the JSON carries
// the count only where the book has it.
TEST(FirstMoverEveryStart, OneStartAndOldBooksAddNothingToTheLine) {
  GamePtr game = make_tictactoe();
  OpeningBook book = built(game, 4);
  StatsCollector stats(*game, StatsOptions{});
  for (int winner : {0, 0, 1, -1}) stats.add_game(*game->initial_state(), {}, true, winner);
  stats.merge_into(book);
  ASSERT_EQ(book.header().start_hashes_size(), 1);
  const FirstMoverAdvantage a = first_mover_advantage(book, *game);
  EXPECT_EQ(a.starts, 1u);
  EXPECT_EQ(a.every_start.score.games, 4);
  const std::string text = advantage_text(a);
  EXPECT_EQ(text.find("every start"), std::string::npos) << text;
  const serve::Json j = advantage_json(a);
  EXPECT_EQ(j["everyStart"]["starts"], 1);
  EXPECT_EQ(j["everyStart"]["games"], j["games"]["games"]);

  // The same book from before the fields: the same line, no everyStart.
  OpeningBook old = book;
  old.header().clear_every_start();
  old.header().clear_start_hashes();
  const std::string path = ::testing::TempDir() + "pincer-advantage-old.book";
  old.save(path);
  const OpeningBook loaded = OpeningBook::load(path, *game);
  std::remove(path.c_str());
  const FirstMoverAdvantage o = first_mover_advantage(loaded, *game);
  EXPECT_EQ(o.starts, 0u);
  EXPECT_EQ(o.every_start.score.games, 0);
  EXPECT_EQ(o.every_start.unfinished, 0u);
  EXPECT_EQ(advantage_text(o), text);
  serve::Json without = j;
  without.erase("everyStart");
  EXPECT_EQ(advantage_json(o), without);
}

TEST(FirstMoverEveryStart, RefusesDamagedCounts) {
  GamePtr game = make_tictactoe();
  OpeningBook book = built(game, 4);
  MoverStats& all = *book.header().mutable_every_start();
  const auto refused = [&](const std::string& why) {
    try {
      first_mover_advantage(book, *game);
      ADD_FAILURE() << "accepted: " << why;
    } catch (const BookError& e) {
      EXPECT_NE(std::string(e.what()).find("damaged book"), std::string::npos) << e.what();
    }
  };
  all.set_games(5);
  all.set_wins(3);
  all.set_draws(2);
  all.set_losses(1);  // 6 results in 5 games
  refused("more results than games");
  all.set_losses(0);
  all.set_wins(9);  // more wins than games
  refused("more wins than games");
  all.set_wins(0);
  all.set_draws(uint64_t{1} << 63);  // would wrap the sum
  all.set_losses(uint64_t{1} << 63);
  refused("results that wrap around");
  all.Clear();
  all.set_games(uint64_t{1} << 40);  // more than estimate_score counts
  refused("too many games");
  all.Clear();
  all.set_games(2);
  for (uint64_t h : {1, 2, 3}) book.header().add_start_hashes(h);  // 3 starts for 2 games
  refused("more starts than games");
  book.header().clear_start_hashes();
  // Two games without a result are no damage.
  EXPECT_EQ(first_mover_advantage(book, *game).every_start.unfinished, 2u);
}

}  // namespace
}  // namespace pincer::book
