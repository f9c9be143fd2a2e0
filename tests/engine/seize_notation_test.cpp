// SE!ZE notation: short moves, SFEN and the binary form, with round trips over random games.
#include <gtest/gtest.h>

#include "engine/registry.h"
#include "engine/seize/notation.h"
#include "engine/seize/seize_game.h"
#include "tests/support/errors.h"
#include "tests/support/random_games.h"

namespace pincer::seize {
namespace {

const Rules& rules_of(const GamePtr& g) { return static_cast<const SeizeGame&>(*g).rules(); }
const Position& pos_of(const State& s) { return static_cast<const SeizeState&>(s).position(); }

using ::pincer::testing::error_of;

TEST(SeizeNotation, StartPositionText) {
  EXPECT_EQ(load_game("seize-reference")->initial_state()->to_text(),
            "8/8/2gggg2/2gbbg2/2GBBG2/2GGGG2/8/8 r 0 0-0");
  EXPECT_EQ(load_game("seize-v0")->initial_state()->to_text(),
            "8/8/2gggg2/2gbbg2/2GBBG2/2GGGG2/8/8 i xc1+f1+a3xh3xa6+h6+c8xf8 0");
}

// Seed 001's sample game: `1. c2 b6 2. c1 a6 3. cb2 ab7` under v0, with the disambiguations it
// needs: b2 is reachable from c1 (x power) and from the boss on d4.
TEST(SeizeNotation, SeedSampleGameShortMoves) {
  const GamePtr game = load_game("seize-v0");
  auto s = game->initial_state();
  std::vector<std::string> written;
  for (const char* m : {"c2", "b6", "c1", "a6", "cb2", "ab7"}) {
    const Action a = game->parse_action(*s, m);
    written.push_back(game->action_text(*s, a, true));
    s->apply(a);
  }
  EXPECT_EQ(written, (std::vector<std::string>{"c2", "b6", "c1", "a6", "cb2", "ab7"}));
}

TEST(SeizeNotation, AllFourFormsAndErrors) {
  const GamePtr game = load_game("seize-v0");
  auto s = game->initial_state();
  for (const char* m : {"c2", "b6", "c1", "a6"}) s->apply(game->parse_action(*s, m));
  const Action want = game->parse_action(*s, "c1-b2");
  for (const char* form : {"cb2", "1b2", "c1b2", "C1-B2"})
    EXPECT_EQ(game->parse_action(*s, form), want) << form;
  EXPECT_EQ(error_of([&] { game->parse_action(*s, "b2"); }),
            "ambiguous move 'b2': candidates c1-b2, d4-b2");
  EXPECT_NE(error_of([&] { game->parse_action(*s, "h8"); }), "");  // a corner
  EXPECT_NE(error_of([&] { game->parse_action(*s, "e8"); }), "");  // nobody reaches it
  EXPECT_NE(error_of([&] { game->parse_action(*s, "zz9"); }), "");
  EXPECT_NE(error_of([&] { game->parse_action(*s, ""); }), "");
  EXPECT_NE(error_of([&] { game->parse_action(*s, "c1-b2-b3"); }), "");
  EXPECT_NE(error_of([&] { game->parse_action(*s, "c1--b2"); }), "");
}

TEST(SeizeNotation, WriterUsesTheShortestUnambiguousForm) {
  const GamePtr game = load_game("seize-reference");
  auto s = game->parse_state("8/2b2b2/g7/7g/2B1B3/8/2G5/8 g 0 0-0");
  // Gold to move: c4 boss and e4 boss both reach d5 (diagonals), and c4/c2 both reach c3.
  EXPECT_EQ(game->action_text(*s, game->parse_action(*s, "c4-d5"), true), "cd5");
  EXPECT_EQ(game->action_text(*s, game->parse_action(*s, "c4-c3"), true), "4c3");
  EXPECT_EQ(game->action_text(*s, game->parse_action(*s, "c2-b1"), true), "b1");
}

TEST(SeizeNotation, SfenRoundTripsOverRandomGames) {
  for (const char* rules : {"seize-reference", "seize-v0"}) {
    const GamePtr game = load_game(rules);
    int checked = 0;
    for (uint64_t seed = 1; seed <= 60; ++seed) {
      testing::play_random_game(*game->initial_state(), seed, 700, [&](const State& s, Action) {
        const std::string text = s.to_text();
        const auto back = game->parse_state(text);
        ASSERT_TRUE(back->equals(s)) << text;
        ASSERT_EQ(back->to_text(), text);
        ++checked;
      });
    }
    EXPECT_GT(checked, 3000);
  }
}

TEST(SeizeNotation, SfenErrorsAreClear) {
  const GamePtr game = load_game("seize-reference");
  const std::vector<std::pair<std::string, std::string>> bad = {
      {"", "fields"},
      {"8/8/2gggg2/2gbbg2/2GBBG2/2GGGG2/8/8 r 0", "fields"},
      {"8/8/2gggg2/2gbbg2/2GBBG2/2GGGG2/8/8 q 0 0-0", "side to move"},
      {"8/8/2gggg2/2gbbg2/2GBBG2/2GGGG2/8 r 0 0-0", "8 ranks"},
      {"8/8/2gggg3/2gbbg2/2GBBG2/2GGGG2/8/8 r 0 0-0", "more than 8"},
      {"g7/8/2gggg2/2gbbg2/2GBBG2/2GGGG2/8/8 r 0 0-0", "corner"},
      {"8/8/2gggg2/2gbbg2/2GBBG2/2GGGG2/8/8 r 0 0-x", "points"},
      {"8/8/2gggg2/2gbbg2/2GBBG2/2GGGG2/8/8 r 99999 0-0", "ply"},
      {"8/8/2gggg2/2gbbg2/2GBBG2/2GGGG2/8/8 r -1 0-0", "ply"},
      {"8/8/2gqgg2/2gbbg2/2GBBG2/2GGGG2/8/8 r 0 0-0", "unexpected character"},
      {"8/8/2gggg2/2gbbg2/2GBBG2/2GGGG2/bbb5/8 r 0 0-0", "bosses"},
      {"8/8/2gggg2/2gb+bg2/2GBBG2/2GGGG2/8/8 r 0 0-0", "boss"},
  };
  for (const auto& [text, want] : bad) {
    const std::string err = error_of([&] { game->parse_state(text); });
    EXPECT_NE(err.find(want), std::string::npos) << "'" << text << "' gave '" << err << "'";
  }
  const GamePtr v0 = load_game("seize-v0");
  EXPECT_NE(error_of([&] {
              v0->parse_state("8/8/2gggg2/2gbbg2/2GBBG2/2GGGG2/8/8 i +c1 0");
            }).find("token"),
            std::string::npos);
  EXPECT_NE(error_of([&] {
              v0->parse_state("8/8/2gggg2/2gbbg2/2G*BBG2/2GGGG2/8/8 i - 0");
            }).find("boss cap"),
            std::string::npos);
}

TEST(SeizeNotation, BinaryFormSizes) {
  EXPECT_EQ(binary_size(rules_of(load_game("seize-v0"))), 18);
  EXPECT_EQ(binary_size(rules_of(load_game("seize-reference"))), 19);
  EXPECT_EQ(to_base64(pos_of(*load_game("seize-v0")->initial_state())).size(), 24u);
  EXPECT_EQ(to_base64(pos_of(*load_game("seize-reference")->initial_state())).size(), 26u);
}

TEST(SeizeNotation, BinaryRoundTripsOverRandomGames) {
  for (const char* rules : {"seize-reference", "seize-v0"}) {
    const GamePtr game = load_game(rules);
    const Rules& r = rules_of(game);
    for (uint64_t seed = 100; seed <= 160; ++seed) {
      testing::play_random_game(*game->initial_state(), seed, 700, [&](const State& s, Action) {
        const Position& p = pos_of(s);
        ASSERT_EQ(from_binary(r, to_binary(p)), p) << to_sfen(p);
        ASSERT_EQ(from_base64(r, to_base64(p)), p) << to_sfen(p);
      });
    }
  }
}

// The seed's bug: a 7-bit halfmove clock broke when the draw limit moved to 600.
TEST(SeizeNotation, BinaryKeepsTheHalfmoveClockUpTo1023) {
  const GamePtr game = load_game("seize-v0");  // alive as long as its rules are used
  const Rules& r = rules_of(game);
  for (int clock : {0, 127, 128, 599, 600, 1000, 1023}) {
    const Position p =
        parse_sfen(r, "8/8/2gggg2/2gbbg2/2GBBG2/2GGGG2/8/8 b - " + std::to_string(clock));
    EXPECT_EQ(from_base64(r, to_base64(p)).halfmove(), clock);
  }
  EXPECT_NE(error_of([&] { parse_sfen(r, "8/8/2gggg2/2gbbg2/2GBBG2/2GGGG2/8/8 b - 1024"); }), "");
}

TEST(SeizeNotation, BinaryRejectsDamage) {
  const GamePtr game = load_game("seize-v0");
  const Rules& r = rules_of(game);
  const Position p = Position::start(r);
  std::vector<uint8_t> bytes = to_binary(p);
  EXPECT_NE(error_of([&] { from_binary(r, std::vector<uint8_t>(bytes.begin(), bytes.end() - 1)); }),
            "");
  bytes.back() |= 0x80;  // the unused last bit
  EXPECT_NE(error_of([&] { from_binary(r, bytes); }), "");
  EXPECT_NE(error_of([&] { from_base64(r, "!!!!!!!!!!!!!!!!!!!!!!!!"); }), "");
  EXPECT_NE(error_of([&] { from_base64(r, "AAAA"); }), "");
  std::vector<uint8_t> full(18, 0xff);  // every square occupied
  EXPECT_NE(error_of([&] { from_binary(r, full); }), "");
}

TEST(SeizeNotation, ActionIdsRoundTrip) {
  const GamePtr game = load_game("seize-reference");
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    testing::play_random_game(*game->initial_state(), seed, 300, [&](const State& s, Action) {
      std::vector<Action> legal;
      s.legal_actions(legal);
      for (Action a : legal) {
        ASSERT_GE(a, 0);
        ASSERT_LT(a, game->num_actions());
        ASSERT_EQ(move_to_action(action_to_move(a)), a);
        const int p = s.policy_index(a);
        ASSERT_GE(p, 0);
        ASSERT_LT(p, game->num_actions());
      }
    });
  }
}

}  // namespace
}  // namespace pincer::seize
