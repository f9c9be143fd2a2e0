// Board descriptions (Game::board_layout, State::board_view, State::action_cells) of every
// shipped ruleset: cells and names consistent with the notation, the pieces a position holds,
// and the cells each action moves between, over random games.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <tuple>

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
  std::set<std::tuple<std::string, int, int>> places;
  for (const BoardCell& c : layout.cells) {
    EXPECT_TRUE(names.insert(c.name).second) << c.name;
    EXPECT_TRUE(places.insert({c.shape, c.column, c.row}).second) << c.name;
    // A tile lies on the grid; a point (a crossing) may lie on its far edges too.
    ASSERT_TRUE(c.shape.empty() || c.shape == "point") << c.shape;
    const int edge = c.shape.empty() ? 0 : 1;
    EXPECT_GE(c.column, 0);
    EXPECT_LT(c.column, layout.columns + edge);
    EXPECT_GE(c.row, 0);
    EXPECT_LT(c.row, layout.rows + edge);
    if (!c.mark.empty()) {
      bool known = false;
      for (const auto& m : layout.marks) known |= m.first == c.mark;
      EXPECT_TRUE(known) << c.mark;
    }
  }
  for (int p = 0; p < 2; ++p) EXPECT_FALSE(layout.side_colors[p].empty());
  for (const PieceKind& k : layout.kinds) {
    ASSERT_TRUE(k.shape.empty() || k.shape == "die") << k.name << ": " << k.shape;
    EXPECT_TRUE(k.pips >= 0 && k.pips <= 6) << k.name;
    EXPECT_TRUE(k.pips == 0 || k.shape == "die") << k.name;
  }
}

TEST_P(BoardLayoutTest, ViewAndActionCellsFollowTheMoves) {
  const GamePtr game = load_game(GetParam());
  const BoardLayout layout = game->board_layout();
  const int n = static_cast<int>(layout.cells.size());
  auto cell_of = [&](const std::string& name) {
    for (int i = 0; i < n; ++i)
      if (layout.cells[i].name == name) return i;
    return -1;
  };
  int checked = 0;
  for (uint64_t seed = 1; seed <= 8; ++seed) {
    testing::play_random_game(*game->start_state(seed), seed, 160, [&](const State& s, Action a) {
      const BoardView view = s.board_view();
      ASSERT_EQ(static_cast<int>(view.piece.size()), n);
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
      for (int c : cells.also) {
        ASSERT_GE(c, 0);
        ASSERT_LT(c, n);
        EXPECT_EQ(view.piece[c], -1) << "a piece put on an occupied cell: " << text;
        EXPECT_NE(text.find(layout.cells[c].name), std::string::npos) << text;
      }
      auto next = s.clone();
      next->apply(a);
      const BoardView after = next->board_view();
      std::set<int> captured;
      for (const std::string& name : next->last_captured()) {
        const int c = cell_of(name);
        ASSERT_GE(c, 0) << "captured " << name << " is not a cell";
        captured.insert(c);
      }
      // What the action puts down is there, unless the captures after it took it.
      std::vector<int> put = cells.also;
      if (cells.to != cells.from) put.push_back(cells.to);
      for (int c : put) {
        EXPECT_TRUE(after.piece[c] >= 0 || captured.count(c))
            << "nothing arrived on " << layout.cells[c].name << ": " << text;
      }
      if (cells.from >= 0) {
        EXPECT_EQ(after.piece[cells.from], -1) << "the origin is not left: " << text;
      }
      ++checked;
    });
  }
  EXPECT_GT(checked, 100);
}

// The page picks a move by its cells: every legal action of a position has its own cells.
TEST_P(BoardLayoutTest, EveryLegalActionHasItsOwnCells) {
  const GamePtr game = load_game(GetParam());
  int positions = 0;
  for (uint64_t seed = 11; seed <= 14; ++seed) {
    testing::play_random_game(*game->start_state(seed), seed, 160, [&](const State& s, Action) {
      std::vector<Action> legal;
      s.legal_actions(legal);
      std::set<std::tuple<int, int, std::vector<int>>> seen;
      for (Action a : legal) {
        ActionCells c = s.action_cells(a);
        std::sort(c.also.begin(), c.also.end());
        EXPECT_TRUE(seen.insert({c.from, c.to, c.also}).second)
            << "two legal actions share their cells: " << game->action_text(s, a, false);
      }
      ++positions;
    });
  }
  EXPECT_GT(positions, 50);
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

TEST(BoardLayout, CornersHasSquaresAndPoints) {
  const GamePtr game = load_game("corners");
  const BoardLayout layout = game->board_layout();
  ASSERT_EQ(layout.cells.size(), 64u + 49u);
  EXPECT_EQ(layout.cells[0].name, "a1");
  EXPECT_EQ(layout.cells[0].row, 7);
  // The first point, a1', is the top-right corner of a1: the top-left corner of tile b1.
  EXPECT_EQ(layout.cells[64].name, "a1'");
  EXPECT_EQ(layout.cells[64].shape, "point");
  EXPECT_EQ(layout.cells[64].column, 1);
  EXPECT_EQ(layout.cells[64].row, 7);
  EXPECT_EQ(layout.cells.back().name, "g7'");
  const BoardView view = game->initial_state()->board_view();
  int squares[2] = {0, 0}, points = 0;
  for (size_t i = 0; i < view.piece.size(); ++i) {
    if (view.piece[i] < 0) continue;
    (i < 64 ? squares[layout.kinds[view.piece[i]].owner] : points) += 1;
  }
  EXPECT_EQ(squares[0], 16);
  EXPECT_EQ(squares[1], 16);
  EXPECT_EQ(points, 0);
}

TEST(BoardLayout, CornersDivideGoesFromItsPointToItsSquares) {
  const GamePtr game = load_game("corners");
  // White: a point piece on d4' and two pieces in reserve; a square piece each far apart.
  auto s = game->parse_state(
      "......../B......./......../......../......../......../......../.......W "
      "......./......./......./...W.../......./......./....... w 2 15 10");
  const BoardLayout layout = game->board_layout();
  const Action a = game->parse_action(*s, "d4'*d4e5");
  const ActionCells cells = s->action_cells(a);
  EXPECT_EQ(layout.cells[cells.from].name, "d4'");
  EXPECT_EQ(cells.to, cells.from);
  std::vector<std::string> also;
  for (int c : cells.also) also.push_back(layout.cells[c].name);
  std::sort(also.begin(), also.end());
  EXPECT_EQ(also, (std::vector<std::string>{"d4", "e5"}));
  const ActionCells step = s->action_cells(game->parse_action(*s, "d4'-e4"));
  EXPECT_EQ(layout.cells[step.from].name, "d4'");
  EXPECT_EQ(layout.cells[step.to].name, "e4");
}

TEST(BoardLayout, DiceSizesAndFaces) {
  for (const auto& [rules, size] : std::vector<std::pair<std::string, int>>{
           {"dice-6x6", 6}, {"dice-7x7", 7}, {"dice-8x8", 8}}) {
    const GamePtr game = load_game(rules);
    const BoardLayout layout = game->board_layout();
    EXPECT_EQ(layout.columns, size) << rules;
    EXPECT_EQ(static_cast<int>(layout.cells.size()), size * size) << rules;
    const auto start = game->setup_state(game->draw_setup(5));
    const BoardView view = start->board_view();
    int kings = 0, dice[2] = {0, 0};
    for (int k : view.piece) {
      if (k < 0) continue;
      EXPECT_EQ(layout.kinds[k].shape, "die");
      ++dice[layout.kinds[k].owner];
      kings += layout.kinds[k].glyph == "K";
    }
    EXPECT_EQ(kings, 2) << rules;
    EXPECT_EQ(dice[0], 2 * size) << rules;  // a front row of pawns and a back row
    EXPECT_EQ(dice[1], 2 * size) << rules;
  }
  // The pawns show two pips; capturing scores only where the ruleset plays for points.
  const GamePtr scored = load_game("dice-7x7-scored");
  const BoardLayout layout = scored->board_layout();
  const BoardView view = scored->initial_state()->board_view();
  EXPECT_EQ(layout.kinds[view.piece[7]].pips, 2);  // a2
  for (const PieceKind& k : layout.kinds) EXPECT_EQ(k.points, k.glyph == "K" ? 5 : 1) << k.name;
  for (const PieceKind& k : load_game("dice-7x7")->board_layout().kinds) EXPECT_EQ(k.points, 0);
}

}  // namespace
}  // namespace pincer
