// State::ownership (the per-cell target of the network's ownership head) and
// Game::apply_symmetry_plane: hand-checked cells of a SE!ZE position, agreement with each game's
// own piece planes of encode() from both players' views, and symmetries that move the ownership
// plane exactly as they move the input's piece planes.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "engine/registry.h"
#include "engine/seize/notation.h"
#include "engine/seize/seize_game.h"
#include "tests/support/random_games.h"
#include "tests/support/tictactoe.h"

namespace pincer {
namespace {

int cells_of(const Game& game) { return game.input_shape().height * game.input_shape().width; }

std::vector<float> ownership_of(const State& s, int player) {
  std::vector<float> cells(static_cast<size_t>(cells_of(s.game())), 99.0f);
  EXPECT_TRUE(s.ownership(player, cells.data()));
  return cells;
}

// "Gold boss e4 to d5: the red boss on d4 is sandwiched between d3 and d5 and is captured"
// (the rules' worked example): ownership after the capture, cell by cell.
TEST(Ownership, SeizeCellsOfAKnownPositionFromEachSide) {
  const GamePtr game = load_game("seize-reference");
  const auto& seize = static_cast<const seize::SeizeGame&>(*game);
  auto sq = [](const char* name) { return seize::parse_square(name); };
  seize::Position pos = seize::Position::empty(seize.rules(), seize::kBottom);
  for (const char* b : {"e4", "b2"}) pos.put(sq(b), seize::kBottom, true, seize::kNoPower);
  for (const char* g : {"d3", "g2"}) pos.put(sq(g), seize::kBottom, false, seize::kNoPower);
  for (const char* b : {"d4", "g7"}) pos.put(sq(b), seize::kTop, true, seize::kNoPower);
  for (const char* g : {"b7", "c7"}) pos.put(sq(g), seize::kTop, false, seize::kNoPower);
  pos.set_tokens(seize.rules().marked_squares());
  seize::validate(pos);
  auto state = seize.wrap(pos);
  state->apply(game->parse_action(*state, "e4-d5"));
  ASSERT_EQ(state->last_captured(), std::vector<std::string>{"d4"});
  ASSERT_EQ(state->to_move(), seize::kTop);

  // Gold (bottom) sees the board as it is: a1 is cell 0, h8 cell 63.
  const std::vector<float> gold = ownership_of(*state, seize::kBottom);
  for (const char* mine : {"d5", "b2", "d3", "g2"}) EXPECT_EQ(gold[sq(mine)], 1.0f) << mine;
  for (const char* theirs : {"g7", "b7", "c7"}) EXPECT_EQ(gold[sq(theirs)], -1.0f) << theirs;
  EXPECT_EQ(gold[sq("d4")], 0.0f) << "the captured boss is gone";
  EXPECT_EQ(gold[sq("e4")], 0.0f) << "the boss left e4";
  EXPECT_EQ(gold[0], 0.0f) << "a1, a corner, off the board (no square)";
  int pieces = 0;
  for (float v : gold) pieces += v != 0;
  EXPECT_EQ(pieces, 7);

  // Red (top) sees it turned half a circle, as encode() shows it to red: cell 63 - square.
  const std::vector<float> red = ownership_of(*state, seize::kTop);
  for (int c = 0; c < 64; ++c) EXPECT_EQ(red[63 - c], -gold[c]) << "cell " << c;
  EXPECT_EQ(red[63 - sq("g7")], 1.0f);
}

// The mover's pieces minus the opponent's, read off encode()'s piece planes (the planes of each
// side, summed): what ownership(to_move) must equal cell by cell.
struct PiecePlanes {
  std::string ruleset;
  std::vector<int> mine, theirs;
};

std::vector<float> from_planes(const Game& game, const std::vector<float>& planes,
                               const PiecePlanes& p) {
  const int cells = cells_of(game);
  std::vector<float> out(static_cast<size_t>(cells), 0.0f);
  for (int c = 0; c < cells; ++c) {
    for (int k : p.mine) out[c] += planes[k * cells + c];
    for (int k : p.theirs) out[c] -= planes[k * cells + c];
  }
  return out;
}

std::vector<PiecePlanes> games_with_ownership() {
  testing::register_tictactoe();
  return {
      {"seize-reference", {0, 1}, {5, 6}},  // bosses and guards of each side
      {"seize-v0", {0, 1}, {5, 6}},
      {"seega-5x5", {0}, {1}},
      {"seega-7x7", {0}, {1}},
      {"dice-7x7", {0, 1, 2, 3, 4, 5, 6}, {7, 8, 9, 10, 11, 12, 13}},  // the kinds of each side
      {"dice-8x8-promotion-scored", {0, 1, 2, 3, 4, 5, 6}, {7, 8, 9, 10, 11, 12, 13}},
      {"tictactoe", {0}, {1}},
  };
}

GamePtr game_named(const std::string& name) {
  return name == "tictactoe" ? testing::make_tictactoe() : load_game(name);
}

TEST(Ownership, MatchesTheEncodedPiecePlanesFromBothSides) {
  for (const PiecePlanes& p : games_with_ownership()) {
    SCOPED_TRACE(p.ruleset);
    const GamePtr game = game_named(p.ruleset);
    EXPECT_TRUE(game->provides_ownership());
    for (uint64_t seed = 1; seed <= 6; ++seed) {
      testing::play_random_game(*game->start_state(seed), seed, 120, [&](const State& s, Action) {
        std::vector<float> planes(static_cast<size_t>(game->input_shape().size()));
        s.encode(planes.data());
        const int us = s.to_move();
        ASSERT_EQ(ownership_of(s, us), from_planes(*game, planes, p)) << s.to_text();
        // The other side's view: each cell's owner flips, the board turns as encode() turns it
        // for that side; so the multiset of values is the negation.
        std::vector<float> mine = ownership_of(s, us), theirs = ownership_of(s, us ^ 1);
        float sum_mine = 0, sum_theirs = 0;
        int count_mine = 0, count_theirs = 0;
        for (float v : mine) sum_mine += v, count_mine += v != 0;
        for (float v : theirs) sum_theirs += v, count_theirs += v != 0;
        EXPECT_EQ(sum_theirs, -sum_mine);
        EXPECT_EQ(count_theirs, count_mine);
      });
    }
  }
}

// Augmentation moves the ownership target with apply_symmetry_plane and the input with
// apply_symmetry: the target must still be the moved input's piece planes, for every symmetry.
TEST(Ownership, SymmetriesMoveItAsTheInputPlanes) {
  int checked = 0;
  for (const PiecePlanes& p : games_with_ownership()) {
    SCOPED_TRACE(p.ruleset);
    const GamePtr game = game_named(p.ruleset);
    for (uint64_t seed = 1; seed <= 3; ++seed) {
      testing::play_random_game(*game->start_state(seed), seed, 60, [&](const State& s, Action) {
        std::vector<float> planes(static_cast<size_t>(game->input_shape().size()));
        s.encode(planes.data());
        const std::vector<float> own = ownership_of(s, s.to_move());
        for (int sym = 1; sym < game->num_symmetries(); ++sym) {
          std::vector<float> moved_planes = planes, moved_own = own;
          game->apply_symmetry(sym, moved_planes.data(), nullptr);
          game->apply_symmetry_plane(sym, moved_own.data());
          ASSERT_EQ(moved_own, from_planes(*game, moved_planes, p)) << "symmetry " << sym;
          if (moved_own != own) ++checked;
        }
      });
    }
  }
  EXPECT_GT(checked, 100) << "the symmetries moved some pieces";
}

TEST(Ownership, NotProvidedWhereCellsDoNotMapOntoTheGrid) {
  // Corners keeps pieces on crossings as well as squares: no ownership (the default).
  const GamePtr corners = load_game("corners");
  EXPECT_FALSE(corners->provides_ownership());
  std::vector<float> cells(static_cast<size_t>(cells_of(*corners)), 7.0f);
  EXPECT_FALSE(corners->initial_state()->ownership(0, cells.data()));
  EXPECT_EQ(cells[0], 7.0f) << "nothing written";
}

}  // namespace
}  // namespace pincer
