// The opening book: built on tic-tac-toe it finds the game's exact values; transpositions are one
// entry; game statistics are counted from hand-written records; other rules are refused; an
// interrupted build resumes to the same book.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <unordered_map>

#include "book/alphabeta_search.h"
#include "book/build.h"
#include "book/stats.h"
#include "engine/registry.h"
#include "mcts/evaluators.h"
#include "tests/book/helpers.h"
#include "tests/support/tictactoe.h"

namespace pincer::book {
namespace {

using pincer::testing::make_tictactoe;
using testing::after;
using testing::scratch_path;

// Exact negamax value for the side to move (players may not alternate in general; here they do).
int solve(const State& s, std::unordered_map<uint64_t, int>& memo) {
  auto it = memo.find(s.hash());
  if (it != memo.end()) return it->second;
  const Outcome o = s.outcome();
  int best = -2;
  if (o.over) {
    best = o.winner < 0 ? 0 : (o.winner == s.to_move() ? 1 : -1);
  } else {
    std::vector<Action> legal;
    s.legal_actions(legal);
    for (Action a : legal) {
      auto c = s.clone();
      c->apply(a);
      const int v = solve(*c, memo);
      best = std::max(best, c->to_move() == s.to_move() ? v : -v);
    }
  }
  return memo[s.hash()] = best;
}

BuildOptions options(int64_t positions) {
  BuildOptions o;
  o.positions = positions;
  o.search.simulations = 16;
  o.evaluator_id = "uniform";
  return o;
}

void expect_exact(const OpeningBook& book, const State& root) {
  std::unordered_map<uint64_t, int> memo;
  const BookPosition* pos = book.find(root.hash());
  ASSERT_NE(pos, nullptr);
  EXPECT_TRUE(pos->solved());
  EXPECT_EQ(pos->value(), solve(root, memo)) << root.to_text();
  std::vector<Action> legal;
  root.legal_actions(legal);
  ASSERT_EQ(pos->moves_size(), static_cast<int>(legal.size()));
  for (const BookMove& m : pos->moves()) {
    auto child = root.clone();
    child->apply(m.action());
    const int exact = -solve(*child, memo);
    const BookPosition* c = book.find(m.child_hash());
    if (c && c->solved()) {
      EXPECT_EQ(move_value(book, *pos, m), exact) << root.to_text() << " " << m.text();
    } else {
      // A move left unproved (or never expanded) is allowed only when the position is proved won
      // through another move: the build may prove the win before it expands the others.
      EXPECT_EQ(pos->value(), 1.0f) << m.text();
    }
  }
}

TEST(BookBuild, FindsExactValuesOfTicTacToe) {
  GamePtr game = make_tictactoe();
  mcts::UniformEvaluator eval;
  OpeningBook book(*game);
  auto root = game->initial_state();
  const BuildSummary s = build(book, game, *root, eval, options(6000));
  EXPECT_TRUE(s.exhausted);  // the start is proved before 6000 positions
  std::printf("tic-tac-toe proved with %zu positions\n", book.size());
  EXPECT_LE(book.size(), 5478u);  // tic-tac-toe's reachable positions
  expect_exact(book, *root);
  const BookPosition* start = book.find(root->hash());
  EXPECT_EQ(start->value(), 0.0f);
  // Every first move draws, and the proof covers each of them.
  for (const BookMove& m : start->moves()) EXPECT_TRUE(book.find(m.child_hash())->solved());
  // The build's incremental back-up agrees with a full one.
  OpeningBook full = book;
  back_up(full);
  for (const auto& [hash, p] : book.positions()) {
    EXPECT_EQ(full.find(hash)->value(), p.value()) << p.text();
    EXPECT_EQ(full.find(hash)->solved(), p.solved()) << p.text();
  }
}

TEST(BookBuild, FindsWinsAndLossesFromAPosition) {
  GamePtr game = make_tictactoe();
  mcts::UniformEvaluator eval;
  // x a1, o b1: x to move wins with several moves and only draws with others.
  auto root = after(*game, {"a1", "b1"});
  OpeningBook book(*game);
  build(book, game, *root, eval, options(3000));
  expect_exact(book, *root);
  EXPECT_EQ(book.find(root->hash())->value(), 1.0f);
  // o to move after x b2 (x forks next): a proved loss for o, every move of which loses.
  auto lost = after(*game, {"a1", "b1", "b2"});
  OpeningBook loss_book(*game);
  build(loss_book, game, *lost, eval, options(3000));
  expect_exact(loss_book, *lost);
  EXPECT_EQ(loss_book.find(lost->hash())->value(), -1.0f);
}

TEST(BookAlphaBeta, ScoresEveryMoveExactlyWhenDeepEnough) {
  GamePtr game = make_tictactoe();
  AlphaBetaBookOptions o;
  o.depth = 9;  // to the end of every tic-tac-toe game: wins, losses and draws are exact
  AlphaBetaBookSearch search(*game, o);
  std::unordered_map<uint64_t, int> memo;
  for (const auto& moves :
       std::vector<std::vector<std::string>>{{}, {"a1", "b1"}, {"a1", "b1", "b2"}}) {
    auto root = after(*game, moves);
    const mcts::SearchResult r = search.search(*root);
    std::vector<Action> legal;
    root->legal_actions(legal);
    ASSERT_EQ(r.actions.size(), legal.size());
    float best = -2;
    for (size_t i = 0; i < r.actions.size(); ++i) {
      auto child = root->clone();
      child->apply(r.actions[i]);
      EXPECT_EQ(r.q[i], -solve(*child, memo)) << root->to_text() << " " << i;
      EXPECT_GE(r.visits[i], 1u);
      best = std::max(best, r.q[i]);
    }
    EXPECT_EQ(r.wdl[0] - r.wdl[2], best);
    EXPECT_EQ(best, solve(*root, memo));
  }
}

TEST(BookAlphaBeta, BuildsABookWithTheClassicalSearch) {
  GamePtr game = make_tictactoe();
  AlphaBetaBookOptions abo;
  abo.depth = 9;
  auto search = std::make_shared<AlphaBetaBookSearch>(*game, abo);
  BuildOptions o = options(40);
  o.evaluator_id = "alphabeta:depth=9";
  o.searcher = [search](const State& s) { return search->search(s); };
  mcts::UniformEvaluator unused;
  OpeningBook book(*game);
  auto root = after(*game, {"a1", "b1"});
  build(book, game, *root, unused, o);
  EXPECT_EQ(book.searched(), 40u);
  // x wins from here: the book's value and its best line say so.
  EXPECT_EQ(book.find(root->hash())->value(), 1.0f);
  const auto line = main_line(book, root->hash());
  ASSERT_FALSE(line.empty());
  auto s = root->clone();
  s->apply(line[0]->action());
  std::unordered_map<uint64_t, int> memo;
  EXPECT_EQ(solve(*s, memo), -1) << "the book's first move does not win";
}

TEST(BookBuild, ExpandsTheBestMoveFirst) {
  GamePtr game = make_tictactoe();
  mcts::RolloutEvaluator eval(16, 9, 3);
  auto root = after(*game, {"a1", "b1"});  // x to move: several wins, some draws
  OpeningBook book(*game);
  BuildOptions o = options(2);
  o.search.simulations = 200;
  build(book, game, *root, eval, o);
  ASSERT_EQ(book.searched(), 2u);
  const BookPosition* pos = book.find(root->hash());
  const BookMove* best = nullptr;
  for (const BookMove& m : pos->moves()) {
    if (!best || m.q() > best->q()) best = &m;
  }
  EXPECT_NE(book.find(best->child_hash()), nullptr) << "best " << best->text();
  // The book's value is now the best move's backed-up value.
  EXPECT_EQ(pos->value(), move_value(book, *pos, *best));
}

TEST(BookBuild, RefusesADamagedBook) {
  GamePtr game = make_tictactoe();
  mcts::UniformEvaluator eval;
  OpeningBook book(*game);
  auto root = game->initial_state();
  build(book, game, *root, eval, options(1));
  Book file;
  *file.mutable_header() = book.header();
  BookPosition p = *book.find(root->hash());
  for (BookMove& m : *p.mutable_moves()) m.set_action(77);  // not a square
  *file.add_positions() = p;
  const std::string path = scratch_path("book", "damaged.book");
  std::string bytes;
  file.SerializeToString(&bytes);
  std::ofstream(path, std::ios::binary) << bytes;
  OpeningBook damaged = OpeningBook::load(path, *game);
  try {
    build(damaged, game, *root, eval, options(12));
    FAIL() << "a damaged book was built on";
  } catch (const BookError& e) {
    EXPECT_NE(std::string(e.what()).find("damaged book"), std::string::npos) << e.what();
  }
}

TEST(BookBuild, MergesTranspositions) {
  GamePtr game = make_tictactoe();
  mcts::UniformEvaluator eval;
  OpeningBook book(*game);
  build(book, game, *game->initial_state(), eval, options(400));
  auto a = after(*game, {"a1", "b1", "c1"});
  auto b = after(*game, {"c1", "b1", "a1"});
  ASSERT_EQ(a->hash(), b->hash());
  // Every stored child hash is unique per position, and no two entries hold the same position.
  std::set<std::string> texts;
  for (const auto& [hash, p] : book.positions()) {
    EXPECT_EQ(hash, p.hash());
    EXPECT_TRUE(texts.insert(p.text()).second) << p.text();
  }
  // Both lines lead to one entry, reached from both parents.
  auto pa = after(*game, {"a1", "b1"});
  auto pb = after(*game, {"c1", "b1"});
  int links = 0;
  for (const auto* parent : {book.find(pa->hash()), book.find(pb->hash())}) {
    if (!parent) continue;
    for (const BookMove& m : parent->moves()) links += m.child_hash() == a->hash();
  }
  EXPECT_EQ(links, (book.find(pa->hash()) != nullptr) + (book.find(pb->hash()) != nullptr));
}

TEST(BookBuild, SavesLoadsAndRefusesOtherRules) {
  GamePtr game = make_tictactoe();
  mcts::UniformEvaluator eval;
  OpeningBook book(*game);
  build(book, game, *game->initial_state(), eval, options(50));
  const std::string path = scratch_path("book", "refuse.book");
  book.save(path);
  OpeningBook again = OpeningBook::load(path, *game);
  EXPECT_EQ(again.size(), book.size());
  EXPECT_EQ(again.header().model_id(), "uniform");
  GamePtr other = load_game("seize-v0");
  try {
    OpeningBook::load(path, *other);
    FAIL() << "a book under another fingerprint was loaded";
  } catch (const BookError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find(game->fingerprint()), std::string::npos) << what;
    EXPECT_NE(what.find(other->fingerprint()), std::string::npos) << what;
  }
  // Another evaluator is refused too.
  BuildOptions o = options(60);
  o.evaluator_id = "some-model";
  EXPECT_THROW(build(again, game, *game->initial_state(), eval, o), BookError);
  // Garbage is refused with the file named.
  const std::string junk = scratch_path("book", "junk.book");
  std::ofstream(junk) << "not a book";
  EXPECT_THROW(OpeningBook::load(junk, *game), BookError);
}

TEST(BookBuild, ResumesAfterAnInterruptedBuild) {
  GamePtr game = make_tictactoe();
  mcts::UniformEvaluator eval;
  auto root = game->initial_state();
  OpeningBook whole(*game);
  build(whole, game, *root, eval, options(80));

  const std::string path = scratch_path("book", "resume.book");
  std::filesystem::remove(path);
  {
    OpeningBook book(*game);
    BuildOptions o = options(80);
    o.path = path;
    o.on_position = [](const OpeningBook& b, const BookPosition&) {
      if (b.searched() == 30) throw std::runtime_error("killed");
    };
    EXPECT_THROW(build(book, game, *root, eval, o), std::runtime_error);
  }
  OpeningBook resumed = OpeningBook::load(path, *game);
  EXPECT_EQ(resumed.searched(), 30u);  // nothing lost but the position being searched
  BuildOptions o = options(80);
  o.path = path;
  const BuildSummary s = build(resumed, game, *root, eval, o);
  EXPECT_EQ(s.added, 50);
  OpeningBook reread = OpeningBook::load(path, *game);
  ASSERT_EQ(reread.size(), whole.size());
  for (const auto& [hash, p] : whole.positions()) {
    const BookPosition* q = reread.find(hash);
    ASSERT_NE(q, nullptr) << p.text();
    EXPECT_EQ(q->value(), p.value()) << p.text();
    EXPECT_EQ(q->solved(), p.solved()) << p.text();
  }
}

TEST(BookStats, WilsonIntervals) {
  auto [lo, hi] = wilson_interval(1, 3);
  EXPECT_NEAR(lo, 0.0615, 1e-3);
  EXPECT_NEAR(hi, 0.7923, 1e-3);
  std::tie(lo, hi) = wilson_interval(0, 10);
  EXPECT_NEAR(lo, 0.0, 1e-9);
  EXPECT_NEAR(hi, 0.2775, 1e-3);
  std::tie(lo, hi) = wilson_interval(0, 0);
  EXPECT_EQ(lo, 0.0);
  EXPECT_EQ(hi, 1.0);
}

TEST(BookStats, CountsGamesFromRecords) {
  pincer::testing::register_tictactoe();
  const std::string rules = scratch_path("book", "tictactoe.textproto");
  std::ofstream(rules) << "game: \"tictactoe\"\nname: \"tictactoe\"\n";
  GamePtr game = load_game(rules);
  const std::string head =
      "[Ruleset \"" + rules + "\"]\n[Fingerprint \"" + game->fingerprint() + "\"]\n";
  const std::string sgn = head + "[Result \"x\"]\n\n1. a1 b1 2. a2 b2 3. a3\n\n" + head +
                          "[Result \"o\"]\n\n1. a1 b1 2. c3 b2 3. c1 b3\n\n" + head +
                          "[Result \"draw\"]\n\n1. b2 a1 2. c3 c1 3. b1 b3 4. a3 c2 5. a2\n\n" +
                          head + "\n1. a1 zz\n";  // an illegal move: reported, not counted
  StatsCollector stats(*game, StatsOptions{});
  std::vector<std::string> errors;
  EXPECT_EQ(stats.add_sgn(sgn, "games.sgn", errors), 3);
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_NE(errors[0].find("game 4"), std::string::npos) << errors[0];
  OpeningBook book(*game);
  stats.merge_into(book);
  const BookPosition* start = book.find(game->initial_state()->hash());
  ASSERT_NE(start, nullptr);
  EXPECT_EQ(start->stats().games(), 3u);
  EXPECT_EQ(start->stats().wins0(), 1u);
  EXPECT_EQ(start->stats().wins1(), 1u);
  EXPECT_EQ(start->stats().draws(), 1u);
  ASSERT_EQ(start->moves_size(), 2);  // a1 (twice) and b2
  for (const BookMove& m : start->moves()) {
    if (m.text() == "a1") {
      EXPECT_EQ(m.stats().games(), 2u);
      EXPECT_EQ(m.stats().wins0(), 1u);
      EXPECT_EQ(m.stats().wins1(), 1u);
    } else {
      EXPECT_EQ(m.text(), "b2");
      EXPECT_EQ(m.stats().draws(), 1u);
    }
  }
  const BookPosition* a1b1 = book.find(after(*game, {"a1", "b1"})->hash());
  ASSERT_NE(a1b1, nullptr);
  EXPECT_EQ(a1b1->stats().games(), 2u);
  EXPECT_EQ(book.header().records_read(), 3u);
  // Over every start: the three games from the one start, from x's view (x moves first).
  EXPECT_EQ(book.header().every_start().games(), 3u);
  EXPECT_EQ(book.header().every_start().wins(), 1u);
  EXPECT_EQ(book.header().every_start().draws(), 1u);
  EXPECT_EQ(book.header().every_start().losses(), 1u);
  ASSERT_EQ(book.header().start_hashes_size(), 1);
  EXPECT_EQ(book.header().start_hashes(0), game->initial_state()->hash());

  // A later build keeps the statistics of the positions it searches.
  mcts::UniformEvaluator eval;
  build(book, game, *game->initial_state(), eval, options(20));
  start = book.find(game->initial_state()->hash());
  EXPECT_TRUE(start->searched());
  EXPECT_EQ(start->moves_size(), 9);
  EXPECT_EQ(start->stats().games(), 3u);
  for (const BookMove& m : start->moves()) {
    EXPECT_EQ(m.stats().games(), m.text() == "a1" ? 2u : m.text() == "b2" ? 1u : 0u) << m.text();
  }

  // min_games: positions reached by fewer games are not created.
  StatsCollector strict(*game, StatsOptions{40, 2});
  strict.add_sgn(sgn, "games.sgn", errors);
  OpeningBook small(*game);
  strict.merge_into(small);
  EXPECT_EQ(small.size(), 3u);  // the start, a1 and a1 b1: the only ones two games reached
}

TEST(BookStats, CountsSelfPlayRecords) {
  GamePtr game = make_tictactoe();
  GameRecord r;
  r.set_fingerprint(game->fingerprint());
  auto start = game->initial_state();
  for (const char* m : {"b2", "a1", "c3"}) {
    auto s = after(*game, {});
    r.add_moves()->set_action(game->parse_action(*s, m));
  }
  r.set_winner(1);
  StatsCollector stats(*game, StatsOptions{});
  stats.add_record(r);
  r.set_winner(-1);
  stats.add_record(r);
  GameRecord bad = r;
  bad.mutable_moves(2)->set_action(4);  // b2 again: illegal
  EXPECT_THROW(stats.add_record(bad), GameError);
  GameRecord other = r;
  other.set_fingerprint("0123456789abcdef");
  EXPECT_THROW(stats.add_record(other), GameError);
  OpeningBook book(*game);
  stats.merge_into(book);
  const BookPosition* p = book.find(after(*game, {"b2", "a1"})->hash());
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->stats().games(), 2u);
  EXPECT_EQ(p->stats().wins1(), 1u);
  EXPECT_EQ(p->stats().draws(), 1u);
  ASSERT_EQ(p->moves_size(), 1);
  EXPECT_EQ(p->moves(0).text(), "c3");
}

// Every game counts in the header's every-start results from the view of the side to move at its
// own start, whatever its length (max_plies 0 counts positions at the start only), and its start
// counts once however many games began there and however many `stats` passes added them.
TEST(BookStats, TalliesEveryGameFromItsOwnStart) {
  GamePtr game = make_tictactoe();
  // Two starts: the game's (x to move) and the position after a1 (o to move), read back from its
  // text as a record's start is.
  const std::unique_ptr<State> x_first = game->initial_state();
  const std::unique_ptr<State> o_first = game->parse_start(after(*game, {"a1"})->to_text());
  ASSERT_EQ(x_first->to_move(), 0);
  ASSERT_EQ(o_first->to_move(), 1);
  const Action b2 = game->parse_action(*o_first, "b2");
  StatsCollector stats(*game, StatsOptions{0, 1});
  stats.add_game(*x_first, {b2}, true, 0);  // x moved first and won: a win
  stats.add_game(*x_first, {}, true, -1);   // a draw
  stats.add_game(*o_first, {b2}, true, 0);  // o moved first, x won: a loss
  stats.add_game(*o_first, {b2}, true, 1);  // o moved first and won: a win
  stats.add_game(*o_first, {}, false, -1);  // no result: a game only
  GameRecord cut;                           // a self-play game cut at the move limit: a draw
  cut.set_fingerprint(game->fingerprint());
  cut.set_start(o_first->to_text());
  cut.add_moves()->set_action(b2);
  cut.set_winner(-1);
  stats.add_record(cut);
  GameRecord again = cut;  // its reanalysis: not a game
  again.mutable_reanalysis()->set_chunk("0000000000001-sp-000000.chunk");
  stats.add_record(again);
  EXPECT_EQ(stats.games(), 6u);
  EXPECT_EQ(stats.starts(), 2u);
  EXPECT_EQ(stats.every_start().games(), 6u);
  EXPECT_EQ(stats.every_start().wins(), 2u);
  EXPECT_EQ(stats.every_start().draws(), 2u);
  EXPECT_EQ(stats.every_start().losses(), 1u);

  OpeningBook book(*game);
  stats.merge_into(book);
  const MoverStats& all = book.header().every_start();
  EXPECT_EQ(all.games(), 6u);
  EXPECT_EQ(all.wins(), 2u);
  EXPECT_EQ(all.draws(), 2u);
  EXPECT_EQ(all.losses(), 1u);
  EXPECT_EQ(book.header().records_read(), all.games());
  std::vector<uint64_t> starts{x_first->hash(), o_first->hash()};
  std::sort(starts.begin(), starts.end());
  EXPECT_EQ(std::vector<uint64_t>(book.header().start_hashes().begin(),
                                  book.header().start_hashes().end()),
            starts);

  // A second pass from a known start and a new one: the games add up, the starts are the union.
  const std::unique_ptr<State> third = game->parse_start(after(*game, {"b2"})->to_text());
  StatsCollector more(*game, StatsOptions{});
  more.add_game(*x_first, {}, true, 1);  // x moved first, o won: a loss
  more.add_game(*third, {}, true, 1);    // o moves first after b2 and won: a win
  more.merge_into(book);
  EXPECT_EQ(book.header().every_start().games(), 8u);
  EXPECT_EQ(book.header().every_start().wins(), 3u);
  EXPECT_EQ(book.header().every_start().losses(), 2u);
  ASSERT_EQ(book.header().start_hashes_size(), 3);
  EXPECT_TRUE(
      std::is_sorted(book.header().start_hashes().begin(), book.header().start_hashes().end()));

  // Kept by a save and load.
  const std::string path = scratch_path("book", "every-start.book");
  book.save(path);
  const OpeningBook loaded = OpeningBook::load(path, *game);
  EXPECT_EQ(loaded.header().every_start().SerializeAsString(),
            book.header().every_start().SerializeAsString());
  EXPECT_EQ(loaded.header().start_hashes_size(), 3);
}

// A reanalysis record (selfplay.reanalyse_share) repeats a stored game with new targets: the game
// counts once, as itself.
TEST(BookStats, SkipsReanalysisRecords) {
  GamePtr game = make_tictactoe();
  GameRecord r;
  r.set_fingerprint(game->fingerprint());
  for (const char* m : {"b2", "a1", "c3"}) {
    r.add_moves()->set_action(game->parse_action(*after(*game, {}), m));
  }
  r.set_winner(1);
  GameRecord again = r;
  again.mutable_reanalysis()->set_chunk("0000000000001-sp-000000.chunk");
  StatsCollector stats(*game, StatsOptions{});
  stats.add_record(r);
  stats.add_record(again);
  EXPECT_EQ(stats.games(), 1u);
  OpeningBook book(*game);
  stats.merge_into(book);
  const BookPosition* p = book.find(after(*game, {"b2"})->hash());
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->stats().games(), 1u);
}

}  // namespace
}  // namespace pincer::book
