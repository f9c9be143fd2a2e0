// SGN records: the seed's sample game, fingerprint refusal, move errors, round trips.
#include "engine/record.h"

#include <gtest/gtest.h>

#include <fstream>

#include "engine/registry.h"
#include "tests/support/errors.h"
#include "tests/support/random_games.h"

namespace pincer {
namespace {

using ::pincer::testing::error_of;

std::string movetext(const std::string& sgn) { return sgn.substr(sgn.find("\n\n") + 2); }

std::string sample(const std::string& fingerprint,
                   const std::string& moves = "1. c2 b6 2. c1 a6 3. cb2 ab7") {
  return "[Event \"SE!ZE launch\"]\n[Ruleset \"seize-v0\"]\n[Fingerprint \"" + fingerprint +
         "\"]\n\n" + moves + "\n";
}

TEST(Record, SeedSampleGameReplaysAndIsWrittenBackTheSame) {
  const GamePtr game = load_game("seize-v0");
  const auto records = parse_sgn(sample(game->fingerprint()));
  ASSERT_EQ(records.size(), 1u);
  EXPECT_EQ(records[0].header("Event"), "SE!ZE launch");
  const ReplayedGame g = replay_record(records[0]);
  EXPECT_EQ(g.actions.size(), 6u);
  const std::string out = write_sgn(*g.game, *g.start, g.actions, records[0].headers);
  EXPECT_EQ(movetext(out), "1. c2 b6 2. c1 a6 3. cb2 ab7\n");
  EXPECT_NE(out.find("[Event \"SE!ZE launch\"]"), std::string::npos);
  EXPECT_NE(out.find("[Result \"*\"]"), std::string::npos);
}

// The seed's own fingerprint (425c2910ba701777) is of its site's rules, not ours: refused,
// naming both.
TEST(Record, OtherFingerprintIsRefusedNamingBoth) {
  const GamePtr game = load_game("seize-v0");
  const std::string err = error_of([] { replay_record(parse_sgn(sample("425c2910ba701777"))[0]); });
  EXPECT_NE(err.find("425c2910ba701777"), std::string::npos) << err;
  EXPECT_NE(err.find(game->fingerprint()), std::string::npos) << err;
  EXPECT_NE(error_of([] {
              replay_record(parse_sgn("[Ruleset \"seize-v0\"]\n\n1. c2\n")[0]);
            }).find("no Fingerprint"),
            std::string::npos);
  EXPECT_NE(error_of([] {
              replay_record(parse_sgn("[Ruleset \"seize-v9\"]\n[Fingerprint \"0\"]\n\n1. c2\n")[0]);
            }).find("unknown ruleset"),
            std::string::npos);
  EXPECT_NE(
      error_of([] { replay_record(parse_sgn("[Event \"x\"]\n\n1. c2\n")[0]); }).find("no Ruleset"),
      std::string::npos);
}

TEST(Record, BadMovesAreRefusedWithTheirNumber) {
  const std::string fp = load_game("seize-v0")->fingerprint();
  const std::string ambiguous =
      error_of([&] { replay_record(parse_sgn(sample(fp, "1. c2 b6 2. c1 a6 3. b2"))[0]); });
  EXPECT_NE(ambiguous.find("move 3. b2"), std::string::npos) << ambiguous;
  EXPECT_NE(ambiguous.find("c1-b2, d4-b2"), std::string::npos) << ambiguous;
  const std::string illegal =
      error_of([&] { replay_record(parse_sgn(sample(fp, "1. c2 b6 2. c1 h1"))[0]); });
  EXPECT_NE(illegal.find("move 2... h1"), std::string::npos) << illegal;
}

TEST(Record, ResultMustMatchTheMoves) {
  const std::string fp = load_game("seize-v0")->fingerprint();
  const std::string text =
      "[Ruleset \"seize-v0\"]\n[Fingerprint \"" + fp + "\"]\n[Result \"ivory\"]\n\n1. c2\n";
  EXPECT_NE(error_of([&] { replay_record(parse_sgn(text)[0]); }).find("Result"), std::string::npos);
}

TEST(Record, SyntaxErrors) {
  EXPECT_NE(error_of([] { parse_sgn("[Event SE!ZE]\n"); }).find("line 1"), std::string::npos);
  EXPECT_NE(
      error_of([] { parse_sgn("[Event \"x\"]\n\n1. c2 {never closed\n"); }).find("never closed"),
      std::string::npos);
  // Comments and result markers are skipped; several games in one file.
  const auto two = parse_sgn(
      "[Event \"a\"]\n\n1. c2 {a comment} b6 *\n\n[Event \"b\"]\n\n1.c2 ; rest of line\n");
  ASSERT_EQ(two.size(), 2u);
  EXPECT_EQ(two[0].moves, (std::vector<std::string>{"c2", "b6"}));
  EXPECT_EQ(two[1].moves, (std::vector<std::string>{"c2"}));
  EXPECT_EQ(two[1].first_line, 5);
}

// Random finished games, from the start and from a set-up position, survive write + read.
TEST(Record, RoundTripsRandomGames) {
  for (const char* rules : {"seize-reference", "seize-v0"}) {
    const GamePtr game = load_game(rules);
    for (uint64_t seed = 1; seed <= 25; ++seed) {
      std::unique_ptr<State> start = game->initial_state();
      if (seed % 5 == 0) {  // a set-up start: a few random plies in
        testing::play_random_game(*game->initial_state(), seed * 7, 6,
                                  [&](const State& s, Action a) {
                                    if (a < 0) start = s.clone();
                                  });
      }
      std::vector<Action> actions;
      std::unique_ptr<State> final;
      testing::play_random_game(*start, seed, 800, [&](const State& s, Action a) {
        if (a >= 0)
          actions.push_back(a);
        else
          final = s.clone();
      });
      const std::string text =
          write_sgn(*game, *start, actions, {{"Event", "test"}, {"Round", std::to_string(seed)}});
      const auto records = parse_sgn(text);
      ASSERT_EQ(records.size(), 1u);
      const ReplayedGame back = replay_record(records[0]);
      EXPECT_EQ(back.actions, actions) << text;
      EXPECT_TRUE(back.final->equals(*final));
      EXPECT_TRUE(back.start->equals(*start));
      EXPECT_EQ(records[0].header("Result"), result_text(*game, *final));
    }
  }
}

}  // namespace
}  // namespace pincer
