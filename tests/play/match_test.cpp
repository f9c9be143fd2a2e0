// Matches: colours swapped in pairs from shared openings, reproducible from a seed whatever the
// number of threads, SPRT stopping, records.
#include "play/match.h"

#include <gtest/gtest.h>

#include "engine/record.h"
#include "engine/registry.h"
#include "tests/support/tictactoe.h"

namespace pincer {
namespace {

MatchResult small_match(int threads, uint64_t seed, int games = 8) {
  const GamePtr game = load_game("seize-reference");
  MatchOptions o;
  o.games = games;
  o.threads = threads;
  o.seed = seed;
  o.opening_plies = 4;
  return run_match(game, "alphabeta:depth=1", "random", o);
}

TEST(Match, ColoursSwapInPairsFromTheSameOpening) {
  const MatchResult r = small_match(1, 3);
  ASSERT_EQ(r.games.size(), 8u);
  for (size_t i = 0; i < r.games.size(); i += 2) {
    const MatchGame& x = r.games[i];
    const MatchGame& y = r.games[i + 1];
    EXPECT_EQ(x.index, static_cast<int>(i));
    EXPECT_EQ(x.a_player, 0);
    EXPECT_EQ(y.a_player, 1);
    EXPECT_EQ(x.spec[0], "alphabeta:depth=1");
    EXPECT_EQ(x.spec[1], "random");
    EXPECT_EQ(y.spec[0], "random");
    EXPECT_EQ(y.spec[1], "alphabeta:depth=1");
    ASSERT_EQ(x.opening_plies, 4);
    ASSERT_EQ(y.opening_plies, 4);
    EXPECT_TRUE(std::equal(x.actions.begin(), x.actions.begin() + 4, y.actions.begin()));
  }
  // Different pairs open differently.
  EXPECT_FALSE(std::equal(r.games[0].actions.begin(), r.games[0].actions.begin() + 4,
                          r.games[2].actions.begin()));
  EXPECT_EQ(r.games_as[0], 4);
  EXPECT_EQ(r.games_as[1], 4);
  EXPECT_EQ(r.wins + r.draws + r.losses, 8);
  EXPECT_GE(r.wins, 7);  // one ply of search with quiescence against random
}

TEST(Match, ReproducibleFromTheSeedWithAnyThreads) {
  const MatchResult a = small_match(1, 11), b = small_match(2, 11), c = small_match(1, 12);
  ASSERT_EQ(a.games.size(), b.games.size());
  for (size_t i = 0; i < a.games.size(); ++i) {
    EXPECT_EQ(a.games[i].actions, b.games[i].actions) << i;
    EXPECT_EQ(a.games[i].score_a, b.games[i].score_a);
  }
  EXPECT_NE(a.games[0].actions, c.games[0].actions);
}

TEST(Match, OpeningsAreNotDecided) {
  const GamePtr game = load_game("seize-reference");
  for (uint64_t seed = 0; seed < 30; ++seed) {
    const std::vector<Action> line = random_opening(*game, 8, seed);
    ASSERT_EQ(line.size(), 8u);
    auto s = game->initial_state();
    for (Action a : line) s->apply(a);
    EXPECT_FALSE(s->outcome().over);
  }
  EXPECT_TRUE(random_opening(*game, 0, 1).empty());
}

TEST(Match, SprtStopsEarly) {
  const GamePtr game = load_game("seize-reference");
  MatchOptions o;
  o.games = 200;
  o.threads = 2;
  o.sprt = SprtConfig{0, 50, 0.05, 0.05};
  const MatchResult r = run_match(game, "alphabeta:depth=1", "random", o);
  ASSERT_TRUE(r.sprt.has_value());
  EXPECT_EQ(r.sprt->decision, SprtDecision::kAcceptH1);
  EXPECT_TRUE(r.stopped_early);
  EXPECT_LT(r.games.size(), 200u);
  EXPECT_EQ(r.games.size() % 2, 0u);
}

TEST(Match, RecordsReplayToTheSameResult) {
  const GamePtr game = load_game("seize-reference");
  const MatchResult r = small_match(1, 5, 2);
  for (const MatchGame& g : r.games) {
    const std::string text = match_game_text(*game, g, "test");
    const std::vector<SgnRecord> records = parse_sgn(text);
    ASSERT_EQ(records.size(), 1u);
    const ReplayedGame replay = replay_record(records[0]);
    EXPECT_EQ(replay.actions, g.actions);
    EXPECT_EQ(records[0].header("Round"), std::to_string(g.index + 1));
  }
}

TEST(Match, BadOptionsAndSpecsAreRefused) {
  const GamePtr game = load_game("seize-reference");
  MatchOptions o;
  o.games = 0;
  EXPECT_THROW(run_match(game, "random", "random", o), std::invalid_argument);
  o.games = 2;
  o.threads = 0;
  EXPECT_THROW(run_match(game, "random", "random", o), std::invalid_argument);
  o.threads = 1;
  EXPECT_THROW(run_match(game, "random", "nosuchplayer", o), std::invalid_argument);
  EXPECT_THROW(run_match(game, "alphabeta:depth=x", "random", o), std::invalid_argument);
}

TEST(Match, WorksForAnyGame) {
  const GamePtr game = testing::make_tictactoe();
  MatchOptions o;
  o.games = 6;
  o.opening_plies = 1;
  const MatchResult r = run_match(game, "alphabeta:depth=9", "greedy", o);
  EXPECT_EQ(r.losses, 0);
  EXPECT_EQ(r.games.size(), 6u);
}

// A random-start game: each colour-swapped pair plays from one start drawn from the match seed,
// other pairs from other starts, the same seed gives the same starts, and each game's record
// carries its start and reads back.
TEST(Match, RandomStartsArePerPairAndInTheRecords) {
  const GamePtr game = load_game("dice-6x6");
  MatchOptions o;
  o.games = 6;
  o.seed = 11;
  o.opening_plies = 2;
  o.max_plies = 200;
  const MatchResult r = run_match(game, "greedy", "random", o);
  ASSERT_EQ(r.games.size(), 6u);
  for (size_t i = 0; i < r.games.size(); i += 2) {
    EXPECT_FALSE(r.games[i].start.empty());
    EXPECT_EQ(r.games[i].start, r.games[i + 1].start);
  }
  EXPECT_NE(r.games[0].start, r.games[2].start);
  EXPECT_EQ(run_match(game, "greedy", "random", o).games[4].start, r.games[4].start);
  const std::string sgn = match_game_text(*game, r.games[3], "test");
  EXPECT_NE(sgn.find("[Position \"" + r.games[3].start + "\"]"), std::string::npos);
  const ReplayedGame back = replay_record(parse_sgn(sgn).at(0));
  EXPECT_EQ(back.start->to_text(), r.games[3].start);

  // A given start: every pair plays from it.
  o.position = "35K612/21K543 b";
  const MatchResult fixed = run_match(game, "greedy", "random", o);
  for (const MatchGame& g : fixed.games)
    EXPECT_EQ(g.start, "bakedc/bbbbbb/6/6/BBBBBB/CEKFAB b 0 0 0-0");
  o.position = "35K612";
  EXPECT_THROW(run_match(game, "greedy", "random", o), GameError);

  // A fixed-start game keeps its start and writes no Position header.
  const MatchResult seize = small_match(1, 3, 2);
  EXPECT_EQ(seize.games[0].start, "");
}

}  // namespace
}  // namespace pincer
