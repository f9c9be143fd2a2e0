// The dice network view: planes from the mover's side (ranks turned for black), faces per side,
// policy indices turned alike, and the left-right mirror as a symmetry of planes and policy.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>

#include "tests/support/dice_fixtures.h"
#include "tests/support/random_games.h"

namespace pincer::dice {
namespace {

std::vector<float> planes_of(const State& s) {
  std::vector<float> p(s.game().input_shape().size());
  s.encode(p.data());
  return p;
}

// The position text with every rank reversed (files mirrored).
std::string mirrored(const std::string& text) {
  const std::string board = text.substr(0, text.find(' '));
  std::string out;
  size_t start = 0;
  while (true) {
    const size_t slash = board.find('/', start);
    std::string rank =
        board.substr(start, slash == std::string::npos ? std::string::npos : slash - start);
    // Expand digits, reverse, compress again.
    std::string cells;
    for (char c : rank)
      cells += std::isdigit(static_cast<unsigned char>(c)) ? std::string(c - '0', '.')
                                                           : std::string(1, c);
    std::reverse(cells.begin(), cells.end());
    int empty = 0;
    for (char c : cells) {
      if (c == '.') {
        ++empty;
        continue;
      }
      if (empty) out += std::to_string(empty), empty = 0;
      out += c;
    }
    if (empty) out += std::to_string(empty);
    if (slash == std::string::npos) break;
    out += '/';
    start = slash + 1;
  }
  return out + text.substr(text.find(' '));
}

TEST(DiceEncoding, KnownPlanesFromEachSide) {
  const GamePtr g = load_game("dice-7x7");
  EXPECT_EQ(g->input_shape().channels, DiceGame::kPlanes);
  EXPECT_EQ(g->input_shape().height, 7);
  const int sq = 49;
  auto s = g->setup_state("354K612/216K543");
  auto p = planes_of(*s);
  EXPECT_EQ(p[0 * sq + 3], 1.0f);                // my King on d1
  EXPECT_EQ(p[3 * sq + 0], 1.0f);                // my knight (face 3) on a1
  EXPECT_EQ(p[(7 + 0) * sq + 45], 1.0f);         // their King on d7
  EXPECT_EQ(p[(7 + 2) * sq + 7 * 5 + 0], 1.0f);  // their pawns (face 2) on rank 6
  EXPECT_EQ(p[18 * sq], 1.0f);                   // the mover is white
  // Black to move sees the board turned: its King on "d1", its pawns on "rank 2".
  s = g->setup_state("354K612/216K543 b");
  p = planes_of(*s);
  EXPECT_EQ(p[0 * sq + 3], 1.0f);
  EXPECT_EQ(p[2 * sq + 7 + 4], 1.0f);
  EXPECT_EQ(p[(7 + 3) * sq + 42], 1.0f);  // white's a1 knight is on "a7" for black
  EXPECT_EQ(p[18 * sq], 0.0f);
  // Turned policy: black's a6-a5 is white's a2-a3 in the mover's view.
  const Action black_move = g->parse_action(*s, "a6-a5");
  const auto w = g->setup_state("354K612/216K543");
  EXPECT_EQ(s->policy_index(black_move), w->policy_index(g->parse_action(*w, "a2-a3")));
}

TEST(DiceEncoding, MirrorSymmetryMapsPlanesAndPolicy) {
  for (const char* name : {"dice-7x7", "dice-6x6", "dice-8x8-promotion-scored"}) {
    const GamePtr g = load_game(name);
    ASSERT_EQ(g->num_symmetries(), 2);
    pincer::testing::play_random_game(*g->start_state(3), 5, 30, [&](const State& s, Action) {
      if (s.outcome().over) return;
      const auto m = g->parse_state(mirrored(s.to_text()));
      std::vector<float> turned = planes_of(s);
      std::vector<float> policy(g->num_actions(), 0.0f);
      std::vector<Action> legal;
      s.legal_actions(legal);
      for (Action a : legal) policy[s.policy_index(a)] = 1.0f;
      g->apply_symmetry(1, turned.data(), policy.data());
      EXPECT_EQ(turned, planes_of(*m)) << s.to_text();
      std::vector<Action> mirrored_legal;
      m->legal_actions(mirrored_legal);
      std::vector<float> want(g->num_actions(), 0.0f);
      for (Action a : mirrored_legal) want[m->policy_index(a)] = 1.0f;
      EXPECT_EQ(policy, want) << s.to_text();
    });
  }
}

}  // namespace
}  // namespace pincer::dice
