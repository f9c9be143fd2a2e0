// Board descriptions (Game::board_layout, State::board_view, State::action_cells) of every
// shipped ruleset: cells and names consistent with the notation, the pieces a position holds,
// and the cells each action moves between, over random games.
#include <gtest/gtest.h>

#include <set>

#include "engine/embedded.h"
#include "engine/registry.h"
#include "tests/support/random_games.h"

namespace pincer {
namespace {

class BoardLayoutTest : public ::testing::TestWithParam<std::string> {};

TEST_P(BoardLayoutTest, CellsAreDistinctAndOnTheGrid) {
  const GamePtr game = load_game(GetParam());
  const BoardLayout layout = game->board_layout();
  ASSERT_TRUE(layout.provided());
  std::set<std::string> names;
  std::set<std::pair<int, int>> places;
  for (const BoardCell& c : layout.cells) {
    EXPECT_TRUE(names.insert(c.name).second) << c.name;
    EXPECT_TRUE(places.insert({c.column, c.row}).second) << c.name;
    EXPECT_GE(c.column, 0);
    EXPECT_LT(c.column, layout.columns);
    EXPECT_GE(c.row, 0);
    EXPECT_LT(c.row, layout.rows);
    if (!c.mark.empty()) {
      bool known = false;
      for (const auto& m : layout.marks) known |= m.first == c.mark;
      EXPECT_TRUE(known) << c.mark;
    }
  }
  for (int p = 0; p < 2; ++p) EXPECT_FALSE(layout.side_colors[p].empty());
}

TEST_P(BoardLayoutTest, ViewAndActionCellsFollowTheMoves) {
  const GamePtr game = load_game(GetParam());
  const BoardLayout layout = game->board_layout();
  const int n = static_cast<int>(layout.cells.size());
  int checked = 0;
  for (uint64_t seed = 1; seed <= 6; ++seed) {
    testing::play_random_game(*game->initial_state(), seed, 120, [&](const State& s, Action a) {
      const BoardView view = s.board_view();
      ASSERT_EQ(static_cast<int>(view.piece.size()), n);
      // Pieces on the board per side agree with the position text's count of moves possible:
      // each kind index is in range and owned by a player.
      for (int k : view.piece) {
        if (k < 0) continue;
        ASSERT_LT(k, static_cast<int>(layout.kinds.size()));
        EXPECT_GE(layout.kinds[k].owner, 0);
      }
      if (a < 0) return;
      const ActionCells cells = s.action_cells(a);
      ASSERT_GE(cells.to, 0);
      ASSERT_LT(cells.to, n);
      const std::string text = game->action_text(s, a, false);
      // The long move text names the destination (and the origin when there is one).
      EXPECT_NE(text.find(layout.cells[cells.to].name), std::string::npos) << text;
      if (cells.from >= 0) {
        ASSERT_LT(cells.from, n);
        EXPECT_NE(text.find(layout.cells[cells.from].name), std::string::npos) << text;
        const int k = view.piece[cells.from];
        ASSERT_GE(k, 0) << "no piece on the origin of " << text;
      } else {
        EXPECT_EQ(view.piece[cells.to], -1) << "placement on an occupied cell: " << text;
      }
      auto next = s.clone();
      next->apply(a);
      const int moved = next->board_view().piece[cells.to];
      ASSERT_GE(moved, 0) << "nothing arrived on the destination of " << text;
      ++checked;
    });
  }
  EXPECT_GT(checked, 100);
}

std::vector<std::string> shipped() {
  std::vector<std::string> out;
  for (const EmbeddedFile& f : embedded_rulesets()) {
    if (load_game(f.name)->board_layout().provided()) out.push_back(f.name);
  }
  return out;
}

INSTANTIATE_TEST_SUITE_P(Shipped, BoardLayoutTest, ::testing::ValuesIn(shipped()),
                         [](const auto& info) {
                           std::string name = info.param;
                           for (char& c : name)
                             c = std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
                           return name;
                         });

TEST(BoardLayout, SeizeStartPositionPieces) {
  for (const char* rules : {"seize-reference", "seize-v0"}) {
    const GamePtr game = load_game(rules);
    const BoardLayout layout = game->board_layout();
    EXPECT_EQ(layout.cells.size(), 60u) << rules;  // 8x8 without the corners
    const BoardView view = game->initial_state()->board_view();
    int pieces[2] = {0, 0}, bosses[2] = {0, 0};
    for (int k : view.piece) {
      if (k < 0) continue;
      ++pieces[layout.kinds[k].owner];
      if (layout.kinds[k].name.rfind("boss", 0) == 0) ++bosses[layout.kinds[k].owner];
    }
    EXPECT_EQ(pieces[0], pieces[1]) << rules;
    EXPECT_GT(pieces[0], 0) << rules;
    EXPECT_EQ(bosses[0], bosses[1]) << rules;
    EXPECT_GE(bosses[0], 1) << rules;
  }
  // Seed 000's points: guard 1, capped guard 2, boss 3.
  const BoardLayout ref = load_game("seize-reference")->board_layout();
  for (const PieceKind& k : ref.kinds) {
    if (k.owner < 0) continue;
    const int want = k.name.rfind("boss", 0) == 0 ? 3 : k.name == "guard" ? 1 : 2;
    EXPECT_EQ(k.points, want) << k.name;
  }
}

TEST(BoardLayout, SeegaPlacementHasNoOrigin) {
  const GamePtr game = load_game("seega-5x5");
  auto s = game->initial_state();
  const Action a = game->parse_action(*s, "b2");
  const ActionCells cells = s->action_cells(a);
  EXPECT_EQ(cells.from, -1);
  EXPECT_EQ(game->board_layout().cells[cells.to].name, "b2");
  EXPECT_EQ(game->board_layout().cells[12].mark, "centre");
}

}  // namespace
}  // namespace pincer
